//! `cvt[.rnd][.ftz][.sat].dtype.atype d, a` (`ptx-isa-1.1.txt` §6.5 Tables 7–9 and §7.7.4
//! Table 43).
//!
//! [`cvt`] is the general entry point over register bits; `cvt_*` functions below are the fast
//! forms for the hot pairs and give the same results. Rules (decisions in
//! `docs/spec-notes.md`):
//! - int → int: `sext`/`zext`/`chop` by Table 7; `.sat` clamps to the destination range first.
//!   The result comes back extended to 64 bits by the *destination* type (footnote 1: chop,
//!   then re-extend by the destination format), so any register width just truncates it.
//! - int → float: rounded by `.rn .rz .rm .rp` (default `.rn`).
//! - float → int: rounded by `.rni .rzi .rmi .rpi` (default `.rzi`, C truncation), then clamped
//!   to the destination range (NVIDIA's saturating conversion, with or without `.sat`);
//!   NaN → 0.
//! - float → float: exact when widening; rounded by `.rn .rz .rm .rp` when narrowing; with an
//!   integer rounding, rounded to an integral value in the same format. NaN keeps its payload
//!   (quieted) except into the PTX 1.1 `.f16`, which has no NaN: NaN → +0 there.
//! - `.f16`: IEEE binary16 ([`F16Rules::Ieee`]) or the PTX 1.1 format ([`F16Rules::Ptx11`]):
//!   exponent 31 is an ordinary exponent, the maximum is 131008 ("~131,000"), and values beyond
//!   it saturate to ±131008 under every rounding.
//! - `.ftz` flushes subnormal `.f32` sources and `.f32` results; `.sat` on a float destination
//!   clamps to `[0.0, 1.0]` with NaN → +0.

use crate::float::{saturate_f64, soft, Rounding};

/// Source or destination format of `cvt` (Table 7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CvtType {
    U8,
    U16,
    U32,
    U64,
    S8,
    S16,
    S32,
    S64,
    F16,
    /// `.bf16` (bfloat16: 8 exponent bits, 7 fraction bits).
    Bf16,
    F32,
    F64,
}

impl CvtType {
    /// Width in bits of the format.
    #[inline]
    pub const fn bits(self) -> u32 {
        match self {
            CvtType::U8 | CvtType::S8 => 8,
            CvtType::U16 | CvtType::S16 | CvtType::F16 | CvtType::Bf16 => 16,
            CvtType::U32 | CvtType::S32 | CvtType::F32 => 32,
            CvtType::U64 | CvtType::S64 | CvtType::F64 => 64,
        }
    }
    #[inline]
    const fn is_float(self) -> bool {
        matches!(
            self,
            CvtType::F16 | CvtType::Bf16 | CvtType::F32 | CvtType::F64
        )
    }
    #[inline]
    const fn is_signed(self) -> bool {
        matches!(
            self,
            CvtType::S8 | CvtType::S16 | CvtType::S32 | CvtType::S64
        )
    }
}

/// Integer rounding modifier (Table 9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum IntRounding {
    /// `.rni`: nearest integer, ties to even.
    Rni,
    /// `.rzi`: towards zero.
    #[default]
    Rzi,
    /// `.rmi`: towards negative infinity.
    Rmi,
    /// `.rpi`: towards positive infinity.
    Rpi,
}

/// Rounding modifier of a `cvt`: floating-point (Table 8) or integer (Table 9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CvtRounding {
    Float(Rounding),
    Int(IntRounding),
}

/// Which `.f16` format a module uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum F16Rules {
    /// IEEE 754 binary16 (modern PTX).
    #[default]
    Ieee,
    /// PTX 1.1 §6.5.1: no Inf/NaN, largest value 131008.
    Ptx11,
}

/// Modifiers of one `cvt`, decoded once by the executor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct CvtMode {
    pub rnd: Option<CvtRounding>,
    pub sat: bool,
    pub ftz: bool,
    pub f16: F16Rules,
}

/// A decoded source value: integers exactly, floats exactly as f64 (every f16/f32 value is one).
#[derive(Clone, Copy)]
enum Value {
    Int(i128),
    Float(f64),
}

#[inline]
fn f16_format(rules: F16Rules) -> soft::Format {
    match rules {
        F16Rules::Ieee => soft::F16,
        F16Rules::Ptx11 => soft::F16_PTX11,
    }
}

