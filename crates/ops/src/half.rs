//! Half-precision arithmetic: `add sub mul fma neg abs min max ex2` on `.f16`, `.bf16` and
//! their packed `.f16x2`/`.bf16x2` forms, and `tanh.approx.f32`.
//!
//! - `add sub mul fma` compute the exact result and round once ([`soft::fma_bits`] on the
//!   16-bit format): correctly rounded under every rounding modifier.
//! - `.ftz` (f16 only) flushes subnormal sources and results to a zero of the same sign.
//! - `.sat` clamps to `[+0.0, 1.0]`, NaN → `+0.0`; `.relu` clamps negative results to `+0.0`
//!   and keeps NaN (as the canonical NaN).
//! - A NaN result is the canonical NaN `0x7fff` of both formats (what NVIDIA hardware writes);
//!   `neg`/`abs` only touch the sign bit, like their f32 forms.
//! - `min`/`max`: a NaN operand is ignored unless both are NaN (canonical NaN); with `.NaN` any
//!   NaN operand gives the canonical NaN; `-0.0` is less than `+0.0`; `.xorsign.abs` compares
//!   magnitudes and gives the result the XOR of the operands' signs (not applied to a NaN).
//! - `ex2.approx` and `tanh.approx`: the host's f64 function, rounded once to nearest: within
//!   the spec's error bounds, not a bit model of the hardware's approximation.
//! - Packed forms apply the operation to the low and the high half independently.

use crate::float::soft::{self, Class, Format};
use crate::float::Rounding;

/// The canonical NaN of `.f16` and of `.bf16`.
pub const NAN_H: u16 = 0x7fff;

pub const BF16: Format = Format {
    frac_bits: 7,
    exp_bits: 8,
    has_inf_nan: true,
};

/// Which 16-bit format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HalfFormat {
    F16,
    Bf16,
}

impl HalfFormat {
    #[inline]
    pub fn format(self) -> Format {
        match self {
            HalfFormat::F16 => soft::F16,
            HalfFormat::Bf16 => BF16,
        }
    }
}

/// Modifiers of a half-precision arithmetic instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct HalfMode {
    pub rnd: Rounding,
    pub ftz: bool,
    pub sat: bool,
    pub relu: bool,
}

#[inline]
fn is_nan(x: u16, f: HalfFormat) -> bool {
    matches!(soft::classify(u64::from(x), f.format()), Class::Nan)
}

/// Subnormal → zero of the same sign.
#[inline]
pub fn flush_h(x: u16, f: HalfFormat) -> u16 {
    let frac_bits = f.format().frac_bits;
    let exp_field = (x & 0x7fff) >> frac_bits;
    if exp_field == 0 {
        x & 0x8000
    } else {
        x
    }
}

#[inline]
fn ftz_if(x: u16, f: HalfFormat, ftz: bool) -> u16 {
    if ftz {
        flush_h(x, f)
    } else {
        x
    }
}

/// `.sat`: `[+0.0, 1.0]`, NaN → `+0.0`.
#[inline]
fn saturate(x: u16, f: HalfFormat) -> u16 {
    let one = match f {
        HalfFormat::F16 => 0x3c00,
        HalfFormat::Bf16 => 0x3f80,
    };
    if is_nan(x, f) || x & 0x8000 != 0 {
        0
    } else {
        x.min(one)
    }
}

/// Canonical NaN, `.ftz`, `.sat`, `.relu` applied to a rounded result.
#[inline]
fn finish(r: u16, f: HalfFormat, m: HalfMode) -> u16 {
    if is_nan(r, f) {
        return if m.sat { 0 } else { NAN_H };
    }
    let r = ftz_if(r, f, m.ftz);
    if m.sat {
        saturate(r, f)
    } else if m.relu && r & 0x8000 != 0 {
        0
    } else {
        r
    }
}

