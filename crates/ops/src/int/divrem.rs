//! `div` and `rem` (§9.7.1.8–9; PTX 1.1 Tables 23–24 add the `.wide` forms).
//!
//! The spec leaves division by zero "unspecified, machine-specific" and the sign of `rem` on
//! negative operands "machine-dependent"; the choices (NVIDIA GPU behaviour) are recorded in
//! `docs/spec-notes.md`:
//! - quotients truncate toward zero and `rem` takes the sign of the dividend (`a == (a/b)*b +
//!   a%b` for every `b != 0`);
//! - `x / 0` is all ones (`0xffff…`, i.e. `-1` for signed types) and `x % 0` is `x`, which is
//!   what `a - (a/b)*b` gives with that quotient;
//! - `MININT / -1` wraps to `MININT` and `MININT % -1` is 0.

use super::num::{Int, Widen};

/// `div.type` (§9.7.1.8): `a / b` truncated toward zero; all ones when `b == 0`.
#[inline]
pub fn div<T: Int>(a: T, b: T) -> T {
    a.checked_div_wrapping(b).unwrap_or(T::ONES)
}

/// `rem.type` (§9.7.1.9): `a % b` with the sign of `a`; `a` when `b == 0`.
#[inline]
pub fn rem<T: Int>(a: T, b: T) -> T {
    a.checked_rem_wrapping(b).unwrap_or(a)
}

/// `div.wide.type` (PTX 1.1 Table 23, 16- and 32-bit types): `a` is twice as wide as `b` and
/// `d`; `d` is the low n bits of the 2n-bit truncating quotient; all ones when `b == 0`.
#[inline]
pub fn div_wide<T: Widen>(a: T::Wide, b: T) -> T {
    match a.checked_div_wrapping(b.widen()) {
        Some(q) => T::narrow(q),
        None => T::ONES,
    }
}

/// `rem.wide.type` (PTX 1.1 Table 24, 16- and 32-bit types): the remainder of the 2n-bit `a`
/// divided by `b` (it always fits in n bits); the low n bits of `a` when `b == 0`.
#[inline]
pub fn rem_wide<T: Widen>(a: T::Wide, b: T) -> T {
    T::narrow(rem(a, b.widen()))
}
