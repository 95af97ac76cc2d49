//! Bit-field and bit-count instructions: `popc clz bfind fns brev bfe bfi szext bmsk`.

use super::num::Int;
use super::ClampWrap;

/// `popc.b32` (§9.7.1.14): number of one bits.
#[inline]
pub fn popc_b32(a: u32) -> u32 {
    a.count_ones()
}

/// `popc.b64` (§9.7.1.14): number of one bits (the destination is `.u32`).
#[inline]
pub fn popc_b64(a: u64) -> u32 {
    a.count_ones()
}

/// `clz.b32` (§9.7.1.15): leading zeros, 0..=32.
#[inline]
pub fn clz_b32(a: u32) -> u32 {
    a.leading_zeros()
}

/// `clz.b64` (§9.7.1.15): leading zeros, 0..=64.
#[inline]
pub fn clz_b64(a: u64) -> u32 {
    a.leading_zeros()
}

/// `brev.b32` (§9.7.1.18): `d[i] = a[31-i]`.
#[inline]
pub fn brev_b32(a: u32) -> u32 {
    a.reverse_bits()
}

/// `brev.b64` (§9.7.1.18): `d[i] = a[63-i]`.
#[inline]
pub fn brev_b64(a: u64) -> u64 {
    a.reverse_bits()
}

/// A mask of the low `len` bits, for any `len` in `0..=64`.
#[inline]
fn low_mask(len: u32) -> u64 {
    if len >= 64 {
        u64::MAX
    } else {
        (1u64 << len) - 1
    }
}

/// `bfind.type` (§9.7.1.16, `.u32 .s32 .u64 .s64`): position of the most significant non-sign
/// bit (for negative signed inputs, of the most significant 0), or `0xffffffff` if none.
#[inline]
pub fn bfind<T: Int>(a: T) -> u32 {
    let msb = T::BITS - 1;
    let mut bits = a.to_bits();
    if T::SIGNED && (bits >> msb) & 1 == 1 {
        bits = !bits & low_mask(T::BITS);
    }
    if bits == 0 {
        u32::MAX
    } else {
        63 - bits.leading_zeros()
    }
}

/// `bfind.shiftamt.type` (§9.7.1.16): the left shift that moves the found bit to the msb,
/// i.e. `msb - bfind(a)`, or `0xffffffff` if no non-sign bit is found.
#[inline]
pub fn bfind_shiftamt<T: Int>(a: T) -> u32 {
    match bfind(a) {
        u32::MAX => u32::MAX,
        d => (T::BITS - 1) - d,
    }
}

/// `fns.b32` (§9.7.1.17): position of the `offset`-th set bit of `mask`, counting upward from
/// `base` for positive offsets and downward for negative ones (`offset == 0` tests bit `base`
/// itself); `0xffffffff` if there is none. The spec leaves `base > 31` undefined; here it finds
/// nothing (the pseudo-code's loop never enters) and returns `0xffffffff`.
#[inline]
pub fn fns_b32(mask: u32, base: u32, offset: i32) -> u32 {
    if base > 31 {
        return u32::MAX;
    }
    if offset == 0 {
        return if (mask >> base) & 1 == 1 {
            base
        } else {
            u32::MAX
        };
    }
    let n = offset.unsigned_abs();
    if offset > 0 {
        // Set bits at positions >= base; the n-th from the bottom.
        let mut m = mask & (u32::MAX << base);
        if m.count_ones() < n {
            return u32::MAX;
        }
        for _ in 1..n {
            m &= m - 1;
        }
        m.trailing_zeros()
    } else {
        // Set bits at positions <= base; the n-th from the top.
        let mut m = mask & (u32::MAX >> (31 - base));
        if m.count_ones() < n {
            return u32::MAX;
        }
        for _ in 1..n {
            m &= !(1u32 << (31 - m.leading_zeros()));
        }
        31 - m.leading_zeros()
    }
}