/// `a × b + c` (`c = None`: `a × b`) with one rounding.
#[inline]
fn fma_raw(a: u16, b: u16, c: Option<u16>, f: HalfFormat, m: HalfMode) -> u16 {
    let (a, b) = (ftz_if(a, f, m.ftz), ftz_if(b, f, m.ftz));
    let c = c.map(|c| u64::from(ftz_if(c, f, m.ftz)));
    let r = soft::fma_bits(
        u64::from(a),
        u64::from(b),
        c,
        m.rnd,
        f.format(),
        u64::from(NAN_H),
    );
    finish(r as u16, f, m)
}

/// `fma.rnd{.ftz}{.sat|.relu}.{f16,bf16} d, a, b, c`.
#[inline]
pub fn fma_h(a: u16, b: u16, c: u16, f: HalfFormat, m: HalfMode) -> u16 {
    fma_raw(a, b, Some(c), f, m)
}

/// `mul{.rnd}{.ftz}{.sat}.{f16,bf16} d, a, b`.
#[inline]
pub fn mul_h(a: u16, b: u16, f: HalfFormat, m: HalfMode) -> u16 {
    fma_raw(a, b, None, f, m)
}

/// `add{.rnd}{.ftz}{.sat}.{f16,bf16} d, a, b` (`a × 1 + b`, exact product).
#[inline]
pub fn add_h(a: u16, b: u16, f: HalfFormat, m: HalfMode) -> u16 {
    let one = soft::round_pack(false, 1, 0, Rounding::Rn, f.format()) as u16;
    fma_raw(a, one, Some(b), f, m)
}

/// `sub{.rnd}{.ftz}{.sat}.{f16,bf16} d, a, b`: `a + (-b)`.
#[inline]
pub fn sub_h(a: u16, b: u16, f: HalfFormat, m: HalfMode) -> u16 {
    add_h(a, b ^ 0x8000, f, m)
}

/// `neg{.ftz}.{f16,bf16}`: flips the sign bit.
#[inline]
pub fn neg_h(a: u16, f: HalfFormat, ftz: bool) -> u16 {
    ftz_if(a, f, ftz) ^ 0x8000
}

/// `abs{.ftz}.{f16,bf16}`: clears the sign bit.
#[inline]
pub fn abs_h(a: u16, f: HalfFormat, ftz: bool) -> u16 {
    ftz_if(a, f, ftz) & 0x7fff
}

/// Modifiers of `min`/`max`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct MinMaxMode {
    pub ftz: bool,
    /// `.NaN`: a NaN operand gives NaN.
    pub nan: bool,
    /// `.xorsign.abs`.
    pub xorsign_abs: bool,
}

/// Total order key of a non-NaN half (`-0.0 < +0.0`).
#[inline]
fn order_key(x: u16) -> i32 {
    if x & 0x8000 != 0 {
        -i32::from(x & 0x7fff) - 1
    } else {
        i32::from(x)
    }
}

#[inline]
fn min_max_h(a: u16, b: u16, f: HalfFormat, m: MinMaxMode, want_max: bool) -> u16 {
    let (a, b) = (ftz_if(a, f, m.ftz), ftz_if(b, f, m.ftz));
    let (na, nb) = (is_nan(a, f), is_nan(b, f));
    if (na && nb) || (m.nan && (na || nb)) {
        return NAN_H;
    }
    if na {
        return b;
    }
    if nb {
        return a;
    }
    let sign = (a ^ b) & 0x8000;
    let (x, y) = if m.xorsign_abs {
        (a & 0x7fff, b & 0x7fff)
    } else {
        (a, b)
    };
    let a_first = if want_max {
        order_key(x) >= order_key(y)
    } else {
        order_key(x) <= order_key(y)
    };
    let r = if a_first { x } else { y };
    if m.xorsign_abs {
        r | sign
    } else {
        r
    }
}

/// `min{.ftz}{.NaN}{.xorsign.abs}.{f16,bf16} d, a, b`.
#[inline]
pub fn min_h(a: u16, b: u16, f: HalfFormat, m: MinMaxMode) -> u16 {
    min_max_h(a, b, f, m, false)
}

