//! Integer arithmetic: `ptx-integer-arithmetic.md` §9.7.1 and `ptx-isa-1.1.txt` §7.7.1.
//!
//! | PTX instruction | functions | spec section |
//! |---|---|---|
//! | `add`, `sub` (`.sat.s32`, `.u16x2/.s16x2`) | [`add`], [`sub`], [`add_sat_s32`], [`sub_sat_s32`], [`add_u16x2`], [`add_s16x2`] | 9.7.1.1–2 |
//! | `mul.{lo,hi,wide}` | [`mul_lo`], [`mul_hi`], [`mul_wide`] | 9.7.1.3 |
//! | `mad.{lo,hi,wide}`, `mad.hi.sat.s32` | [`mad_lo`], [`mad_hi`], [`mad_wide`], [`mad_hi_sat_s32`] | 9.7.1.4 |
//! | `mul24`, `mad24` | [`mul24_lo_u32`], [`mul24_hi_u32`], [`mul24_lo_s32`], [`mul24_hi_s32`], [`mad24_lo_u32`], [`mad24_hi_u32`], [`mad24_lo_s32`], [`mad24_hi_s32`], [`mad24_hi_sat_s32`] | 9.7.1.5–6 |
//! | `sad` | [`sad`] | 9.7.1.7 |
//! | `div`, `rem` (and PTX 1.1 `.wide`) | [`div`], [`rem`], [`div_wide`], [`rem_wide`] | 9.7.1.8–9, 1.1 Tables 23–24 |
//! | `abs`, `neg` | [`abs`], [`neg`] | 9.7.1.10–11 |
//! | `min`, `max` (`.relu`, `.u16x2/.s16x2`) | [`min`], [`max`], [`min_relu_s32`], [`max_relu_s32`], [`min_u16x2`], [`min_s16x2`], [`max_u16x2`], [`max_s16x2`], [`min_relu_s16x2`], [`max_relu_s16x2`] | 9.7.1.12–13 |
//! | `popc`, `clz`, `brev` | [`popc_b32`], [`popc_b64`], [`clz_b32`], [`clz_b64`], [`brev_b32`], [`brev_b64`] | 9.7.1.14, 15, 18 |
//! | `bfind` (`.shiftamt`) | [`bfind`], [`bfind_shiftamt`] | 9.7.1.16 |
//! | `fns` | [`fns_b32`] | 9.7.1.17 |
//! | `bfe`, `bfi` | [`bfe`], [`bfi`] | 9.7.1.19–20 |
//! | `szext`, `bmsk` (`.clamp/.wrap`) | [`szext_u32`], [`szext_s32`], [`bmsk_b32`] | 9.7.1.21–22 |
//! | `dp4a`, `dp2a` | [`dp4a`], [`dp2a`] | 9.7.1.23–24 |
//! | (Fermi `IMUL`/`IMAD` with one `.u32` and one `.s32` source) | [`mul_wide_mixed`] | — |
//!
//! Functions are generic over the sealed [`Int`] trait (`u16 i16 u32 i32 u64 i64`, the PTX
//! `.u16 … .s64` types) or monomorphic where the spec allows only one type. The signedness of
//! the Rust type is the signedness of the PTX type (`mul.hi.s32` is `mul_hi::<i32>`). Every
//! function is total: wrapping arithmetic, defined results for division by zero, shift
//! amounts up to 255 and beyond. Decisions on what the spec leaves machine-specific are in
//! `docs/spec-notes.md`.

mod arith;
mod bits;
mod divrem;
mod dot;
mod mixed;
mod num;
mod pair;

pub use arith::*;
pub use bits::*;
pub use divrem::*;
pub use dot::*;
pub use mixed::*;
pub use num::{Int, Widen};
pub use pair::*;

/// Signedness of a 32-bit operand type (`.u32` / `.s32`) where an instruction takes it as a
/// modifier rather than as its operation type: `dp4a.atype.btype`, and the video instructions'
/// `.dtype.atype.btype`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sign {
    /// `.u32`: parts are zero-extended.
    Unsigned,
    /// `.s32`: parts are sign-extended.
    Signed,
}

impl Sign {
    /// `true` for `.s32`.
    #[inline]
    pub fn is_signed(self) -> bool {
        matches!(self, Sign::Signed)
    }
}

/// The `.mode` of `szext`, `bmsk` (§9.7.1.21–22) and of `vshl`/`vshr` (§9.7.18.1.2): what an
/// out-of-range bit count or shift amount means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClampWrap {
    /// `.clamp`: amounts beyond the range saturate.
    Clamp,
    /// `.wrap`: amounts are taken modulo 32.
    Wrap,
}
