//! The packed `.u16x2` / `.s16x2` forms of `add`, `min` and `max` (§9.7.1.1, 12, 13): two
//! independent half-word lanes, `a[0:15]` and `a[16:31]`, in one `.b32` register.

/// Applies `f` to the low and high half-word lanes of `a` and `b` and repacks the results.
#[inline]
fn lanes(a: u32, b: u32, f: impl Fn(u16, u16) -> u16) -> u32 {
    let lo = f(a as u16, b as u16);
    let hi = f((a >> 16) as u16, (b >> 16) as u16);
    u32::from(lo) | (u32::from(hi) << 16)
}

/// `add.u16x2` (§9.7.1.1): lane-wise sum modulo 2^16.
#[inline]
pub fn add_u16x2(a: u32, b: u32) -> u32 {
    lanes(a, b, u16::wrapping_add)
}

/// `add.s16x2` (§9.7.1.1): lane-wise sum modulo 2^16 (same bits as `.u16x2`).
#[inline]
pub fn add_s16x2(a: u32, b: u32) -> u32 {
    add_u16x2(a, b)
}

/// `min.u16x2` (§9.7.1.12): lane-wise unsigned minimum.
#[inline]
pub fn min_u16x2(a: u32, b: u32) -> u32 {
    lanes(a, b, |x, y| x.min(y))
}

/// `max.u16x2` (§9.7.1.13): lane-wise unsigned maximum.
#[inline]
pub fn max_u16x2(a: u32, b: u32) -> u32 {
    lanes(a, b, |x, y| x.max(y))
}

/// `min.s16x2` (§9.7.1.12): lane-wise signed minimum.
#[inline]
pub fn min_s16x2(a: u32, b: u32) -> u32 {
    lanes(a, b, |x, y| (x as i16).min(y as i16) as u16)
}

/// `max.s16x2` (§9.7.1.13): lane-wise signed maximum.
#[inline]
pub fn max_s16x2(a: u32, b: u32) -> u32 {
    lanes(a, b, |x, y| (x as i16).max(y as i16) as u16)
}

/// `min.relu.s16x2` (§9.7.1.12): lane-wise signed minimum, negative lanes clamped to 0.
#[inline]
pub fn min_relu_s16x2(a: u32, b: u32) -> u32 {
    lanes(a, b, |x, y| (x as i16).min(y as i16).max(0) as u16)
}

/// `max.relu.s16x2` (§9.7.1.13): lane-wise signed maximum, negative lanes clamped to 0.
#[inline]
pub fn max_relu_s16x2(a: u32, b: u32) -> u32 {
    lanes(a, b, |x, y| (x as i16).max(y as i16).max(0) as u16)
}
