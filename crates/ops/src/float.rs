//! Floating-point arithmetic: `add sub mul mad fma div abs neg min max sad copysign testp`
//! (`ptx-isa-1.1.txt` §7.7.1, Tables 16–28, plus the modern `fma`, `mad.rnd`, `div.approx/.full`,
//! `copysign` and `testp` forms).
//!
//! - Rounding (`Rounding`, Table 8): `.rn` runs on the host FPU, which is IEEE 754 round to nearest
//!   even; `.rz .rm .rp` step from that result by the sign of an error-free transformation
//!   ([`eft`]: add, sub, mul, f32 fma/div/sqrt) or go through the exact integer path ([`soft`]:
//!   f64 fma/div/sqrt, f16 conversions), which keeps the exact result and rounds once.
//! - `.ftz` flushes subnormal inputs and results (after rounding) to a zero of the same sign.
//! - `.sat` clamps the result to `[+0.0, 1.0]`; NaN and `-0.0` become `+0.0`.
//! - A NaN result is the canonical NaN ([`NAN_F32`], [`NAN_F64`]); `abs`, `neg`, `copysign`
//!   only touch the sign bit, and `min`/`max` return an operand, exactly as their pseudo-code says.

pub mod eft;
pub mod soft;

/// IEEE rounding modifier of a floating-point instruction (`ptx-isa-1.1.txt` Table 8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Rounding {
    /// `.rn`: to nearest, ties to even (the default of `add sub mul`).
    #[default]
    Rn,
    /// `.rz`: towards zero.
    Rz,
    /// `.rm`: towards negative infinity.
    Rm,
    /// `.rp`: towards positive infinity.
    Rp,
}

/// The NaN every f32 arithmetic instruction produces (what NVIDIA hardware writes).
pub const NAN_F32: u32 = 0x7fff_ffff;
/// The NaN every f64 arithmetic instruction produces.
pub const NAN_F64: u64 = 0x7fff_ffff_ffff_ffff;

/// Subnormal `x` → zero of the same sign; anything else unchanged.
#[inline]
pub fn flush_f32(x: f32) -> f32 {
    if x.is_subnormal() {
        f32::from_bits(x.to_bits() & 0x8000_0000)
    } else {
        x
    }
}

/// Subnormal `x` → zero of the same sign; anything else unchanged.
#[inline]
pub fn flush_f64(x: f64) -> f64 {
    if x.is_subnormal() {
        f64::from_bits(x.to_bits() & (1 << 63))
    } else {
        x
    }
}

/// `flush_f32(x)` when `ftz`.
#[inline]
pub(crate) fn ftz_if(x: f32, ftz: bool) -> f32 {
    if ftz {
        flush_f32(x)
    } else {
        x
    }
}

/// `.sat`: clamp to `[0.0, 1.0]`, NaN → `+0.0`.
#[inline]
pub fn saturate_f32(x: f32) -> f32 {
    if x > 0.0 {
        x.min(1.0)
    } else {
        0.0
    }
}

/// `.sat` for f64 (used by `cvt.sat.f64`).
#[inline]
pub fn saturate_f64(x: f64) -> f64 {
    if x > 0.0 {
        x.min(1.0)
    } else {
        0.0
    }
}

/// NaN → the canonical [`NAN_F32`].
#[inline]
pub(crate) fn canon_f32(x: f32) -> f32 {
    if x.is_nan() {
        f32::from_bits(NAN_F32)
    } else {
        x
    }
}

/// NaN → the canonical [`NAN_F64`].
#[inline]
pub(crate) fn canon_f64(x: f64) -> f64 {
    if x.is_nan() {
        f64::from_bits(NAN_F64)
    } else {
        x
    }
}

/// Result post-processing shared by all f32 arithmetic: canonical NaN, `.ftz`, `.sat`.
#[inline]
fn finish_f32(r: f32, ftz: bool, sat: bool) -> f32 {
    let r = ftz_if(canon_f32(r), ftz);
    if sat {
        saturate_f32(r)
    } else {
        r
    }
}

#[inline]
fn soft_f64(a: f64, b: f64, c: Option<f64>, rnd: Rounding) -> f64 {
    f64::from_bits(soft::fma_bits(
        a.to_bits(),
        b.to_bits(),
        c.map(f64::to_bits),
        rnd,
        soft::F64,
        NAN_F64,
    ))
}

