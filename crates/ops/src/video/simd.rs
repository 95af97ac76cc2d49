//! SIMD video instructions (§9.7.18.2): `vadd2 vsub2 vavrg2 vabsdiff2 vmin2 vmax2 vset2` on
//! two half-word lanes and the `4` forms on four byte lanes.
//!
//! Lane sources are chosen across both operands: the eight bytes (four half-words) of `{b, a}`
//! are numbered from the low byte of `a` (0) to the high byte of `b` (7). Each lane result is
//! optionally clamped to the lane range of `.dtype`; then either the lanes in `.mask` replace
//! the same lanes of `c` (merge) or their values are summed into `c` (`.add`).

use super::{Sign, VCmp};

/// `.asel`/`.bsel` of a 2-way SIMD instruction: for each lane, which of the four half-words of
/// `{b, a}` it takes (0, 1: `a`; 2, 3: `b`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HalfLanes {
    src: [u8; 2],
}

impl HalfLanes {
    /// `.h10`, the default `.asel`: lane 0 ← half-word 0, lane 1 ← half-word 1.
    pub const H10: HalfLanes = HalfLanes { src: [0, 1] };
    /// `.h32`, the default `.bsel`: the half-words of `b`.
    pub const H32: HalfLanes = HalfLanes { src: [2, 3] };

    /// Sources listed by lane (`src[i]` feeds lane `i`); `None` if one exceeds 3.
    pub fn new(src: [u8; 2]) -> Option<HalfLanes> {
        src.iter().all(|&s| s < 4).then_some(HalfLanes { src })
    }

    /// From the digits as written in PTX, `.hxy` → `[x, y]`: the first digit feeds lane 1.
    pub fn from_ptx_digits(digits: [u8; 2]) -> Option<HalfLanes> {
        HalfLanes::new([digits[1], digits[0]])
    }

    /// The source half-word of each lane.
    pub fn sources(self) -> [u8; 2] {
        self.src
    }
}

/// `.asel`/`.bsel` of a 4-way SIMD instruction: for each lane, which of the eight bytes of
/// `{b, a}` it takes (0–3: `a`; 4–7: `b`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ByteLanes {
    src: [u8; 4],
}

impl ByteLanes {
    /// `.b3210`, the default `.asel`: the bytes of `a` in order.
    pub const B3210: ByteLanes = ByteLanes { src: [0, 1, 2, 3] };
    /// `.b7654`, the default `.bsel`: the bytes of `b` in order.
    pub const B7654: ByteLanes = ByteLanes { src: [4, 5, 6, 7] };

    /// Sources listed by lane (`src[i]` feeds lane `i`); `None` if one exceeds 7.
    pub fn new(src: [u8; 4]) -> Option<ByteLanes> {
        src.iter().all(|&s| s < 8).then_some(ByteLanes { src })
    }

    /// From the digits as written in PTX, `.bxyzw` → `[x, y, z, w]`: the first digit feeds
    /// lane 3.
    pub fn from_ptx_digits(digits: [u8; 4]) -> Option<ByteLanes> {
        ByteLanes::new([digits[3], digits[2], digits[1], digits[0]])
    }

    /// The source byte of each lane.
    pub fn sources(self) -> [u8; 4] {
        self.src
    }
}

macro_rules! lane_mask {
    ($name:ident, $lanes:literal, $all:ident, $doc:literal, $spellings:literal) => {
        #[doc = $doc]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub struct $name(u8);

        impl $name {
            #[doc = concat!("`.", stringify!($all), "`, every lane: the default.")]
            pub const $all: $name = $name((1 << $lanes) - 1);

            /// From lane bits (bit `i` = lane `i`); `None` if a bit beyond the last lane is set.
            pub fn new(bits: u8) -> Option<$name> {
                (bits < (1 << $lanes)).then_some($name(bits))
            }

            #[doc = concat!("From the lanes as written in PTX (", $spellings, ": digits in any order); `None` if one is not a lane.")]
            pub fn from_lanes(lanes: &[u8]) -> Option<$name> {
                lanes
                    .iter()
                    .try_fold(0u8, |bits, &l| (l < $lanes).then(|| bits | (1 << l)))
                    .map($name)
            }

            /// Whether lane `i` is in the mask.
            #[inline]
            pub fn has(self, lane: usize) -> bool {
                (self.0 >> lane) & 1 == 1
            }

            /// The lane bits (bit `i` = lane `i`).
            pub fn bits(self) -> u8 {
                self.0
            }
        }
    };
}