/// Exact value of a binary16 bit pattern under `rules`.
#[inline]
pub fn f16_to_f64(h: u16, rules: F16Rules) -> f64 {
    let neg = h & 0x8000 != 0;
    let mag = match soft::classify(u64::from(h), f16_format(rules)) {
        soft::Class::Nan => {
            // Quiet NaN with the payload moved to the top of the f64 fraction.
            let payload = u64::from(h & 0x3ff) << 42;
            return f64::from_bits((u64::from(neg) << 63) | 0x7ff8_0000_0000_0000 | payload);
        }
        soft::Class::Inf { .. } => f64::INFINITY,
        soft::Class::Zero { .. } => 0.0,
        // At most 11 significant bits and |exp| ≤ 25: exact.
        soft::Class::Finite { sig, exp, .. } => sig as f64 * pow2(exp),
    };
    if neg {
        -mag
    } else {
        mag
    }
}

/// `2^e` for `-1074 ≤ e ≤ 1023`, exactly.
#[inline]
fn pow2(e: i32) -> f64 {
    if e < -1022 {
        f64::from_bits(1u64 << (e + 1074))
    } else {
        f64::from_bits(((e + 1023) as u64) << 52)
    }
}

/// Exact f32 → f64 with an explicit NaN rule (payload kept, quieted).
#[inline]
pub fn f32_to_f64(x: f32) -> f64 {
    if x.is_nan() {
        let b = x.to_bits();
        let sign = u64::from(b >> 31) << 63;
        let payload = u64::from(b & 0x003f_ffff) << 29;
        return f64::from_bits(sign | 0x7ff8_0000_0000_0000 | payload);
    }
    f64::from(x)
}

/// Rounds an f64 to `fmt` (f16, f32 or f64 layout), NaN payload truncated and quieted.
#[inline]
fn f64_to_format(x: f64, rnd: Rounding, fmt: soft::Format) -> u64 {
    let bits = x.to_bits();
    match soft::classify(bits, soft::F64) {
        soft::Class::Nan => {
            let sign = (bits >> 63) << (fmt.frac_bits + fmt.exp_bits);
            let quiet = 1u64 << (fmt.frac_bits - 1);
            let payload = (bits & ((1u64 << 52) - 1)) >> (52 - fmt.frac_bits);
            sign | fmt.inf_bits() | quiet | payload
        }
        soft::Class::Inf { neg } => {
            if fmt.has_inf_nan {
                fmt.inf_bits() | soft::zero_bits(neg, fmt)
            } else {
                fmt.max_bits() | soft::zero_bits(neg, fmt)
            }
        }
        soft::Class::Zero { neg } => soft::zero_bits(neg, fmt),
        soft::Class::Finite { neg, sig, exp } => soft::round_pack(neg, sig, exp, rnd, fmt),
    }
}

/// `cvt.rnd.f16.f64` / `.f16.f32` (pass `f64::from` of an f32: exact).
#[inline]
pub fn f64_to_f16(x: f64, rnd: Rounding, rules: F16Rules) -> u16 {
    if x.is_nan() && rules == F16Rules::Ptx11 {
        return 0;
    }
    f64_to_format(x, rnd, f16_format(rules)) as u16
}

#[inline]
fn decode(bits: u64, ty: CvtType, mode: CvtMode) -> Value {
    match ty {
        CvtType::U8 => Value::Int(i128::from(bits as u8)),
        CvtType::U16 => Value::Int(i128::from(bits as u16)),
        CvtType::U32 => Value::Int(i128::from(bits as u32)),
        CvtType::U64 => Value::Int(i128::from(bits)),
        CvtType::S8 => Value::Int(i128::from(bits as u8 as i8)),
        CvtType::S16 => Value::Int(i128::from(bits as u16 as i16)),
        CvtType::S32 => Value::Int(i128::from(bits as u32 as i32)),
        CvtType::S64 => Value::Int(i128::from(bits as i64)),
        CvtType::F16 => Value::Float(f16_to_f64(bits as u16, mode.f16)),
        CvtType::Bf16 => Value::Float(crate::half::h_to_f64(
            bits as u16,
            crate::half::HalfFormat::Bf16,
        )),
        CvtType::F32 => {
            let x = f32::from_bits(bits as u32);
            let x = if mode.ftz {
                crate::float::flush_f32(x)
            } else {
                x
            };
            Value::Float(f32_to_f64(x))
        }
        CvtType::F64 => Value::Float(f64::from_bits(bits)),
    }
}

/// Range of an integer destination.
#[inline]
fn int_range(ty: CvtType) -> (i128, i128) {
    let n = ty.bits();
    if ty.is_signed() {
        (-(1i128 << (n - 1)), (1i128 << (n - 1)) - 1)
    } else {
        (0, (1i128 << n) - 1)
    }
}

/// Chop to the destination width, then extend to 64 bits by the destination's signedness.
#[inline]
fn encode_int(v: i128, ty: CvtType) -> u64 {
    let n = ty.bits();
    let low = (v as u64) & (u64::MAX >> (64 - n));
    if ty.is_signed() && n < 64 && low >> (n - 1) & 1 == 1 {
        low | (u64::MAX << n)
    } else {
        low
    }
}

