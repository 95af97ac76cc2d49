//! IEEE `sqrt.{rn,rz,rm,rp}.f32`, exact, through f64 (as `div` in fdiv.rs).
//!
//! A = f64(a) = M·4^k with M in [1, 4): the seed is `MUFU.RSQ` of M (never subnormal or
//! infinite), scaled by the exact 2^-k; three Newton steps `y += y·(1/2 − (A/2)·y²)` (`DFMA`),
//! `S = A·y`, and the correction `S += (A − S²)/2 · y`. `F2F.F32.F64` with the instruction's
//! rounding rounds S exactly: √a for a 24-bit a is never a midpoint between f32 values (its
//! square would need 49 significant bits), and is either an f32 value or at least ~2^-50
//! (relative) away from every f32 value and midpoint, while S is within 2^-52.
//!
//! Specials (±0, +∞ give themselves; negatives and NaNs give the canonical NaN, as `ops`)
//! are patched in under P6.

use super::{Selector, R};
use crate::regs::{SCRATCH, SCRATCH_PAIR, SCRATCH_PRED};
use isa::{Flag, Rounding};

impl Selector<'_> {
    pub(super) fn sqrt_f32(&mut self, inst: &ir::Inst, g: &str) -> R<()> {
        let m = &inst.mods;
        if m.has(Flag::Sat) {
            return Err("sqrt.f32 with .sat has no selection rule yet".into());
        }
        // `.ftz`: a subnormal operand is a zero of its sign (its root that zero), through
        // F2F.FTZ and the special cases below (the root of a normal is never subnormal).
        let ftz = m.has(Flag::Ftz);
        let fz = if ftz { ".FTZ" } else { "" };
        let rnd = match m.rounding {
            // sqrt.approx: ptxvm's definition is the .rn result.
            Some(Rounding::Rn) | None if m.rounding.is_some() || m.has(Flag::Approx) => "",
            Some(Rounding::Rz) => ".RZ",
            Some(Rounding::Rm) => ".RM",
            Some(Rounding::Rp) => ".RP",
            _ => return Err("only sqrt.rn/.rz/.rm/.rp.f32 are selected".into()),
        };
        let d = self.gpr(self.dst(inst)?)?;
        let a = match Self::opnd(inst, 1)? {
            ir::Operand::Reg(r) => self.gpr(*r)?,
            // An immediate goes to the destination, which the sequence writes only at the end
            // (and which is no source then); under the instruction's guard, so lanes whose
            // guard fails keep theirs (the unguarded temporaries then hold a root of it).
            ir::Operand::Imm(v) => {
                self.emit(
                    g,
                    format!("MOV32I {d}, {};", super::hex(i64::from(*v as u32 as i32))),
                );
                d.clone()
            }
            _ => return Err("unsupported operand kind".into()),
        };
        let (s0, s2, s3) = (
            format!("R{SCRATCH}"),
            format!("R{SCRATCH_PAIR}"),
            format!("R{}", SCRATCH_PAIR + 1),
        );
        let p = format!("P{SCRATCH_PRED}");
        let r = |k: u8| format!("R{}", super::fdiv::F64_SCRATCH + k);
        // A in R4:R5, y in R6:R7, -A/2 in R8:R9, 1/2 in R10:R11, temporaries in R12:R13.
        let (aa, ah, y, nha, nhah, half, halfh, t, th) =
            (r(0), r(1), r(2), r(4), r(5), r(6), r(7), r(8), r(9));
        let mut lines = vec![
            format!("F2F{fz}.F64.F32 {aa}, {a};"),
            // M: A's significand with exponent 0 or 1 (k = floor((E - 1023) / 2)).
            format!("LOP32I.AND {s2}, {ah}, 0x100000;"),
            format!("LOP32I.XOR {s2}, {s2}, 0x100000;"),
            format!("LOP32I.AND {s3}, {ah}, 0x800fffff;"),
            format!("LOP.OR {s3}, {s3}, {s2};"),
            format!("IADD32I {s3}, {s3}, 0x3ff00000;"),
            format!("MOV {s2}, {aa};"),
            format!("F2F.F32.F64 {s0}, {s2};"),
            format!("MUFU.RSQ {s0}, {s0};"),
            format!("F2F.F64.F32 {y}, {s0};"),
            // 2^-k: high word (1023 - k) << 20.
            format!("SHR.U32 {s2}, {ah}, 0x14;"),
            format!("LOP32I.AND {s2}, {s2}, 0x7ff;"),
            format!("LOP32I.AND {s3}, {ah}, 0x100000;"),
            format!("SHR.U32 {s3}, {s3}, 0x14;"),
            format!("LOP32I.XOR {s3}, {s3}, 0x1;"),
            format!("IADD {s2}, {s2}, -{s3};"),
            format!("IADD {s2}, {s2}, -0x3ff;"),
            format!("SHR {s2}, {s2}, 0x1;"),
            format!("IADD {s2}, RZ, -{s2};"),
            format!("IADD {s2}, {s2}, 0x3ff;"),
            format!("SHL {halfh}, {s2}, 0x14;"),
            format!("MOV {half}, RZ;"),
            format!("DMUL {y}, {y}, {half};"),
            // -A/2 (A is normal in f64 for every finite nonzero a).
            format!("MOV {nha}, {aa};"),
            format!("LOP32I.XOR {nhah}, {ah}, 0x80000000;"),
            format!("IADD32I {nhah}, {nhah}, -0x100000;"),
            format!("MOV32I {halfh}, 0x3fe00000;"),
        ];
        for _ in 0..3 {
            lines.push(format!("DMUL {t}, {y}, {y};"));
            lines.push(format!("DFMA {t}, {nha}, {t}, {half};"));
            lines.push(format!("DFMA {y}, {y}, {t}, {y};"));
        }
        lines.extend([
            format!("DMUL {t}, {aa}, {y};"),
            // q = S·(S/2) - A/2 = -(A - S²)/2; S += -q·y.
            format!("MOV {half}, {t};"),
            format!("IADD32I {halfh}, {th}, -0x100000;"),
            format!("DFMA {half}, {t}, {half}, {nha};"),
            format!("LOP32I.XOR {halfh}, {halfh}, 0x80000000;"),
            format!("DFMA {t}, {half}, {y}, {t};"),
            format!("F2F.F32.F64{rnd} {s0}, {t};"),
            // Specials: a - 1 (unsigned) at or above 0x7f7fffff: ±0, +∞, negatives, NaNs.
            format!("MOV32I {s3}, 0x7f7fffff;"),
            format!("IADD {s2}, {a}, -0x1;"),
            format!("ISETP.GE.U32.AND {p}, pt, {s2}, {s3}, pt;"),
            format!("@{p} MOV32I {s0}, 0x7fffffff;"),
            format!("SHL {s2}, {a}, 0x1;"),
            format!("MOV32I {s3}, 0x7f800000;"),
            format!("ISETP.EQ.U32.AND {p}, pt, {s2}, RZ, pt;"),
            format!("ISETP.EQ.U32.OR {p}, pt, {a}, {s3}, {p};"),
            format!("@{p} MOV {s0}, {a};"),
        ]);
        if ftz {
            // A subnormal (|a|·2 below 2^-125's bits): the zero of a's sign.
            lines.extend([
                format!("MOV32I {s3}, 0x1000000;"),
                format!("ISETP.LT.U32.AND {p}, pt, {s2}, {s3}, pt;"),
                format!("@{p} LOP32I.AND {s0}, {a}, 0x80000000;"),
            ]);
        }
        for l in lines {
            self.emit("", l);
        }
        self.emit(g, format!("MOV {d}, {s0};"));
        Ok(())
    }
}
