//! Multiply-adds beyond `IMAD`: `mul.hi` on 64 bits, `mad.hi`/`mad.wide` on 32 bits, `mad` on
//! 64 bits, and the carry-chain forms `mad.cc` and `madc` (32 and 64 bits, `.lo` and `.hi`).
//!
//! Fermi's `IMAD` has no `.X` (carry-in) form in the table, so every form here computes the
//! product first with `IMUL`/`IMAD`, which leave the carry flag alone, and then adds the
//! addend with `IADD[.X][.CC]`: `madc` is the product plus `c` plus the carry, exactly PTX's
//! definition (`ops::int::mad_lo`/`mad_hi` plus the carry). The 64×64 high product needs
//! additions of its own; when a carry must survive it (a `madc`'s carry-in, or a chain
//! pending around a plain `mad`), the flag is saved as `IADD.X R13, RZ, RZ` (0 + 0 + CF) and
//! restored as `IADD RZ.CC, R13, -0x1` (a carry out exactly when R13 is 1).
//! Temporaries: R0, R2:R3 and R4–R13 (kept free by the allocator, `needs_f64_scratch`), P6.

use super::{Chain, Selector, R};
use crate::regs::{SCRATCH, SCRATCH_PAIR, SCRATCH_PRED};
use ir::{Inst, Opcode, Operand, Type};
use isa::{Flag, MulMode};

const SAVED_CARRY: &str = "R13";

fn t(k: u8) -> String {
    format!("R{}", super::fdiv::F64_SCRATCH + k)
}