#[inline]
fn round_integral(x: f64, r: IntRounding) -> f64 {
    match r {
        IntRounding::Rni => x.round_ties_even(),
        IntRounding::Rzi => x.trunc(),
        IntRounding::Rmi => x.floor(),
        IntRounding::Rpi => x.ceil(),
    }
}

/// Integer rounding of a `cvt` whose modifier may be missing or (illegally) a float rounding.
#[inline]
fn int_rounding(rnd: Option<CvtRounding>) -> IntRounding {
    match rnd {
        None => IntRounding::Rzi,
        Some(CvtRounding::Int(r)) => r,
        Some(CvtRounding::Float(Rounding::Rn)) => IntRounding::Rni,
        Some(CvtRounding::Float(Rounding::Rz)) => IntRounding::Rzi,
        Some(CvtRounding::Float(Rounding::Rm)) => IntRounding::Rmi,
        Some(CvtRounding::Float(Rounding::Rp)) => IntRounding::Rpi,
    }
}

#[inline]
fn float_rounding(rnd: Option<CvtRounding>) -> Rounding {
    match rnd {
        Some(CvtRounding::Float(r)) => r,
        _ => Rounding::Rn,
    }
}

/// Float → integer: integer rounding, NaN → 0, clamp to the destination range.
#[inline]
fn float_to_int(x: f64, ty: CvtType, r: IntRounding) -> u64 {
    if x.is_nan() {
        return 0;
    }
    let (lo, hi) = int_range(ty);
    // `as i128` saturates, and every integral f64 below 2^127 converts exactly.
    encode_int((round_integral(x, r) as i128).clamp(lo, hi), ty)
}

/// Encodes a finite-or-special f64 into a float destination, then `.ftz` / `.sat`.
#[inline]
fn encode_float(x: f64, ty: CvtType, rnd: Rounding, mode: CvtMode) -> u64 {
    let x = if mode.sat { saturate_f64(x) } else { x };
    match ty {
        CvtType::F16 => {
            // `.sat` happens before rounding here: [0, 1] stays in range under every rounding.
            u64::from(f64_to_f16(x, rnd, mode.f16))
        }
        CvtType::Bf16 => f64_to_format(x, rnd, crate::half::BF16),
        CvtType::F32 => {
            let r = f32::from_bits(f64_to_format(x, rnd, soft::F32) as u32);
            let r = if mode.ftz {
                crate::float::flush_f32(r)
            } else {
                r
            };
            u64::from(r.to_bits())
        }
        _ => x.to_bits(),
    }
}

/// Integer → float with a float rounding: the exact integer rounded once.
#[inline]
fn int_to_float(v: i128, ty: CvtType, rnd: Rounding, mode: CvtMode) -> u64 {
    let fmt = match ty {
        CvtType::F16 => f16_format(mode.f16),
        CvtType::Bf16 => crate::half::BF16,
        CvtType::F32 => soft::F32,
        _ => soft::F64,
    };
    let bits = soft::round_pack(v < 0, v.unsigned_abs(), 0, rnd, fmt);
    if mode.sat {
        // Clamp the rounded value (integers ≥ 1 saturate to 1.0, negatives to 0).
        let one = match ty {
            CvtType::F16 => 0x3c00,
            CvtType::Bf16 => 0x3f80,
            CvtType::F32 => u64::from(1f32.to_bits()),
            _ => 1f64.to_bits(),
        };
        return match v {
            ..=0 => 0,
            _ => one,
        };
    }
    bits
}

/// `cvt` over register bits. `bits` holds the source in its low `from.bits()` bits (higher bits
/// are ignored); the result is a float's bits zero-extended, or an integer extended to 64 bits
/// by the signedness of `to`.
#[inline]
pub fn cvt(bits: u64, from: CvtType, to: CvtType, mode: CvtMode) -> u64 {
    match (decode(bits, from, mode), to.is_float()) {
        (Value::Int(v), false) => {
            let v = if mode.sat {
                let (lo, hi) = int_range(to);
                v.clamp(lo, hi)
            } else {
                v
            };
            encode_int(v, to)
        }
        (Value::Int(v), true) => int_to_float(v, to, float_rounding(mode.rnd), mode),
        (Value::Float(x), false) => float_to_int(x, to, int_rounding(mode.rnd)),
        (Value::Float(x), true) => {
            if x.is_nan() && !mode.sat {
                if to == CvtType::F16 {
                    return u64::from(f64_to_f16(x, Rounding::Rn, mode.f16));
                }
                if to == CvtType::F32 {
                    return f64_to_format(x, Rounding::Rn, soft::F32);
                }
                if to == CvtType::Bf16 {
                    return f64_to_format(x, Rounding::Rn, crate::half::BF16);
                }
                return x.to_bits();
            }
            match mode.rnd {
                Some(CvtRounding::Int(r)) => {
                    encode_float(round_integral(x, r), to, Rounding::Rn, mode)
                }
                _ => encode_float(x, to, float_rounding(mode.rnd), mode),
            }
        }
    }
}

