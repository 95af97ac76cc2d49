//! The narrow formats of Blackwell's `cvt` (PTX ISA 8.8 §5.2.5.1 "Alternate Floating-Point
//! Data Formats", §9.7.9.21 `cvt`; the OCP Microscaling formats):
//!
//! - `.e2m1` (4 bits: sign, 2 exponent bits of bias 1, 1 fraction bit; largest 6),
//! - `.e2m3` (6 bits: 2 exponent bits of bias 1, 3 fraction bits; largest 7.5),
//! - `.e3m2` (6 bits: 3 exponent bits of bias 3, 2 fraction bits; largest 28),
//!
//! none with infinities or NaNs, and the scale format `.ue8m0` (8 bits, no sign, no fraction:
//! the value `2^(e - 127)`, `0xff` NaN). Pairs: `.e2m1x2` is one byte (first source in the
//! high nibble), `.e2m3x2`/`.e3m2x2` and `.ue8m0x2` are 16 bits (first source in the high
//! byte; a 6-bit value sits in the low 6 bits of its byte, the 2 high bits zero).
//!
//! Conversions to the 4- and 6-bit formats round to nearest even with `.satfinite`: ±∞ and
//! too-large values become the largest finite value of their sign. The formats have no NaN;
//! a NaN becomes `+MAX` (docs/spec-notes.md). `.relu` turns a negative result (and `-0`) into
//! `+0`. Conversions from them to `.f16` are exact. For `.ue8m0` see [`ue8m0_from_f32`].

use crate::float::soft::{self, Class, Format};
use crate::float::Rounding;
use crate::half::{f64_to_h, HalfFormat, NAN_H};

/// One of the three narrow float formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Narrow {
    E2m1,
    E2m3,
    E3m2,
}

impl Narrow {
    fn format(self) -> Format {
        let (exp_bits, frac_bits) = match self {
            Narrow::E2m1 => (2, 1),
            Narrow::E2m3 => (2, 3),
            Narrow::E3m2 => (3, 2),
        };
        Format {
            frac_bits,
            exp_bits,
            // The all-ones exponent holds numbers; past the largest the soft float saturates.
            has_inf_nan: false,
        }
    }

    /// Bits of one value (4 or 6).
    pub fn bits(self) -> u32 {
        match self {
            Narrow::E2m1 => 4,
            Narrow::E2m3 | Narrow::E3m2 => 6,
        }
    }

    /// Bits of one packed pair in its register (8 or 16).
    pub fn pair_bits(self) -> u32 {
        match self {
            Narrow::E2m1 => 8,
            Narrow::E2m3 | Narrow::E3m2 => 16,
        }
    }

    /// The encoding of the largest finite positive value (all bits but the sign).
    fn max(self) -> u8 {
        (1u8 << (self.bits() - 1)) - 1
    }
}

/// `x` converted to `f` (round to nearest even, `.satfinite`, optional `.relu`); the code in
/// the low [`Narrow::bits`] bits.
pub fn from_f64(x: f64, f: Narrow, relu: bool) -> u8 {
    if x.is_nan() {
        return f.max();
    }
    let neg = x.is_sign_negative();
    if relu && neg {
        return 0;
    }
    let sign = if neg { 1u8 << (f.bits() - 1) } else { 0 };
    if x.is_infinite() {
        return sign | f.max();
    }
    match soft::classify(x.to_bits(), soft::F64) {
        Class::Finite { neg, sig, exp } => {
            soft::round_pack(neg, sig, exp, Rounding::Rn, f.format()) as u8
        }
        _ => sign,
    }
}

/// The value of a narrow code (its low [`Narrow::bits`] bits; exact).
pub fn to_f64(code: u8, f: Narrow) -> f64 {
    let mask = (1u16 << f.bits()) - 1;
    soft::narrow_to_f64(u64::from(u16::from(code) & mask), f.format())
}

/// One code as an `.f16` (exact), `.relu` clamping negatives to `+0`.
fn to_f16(code: u8, f: Narrow, relu: bool) -> u16 {
    let v = to_f64(code, f);
    if relu && v.is_sign_negative() {
        return 0;
    }
    f64_to_h(v, HalfFormat::F16, Rounding::Rn)
}

/// The `.ue8m0` NaN.
pub const NAN_UE8M0: u8 = 0xff;
/// The largest `.ue8m0` number, `2^127`.
const MAX_UE8M0: u8 = 0xfe;

