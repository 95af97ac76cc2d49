//! Lane loops: one operation over the 32 lanes of a warp, selected once per warp-instruction.
//!
//! Each helper computes all 32 lanes into a local array (so the loop is branch-free and
//! vectorisable; inactive lanes compute garbage that is never written) and then writes back
//! either the whole row (all live lanes active) or only the active lanes.

pub const LANES: usize = 32;
pub type Row32 = [u32; LANES];
pub type Row64 = [u64; LANES];

/// A carry-chain operation over every lane: lane `i` takes its carry-in from bit `i` of `cin`,
/// and its carry-out becomes bit `i` of the returned mask.
#[inline(always)]
pub fn carry_lanes<T: Copy + Default>(
    a: &[T; LANES],
    b: &[T; LANES],
    c: &[T; LANES],
    cin: u32,
    f: impl Fn(T, T, T, bool) -> (T, bool),
) -> ([T; LANES], u32) {
    let mut out = [T::default(); LANES];
    let mut cout = 0u32;
    for (i, (o, ((&a, &b), &c))) in out.iter_mut().zip(a.iter().zip(b).zip(c)).enumerate() {
        let (r, co) = f(a, b, c, cin >> i & 1 != 0);
        *o = r;
        cout |= u32::from(co) << i;
    }
    (out, cout)
}

/// Write `v` into `row` for the lanes in `mask`; `all` means every lane that matters is in the
/// mask, so the whole row may be overwritten.
#[inline(always)]
pub fn write<T: Copy>(row: &mut [T; LANES], v: &[T; LANES], mask: u32, all: bool) {
    if all {
        *row = *v;
    } else {
        for (i, (r, x)) in row.iter_mut().zip(v.iter()).enumerate() {
            if mask >> i & 1 != 0 {
                *r = *x;
            }
        }
    }
}

#[inline(always)]
pub fn map1<T: Copy + Default, U: Copy + Default>(
    a: &[T; LANES],
    f: impl Fn(T) -> U,
) -> [U; LANES] {
    let mut out = [U::default(); LANES];
    for (o, &x) in out.iter_mut().zip(a.iter()) {
        *o = f(x);
    }
    out
}

#[inline(always)]
pub fn map2<T: Copy + Default, U: Copy + Default>(
    a: &[T; LANES],
    b: &[T; LANES],
    f: impl Fn(T, T) -> U,
) -> [U; LANES] {
    let mut out = [U::default(); LANES];
    for ((o, &x), &y) in out.iter_mut().zip(a.iter()).zip(b.iter()) {
        *o = f(x, y);
    }
    out
}

#[inline(always)]
pub fn map2s<T: Copy + Default, U: Copy + Default>(
    a: &[T; LANES],
    b: T,
    f: impl Fn(T, T) -> U,
) -> [U; LANES] {
    let mut out = [U::default(); LANES];
    for (o, &x) in out.iter_mut().zip(a.iter()) {
        *o = f(x, b);
    }
    out
}

#[inline(always)]
pub fn map3<T: Copy + Default, U: Copy + Default>(
    a: &[T; LANES],
    b: &[T; LANES],
    c: &[T; LANES],
    f: impl Fn(T, T, T) -> U,
) -> [U; LANES] {
    let mut out = [U::default(); LANES];
    for (((o, &x), &y), &z) in out.iter_mut().zip(a.iter()).zip(b.iter()).zip(c.iter()) {
        *o = f(x, y, z);
    }
    out
}

/// Bits of `f(lane)` gathered into a lane mask.
#[inline(always)]
pub fn mask_of<T: Copy>(a: &[T; LANES], b: &[T; LANES], f: impl Fn(T, T) -> bool) -> u32 {
    let mut m = 0u32;
    for (i, (&x, &y)) in a.iter().zip(b.iter()).enumerate() {
        m |= (f(x, y) as u32) << i;
    }
    m
}
