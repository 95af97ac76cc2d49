//! Selection of the operands `fold.rs` folds: f32 immediates as 20-bit float operands,
//! parameters and shared addresses as `add` operands, and `mul.wide` by a power of two inside
//! the 64-bit `add` that reads it.

use super::{hex, Selector, R};
use crate::regs::SCRATCH;
use ir::{Inst, Opcode, Operand};

impl Selector<'_> {
    /// An f32 source in an instruction's composite operand: a single whose low 12 bits are
    /// zero is the 20-bit float immediate (its high bits, as NVIDIA writes `0xbf800` for
    /// -1.0), other immediates go through `MOV32I` into `scratch`. `negate` flips the sign of
    /// an immediate (the `-` a register would carry; the same bits the hardware would use).
    pub(super) fn fsrc32(
        &mut self,
        o: &Operand,
        g: &str,
        scratch: u8,
        negate: bool,
    ) -> R<(String, bool)> {
        if let Operand::Imm(v) = o {
            let bits = (*v as u32) ^ if negate { 0x8000_0000 } else { 0 };
            if bits != 0 && bits & 0xfff == 0 {
                return Ok((format!("{:#x}", bits >> 12), true));
            }
        }
        // A parameter `fold.rs` folded: its constant-bank word (negated by the caller).
        if let Operand::Reg(r) = o {
            if let Some(f @ crate::fold::Folded::Bank(_)) = self.folded.get(r) {
                return Ok((f.halves().0, false));
            }
        }
        Ok((self.reg32(o, g, scratch)?, false))
    }

    /// A 64-bit `add` that absorbs a `mul.wide` by 2^k (`fold::Scaled`): `SHR[.U32] R0, a,
    /// 32−k`, `ISCADD d.CC, a, x.lo, k`, `IADD.X d.hi, R0, x.hi`; two shifts when `x` is 0.
    /// `None` if `inst` absorbs none.
    pub(super) fn scaled_add(&mut self, inst: &Inst, g: &str, dl: &str, dh: &str) -> R<Option<()>> {
        if inst.op != Opcode::Add {
            return Ok(None);
        }
        let Some((s, x)) = self.scaled_source(inst)? else {
            return Ok(None);
        };
        let (xl, xh) = match x {
            Operand::Reg(r) if self.folded.contains_key(r) => self.folded[r].halves(),
            _ => self.src64(x, g)?,
        };
        let a = self.gpr(s.a)?;
        let (shr, k) = (if s.signed { "SHR" } else { "SHR.U32" }, s.shift);
        let (hi, lo) = (hex(32 - i64::from(k)), hex(i64::from(k)));
        if xl == "RZ" && xh == "RZ" {
            // Nothing to add: the two words of the product, each written after the other one
            // has read `a`.
            let shl = format!("SHL {dl}, {a}, {lo};");
            let shr = format!("{shr} {dh}, {a}, {hi};");
            let (first, second) = if dh == a { (shl, shr) } else { (shr, shl) };
            self.emit(g, first);
            self.emit(g, second);
            return Ok(Some(()));
        }
        // The high word first: `dl` may be `a`'s register.
        self.emit(g, format!("{shr} R{SCRATCH}, {a}, {hi};"));
        self.emit(g, format!("ISCADD {dl}.CC, {a}, {xl}, {lo};"));
        self.emit(g, format!("IADD.X {dh}, R{SCRATCH}, {xh};"));
        Ok(Some(()))
    }

    /// A 32-bit `add` that absorbs a shift or a product by 2^k (`fold::Scaled`): `ISCADD d, a,
    /// x, k`, or `SHL d, a, k` when `x` is 0. `None` if `inst` absorbs none.
    pub(super) fn scaled_add32(&mut self, inst: &Inst, g: &str, d: &str) -> R<Option<()>> {
        if inst.op != Opcode::Add {
            return Ok(None);
        }
        let Some((s, x)) = self.scaled_source(inst)? else {
            return Ok(None);
        };
        let x = self.src32(x, g, SCRATCH, true)?;
        let a = self.gpr(s.a)?;
        let k = hex(i64::from(s.shift));
        if x == "RZ" {
            self.emit(g, format!("SHL {d}, {a}, {k};"));
        } else {
            self.emit(g, format!("ISCADD {d}, {a}, {x}, {k};"));
        }
        Ok(Some(()))
    }

    /// The product or shift an `add` absorbs (`fold::Scaled`) and the `add`'s other source.
    fn scaled_source<'i>(&self, inst: &'i Inst) -> R<Option<(crate::fold::Scaled, &'i Operand)>> {
        let (a, b) = (Self::opnd(inst, 1)?, Self::opnd(inst, 2)?);
        let scaled = |o: &Operand| match o {
            Operand::Reg(r) => self.scaled.get(r).copied(),
            _ => None,
        };
        Ok(match (scaled(a), scaled(b)) {
            (Some(s), None) => Some((s, b)),
            (None, Some(s)) => Some((s, a)),
            _ => None,
        })
    }

    /// An integer `add`'s sources with a parameter read from the bank second (the composite
    /// operand; addition commutes). `fold.rs` only folds into `add`s, never `sub`s.
    pub(super) fn bank_second<'i>(&self, inst: &'i Inst) -> R<(&'i Operand, &'i Operand)> {
        let (a, b) = (Self::opnd(inst, 1)?, Self::opnd(inst, 2)?);
        let banked = |o: &Operand| matches!(o, Operand::Reg(r) if self.folded.contains_key(r));
        if banked(a) {
            if inst.op != Opcode::Add || banked(b) {
                return Err("internal error: a parameter folded where no bank operand fits".into());
            }
            return Ok((b, a));
        }
        Ok((a, b))
    }
}
