//! IEEE `sqrt.{rn,rz,rm,rp}.f64`, exact, with the method of ddiv.rs.
//!
//! `|x| = x'·4^k` with `x' ∈ [1, 4)` (a subnormal first multiplied by 2^54, exactly), so
//! `√x = √x'·2^k` and the result is always normal. A `MUFU.RSQ` seed of `x'` (as f32) and
//! three Goldschmidt steps (`g ≈ √x'`, `h ≈ 1/(2√x')`: `r = 1/2 − g·h`, `g += g·r`,
//! `h += h·r`, in `DFMA`) give `g` within a few ulps; it is made exactly `T = RZ(√x')` by the
//! signs of `x' − g²` (one `DFMA`: exact before its single rounding, which keeps the sign),
//! stepping the bit pattern by ±1. The remainder `ρ = x' − T²` is exact, and is a multiple of
//! `u²` (`u = ulp(T)`), as is `T·u`; so `√x' > T + u/2` exactly when `ρ − T·u > 0` (no
//! square root of a double is a midpoint), one more `DFMA`. Round to nearest adds 1 to `T`'s
//! bits then; `.rp` when `ρ ≠ 0`; `.rz`/`.rm` never (the root is positive). The exponent `k`
//! is added to the bits. ±0 and +∞ give themselves, negatives and NaNs the canonical NaN, as
//! `ops`.
//!
//! Temporaries: R0, R2:R3, R4–R13 (`needs_f64_scratch`), P6.

use super::{hex, Selector, R};
use ir::Operand;
use isa::{Flag, Rounding};

