//! The 8-bit float formats of `cvt` (PTX ISA 8.x §5.2.5.1 "Alternate Floating-Point Data
//! Formats", §9.7.9.21 `cvt`): `.e4m3` (4 exponent bits, bias 7, 3 fraction bits, no
//! infinities, NaN `S.1111.111`, largest finite 448) and `.e5m2` (5 exponent bits, bias 15, 2
//! fraction bits, IEEE infinities and NaNs, largest finite 57344).
//!
//! Conversions to them round to nearest even once, with `.satfinite` (which ptxas requires):
//! an infinite or too large result becomes the largest finite value of its sign, a NaN the
//! canonical NaN `0x7f`; `.relu` turns a result with its sign bit set into `+0`. Conversions
//! from them to `.f16` are exact (every value of both formats is an `.f16`); NaN becomes the
//! canonical `.f16` NaN.

use crate::float::soft::{self, Class, Format};
use crate::float::Rounding;
use crate::half::{f64_to_h, h_to_f64, HalfFormat, NAN_H};

/// One of the two fp8 formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fp8 {
    E4m3,
    E5m2,
}

/// `.e4m3` without its NaN rule: the all-ones exponent holds numbers (the soft-float format
/// then saturates to `0x7f`, which the conversion turns into 448).
const E4M3: Format = Format {
    frac_bits: 3,
    exp_bits: 4,
    has_inf_nan: false,
};
const E5M2: Format = Format {
    frac_bits: 2,
    exp_bits: 5,
    has_inf_nan: true,
};

/// The canonical NaN of both formats.
pub const NAN_F8: u8 = 0x7f;
const MAX_E4M3: u8 = 0x7e;
const MAX_E5M2: u8 = 0x7b;

/// `x` converted to `f` (round to nearest even, `.satfinite`, optional `.relu`).
pub fn from_f64(x: f64, f: Fp8, relu: bool) -> u8 {
    if x.is_nan() {
        return NAN_F8;
    }
    let neg = x.is_sign_negative();
    if relu && neg {
        return 0;
    }
    let sign = if neg { 0x80 } else { 0 };
    if x.is_infinite() {
        return sign | if f == Fp8::E4m3 { MAX_E4M3 } else { MAX_E5M2 };
    }
    let (format, max) = match f {
        Fp8::E4m3 => (E4M3, MAX_E4M3),
        Fp8::E5m2 => (E5M2, MAX_E5M2),
    };
    let r = match soft::classify(x.to_bits(), soft::F64) {
        Class::Finite { neg, sig, exp } => {
            soft::round_pack(neg, sig, exp, Rounding::Rn, format) as u8
        }
        _ => sign,
    };
    // Past the largest finite value (E5M2's infinity, E4M3's NaN pattern): `.satfinite`.
    if r & 0x7f > max {
        sign | max
    } else {
        r
    }
}

/// The value of an fp8 number as f64 (exact; NaN for NaNs, ±∞ for E5M2's infinities).
pub fn to_f64(x: u8, f: Fp8) -> f64 {
    let format = match f {
        Fp8::E4m3 if x & 0x7f == 0x7f => return f64::NAN,
        Fp8::E4m3 => E4M3,
        Fp8::E5m2 => E5M2,
    };
    soft::narrow_to_f64(u64::from(x), format)
}

/// One fp8 value as an `.f16` (exact), `.relu` clamping negatives to `+0`.
fn to_f16(x: u8, f: Fp8, relu: bool) -> u16 {
    let v = to_f64(x, f);
    if v.is_nan() {
        return NAN_H;
    }
    if relu && v.is_sign_negative() {
        return 0;
    }
    f64_to_h(v, HalfFormat::F16, Rounding::Rn)
}

/// `cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f32 d, a, b`: `a` into the upper byte of `d`, `b`
/// into the lower (as `cvt.rn.f16x2.f32` packs).
pub fn cvt_x2_f32(a: f32, b: f32, f: Fp8, relu: bool) -> u16 {
    u16::from(from_f64(f64::from(a), f, relu)) << 8 | u16::from(from_f64(f64::from(b), f, relu))
}

/// `cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f16x2 d, a`: each half of `a` into the byte of
/// `d` in the same position.
pub fn cvt_x2_f16x2(a: u32, f: Fp8, relu: bool) -> u16 {
    let one = |h: u16| from_f64(h_to_f64(h, HalfFormat::F16), f, relu);
    u16::from(one((a >> 16) as u16)) << 8 | u16::from(one(a as u16))
}

/// `cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2} d, a`: each byte of `a` into the half of `d` in the
/// same position.
pub fn cvt_f16x2_x2(a: u16, f: Fp8, relu: bool) -> u32 {
    u32::from(to_f16((a >> 8) as u8, f, relu)) << 16 | u32::from(to_f16(a as u8, f, relu))
}
