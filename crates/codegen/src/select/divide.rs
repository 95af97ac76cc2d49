//! Integer `div`/`rem` on 32 bits: NVIDIA's sm_20 sequence around `MUFU.RCP`.
//!
//! Fermi has no integer divider. ptxas computes an underestimate of `2^32 / b` from the
//! reciprocal of `b` converted rounding up (`I2F.RP`), its bits lowered by 2 ulp and scaled by
//! 2^32 (adding `0x0ffffffe` adds 32 to the exponent and takes 2 from the significand), refines
//! it with one Newton step in integers (`q0 += umulhi(q0, -b·q0)`), takes `q = umulhi(a, q0)`
//! and corrects `q` and `r = a - q·b` at most twice while `r >= b`. The 2 ulp keep the estimate
//! an underestimate for a reciprocal up to 1 ulp off, so the corrections only ever add.
//!
//! Division by zero follows `ops::int::divrem` (all ones; `rem` gives `a`): with `b = 0` the
//! reciprocal is +inf, the scaled value a negative float that `F2I.U32` saturates to 0, so
//! `q0 = 0` and `r = a`, and only the quotient needs the explicit all-ones fix. Signed forms
//! divide magnitudes and then negate (`MIN / -1` wraps to `MIN`, `MIN % -1` is 0, as `ops`).

use super::{Selector, R};
use crate::regs::{SCRATCH, SCRATCH_PAIR, SCRATCH_PRED};
use ir::{Inst, Operand, Type};

/// A div/rem operand: a register, or a constant known at translation time.
enum Value {
    Reg(String),
    Const(u32),
}

/// Whether `inst` is a 16-bit `div`/`rem` or a `div.wide`/`rem.wide`, whose sequences use
/// R4–R6 (16 bits) or R4–R11 (the 64-bit loop): the allocator keeps R4–R13 free.
pub fn needs_scratch16(inst: &Inst) -> bool {
    use ir::Opcode;
    matches!(inst.op, Opcode::Div | Opcode::Rem)
        && (inst.mods.mul_mode == Some(isa::MulMode::Wide)
            || inst.ty().is_some_and(|t| super::bits(t) == 16))
}

/// Whether a 32-bit `div`/`rem` builds its dividend's magnitude in R4 rather than in its
/// destination: under a guard when the magnitude is a copy (signed, or a constant dividend),
/// and when the destination is also a source of a signed one.
pub fn dividend_needs_r4(inst: &Inst) -> bool {
    use ir::Opcode;
    let ty = inst.ty().unwrap_or(Type::B64);
    if !matches!(inst.op, Opcode::Div | Opcode::Rem) || super::bits(ty) != 32 {
        return false;
    }
    let signed = super::is_signed(ty);
    let const_dividend = matches!(inst.operands.get(1), Some(Operand::Imm(_)));
    let dst = inst.operands.first().and_then(Operand::as_reg);
    let aliased = inst
        .operands
        .iter()
        .skip(1)
        .any(|o| o.as_reg().is_some() && o.as_reg() == dst);
    inst.guard.is_some() && (signed || const_dividend) || signed && aliased
}

