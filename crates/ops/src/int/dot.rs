//! `dp4a` and `dp2a` (§9.7.1.23–24): byte and half-word dot products accumulated into 32 bits.

use super::Sign;

/// Which half of `b` `dp2a` multiplies with: `.lo` (bytes 0, 1) or `.hi` (bytes 2, 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dp2aMode {
    /// `.lo`: `b_select = 0`.
    Lo,
    /// `.hi`: `b_select = 2`.
    Hi,
}

/// Byte `i` of `x`, sign- or zero-extended.
#[inline]
fn byte(x: u32, i: u32, sign: Sign) -> i32 {
    let b = (x >> (8 * i)) as u8;
    match sign {
        Sign::Unsigned => i32::from(b),
        Sign::Signed => i32::from(b as i8),
    }
}

/// Half-word `i` of `x`, sign- or zero-extended.
#[inline]
fn half(x: u32, i: u32, sign: Sign) -> i32 {
    let h = (x >> (16 * i)) as u16;
    match sign {
        Sign::Unsigned => i32::from(h),
        Sign::Signed => i32::from(h as i16),
    }
}

/// `dp4a.atype.btype` (§9.7.1.23): `c + Σ a.byte[i] * b.byte[i]` modulo 2^32, each byte sign-
/// or zero-extended by its operand's type. The 32-bit result has the same bits whether `c` and
/// `d` are `.u32` or `.s32`.
#[inline]
pub fn dp4a(a: u32, b: u32, c: u32, atype: Sign, btype: Sign) -> u32 {
    let mut d = c;
    for i in 0..4 {
        // |byte product| <= 255 * 255, so the i32 product is exact.
        d = d.wrapping_add((byte(a, i, atype) * byte(b, i, btype)) as u32);
    }
    d
}

/// `dp2a.mode.atype.btype` (§9.7.1.24): `c + Σ a.half[i] * b.byte[sel + i]` modulo 2^32 with
/// `sel` 0 for `.lo` and 2 for `.hi`.
#[inline]
pub fn dp2a(a: u32, b: u32, c: u32, atype: Sign, btype: Sign, mode: Dp2aMode) -> u32 {
    let sel = match mode {
        Dp2aMode::Lo => 0,
        Dp2aMode::Hi => 2,
    };
    let mut d = c;
    for i in 0..2 {
        // |half * byte| <= 65535 * 255 < 2^31, so the i32 product is exact.
        d = d.wrapping_add((half(a, i, atype) * byte(b, sel + i, btype)) as u32);
    }
    d
}