impl Selector<'_> {
    pub(super) fn sqrt_f64(&mut self, inst: &ir::Inst, g: &str) -> R<()> {
        let m = &inst.mods;
        if m.has(Flag::Ftz) || m.has(Flag::Sat) || m.has(Flag::Approx) {
            return Err("sqrt.f64 with .ftz/.approx has no selection rule yet".into());
        }
        let rounding = m.rounding.ok_or("sqrt.f64 needs .rn/.rz/.rm/.rp")?;
        let (dl, dh) = self.pair(self.dst(inst)?)?;
        let (xl, xh) = match Self::opnd(inst, 1)? {
            Operand::Reg(r) => {
                // The source may be the destination (`approx64.rs`): every read of it
                // precedes the final moves, the only writes of `d`.
                self.pair(*r)?
            }
            Operand::Imm(v) if g.is_empty() => {
                self.emit(
                    "",
                    format!("MOV32I {dl}, {};", hex(*v as u32 as i32 as i64)),
                );
                self.emit(
                    "",
                    format!("MOV32I {dh}, {};", hex((*v >> 32) as u32 as i32 as i64)),
                );
                (dl.clone(), dh.clone())
            }
            _ => return Err("a guarded f64 square root of an immediate".into()),
        };
        let mut l: Vec<String> = Vec::new();
        let mut e = |s: &str| l.push(s.to_string());
        // x' in R4:R5 and k in R12.
        e("MOV32I R0, 0x100000;");
        e(&format!("MOV R4, {xl};"));
        e(&format!("LOP32I.AND R5, {xh}, 0x7fffffff;"));
        e("ISETP.LT.U32.AND P6, pt, R5, R0, pt;");
        e("MOV R8, RZ;");
        e("MOV32I R9, 0x43500000;");
        e("@P6 DMUL R4, R4, R8;");
        e("SHR.U32 R12, R5, 0x14;");
        e("@P6 IADD R12, R12, -0x36;");
        e("LOP32I.AND R5, R5, 0xfffff;");
        // x''s exponent field: 1023 when the unbiased exponent is even (the field odd), 1024
        // when it is odd; k = (field − field') / 2.
        e("LOP32I.AND R2, R12, 0x1;");
        e("IADD R3, RZ, -R2;");
        e("IADD R3, R3, 0x400;");
        e("IADD R12, R12, -R3;");
        e("SHR R12, R12, 0x1;");
        e("SHL R3, R3, 0x14;");
        e("LOP.OR R5, R5, R3;");
        // Seed and Goldschmidt: g in R6:R7, h in R8:R9, 1/2 in R10:R11.
        e("MOV R2, R4;");
        e("MOV R3, R5;");
        e("F2F.F32.F64 R0, R2;");
        e("MUFU.RSQ R0, R0;");
        e("F2F.F64.F32 R8, R0;");
        e("MOV R10, RZ;");
        e("MOV32I R11, 0x3fe00000;");
        e("DMUL R6, R4, R8;");
        e("DMUL R8, R8, R10;");
        for _ in 0..3 {
            e("DFMA R2, R6, -R8, R10;");
            e("DFMA R6, R6, R2, R6;");
            e("DFMA R8, R8, R2, R8;");
        }
        // g → T = RZ(√x') (R0 = 0xffffffff: an `.X` addition of a negated operand adds its
        // complement, so the high word's −1 is a register).
        e("MOV32I R0, -0x1;");
        for _ in 0..2 {
            e("DFMA R2, R6, -R6, R4;");
            e("ISETP.LT.AND P6, pt, R3, RZ, pt;");
            e("@P6 IADD R6.CC, R6, -0x1;");
            e("@P6 IADD.X R7, R7, R0;");
        }
        for _ in 0..2 {
            e("IADD R8.CC, R6, 0x1;");
            e("IADD.X R9, R7, RZ;");
            e("DFMA R2, R8, -R8, R4;");
            e("ISETP.GE.AND P6, pt, R3, RZ, pt;");
            e("@P6 MOV R6, R8;");
            e("@P6 MOV R7, R9;");
        }
        // ρ in R2:R3; u = 2^(E − 1023 − 52) in R8:R9; ρ − T·u in R10:R11.
        e("DFMA R2, R6, -R6, R4;");
        e("SHR.U32 R9, R7, 0x14;");
        e("IADD R9, R9, -0x34;");
        e("SHL R9, R9, 0x14;");
        e("MOV R8, RZ;");
        e("DFMA R10, R6, -R8, R2;");
        match rounding {
            Rounding::Rn => {
                e("LOP.OR R0, R10, R11;");
                e("ISETP.NE.U32.AND P6, pt, R0, RZ, pt;");
                e("ISETP.GE.AND P6, pt, R11, RZ, P6;");
            }
            Rounding::Rp => {
                e("LOP.OR R0, R2, R3;");
                e("ISETP.NE.U32.AND P6, pt, R0, RZ, pt;");
            }
            Rounding::Rz | Rounding::Rm => e("ISETP.NE.AND P6, pt, RZ, RZ, pt;"),
            _ => return Err("sqrt.f64 needs .rn/.rz/.rm/.rp".into()),
        }
        e("@P6 IADD R6.CC, R6, 0x1;");
        e("@P6 IADD.X R7, R7, RZ;");
        e("SHL R12, R12, 0x14;");
        e("IADD R7, R7, R12;");
        // Specials: ±0 and +∞ themselves; negatives (not −0) and NaNs the canonical NaN.
        e(&format!("LOP32I.AND R2, {xh}, 0x7fffffff;"));
        e(&format!("LOP.OR R0, R2, {xl};"));
        e("MOV32I R3, 0x7ff00000;");
        e("ISETP.EQ.U32.AND P6, pt, R0, RZ, pt;");
        e("ISETP.EQ.U32.OR P6, pt, R2, R3, P6;");
        e(&format!("@P6 MOV R6, {xl};"));
        e(&format!("@P6 MOV R7, {xh};"));
        // NaN inputs: |x| above +∞'s bits.
        e(&format!("ISETP.NE.U32.AND P6, pt, {xl}, RZ, pt;"));
        e("ISETP.EQ.U32.AND P6, pt, R2, R3, P6;");
        e("ISETP.GT.U32.OR P6, pt, R2, R3, P6;");
        e("@P6 MOV32I R6, -0x1;");
        e("@P6 MOV32I R7, 0x7fffffff;");
        // Negative nonzero inputs: the sign bit set and |x| (R0) nonzero.
        e(&format!("SHR.U32 R3, {xh}, 0x1f;"));
        e("ISETP.NE.U32.AND P6, pt, R3, RZ, pt;");
        e("ISETP.NE.U32.AND P6, pt, R0, RZ, P6;");
        e("@P6 MOV32I R6, -0x1;");
        e("@P6 MOV32I R7, 0x7fffffff;");
        for line in l {
            self.emit("", line);
        }
        self.emit(g, format!("MOV {dl}, R6;"));
        self.emit(g, format!("MOV {dh}, R7;"));
        Ok(())
    }
}