lane_mask!(
    Mask2,
    2,
    H10,
    "`.mask` of a 2-way SIMD instruction: bit `i` set = half-word lane `i` written.",
    "`.h0`, `.h1`, `.h10`"
);
lane_mask!(
    Mask4,
    4,
    B3210,
    "`.mask` of a 4-way SIMD instruction: bit `i` set = byte lane `i` written.",
    "`.b0` … `.b3210`"
);

/// Modifiers of a 2-way SIMD instruction: `vop2.dtype.atype.btype{.sat}{.add} d{.mask},
/// a{.asel}, b{.bsel}, c`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Simd2Mode {
    /// `.dtype`: lane range for `.sat` (ignored by `vset2`).
    pub dtype: Sign,
    /// `.atype`
    pub atype: Sign,
    /// `.btype`
    pub btype: Sign,
    /// `.asel` (default [`HalfLanes::H10`]).
    pub asel: HalfLanes,
    /// `.bsel` (default [`HalfLanes::H32`]).
    pub bsel: HalfLanes,
    /// `.mask` (default [`Mask2::H10`]).
    pub mask: Mask2,
    /// `.sat` (ignored by `vset2`).
    pub sat: bool,
    /// `.add`: accumulate the masked lanes into `c` instead of merging.
    pub add: bool,
}

/// Modifiers of a 4-way SIMD instruction: `vop4.dtype.atype.btype{.sat}{.add} d{.mask},
/// a{.asel}, b{.bsel}, c`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Simd4Mode {
    /// `.dtype`: lane range for `.sat` (ignored by `vset4`).
    pub dtype: Sign,
    /// `.atype`
    pub atype: Sign,
    /// `.btype`
    pub btype: Sign,
    /// `.asel` (default [`ByteLanes::B3210`]).
    pub asel: ByteLanes,
    /// `.bsel` (default [`ByteLanes::B7654`]).
    pub bsel: ByteLanes,
    /// `.mask` (default [`Mask4::B3210`]).
    pub mask: Mask4,
    /// `.sat` (ignored by `vset4`).
    pub sat: bool,
    /// `.add`: accumulate the masked lanes into `c` instead of merging.
    pub add: bool,
}

impl Simd2Mode {
    /// All defaults with the given types: `.h10`/`.h32` selectors, `.h10` mask, merge.
    pub const fn new(dtype: Sign, atype: Sign, btype: Sign) -> Simd2Mode {
        Simd2Mode {
            dtype,
            atype,
            btype,
            asel: HalfLanes::H10,
            bsel: HalfLanes::H32,
            mask: Mask2::H10,
            sat: false,
            add: false,
        }
    }
}

impl Simd4Mode {
    /// All defaults with the given types: `.b3210`/`.b7654` selectors, `.b3210` mask, merge.
    pub const fn new(dtype: Sign, atype: Sign, btype: Sign) -> Simd4Mode {
        Simd4Mode {
            dtype,
            atype,
            btype,
            asel: ByteLanes::B3210,
            bsel: ByteLanes::B7654,
            mask: Mask4::B3210,
            sat: false,
            add: false,
        }
    }
}

/// Lane `k` (of `width` bits) of the 64-bit `{b, a}`, sign- or zero-extended.
#[inline]
fn lane(ab: u64, k: u8, width: u32, sign: Sign) -> i32 {
    let v = (ab >> (u32::from(k) * width)) as u32;
    let top = (v << (32 - width)) as i32;
    match sign {
        Sign::Signed => top >> (32 - width),
        Sign::Unsigned => ((top as u32) >> (32 - width)) as i32,
    }
}

/// The `.sat` clamp of one lane result to the `width`-bit range of `dtype`.
#[inline]
fn clamp_lane(t: i32, width: u32, dtype: Sign) -> i32 {
    match dtype {
        Sign::Signed => t.clamp(-(1 << (width - 1)), (1 << (width - 1)) - 1),
        Sign::Unsigned => t.clamp(0, (1 << width) - 1),
    }
}

/// Secondary accumulate (`.add`: `c + Σ masked t[i]`) or SIMD merge of lane results.
#[inline]
fn combine<const N: usize>(
    t: [i32; N],
    width: u32,
    c: u32,
    add: bool,
    has: impl Fn(usize) -> bool,
) -> u32 {
    // width is 8 or 16.
    let lane_mask = (1u32 << width) - 1;
    let mut d = if add { c } else { 0 };
    for (i, &ti) in t.iter().enumerate() {
        let shift = width * i as u32;
        if add {
            if has(i) {
                d = d.wrapping_add(ti as u32);
            }
        } else if has(i) {
            d |= ((ti as u32) & lane_mask) << shift;
        } else {
            d |= c & (lane_mask << shift);
        }
    }
    d
}

