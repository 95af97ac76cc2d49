//! IEEE `div.{rn,rz,rm,rp}.f64` and `rcp.{rn,rz,rm,rp}.f64`, exact, with every rounding.
//!
//! The magnitudes are scaled to `a', b' ∈ [1, 2)` (subnormal inputs first multiplied by 2^54,
//! exactly), so `q' = a'/b' ∈ (1/2, 2)` and the result is `q'·2^k`. A `MUFU.RCP` seed of `b'`
//! (as f32, like the f32 division of fdiv.rs; the Fermi executor has no `MUFU.RCP64H`), three
//! `DFMA` Newton steps and one residual step give `q0` within a few ulps of `q'`. `q0` is then
//! made exactly `T = RZ(q')` (the largest double not above `q'`) by comparing with the sign of
//! the residual `a' − b'·x`, which one `DFMA` computes exactly before its single rounding (a
//! rounding never changes a sign nor makes a nonzero value zero; here no underflow is
//! possible): twice "step down while `a' − b'·q0 < 0`", twice "step up while
//! `a' − b'·next(q0) ≥ 0"`, stepping by ±1 on the bit pattern.
//!
//! The rest is integer rounding, the same for normal, subnormal and overflowing results:
//! `ρ = a' − b'·T` is exact (the remainder of a faithful quotient is representable), so
//! `q' − T ≥ u/2` (`u = ulp(T)`) exactly when `ρ ≥ b'·u/2` (an exact product), which gives the
//! guard bit `g`; the sticky bit is whether `ρ` differs from 0 (from `b'·u/2` when `g`). The
//! 55-bit `T·4 + 2g + s` is shifted right to the result's precision when the result is
//! subnormal (the shifted-out bits joining the sticky bit), rounded per the PTX mode and the
//! result's sign, and the exponent added on top (a carry out of the significand raises the
//! exponent, up to infinity). Results beyond the largest finite value are ∞ or the largest
//! finite value, as the mode says. Zeros, infinities and NaNs (either operand) give
//! `a × r`, where `r` is `1/b` when `b` is one of them (exact: ±∞, ±0, NaN) and `±1` with
//! `b`'s sign otherwise — IEEE's special cases, as for f32.
//!
//! Temporaries: R0, R2:R3, R4–R13 (`needs_f64_scratch`), P6. An immediate operand is read as
//! constants by the lines that use its halves (`MOV32I`, `LOP32I`), so no register holds it and
//! the destination, written only at the end, may be either source's register.

use super::{hex, Selector, R};
use ir::{Inst, Opcode, Operand};
use isa::{Flag, Rounding};

/// A 32-bit half of a source: a register, or an immediate's bits.
enum Half {
    Reg(String),
    Imm(u32),
}

fn k(v: u32) -> String {
    hex(i64::from(v as i32))
}

/// `d = h`.
fn mov(d: &str, h: &Half) -> String {
    match h {
        Half::Reg(r) => format!("MOV {d}, {r};"),
        Half::Imm(v) => format!("MOV32I {d}, {};", k(*v)),
    }
}

/// `d = h & mask`.
fn and(d: &str, h: &Half, mask: u32) -> String {
    match h {
        Half::Reg(r) => format!("LOP32I.AND {d}, {r}, {};", k(mask)),
        Half::Imm(v) => format!("MOV32I {d}, {};", k(v & mask)),
    }
}