/// `bfe.type` (§9.7.1.19, `.u32 .s32 .u64 .s64`): extract `len = c & 0xff` bits starting at
/// `pos = b & 0xff`, zero- or sign-extended; bits beyond the msb of `a` read as the sign bit
/// `a[min(pos+len-1, msb)]` for signed types and 0 otherwise; `len == 0` gives 0.
#[inline]
pub fn bfe<T: Int>(a: T, b: u32, c: u32) -> T {
    let msb = T::BITS - 1;
    let pos = b & 0xff;
    let len = c & 0xff;
    let bits = a.to_bits();
    let sbit = T::SIGNED && len != 0 && (bits >> (pos + len - 1).min(msb)) & 1 == 1;
    // Field bits actually present in `a`.
    let present = if pos > msb { 0 } else { len.min(T::BITS - pos) };
    let mask = low_mask(present);
    let field = if present == 0 {
        0
    } else {
        (bits >> pos) & mask
    };
    T::from_bits(if sbit { field | !mask } else { field })
}

/// `bfi.type` (§9.7.1.20, `.b32 .b64` as `u32`/`u64`): insert the low `len = d & 0xff` bits of
/// `a` into `b` at `pos = c & 0xff`; bits that would land above the msb are dropped, and
/// `len == 0` or `pos > msb` gives `b`.
#[inline]
pub fn bfi<T: Int>(a: T, b: T, c: u32, d: u32) -> T {
    let pos = c & 0xff;
    let len = d & 0xff;
    if pos >= T::BITS || len == 0 {
        return b;
    }
    let field = low_mask(len.min(T::BITS - pos)) << pos;
    let inserted = (a.to_bits() << pos) & field;
    T::from_bits((b.to_bits() & !field) | inserted)
}

/// The `szext` pseudo-code (§9.7.1.21), transcribed; `signed` selects `.s32`.
#[inline]
fn szext(a: u32, b: u32, mode: ClampWrap, signed: bool) -> u32 {
    let b1 = b & 0x1f;
    let too_large = b >= 32 && mode == ClampWrap::Clamp;
    let mask = if too_large { 0 } else { u32::MAX << b1 };
    let sign_pos = b1.wrapping_sub(1) & 0x1f;
    let sign_bit = !(b1 == 0 || too_large || !signed) && (a >> sign_pos) & 1 == 1;
    (a & !mask) | if sign_bit { mask } else { 0 }
}

/// `szext.mode.u32` (§9.7.1.21): zero-extend the low `N = b` bits of `a`. `N == 0` gives 0;
/// `N >= 32` gives `a` under `.clamp` and uses `N mod 32` under `.wrap`.
#[inline]
pub fn szext_u32(a: u32, b: u32, mode: ClampWrap) -> u32 {
    szext(a, b, mode, false)
}

/// `szext.mode.s32` (§9.7.1.21): sign-extend the low `N = b` bits of `a` from bit `N-1`, with
/// the same rules for `N == 0` and `N >= 32` as [`szext_u32`].
#[inline]
pub fn szext_s32(a: i32, b: u32, mode: ClampWrap) -> i32 {
    szext(a as u32, b, mode, true) as i32
}

/// `bmsk.mode.b32` (§9.7.1.22): a mask of `b` one bits starting at bit `a`; the pseudo-code
/// transcribed, including its overflow rules for `a >= 32`, `b >= 32` and `a + b >= 32`.
#[inline]
pub fn bmsk_b32(a: u32, b: u32, mode: ClampWrap) -> u32 {
    let a1 = a & 0x1f;
    let mut mask0 = u32::MAX << a1;
    let b1 = b & 0x1f;
    let sum = a1 + b1;
    let sum_overflow = sum >= 32;
    let mut position_overflow = false;
    let mut width_overflow = false;
    if mode == ClampWrap::Clamp {
        if a >= 32 {
            position_overflow = true;
            mask0 = 0;
        }
        if b >= 32 {
            width_overflow = true;
        }
    }
    let mask1 = if sum_overflow || position_overflow || width_overflow {
        0
    } else if b1 == 0 {
        u32::MAX
    } else {
        u32::MAX << sum
    };
    mask0 & !mask1
}