impl Selector<'_> {
    pub(super) fn divrem32(&mut self, inst: &Inst, g: &str, ty: Type, rem: bool) -> R<()> {
        let signed = super::is_signed(ty);
        let d = self.gpr(self.dst(inst)?)?;
        // Where the dividend's magnitude is built: the destination, free until the end as it
        // never shares a register with a source, unless the instruction is guarded (the
        // destination must keep its value in the other lanes) or names its destination as a
        // source too (the signs are read after the magnitude is built); then R4, which the
        // allocator keeps free in such bodies (`dividend_needs_r4`).
        let ua_home = if dividend_needs_r4(inst) {
            format!("R{}", super::fdiv::F64_SCRATCH)
        } else {
            d.clone()
        };
        // Each operand: its register (for the sign fix) or its constant value.
        let a = self.divide_operand(Self::opnd(inst, 1)?)?;
        let b = self.divide_operand(Self::opnd(inst, 2)?)?;
        self.divide32(g, signed, rem, &d, &ua_home, a, b)
    }

    /// 16-bit `div`/`rem`, and `div.wide`/`rem.wide` on 16 bits (a 32-bit dividend): the
    /// 16-bit operands sign- or zero-extended to 32 bits, then the 32-bit sequence, whose low
    /// 16 result bits are `ops::int::divrem`'s (`div_wide`/`rem_wide`): the 32-bit quotient
    /// and remainder of the extended values are exact, `MIN / -1` wraps (to `0x8000` on 16
    /// bits, and the 32-bit quotient's low half for `.wide`), `x / 0` is all ones and `x % 0`
    /// is `x`. Extended operands in R4 (a) and R6 (b), kept for the sign fix; the dividend's
    /// magnitude in R5 (`needs_scratch16`: the allocator keeps R4–R13 free).
    pub(super) fn divrem16(&mut self, inst: &Inst, g: &str, ty: Type, rem: bool) -> R<()> {
        let signed = super::is_signed(ty);
        let wide = inst.mods.mul_mode == Some(isa::MulMode::Wide);
        let d = self.gpr(self.dst(inst)?)?;
        let t = |k: u8| format!("R{}", super::fdiv::F64_SCRATCH + k);
        let extended = |s: &mut Self, o: &Operand, k: u8| -> R<Value> {
            Ok(match o {
                Operand::Imm(v) if signed => Value::Const(*v as u16 as i16 as i32 as u32),
                Operand::Imm(v) => Value::Const(u32::from(*v as u16)),
                _ => Value::Reg(s.extend16(o, "", signed, super::fdiv::F64_SCRATCH + k)?),
            })
        };
        let a = match Self::opnd(inst, 1)? {
            // `.wide`: the dividend is already 32 bits.
            Operand::Reg(r) if wide => Value::Reg(self.gpr(*r)?),
            Operand::Imm(v) if wide => Value::Const(*v as u32),
            o => extended(self, o, 0)?,
        };
        let b = extended(self, Self::opnd(inst, 2)?, 2)?;
        self.divide32(g, signed, rem, &d, &t(1), a, b)
    }

    #[allow(clippy::too_many_arguments)]
    fn divide32(
        &mut self,
        g: &str,
        signed: bool,
        rem: bool,
        d: &str,
        ua_home: &str,
        a: Value,
        b: Value,
    ) -> R<()> {
        let p = format!("P{SCRATCH_PRED}");
        let (q, r, t) = (
            format!("R{SCRATCH}"),
            format!("R{SCRATCH_PAIR}"),
            SCRATCH_PAIR + 1,
        );
        // The unsigned magnitudes: `ub` in R3 (or b's own register), `ua` in the destination
        // (free until the end: it never shares a register with a source) or a's register.
        let magnitude = |s: &mut Self, o: &Value, into: &str| -> R<String> {
            Ok(match o {
                Value::Reg(x) if signed => {
                    s.emit("", format!("I2I.S32.S32 {into}, |{x}|;"));
                    into.to_string()
                }
                Value::Reg(x) => x.clone(),
                Value::Const(v) => {
                    let m = if signed {
                        (*v as i32).unsigned_abs()
                    } else {
                        *v
                    };
                    if m == 0 {
                        "RZ".into()
                    } else {
                        s.emit(
                            "",
                            format!("MOV32I {into}, {};", super::hex(i64::from(m as i32))),
                        );
                        into.to_string()
                    }
                }
            })
        };
        let ub = magnitude(self, &b, &format!("R{t}"))?;
        let ua = magnitude(self, &a, ua_home)?;
        for line in [
            format!("I2F.F32.U32.RP {q}, {ub};"),
            format!("MUFU.RCP {q}, {q};"),
            format!("IADD32I {q}, {q}, 0xffffffe;"),
            format!("F2I.FTZ.U32.F32.TRUNC {q}, {q};"),
            format!("IMUL.U32.U32 {r}, {q}, {ub};"),
            format!("IADD {r}, RZ, -{r};"),
            format!("IMUL.U32.U32.HI {r}, {q}, {r};"),
            format!("IADD {q}, {q}, {r};"),
            format!("IMUL.U32.U32.HI {q}, {ua}, {q};"),
            format!("IMUL.U32.U32 {r}, {q}, {ub};"),
            format!("IADD {r}, {ua}, -{r};"),
        ] {
            self.emit("", line);
        }
        for _ in 0..2 {
            self.emit("", format!("ISETP.GE.U32.AND {p}, pt, {r}, {ub}, pt;"));
            self.emit("", format!("@{p} IADD {r}, {r}, -{ub};"));
            self.emit("", format!("@{p} IADD {q}, {q}, 0x1;"));
        }
        // A signed result is negated when `negate` holds: the remainder takes the dividend's
        // sign, the quotient is negative when the signs differ.
        let negate = |s: &mut Self, x: &str| -> R<()> {
            if !signed {
                return Ok(());
            }
            let sign = |o: &Value| match o {
                Value::Reg(x) => Err(x.clone()),
                Value::Const(v) => Ok((*v as i32) < 0),
            };
            let test = match (sign(&a), if rem { Ok(false) } else { sign(&b) }) {
                (Ok(na), Ok(nb)) => {
                    if na != nb {
                        s.emit("", format!("IADD {x}, RZ, -{x};"));
                    }
                    return Ok(());
                }
                (Err(ra), Err(rb)) => {
                    // Only for a quotient: the remainder in R2 is dead by then.
                    s.emit("", format!("LOP.XOR {r}, {ra}, {rb};"));
                    format!("ISETP.LT.AND {p}, pt, {r}, RZ, pt;")
                }
                (Err(reg), Ok(neg)) | (Ok(neg), Err(reg)) => {
                    let cmp = if neg { "GE" } else { "LT" };
                    format!("ISETP.{cmp}.AND {p}, pt, {reg}, RZ, pt;")
                }
            };
            s.emit("", test);
            s.emit("", format!("@{p} IADD {x}, RZ, -{x};"));
            Ok(())
        };
        if rem {
            negate(self, &r)?;
            self.emit(g, format!("MOV {d}, {r};"));
        } else {
            negate(self, &q)?;
            // Division by zero: all ones whatever the signs (after the sign fix).
            self.emit("", format!("ISETP.EQ.U32.AND {p}, pt, {ub}, RZ, pt;"));
            self.emit("", format!("@{p} MOV32I {q}, -0x1;"));
            self.emit(g, format!("MOV {d}, {q};"));
        }
        Ok(())
    }

    fn divide_operand(&mut self, o: &Operand) -> R<Value> {
        match o {
            Operand::Reg(r) => Ok(Value::Reg(self.gpr(*r)?)),
            Operand::Imm(v) => Ok(Value::Const(*v as u32)),
            _ => Err("unsupported div/rem operand".into()),
        }
    }
}

