//! The `.f32` `.approx` functions: `ex2 lg2 rsqrt rcp sqrt sin cos tanh`.
//!
//! Each check takes an f32 bit pattern, runs the ops function with and without `.ftz`, checks
//! the manual's special-value table exactly and measures the error of every other result the
//! way the manual states its bound. References are computed in f64 from Rust's `std` (the
//! platform libm), each by another route than the ops function it checks (`ex2` through `exp`,
//! `lg2` through `ln`, `tanh` through `expm1`, `sin`/`cos` at a/2), within about 2^-51, i.e.
//! 2^-27 f32 ulp; for `rsqrt`/`rcp`/`sqrt` from an algebraic identity evaluated exactly in f64.

use crate::sweep::{Class, Measure};
use ops::transcend;

/// `x` with subnormals replaced by a zero of the same sign.
fn flush(x: f32) -> f32 {
    if x.is_subnormal() {
        f32::from_bits(x.to_bits() & 0x8000_0000)
    } else {
        x
    }
}

/// Bit-equality, except that any NaN matches a NaN ("NaN" in the manual's tables).
fn same(r: f32, want: f32) -> bool {
    if want.is_nan() {
        r.is_nan()
    } else {
        r.to_bits() == want.to_bits()
    }
}

fn expect(what: &str, x: f32, r: f32, want: f32) -> Result<(), String> {
    if same(r, want) {
        Ok(())
    } else {
        Err(format!(
            "{what}({x:e}) = {r:e} ({:#010x}), manual says {want:e}",
            r.to_bits()
        ))
    }
}

/// `.ftz` ("flushes subnormal inputs and results to sign-preserving zero"): the `.ftz` result
/// must be the plain result of the flushed operand, flushed. `plain` is the function without
/// `.ftz`. Checked where it matters (a subnormal operand, a zero or subnormal result) and on
/// one input in 256 elsewhere.
fn check_ftz(what: &str, x: f32, plain: fn(f32) -> f32, ftz: fn(f32) -> f32) -> Result<(), String> {
    let r0 = plain(flush(x));
    if !(x.is_subnormal() || r0.is_subnormal() || r0 == 0.0 || x.to_bits() & 0xff == 0x5a) {
        return Ok(());
    }
    let r1 = ftz(x);
    if r1.is_subnormal() || !same(r1, flush(r0)) {
        return Err(format!(
            "{what}.ftz({x:e}) = {r1:e}, want the flushed result {:e}",
            flush(r0)
        ));
    }
    Ok(())
}

/// Distance in f32 ulps between two results of the same sign, counting +Inf as the value after
/// `f32::MAX` (the ordered-integer distance of their encodings).
fn ulp_distance(a: f32, b: f32) -> f64 {
    let ord = |x: f32| {
        let b = i64::from(x.to_bits() & 0x7fff_ffff);
        if x.is_sign_negative() {
            -b
        } else {
            b
        }
    };
    (ord(a) - ord(b)).unsigned_abs() as f64
}

/// The f32 ulp at the real value `v` (given in f64): 2^(e-23) for `2^e ≤ |v| < 2^(e+1)`,
/// 2^-149 below the normal range.
fn ulp_at(v: f64) -> f64 {
    let e = ((v.abs().to_bits() >> 52) as i32) - 1023;
    2f64.powi(e.max(-126) - 23)
}

/// `δ` with `1 + δ = sqrt(1 + t)`, evaluated without cancellation.
fn half_rel(t: f64) -> f64 {
    t / (1.0 + (1.0 + t).sqrt())
}

// ---------------------------------------------------------------------------------------------
// ex2

pub const EX2: &[Class] = &[Class {
    name: "ulps from the correctly rounded 2^a",
    bound: 2.0,
    source: "PTX ISA §9.7.3.21 ex2: \"The maximum ulp error is 2 ulp from correctly rounded \
             result across the full range of inputs\"",
}];

pub fn ex2(bits: u32) -> Result<Option<Measure>, String> {
    let x = f32::from_bits(bits);
    let r = transcend::ex2_f32(x, false);
    check_ftz(
        "ex2",
        x,
        |x| transcend::ex2_f32(x, false),
        |x| transcend::ex2_f32(x, true),
    )?;
    // Table: -Inf → +0.0, ±0.0 → +1.0, +Inf → +Inf, NaN → NaN.
    let special = match x {
        _ if x.is_nan() => Some(f32::NAN),
        f32::NEG_INFINITY => Some(0.0),
        f32::INFINITY => Some(f32::INFINITY),
        _ if x == 0.0 => Some(1.0),
        _ => None,
    };
    if let Some(want) = special {
        return expect("ex2", x, r, want).map(|()| None);
    }
    // The correctly rounded result: 2^a in f64 rounded once to f32 (`as` rounds to nearest
    // even, into the subnormals and to +Inf past the top).
    let correctly_rounded = exp2_reference(f64::from(x)) as f32;
    Ok(Some(Measure {
        class: 0,
        err: ulp_distance(r, correctly_rounded),
    }))
}

