//! IEEE `div.{rn,rz,rm,rp,full}.f32` and `rcp.{rn,rz,rm,rp}.f32`, exact, through f64.
//!
//! Fermi has only an approximate reciprocal (`MUFU.RCP`). The quotient is computed in f64,
//! where f32 operands are exact: a seed `MUFU.RCP` of b's significand (its f64 exponent
//! replaced by 0, so the seed is never subnormal or infinite whatever b is), scaled back by an
//! exact power of two built from b's exponent, three Newton steps `y += y·(1 − b·y)` (`DFMA`),
//! `q = a·y`, and one residual correction `q += (a − b·q)·y`, which gives the correctly rounded
//! f64 quotient. `F2F.F32.F64` with the instruction's rounding then rounds it to f32 exactly:
//! the quotient of two 24-bit significands is never within 2^-48 (relative) of an f32 value
//! or of a midpoint between two without being equal to it (`a − v·b` is a nonzero multiple of
//! the last place of the 48-bit `v·b`), and the f64 quotient is within 2^-53, so rounding it
//! again lands where rounding the exact quotient does, for every rounding direction, subnormal
//! results included.
//!
//! Zeros, infinities and NaNs (either operand) take `a × MUFU.RCP(b)` when b is one of them
//! (whose reciprocals are exact) and `a × ±1` with b's sign otherwise (a is then 0, ∞ or NaN):
//! IEEE's ∞, 0 and NaN cases.
//!
//! The f64 temporaries are R4–R13, which the allocator keeps free in bodies that have such an
//! instruction (`needs_f64_scratch`); P6 is the scratch predicate.

use super::{hex, Selector, R};
use crate::regs::{SCRATCH, SCRATCH_PAIR, SCRATCH_PRED};
use ir::{Inst, Opcode, Operand};
use isa::{Flag, Rounding};

/// First register of the f64 temporaries (five aligned pairs, R4–R13).
pub const F64_SCRATCH: u8 = 4;