/// The 2-way SIMD pipeline with lane operation `op`.
#[inline(always)]
fn simd2(a: u32, b: u32, c: u32, m: Simd2Mode, sat: bool, op: impl Fn(i32, i32) -> i32) -> u32 {
    let ab = (u64::from(b) << 32) | u64::from(a);
    let mut t = [0i32; 2];
    for (i, ti) in t.iter_mut().enumerate() {
        let va = lane(ab, m.asel.src[i], 16, m.atype);
        let vb = lane(ab, m.bsel.src[i], 16, m.btype);
        *ti = op(va, vb);
        if sat {
            *ti = clamp_lane(*ti, 16, m.dtype);
        }
    }
    combine(t, 16, c, m.add, |i| m.mask.has(i))
}

/// The 4-way SIMD pipeline with lane operation `op`.
#[inline(always)]
fn simd4(a: u32, b: u32, c: u32, m: Simd4Mode, sat: bool, op: impl Fn(i32, i32) -> i32) -> u32 {
    let ab = (u64::from(b) << 32) | u64::from(a);
    let mut t = [0i32; 4];
    for (i, ti) in t.iter_mut().enumerate() {
        let va = lane(ab, m.asel.src[i], 8, m.atype);
        let vb = lane(ab, m.bsel.src[i], 8, m.btype);
        *ti = op(va, vb);
        if sat {
            *ti = clamp_lane(*ti, 8, m.dtype);
        }
    }
    combine(t, 8, c, m.add, |i| m.mask.has(i))
}

/// `vavrg`: `(s + 1) >> 1` for a non-negative sum `s`, `s >> 1` (toward −∞) otherwise, so
/// halves round up for non-negative sums and down for negative ones.
#[inline]
fn avrg(x: i32, y: i32) -> i32 {
    let s = x + y;
    if s >= 0 {
        (s + 1) >> 1
    } else {
        s >> 1
    }
}

macro_rules! simd_ops {
    ($($name2:ident, $name4:ident, $doc:literal, $op:expr;)*) => {$(
        #[doc = concat!("`", stringify!($name2), "` (§9.7.18.2.1): ", $doc, " on two half-word lanes.")]
        #[inline]
        pub fn $name2(a: u32, b: u32, c: u32, m: Simd2Mode) -> u32 {
            simd2(a, b, c, m, m.sat, $op)
        }
        #[doc = concat!("`", stringify!($name4), "` (§9.7.18.2.3): ", $doc, " on four byte lanes.")]
        #[inline]
        pub fn $name4(a: u32, b: u32, c: u32, m: Simd4Mode) -> u32 {
            simd4(a, b, c, m, m.sat, $op)
        }
    )*};
}

simd_ops! {
    vadd2, vadd4, "`Va[i] + Vb[i]`", |x, y| x + y;
    vsub2, vsub4, "`Va[i] - Vb[i]`", |x, y| x - y;
    vavrg2, vavrg4, "the average `(Va[i] + Vb[i] + 1) >> 1` (or `>> 1` without the `+ 1` for a negative sum)", avrg;
    vabsdiff2, vabsdiff4, "`|Va[i] - Vb[i]|`", |x: i32, y: i32| (x - y).abs();
    vmin2, vmin4, "`MIN(Va[i], Vb[i])`", |x: i32, y: i32| x.min(y);
    vmax2, vmax4, "`MAX(Va[i], Vb[i])`", |x: i32, y: i32| x.max(y);
}

/// `vset2.cmp` (§9.7.18.2.2): lanes `compare(Va[i], Vb[i]) ? 1 : 0`, merged or accumulated;
/// `m.dtype` and `m.sat` are ignored. Unmasked lanes come from `c` (the pseudo-code; the prose
/// says `b`, see spec notes).
#[inline]
pub fn vset2(a: u32, b: u32, c: u32, m: Simd2Mode, cmp: VCmp) -> u32 {
    simd2(a, b, c, m, false, |x, y| {
        i32::from(cmp.eval(i64::from(x), i64::from(y)))
    })
}

/// `vset4.cmp` (§9.7.18.2.4): lanes `compare(Va[i], Vb[i]) ? 1 : 0`, merged or accumulated;
/// `m.dtype` and `m.sat` are ignored. Unmasked lanes come from `c` (see [`vset2`]).
#[inline]
pub fn vset4(a: u32, b: u32, c: u32, m: Simd4Mode, cmp: VCmp) -> u32 {
    simd4(a, b, c, m, false, |x, y| {
        i32::from(cmp.eval(i64::from(x), i64::from(y)))
    })
}