/// `cvt.irnd{.sat}.s32.f32` fast form (also the `.ftz` flush of the source).
#[inline]
pub fn cvt_s32_f32(x: f32, r: IntRounding, ftz: bool) -> i32 {
    let x = if ftz { crate::float::flush_f32(x) } else { x };
    // `as i32` saturates and maps NaN to 0: exactly the conversion rule.
    round_integral(f64::from(x), r) as i32
}

/// `cvt.irnd{.sat}.u32.f32` fast form.
#[inline]
pub fn cvt_u32_f32(x: f32, r: IntRounding, ftz: bool) -> u32 {
    let x = if ftz { crate::float::flush_f32(x) } else { x };
    round_integral(f64::from(x), r) as u32
}

/// `cvt.irnd.s32.f64` fast form.
#[inline]
pub fn cvt_s32_f64(x: f64, r: IntRounding) -> i32 {
    round_integral(x, r) as i32
}

/// `cvt.rnd.f32.s32` fast form.
#[inline]
pub fn cvt_f32_s32(x: i32, rnd: Rounding) -> f32 {
    match rnd {
        Rounding::Rn => x as f32,
        _ => f32::from_bits(
            soft::round_pack(x < 0, u128::from(x.unsigned_abs()), 0, rnd, soft::F32) as u32,
        ),
    }
}

/// `cvt.rnd.f32.u32` fast form.
#[inline]
pub fn cvt_f32_u32(x: u32, rnd: Rounding) -> f32 {
    match rnd {
        Rounding::Rn => x as f32,
        _ => f32::from_bits(soft::round_pack(false, u128::from(x), 0, rnd, soft::F32) as u32),
    }
}

/// `cvt{.ftz}.f64.f32` fast form: exact, NaN payload kept.
#[inline]
pub fn cvt_f64_f32(x: f32, ftz: bool) -> f64 {
    f32_to_f64(if ftz { crate::float::flush_f32(x) } else { x })
}

/// `cvt.rnd{.ftz}.f32.f64` fast form.
#[inline]
pub fn cvt_f32_f64(x: f64, rnd: Rounding, ftz: bool) -> f32 {
    let r = if x.is_nan() {
        f32::from_bits(f64_to_format(x, rnd, soft::F32) as u32)
    } else {
        crate::float::eft::f64_to_f32(x, rnd)
    };
    if ftz {
        crate::float::flush_f32(r)
    } else {
        r
    }
}

/// `cvt.rna.tf32.f32 d, a`: `a` rounded to the 10 fraction bits of `.tf32`, to nearest with ties
/// away from zero, kept in the f32 layout with the 13 low fraction bits zero; overflow of the
/// largest finite values rounds to infinity; NaN → the canonical NaN `0x7fffffff`.
#[inline]
pub fn cvt_rna_tf32_f32(a: u32) -> u32 {
    if f32::from_bits(a).is_nan() {
        return crate::float::NAN_F32;
    }
    let sign = a & 0x8000_0000;
    let mag = a & 0x7fff_ffff;
    // Adding half of the dropped quantum to the magnitude rounds ties away; a carry moves into
    // the exponent (up to +Inf, whose fraction is then zero again after the mask).
    let rounded = (mag + 0x1000) & !0x1fff;
    sign | rounded.min(0x7f80_0000)
}

/// `cvt.pack.sat.{u16,s16,u8,s8,u4,s4,u2,s2}.s32{.b32} d, a, b{, c}` (PTX ISA 8.x
/// §9.7.9.21): `a` and `b` clamped to the `bits`-bit range of the destination type; `b` in the
/// low `bits` of `d`, `a` above it, and (for the 8-, 4- and 2-bit types) `c` shifted into the
/// bits above both. The manual's pseudocode writes the clamp as two assignments of which the
/// second overwrites the first; the stated intent, saturation, is what is computed.
pub fn cvt_pack_sat(a: i32, b: i32, c: u32, bits: u32, signed: bool) -> u32 {
    let (lo, hi) = if signed {
        (-(1i64 << (bits - 1)), (1i64 << (bits - 1)) - 1)
    } else {
        (0, (1i64 << bits) - 1)
    };
    let mask = (1u64 << bits) - 1;
    let sat = |x: i32| (i64::from(x).clamp(lo, hi) as u64 & mask) as u32;
    let packed = sat(a) << bits | sat(b);
    if bits >= 16 {
        packed
    } else {
        packed | c << (2 * bits)
    }
}