impl Selector<'_> {
    pub(super) fn div_f32(&mut self, inst: &Inst, g: &str) -> R<()> {
        let m = &inst.mods;
        if m.has(Flag::Sat) {
            return Err("div/rcp.f32 with .sat have no selection rule yet".into());
        }
        // `.ftz`: subnormal operands count as zeros of their sign, a subnormal result is
        // flushed (ops: flush(flush(a) / flush(b))). The conversions to and from f64 flush
        // (F2F.FTZ), subnormals join the special class (|x| − 2^-126 wraps), the special
        // divisor is flushed by F2F.FTZ, and the special product is FMUL.FTZ.
        let ftz = m.has(Flag::Ftz);
        let (fz, low, limit) = if ftz {
            (".FTZ", "-0x800000", "0x7f000000")
        } else {
            ("", "-0x1", "0x7f7fffff")
        };
        let rnd = match m.rounding {
            None | Some(Rounding::Rn) => "",
            Some(Rounding::Rz) => ".RZ",
            Some(Rounding::Rm) => ".RM",
            Some(Rounding::Rp) => ".RP",
            Some(_) => return Err("this rounding has no f32 division".into()),
        };
        let rcp = inst.op == Opcode::Rcp;
        let d = self.gpr(self.dst(inst)?)?;
        let (a_op, b_op) = if rcp {
            (
                Operand::Imm(u64::from(1f32.to_bits())),
                Self::opnd(inst, 1)?.clone(),
            )
        } else {
            (Self::opnd(inst, 1)?.clone(), Self::opnd(inst, 2)?.clone())
        };
        // Operands: registers, or immediates that each line using them takes as a constant
        // (through a temporary free at that point), so the destination is never a temporary
        // and may be either source's register.
        let src = |s: &mut Self, o: &Operand| -> R<Result<String, u32>> {
            match o {
                Operand::Reg(r) => Ok(Ok(s.gpr(*r)?)),
                Operand::Imm(v) => Ok(Err(*v as u32)),
                _ => Err("unsupported operand kind".into()),
            }
        };
        let a = src(self, &a_op)?;
        let b = src(self, &b_op)?;
        let k = |v: u32| hex(i64::from(v as i32));
        // `op d, x, …` for a register x, or the constant through `via` (`MOV32I via, x`).
        let with = |x: &Result<String, u32>, via: &str, line: &dyn Fn(&str) -> String| match x {
            Ok(r) => vec![line(r)],
            Err(v) => vec![format!("MOV32I {via}, {};", k(*v)), line(via)],
        };
        // `LOP32I.AND d, x, mask` for a register x, else `MOV32I d, x & mask`.
        let masked = |x: &Result<String, u32>, d: &str, mask: u32| match x {
            Ok(r) => format!("LOP32I.AND {d}, {r}, {};", k(mask)),
            Err(v) => format!("MOV32I {d}, {};", k(v & mask)),
        };
        let t = |k: u8| format!("R{}", F64_SCRATCH + k);
        let (s0, s2, s3) = (
            format!("R{SCRATCH}"),
            format!("R{SCRATCH_PAIR}"),
            format!("R{}", SCRATCH_PAIR + 1),
        );
        let p = format!("P{SCRATCH_PRED}");
        // B = f64(b) in R8:R9; A = f64(a) in R4:R5; y in R6:R7; 1.0 in R10:R11; e in R12:R13.
        let (ya, bb, one, e, aa) = (t(2), t(4), t(6), t(8), t(0));
        let mut lines = with(&b, &s0, &|b| format!("F2F{fz}.F64.F32 {bb}, {b};"));
        lines.extend([
            // The significand of B with exponent 0 (sign kept): a seed that cannot overflow.
            format!("LOP32I.AND {s3}, {}, 0x800fffff;", t(5)),
            format!("LOP32I.OR {s3}, {s3}, 0x3ff00000;"),
            format!("MOV {s2}, {bb};"),
            format!("F2F.F32.F64 {s0}, {s2};"),
            format!("MUFU.RCP {s0}, {s0};"),
            format!("F2F.F64.F32 {ya}, {s0};"),
            // 2^-(E-1023) for B's biased exponent E: high word (2046 - E) << 20.
            format!("LOP32I.AND {s2}, {}, 0x7ff00000;", t(5)),
            format!("MOV32I {s3}, 0x7fe00000;"),
            format!("IADD {}, {s3}, -{s2};", t(7)),
            format!("MOV {one}, RZ;"),
            format!("DMUL {ya}, {ya}, {one};"),
            format!("LOP32I.XOR {}, {}, 0x80000000;", t(5), t(5)),
        ]);
        lines.extend(with(&a, &s2, &|a| format!("F2F{fz}.F64.F32 {aa}, {a};")));
        lines.push(format!("MOV32I {}, 0x3ff00000;", t(7)));
        for l in lines {
            self.emit("", l);
        }
        for _ in 0..3 {
            self.emit("", format!("DFMA {e}, {bb}, {ya}, {one};"));
            self.emit("", format!("DFMA {ya}, {ya}, {e}, {ya};"));
        }
        let mut tail = vec![
            format!("DMUL {e}, {aa}, {ya};"),
            format!("DFMA {one}, {bb}, {e}, {aa};"),
            format!("DFMA {e}, {one}, {ya}, {e};"),
            format!("F2F{fz}.F32.F64{rnd} {s0}, {e};"),
            // Zeros, infinities, NaNs: |x| - 1 (unsigned) at or above 0x7f7fffff.
            format!("MOV32I {s3}, {limit};"),
            masked(&b, &s2, 0x7fff_ffff),
            format!("IADD32I {s2}, {s2}, {low};"),
            format!("ISETP.GE.U32.AND {p}, pt, {s2}, {s3}, pt;"),
            // The divisor of the special case: b itself if it is special (its reciprocal is
            // exact), else ±1 with b's sign (a is then 0, ∞ or NaN, and a × ±1 is the quotient).
            masked(&b, &s2, 0x8000_0000),
            format!("LOP32I.OR {s2}, {s2}, 0x3f800000;"),
        ];
        match (&b, ftz) {
            (Ok(b), true) => tail.push(format!("@{p} F2F.FTZ.F32.F32 {s2}, {b};")),
            (Ok(b), false) => tail.push(format!("@{p} MOV {s2}, {b};")),
            (Err(v), _) => {
                tail.push(format!("@{p} MOV32I {s2}, {};", k(*v)));
                if ftz {
                    tail.push(format!("@{p} F2F.FTZ.F32.F32 {s2}, {s2};"));
                }
            }
        }
        tail.extend([
            format!("MUFU.RCP {s2}, {s2};"),
            masked(&a, &aa, 0x7fff_ffff),
            format!("IADD32I {aa}, {aa}, {low};"),
            format!("ISETP.GE.U32.OR {p}, pt, {aa}, {s3}, {p};"),
        ]);
        // aa is free again for a constant dividend.
        tail.extend(with(&a, &aa, &|a| {
            format!("@{p} FMUL{fz} {s0}, {a}, {s2};")
        }));
        for l in tail {
            self.emit("", l);
        }
        self.emit(g, format!("MOV {d}, {s0};"));
        Ok(())
    }
}

impl Selector<'_> {
    /// `div.approx.ftz.f32` and `rcp.approx.ftz.f32`. ops: flush(a × flush(1/flush(b))) and
    /// flush(1/flush(a)): `FMUL.FTZ` by 1.0 flushes a subnormal operand, and `FMUL.FTZ`
    /// flushes its operands and result.
    pub(super) fn div_approx_ftz(&mut self, inst: &Inst, g: &str) -> R<()> {
        let d = self.gpr(self.dst(inst)?)?;
        let last = if inst.op == Opcode::Rcp { 1 } else { 2 };
        let b = self.reg32(Self::opnd(inst, last)?, g, SCRATCH)?;
        let one = format!("R{SCRATCH_PAIR}");
        self.emit(g, format!("MOV32I {one}, 0x3f800000;"));
        self.emit(g, format!("FMUL.FTZ R{SCRATCH}, {b}, {one};"));
        self.emit(g, format!("MUFU.RCP R{SCRATCH}, R{SCRATCH};"));
        let a = if inst.op == Opcode::Rcp {
            one
        } else {
            self.reg32(Self::opnd(inst, 1)?, g, SCRATCH_PAIR)?
        };
        self.emit(g, format!("FMUL.FTZ {d}, {a}, R{SCRATCH};"));
        Ok(())
    }
}
