//! `min/max.NaN{.ftz}.f32`: a NaN operand gives the canonical NaN (`ops::float::min_max_f32`),
//! otherwise `FMNMX`'s result. `FSETP.NAN` (either operand a NaN; flushing cannot make or
//! unmake a NaN) into P6 before `FMNMX` writes the destination, then `@P6 MOV32I` of
//! 0x7fffffff.

use super::{Selector, R};
use crate::regs::{SCRATCH, SCRATCH_PAIR, SCRATCH_PRED};
use ir::{Inst, Opcode};
use isa::Flag;

impl Selector<'_> {
    pub(super) fn minmax_nan(&mut self, inst: &Inst, g: &str) -> R<()> {
        let ftz = if inst.mods.has(Flag::Ftz) { ".FTZ" } else { "" };
        let d = self.gpr(self.dst(inst)?)?;
        let a = self.reg32(Self::opnd(inst, 1)?, g, SCRATCH)?;
        let b = self.reg32(Self::opnd(inst, 2)?, g, SCRATCH_PAIR)?;
        let p = format!("P{SCRATCH_PRED}");
        let sel = if inst.op == Opcode::Min { "pt" } else { "!pt" };
        self.emit(g, format!("FSETP.NAN.AND {p}, pt, {a}, {b}, pt;"));
        self.emit(g, format!("FMNMX{ftz} {d}, {a}, {b}, {sel};"));
        // The guard of the instruction and P6 both: `@P6` alone would also write lanes the
        // instruction's guard leaves out, but P6 was only computed under that guard.
        if g.is_empty() {
            self.emit("", format!("@{p} MOV32I {d}, 0x7fffffff;"));
        } else {
            return Err("a guarded min/max.NaN has no selection rule yet".into());
        }
        Ok(())
    }
}
