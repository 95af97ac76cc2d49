//! Special registers beyond the thread and CTA ids: `%clock`, `%clock64`, `%warpid`,
//! `%nwarpid`, `%gridid` and the lane masks.
//!
//! ptxvm defines `%clock`/`%clock64` as the number of instructions the warp has executed
//! (docs/spec-notes.md); the Fermi executor's `SR_ClockLo`/`SR_ClockHi` count its own
//! instructions the same way, so both are monotone per warp (their values differ: the two
//! programs have different instruction counts). `%warpid` is the warp's index in the CTA and
//! `%nwarpid` the CTA's warp count, as the PTX executor defines them; Fermi has no special
//! register with exactly that meaning (`SR_VirtId` is the hardware slot), so both are computed
//! from the thread index and the CTA shape, which gives the same numbers as the PTX executor
//! (its warps are the CTA's threads in linear order, 32 at a time).

use super::{Selector, R};
use crate::regs::{SCRATCH, SCRATCH_PAIR};
use ir::{Inst, RegId};
use isa::SpecialReg as S;

impl Selector<'_> {
    /// `mov d, reg` for the special registers above; `Ok(false)` if `reg` is not one of them.
    pub(super) fn special(&mut self, inst: &Inst, g: &str, reg: S) -> R<bool> {
        let (s, t, u) = (
            format!("R{SCRATCH}"),
            format!("R{SCRATCH_PAIR}"),
            format!("R{}", SCRATCH_PAIR + 1),
        );
        let d = self.dst(inst)?;
        match reg {
            S::Clock => {
                let d = self.gpr(d)?;
                self.emit(g, format!("S2R {d}, SR_ClockLo;"));
            }
            S::Clock64 => self.clock64(d, g)?,
            // envydis names special register 0x2c (cuobjdump's SR_GridParam) `gridid`.
            S::Gridid => match self.loc(d)? {
                crate::regs::Loc::Pair(n) => {
                    self.emit(g, format!("S2R R{n}, SR_GridParam;"));
                    self.emit(g, format!("MOV R{}, RZ;", n + 1));
                }
                _ => {
                    let d = self.gpr(d)?;
                    self.emit(g, format!("S2R {d}, SR_GridParam;"));
                }
            },
            S::Warpid => {
                // ((tid.z · ntid.y + tid.y) · ntid.x + tid.x) >> 5.
                let d = self.gpr(d)?;
                self.emit(g, format!("S2R {s}, SR_Tid_Z;"));
                self.emit(g, format!("S2R {t}, SR_Tid_Y;"));
                self.emit(g, format!("MOV {u}, c [0x0] [0xc];"));
                self.emit(g, format!("IMAD {s}, {s}, {u}, {t};"));
                self.emit(g, format!("S2R {t}, SR_Tid_X;"));
                self.emit(g, format!("MOV {u}, c [0x0] [0x8];"));
                self.emit(g, format!("IMAD {s}, {s}, {u}, {t};"));
                self.emit(g, format!("SHR.U32 {d}, {s}, 0x5;"));
            }
            S::Nwarpid => {
                // ceil(ntid.x · ntid.y · ntid.z / 32); the product is at most 1024.
                let d = self.gpr(d)?;
                self.emit(g, format!("MOV {s}, c [0x0] [0x8];"));
                self.emit(g, format!("MOV {t}, c [0x0] [0xc];"));
                self.emit(g, format!("IMUL {s}, {s}, {t};"));
                self.emit(g, format!("MOV {t}, c [0x0] [0x10];"));
                self.emit(g, format!("IMUL {s}, {s}, {t};"));
                self.emit(g, format!("IADD {s}, {s}, 0x1f;"));
                self.emit(g, format!("SHR.U32 {d}, {s}, 0x5;"));
            }
            S::LanemaskEq | S::LanemaskLt | S::LanemaskLe | S::LanemaskGt | S::LanemaskGe => {
                let name = match reg {
                    S::LanemaskEq => "SR_EqMask",
                    S::LanemaskLt => "SR_LtMask",
                    S::LanemaskLe => "SR_LeMask",
                    S::LanemaskGt => "SR_GtMask",
                    _ => "SR_GeMask",
                };
                let d = self.gpr(d)?;
                self.emit(g, format!("S2R {d}, {name};"));
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// `%clock64` from the two 32-bit halves. The high half is read before and after the low
    /// one; if they differ (the low half wrapped between the reads), a low half with its top
    /// bit set was read before the wrap and belongs with the first high half, one without it
    /// after the wrap, with the second. Branch-free: `hi = hi2 − ((hi2 − hi1) & (lo >> 31))`.
    fn clock64(&mut self, d: RegId, g: &str) -> R<()> {
        let (dl, dh) = self.pair(d)?;
        let (s, t) = (format!("R{SCRATCH}"), format!("R{SCRATCH_PAIR}"));
        self.emit(g, format!("S2R {s}, SR_ClockHi;"));
        self.emit(g, format!("S2R {dl}, SR_ClockLo;"));
        self.emit(g, format!("S2R {dh}, SR_ClockHi;"));
        self.emit(g, format!("IADD {s}, {dh}, -{s};"));
        self.emit(g, format!("SHR.U32 {t}, {dl}, 0x1f;"));
        self.emit(g, format!("LOP.AND {s}, {s}, {t};"));
        self.emit(g, format!("IADD {dh}, {dh}, -{s};"));
        Ok(())
    }
}
