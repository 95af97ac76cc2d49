//! Register assignment: every PTX register a kernel uses gets its own Fermi register for the
//! whole kernel (64-bit values in an aligned pair, predicates in P0–P6).
//!
//! This is a deliberately simple first allocator: no live ranges are shared, so kernels with
//! many registers fail with a clear error rather than spill. It is the part `regalloc2` is to
//! replace (see docs/codegen.md).

use ir::{Function, RegId, Type};

/// R0 is a 32-bit scratch register, R1 the stack pointer, R2:R3 a 64-bit scratch pair.
pub const SCRATCH: u8 = 0;
pub const SCRATCH_PAIR: u8 = 2;
/// P6 is the scratch predicate of multi-instruction sequences (div/rem): the allocator keeps it
/// free in bodies that contain them.
pub const SCRATCH_PRED: u8 = 6;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Loc {
    Gpr(u8),
    /// The even register of an aligned pair.
    Pair(u8),
    Pred(u8),
}

pub fn width_of(ty: Type) -> Option<u32> {
    Some(match ty {
        Type::Pred => 1,
        Type::B8 | Type::U8 | Type::S8 | Type::E4m3 | Type::E5m2 => 8,
        Type::B16 | Type::U16 | Type::S16 | Type::F16 | Type::Bf16 => 16,
        Type::E4m3x2 | Type::E5m2x2 => 16,
        Type::E2m1x2 => 8,
        Type::E2m3x2 | Type::E3m2x2 | Type::Ue8m0x2 => 16,
        Type::B32 | Type::U32 | Type::S32 | Type::F32 | Type::F16x2 | Type::Bf16x2 => 32,
        Type::U16x2 | Type::S16x2 | Type::Tf32 => 32,
        Type::B64 | Type::U64 | Type::S64 | Type::F64 | Type::F32x2 => 64,
        // No register has a sub-byte type (they are only `cvt.pack` destination types).
        Type::B128 | Type::U4 | Type::S4 | Type::U2 | Type::S2 => return None,
    })
}

#[derive(Default)]
pub struct RegMap {
    /// Indexed by `RegId::index`.
    map: Vec<Option<Loc>>,
    /// The highest GPR index written or read.
    pub max_gpr: u8,
}

impl RegMap {
    /// A map made by the allocator (`alloc.rs`): every register has its location already.
    pub fn from_assignment(map: Vec<Option<Loc>>) -> RegMap {
        let max_gpr = map
            .iter()
            .flatten()
            .map(|l| match *l {
                Loc::Gpr(g) => g,
                Loc::Pair(g) => g + 1,
                Loc::Pred(_) => 0,
            })
            .max()
            .unwrap_or(0)
            .max(3);
        RegMap { map, max_gpr }
    }

    /// The location the allocator gave `r`, if it saw it.
    pub fn loc_of(&self, r: RegId) -> Option<Loc> {
        self.map.get(r.index()).copied().flatten()
    }

    /// The general registers the allocation assigned to values (both halves of pairs).
    pub fn allocated_gprs(&self) -> [bool; 64] {
        let mut out = [false; 64];
        for l in self.map.iter().flatten() {
            let (lo, n) = match *l {
                Loc::Gpr(g) => (g, 1),
                Loc::Pair(g) => (g, 2),
                Loc::Pred(_) => continue,
            };
            for g in lo..lo + n {
                if let Some(slot) = out.get_mut(usize::from(g)) {
                    *slot = true;
                }
            }
        }
        out
    }

    /// The predicate registers the allocation uses (a `.func` saves them).
    pub fn preds_used(&self) -> Vec<u8> {
        let mut v: Vec<u8> = self
            .map
            .iter()
            .flatten()
            .filter_map(|l| match l {
                Loc::Pred(p) => Some(*p),
                _ => None,
            })
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// The location the allocator gave `r` (it sees every register a body names, so a
    /// miss is an internal error reported as such, never a guessed register).
    pub fn loc(&mut self, f: &Function, r: RegId) -> Result<Loc, String> {
        self.loc_of(r).ok_or_else(|| {
            let name = f
                .reg(r)
                .map_or_else(|| format!("{r:?}"), |reg| reg.name.to_string());
            format!("internal error: the allocator did not see register `{name}`")
        })
    }
}
