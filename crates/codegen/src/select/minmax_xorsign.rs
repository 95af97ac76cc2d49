//! `min/max{.ftz}{.NaN}.xorsign.abs.f32` (guarded too), as `ops::float::min_max_f32` defines
//! it: `FMNMX` of the magnitudes (`|a|`, `|b|`: the row's abs bits), the sign the XOR of the
//! operands' signs (`LOP.XOR`, masked, `LOP.OR` onto the magnitude), and the canonical NaN
//! when the result is a NaN — with `.NaN` when either operand is one (`FSETP.NAN` of the
//! operands), without it when `FMNMX` gives a NaN (both operands NaN; `FSETP.NAN` of the
//! result). Flushing keeps signs and NaN-ness, so `.FTZ` on `FMNMX` is all `.ftz` needs.

use super::{Selector, R};
use crate::regs::{SCRATCH, SCRATCH_PAIR, SCRATCH_PRED};
use ir::{Inst, Opcode};
use isa::Flag;

impl Selector<'_> {
    pub(super) fn minmax_xorsign(&mut self, inst: &Inst, g: &str) -> R<()> {
        let ftz = if inst.mods.has(Flag::Ftz) { ".FTZ" } else { "" };
        let d = self.gpr(self.dst(inst)?)?;
        let a = self.reg32(Self::opnd(inst, 1)?, g, SCRATCH)?;
        let b = self.reg32(Self::opnd(inst, 2)?, g, SCRATCH_PAIR)?;
        let (r, sign) = (format!("R{SCRATCH}"), format!("R{}", SCRATCH_PAIR + 1));
        let p = format!("P{SCRATCH_PRED}");
        let sel = if inst.op == Opcode::Min { "pt" } else { "!pt" };
        // P6 = "the result is a NaN" and the instruction's guard, so `@P6` writes only lanes
        // the guard selects; the FSETP itself runs unguarded.
        let guard = g.trim().trim_start_matches('@');
        let guard = if guard.is_empty() { "pt" } else { guard };
        self.emit(g, format!("LOP.XOR {sign}, {a}, {b};"));
        if inst.mods.has(Flag::NaN) {
            self.emit("", format!("FSETP.NAN.AND {p}, pt, {a}, {b}, {guard};"));
        }
        self.emit(g, format!("FMNMX{ftz} {r}, |{a}|, |{b}|, {sel};"));
        if !inst.mods.has(Flag::NaN) {
            self.emit("", format!("FSETP.NAN.AND {p}, pt, {r}, {r}, {guard};"));
        }
        self.emit(g, format!("LOP32I.AND {sign}, {sign}, 0x80000000;"));
        self.emit(g, format!("LOP.OR {d}, {r}, {sign};"));
        self.emit("", format!("@{p} MOV32I {d}, 0x7fffffff;"));
        Ok(())
    }
}
