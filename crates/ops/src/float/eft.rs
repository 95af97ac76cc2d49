//! Fast directed rounding on the host FPU: compute the round-to-nearest result `r`, learn on
//! which side of `r` the exact result lies from an error-free transformation, and step one ulp
//! when the direction demands it.
//!
//! - f32 `add sub mul fma`: the exact result is `s + e` with `s, e` f64 (an f32 product is exact
//!   in f64, and f64 TwoSum of it and an f32 addend is exact), so `r` is `s` rounded to f32 and
//!   the side is decided by `s` (or by `e` when `s` is an f32 value).
//! - f64 `add`: Knuth's TwoSum error; f64 `mul`: FMA TwoProduct error, used only when the
//!   product is far from the subnormal range (below that the error is not representable and the
//!   exact path in [`super::soft`] takes over).
//!
//! Results equal [`super::soft`]; `tests/float_directed.rs` checks both against independent
//! integer arithmetic.

use super::soft::{self, zero_sum_sign};
use super::Rounding;
use core::cmp::Ordering;

macro_rules! neighbours {
    ($up:ident, $down:ident, $t:ty, $sign_shift:expr) => {
        #[doc = concat!("Smallest ", stringify!($t), " above `x` (`+Inf` and NaN map to themselves).")]
        #[inline]
        pub fn $up(x: $t) -> $t {
            let b = x.to_bits();
            if x.is_nan() || x == <$t>::INFINITY {
                x
            } else if x == 0.0 {
                <$t>::from_bits(1)
            } else if b >> $sign_shift == 0 {
                <$t>::from_bits(b + 1)
            } else {
                <$t>::from_bits(b - 1)
            }
        }

        #[doc = concat!("Largest ", stringify!($t), " below `x`.")]
        #[inline]
        pub fn $down(x: $t) -> $t {
            -$up(-x)
        }
    };
}
neighbours!(next_up_f32, next_down_f32, f32, 31);
neighbours!(next_up_f64, next_down_f64, f64, 63);

macro_rules! step {
    ($name:ident, $t:ty, $up:ident, $down:ident) => {
        /// The `rnd` result from the nearest result `r` and the side `exact.cmp(r)`.
        #[inline]
        fn $name(r: $t, side: Ordering, rnd: Rounding) -> $t {
            match (rnd, side) {
                (Rounding::Rn, _) | (_, Ordering::Equal) => r,
                (Rounding::Rp, Ordering::Greater) => $up(r),
                (Rounding::Rm, Ordering::Less) => $down(r),
                (Rounding::Rz, Ordering::Greater) if r.is_sign_negative() => $up(r),
                (Rounding::Rz, Ordering::Less) if !r.is_sign_negative() => $down(r),
                _ => r,
            }
        }
    };
}
step!(step_f32, f32, next_up_f32, next_down_f32);
step!(step_f64, f64, next_up_f64, next_down_f64);

#[inline]
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    (s, (a - (s - bb)) + (b - bb))
}

#[inline]
fn side(x: f64) -> Ordering {
    x.partial_cmp(&0.0).unwrap_or(Ordering::Equal)
}

/// Rounds the exact nonzero value `s + e` (`|e| ≤ ulp(s)/2`, `s` finite) to f32 under a
/// directed `rnd` (under `.rn`, `e` could break a tie of `s` and is ignored: callers with
/// `e != 0` use the FPU for `.rn`).
#[inline]
fn round_pair_f32(s: f64, e: f64, rnd: Rounding) -> f32 {
    let r = s as f32;
    let rs = f64::from(r);
    // An f32 value is an f64 value, so `s + e` lies on the same side of `r` as `s` unless
    // `s == r` (Inf compares as larger than any finite `s`).
    let sd = if rs == s { side(e) } else { side(s - rs) };
    let sd = if r.is_infinite() {
        if r > 0.0 {
            Ordering::Less
        } else {
            Ordering::Greater
        }
    } else {
        sd
    };
    step_f32(r, sd, rnd)
}

/// f64 → f32 under `rnd` (exact input, one rounding); NaN and ±Inf pass through.
#[inline]
pub fn f64_to_f32(x: f64, rnd: Rounding) -> f32 {
    if !x.is_finite() || x == 0.0 {
        return x as f32;
    }
    round_pair_f32(x, 0.0, rnd)
}

