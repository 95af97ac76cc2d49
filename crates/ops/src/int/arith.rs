//! `add sub mul mad mul24 mad24 sad abs neg min max` on scalar operands.

use super::num::{Int, Widen};

/// `add.type` (§9.7.1.1): `d = a + b` modulo 2^n.
#[inline]
pub fn add<T: Int>(a: T, b: T) -> T {
    a.wrapping_add(b)
}

/// `sub.type` (§9.7.1.2): `d = a - b` modulo 2^n.
#[inline]
pub fn sub<T: Int>(a: T, b: T) -> T {
    a.wrapping_sub(b)
}

/// `add.sat.s32` (§9.7.1.1): the sum clamped to `MININT..MAXINT`.
#[inline]
pub fn add_sat_s32(a: i32, b: i32) -> i32 {
    a.saturating_add(b)
}

/// `sub.sat.s32` (§9.7.1.2): the difference clamped to `MININT..MAXINT`.
#[inline]
pub fn sub_sat_s32(a: i32, b: i32) -> i32 {
    a.saturating_sub(b)
}

/// `mul.lo.type` (§9.7.1.3): bits `n-1..0` of the 2n-bit product.
#[inline]
pub fn mul_lo<T: Int>(a: T, b: T) -> T {
    a.mul_full(b).0
}

/// `mul.hi.type` (§9.7.1.3): bits `2n-1..n` of the 2n-bit product (signed product for `.sN`).
/// For 64-bit types this is the top half of the full 128-bit product.
#[inline]
pub fn mul_hi<T: Int>(a: T, b: T) -> T {
    a.mul_full(b).1
}

/// `mul.wide.type` (§9.7.1.3, 16- and 32-bit types only): the whole 2n-bit product.
#[inline]
pub fn mul_wide<T: Widen>(a: T, b: T) -> T::Wide {
    let (lo, hi) = a.mul_full(b);
    let lo = lo.to_bits();
    let hi = hi.to_bits();
    T::Wide::from_bits(lo | (hi << T::BITS))
}

/// `mad.lo.type` (§9.7.1.4): `t<n-1..0> + c` modulo 2^n.
#[inline]
pub fn mad_lo<T: Int>(a: T, b: T, c: T) -> T {
    mul_lo(a, b).wrapping_add(c)
}

/// `mad.hi.type` (§9.7.1.4): `t<2n-1..n> + c` modulo 2^n.
#[inline]
pub fn mad_hi<T: Int>(a: T, b: T, c: T) -> T {
    mul_hi(a, b).wrapping_add(c)
}

/// `mad.hi.sat.s32` (§9.7.1.4): the addition `t<63..32> + c` clamped to `MININT..MAXINT`.
#[inline]
pub fn mad_hi_sat_s32(a: i32, b: i32, c: i32) -> i32 {
    mul_hi(a, b).saturating_add(c)
}

/// `mad.wide.type` (§9.7.1.4, 16- and 32-bit types only): `t + c` modulo 2^2n, where `c` and
/// `d` are twice as wide as `a` and `b`.
#[inline]
pub fn mad_wide<T: Widen>(a: T, b: T, c: T::Wide) -> T::Wide {
    mul_wide(a, b).wrapping_add(c)
}

/// The low 24 bits of a `.u32` operand of `mul24`/`mad24`.
#[inline]
fn low24_u(a: u32) -> i64 {
    i64::from(a & 0x00ff_ffff)
}

/// The low 24 bits of a `.s32` operand of `mul24`/`mad24`, sign-extended from bit 23.
#[inline]
fn low24_s(a: u32) -> i64 {
    i64::from(((a << 8) as i32) >> 8)
}

/// `mul24.lo.u32` (§9.7.1.5): bits 31..0 of the 48-bit product of the low 24 bits.
#[inline]
pub fn mul24_lo_u32(a: u32, b: u32) -> u32 {
    (low24_u(a) * low24_u(b)) as u32
}

