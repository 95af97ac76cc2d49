//! 64-bit forms Fermi has no single instruction for, and `setp.f64`:
//!
//! - `min/max.{u64,s64}`: the 64-bit comparison into the scratch predicate (as `setp`'s: the
//!   high words strictly ordered, or equal with the low words ordered unsigned), then one
//!   `SEL` per half.
//! - `shl/shr.b64` by a register amount, on the halves with Fermi's clamping shifts (an amount
//!   of 32 or more gives 0, or the sign for `SHR`), which is PTX's clamping of amounts above
//!   64 too (ptx-isa §9.7.8.7): for `shl`, `hi = ah << n | al >> (32 − n) | al << (n − 32)` and
//!   `lo = al << n`, where the differences wrap to amounts above 31 exactly when their part
//!   must vanish; `shr.u64` mirrors it; `shr.s64` takes `ah >>ₛ (n − 32)` for the low word
//!   when `n ≥ 32` (under the scratch predicate) since a signed shift does not vanish.
//! - (`setp.f64` is `DSETP` in `Selector::setp`, with this module's [`Selector::f64_operand`].)
//!
//! The allocator never gives a destination a source's register (`ra::operands::
//! reads_sources_first` admits 32-bit forms only), but an instruction may name its
//! destination as a source (`abs.s64 %rd1, %rd1`): each sequence writes a destination half
//! only when the same source half is no longer needed.

use super::{Selector, R};
use crate::regs::{SCRATCH, SCRATCH_PAIR, SCRATCH_PRED};
use ir::{Inst, Opcode, Operand, Type};

/// Whether `inst` is one of this module's forms that use the scratch predicate P6 (the
/// allocator keeps it free in the body then).
pub fn needs_scratch_pred(inst: &Inst) -> bool {
    let ty = inst.ty().unwrap_or(Type::B32);
    let by_reg = matches!(inst.operands.get(2), Some(Operand::Reg(_)));
    match inst.op {
        Opcode::Min | Opcode::Max => matches!(ty, Type::U64 | Type::S64),
        Opcode::Shr => ty == Type::S64 && by_reg,
        Opcode::Abs => ty == Type::S64,
        _ => false,
    }
}