/// `x` as `.ue8m0`, rounding toward zero (`.rz`, `up` false) or up (`.rp`). NaN gives the
/// NaN `0xff`; a result past `2^127` (only `.rp` of a value above `2^127`, or `+∞`) gives
/// `0xfe` with `.satfinite` and the NaN without it; zero, negative values and values below
/// `2^-127` give the smallest code `0x00` (`2^-127`: the format has no zero; spec-notes).
pub fn ue8m0_from_f32(x: f32, up: bool, satfinite: bool) -> u8 {
    if x.is_nan() {
        return NAN_UE8M0;
    }
    if x <= 0.0 {
        return 0;
    }
    let over = if satfinite { MAX_UE8M0 } else { NAN_UE8M0 };
    if x.is_infinite() {
        return over;
    }
    let bits = x.to_bits();
    let field = (bits >> 23) as i32;
    let frac = bits & 0x7f_ffff;
    // floor(log2 x) and whether x is exactly that power of two.
    let (e, exact) = if field == 0 {
        let top = 31 - frac.leading_zeros() as i32; // highest set bit of the fraction
        (top - 149, frac == 1 << top)
    } else {
        (field - 127, frac == 0)
    };
    let e = if up && !exact { e + 1 } else { e };
    let code = e + 127;
    if code < 0 {
        0
    } else if code > i32::from(MAX_UE8M0) {
        over
    } else {
        code as u8
    }
}

/// A `.ue8m0` code as a `.bf16` (exact: `2^-127` is the subnormal `0x0040`; NaN the
/// canonical `0x7fff`).
pub fn ue8m0_to_bf16(code: u8) -> u16 {
    match code {
        NAN_UE8M0 => NAN_H,
        0 => 0x0040,
        e => u16::from(e) << 7,
    }
}

/// A narrow `cvt` form: what it converts and its modifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MxCvt {
    /// `cvt.rn.satfinite{.relu}.{e2m1x2,e2m3x2,e3m2x2}.f32 d, a, b`.
    PairFromF32 { f: Narrow, relu: bool },
    /// `cvt.rn{.relu}.f16x2.{e2m1x2,e2m3x2,e3m2x2} d, a`.
    F16x2FromPair { f: Narrow, relu: bool },
    /// `cvt.{rz,rp}{.satfinite}.ue8m0x2.f32 d, a, b`.
    Ue8m0x2FromF32 { up: bool, satfinite: bool },
    /// `cvt.{rz,rp}{.satfinite}.ue8m0x2.bf16x2 d, a`.
    Ue8m0x2FromBf16x2 { up: bool, satfinite: bool },
    /// `cvt.rn.bf16x2.ue8m0x2 d, a`.
    Bf16x2FromUe8m0x2,
}

impl MxCvt {
    /// Bits of the destination value (8, 16 or 32).
    pub fn result_bits(self) -> u32 {
        match self {
            MxCvt::PairFromF32 { f, .. } => f.pair_bits(),
            MxCvt::Ue8m0x2FromF32 { .. } | MxCvt::Ue8m0x2FromBf16x2 { .. } => 16,
            MxCvt::F16x2FromPair { .. } | MxCvt::Bf16x2FromUe8m0x2 => 32,
        }
    }
}

/// Runs one narrow `cvt`: `a` and `b` are the source operands' bits (`b` is unused by the
/// one-source forms); the result is in the low [`MxCvt::result_bits`] bits.
pub fn cvt(k: MxCvt, a: u32, b: u32) -> u32 {
    match k {
        MxCvt::PairFromF32 { f, relu } => {
            let one = |x: u32| u32::from(from_f64(f64::from(f32::from_bits(x)), f, relu));
            let half = f.pair_bits() / 2;
            one(a) << half | one(b)
        }
        MxCvt::F16x2FromPair { f, relu } => {
            let half = f.pair_bits() / 2;
            let hi = (a >> half) as u8;
            let lo = a as u8;
            u32::from(to_f16(hi, f, relu)) << 16 | u32::from(to_f16(lo, f, relu))
        }
        MxCvt::Ue8m0x2FromF32 { up, satfinite } => {
            let one = |x: u32| u32::from(ue8m0_from_f32(f32::from_bits(x), up, satfinite));
            one(a) << 8 | one(b)
        }
        MxCvt::Ue8m0x2FromBf16x2 { up, satfinite } => {
            let one = |h: u32| u32::from(ue8m0_from_f32(f32::from_bits(h << 16), up, satfinite));
            one(a >> 16) << 8 | one(a & 0xffff)
        }
        MxCvt::Bf16x2FromUe8m0x2 => {
            u32::from(ue8m0_to_bf16((a >> 8) as u8)) << 16 | u32::from(ue8m0_to_bf16(a as u8))
        }
    }
}