/// `mul24.hi.u32` (§9.7.1.5): bits 47..16 of the 48-bit product of the low 24 bits.
#[inline]
pub fn mul24_hi_u32(a: u32, b: u32) -> u32 {
    ((low24_u(a) * low24_u(b)) >> 16) as u32
}

/// `mul24.lo.s32` (§9.7.1.5): bits 31..0 of the signed 48-bit product of the sign-extended
/// low 24 bits.
#[inline]
pub fn mul24_lo_s32(a: i32, b: i32) -> i32 {
    (low24_s(a as u32) * low24_s(b as u32)) as i32
}

/// `mul24.hi.s32` (§9.7.1.5): bits 47..16 of the signed 48-bit product.
#[inline]
pub fn mul24_hi_s32(a: i32, b: i32) -> i32 {
    ((low24_s(a as u32) * low24_s(b as u32)) >> 16) as i32
}

/// `mad24.lo.u32` (§9.7.1.6): `t<31..0> + c` modulo 2^32.
#[inline]
pub fn mad24_lo_u32(a: u32, b: u32, c: u32) -> u32 {
    mul24_lo_u32(a, b).wrapping_add(c)
}

/// `mad24.hi.u32` (§9.7.1.6): `t<47..16> + c` modulo 2^32.
#[inline]
pub fn mad24_hi_u32(a: u32, b: u32, c: u32) -> u32 {
    mul24_hi_u32(a, b).wrapping_add(c)
}

/// `mad24.lo.s32` (§9.7.1.6): `t<31..0> + c` modulo 2^32.
#[inline]
pub fn mad24_lo_s32(a: i32, b: i32, c: i32) -> i32 {
    mul24_lo_s32(a, b).wrapping_add(c)
}

/// `mad24.hi.s32` (§9.7.1.6): `t<47..16> + c` modulo 2^32.
#[inline]
pub fn mad24_hi_s32(a: i32, b: i32, c: i32) -> i32 {
    mul24_hi_s32(a, b).wrapping_add(c)
}

/// `mad24.hi.sat.s32` (§9.7.1.6): the 32-bit signed addition `t<47..16> + c` clamped to
/// `MININT..MAXINT`.
#[inline]
pub fn mad24_hi_sat_s32(a: i32, b: i32, c: i32) -> i32 {
    mul24_hi_s32(a, b).saturating_add(c)
}

/// `sad.type` (§9.7.1.7): `c + ((a<b) ? b-a : a-b)` modulo 2^n, compared with the type's
/// signedness.
#[inline]
pub fn sad<T: Int>(a: T, b: T, c: T) -> T {
    let diff = if a < b {
        b.wrapping_sub(a)
    } else {
        a.wrapping_sub(b)
    };
    c.wrapping_add(diff)
}

/// `abs.type` (§9.7.1.10). `abs(MININT)` is `MININT` (two's complement wrap; see spec notes).
#[inline]
pub fn abs<T: Int>(a: T) -> T {
    if a < T::ZERO {
        a.wrapping_neg()
    } else {
        a
    }
}

/// `neg.type` (§9.7.1.11): `0 - a` modulo 2^n, so `neg(MININT)` is `MININT`.
#[inline]
pub fn neg<T: Int>(a: T) -> T {
    a.wrapping_neg()
}

/// `min.type` (§9.7.1.12): `(a < b) ? a : b` with the type's signedness.
#[inline]
pub fn min<T: Int>(a: T, b: T) -> T {
    if a < b {
        a
    } else {
        b
    }
}

/// `max.type` (§9.7.1.13): `(a > b) ? a : b` with the type's signedness.
#[inline]
pub fn max<T: Int>(a: T, b: T) -> T {
    if a > b {
        a
    } else {
        b
    }
}

/// `min.relu.s32` (§9.7.1.12): the minimum, clamped to 0 if negative.
#[inline]
pub fn min_relu_s32(a: i32, b: i32) -> i32 {
    min(a, b).max(0)
}

/// `max.relu.s32` (§9.7.1.13): the maximum, clamped to 0 if negative.
#[inline]
pub fn max_relu_s32(a: i32, b: i32) -> i32 {
    max(a, b).max(0)
}