/// 2^a = e^(a·ln 2) for an f32 `a`, through `exp` (not the `exp2` ops calls), within about
/// 2^-52 relative: ln 2 = C1 + C2 + O(2^-84) with C1 of 29 significant bits, so a·C1 is exact
/// and e^(a·C2) (|a·C2| < 2^-21) is 1 + t + t²/2 to 2^-63. Integer `a` give 2^a exactly.
fn exp2_reference(a: f64) -> f64 {
    const C1: f64 = 0.6931471787393093; // 0x1.62e42fep-1
    const C2: f64 = 1.8206359985041462e-9; // 0x1.f473de6af278fp-30
    if a.abs() > 200.0 {
        // Far outside f32's range (which ends near 2^±150), where t² would overflow.
        return if a > 0.0 { f64::INFINITY } else { 0.0 };
    }
    if a == a.trunc() {
        // Exact: 2^-150 is the tie between 0 and 2^-149 that the approximation below would
        // break the wrong way.
        return 2f64.powi(a as i32);
    }
    let t = a * C2;
    (a * C1).exp() * (1.0 + t + t * t / 2.0)
}

// ---------------------------------------------------------------------------------------------
// lg2

pub const LG2: &[Class] = &[
    Class {
        name: "absolute error, a in (0.5, 2)",
        bound: 2.384185791015625e-7, // 2^-22
        source: "PTX ISA §9.7.3.20 lg2: \"The maximum absolute error is 2^-22 when the input \
                 operand is in the range (0.5, 2)\"",
    },
    Class {
        name: "relative error, other positive finite a",
        bound: 2.384185791015625e-7, // 2^-22
        source: "PTX ISA §9.7.3.20 lg2: \"For positive finite inputs outside of this interval, \
                 maximum relative error is 2^-22\"",
    },
];

pub fn lg2(bits: u32) -> Result<Option<Measure>, String> {
    let x = f32::from_bits(bits);
    let r = transcend::lg2_f32(x, false);
    check_ftz(
        "lg2",
        x,
        |x| transcend::lg2_f32(x, false),
        |x| transcend::lg2_f32(x, true),
    )?;
    // Table: -Inf, -normal → NaN (and any negative); ±0.0 → -Inf; +Inf → +Inf; NaN → NaN.
    let special = match x {
        _ if x.is_nan() => Some(f32::NAN),
        _ if x == 0.0 => Some(f32::NEG_INFINITY),
        _ if x < 0.0 => Some(f32::NAN),
        f32::INFINITY => Some(f32::INFINITY),
        _ => None,
    };
    if let Some(want) = special {
        return expect("lg2", x, r, want).map(|()| None);
    }
    // ln(a) · log2(e): a different libm routine from the one ops uses, error ≈ 2^-52 relative.
    let want = f64::from(x).ln() * std::f64::consts::LOG2_E;
    let abs = (f64::from(r) - want).abs();
    Ok(Some(if x > 0.5 && x < 2.0 {
        Measure { class: 0, err: abs }
    } else {
        Measure {
            class: 1,
            err: abs / want.abs(),
        }
    }))
}

// ---------------------------------------------------------------------------------------------
// rsqrt

pub const RSQRT: &[Class] = &[Class {
    name: "relative error, positive finite a",
    bound: 1.277653530283325e-7, // 2^-22.9
    source: "PTX ISA §9.7.3.16 rsqrt: \"The maximum relative error for rsqrt.f32 over the \
             entire positive finite floating-point range is 2^-22.9\"",
}];

pub fn rsqrt(bits: u32) -> Result<Option<Measure>, String> {
    let x = f32::from_bits(bits);
    let r = transcend::rsqrt_f32(x, false);
    check_ftz(
        "rsqrt",
        x,
        |x| transcend::rsqrt_f32(x, false),
        |x| transcend::rsqrt_f32(x, true),
    )?;
    // Table: -Inf, -normal → NaN (any negative); -0.0 → -Inf; +0.0 → +Inf; +Inf → +0.0.
    let special = match x {
        _ if x.is_nan() => Some(f32::NAN),
        _ if x == 0.0 => Some(if x.is_sign_negative() {
            f32::NEG_INFINITY
        } else {
            f32::INFINITY
        }),
        _ if x < 0.0 => Some(f32::NAN),
        f32::INFINITY => Some(0.0),
        _ => None,
    };
    if let Some(want) = special {
        return expect("rsqrt", x, r, want).map(|()| None);
    }
    if !(r.is_normal() && r > 0.0) {
        return Err(format!(
            "rsqrt({x:e}) = {r:e}, not a positive normal number"
        ));
    }
    // r = (1 + δ)/sqrt(a) ⇔ r²·a − 1 = (1 + δ)² − 1. r² is exact in f64 (48 bits) and the fma
    // rounds once, so t carries a relative error of 2^-53.
    let r = f64::from(r);
    let t = (r * r).mul_add(f64::from(x), -1.0);
    Ok(Some(Measure {
        class: 0,
        err: half_rel(t).abs(),
    }))
}

