//! Video instructions (`ptx-video.md` §9.7.18).
//!
//! | PTX instruction | functions | spec section |
//! |---|---|---|
//! | `vadd vsub vabsdiff vmin vmax` | [`vadd`], [`vsub`], [`vabsdiff`], [`vmin`], [`vmax`] | 9.7.18.1.1 |
//! | `vshl vshr` (`.clamp/.wrap`) | [`vshl`], [`vshr`] | 9.7.18.1.2 |
//! | `vmad` (`.po`, negation, `.shr7/.shr15`) | [`vmad`] | 9.7.18.1.3 |
//! | `vset` | [`vset`] | 9.7.18.1.4 |
//! | `vadd2 vsub2 vavrg2 vabsdiff2 vmin2 vmax2` | [`vadd2`], [`vsub2`], [`vavrg2`], [`vabsdiff2`], [`vmin2`], [`vmax2`] | 9.7.18.2.1 |
//! | `vset2` | [`vset2`] | 9.7.18.2.2 |
//! | `vadd4 vsub4 vavrg4 vabsdiff4 vmin4 vmax4` | [`vadd4`], [`vsub4`], [`vavrg4`], [`vabsdiff4`], [`vmin4`], [`vmax4`] | 9.7.18.2.3 |
//! | `vset4` | [`vset4`] | 9.7.18.2.4 |
//!
//! Modifiers are small `Copy` values ([`VideoScalar`], [`VmadMode`], [`Simd2Mode`],
//! [`Simd4Mode`], selectors [`PartSel`], [`HalfLanes`], [`ByteLanes`], masks [`Mask2`],
//! [`Mask4`]) that the executor decodes once at load time and passes by value; the functions
//! are `#[inline]` so a call with a constant mode specialises. Every function follows the
//! spec's pseudo-code; where it and the prose disagree the pseudo-code wins, and those places
//! are listed in `docs/spec-notes.md`.

mod scalar;
mod simd;
mod vmad;

pub use crate::int::{ClampWrap, Sign};
pub use scalar::*;
pub use simd::*;
pub use vmad::*;

/// A part selector of a scalar video instruction: `.asel`, `.bsel` and `.dsel`
/// (`{ .b0, .b1, .b2, .b3, .h0, .h1 }`), or [`PartSel::Word`] when the operand has none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PartSel {
    /// `.b0`: bits 7..0.
    B0,
    /// `.b1`: bits 15..8.
    B1,
    /// `.b2`: bits 23..16.
    B2,
    /// `.b3`: bits 31..24.
    B3,
    /// `.h0`: bits 15..0.
    H0,
    /// `.h1`: bits 31..16.
    H1,
    /// No selector: the whole 32-bit word.
    Word,
}

impl PartSel {
    /// `.b0` … `.b3` from the byte number; `None` above 3.
    pub fn byte(n: u8) -> Option<PartSel> {
        match n {
            0 => Some(PartSel::B0),
            1 => Some(PartSel::B1),
            2 => Some(PartSel::B2),
            3 => Some(PartSel::B3),
            _ => None,
        }
    }

    /// `.h0`, `.h1` from the half-word number; `None` above 1.
    pub fn half(n: u8) -> Option<PartSel> {
        match n {
            0 => Some(PartSel::H0),
            1 => Some(PartSel::H1),
            _ => None,
        }
    }
}

/// Comparison of `vset`, `vset2`, `vset4` (`.cmp = { .eq, .ne, .lt, .le, .gt, .ge }`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VCmp {
    /// `.eq`
    Eq,
    /// `.ne`
    Ne,
    /// `.lt`
    Lt,
    /// `.le`
    Le,
    /// `.gt`
    Gt,
    /// `.ge`
    Ge,
}

impl VCmp {
    /// `compare(a, b, cmp)` of the pseudo-code on the extended (exact) values.
    #[inline]
    pub fn eval(self, a: i64, b: i64) -> bool {
        match self {
            VCmp::Eq => a == b,
            VCmp::Ne => a != b,
            VCmp::Lt => a < b,
            VCmp::Le => a <= b,
            VCmp::Gt => a > b,
            VCmp::Ge => a >= b,
        }
    }
}

/// Extracts the part of `x` chosen by `sel` and sign- or zero-extends it:
/// `partSelectSignExtend(x, type, sel)` of §9.7.18.1, giving an `.s33` value.
#[inline]
pub fn part_select_sign_extend(x: u32, sign: Sign, sel: PartSel) -> i64 {
    let (shift, width) = match sel {
        PartSel::B0 => (0, 8),
        PartSel::B1 => (8, 8),
        PartSel::B2 => (16, 8),
        PartSel::B3 => (24, 8),
        PartSel::H0 => (0, 16),
        PartSel::H1 => (16, 16),
        PartSel::Word => (0, 32),
    };
    // Move the part to the top of an i64, then shift back down: arithmetic for signed types.
    let top = (u64::from(x >> shift) << (64 - width)) as i64;
    match sign {
        Sign::Signed => top >> (64 - width),
        Sign::Unsigned => ((top as u64) >> (64 - width)) as i64,
    }
}
