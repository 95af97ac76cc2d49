//! Fermi's registers as the selector sees them: the scratch registers, and where each PTX
//! register is at the instruction being selected (`RegMap`, filled from `ra`).

use ir::{Function, RegId, Type};

/// R0 is a 32-bit scratch register, R1 the stack pointer, R2:R3 a 64-bit scratch pair.
pub const SCRATCH: u8 = 0;
pub const SCRATCH_PAIR: u8 = 2;
/// P6 is the scratch predicate of multi-instruction sequences (div/rem) and of `regalloc2`'s
/// predicate moves in bodies that have such sequences; elsewhere it holds values.
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

/// Where the PTX registers of the instruction being selected are: the body emitter
/// (`body.rs`) points it at each instruction's allocation (`ra`) before selecting it, so a
/// register may live in different places at different instructions (split live ranges).
pub struct RegMap {
    /// The registers the current instruction names, with their locations.
    here: Vec<(usize, Loc)>,
    /// The highest GPR index written or read.
    pub max_gpr: u8,
    gprs: [bool; 64],
    preds: Vec<u8>,
}

impl RegMap {
    /// A map over an allocation whose values use the general registers `gprs` (both halves
    /// of pairs) and the predicates `preds`.
    pub fn new(gprs: [bool; 64], mut preds: Vec<u8>) -> RegMap {
        preds.sort_unstable();
        preds.dedup();
        let max_gpr = (0..64u8)
            .filter(|&g| gprs[usize::from(g)])
            .max()
            .unwrap_or(0)
            .max(3);
        RegMap {
            here: Vec::new(),
            max_gpr,
            gprs,
            preds,
        }
    }

    /// Makes `names` (PTX register index, location) the current instruction's registers.
    pub fn set_here(&mut self, names: impl Iterator<Item = (usize, Loc)>) {
        self.here.clear();
        self.here.extend(names);
    }

    /// The location of `r` at the current instruction, if it names `r`.
    pub fn loc_of(&self, r: RegId) -> Option<Loc> {
        self.here.iter().find(|x| x.0 == r.index()).map(|&(_, l)| l)
    }

    /// The general registers the allocation assigned to values (both halves of pairs).
    pub fn allocated_gprs(&self) -> [bool; 64] {
        self.gprs
    }

    /// The predicate registers the allocation uses (a `.func` saves them).
    pub fn preds_used(&self) -> Vec<u8> {
        self.preds.clone()
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