impl Selector<'_> {
    /// `div`/`rem .u64`: restoring division, one quotient bit per iteration of a uniform
    /// 64-iteration loop (every lane runs it the same number of times, so the loop's branch
    /// never diverges). The dividend's pair shifts left into the remainder and collects the
    /// quotient bits at its low end. With `b = 0` every step subtracts 0 and sets the bit:
    /// the quotient is all ones and the remainder `a`, as `ops::int::divrem`.
    /// Temporaries: R4–R11 (kept free like the f64 temporaries of fdiv.rs), R0, R2, P6.
    ///
    /// `.s64` divides the magnitudes (`|MIN|` is 2^63, exact as an unsigned value) and then
    /// negates: the quotient when the signs differ, the remainder when the dividend is
    /// negative (the remainder takes the dividend's sign). The raw high words of `a` and `b`
    /// are kept in R10 and R11 for that. `x / 0` is all ones whatever the signs and `x % 0` is
    /// `x` (the loop leaves `|x|`, negated back), `MIN / -1` wraps to `MIN` and `MIN % -1` is
    /// 0, as `ops::int::{div, rem}`.
    pub(super) fn divrem64(&mut self, inst: &Inst, g: &str, rem: bool, signed: bool) -> R<()> {
        if !g.is_empty() {
            return Err("a guarded 64-bit div/rem has no selection rule yet".into());
        }
        let (dl, dh) = self.pair(self.dst(inst)?)?;
        self.divide64(inst, rem, signed, &dl, Some(&dh))
    }

    /// `div.wide`/`rem.wide` on 32 bits (PTX 1.x): the 64-bit dividend divided by the 32-bit
    /// divisor sign- or zero-extended to 64 bits, by the 64-bit loop; the result is the low
    /// word (`ops::int::{div_wide, rem_wide}`: the 64-bit quotient's low word, all ones for
    /// `x / 0`, the dividend's low word for `x % 0`; `MIN64 / -1` wraps).
    pub(super) fn divrem_wide32(&mut self, inst: &Inst, g: &str, rem: bool, signed: bool) -> R<()> {
        if !g.is_empty() {
            return Err("a guarded div.wide/rem.wide on 32 bits has no selection rule yet".into());
        }
        let d = self.gpr(self.dst(inst)?)?;
        self.divide64(inst, rem, signed, &d, None)
    }

    /// The 64-bit loop of `inst` (a 32-bit divisor for `div.wide`/`rem.wide`: `dh` is `None`
    /// and only the result's low word is written).
    fn divide64(
        &mut self,
        inst: &Inst,
        rem: bool,
        signed: bool,
        dl: &str,
        dh: Option<&str>,
    ) -> R<()> {
        let (al, ah) = self.src64(Self::opnd(inst, 1)?, "")?;
        let t = |k: u8| format!("R{}", super::fdiv::F64_SCRATCH + k);
        let (nl, nh, dvl, dvh, rl, rh) = (t(0), t(1), t(2), t(3), t(4), t(5));
        // The dividend into n (before b's immediate may reuse R2:R3).
        self.emit("", format!("MOV {nl}, {al};"));
        self.emit("", format!("MOV {nh}, {ah};"));
        let (bl, bh) = match (dh, Self::opnd(inst, 2)?) {
            (Some(_), b) => self.src64(b, "")?,
            // A 32-bit divisor, extended: R2 and R3 (or RZ) are free until the loop.
            (None, Operand::Reg(r)) => {
                let b = self.gpr(*r)?;
                let (bl, bh) = (format!("R{SCRATCH_PAIR}"), format!("R{}", SCRATCH_PAIR + 1));
                self.emit("", format!("MOV {bl}, {b};"));
                if signed {
                    self.emit("", format!("SHR {bh}, {b}, 0x1f;"));
                    (bl, bh)
                } else {
                    (bl, "RZ".into())
                }
            }
            (None, Operand::Imm(v)) => {
                let v = if signed {
                    *v as u32 as i32 as i64 as u64
                } else {
                    u64::from(*v as u32)
                };
                self.src64(&Operand::Imm(v), "")?
            }
            (None, _) => return Err("unsupported div/rem operand".into()),
        };
        let (s0, s2) = (format!("R{SCRATCH}"), format!("R{SCRATCH_PAIR}"));
        let p = format!("P{SCRATCH_PRED}");
        let top = format!("{}D{}L", self.label_prefix, self.out.len());
        let (sa, sb) = (t(6), t(7));
        // Replace a value by its magnitude when negative, keeping its high word in `keep`.
        let magnitude = |s: &mut Self, lo: &str, hi: &str, keep: &str| {
            for l in [
                format!("MOV {keep}, {hi};"),
                format!("ISETP.LT.AND {p}, pt, {hi}, RZ, pt;"),
                format!("@{p} IADD {lo}.CC, RZ, -{lo};"),
                format!("@{p} IADD.X {hi}, RZ, -{hi};"),
            ] {
                s.emit("", l);
            }
        };
        if signed {
            magnitude(self, &nl, &nh, &sa);
        }
        self.emit("", format!("MOV {dvl}, {bl};"));
        self.emit("", format!("MOV {dvh}, {bh};"));
        if signed {
            magnitude(self, &dvl, &dvh, &sb);
        }
        for l in [
            format!("MOV {rl}, RZ;"),
            format!("MOV {rh}, RZ;"),
            format!("MOV32I {s0}, 0x40;"),
        ] {
            self.emit("", l);
        }
        self.out.push(super::Line::Label(top.clone()));
        for l in [
            // r:n <<= 1 (128-bit shift across the two pairs).
            format!("SHL {rh}, {rh}, 0x1;"),
            format!("SHR.U32 {s2}, {rl}, 0x1f;"),
            format!("LOP.OR {rh}, {rh}, {s2};"),
            format!("SHL {rl}, {rl}, 0x1;"),
            format!("SHR.U32 {s2}, {nh}, 0x1f;"),
            format!("LOP.OR {rl}, {rl}, {s2};"),
            format!("SHL {nh}, {nh}, 0x1;"),
            format!("SHR.U32 {s2}, {nl}, 0x1f;"),
            format!("LOP.OR {nh}, {nh}, {s2};"),
            format!("SHL {nl}, {nl}, 0x1;"),
            // r >= d (unsigned 64-bit): subtract and set the quotient bit.
            format!("ISETP.GE.U32.AND {p}, pt, {rl}, {dvl}, pt;"),
            format!("ISETP.EQ.U32.AND {p}, pt, {rh}, {dvh}, {p};"),
            format!("ISETP.GT.U32.OR {p}, pt, {rh}, {dvh}, {p};"),
            format!("@{p} IADD {rl}.CC, {rl}, -{dvl};"),
            format!("@{p} IADD.X {rh}, {rh}, -{dvh};"),
            format!("@{p} LOP32I.OR {nl}, {nl}, 0x1;"),
            format!("IADD {s0}, {s0}, -0x1;"),
            format!("ISETP.NE.U32.AND {p}, pt, {s0}, RZ, pt;"),
            format!("@{p} BRA {top};"),
        ] {
            self.emit("", l);
        }
        let (ql, qh) = if rem { (rl, rh) } else { (nl, nh) };
        if signed {
            let sign = if rem {
                sa
            } else {
                self.emit("", format!("LOP.XOR {s2}, {sa}, {sb};"));
                s2.clone()
            };
            for l in [
                format!("ISETP.LT.AND {p}, pt, {sign}, RZ, pt;"),
                format!("@{p} IADD {ql}.CC, RZ, -{ql};"),
                format!("@{p} IADD.X {qh}, RZ, -{qh};"),
            ] {
                self.emit("", l);
            }
            if !rem {
                // Division by zero: all ones, not the negated all-ones the signs would give.
                for l in [
                    format!("LOP.OR {s2}, {dvl}, {dvh};"),
                    format!("ISETP.EQ.U32.AND {p}, pt, {s2}, RZ, pt;"),
                    format!("@{p} MOV32I {ql}, -0x1;"),
                    format!("@{p} MOV32I {qh}, -0x1;"),
                ] {
                    self.emit("", l);
                }
            }
        }
        self.emit("", format!("MOV {dl}, {ql};"));
        if let Some(dh) = dh {
            self.emit("", format!("MOV {dh}, {qh};"));
        }
        Ok(())
    }
}