/// `add{.rnd}{.ftz}{.sat}.f32 d, a, b` (Table 16).
#[inline]
pub fn add_f32(a: f32, b: f32, rnd: Rounding, ftz: bool, sat: bool) -> f32 {
    let (a, b) = (ftz_if(a, ftz), ftz_if(b, ftz));
    let r = match rnd {
        Rounding::Rn => a + b,
        _ => eft::add_f32(a, b, rnd),
    };
    finish_f32(r, ftz, sat)
}

/// `sub{.rnd}{.ftz}{.sat}.f32 d, a, b` (Table 17): `a + (-b)` with a single rounding.
#[inline]
pub fn sub_f32(a: f32, b: f32, rnd: Rounding, ftz: bool, sat: bool) -> f32 {
    add_f32(a, -b, rnd, ftz, sat)
}

/// `mul{.rnd}{.ftz}{.sat}.f32 d, a, b` (Table 18).
#[inline]
pub fn mul_f32(a: f32, b: f32, rnd: Rounding, ftz: bool, sat: bool) -> f32 {
    let (a, b) = (ftz_if(a, ftz), ftz_if(b, ftz));
    let r = match rnd {
        Rounding::Rn => a * b,
        _ => eft::mul_f32(a, b, rnd),
    };
    finish_f32(r, ftz, sat)
}

/// `fma.rnd{.ftz}{.sat}.f32` and `mad.rnd{.ftz}{.sat}.f32`: `a × b + c` rounded once.
#[inline]
pub fn fma_f32(a: f32, b: f32, c: f32, rnd: Rounding, ftz: bool, sat: bool) -> f32 {
    let (a, b, c) = (ftz_if(a, ftz), ftz_if(b, ftz), ftz_if(c, ftz));
    let r = match rnd {
        Rounding::Rn => a.mul_add(b, c),
        _ => eft::fma_f32(a, b, c, rnd),
    };
    finish_f32(r, ftz, sat)
}

/// `mad{.ftz}{.sat}.f32 d, a, b, c` without a rounding modifier, as PTX 1.1 defines it
/// (Table 19: `t = a * b; d = t + c;`, no rounding modifier allowed): the product is rounded to
/// f32 (to nearest even; flushed under `.ftz`) before the add. See `docs/spec-notes.md`.
#[inline]
pub fn mad_f32(a: f32, b: f32, c: f32, ftz: bool, sat: bool) -> f32 {
    let t = mul_f32(a, b, Rounding::Rn, ftz, false);
    add_f32(t, c, Rounding::Rn, ftz, sat)
}

/// `add{.rnd}.f64 d, a, b` (Table 16).
#[inline]
pub fn add_f64(a: f64, b: f64, rnd: Rounding) -> f64 {
    canon_f64(match rnd {
        Rounding::Rn => a + b,
        _ => eft::add_f64(a, b, rnd),
    })
}

/// `sub{.rnd}.f64 d, a, b` (Table 17).
#[inline]
pub fn sub_f64(a: f64, b: f64, rnd: Rounding) -> f64 {
    add_f64(a, -b, rnd)
}

/// `mul{.rnd}.f64 d, a, b` (Table 18).
#[inline]
pub fn mul_f64(a: f64, b: f64, rnd: Rounding) -> f64 {
    canon_f64(match rnd {
        Rounding::Rn => a * b,
        _ => eft::mul_f64(a, b, rnd),
    })
}

/// `fma.rnd.f64` / `mad.rnd.f64`: `a × b + c` rounded once.
#[inline]
pub fn fma_f64(a: f64, b: f64, c: f64, rnd: Rounding) -> f64 {
    canon_f64(match rnd {
        Rounding::Rn => a.mul_add(b, c),
        _ => soft_f64(a, b, Some(c), rnd),
    })
}

/// `mad.f64` without a rounding modifier in PTX 1.1: product rounded, then the add rounded.
#[inline]
pub fn mad_f64(a: f64, b: f64, c: f64) -> f64 {
    canon_f64(a * b + c)
}

/// Variant of `div.f32` (Table 23 and the modern `.approx`/`.full` forms).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DivKind {
    /// `div.approx.f32`: `a × (1/b)`, each step rounded to nearest (≤ 1.5 ulp from the quotient).
    Approx,
    /// `div.full.f32`: implemented as the correctly rounded quotient (the spec allows 2 ulp).
    Full,
    /// `div.rnd.f32` and PTX 1.1 `div.f32` (`Rounding::Rn`): IEEE division.
    Rounded(Rounding),
}