impl Selector<'_> {
    /// `Some(result)` when `inst` is one of this module's forms.
    pub(super) fn wide_forms(&mut self, inst: &Inst, g: &str, ty: Type) -> Option<R<()>> {
        let int64 = matches!(ty, Type::U64 | Type::S64 | Type::B64);
        Some(match inst.op {
            Opcode::Min | Opcode::Max if int64 => self.minmax64(inst, g, ty),
            Opcode::Shl | Opcode::Shr
                if int64 && matches!(inst.operands.get(2), Some(Operand::Reg(_))) =>
            {
                self.shift64_by_reg(inst, g, ty)
            }
            Opcode::Abs | Opcode::Neg if ty == Type::F64 && !inst.mods.has(isa::Flag::Ftz) => {
                self.sign_f64(inst, g)
            }
            Opcode::Abs | Opcode::Neg if ty == Type::S64 => self.abs_neg_s64(inst, g),
            Opcode::Bfe | Opcode::Bfi if super::bitfield64::needs_scratch(inst) => {
                if inst.op == Opcode::Bfi {
                    self.bfi64(inst, g)
                } else {
                    self.bfe64_by_reg(inst, g, ty)
                }
            }
            Opcode::Bfe if matches!(ty, Type::U64 | Type::S64) => self.bfe64(inst, g, ty),
            Opcode::Not if int64 => (|| {
                let (dl, dh) = self.pair(self.dst(inst)?)?;
                let (al, ah) = self.pair_src(inst)?;
                self.emit(g, format!("LOP.PASS_B {dl}, RZ, ~{al};"));
                self.emit(g, format!("LOP.PASS_B {dh}, RZ, ~{ah};"));
                Ok(())
            })(),
            _ => return None,
        })
    }

    fn minmax64(&mut self, inst: &Inst, g: &str, ty: Type) -> R<()> {
        let (dl, dh) = self.pair(self.dst(inst)?)?;
        let (al, ah) = match Self::opnd(inst, 1)? {
            Operand::Reg(r) => self.pair(*r)?,
            _ => return Err("an immediate first operand of a 64-bit min/max".into()),
        };
        let (bl, bh) = self.src64(Self::opnd(inst, 2)?, g)?;
        let s = format!("P{SCRATCH_PRED}");
        let u = if ty == Type::S64 { "" } else { ".U32" };
        // s = a < b: the high words strictly ordered, or equal with the low words ordered.
        self.emit(g, format!("ISETP.LT.U32.AND {s}, pt, {al}, {bl}, pt;"));
        self.emit(g, format!("ISETP.EQ.U32.AND {s}, pt, {ah}, {bh}, {s};"));
        self.emit(g, format!("ISETP.LT{u}.OR {s}, pt, {ah}, {bh}, {s};"));
        let (x, y) = if inst.op == Opcode::Min {
            ((&al, &ah), (&bl, &bh))
        } else {
            ((&bl, &bh), (&al, &ah))
        };
        self.emit(g, format!("SEL {dl}, {}, {}, {s};", x.0, y.0));
        self.emit(g, format!("SEL {dh}, {}, {}, {s};", x.1, y.1));
        Ok(())
    }

    fn shift64_by_reg(&mut self, inst: &Inst, g: &str, ty: Type) -> R<()> {
        let (dl, dh) = self.pair(self.dst(inst)?)?;
        let (al, ah) = match Self::opnd(inst, 1)? {
            Operand::Reg(r) => self.pair(*r)?,
            _ => return Err("an immediate shifted by a register amount".into()),
        };
        let n = match Self::opnd(inst, 2)? {
            Operand::Reg(r) => self.gpr(*r)?,
            _ => return Err("expected a register amount".into()),
        };
        let t = format!("R{SCRATCH}");
        let or = |d: &str, t: &str| format!("LOP.OR {d}, {d}, {t};");
        match (inst.op, ty) {
            (Opcode::Shl, _) => {
                self.emit(g, format!("SHL {dh}, {ah}, {n};"));
                self.emit(g, format!("IADD {t}, -{n}, 0x20;"));
                self.emit(g, format!("SHR.U32 {t}, {al}, {t};"));
                self.emit(g, or(&dh, &t));
                self.emit(g, format!("IADD {t}, {n}, -0x20;"));
                self.emit(g, format!("SHL {t}, {al}, {t};"));
                self.emit(g, or(&dh, &t));
                self.emit(g, format!("SHL {dl}, {al}, {n};"));
            }
            (_, Type::S64) => {
                self.emit(g, format!("SHR.U32 {dl}, {al}, {n};"));
                self.emit(g, format!("IADD {t}, -{n}, 0x20;"));
                self.emit(g, format!("SHL {t}, {ah}, {t};"));
                self.emit(g, or(&dl, &t));
                // n ≥ 32: the low word is the high word shifted by n − 32 (the sign when
                // n ≥ 64), replacing the above. Under a guard, the predicate takes it too.
                let s = format!("P{SCRATCH_PRED}");
                let guard = match g.trim().strip_prefix('@') {
                    Some(p) => p.to_string(),
                    None => "pt".to_string(),
                };
                self.emit("", format!("ISETP.GT.U32.AND {s}, pt, {n}, 0x1f, {guard};"));
                self.emit(g, format!("IADD {t}, {n}, -0x20;"));
                self.emit("", format!("@{s} SHR {dl}, {ah}, {t};"));
                self.emit(g, format!("SHR {dh}, {ah}, {n};"));
            }
            _ => {
                self.emit(g, format!("SHR.U32 {dl}, {al}, {n};"));
                self.emit(g, format!("IADD {t}, -{n}, 0x20;"));
                self.emit(g, format!("SHL {t}, {ah}, {t};"));
                self.emit(g, or(&dl, &t));
                self.emit(g, format!("IADD {t}, {n}, -0x20;"));
                self.emit(g, format!("SHR.U32 {t}, {ah}, {t};"));
                self.emit(g, or(&dl, &t));
                self.emit(g, format!("SHR.U32 {dh}, {ah}, {n};"));
            }
        }
        Ok(())
    }

    /// The register pair of the first source.
    fn pair_src(&mut self, inst: &Inst) -> R<(String, String)> {
        match Self::opnd(inst, 1)? {
            Operand::Reg(r) => self.pair(*r),
            _ => Err("an immediate 64-bit operand".into()),
        }
    }

    /// `abs/neg.f64`: the sign bit of the high word, exact for every input (NaNs included).
    fn sign_f64(&mut self, inst: &Inst, g: &str) -> R<()> {
        let (dl, dh) = self.pair(self.dst(inst)?)?;
        let (al, ah) = self.pair_src(inst)?;
        self.emit(g, format!("MOV {dl}, {al};"));
        let op = if inst.op == Opcode::Abs {
            "LOP32I.AND {dh}, {ah}, 0x7fffffff;"
        } else {
            "LOP32I.XOR {dh}, {ah}, 0x80000000;"
        };
        self.emit(g, op.replace("{dh}", &dh).replace("{ah}", &ah));
        Ok(())
    }

    /// `neg.s64` is `0 − a` through the carry; `abs.s64` selects it when the high word is
    /// negative (`abs` of MIN is MIN, as two's complement wraps).
    fn abs_neg_s64(&mut self, inst: &Inst, g: &str) -> R<()> {
        let (dl, dh) = self.pair(self.dst(inst)?)?;
        let (al, ah) = self.pair_src(inst)?;
        if inst.op == Opcode::Neg {
            // The low word is written before the high one is read: right even when the
            // instruction names its destination as its source.
            self.emit(g, format!("IADD {dl}.CC, RZ, -{al};"));
            self.emit(g, format!("IADD.X {dh}, RZ, -{ah};"));
            return Ok(());
        }
        // abs: the negation in the scratch pair, then a pick that reads each source half
        // before writing the same destination half.
        let s = format!("P{SCRATCH_PRED}");
        let (nl, nh) = (format!("R{SCRATCH_PAIR}"), format!("R{}", SCRATCH_PAIR + 1));
        self.emit("", format!("ISETP.LT.AND {s}, pt, {ah}, RZ, pt;"));
        self.emit(g, format!("IADD {nl}.CC, RZ, -{al};"));
        self.emit(g, format!("IADD.X {nh}, RZ, -{ah};"));
        self.emit(g, format!("SEL {dl}, {nl}, {al}, {s};"));
        self.emit(g, format!("SEL {dh}, {nh}, {ah}, {s};"));
        Ok(())
    }

    /// `bfe.{u64,s64}` with an immediate position and length (ptx-isa §9.7.1.19, `ops::int::
    /// bfe`): the `present = min(len, 64 − pos)` field bits are shifted to the top and back
    /// down, logically or arithmetically (a signed field's fill is its own top bit, which is
    /// `a[min(pos+len−1, 63)]`); a field past bit 63 is 0, or the sign of `a` when signed and
    /// `len ≠ 0`.
    fn bfe64(&mut self, inst: &Inst, g: &str, ty: Type) -> R<()> {
        let (Operand::Imm(b), Operand::Imm(c)) = (Self::opnd(inst, 2)?, Self::opnd(inst, 3)?)
        else {
            return Err("bfe.64 with a register position or length: see bitfield64.rs".into());
        };
        let (pos, len) = ((*b as u32) & 0xff, (*c as u32) & 0xff);
        let signed = ty == Type::S64;
        let (dl, dh) = self.pair(self.dst(inst)?)?;
        let (al, ah) = self.pair_src(inst)?;
        let present = if pos > 63 { 0 } else { len.min(64 - pos) };
        if present == 0 {
            if signed && len != 0 {
                self.emit(g, format!("SHR {dh}, {ah}, 0x1f;"));
                self.emit(g, format!("MOV {dl}, {dh};"));
            } else {
                self.emit(g, format!("MOV {dl}, RZ;"));
                self.emit(g, format!("MOV {dh}, RZ;"));
            }
            return Ok(());
        }
        let t = format!("R{SCRATCH}");
        let x = |k: u32| super::hex(i64::from(k));
        // d = a << up: each destination half is written once its source half is read.
        let up = 64 - pos - present;
        match up {
            0 => {
                self.emit(g, format!("MOV {dl}, {al};"));
                self.emit(g, format!("MOV {dh}, {ah};"));
            }
            1..=31 => {
                self.emit(g, format!("SHL {dh}, {ah}, {};", x(up)));
                self.emit(g, format!("SHR.U32 {t}, {al}, {};", x(32 - up)));
                self.emit(g, format!("LOP.OR {dh}, {dh}, {t};"));
                self.emit(g, format!("SHL {dl}, {al}, {};", x(up)));
            }
            _ => {
                self.emit(g, format!("SHL {dh}, {al}, {};", x(up - 32)));
                self.emit(g, format!("MOV {dl}, RZ;"));
            }
        }
        // d >>= down, in place.
        let down = 64 - present;
        let sr = if signed { "SHR" } else { "SHR.U32" };
        match down {
            0 => {}
            1..=31 => {
                self.emit(g, format!("SHR.U32 {dl}, {dl}, {};", x(down)));
                self.emit(g, format!("SHL {t}, {dh}, {};", x(32 - down)));
                self.emit(g, format!("LOP.OR {dl}, {dl}, {t};"));
                self.emit(g, format!("{sr} {dh}, {dh}, {};", x(down)));
            }
            _ => {
                self.emit(g, format!("{sr} {dl}, {dh}, {};", x(down - 32)));
                if signed {
                    self.emit(g, format!("SHR {dh}, {dh}, 0x1f;"));
                } else {
                    self.emit(g, format!("MOV {dh}, RZ;"));
                }
            }
        }
        Ok(())
    }

    /// An f64 operand as the first register of a pair: an immediate goes to the scratch pair
    /// whole (`src64` names a zero half `RZ`, which is no pair).
    pub(super) fn f64_operand(&mut self, o: &Operand, g: &str) -> R<String> {
        match o {
            Operand::Reg(r) => Ok(self.pair(*r)?.0),
            Operand::Imm(v) => {
                for (k, half) in [*v as u32, (*v >> 32) as u32].into_iter().enumerate() {
                    let n = SCRATCH_PAIR + k as u8;
                    self.emit(
                        g,
                        format!("MOV32I R{n}, {};", super::hex(half as i32 as i64)),
                    );
                }
                Ok(format!("R{SCRATCH_PAIR}"))
            }
            _ => Err("unsupported operand kind".into()),
        }
    }
}
