//! `min/max.NaN{.ftz}.f32` (guarded too): a NaN operand gives the canonical NaN
//! (`ops::float::min_max_f32`), otherwise `FMNMX`'s result. `FSETP.NAN` (either operand a
//! NaN; flushing cannot make or unmake a NaN) into P6 before `FMNMX` writes the destination,
//! then `@P6 MOV32I` of 0x7fffffff.

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
        // P6 = a NaN operand and the instruction's guard (`@P1 ` → `P1`), so `@P6` writes only
        // lanes the guard selects; the FSETP itself runs unguarded.
        let guard = g.trim().trim_start_matches('@');
        let guard = if guard.is_empty() { "pt" } else { guard };
        self.emit("", format!("FSETP.NAN.AND {p}, pt, {a}, {b}, {guard};"));
        self.emit(g, format!("FMNMX{ftz} {d}, {a}, {b}, {sel};"));
        self.emit("", format!("@{p} MOV32I {d}, 0x7fffffff;"));
        Ok(())
    }
}