// ---------------------------------------------------------------------------------------------
// rcp

pub const RCP: &[Class] = &[Class {
    name: "ulps from 1/a (+Inf counts as 2^128, or as 1/a beyond it)",
    bound: 1.0,
    source: "PTX ISA §9.7.3.13 rcp: \"rcp.approx.f32 implements a fast approximation to \
             reciprocal. The maximum ulp error is 1 across the full range of inputs\"",
}];

pub fn rcp(bits: u32) -> Result<Option<Measure>, String> {
    use transcend::Precision::Approx;
    let x = f32::from_bits(bits);
    let r = transcend::rcp_f32(x, Approx, false);
    check_ftz(
        "rcp",
        x,
        |x| transcend::rcp_f32(x, Approx, false),
        |x| transcend::rcp_f32(x, Approx, true),
    )?;
    // Table: -Inf → -0.0, -0.0 → -Inf, +0.0 → +Inf, +Inf → +0.0, NaN → NaN.
    let special = match x {
        _ if x.is_nan() => Some(f32::NAN),
        _ if x.is_infinite() => Some(0.0f32.copysign(x)),
        _ if x == 0.0 => Some(f32::INFINITY.copysign(x)),
        _ => None,
    };
    if let Some(want) = special {
        return expect("rcp", x, r, want).map(|()| None);
    }
    if r.is_sign_negative() != x.is_sign_negative() || r.is_nan() {
        return Err(format!("rcp({x:e}) = {r:e}"));
    }
    // 1/a in f64 is within 2^-53 relative of the real 1/a, i.e. 2^-29 ulp of f32.
    let want = 1.0 / f64::from(x);
    // +Inf stands for 2^128 (one ulp past f32::MAX), or for 1/a itself when that is larger:
    // there +Inf is the correctly rounded result.
    let got = if r.is_infinite() {
        2f64.powi(128).max(want.abs()).copysign(want)
    } else {
        f64::from(r)
    };
    Ok(Some(Measure {
        class: 0,
        err: (got - want).abs() / ulp_at(want),
    }))
}

// ---------------------------------------------------------------------------------------------
// sqrt

pub const SQRT: &[Class] = &[Class {
    name: "relative error, positive finite a",
    bound: 1.1920928955078125e-7, // 2^-23
    source: "PTX ISA §9.7.3.15 sqrt: \"The maximum relative error over the entire positive \
             finite floating-point range is 2^-23\"",
}];

pub fn sqrt(bits: u32) -> Result<Option<Measure>, String> {
    use transcend::Precision::Approx;
    let x = f32::from_bits(bits);
    let r = transcend::sqrt_f32(x, Approx, false);
    check_ftz(
        "sqrt",
        x,
        |x| transcend::sqrt_f32(x, Approx, false),
        |x| transcend::sqrt_f32(x, Approx, true),
    )?;
    // Table: -Inf, -normal → NaN (any negative); ±0.0 → ±0.0; +Inf → +Inf; NaN → NaN.
    let special = match x {
        _ if x.is_nan() => Some(f32::NAN),
        _ if x == 0.0 => Some(x),
        _ if x < 0.0 => Some(f32::NAN),
        f32::INFINITY => Some(f32::INFINITY),
        _ => None,
    };
    if let Some(want) = special {
        return expect("sqrt", x, r, want).map(|()| None);
    }
    if !(r.is_normal() && r > 0.0) {
        return Err(format!("sqrt({x:e}) = {r:e}, not a positive normal number"));
    }
    // r = sqrt(a)(1 + δ) ⇔ r²/a − 1 = (1 + δ)² − 1; r² is exact and r² − a is exact (Sterbenz:
    // they are within a factor 2), so t has one rounding.
    let (r, a) = (f64::from(r), f64::from(x));
    let t = (r * r - a) / a;
    Ok(Some(Measure {
        class: 0,
        err: half_rel(t).abs(),
    }))
}

// ---------------------------------------------------------------------------------------------
// sin, cos

const TWO_PI: f64 = 2.0 * std::f64::consts::PI;
const HUNDRED_PI: f64 = 100.0 * std::f64::consts::PI;

