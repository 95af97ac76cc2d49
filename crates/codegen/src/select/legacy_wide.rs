//! The PTX 1.x forms `legacy.rs` leaves to other widths: `sad` on 16 and 64 bits and on
//! `.f32`/`.f64` (`ops::int::sad`, `ops::float::sad_f32`/`sad_f64`), and `slct` with a 16- or
//! 64-bit result (`slct.dtype.{s32,f32}`: `d = c >= 0 ? a : b`).

use super::{is_signed, Selector, R};
use crate::regs::{SCRATCH, SCRATCH_PAIR, SCRATCH_PRED};
use ir::{Inst, Opcode, Operand, Type};
use isa::Flag;

/// The temporaries of the 64-bit and f64 `sad`: R4–R9 (`needs_scratch`).
const T: u8 = super::fdiv::F64_SCRATCH;

/// Whether `inst` uses R4–R9 (a 64-bit or f64 `sad`): the allocator keeps R4–R13 free.
pub fn needs_scratch(inst: &Inst) -> bool {
    inst.op == Opcode::Sad && inst.ty().is_some_and(|t| super::bits(t) == 64)
}

/// Whether `inst` uses the scratch predicate P6.
pub fn needs_scratch_pred(inst: &Inst) -> bool {
    match inst.op {
        Opcode::Sad => inst
            .ty()
            .is_some_and(|t| super::bits(t) == 64 || t == Type::F32),
        Opcode::Slct => inst.type_slot(0).is_some_and(|t| super::bits(t) == 64),
        _ => false,
    }
}