/// `d |= h`.
fn or_into(d: &str, h: &Half) -> String {
    match h {
        Half::Reg(r) => format!("LOP.OR {d}, {d}, {r};"),
        Half::Imm(v) => format!("LOP32I.OR {d}, {d}, {};", k(*v)),
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Rn,
    Rz,
    Rm,
    Rp,
}

impl Selector<'_> {
    pub(super) fn div_f64(&mut self, inst: &Inst, g: &str) -> R<()> {
        let m = &inst.mods;
        if m.has(Flag::Ftz) || m.has(Flag::Sat) || m.has(Flag::Approx) {
            return Err("div/rcp.f64 with .ftz/.sat/.approx have no selection rule yet".into());
        }
        let mode = match m.rounding {
            // PTX 1.x's `div.f64`/`rcp.f64` without a modifier are `.rn` (ptx-isa "defaults
            // to .rn" for PTX ISA 1.4 and earlier; the executor's `rnd_of` alike).
            None | Some(Rounding::Rn) => Mode::Rn,
            Some(Rounding::Rz) => Mode::Rz,
            Some(Rounding::Rm) => Mode::Rm,
            Some(Rounding::Rp) => Mode::Rp,
            _ => return Err("an f64 division needs .rn/.rz/.rm/.rp".into()),
        };
        let rcp = inst.op == Opcode::Rcp;
        let (dl, dh) = self.pair(self.dst(inst)?)?;
        // Sources as register pairs, or immediates whose halves each line reading them takes
        // as constants: the destination is written only by the final moves, after every read
        // of the sources, so it may be either source's register.
        let operand = |s: &mut Self, o: &Operand| -> R<(Half, Half)> {
            match o {
                Operand::Reg(r) => {
                    let (lo, hi) = s.pair(*r)?;
                    Ok((Half::Reg(lo), Half::Reg(hi)))
                }
                Operand::Imm(v) => Ok((Half::Imm(*v as u32), Half::Imm((*v >> 32) as u32))),
                _ => Err("unsupported operand kind".into()),
            }
        };
        let a = if rcp {
            None
        } else {
            Some(operand(self, Self::opnd(inst, 1)?)?)
        };
        let (bl, bh) = operand(self, Self::opnd(inst, if rcp { 1 } else { 2 })?)?;
        let mut l: Vec<String> = Vec::new();
        let mut e = |s: &str| l.push(s.to_string());
        // a' in R4:R5, its biased exponent in R12; R0 = 0x100000 (the smallest normal's high
        // word); R8:R9 = 2^54.
        e("MOV32I R0, 0x100000;");
        e("MOV R8, RZ;");
        e("MOV32I R9, 0x43500000;");
        match &a {
            None => {
                e("MOV R4, RZ;");
                e("MOV32I R5, 0x3ff00000;");
                e("MOV32I R12, 0x3ff;");
            }
            Some((al, ah)) => {
                e(&mov("R4", al));
                e(&and("R5", ah, 0x7fff_ffff));
                e("ISETP.LT.U32.AND P6, pt, R5, R0, pt;");
                e("@P6 DMUL R4, R4, R8;");
                e("SHR.U32 R12, R5, 0x14;");
                e("@P6 IADD R12, R12, -0x36;");
                e("LOP32I.AND R5, R5, 0xfffff;");
                e("LOP32I.OR R5, R5, 0x3ff00000;");
            }
        }
        // −b' in R6:R7; R12 = ea − eb (biased fields: the biases cancel); R13 = the sign.
        e(&mov("R6", &bl));
        e(&and("R7", &bh, 0x7fff_ffff));
        e("ISETP.LT.U32.AND P6, pt, R7, R0, pt;");
        e("@P6 DMUL R6, R6, R8;");
        e("SHR.U32 R2, R7, 0x14;");
        e("@P6 IADD R2, R2, -0x36;");
        e("IADD R12, R12, -R2;");
        e("LOP32I.AND R7, R7, 0xfffff;");
        e("LOP32I.OR R7, R7, 0xbff00000;");
        match &a {
            None => e(&and("R13", &bh, 0x8000_0000)),
            Some((_, ah)) => {
                e(&match (ah, &bh) {
                    (Half::Reg(x), Half::Reg(y)) => format!("LOP.XOR R13, {x}, {y};"),
                    (Half::Reg(x), Half::Imm(v)) | (Half::Imm(v), Half::Reg(x)) => {
                        format!("LOP32I.XOR R13, {x}, {};", k(*v))
                    }
                    (Half::Imm(x), Half::Imm(y)) => format!("MOV32I R13, {};", k(x ^ y)),
                });
                e("LOP32I.AND R13, R13, 0x80000000;");
            }
        }
        // The seed y ≈ 1/b' in R8:R9, Newton with 1.0 in R10:R11, q0 in R10:R11.
        e("MOV R2, R6;");
        e("LOP32I.AND R3, R7, 0x7fffffff;");
        e("F2F.F32.F64 R0, R2;");
        e("MUFU.RCP R0, R0;");
        e("F2F.F64.F32 R8, R0;");
        e("MOV R10, RZ;");
        e("MOV32I R11, 0x3ff00000;");
        for _ in 0..3 {
            e("DFMA R2, R6, R8, R10;");
            e("DFMA R8, R8, R2, R8;");
        }
        e("DMUL R10, R4, R8;");
        e("DFMA R2, R6, R10, R4;");
        e("DFMA R10, R2, R8, R10;");
        // q0 → T = RZ(q').
        // (An `.X` addition of a negated operand adds its complement, so the high word's
        // −1 is the register R0 = 0xffffffff.)
        e("MOV32I R0, -0x1;");
        for _ in 0..2 {
            e("DFMA R2, R6, R10, R4;");
            e("ISETP.LT.AND P6, pt, R3, RZ, pt;");
            e("@P6 IADD R10.CC, R10, -0x1;");
            e("@P6 IADD.X R11, R11, R0;");
        }
        for _ in 0..2 {
            e("IADD R8.CC, R10, 0x1;");
            e("IADD.X R9, R11, RZ;");
            e("DFMA R2, R6, R8, R4;");
            e("ISETP.GE.AND P6, pt, R3, RZ, pt;");
            e("@P6 MOV R10, R8;");
            e("@P6 MOV R11, R9;");
        }
        // ρ in R2:R3; R12 = the result's biased exponent before rounding (T's plus k);
        // h = b'·u/2 in R4:R5 (u/2 = 2^(E − 1023 − 53)).
        e("DFMA R2, R6, R10, R4;");
        e("SHR.U32 R0, R11, 0x14;");
        e("IADD R12, R12, R0;");
        e("IADD R5, R0, -0x35;");
        e("SHL R5, R5, 0x14;");
        e("MOV R4, RZ;");
        e("DMUL R4, R6, R4;");
        e("LOP32I.AND R5, R5, 0x7fffffff;");
        // g = ρ ≥ h (non-negative doubles order as their bit patterns); R0 = 2g + s.
        e("ISETP.GE.U32.AND P6, pt, R2, R4, pt;");
        e("ISETP.EQ.U32.AND P6, pt, R3, R5, P6;");
        e("ISETP.GT.U32.OR P6, pt, R3, R5, P6;");
        e("MOV R0, RZ;");
        e("@P6 MOV32I R0, 0x2;");
        e("@P6 LOP.XOR R2, R2, R4;");
        e("@P6 LOP.XOR R3, R3, R5;");
        e("LOP.OR R2, R2, R3;");
        e("ISETP.NE.U32.AND P6, pt, R2, RZ, pt;");
        e("@P6 LOP32I.OR R0, R0, 0x1;");
        // X = T's significand (hidden bit included) · 4 + 2g + s in R4:R5.
        e("LOP32I.AND R11, R11, 0xfffff;");
        e("LOP32I.OR R11, R11, 0x100000;");
        e("SHL R5, R11, 0x2;");
        e("SHR.U32 R4, R10, 0x1e;");
        e("LOP.OR R5, R5, R4;");
        e("SHL R4, R10, 0x2;");
        e("LOP.OR R4, R4, R0;");
        // A subnormal result: X >>= 1 − Er (at most 63), the lost bits into the sticky bit.
        e("IADD R0, RZ, -R12;");
        e("IADD R0, R0, 0x1;");
        e("IMNMX R0, R0, RZ, !pt;");
        e("IMNMX R0, R0, 0x3f, pt;");
        e("MOV R2, RZ;");
        e("ISETP.GE.U32.AND P6, pt, R0, 0x20, pt;");
        e("@P6 MOV R2, R4;");
        e("@P6 MOV R4, R5;");
        e("@P6 MOV R5, RZ;");
        e("@P6 IADD R0, R0, -0x20;");
        e("IADD R3, RZ, -R0;");
        e("IADD R3, R3, 0x20;");
        e("SHL R8, R4, R3;");
        e("LOP.OR R2, R2, R8;");
        e("SHR.U32 R4, R4, R0;");
        e("SHL R8, R5, R3;");
        e("LOP.OR R4, R4, R8;");
        e("SHR.U32 R5, R5, R0;");
        e("ISETP.NE.U32.AND P6, pt, R2, RZ, pt;");
        e("@P6 LOP32I.OR R4, R4, 0x1;");
        // Y = X >> 2 in R8:R9, rounded by the mode on the magnitude (R13: the sign).
        e("SHR.U32 R8, R4, 0x2;");
        e("SHL R9, R5, 0x1e;");
        e("LOP.OR R8, R8, R9;");
        e("SHR.U32 R9, R5, 0x2;");
        let away = |e: &mut dyn FnMut(&str), sign: &str| {
            e("LOP32I.AND R2, R4, 0x3;");
            e("ISETP.NE.U32.AND P6, pt, R2, RZ, pt;");
            e(&format!("ISETP.{sign}.U32.AND P6, pt, R13, RZ, P6;"));
        };
        match mode {
            Mode::Rn => {
                // Up when the guard bit is set and the sticky bit or Y's last bit is.
                e("LOP32I.AND R2, R4, 0x5;");
                e("ISETP.NE.U32.AND P6, pt, R2, RZ, pt;");
                e("LOP32I.AND R2, R4, 0x2;");
                e("ISETP.NE.U32.AND P6, pt, R2, RZ, P6;");
            }
            Mode::Rz => e("ISETP.NE.AND P6, pt, RZ, RZ, pt;"),
            Mode::Rp => away(&mut e, "EQ"),
            Mode::Rm => away(&mut e, "NE"),
        }
        e("@P6 IADD R8.CC, R8, 0x1;");
        e("@P6 IADD.X R9, R9, RZ;");
        // The exponent on top of a normal result; overflow to ∞ or the largest finite value.
        e("ISETP.GT.AND P6, pt, R12, RZ, pt;");
        e("IADD R0, R12, -0x1;");
        e("SHL R0, R0, 0x14;");
        e("@P6 IADD R9, R9, R0;");
        e("ISETP.GT.AND P6, pt, R12, 0x7fe, pt;");
        e("@P6 MOV32I R8, -0x1;");
        e("@P6 MOV32I R9, 0x7fefffff;");
        // Round to nearest overflows to ∞ whatever the sign (P6 as it is); the others only
        // away from zero.
        match mode {
            Mode::Rn => {}
            Mode::Rz => e("ISETP.NE.AND P6, pt, RZ, RZ, pt;"),
            Mode::Rp => e("ISETP.EQ.U32.AND P6, pt, R13, RZ, P6;"),
            Mode::Rm => e("ISETP.NE.U32.AND P6, pt, R13, RZ, P6;"),
        }
        e("@P6 MOV R8, RZ;");
        e("@P6 MOV32I R9, 0x7ff00000;");
        e("LOP.OR R9, R9, R13;");
        // Zeros, infinities and NaNs: R12 = whether an operand is one.
        e("MOV32I R3, 0x7ff00000;");
        let special = |e: &mut dyn FnMut(&str), (xl, xh): (&Half, &Half), first: bool| {
            let acc = if first {
                "AND P6, pt, R2, R3, pt"
            } else {
                "OR P6, pt, R2, R3, P6"
            };
            e(&and("R2", xh, 0x7ff0_0000));
            e(&format!("ISETP.EQ.U32.{acc};"));
            e(&and("R0", xh, 0x7fff_ffff));
            e(&or_into("R0", xl));
            e("ISETP.EQ.U32.OR P6, pt, R0, RZ, P6;");
        };
        let first = match &a {
            Some((al, ah)) => {
                special(&mut e, (al, ah), true);
                false
            }
            None => true,
        };
        special(&mut e, (&bl, &bh), first);
        e("MOV R12, RZ;");
        e("@P6 MOV32I R12, 0x1;");
        // r in R4:R5: ±1, ±∞ for b = ±0, ±0 for b = ±∞, b for a NaN b.
        e(&and("R2", &bh, 0x8000_0000));
        e("MOV R4, RZ;");
        e("LOP32I.OR R5, R2, 0x3ff00000;");
        e(&and("R0", &bh, 0x7fff_ffff));
        e(&or_into("R0", &bl));
        e("ISETP.EQ.U32.AND P6, pt, R0, RZ, pt;");
        e("@P6 LOP32I.OR R5, R2, 0x7ff00000;");
        e(&and("R0", &bh, 0x7ff0_0000));
        e("ISETP.EQ.U32.AND P6, pt, R0, R3, pt;");
        e("@P6 MOV R5, R2;");
        e(&and("R0", &bh, 0xf_ffff));
        e(&or_into("R0", &bl));
        e("ISETP.NE.U32.AND P6, pt, R0, RZ, P6;");
        e(&format!("@P6 {}", mov("R4", &bl)));
        e(&format!("@P6 {}", mov("R5", &bh)));
        // a for the special product; R6:R7 are free here (an immediate a, or rcp's 1.0).
        let a_pair = match &a {
            Some((Half::Reg(al), _)) => al.clone(),
            Some((Half::Imm(lo), Half::Imm(hi))) => {
                e(&format!("MOV32I R6, {};", k(*lo)));
                e(&format!("MOV32I R7, {};", k(*hi)));
                "R6".into()
            }
            Some(_) => return Err("a register pair with an immediate half".into()),
            None => {
                e("MOV R6, RZ;");
                e("MOV32I R7, 0x3ff00000;");
                "R6".into()
            }
        };
        e("ISETP.NE.U32.AND P6, pt, R12, RZ, pt;");
        e(&format!("@P6 DMUL R8, {a_pair}, R4;"));
        for line in l {
            self.emit("", line);
        }
        self.emit(g, format!("MOV {dl}, R8;"));
        self.emit(g, format!("MOV {dh}, R9;"));
        Ok(())
    }
}
