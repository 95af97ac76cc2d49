//! Scalar video instructions: `vadd vsub vabsdiff vmin vmax vshl vshr vset` (§9.7.18.1).
//!
//! Stages, as in the spec: extract parts to `.s33` ([`part_select_sign_extend`]), compute the
//! primary operation exactly, `optSaturate` by destination type and `.dsel` size, then either
//! the secondary operation with `c` or the merge into `c` by `.dsel`; the low 32 bits are the
//! result.

use super::{part_select_sign_extend, ClampWrap, PartSel, Sign, VCmp};

/// What follows the primary operation and saturation: the secondary operation `.op2` with
/// `c` (`.add/.min/.max`), or the data merge into `c` selected by `.dsel`. These are
/// alternatives in the syntax, so one value holds either.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VideoSecondary {
    /// Neither: `d` is the (saturated) intermediate result.
    None,
    /// `.add`: `tmp + c`.
    Add,
    /// `.min`: `MIN(tmp, c)`.
    Min,
    /// `.max`: `MAX(tmp, c)`.
    Max,
    /// `d.dsel`: the low byte/half-word of `tmp` replaces that part of `c`; saturation (if
    /// any) clamps to the part's range. `Merge(PartSel::Word)` is the same as `None`.
    Merge(PartSel),
}

/// The modifiers of a scalar video instruction: `.dtype.atype.btype{.sat}`, `a.asel`,
/// `b.bsel` and the secondary operation or merge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VideoScalar {
    /// `.dtype`: signedness of the result, of saturation and of `c`.
    pub dtype: Sign,
    /// `.atype`
    pub atype: Sign,
    /// `.btype` (ignored by `vshl`/`vshr`, whose `b` is always `.u32`).
    pub btype: Sign,
    /// `.asel` ([`PartSel::Word`] if absent).
    pub asel: PartSel,
    /// `.bsel` ([`PartSel::Word`] if absent).
    pub bsel: PartSel,
    /// `.sat`
    pub sat: bool,
    /// `.op2` or `.dsel` merge.
    pub secondary: VideoSecondary,
}

impl VideoScalar {
    /// `.u32.u32.u32`, no selectors, no saturation, no secondary operation.
    pub const U32: VideoScalar = VideoScalar::new(Sign::Unsigned, Sign::Unsigned, Sign::Unsigned);

    /// The given types with no selectors, no saturation and no secondary operation.
    pub const fn new(dtype: Sign, atype: Sign, btype: Sign) -> VideoScalar {
        VideoScalar {
            dtype,
            atype,
            btype,
            asel: PartSel::Word,
            bsel: PartSel::Word,
            sat: false,
            secondary: VideoSecondary::None,
        }
    }
}

/// Wraps to a signed 33-bit value: `optSaturate` returns `.s33`, so an unsaturated
/// intermediate keeps only its low 33 bits (this matters only to `.min`/`.max`).
#[inline]
fn wrap_s33(x: i64) -> i64 {
    (x << 31) >> 31
}

/// `optSaturate(tmp, sat, sign, dsel)` of §9.7.18.1.
#[inline]
fn opt_saturate(tmp: i64, sat: bool, signed: bool, dsel: PartSel) -> i64 {
    if !sat {
        return wrap_s33(tmp);
    }
    let (lo, hi): (i64, i64) = match (dsel, signed) {
        (PartSel::B0 | PartSel::B1 | PartSel::B2 | PartSel::B3, true) => (-128, 127),
        (PartSel::B0 | PartSel::B1 | PartSel::B2 | PartSel::B3, false) => (0, 255),
        (PartSel::H0 | PartSel::H1, true) => (-32768, 32767),
        (PartSel::H0 | PartSel::H1, false) => (0, 65535),
        (PartSel::Word, true) => (i64::from(i32::MIN), i64::from(i32::MAX)),
        (PartSel::Word, false) => (0, i64::from(u32::MAX)),
    };
    tmp.clamp(lo, hi)
}

/// `optMerge(dsel, tmp, c)` of §9.7.18.1.
#[inline]
fn opt_merge(dsel: PartSel, tmp: i64, c: u32) -> u32 {
    let t = tmp as u32;
    match dsel {
        PartSel::H0 => (t & 0xffff) | (0xffff_0000 & c),
        PartSel::H1 => ((t & 0xffff) << 16) | (0x0000_ffff & c),
        PartSel::B0 => (t & 0xff) | (0xffff_ff00 & c),
        PartSel::B1 => ((t & 0xff) << 8) | (0xffff_00ff & c),
        PartSel::B2 => ((t & 0xff) << 16) | (0xff00_ffff & c),
        PartSel::B3 => ((t & 0xff) << 24) | (0x00ff_ffff & c),
        PartSel::Word => t,
    }
}