macro_rules! trig_classes {
    ($name:literal) => {
        &[
            Class {
                name: "absolute error, |a| ≤ 2π",
                bound: 6.743495761743046e-7, // 2^-20.5
                source: concat!(
                    "PTX ISA §9.7.3.",
                    $name,
                    ": \"The maximum absolute error over input range is as follows: \
                     [-2pi .. 2pi] 2^-20.5\""
                ),
            },
            Class {
                name: "absolute error, 2π < |a| ≤ 100π",
                bound: 3.7571545817410796e-5, // 2^-14.7
                source: concat!("PTX ISA §9.7.3.", $name, ": \"[-100pi .. +100pi] 2^-14.7\""),
            },
            Class {
                name: "absolute error, |a| > 100π",
                bound: 5.960464477539063e-8, // 2^-24
                source: "no bound in the manual (\"Outside of the range [-100pi .. +100pi], \
                         only best effort is provided\"); ptxvm's own: faithful rounding of \
                         the f64 value, < 2^-24",
            },
        ]
    };
}

pub const SIN: &[Class] = trig_classes!("18 sin");
pub const COS: &[Class] = trig_classes!("19 cos");

fn trig_class(x: f32) -> usize {
    let a = f64::from(x).abs();
    if a <= TWO_PI {
        0
    } else if a <= HUNDRED_PI {
        1
    } else {
        2
    }
}

pub fn sin(bits: u32) -> Result<Option<Measure>, String> {
    let x = f32::from_bits(bits);
    let r = transcend::sin_f32(x, false);
    check_ftz(
        "sin",
        x,
        |x| transcend::sin_f32(x, false),
        |x| transcend::sin_f32(x, true),
    )?;
    // Table: ±Inf → NaN, ±0.0 → ±0.0, NaN → NaN.
    if x.is_nan() || x.is_infinite() || x == 0.0 {
        let want = if x == 0.0 { x } else { f32::NAN };
        return expect("sin", x, r, want).map(|()| None);
    }
    // sin a = 2 sin(a/2) cos(a/2): other arguments than ops' f64 sin(a), within 2^-51.
    let h = f64::from(x) / 2.0;
    let want = 2.0 * h.sin() * h.cos();
    Ok(Some(Measure {
        class: trig_class(x),
        err: (f64::from(r) - want).abs(),
    }))
}

pub fn cos(bits: u32) -> Result<Option<Measure>, String> {
    let x = f32::from_bits(bits);
    let r = transcend::cos_f32(x, false);
    check_ftz(
        "cos",
        x,
        |x| transcend::cos_f32(x, false),
        |x| transcend::cos_f32(x, true),
    )?;
    // Table: ±Inf → NaN, ±0.0 → +1.0, NaN → NaN.
    if x.is_nan() || x.is_infinite() || x == 0.0 {
        let want = if x == 0.0 { 1.0 } else { f32::NAN };
        return expect("cos", x, r, want).map(|()| None);
    }
    // cos a = 1 − 2 sin²(a/2): another argument than ops' f64 cos(a), within 2^-51.
    let s = (f64::from(x) / 2.0).sin();
    let want = 1.0 - 2.0 * s * s;
    Ok(Some(Measure {
        class: trig_class(x),
        err: (f64::from(r) - want).abs(),
    }))
}

// ---------------------------------------------------------------------------------------------
// tanh

pub const TANH: &[Class] = &[Class {
    name: "relative error, finite nonzero a",
    bound: 4.8828125e-4, // 2^-11
    source: "PTX ISA §9.7.3.22 tanh: \"The maximum relative error over the entire floating \
             point range is 2^-11\"",
}];

pub fn tanh(bits: u32) -> Result<Option<Measure>, String> {
    let x = f32::from_bits(bits);
    let r = ops::half::tanh_f32(x);
    // Table: -Inf → -1.0, ±0.0 → ±0.0, +Inf → 1.0, NaN → NaN; "The subnormal inputs gets
    // passed through to the output".
    let special = match x {
        _ if x.is_nan() => Some(f32::NAN),
        _ if x.is_infinite() => Some(1.0f32.copysign(x)),
        _ if x == 0.0 || x.is_subnormal() => Some(x),
        _ => None,
    };
    if let Some(want) = special {
        return expect("tanh", x, r, want).map(|()| None);
    }
    // tanh|a| = −u/(u + 2) with u = expm1(−2|a|): no cancellation for small |a|, a different
    // libm routine from ops' `tanh`.
    let a = f64::from(x).abs();
    let u = (-2.0 * a).exp_m1();
    let want = (-u / (u + 2.0)).copysign(f64::from(x));
    Ok(Some(Measure {
        class: 0,
        err: ((f64::from(r) - want) / want).abs(),
    }))
}