impl Selector<'_> {
    /// `None` if `inst` is not a form handled here.
    pub(super) fn legacy_wide(&mut self, inst: &Inst, g: &str) -> Option<R<()>> {
        let d_ty = inst.type_slot(0)?;
        let w = super::bits(d_ty);
        match inst.op {
            Opcode::Sad if w == 16 && !super::ty_is_float(d_ty) => Some(self.sad16(inst, g, d_ty)),
            Opcode::Sad if matches!(d_ty, Type::U64 | Type::S64 | Type::B64 | Type::F64) => {
                Some(self.sad64(inst, g, d_ty))
            }
            Opcode::Sad if d_ty == Type::F32 => Some(self.sad_f32(inst, g)),
            Opcode::Slct if w == 16 || w == 64 => Some(self.slct_wide(inst, g, w)),
            _ => None,
        }
    }

    /// `sad.{u16,s16}`: `ISAD` of the operands extended to 32 bits. `|a - b|` of the extended
    /// values is exact, so its sum with `c` has the 16-bit wrapping result in its low half.
    fn sad16(&mut self, inst: &Inst, g: &str, ty: Type) -> R<()> {
        let signed = is_signed(ty);
        let d = self.gpr(self.dst(inst)?)?;
        let a = self.extend16(Self::opnd(inst, 1)?, g, signed, SCRATCH)?;
        let b = self.extend16(Self::opnd(inst, 2)?, g, signed, SCRATCH_PAIR)?;
        let c = self.reg32(Self::opnd(inst, 3)?, g, SCRATCH_PAIR + 1)?;
        let u = if signed { "" } else { ".U32" };
        self.emit(g, format!("ISAD{u} {d}, {a}, {b}, {c};"));
        Ok(())
    }

    /// `sad` on 64 bits: `a < b` into P6 (the halves as 64-bit setp compares them, or
    /// `DSETP.LT`: false with a NaN), then `a - b` and, under P6, `b - a` into R8:R9, then
    /// `+ c`. The float steps each round to nearest (`DADD`), as `ops::float::sad_f64`.
    fn sad64(&mut self, inst: &Inst, g: &str, ty: Type) -> R<()> {
        // Inside a pending .cc chain the integer form's IADD.CC is refused by `select`.
        let p = format!("P{SCRATCH_PRED}");
        let r = |k: u8| format!("R{}", T + k);
        // a into R4:R5 and b into R6:R7 (immediates pass through R2:R3 one at a time).
        for (i, k) in [(1, 0), (2, 2)] {
            let (lo, hi) = self.src64(Self::opnd(inst, i)?, "")?;
            self.emit("", format!("MOV {}, {lo};", r(k)));
            self.emit("", format!("MOV {}, {hi};", r(k + 1)));
        }
        let (al, ah, bl, bh, tl, th) = (r(0), r(1), r(2), r(3), r(4), r(5));
        if ty == Type::F64 {
            self.emit("", format!("DSETP.LT.AND {p}, pt, {al}, {bl}, pt;"));
            self.emit("", format!("DADD {tl}, {al}, -{bl};"));
            self.emit("", format!("@{p} DADD {tl}, {bl}, -{al};"));
        } else {
            let u = if is_signed(ty) { "" } else { ".U32" };
            for l in [
                format!("ISETP.LT.U32.AND {p}, pt, {al}, {bl}, pt;"),
                format!("ISETP.EQ.U32.AND {p}, pt, {ah}, {bh}, {p};"),
                format!("ISETP.LT{u}.OR {p}, pt, {ah}, {bh}, {p};"),
                format!("IADD {tl}.CC, {al}, -{bl};"),
                format!("IADD.X {th}, {ah}, -{bh};"),
                format!("@{p} IADD {tl}.CC, {bl}, -{al};"),
                format!("@{p} IADD.X {th}, {bh}, -{ah};"),
            ] {
                self.emit("", l);
            }
        }
        let (dl, dh) = self.pair(self.dst(inst)?)?;
        let c = Self::opnd(inst, 3)?;
        if ty == Type::F64 {
            let c = self.f64_operand(c, "")?;
            self.emit(g, format!("DADD {dl}, {c}, {tl};"));
        } else {
            let (cl, ch) = self.src64(c, "")?;
            self.emit(g, format!("IADD {dl}.CC, {tl}, {cl};"));
            self.emit(g, format!("IADD.X {dh}, {th}, {ch};"));
        }
        Ok(())
    }

    /// `sad.f32`: `FSETP.LT` (false with a NaN), `a - b` or under P6 `b - a`, then `+ c`,
    /// each `FADD` rounding to nearest without flushing, as `ops::float::sad_f32`.
    fn sad_f32(&mut self, inst: &Inst, g: &str) -> R<()> {
        let p = format!("P{SCRATCH_PRED}");
        let t = format!("R{SCRATCH}");
        let a = self.reg32(Self::opnd(inst, 1)?, "", SCRATCH_PAIR)?;
        let b = self.reg32(Self::opnd(inst, 2)?, "", SCRATCH_PAIR + 1)?;
        self.emit("", format!("FSETP.LT.AND {p}, pt, {a}, {b}, pt;"));
        self.emit("", format!("FADD {t}, {a}, -{b};"));
        self.emit("", format!("@{p} FADD {t}, {b}, -{a};"));
        // R2 is free again for an immediate c.
        let c = self.reg32(Self::opnd(inst, 3)?, "", SCRATCH_PAIR)?;
        let d = self.gpr(self.dst(inst)?)?;
        self.emit(g, format!("FADD {d}, {c}, {t};"));
        Ok(())
    }

    /// `slct` with a 16-bit result: the 32-bit rule (only the low half is the value). With a
    /// 64-bit result: `c >= 0` into P6 (`ISETP.GE` for `.s32`, `FSETP.GE{.FTZ}` against +0
    /// for `.f32`, false with a NaN, as `legacy.rs`), then `SEL` on each half.
    fn slct_wide(&mut self, inst: &Inst, g: &str, w: u32) -> R<()> {
        let s_ty = inst.type_slot(1).ok_or("slct needs a selector type")?;
        if w == 16 {
            let mut as32 = inst.clone();
            as32.types[0] = Some(Type::B32);
            return self.select(&as32);
        }
        let p = format!("P{SCRATCH_PRED}");
        let c = self.reg32(Self::opnd(inst, 3)?, g, SCRATCH)?;
        match s_ty {
            Type::S32 => self.emit(g, format!("ISETP.GE.AND {p}, pt, {c}, RZ, pt;")),
            Type::F32 => {
                let ftz = if inst.mods.has(Flag::Ftz) { ".FTZ" } else { "" };
                self.emit(g, format!("FSETP.GE{ftz}.AND {p}, pt, {c}, RZ, pt;"));
            }
            _ => return Err("slct's selector is .s32 or .f32".into()),
        }
        let (dl, dh) = self.pair(self.dst(inst)?)?;
        // Each half of a and b: a register, or an immediate's half in R2 (a) or R3 (b).
        let half = |s: &mut Self, i: usize, high: bool, n: u8| -> R<String> {
            match Self::opnd(inst, i)? {
                Operand::Reg(r) => {
                    let (lo, hi) = s.pair(*r)?;
                    Ok(if high { hi } else { lo })
                }
                Operand::Imm(v) => {
                    let x = if high { *v >> 32 } else { *v & 0xffff_ffff };
                    s.reg32(&Operand::Imm(x), g, n)
                }
                _ => Err("unsupported slct operand".into()),
            }
        };
        for (d, high) in [(dl, false), (dh, true)] {
            let a = half(self, 1, high, SCRATCH_PAIR)?;
            let b = half(self, 2, high, SCRATCH_PAIR + 1)?;
            self.emit(g, format!("SEL {d}, {a}, {b}, {p};"));
        }
        Ok(())
    }
}