impl Selector<'_> {
    /// Whether this selector handles `inst` (the dispatcher calls [`Self::wide_mad`] then).
    pub(super) fn is_wide_mad(inst: &Inst, ty: Type) -> bool {
        let w = super::bits(ty);
        let int = !super::ty_is_float(ty) && ty != Type::Pred;
        let mode = inst.mods.mul_mode;
        let cc = inst.mods.has(Flag::Cc);
        int && !inst.mods.has(Flag::Sat)
            && match inst.op {
                Opcode::Madc => w == 32 || w == 64,
                Opcode::Mad => {
                    (w == 32 && (cc || matches!(mode, Some(MulMode::Hi | MulMode::Wide))))
                        || (w == 64 && !matches!(mode, Some(MulMode::Wide)))
                }
                Opcode::Mul => w == 64 && mode == Some(MulMode::Hi),
                _ => false,
            }
    }

    pub(super) fn wide_mad(&mut self, inst: &Inst, g: &str, ty: Type) -> R<()> {
        let w = super::bits(ty);
        let signed = super::is_signed(ty);
        let mode = inst.mods.mul_mode.unwrap_or(MulMode::Lo);
        let madc = inst.op == Opcode::Madc;
        let cc = inst.mods.has(Flag::Cc);
        let chain = madc || cc;
        if madc && self.carry != Some(Chain::Add) {
            return Err(match self.carry {
                None => "the carry-in of madc is not one addition chain's on every path reaching it, or a call or a consumer without .cc lies between".into(),
                Some(_) => "a chain mixing additions and subtractions: Fermi's flag after a subtraction is the complement of PTX's borrow".into(),
            });
        }
        // A carry that must survive this instruction's own flag writes: a chain's carry-in,
        // or a pending chain's carry around a plain `mad`.
        let keep = madc || (!cc && self.carry.is_some());
        let uses_flag =
            w == 64 && mode == MulMode::Hi || (!chain && (w == 64 || mode == MulMode::Wide));
        // A guarded `.cc` form leaves the flag untouched in the lanes its guard turns off, but
        // the product's own additions are unguarded: the flag is saved around them too.
        let keep_around_product = keep || (cc && !g.is_empty());
        if keep_around_product && uses_flag {
            self.emit("", format!("IADD.X {SAVED_CARRY}, RZ, RZ;"));
        }
        // The product's words (low first) in temporaries.
        let product: Vec<String> = match (w, mode) {
            (32, MulMode::Lo | MulMode::Hi) => {
                let types = if signed { "" } else { ".U32.U32" };
                let hi = if mode == MulMode::Hi { ".HI" } else { "" };
                let a = self.reg32(Self::opnd(inst, 1)?, "", SCRATCH)?;
                let b = self.src32(Self::opnd(inst, 2)?, "", SCRATCH_PAIR, true)?;
                self.emit("", format!("IMUL{types}{hi} R{SCRATCH}, {a}, {b};"));
                vec![format!("R{SCRATCH}")]
            }
            (32, MulMode::Wide) => {
                let types = if signed { "" } else { ".U32.U32" };
                let a = self.reg32(Self::opnd(inst, 1)?, "", SCRATCH)?;
                let b = self.src32(Self::opnd(inst, 2)?, "", SCRATCH_PAIR, true)?;
                self.emit("", format!("IMUL{types} {}, {a}, {b};", t(0)));
                self.emit("", format!("IMUL{types}.HI {}, {a}, {b};", t(1)));
                vec![t(0), t(1)]
            }
            (64, MulMode::Lo) => {
                let (al, ah) = self.wide_operand(Self::opnd(inst, 1)?, 5)?;
                let (bl, bh) = self.wide_operand(Self::opnd(inst, 2)?, 7)?;
                let (pl, ph) = (t(0), t(1));
                for l in [
                    format!("IMUL.U32.U32.HI {ph}, {al}, {bl};"),
                    format!("IMAD.U32.U32 {ph}, {al}, {bh}, {ph};"),
                    format!("IMAD.U32.U32 {ph}, {ah}, {bl}, {ph};"),
                    format!("IMUL.U32.U32 {pl}, {al}, {bl};"),
                ] {
                    self.emit("", l);
                }
                vec![pl, ph]
            }
            (64, MulMode::Hi) => {
                let (al, ah) = self.wide_operand(Self::opnd(inst, 1)?, 5)?;
                let (bl, bh) = self.wide_operand(Self::opnd(inst, 2)?, 7)?;
                self.mul_hi64(&al, &ah, &bl, &bh, signed);
                vec![t(3), t(4)]
            }
            _ => return Err("no selection rule for this multiply form".into()),
        };
        if keep_around_product && uses_flag {
            self.emit("", format!("IADD RZ.CC, {SAVED_CARRY}, -0x1;"));
        }
        let x = if madc { ".X" } else { "" };
        let out_cc = if cc { ".CC" } else { "" };
        let d = self.dst(inst)?;
        match inst.op {
            Opcode::Mul => {
                let (dl, dh) = self.pair(d)?;
                self.emit(g, format!("MOV {dl}, {};", product[0]));
                self.emit(g, format!("MOV {dh}, {};", product[1]));
            }
            _ if product.len() == 1 => {
                let d = self.gpr(d)?;
                let c = self.reg32(Self::opnd(inst, 3)?, g, SCRATCH_PAIR)?;
                self.emit(g, format!("IADD{x} {d}{out_cc}, {}, {c};", product[0]));
            }
            _ => {
                let (dl, dh) = self.pair(d)?;
                let (cl, ch) = self.src64(Self::opnd(inst, 3)?, g)?;
                self.emit(g, format!("IADD{x} {dl}.CC, {}, {cl};", product[0]));
                self.emit(g, format!("IADD.X {dh}{out_cc}, {}, {ch};", product[1]));
                if keep && !madc {
                    // A plain 64-bit mad inside a pending chain: give the chain its flag back.
                    self.emit("", format!("IADD RZ.CC, {SAVED_CARRY}, -0x1;"));
                }
            }
        }
        if cc {
            self.carry = Some(Chain::Add);
        } else if madc {
            self.carry = None;
        }
        Ok(())
    }

    /// A 64-bit factor: its register pair, or an immediate moved into `t(k)`, `t(k + 1)`.
    fn wide_operand(&mut self, o: &Operand, k: u8) -> R<(String, String)> {
        match o {
            Operand::Reg(r) => self.pair(*r),
            Operand::Imm(v) => {
                let (lo, hi) = (t(k), t(k + 1));
                self.emit(
                    "",
                    format!("MOV32I {lo}, {};", super::hex(*v as u32 as i32 as i64)),
                );
                self.emit(
                    "",
                    format!(
                        "MOV32I {hi}, {};",
                        super::hex((*v >> 32) as u32 as i32 as i64)
                    ),
                );
                Ok((lo, hi))
            }
            _ => Err("unsupported multiply operand".into()),
        }
    }

    /// The high 64 bits of the 128-bit product into `t(3)` (low word) and `t(4)`:
    /// `hi(al·bl) + al·bh + ah·bl` accumulated into the 96-bit `t(0):t(3):t(4)` that starts as
    /// `ah·bh`, one cross product at a time. A signed product subtracts `b·2^64` when `a` is
    /// negative and `a·2^64` when `b` is (two's complement: `a = a_u − 2^64·[a < 0]`).
    fn mul_hi64(&mut self, al: &str, ah: &str, bl: &str, bh: &str, signed: bool) {
        let (acc, lo, hi, ul, uh) = (t(0), t(1), t(2), t(3), t(4));
        let mut lines = vec![
            format!("IMUL.U32.U32.HI {acc}, {al}, {bl};"),
            format!("IMUL.U32.U32 {ul}, {ah}, {bh};"),
            format!("IMUL.U32.U32.HI {uh}, {ah}, {bh};"),
        ];
        for (x, y) in [(al, bh), (ah, bl)] {
            lines.extend([
                format!("IMUL.U32.U32 {lo}, {x}, {y};"),
                format!("IMUL.U32.U32.HI {hi}, {x}, {y};"),
                format!("IADD {acc}.CC, {acc}, {lo};"),
                format!("IADD.X {ul}.CC, {ul}, {hi};"),
                format!("IADD.X {uh}, {uh}, RZ;"),
            ]);
        }
        if signed {
            let p = format!("P{SCRATCH_PRED}");
            for (sign, (xl, xh)) in [(ah, (bl, bh)), (bh, (al, ah))] {
                lines.extend([
                    format!("ISETP.LT.AND {p}, pt, {sign}, RZ, pt;"),
                    format!("@{p} IADD {ul}.CC, {ul}, -{xl};"),
                    format!("@{p} IADD.X {uh}, {uh}, -{xh};"),
                ]);
            }
        }
        for l in lines {
            self.emit("", l);
        }
    }
}

/// Whether `inst` is one of this module's forms that needs P6 (a signed 64-bit high product).
pub fn needs_scratch_pred(inst: &Inst) -> bool {
    let ty = inst.ty().unwrap_or(Type::B32);
    Selector::is_wide_mad(inst, ty)
        && super::bits(ty) == 64
        && super::is_signed(ty)
        && inst.mods.mul_mode == Some(MulMode::Hi)
}

/// Whether `inst` is one of this module's forms that uses R4–R13.
pub fn needs_f64_scratch(inst: &Inst) -> bool {
    let ty = inst.ty().unwrap_or(Type::B32);
    Selector::is_wide_mad(inst, ty)
        && (super::bits(ty) == 64 || inst.mods.mul_mode == Some(MulMode::Wide))
}
