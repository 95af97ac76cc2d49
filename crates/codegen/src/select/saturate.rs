//! Saturating integer forms: `add.sat.s32` (`IADD.SAT`), `sub.sat.s32` (`IADD.SAT` of the
//! negation of an immediate other than MIN; else the wrapping difference and an overflow
//! test), `mad.hi.sat.s32` (`IMUL.HI`, `IADD.SAT`), and `cvt.sat` between integer
//! types of at most 32 bits: the source extended to 32 bits by its type (`I2I`), then clamped
//! to the destination's range with `IMNMX` (signed or unsigned comparisons as the source's
//! type says). 64-bit `cvt.sat`: `select/cvt_sat64.rs`.

use super::{bits, i2i_type, is_signed, Selector, R};
use crate::regs::{SCRATCH, SCRATCH_PAIR};
use ir::{Inst, Opcode, Operand, Type};

impl Selector<'_> {
    pub(super) fn add_sat(&mut self, inst: &Inst, g: &str) -> R<()> {
        let d = self.gpr(self.dst(inst)?)?;
        let a = self.reg32(Self::opnd(inst, 1)?, g, SCRATCH)?;
        let b = match (inst.op, Self::opnd(inst, 2)?) {
            (Opcode::Add, b) => self.src32(b, g, SCRATCH_PAIR, true)?,
            (_, Operand::Imm(v)) if *v as u32 != 0x8000_0000 => {
                let neg = (*v as u32).wrapping_neg() as u64;
                self.src32(&Operand::Imm(neg), g, SCRATCH_PAIR, true)?
            }
            (_, b) => {
                // A register or MIN: `IADD.SAT` would negate it in 32 bits (MIN stays MIN and
                // saturates the wrong way). The wrapping difference instead, replaced by the
                // bound of `a`'s sign where it overflowed (operands of different signs and a
                // result whose sign differs from `a`'s: `(a ^ b) & (a ^ r) < 0`).
                let b = self.src32(b, g, SCRATCH_PAIR, true)?;
                if let Operand::Imm(v) = Self::opnd(inst, 1)? {
                    // `a` is a constant in R0: its sign is known, so is the bound; it
                    // overflowed where `b` and `r` are both negative (a ≥ 0) or both
                    // non-negative (a < 0).
                    let (r, o, m) = ("R3", "R2", "R0");
                    let neg = (*v as u32 as i32) < 0;
                    self.emit(g, format!("IADD {r}, {a}, -{b};"));
                    let (op, bound, cmp) = if neg {
                        ("OR", super::hex(i64::from(i32::MIN)), "GE")
                    } else {
                        ("AND", super::hex(i64::from(i32::MAX)), "LT")
                    };
                    self.emit(g, format!("LOP.{op} {o}, {b}, {r};"));
                    self.emit(g, format!("MOV32I {m}, {bound};"));
                    self.emit(g, format!("ICMP.{cmp} {d}, {m}, {r}, {o};"));
                    return Ok(());
                }
                let (r, o, m) = (
                    format!("R{SCRATCH}"),
                    format!("R{SCRATCH_PAIR}"),
                    format!("R{}", SCRATCH_PAIR + 1),
                );
                self.emit(g, format!("IADD {r}, {a}, -{b};"));
                self.emit(g, format!("LOP.XOR {o}, {a}, {b};"));
                self.emit(g, format!("LOP.XOR {m}, {a}, {r};"));
                self.emit(g, format!("LOP.AND {o}, {o}, {m};"));
                self.emit(g, format!("SHR {m}, {a}, 0x1f;"));
                self.emit(g, format!("LOP32I.XOR {m}, {m}, 0x7fffffff;"));
                self.emit(g, format!("ICMP.LT {d}, {m}, {r}, {o};"));
                return Ok(());
            }
        };
        self.emit(g, format!("IADD.SAT {d}, {a}, {b};"));
        Ok(())
    }

    /// `mad.hi.sat.s32`: the high word of the signed product, then a saturating add of `c`
    /// (`ops::int::mad_hi_sat_s32`).
    pub(super) fn mad_hi_sat(&mut self, inst: &Inst, g: &str) -> R<()> {
        let d = self.gpr(self.dst(inst)?)?;
        let a = self.reg32(Self::opnd(inst, 1)?, g, SCRATCH)?;
        let b = self.src32(Self::opnd(inst, 2)?, g, SCRATCH_PAIR, true)?;
        let s = format!("R{SCRATCH}");
        self.emit(g, format!("IMUL.HI {s}, {a}, {b};"));
        let c = self.src32(Self::opnd(inst, 3)?, g, SCRATCH_PAIR, true)?;
        self.emit(g, format!("IADD.SAT {d}, {s}, {c};"));
        Ok(())
    }

    pub(super) fn cvt_sat_int(&mut self, inst: &Inst, g: &str, dt: Type, st: Type) -> R<()> {
        if bits(dt) == 64 || bits(st) == 64 {
            return self.cvt_sat_wide(inst, g, dt, st);
        }
        let d = self.gpr(self.dst(inst)?)?;
        let a = match Self::opnd(inst, 1)? {
            Operand::Reg(r) => self.gpr(*r)?,
            _ => return Err("an immediate cvt.sat source".into()),
        };
        let x = self.extend32(g, &a, st);
        self.clamp32(g, &d, x, is_signed(st), dt)
    }

    /// The source's value as a 32-bit integer of its own signedness (`I2I` for 8/16 bits,
    /// into the scratch register).
    pub(super) fn extend32(&mut self, g: &str, a: &str, st: Type) -> String {
        if bits(st) < 32 {
            let s = format!("R{SCRATCH}");
            let wide = if is_signed(st) { ".S32" } else { ".U32" };
            self.emit(g, format!("I2I{wide}{} {s}, {a};", i2i_type(st)));
            s
        } else {
            a.to_string()
        }
    }

    /// `d` = the 32-bit value `x` (signed or unsigned as `signed` says) clamped to the range
    /// of `dt` (at most 32 bits) by `IMNMX`; the scratch register may be `x`.
    pub(super) fn clamp32(&mut self, g: &str, d: &str, x: String, signed: bool, dt: Type) -> R<()> {
        let s = format!("R{SCRATCH}");
        let n = bits(dt);
        // The destination's range as 64-bit numbers.
        let (lo, hi): (i64, i64) = if is_signed(dt) {
            (-(1i64 << (n - 1)), (1i64 << (n - 1)) - 1)
        } else {
            (0, (1i64 << n) - 1)
        };
        let imm = |s: &mut Self, v: i64, scratch: u8| -> R<String> {
            s.src32(&Operand::Imm(v as u32 as u64), g, scratch, true)
        };
        if signed {
            // Signed comparisons; only bounds inside the s32 range constrain.
            let mut cur = x;
            if hi < i64::from(i32::MAX) {
                let h = imm(self, hi, SCRATCH_PAIR)?;
                self.emit(g, format!("IMNMX {s}, {cur}, {h}, pt;"));
                cur = s.clone();
            }
            if lo > i64::from(i32::MIN) {
                let l = imm(self, lo, SCRATCH_PAIR)?;
                self.emit(g, format!("IMNMX {d}, {cur}, {l}, !pt;"));
            } else {
                self.emit(g, format!("MOV {d}, {cur};"));
            }
        } else if hi < i64::from(u32::MAX) {
            // Unsigned source: only the upper bound constrains (every lower bound is ≤ 0).
            let h = imm(self, hi, SCRATCH_PAIR)?;
            self.emit(g, format!("IMNMX.U32 {d}, {x}, {h}, pt;"));
        } else {
            self.emit(g, format!("MOV {d}, {x};"));
        }
        Ok(())
    }
}
