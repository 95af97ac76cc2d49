//! `testp` and `copysign` on f32/f64: integer tests and masks on the bit patterns (no float
//! instruction needed; NaN payloads are kept, as `ops::float::copysign_*` keeps them).
//! `testp`'s classes on the magnitude `m` (the high word for f64, the low word where it
//! decides): finite `m < ∞`, infinite `m = ∞`, number `m ≤ ∞`, NaN `m > ∞`, normal
//! `m − min_normal < ∞ − min_normal` (unsigned, so zeros and subnormals wrap above), subnormal
//! `m − 1 < min_normal − 1`.

use super::{Selector, R};
use crate::regs::{SCRATCH, SCRATCH_PAIR};
use ir::{Inst, Opcode, Operand, Type};
use isa::TestpOp;

impl Selector<'_> {
    pub(super) fn fclass(&mut self, inst: &Inst, g: &str, ty: Type) -> R<()> {
        let (m, k) = (format!("R{SCRATCH}"), format!("R{SCRATCH_PAIR}"));
        let reg = |s: &mut Self, i: usize| -> R<(String, String)> {
            match (Self::opnd(inst, i)?, ty) {
                (Operand::Reg(r), Type::F64) => s.pair(*r),
                (Operand::Reg(r), _) => Ok((String::new(), s.gpr(*r)?)),
                _ => Err("an immediate operand".into()),
            }
        };
        // An immediate operand's (low, high) words (f32: its only word is the high one).
        let imm = |i: usize| -> R<Option<(u32, u32)>> {
            Ok(match Self::opnd(inst, i)? {
                Operand::Imm(v) if ty == Type::F64 => Some((*v as u32, (*v >> 32) as u32)),
                Operand::Imm(v) => Some((0, *v as u32)),
                _ => None,
            })
        };
        if inst.op == Opcode::Copysign {
            // An immediate's sign or magnitude is known now: MOV32I of the masked word.
            match imm(1)? {
                Some((_, ah)) => self.emit(g, load_word(&m, ah & 0x8000_0000)),
                None => {
                    let (_, ah) = reg(self, 1)?;
                    self.emit(g, format!("LOP32I.AND {m}, {ah}, 0x80000000;"));
                }
            }
            let bl = match imm(2)? {
                Some((_, bh)) => {
                    self.emit(g, load_word(&k, bh & 0x7fff_ffff));
                    None
                }
                None => {
                    let (bl, bh) = reg(self, 2)?;
                    self.emit(g, format!("LOP32I.AND {k}, {bh}, 0x7fffffff;"));
                    Some(bl)
                }
            };
            if ty == Type::F64 {
                let (dl, dh) = self.pair(self.dst(inst)?)?;
                match (bl, imm(2)?) {
                    (Some(bl), _) => self.emit(g, format!("MOV {dl}, {bl};")),
                    (None, Some((lo, _))) => self.emit(g, load_word(&dl, lo)),
                    (None, None) => return Err("internal error: copysign's b vanished".into()),
                }
                self.emit(g, format!("LOP.OR {dh}, {m}, {k};"));
            } else {
                let d = self.gpr(self.dst(inst)?)?;
                self.emit(g, format!("LOP.OR {d}, {m}, {k};"));
            }
            return Ok(());
        }
        let p = self.pred(self.dst(inst)?)?;
        let test = inst.mods.testp.ok_or("testp needs a property")?;
        // An immediate's class is known now (`ops::float::testp_*`, the executor's definition).
        if let Some((lo, hi)) = imm(1)? {
            use ops::float::TestpOp as O;
            let op = match test {
                TestpOp::Finite => O::Finite,
                TestpOp::Infinite => O::Infinite,
                TestpOp::Number => O::Number,
                TestpOp::NotANumber => O::NotANumber,
                TestpOp::Normal => O::Normal,
                TestpOp::Subnormal => O::Subnormal,
            };
            let holds = if ty == Type::F64 {
                ops::float::testp_f64(op, f64::from_bits(u64::from(hi) << 32 | u64::from(lo)))
            } else {
                ops::float::testp_f32(op, f32::from_bits(hi))
            };
            let c = if holds { "pt" } else { "!pt" };
            self.emit(g, format!("PSETP.AND.AND {p}, pt, {c}, pt, pt;"));
            return Ok(());
        }
        let (al, ah) = reg(self, 1)?;
        let f64 = ty == Type::F64;
        let (inf, min_normal) = if f64 {
            (0x7ff0_0000u32, 0x0010_0000u32)
        } else {
            (0x7f80_0000, 0x0080_0000)
        };
        let mut l = vec![format!("LOP32I.AND {m}, {ah}, 0x7fffffff;")];
        let cmp = |l: &mut Vec<String>, c: &str, acc: &str| {
            let (op, q) = if acc == "pt" {
                ("AND", "pt")
            } else {
                (acc, p.as_str())
            };
            l.push(format!("ISETP.{c}.U32.{op} {p}, pt, {m}, {k}, {q};"));
        };
        match (test, f64) {
            (TestpOp::Normal, _) => {
                l.push(format!("IADD32I {m}, {m}, -{min_normal:#x};"));
                l.push(format!("MOV32I {k}, {:#x};", inf - min_normal));
                cmp(&mut l, "LT", "pt");
            }
            (TestpOp::Subnormal, false) => {
                l.push(format!("IADD {m}, {m}, -0x1;"));
                l.push(format!("MOV32I {k}, {:#x};", min_normal - 1));
                cmp(&mut l, "LT", "pt");
            }
            (TestpOp::Subnormal, true) => {
                l.push(format!("LOP.OR {k}, {m}, {al};"));
                l.push(format!("ISETP.NE.U32.AND {p}, pt, {k}, RZ, pt;"));
                l.push(format!("MOV32I {k}, {min_normal:#x};"));
                cmp(&mut l, "LT", "AND");
            }
            (TestpOp::Finite, _) => {
                l.push(format!("MOV32I {k}, {inf:#x};"));
                cmp(&mut l, "LT", "pt");
            }
            (TestpOp::Infinite, false)
            | (TestpOp::Number, false)
            | (TestpOp::NotANumber, false) => {
                l.push(format!("MOV32I {k}, {inf:#x};"));
                let c = match test {
                    TestpOp::Infinite => "EQ",
                    TestpOp::Number => "LE",
                    _ => "GT",
                };
                cmp(&mut l, c, "pt");
            }
            (TestpOp::Infinite, true) => {
                l.push(format!("MOV32I {k}, {inf:#x};"));
                l.push(format!("ISETP.EQ.U32.AND {p}, pt, {al}, RZ, pt;"));
                cmp(&mut l, "EQ", "AND");
            }
            (TestpOp::NotANumber, true) => {
                l.push(format!("MOV32I {k}, {inf:#x};"));
                l.push(format!("ISETP.NE.U32.AND {p}, pt, {al}, RZ, pt;"));
                cmp(&mut l, "EQ", "AND");
                cmp(&mut l, "GT", "OR");
            }
            (TestpOp::Number, true) => {
                l.push(format!("MOV32I {k}, {inf:#x};"));
                l.push(format!("ISETP.EQ.U32.AND {p}, pt, {al}, RZ, pt;"));
                cmp(&mut l, "NE", "OR");
                cmp(&mut l, "LE", "AND");
            }
        }
        for line in l {
            self.emit(g, line);
        }
        Ok(())
    }
}

/// `d = x` for a word known at translation time.
fn load_word(d: &str, x: u32) -> String {
    if x == 0 {
        format!("MOV {d}, RZ;")
    } else {
        format!("MOV32I {d}, {};", super::hex(i64::from(x as i32)))
    }
}