/// `max{.ftz}{.NaN}{.xorsign.abs}.{f16,bf16} d, a, b`.
#[inline]
pub fn max_h(a: u16, b: u16, f: HalfFormat, m: MinMaxMode) -> u16 {
    min_max_h(a, b, f, m, true)
}

/// The value of a half as f64 (exact).
#[inline]
pub fn h_to_f64(x: u16, f: HalfFormat) -> f64 {
    soft::narrow_to_f64(u64::from(x), f.format())
}

/// `x` rounded once to the half format (NaN → canonical NaN).
#[inline]
pub fn f64_to_h(x: f64, f: HalfFormat, rnd: Rounding) -> u16 {
    if x.is_nan() {
        return NAN_H;
    }
    let bits = x.to_bits();
    let neg = bits >> 63 != 0;
    if x.is_infinite() {
        return (f.format().inf_bits() as u16) | if neg { 0x8000 } else { 0 };
    }
    match soft::classify(bits, soft::F64) {
        Class::Finite { neg, sig, exp } => soft::round_pack(neg, sig, exp, rnd, f.format()) as u16,
        _ => {
            if neg {
                0x8000
            } else {
                0
            }
        }
    }
}

/// `ex2.approx.f16` / `ex2.approx.ftz.bf16`: `2^a` (the `.bf16` form always flushes).
#[inline]
pub fn ex2_h(a: u16, f: HalfFormat, ftz: bool) -> u16 {
    let a = ftz_if(a, f, ftz);
    let r = f64_to_h(h_to_f64(a, f).exp2(), f, Rounding::Rn);
    ftz_if(r, f, ftz)
}

/// `tanh.approx.f32 d, a`.
#[inline]
pub fn tanh_f32(a: f32) -> f32 {
    let r = f64::from(a).tanh() as f32;
    if r.is_nan() {
        f32::from_bits(crate::float::NAN_F32)
    } else {
        r
    }
}

/// A packed operation on both halves of `.f16x2`/`.bf16x2` operands.
#[inline]
pub fn x2(a: u32, b: u32, c: u32, op: impl Fn(u16, u16, u16) -> u16) -> u32 {
    let lo = op(a as u16, b as u16, c as u16);
    let hi = op((a >> 16) as u16, (b >> 16) as u16, (c >> 16) as u16);
    u32::from(lo) | u32::from(hi) << 16
}

/// `cvt.rn{.relu}.{f16x2,bf16x2}.f32 d, a, b` (PTX ISA §9.7.9.21 `cvt`): `a` converted into the
/// upper half of `d`, `b` into the lower, each rounded to nearest even once; `.relu` clamps a
/// negative result to `+0.0`; a NaN becomes the canonical NaN.
#[inline]
pub fn cvt_rn_x2_f32(a: f32, b: f32, f: HalfFormat, relu: bool) -> u32 {
    let m = HalfMode {
        relu,
        ..HalfMode::default()
    };
    let one = |x: f32| finish(f64_to_h(f64::from(x), f, Rounding::Rn), f, m);
    u32::from(one(a)) << 16 | u32::from(one(b))
}

#[cfg(test)]
mod cvt_x2_tests {
    use super::*;

    #[test]
    fn halves_land_where_the_spec_says() {
        // 1.0 is 0x3c00 in f16 and 0x3f80 in bf16; -2.0 is 0xc000 / 0xc000.
        assert_eq!(
            cvt_rn_x2_f32(1.0, -2.0, HalfFormat::F16, false),
            0x3c00_c000
        );
        assert_eq!(
            cvt_rn_x2_f32(1.0, -2.0, HalfFormat::Bf16, false),
            0x3f80_c000
        );
        assert_eq!(cvt_rn_x2_f32(1.0, -2.0, HalfFormat::F16, true), 0x3c00_0000);
        assert_eq!(
            cvt_rn_x2_f32(f32::NAN, 65520.0, HalfFormat::F16, false),
            0x7fff_7c00
        );
    }
}