/// `div{.approx,.full,.rnd}{.ftz}{.sat}.f32 d, a, b`. Division by zero gives an infinity whose
/// sign is the XOR of the operand signs (IEEE, as the pseudo-code `d = a / b` computes).
#[inline]
pub fn div_f32(a: f32, b: f32, kind: DivKind, ftz: bool, sat: bool) -> f32 {
    let (a, b) = (ftz_if(a, ftz), ftz_if(b, ftz));
    let r = match kind {
        DivKind::Approx => ftz_if(a * ftz_if(1.0 / b, ftz), ftz),
        DivKind::Full | DivKind::Rounded(Rounding::Rn) => a / b,
        DivKind::Rounded(rnd) => eft::div_f32(a, b, rnd),
    };
    finish_f32(r, ftz, sat)
}

/// `div.rnd.f64 d, a, b` (PTX 1.1 `div.f64` rounds to nearest even).
#[inline]
pub fn div_f64(a: f64, b: f64, rnd: Rounding) -> f64 {
    canon_f64(match rnd {
        Rounding::Rn => a / b,
        _ => f64::from_bits(soft::div_bits(
            a.to_bits(),
            b.to_bits(),
            rnd,
            soft::F64,
            NAN_F64,
        )),
    })
}

/// `abs{.ftz}.f32`: clears the sign bit (NaN payloads kept).
#[inline]
pub fn abs_f32(a: f32, ftz: bool) -> f32 {
    f32::from_bits(ftz_if(a, ftz).to_bits() & 0x7fff_ffff)
}

/// `neg{.ftz}.f32`: flips the sign bit (NaN payloads kept).
#[inline]
pub fn neg_f32(a: f32, ftz: bool) -> f32 {
    f32::from_bits(ftz_if(a, ftz).to_bits() ^ 0x8000_0000)
}

/// `abs.f64`: clears the sign bit.
#[inline]
pub fn abs_f64(a: f64) -> f64 {
    f64::from_bits(a.to_bits() & !(1 << 63))
}

/// `neg.f64`: flips the sign bit.
#[inline]
pub fn neg_f64(a: f64) -> f64 {
    f64::from_bits(a.to_bits() ^ (1 << 63))
}

/// `min`/`max` `{.ftz}{.NaN}{.xorsign.abs}.f32` (PTX ISA §9.7.3.10/11): with `.NaN` a NaN
/// operand gives the canonical NaN; with `.xorsign.abs` the magnitudes are compared and the
/// result takes the XOR of the operands' signs; otherwise as [`min_f32`]/[`max_f32`].
#[inline]
pub fn min_max_f32(a: f32, b: f32, max: bool, ftz: bool, nan: bool, xorsign_abs: bool) -> f32 {
    let (a, b) = (ftz_if(a, ftz), ftz_if(b, ftz));
    if nan && (a.is_nan() || b.is_nan()) {
        return f32::from_bits(NAN_F32);
    }
    let pick = |x: f32, y: f32| {
        if max {
            max_f32(x, y, false)
        } else {
            min_f32(x, y, false)
        }
    };
    if !xorsign_abs {
        return pick(a, b);
    }
    let r = pick(a.abs(), b.abs());
    if r.is_nan() {
        return f32::from_bits(NAN_F32);
    }
    let sign = (a.to_bits() ^ b.to_bits()) & 0x8000_0000;
    f32::from_bits(r.to_bits() | sign)
}

/// `min{.ftz}.f32` (Table 27): `isNaN(a) ? b : isNaN(b) ? a : (a < b) ? a : b`.
#[inline]
pub fn min_f32(a: f32, b: f32, ftz: bool) -> f32 {
    let (a, b) = (ftz_if(a, ftz), ftz_if(b, ftz));
    if a.is_nan() {
        b
    } else if b.is_nan() || a < b {
        a
    } else {
        b
    }
}

/// `max{.ftz}.f32` (Table 28): `isNaN(a) ? b : isNaN(b) ? a : (a > b) ? a : b`.
#[inline]
pub fn max_f32(a: f32, b: f32, ftz: bool) -> f32 {
    let (a, b) = (ftz_if(a, ftz), ftz_if(b, ftz));
    if a.is_nan() {
        b
    } else if b.is_nan() || a > b {
        a
    } else {
        b
    }
}