/// `a + b` on f32 with one rounding under `rnd`.
#[inline]
pub fn add_f32(a: f32, b: f32, rnd: Rounding) -> f32 {
    // Under .rn the pair would be rounded twice (s to f32 after s + e to f64).
    if rnd == Rounding::Rn || !(a.is_finite() && b.is_finite()) {
        return a + b;
    }
    let (s, e) = two_sum(f64::from(a), f64::from(b));
    if s == 0.0 {
        return zero_f32(zero_sum_sign(
            a.is_sign_negative(),
            b.is_sign_negative(),
            rnd,
        ));
    }
    round_pair_f32(s, e, rnd)
}

/// `a × b` on f32 with one rounding under `rnd`.
#[inline]
pub fn mul_f32(a: f32, b: f32, rnd: Rounding) -> f32 {
    f64_to_f32(f64::from(a) * f64::from(b), rnd)
}

/// `a × b + c` on f32 with one rounding under `rnd`.
#[inline]
pub fn fma_f32(a: f32, b: f32, c: f32, rnd: Rounding) -> f32 {
    if rnd == Rounding::Rn || !(a.is_finite() && b.is_finite() && c.is_finite()) {
        return a.mul_add(b, c);
    }
    let p = f64::from(a) * f64::from(b);
    let (s, e) = two_sum(p, f64::from(c));
    if s == 0.0 {
        return zero_f32(zero_sum_sign(
            p.is_sign_negative(),
            c.is_sign_negative(),
            rnd,
        ));
    }
    round_pair_f32(s, e, rnd)
}

#[inline]
fn zero_f32(neg: bool) -> f32 {
    if neg {
        -0.0
    } else {
        0.0
    }
}

/// Side of the exact result relative to an overflowed nearest result `±Inf`.
#[inline]
fn overflow_side(r: f64) -> Ordering {
    if r > 0.0 {
        Ordering::Less
    } else {
        Ordering::Greater
    }
}

/// `a + b` on f64 with one rounding under `rnd`.
#[inline]
pub fn add_f64(a: f64, b: f64, rnd: Rounding) -> f64 {
    if !(a.is_finite() && b.is_finite()) {
        return a + b;
    }
    let (s, e) = two_sum(a, b);
    if s.is_infinite() {
        return step_f64(s, overflow_side(s), rnd);
    }
    if s == 0.0 {
        let neg = zero_sum_sign(a.is_sign_negative(), b.is_sign_negative(), rnd);
        return if neg { -0.0 } else { 0.0 };
    }
    step_f64(s, side(e), rnd)
}

/// Products at least this large have a representable TwoProduct error (exponent sum ≥ -969).
const TWO_PRODUCT_MIN: f64 = 1.0e-290;

/// `a × b` on f64 with one rounding under `rnd`.
#[inline]
pub fn mul_f64(a: f64, b: f64, rnd: Rounding) -> f64 {
    if !(a.is_finite() && b.is_finite()) {
        return a * b;
    }
    let p = a * b;
    if p.is_infinite() {
        return step_f64(p, overflow_side(p), rnd);
    }
    if p.abs() < TWO_PRODUCT_MIN {
        let nan = super::NAN_F64;
        return f64::from_bits(soft::fma_bits(
            a.to_bits(),
            b.to_bits(),
            None,
            rnd,
            soft::F64,
            nan,
        ));
    }
    step_f64(p, side(a.mul_add(b, -p)), rnd)
}

/// `a / b` on f32 under a directed `rnd`: the side of the exact quotient comes from the sign of
/// the remainder `a - r·b`, exact in f64 (an f32 product is exact there).
#[inline]
pub fn div_f32(a: f32, b: f32, rnd: Rounding) -> f32 {
    let r = a / b;
    if rnd == Rounding::Rn || !(a.is_finite() && b.is_finite()) || a == 0.0 || b == 0.0 {
        return r;
    }
    let sd = if r.is_infinite() {
        if r > 0.0 {
            Ordering::Less
        } else {
            Ordering::Greater
        }
    } else {
        let rem = side(f64::from(a) - f64::from(r) * f64::from(b));
        if b < 0.0 {
            rem.reverse()
        } else {
            rem
        }
    };
    step_f32(r, sd, rnd)
}

/// `sqrt(a)` on f32 under a directed `rnd`: the side is the sign of `a - r²`, exact in f64.
#[inline]
pub fn sqrt_f32(a: f32, rnd: Rounding) -> f32 {
    let r = a.sqrt();
    if rnd == Rounding::Rn || !r.is_finite() || r == 0.0 {
        return r;
    }
    let rr = f64::from(r);
    step_f32(r, side(f64::from(a) - rr * rr), rnd)
}