/// Saturation, then the secondary operation or merge; the low 32 bits of the result.
#[inline]
fn finish(tmp: i64, c: u32, dtype: Sign, sat: bool, secondary: VideoSecondary) -> u32 {
    let dsel = match secondary {
        VideoSecondary::Merge(sel) => sel,
        _ => PartSel::Word,
    };
    let tmp = opt_saturate(tmp, sat, dtype.is_signed(), dsel);
    // "The sign of the third operand is based on dtype."
    let c33 = part_select_sign_extend(c, dtype, PartSel::Word);
    match secondary {
        VideoSecondary::None => tmp as u32,
        VideoSecondary::Add => tmp.wrapping_add(c33) as u32,
        VideoSecondary::Min => tmp.min(c33) as u32,
        VideoSecondary::Max => tmp.max(c33) as u32,
        VideoSecondary::Merge(sel) => opt_merge(sel, tmp, c),
    }
}

/// The operands `ta`, `tb` of the primary operation.
#[inline]
fn operands(a: u32, b: u32, m: VideoScalar) -> (i64, i64) {
    (
        part_select_sign_extend(a, m.atype, m.asel),
        part_select_sign_extend(b, m.btype, m.bsel),
    )
}

/// `vadd` (§9.7.18.1.1): `ta + tb`. `c` is read only by a secondary operation or merge.
#[inline]
pub fn vadd(a: u32, b: u32, c: u32, m: VideoScalar) -> u32 {
    let (ta, tb) = operands(a, b, m);
    finish(ta + tb, c, m.dtype, m.sat, m.secondary)
}

/// `vsub` (§9.7.18.1.1): `ta - tb`.
#[inline]
pub fn vsub(a: u32, b: u32, c: u32, m: VideoScalar) -> u32 {
    let (ta, tb) = operands(a, b, m);
    finish(ta - tb, c, m.dtype, m.sat, m.secondary)
}

/// `vabsdiff` (§9.7.18.1.1): `|ta - tb|`.
#[inline]
pub fn vabsdiff(a: u32, b: u32, c: u32, m: VideoScalar) -> u32 {
    let (ta, tb) = operands(a, b, m);
    finish((ta - tb).abs(), c, m.dtype, m.sat, m.secondary)
}

/// `vmin` (§9.7.18.1.1): `MIN(ta, tb)`.
#[inline]
pub fn vmin(a: u32, b: u32, c: u32, m: VideoScalar) -> u32 {
    let (ta, tb) = operands(a, b, m);
    finish(ta.min(tb), c, m.dtype, m.sat, m.secondary)
}

/// `vmax` (§9.7.18.1.1): `MAX(ta, tb)`.
#[inline]
pub fn vmax(a: u32, b: u32, c: u32, m: VideoScalar) -> u32 {
    let (ta, tb) = operands(a, b, m);
    finish(ta.max(tb), c, m.dtype, m.sat, m.secondary)
}

/// The shift amount of `vshl`/`vshr`: `b.bsel` as `.u32`, clamped to 32 or taken mod 32.
#[inline]
fn shift_amount(b: u32, bsel: PartSel, mode: ClampWrap) -> u32 {
    let tb = part_select_sign_extend(b, Sign::Unsigned, bsel) as u32;
    match mode {
        ClampWrap::Clamp => tb.min(32),
        ClampWrap::Wrap => tb & 0x1f,
    }
}

/// A left-shifted value (up to 65 bits) as the `i64` that [`finish`] takes: clamped when it
/// will be saturated (every saturation range lies inside `i64`, so the clamp changes nothing),
/// else its low 64 bits (only the low 33 bits are used then).
#[inline]
fn shifted_to_i64(x: i128, sat: bool) -> i64 {
    if sat {
        x.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
    } else {
        x as i64
    }
}

/// `vshl.mode` (§9.7.18.1.2): `ta << tb`, zero fill. The shifted value is kept exactly (up to
/// 65 bits), so `.sat` clamps the true value (see spec notes).
#[inline]
pub fn vshl(a: u32, b: u32, c: u32, m: VideoScalar, mode: ClampWrap) -> u32 {
    let ta = i128::from(part_select_sign_extend(a, m.atype, m.asel));
    let tb = shift_amount(b, m.bsel, mode);
    finish(
        shifted_to_i64(ta << tb, m.sat),
        c,
        m.dtype,
        m.sat,
        m.secondary,
    )
}

/// `vshr.mode` (§9.7.18.1.2): `ta >> tb`, filling with the sign of `ta` (zero for `.u32`
/// `atype`).
#[inline]
pub fn vshr(a: u32, b: u32, c: u32, m: VideoScalar, mode: ClampWrap) -> u32 {
    let ta = part_select_sign_extend(a, m.atype, m.asel);
    let tb = shift_amount(b, m.bsel, mode);
    finish(ta >> tb, c, m.dtype, m.sat, m.secondary)
}

/// `vset.cmp` (§9.7.18.1.4): `compare(ta, tb) ? 1 : 0`. The result and `c` are unsigned, and
/// there is no saturation: `m.dtype` and `m.sat` are ignored.
#[inline]
pub fn vset(a: u32, b: u32, c: u32, m: VideoScalar, cmp: VCmp) -> u32 {
    let ta = part_select_sign_extend(a, m.atype, m.asel);
    let tb = part_select_sign_extend(b, m.btype, m.bsel);
    let tmp = i64::from(cmp.eval(ta, tb));
    finish(tmp, c, Sign::Unsigned, false, m.secondary)
}
