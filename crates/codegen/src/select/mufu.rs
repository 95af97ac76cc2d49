//! `sin/cos/lg2/ex2.approx{.ftz}.f32` and `rsqrt.approx{.ftz}.f32` onto `MUFU`, as NVIDIA's
//! sm_20 code does: `RRO.SINCOS`/`RRO.EX2` (the range reduction the hardware's `MUFU.SIN/COS/
//! EX2` read) before the sine, cosine and exponential; `MUFU.LG2`/`MUFU.RSQ` directly. The
//! Fermi executor computes `RRO; MUFU` as the PTX `.approx` functions of `ops::transcend`
//! (docs/spec-notes.md, "RRO"). `.ftz` flushes the operand and the result with `FMUL.FTZ`
//! by 1.0 (`MUFU` itself does not flush), as `ops` flushes both.

use super::{Selector, R};
use crate::regs::{SCRATCH, SCRATCH_PAIR};
use ir::{Inst, Opcode};
use isa::Flag;

impl Selector<'_> {
    pub(super) fn mufu(&mut self, inst: &Inst, g: &str) -> R<()> {
        let m = &inst.mods;
        if !m.has(Flag::Approx) || m.has(Flag::Sat) {
            return Err("only the .approx{.ftz}.f32 forms are selected".into());
        }
        let (func, rro) = match inst.op {
            Opcode::Sin => ("SIN", Some("SINCOS")),
            Opcode::Cos => ("COS", Some("SINCOS")),
            Opcode::Ex2 => ("EX2", Some("EX2")),
            Opcode::Lg2 => ("LG2", None),
            Opcode::Rsqrt => ("RSQ", None),
            _ => return Err("no MUFU function for this instruction".into()),
        };
        let ftz = m.has(Flag::Ftz);
        let d = self.gpr(self.dst(inst)?)?;
        let mut x = self.reg32(Self::opnd(inst, 1)?, g, SCRATCH)?;
        let (t, one) = (format!("R{SCRATCH}"), format!("R{SCRATCH_PAIR}"));
        if ftz {
            self.emit(g, format!("MOV32I {one}, 0x3f800000;"));
            self.emit(g, format!("FMUL.FTZ {t}, {x}, {one};"));
            x = t.clone();
        }
        if let Some(r) = rro {
            self.emit(g, format!("RRO.{r} {t}, {x};"));
            x = t.clone();
        }
        if ftz {
            self.emit(g, format!("MUFU.{func} {t}, {x};"));
            self.emit(g, format!("FMUL.FTZ {d}, {t}, {one};"));
        } else {
            self.emit(g, format!("MUFU.{func} {d}, {x};"));
        }
        Ok(())
    }
}
