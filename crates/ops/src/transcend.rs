//! `rcp sqrt rsqrt sin cos lg2 ex2` (`ptx-isa-1.1.txt` §7.7.8, Tables 53–59, plus the modern
//! `.approx`, `.rnd` and `.ftz` forms).
//!
//! Accuracy (the manual's bounds, their passages and the measured errors are in
//! `docs/spec-notes.md` and `docs/approx.md`; `tests/approx` checks them):
//! - `rcp.rnd`, `sqrt.rnd` (f32 and f64, all four roundings): correctly rounded (IEEE 754).
//! - `rcp.approx.f32`, `sqrt.approx.f32`: the correctly rounded `.rn` result (the manual allows
//!   1 ulp and 2^-23 relative).
//! - `rsqrt.approx.f32`: `1/sqrt(a)` evaluated in f64 and rounded once (≤ 2^-24 relative; the
//!   manual allows 2^-22.9); `rsqrt.approx.f64`: two f64 roundings (≤ 2^-52 relative).
//! - `rcp.approx.ftz.f64`, `rsqrt.approx.ftz.f64`: the manual's high-word definition
//!   ([`rcp_approx_ftz_f64`], [`rsqrt_approx_ftz_f64`]).
//! - `sin cos lg2 ex2 .approx.f32`: the host's f64 function (error < 1 f64 ulp), rounded to f32:
//!   faithful (error < 1 f32 ulp, almost always correctly rounded), far inside the manual's
//!   bounds. Hardware MUFU results differ in the low bits; no bit-exact model of them is
//!   attempted.
//!
//! NaN results are the canonical NaN of [`crate::float`] ([`NAN_F64_HIGH_WORD`] for the
//! high-word f64 forms).

use crate::float::{
    canon_f32 as canon32, canon_f64 as canon64, flush_f64, ftz_if as ftz32, soft, Rounding, NAN_F64,
};

/// `.approx` or an IEEE rounding of `rcp`/`sqrt`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Precision {
    /// `.approx` (and PTX 1.1's unsuffixed `rcp.f32`/`sqrt.f32`).
    Approx,
    /// `.rn .rz .rm .rp`: IEEE 754 correctly rounded.
    Rounded(Rounding),
}

/// Input flush, computation, canonical NaN and output flush shared by the f32 forms.
#[inline]
fn unary32(a: f32, ftz: bool, op: impl FnOnce(f32) -> f32) -> f32 {
    ftz32(canon32(op(ftz32(a, ftz))), ftz)
}

/// `rcp{.approx,.rnd}{.ftz}.f32 d, a` (Table 53): `1/a`.
#[inline]
pub fn rcp_f32(a: f32, p: Precision, ftz: bool) -> f32 {
    unary32(a, ftz, |a| match p {
        Precision::Approx | Precision::Rounded(Rounding::Rn) => 1.0 / a,
        Precision::Rounded(rnd) => crate::float::eft::div_f32(1.0, a, rnd),
    })
}

/// `rcp.rnd.f64 d, a`; `Approx`: the correctly rounded reciprocal with operand and result
/// flushed. The executor lowers both `rcp.approx.ftz.f64` and PTX 1.x's `rcp.f64` (which the
/// manual says "defaults to `rcp.rn.f64`") to `Approx`, so this keeps the `.rn` value;
/// [`rcp_approx_ftz_f64`] is the manual's high-word definition of `rcp.approx.ftz.f64`.
#[inline]
pub fn rcp_f64(a: f64, p: Precision) -> f64 {
    canon64(match p {
        Precision::Approx => flush_f64(1.0 / flush_f64(a)),
        Precision::Rounded(Rounding::Rn) => 1.0 / a,
        Precision::Rounded(rnd) => f64::from_bits(soft::div_bits(
            1f64.to_bits(),
            a.to_bits(),
            rnd,
            soft::F64,
            NAN_F64,
        )),
    })
}

/// `sqrt{.approx,.rnd}{.ftz}.f32 d, a` (Table 54): negative → NaN, `sqrt(-0) = -0`.
#[inline]
pub fn sqrt_f32(a: f32, p: Precision, ftz: bool) -> f32 {
    unary32(a, ftz, |a| match p {
        Precision::Approx | Precision::Rounded(Rounding::Rn) => a.sqrt(),
        Precision::Rounded(rnd) => crate::float::eft::sqrt_f32(a, rnd),
    })
}

/// `sqrt.rnd.f64 d, a` (Table 54).
#[inline]
pub fn sqrt_f64(a: f64, rnd: Rounding) -> f64 {
    canon64(match rnd {
        Rounding::Rn => a.sqrt(),
        _ => f64::from_bits(soft::sqrt_bits(a.to_bits(), rnd, soft::F64, NAN_F64)),
    })
}

