//! Forms PTX 1.x kernels use: `set` (a comparison to a 0/all-ones mask or 0/1.0), `slct`
//! (selection on the sign of an `.s32` or `.f32`), `cnot`, `mul24`/`mad24`, `sad`.

use super::{int_cmp, is_signed, Selector, R};
use crate::regs::{SCRATCH, SCRATCH_PAIR, SCRATCH_PRED};
use ir::{Inst, Opcode, Operand, Type};
use isa::{Flag, MulMode};

impl Selector<'_> {
    /// `None` if `inst` is not a form handled here.
    pub(super) fn legacy_int(&mut self, inst: &Inst, g: &str) -> Option<R<()>> {
        let (d_ty, s_ty) = (inst.type_slot(0)?, inst.type_slot(1));
        let int32 = |t: Type| matches!(t, Type::U32 | Type::S32 | Type::B32);
        let m = &inst.mods;
        match inst.op {
            // set.cmp.u32.{s32,u32}: ISET writes all ones or zero, as PTX's integer result.
            Opcode::Set if int32(d_ty) && s_ty.is_some_and(int32) && !m.has(Flag::Ftz) => {
                Some(self.set_int(inst, g, s_ty.unwrap_or(Type::U32)))
            }
            // Other sources or an .f32 result: setp's comparison into the scratch predicate,
            // then the result's true value (all ones, or 1.0 for .f32) or 0.
            Opcode::Set if (int32(d_ty) || d_ty == Type::F32) && s_ty.is_some() => {
                Some(self.set_via_pred(inst, g, d_ty, s_ty.unwrap_or(Type::U32)))
            }
            // slct.{b32,u32,s32,f32}.f32: c >= 0 (FSETP.GE against +0, NaN false; `.ftz`
            // flushes c first), then SEL.
            Opcode::Slct if (int32(d_ty) || d_ty == Type::F32) && s_ty == Some(Type::F32) => {
                Some((|| {
                    let ftz = if m.has(Flag::Ftz) { ".FTZ" } else { "" };
                    let p = format!("P{SCRATCH_PRED}");
                    let c = self.reg32(Self::opnd(inst, 3)?, g, SCRATCH_PAIR + 1)?;
                    self.emit(g, format!("FSETP.GE{ftz}.AND {p}, pt, {c}, RZ, pt;"));
                    let d = self.gpr(self.dst(inst)?)?;
                    let a = self.reg32(Self::opnd(inst, 1)?, g, SCRATCH)?;
                    let b = self.src32(Self::opnd(inst, 2)?, g, SCRATCH_PAIR, true)?;
                    self.emit(g, format!("SEL {d}, {a}, {b}, {p};"));
                    Ok(())
                })())
            }
            Opcode::Slct if (int32(d_ty) || d_ty == Type::F32) && s_ty == Some(Type::S32) => {
                Some((|| {
                    // ICMP.GE d, a, b, c: d = c >= 0 ? a : b.
                    let d = self.gpr(self.dst(inst)?)?;
                    let a = self.reg32(Self::opnd(inst, 1)?, g, SCRATCH)?;
                    let b = self.src32(Self::opnd(inst, 2)?, g, SCRATCH_PAIR, true)?;
                    let c = self.reg32(Self::opnd(inst, 3)?, g, SCRATCH_PAIR + 1)?;
                    self.emit(g, format!("ICMP.GE {d}, {a}, {b}, {c};"));
                    Ok(())
                })())
            }
            Opcode::Cnot if crate::regs::width_of(d_ty) == Some(32) => Some((|| {
                let d = self.gpr(self.dst(inst)?)?;
                let a = self.reg32(Self::opnd(inst, 1)?, g, SCRATCH)?;
                // All ones when a == 0, then negated to 1.
                self.emit(g, format!("ISET.EQ.U32.AND {d}, {a}, RZ, pt;"));
                self.emit(g, format!("IADD {d}, RZ, -{d};"));
                Ok(())
            })()),
            Opcode::Mul24 | Opcode::Mad24
                if int32(d_ty)
                    && matches!(m.mul_mode, None | Some(MulMode::Lo))
                    && !m.has(Flag::Sat) =>
            {
                Some(self.mul24_lo(inst, g, d_ty))
            }
            Opcode::Mul24 | Opcode::Mad24
                if int32(d_ty)
                    && m.mul_mode == Some(MulMode::Hi)
                    && (!m.has(Flag::Sat) || (inst.op == Opcode::Mad24 && d_ty == Type::S32)) =>
            {
                Some(self.mul24_hi(inst, g, d_ty))
            }
            Opcode::Sad if int32(d_ty) => Some((|| {
                let u = if is_signed(d_ty) { "" } else { ".U32" };
                let d = self.gpr(self.dst(inst)?)?;
                let a = self.reg32(Self::opnd(inst, 1)?, g, SCRATCH)?;
                let b = self.src32(Self::opnd(inst, 2)?, g, SCRATCH_PAIR, true)?;
                let c = self.reg32(Self::opnd(inst, 3)?, g, SCRATCH_PAIR + 1)?;
                self.emit(g, format!("ISAD{u} {d}, {a}, {b}, {c};"));
                Ok(())
            })()),
            _ => None,
        }
    }

    fn set_via_pred(&mut self, inst: &Inst, g: &str, d_ty: Type, s_ty: Type) -> R<()> {
        let p = format!("P{SCRATCH_PRED}");
        self.compare(inst, g, s_ty, p.clone(), "pt".into())?;
        let d = self.gpr(self.dst(inst)?)?;
        if d_ty == Type::F32 {
            self.emit(g, format!("MOV32I R{SCRATCH}, 0x3f800000;"));
            self.emit(g, format!("SEL {d}, RZ, R{SCRATCH}, !{p};"));
        } else {
            self.emit(g, format!("SEL {d}, RZ, -0x1, !{p};"));
        }
        Ok(())
    }

    fn set_int(&mut self, inst: &Inst, g: &str, s_ty: Type) -> R<()> {
        let m = &inst.mods;
        let (name, signed) = int_cmp(m.cmp.ok_or("missing comparison")?, is_signed(s_ty))?;
        let u = if signed { "" } else { ".U32" };
        let d = self.gpr(self.dst(inst)?)?;
        let a = self.reg32(Self::opnd(inst, 1)?, g, SCRATCH)?;
        let b = self.src32(Self::opnd(inst, 2)?, g, SCRATCH_PAIR, true)?;
        let c = match inst.operands.get(3) {
            None | Some(Operand::Omitted) => "pt".to_string(),
            Some(o) => self.pred_src(o)?,
        };
        let bop = super::bool_op(m.bool_op);
        self.emit(g, format!("ISET.{name}{u}.{bop} {d}, {a}, {b}, {c};"));
        Ok(())
    }

    /// `mul24.hi`/`mad24.hi{.sat}`: bits 47..16 of the 48-bit product of the operands' low 24
    /// bits (`ops::int::mul24_hi_*`): the product's two words by `IMUL`/`IMUL.HI` of the
    /// narrowed operands, joined by `SHR.U32` + `ISCADD` (the shifted high word has no bit in
    /// common with the low word's top half, so the add is the OR), then `+ c` (`IADD`, or
    /// `IADD.SAT` for `mad24.hi.sat.s32`).
    fn mul24_hi(&mut self, inst: &Inst, g: &str, ty: Type) -> R<()> {
        let d = self.gpr(self.dst(inst)?)?;
        let (a, b) = self.narrow24(inst, g, ty)?;
        let hi = if is_signed(ty) {
            "IMUL.HI"
        } else {
            "IMUL.U32.U32.HI"
        };
        let (s, t) = (format!("R{SCRATCH}"), format!("R{}", SCRATCH_PAIR + 1));
        self.emit(g, format!("{hi} {t}, {a}, {b};"));
        self.emit(g, format!("IMUL.U32.U32 {s}, {a}, {b};"));
        self.emit(g, format!("SHR.U32 {s}, {s}, 0x10;"));
        if inst.op == Opcode::Mul24 {
            self.emit(g, format!("ISCADD {d}, {t}, {s}, 0x10;"));
            return Ok(());
        }
        self.emit(g, format!("ISCADD {s}, {t}, {s}, 0x10;"));
        let c = self.src32(Self::opnd(inst, 3)?, g, SCRATCH_PAIR + 1, true)?;
        let sat = if inst.mods.has(Flag::Sat) { ".SAT" } else { "" };
        self.emit(g, format!("IADD{sat} {d}, {s}, {c};"));
        Ok(())
    }

    /// The operands' low 24 bits, sign-extended from bit 23 for `.s32`, in R0 and R2.
    fn narrow24(&mut self, inst: &Inst, g: &str, ty: Type) -> R<(String, String)> {
        let narrow = |s: &mut Self, i: usize, n: u8| -> R<String> {
            let x = s.reg32(Self::opnd(inst, i)?, g, n)?;
            if is_signed(ty) {
                s.emit(g, format!("SHL R{n}, {x}, 0x8;"));
                s.emit(g, format!("SHR R{n}, R{n}, 0x8;"));
            } else {
                s.emit(g, format!("LOP32I.AND R{n}, {x}, 0xffffff;"));
            }
            Ok(format!("R{n}"))
        };
        Ok((narrow(self, 1, SCRATCH)?, narrow(self, 2, SCRATCH_PAIR)?))
    }

    /// `mul24.lo`/`mad24.lo`: the low 32 bits of the product of the operands' low 24 bits
    /// (sign-extended from bit 23 for `.s32`), plus `c` for `mad24`.
    fn mul24_lo(&mut self, inst: &Inst, g: &str, ty: Type) -> R<()> {
        let d = self.gpr(self.dst(inst)?)?;
        let (a, b) = self.narrow24(inst, g, ty)?;
        if inst.op == Opcode::Mad24 {
            let c = self.reg32(Self::opnd(inst, 3)?, g, SCRATCH_PAIR + 1)?;
            self.emit(g, format!("IMAD.U32.U32 {d}, {a}, {b}, {c};"));
        } else {
            self.emit(g, format!("IMUL.U32.U32 {d}, {a}, {b};"));
        }
        Ok(())
    }
}