/// `min.f64` (Table 27).
#[inline]
pub fn min_f64(a: f64, b: f64) -> f64 {
    if a.is_nan() {
        b
    } else if b.is_nan() || a < b {
        a
    } else {
        b
    }
}

/// `max.f64` (Table 28).
#[inline]
pub fn max_f64(a: f64, b: f64) -> f64 {
    if a.is_nan() {
        b
    } else if b.is_nan() || a > b {
        a
    } else {
        b
    }
}

/// `sad.f32 d, a, b, c` (Table 22): `c + ((a < b) ? (b - a) : (a - b))`, each step rounded to
/// nearest even.
#[inline]
pub fn sad_f32(a: f32, b: f32, c: f32) -> f32 {
    canon_f32(c + if a < b { b - a } else { a - b })
}

/// `sad.f64 d, a, b, c` (Table 22).
#[inline]
pub fn sad_f64(a: f64, b: f64, c: f64) -> f64 {
    canon_f64(c + if a < b { b - a } else { a - b })
}

/// `copysign.f32 d, a, b`: `b` with the sign of `a` (note the operand order).
#[inline]
pub fn copysign_f32(a: f32, b: f32) -> f32 {
    f32::from_bits((b.to_bits() & 0x7fff_ffff) | (a.to_bits() & 0x8000_0000))
}

/// `copysign.f64 d, a, b`: `b` with the sign of `a`.
#[inline]
pub fn copysign_f64(a: f64, b: f64) -> f64 {
    let sign = 1u64 << 63;
    f64::from_bits((b.to_bits() & !sign) | (a.to_bits() & sign))
}

/// Property tested by `testp.op.type p, a`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TestpOp {
    /// `.finite`: not infinite and not NaN.
    Finite,
    /// `.infinite`: ±Inf.
    Infinite,
    /// `.number`: not NaN.
    Number,
    /// `.notanumber`: NaN.
    NotANumber,
    /// `.normal`: normal, i.e. not zero, subnormal, infinite or NaN.
    Normal,
    /// `.subnormal`: subnormal (nonzero).
    Subnormal,
}

/// `testp.op.f32 p, a` (never flushes: it inspects the operand as stored).
#[inline]
pub fn testp_f32(op: TestpOp, a: f32) -> bool {
    match op {
        TestpOp::Finite => a.is_finite(),
        TestpOp::Infinite => a.is_infinite(),
        TestpOp::Number => !a.is_nan(),
        TestpOp::NotANumber => a.is_nan(),
        TestpOp::Normal => a.is_normal(),
        TestpOp::Subnormal => a.is_subnormal(),
    }
}

/// `testp.op.f64 p, a`.
#[inline]
pub fn testp_f64(op: TestpOp, a: f64) -> bool {
    match op {
        TestpOp::Finite => a.is_finite(),
        TestpOp::Infinite => a.is_infinite(),
        TestpOp::Number => !a.is_nan(),
        TestpOp::NotANumber => a.is_nan(),
        TestpOp::Normal => a.is_normal(),
        TestpOp::Subnormal => a.is_subnormal(),
    }
}

/// The operations of `add/sub/mul/fma{.rnd}{.ftz}.f32x2` (sm_100).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PairOp {
    Add,
    Sub,
    Mul,
    Fma,
}

/// `op.rnd{.ftz}.f32x2 d, a, b{, c}` (PTX ISA 8.x §9.7.3): the `.f32` operation on the low
/// halves of the 64-bit operands into the low half of `d` and on the high halves into the high
/// half, each exactly as the scalar `.f32` instruction with the same modifiers.
pub fn f32x2(op: PairOp, a: u64, b: u64, c: u64, rnd: Rounding, ftz: bool) -> u64 {
    let lane = |k: u32| {
        let f = |x: u64| f32::from_bits((x >> (32 * k)) as u32);
        let (a, b, c) = (f(a), f(b), f(c));
        let r = match op {
            PairOp::Add => add_f32(a, b, rnd, ftz, false),
            PairOp::Sub => sub_f32(a, b, rnd, ftz, false),
            PairOp::Mul => mul_f32(a, b, rnd, ftz, false),
            PairOp::Fma => fma_f32(a, b, c, rnd, ftz, false),
        };
        u64::from(r.to_bits()) << (32 * k)
    };
    lane(0) | lane(1)
}