/// `rsqrt{.approx}{.ftz}.f32 d, a` (Table 55): `1/sqrt(a)`; `+0 → +Inf`, `-0 → -Inf`
/// (the pseudo-code's value; see the spec notes), negative → NaN, `+Inf → +0`.
#[inline]
pub fn rsqrt_f32(a: f32, ftz: bool) -> f32 {
    unary32(a, ftz, |a| (1.0 / f64::from(a).sqrt()) as f32)
}

/// `rsqrt.approx.f64 d, a` (`ftz = false`): `1/sqrt(a)` with two roundings (the manual states
/// no bound for this software-emulated form; ≤ 2^-52 relative).
///
/// `rsqrt.approx.ftz.f64 d, a` (`ftz = true`): [`rsqrt_approx_ftz_f64`], the high-word
/// approximation the manual defines.
#[inline]
pub fn rsqrt_f64(a: f64, ftz: bool) -> f64 {
    if ftz {
        rsqrt_approx_ftz_f64(a)
    } else {
        canon64(1.0 / a.sqrt())
    }
}

/// `rcp.approx.ftz.f64 d, a` as PTX ISA §9.7.3.14 defines it: `tmp = a[63:32]` (the low word of
/// `a` is ignored), `d[63:32] = 1.0 / tmp`, `d[31:0] = 0`. The high word is `1/tmp` rounded to
/// nearest (even) at 20 fraction bits (the manual leaves the rounding of this "gross
/// approximation" open), so the error is ≤ 2^-21 relative to `1/tmp`. Subnormal operands and
/// results flush to a zero of the same sign; a NaN result is `0x7fffffff_00000000`.
#[inline]
pub fn rcp_approx_ftz_f64(a: f64) -> f64 {
    high_word_approx(a, |t| 1.0 / t)
}

/// `rsqrt.approx.ftz.f64 d, a` (PTX ISA §9.7.3.17): `tmp = a[63:32]`,
/// `d[63:32] = 1.0 / sqrt(tmp)`, `d[31:0] = 0`, with the rounding, flushing and NaN of
/// [`rcp_approx_ftz_f64`]: ≤ 2^-21 (+ 2^-52 from the f64 steps) relative to `1/sqrt(tmp)`.
#[inline]
pub fn rsqrt_approx_ftz_f64(a: f64) -> f64 {
    high_word_approx(a, |t| 1.0 / t.sqrt())
}

/// The canonical NaN of the high-word approximations ("Input NaNs map to a canonical NaN with
/// encoding 0x7fffffff00000000"); the low word of every result of theirs is zero.
pub const NAN_F64_HIGH_WORD: u64 = 0x7fff_ffff_0000_0000;

/// `f` of `a`'s high word (flushed), rounded to nearest even at 20 fraction bits, flushed, low
/// word zero.
#[inline]
fn high_word_approx(a: f64, f: impl FnOnce(f64) -> f64) -> f64 {
    const LOW: u64 = 0xffff_ffff;
    let tmp = flush_f64(f64::from_bits(a.to_bits() & !LOW));
    let r = f(tmp);
    if r.is_nan() {
        return f64::from_bits(NAN_F64_HIGH_WORD);
    }
    let bits = r.to_bits();
    let (high, low) = (bits & !LOW, bits & LOW);
    let half = 1u64 << 31;
    // Infinities and zeros have a zero low word, so they never round; a finite result below
    // 2^1023 cannot carry into the infinity encoding.
    let up = low > half || (low == half && high & (1 << 32) != 0);
    flush_f64(f64::from_bits(if up { high + (1 << 32) } else { high }))
}

/// `sin.approx{.ftz}.f32 d, a` (Table 56), `a` in radians.
#[inline]
pub fn sin_f32(a: f32, ftz: bool) -> f32 {
    unary32(a, ftz, |a| f64::from(a).sin() as f32)
}

/// `cos.approx{.ftz}.f32 d, a` (Table 57).
#[inline]
pub fn cos_f32(a: f32, ftz: bool) -> f32 {
    unary32(a, ftz, |a| f64::from(a).cos() as f32)
}

/// `lg2.approx{.ftz}.f32 d, a` (Table 58): `log2(a)`; `±0 → -Inf`, negative → NaN.
#[inline]
pub fn lg2_f32(a: f32, ftz: bool) -> f32 {
    unary32(a, ftz, |a| f64::from(a).log2() as f32)
}

/// `ex2.approx{.ftz}.f32 d, a` (Table 59): `2^a`.
#[inline]
pub fn ex2_f32(a: f32, ftz: bool) -> f32 {
    unary32(a, ftz, |a| f64::from(a).exp2() as f32)
}
