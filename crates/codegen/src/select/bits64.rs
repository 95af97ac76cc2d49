//! 64-bit forms of the bit instructions and the f64 minimum/maximum: `clz.b64`,
//! `bfind.u64/.s64` (not `.shiftamt`), `min/max.f64` (not `.NaN`).
//!
//! `bfind.u64` is the position of the highest set bit: `32 + FLO(hi)` when `hi ≠ 0`, else
//! `FLO(lo)` (`FLO.U32` of 0 is all ones, which is also `bfind`'s "no bit" result); the pick
//! is `ICMP.GE d, 32 + FLO(hi), FLO(lo), FLO(hi)` (`FLO(hi) ≥ 0` exactly when `hi ≠ 0`).
//! `bfind.s64` first complements a negative value (the highest bit that differs from the
//! sign), as `FLO` does for 32 bits; `clz.b64` is `63 − bfind.u64` (64 for 0).
//! `min/max.f64` is `DMNMX` with `pt`/`!pt`, whose NaN and equal-operand rules are
//! `ops::float`'s on both executors, as for `FMNMX`.

use super::{Selector, R};
use crate::regs::{SCRATCH, SCRATCH_PAIR};
use ir::{Inst, Opcode, Operand, Type};
use isa::Flag;

impl Selector<'_> {
    /// `Some(result)` when `inst` is one of this module's forms.
    pub(super) fn bits64(&mut self, inst: &Inst, g: &str, ty: Type) -> Option<R<()>> {
        let m = &inst.mods;
        Some(match inst.op {
            Opcode::Clz if ty == Type::B64 => self.highest_bit(inst, g, false, true),
            Opcode::Bfind if matches!(ty, Type::U64 | Type::S64) && !m.has(Flag::ShiftAmt) => {
                self.highest_bit(inst, g, ty == Type::S64, false)
            }
            Opcode::Bfind if matches!(ty, Type::U64 | Type::S64) => (|| {
                // The position into R0 (a register is named once: the destination may be a
                // source), then 63 − it, keeping 0xffffffff.
                self.highest_bit_into(inst, g, ty == Type::S64, &format!("R{SCRATCH}"))?;
                let d = self.gpr(self.dst(inst)?)?;
                self.shiftamt_from(g, &d, 0x3f);
                Ok(())
            })(),
            Opcode::Min | Opcode::Max
                if ty == Type::F64 && !m.has(Flag::NaN) && !m.has(Flag::Xorsign) =>
            {
                self.dmnmx(inst, g)
            }
            _ => return None,
        })
    }

    /// `bfind` of a 64-bit source into `d` (a register name; R0 allowed).
    fn highest_bit_into(&mut self, inst: &Inst, g: &str, signed: bool, d: &str) -> R<()> {
        let (mut lo, mut hi) = self.src64(Self::opnd(inst, 1)?, g)?;
        let (s, t, u) = (
            format!("R{SCRATCH}"),
            format!("R{SCRATCH_PAIR}"),
            format!("R{}", SCRATCH_PAIR + 1),
        );
        if signed {
            // x ^ (x >> 63, arithmetic): a negative value complemented.
            self.emit(g, format!("SHR {s}, {hi}, 0x1f;"));
            self.emit(g, format!("LOP.XOR {t}, {lo}, {s};"));
            self.emit(g, format!("LOP.XOR {u}, {hi}, {s};"));
            (lo, hi) = (t.clone(), u.clone());
        }
        self.emit(g, format!("FLO.U32 {s}, {hi};"));
        self.emit(g, format!("FLO.U32 {t}, {lo};"));
        self.emit(g, format!("IADD {u}, {s}, 0x20;"));
        self.emit(g, format!("ICMP.GE {d}, {u}, {t}, {s};"));
        Ok(())
    }

    fn highest_bit(&mut self, inst: &Inst, g: &str, signed: bool, clz: bool) -> R<()> {
        let d = self.gpr(self.dst(inst)?)?;
        if !clz {
            return self.highest_bit_into(inst, g, signed, &d);
        }
        // clz = 63 - bfind (bfind's "none" 0xffffffff gives 64).
        let s = format!("R{SCRATCH}");
        self.highest_bit_into(inst, g, signed, &s)?;
        self.emit(g, format!("IADD {s}, RZ, -{s};"));
        self.emit(g, format!("IADD {d}, {s}, 0x3f;"));
        Ok(())
    }

    fn dmnmx(&mut self, inst: &Inst, g: &str) -> R<()> {
        let (dl, _) = self.pair(self.dst(inst)?)?;
        // ops' rules are not symmetric (equal operands give `b`, so the sign of a zero
        // result is `b`'s): the operands keep their order; an immediate goes through R2:R3.
        let operand = |s: &mut Self, k: usize| -> R<String> {
            let o = Self::opnd(inst, k)?;
            if let Operand::Reg(r) = o {
                return Ok(s.pair(*r)?.0);
            }
            let (lo, hi) = s.src64(o, g)?;
            if lo == "RZ" && hi == "RZ" {
                return Ok("RZ".into());
            }
            // A pair operand names its even register: both halves must be in R2:R3.
            for (half, r) in [(&lo, SCRATCH_PAIR), (&hi, SCRATCH_PAIR + 1)] {
                if half == "RZ" {
                    s.emit(g, format!("MOV R{r}, RZ;"));
                }
            }
            Ok(format!("R{SCRATCH_PAIR}"))
        };
        if matches!(
            (Self::opnd(inst, 1)?, Self::opnd(inst, 2)?),
            (Operand::Imm(_), Operand::Imm(_))
        ) {
            return Err("a min/max.f64 of two immediates".into());
        }
        let a = operand(self, 1)?;
        let b = operand(self, 2)?;
        let sel = if inst.op == Opcode::Min { "pt" } else { "!pt" };
        self.emit(g, format!("DMNMX {dl}, {a}, {b}, {sel};"));
        Ok(())
    }
}
