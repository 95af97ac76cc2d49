//! Register assignment: every PTX register a kernel uses gets its own Fermi register for the
//! whole kernel (64-bit values in an aligned pair, predicates in P0–P6).
//!
//! This is a deliberately simple first allocator: no live ranges are shared, so kernels with
//! many registers fail with a clear error rather than spill. It is the part `regalloc2` is to
//! replace (see docs/codegen.md).

use ir::{Function, RegId, Type};
use std::collections::HashMap;

/// R0 is a 32-bit scratch register, R1 the stack pointer, R2:R3 a 64-bit scratch pair.
pub const SCRATCH: u8 = 0;
pub const SCRATCH_PAIR: u8 = 2;
/// P6 is the scratch predicate of multi-instruction sequences (div/rem): the allocator keeps it
/// free in bodies that contain them.
pub const SCRATCH_PRED: u8 = 6;
const FIRST_FREE: u8 = 4;
/// R63 is RZ.
const LAST_GPR: u8 = 62;
/// P7 is PT; P6 is the scratch predicate.
const LAST_PRED: u8 = SCRATCH_PRED - 1;

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
        Type::B32 | Type::U32 | Type::S32 | Type::F32 | Type::F16x2 | Type::Bf16x2 => 32,
        Type::U16x2 | Type::S16x2 | Type::Tf32 => 32,
        Type::B64 | Type::U64 | Type::S64 | Type::F64 | Type::F32x2 => 64,
        Type::B128 => return None,
    })
}

#[derive(Default)]
pub struct RegMap {
    map: HashMap<RegId, Loc>,
    next_gpr: u8,
    next_pred: u8,
    /// The highest GPR index written or read.
    pub max_gpr: u8,
}

impl RegMap {
    pub fn new() -> RegMap {
        RegMap {
            map: HashMap::new(),
            next_gpr: FIRST_FREE,
            next_pred: 0,
            max_gpr: 3,
        }
    }

    /// A map made by the allocator (`alloc.rs`): every register has its location already.
    pub fn from_assignment(map: HashMap<RegId, Loc>) -> RegMap {
        let max_gpr = map
            .values()
            .map(|l| match *l {
                Loc::Gpr(g) => g,
                Loc::Pair(g) => g + 1,
                Loc::Pred(_) => 0,
            })
            .max()
            .unwrap_or(0)
            .max(3);
        RegMap {
            map,
            next_gpr: u8::MAX,
            next_pred: u8::MAX,
            max_gpr,
        }
    }

    /// The location the allocator gave `r`, if it saw it.
    pub fn loc_of(&self, r: RegId) -> Option<Loc> {
        self.map.get(&r).copied()
    }

    /// The predicate registers the allocation uses (a `.func` saves them).
    pub fn preds_used(&self) -> Vec<u8> {
        let mut v: Vec<u8> = self
            .map
            .values()
            .filter_map(|l| match l {
                Loc::Pred(p) => Some(*p),
                _ => None,
            })
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// The location of `r`: the allocator's, or (for a map built with [`RegMap::new`])
    /// a register of its own assigned on first use.
    pub fn loc(&mut self, f: &Function, r: RegId) -> Result<Loc, String> {
        if let Some(l) = self.map.get(&r) {
            return Ok(*l);
        }
        if self.next_gpr == u8::MAX {
            return Err("internal error: a register the allocator did not see".into());
        }
        let reg = f.reg(r).ok_or("register id out of range")?;
        let loc = match width_of(reg.ty) {
            Some(1) => {
                if self.next_pred > LAST_PRED {
                    return Err(format!(
                        "out of predicate registers at `{}`: more than 7 live predicates need spilling, which is not yet implemented",
                        reg.name
                    ));
                }
                self.next_pred += 1;
                Loc::Pred(self.next_pred - 1)
            }
            Some(64) => {
                let even = self.next_gpr.next_multiple_of(2);
                if even + 1 > LAST_GPR {
                    return Err(self.out_of_gprs(&reg.name.to_string()));
                }
                self.next_gpr = even + 2;
                self.max_gpr = self.max_gpr.max(even + 1);
                Loc::Pair(even)
            }
            Some(_) => {
                if self.next_gpr > LAST_GPR {
                    return Err(self.out_of_gprs(&reg.name.to_string()));
                }
                self.next_gpr += 1;
                self.max_gpr = self.max_gpr.max(self.next_gpr - 1);
                Loc::Gpr(self.next_gpr - 1)
            }
            None => {
                return Err(format!(
                    "`{}` is a .b128 register, which sm_20 has no registers for",
                    reg.name
                ))
            }
        };
        self.map.insert(r, loc);
        Ok(loc)
    }

    fn out_of_gprs(&self, name: &str) -> String {
        format!("out of registers at `{name}`: the kernel needs more than 63 registers without sharing, and spilling is not yet implemented")
    }
}
