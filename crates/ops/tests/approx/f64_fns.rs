//! The `.f64` approximations: `rcp.approx.ftz.f64`, `rsqrt.approx.ftz.f64` (defined on the
//! operand's high word, so a sweep over all 2^32 high words is exhaustive) and
//! `rsqrt.approx.f64` (sampled: high word swept, low word pseudo-random).
//!
//! Errors are measured from exact identities in f64 (products of 21-bit significands are exact;
//! an fma rounds once), never from an f64 `1/x` or `sqrt` of the code under test.

use crate::sweep::{Class, Measure};
use ops::transcend;

const LOW: u64 = 0xffff_ffff;
/// "Input NaNs map to a canonical NaN with encoding 0x7fffffff00000000" (§9.7.3.14, §9.7.3.17).
const NAN_HIGH: u64 = 0x7fff_ffff_0000_0000;

/// A pseudo-random low word for the high word `hi`, so the sweep also shows the low word is
/// ignored.
fn operand(hi: u32) -> f64 {
    let low = u64::from(hi).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32;
    f64::from_bits(u64::from(hi) << 32 | low)
}

/// 2^e for -1022 ≤ e ≤ 1023, exactly.
fn pow2(e: i32) -> f64 {
    f64::from_bits(((e + 1023) as u64) << 52)
}

/// `k` with `a·2^-2k` in [1, 4), for any positive finite `a` (subnormals included).
fn even_exponent(a: f64) -> i32 {
    let (a, bias) = if a.is_subnormal() {
        (a * pow2(64), 64)
    } else {
        (a, 0)
    };
    let e = ((a.to_bits() >> 52) as i32) - 1023 - bias;
    e.div_euclid(2)
}

/// Checks shared by the two high-word forms: low word of the result zero, low word of the
/// operand ignored, the special-value table. `Some(tmp)` when `tmp` (the high word) is a
/// normal number whose result has to be measured.
fn high_word_rules(
    what: &str,
    hi: u32,
    f: fn(f64) -> f64,
    special: fn(f64) -> Option<u64>,
) -> Result<Option<(f64, f64)>, String> {
    let a = operand(hi);
    let d = f(a);
    let tmp = f64::from_bits(u64::from(hi) << 32);
    if d.to_bits() & LOW != 0 {
        return Err(format!(
            "{what}({a:e}) = {:#018x}: low word not zero",
            d.to_bits()
        ));
    }
    if d.to_bits() != f(tmp).to_bits() {
        return Err(format!("{what}({a:e}) depends on the operand's low word"));
    }
    if d.is_subnormal() {
        return Err(format!(
            "{what}({a:e}) = {d:e}: subnormal result not flushed"
        ));
    }
    if let Some(want) = special(tmp) {
        return if d.to_bits() == want {
            Ok(None)
        } else {
            Err(format!(
                "{what}({a:e}) = {:#018x}, manual says {want:#018x}",
                d.to_bits()
            ))
        };
    }
    Ok(Some((tmp, d)))
}

/// ±0 with the sign of `x`, as bits.
fn zero_like(x: f64) -> u64 {
    x.to_bits() & (1 << 63)
}

/// ±Inf with the sign of `x`, as bits.
fn inf_like(x: f64) -> u64 {
    zero_like(x) | f64::INFINITY.to_bits()
}

// ---------------------------------------------------------------------------------------------
// rcp.approx.ftz.f64

pub const RCP_FTZ: &[Class] = &[
    Class {
        name: "relative error from 1/a[63:32]",
        bound: 4.76837158203125e-7 * (1.0 + 1.0 / 1_073_741_824.0), // 2^-21 (1 + 2^-30)
        source: "PTX ISA §9.7.3.14 rcp.approx.ftz.f64 states no bound: \"tmp = a[63:32]; \
                 d[63:32] = 1.0 / tmp; d[31:0] = 0x00000000\". ptxvm's: nearest at 20 fraction \
                 bits, ≤ 2^-21 (+ 2^-53 from rounding 1/tmp to f64 first)",
    },
    Class {
        name: "result flushed (1/a[63:32] below 2^-1022)",
        bound: 0.0,
        source: "\"Subnormal inputs and results are flushed to sign-preserving zero\"",
    },
];

pub fn rcp_ftz(hi: u32) -> Result<Option<Measure>, String> {
    // Table (on a[63:32]): -Inf → -0.0, ±subnormal → ±Inf, ±0.0 → ±Inf, +Inf → +0.0, NaN → NaN.
    let special = |t: f64| match t {
        _ if t.is_nan() => Some(NAN_HIGH),
        _ if t.is_infinite() => Some(zero_like(t)),
        _ if t == 0.0 || t.is_subnormal() => Some(inf_like(t)),
        _ => None,
    };
    let Some((tmp, d)) = high_word_rules(
        "rcp.approx.ftz.f64",
        hi,
        transcend::rcp_approx_ftz_f64,
        special,
    )?
    else {
        return Ok(None);
    };
    if d == 0.0 {
        // Only when the reciprocal is below the normal range (tmp > 2^1022; 2^1022 itself has
        // the normal reciprocal 2^-1022).
        return if tmp.abs() > pow2(1022) && d.to_bits() == zero_like(tmp) {
            Ok(Some(Measure { class: 1, err: 0.0 }))
        } else {
            Err(format!("rcp.approx.ftz.f64({tmp:e}) = {d:e}"))
        };
    }
    // d and tmp have 21 significant bits each: d·tmp is exact, and so is 1 − d·tmp.
    Ok(Some(Measure {
        class: 0,
        err: (1.0 - d * tmp).abs(),
    }))
}

// ---------------------------------------------------------------------------------------------
// rsqrt.approx.ftz.f64

pub const RSQRT_FTZ: &[Class] = &[Class {
    name: "relative error from 1/sqrt(a[63:32])",
    bound: 4.76837158203125e-7 * (1.0 + 1.0 / 1_073_741_824.0), // 2^-21 (1 + 2^-30)
    source: "PTX ISA §9.7.3.17 rsqrt.approx.ftz.f64 states no bound: \"tmp = a[63:32]; \
             d[63:32] = 1.0 / sqrt(tmp); d[31:0] = 0x00000000\". ptxvm's: nearest at 20 \
             fraction bits, ≤ 2^-21 (+ 2^-52 from the f64 steps)",
}];

pub fn rsqrt_ftz(hi: u32) -> Result<Option<Measure>, String> {
    // Table: -Inf → NaN, ±subnormal → ±Inf, ±0.0 → ±Inf, +Inf → +0.0, NaN → NaN; a negative
    // normal operand gives NaN too (`rsqrt` of a negative number).
    let special = |t: f64| match t {
        _ if t.is_nan() => Some(NAN_HIGH),
        _ if t == 0.0 || t.is_subnormal() => Some(inf_like(t)),
        _ if t < 0.0 => Some(NAN_HIGH),
        f64::INFINITY => Some(0),
        _ => None,
    };
    let Some((tmp, d)) = high_word_rules(
        "rsqrt.approx.ftz.f64",
        hi,
        transcend::rsqrt_approx_ftz_f64,
        special,
    )?
    else {
        return Ok(None);
    };
    if !(d.is_normal() && d > 0.0) {
        return Err(format!("rsqrt.approx.ftz.f64({tmp:e}) = {d:e}"));
    }
    Ok(Some(Measure {
        class: 0,
        err: rsqrt_rel_error(tmp, d),
    }))
}

/// `|δ|` with `d = (1 + δ)/sqrt(a)`, for positive finite `a` and positive normal `d`, to about
/// 2^-100: scaled so that `a` is in [1, 4), then `d²·a − 1` from an exact square (two-product)
/// and fmas.
fn rsqrt_rel_error(a: f64, d: f64) -> f64 {
    let k = even_exponent(a);
    // Two steps each, so that 2^±k stays representable for subnormal `a` (k down to -537).
    let a = a * pow2(-k) * pow2(-k);
    let d = d * pow2(k);
    let p = d * d;
    let p_err = d.mul_add(d, -p);
    let t = p.mul_add(a, -1.0) + p_err * a;
    (t / (1.0 + (1.0 + t).sqrt())).abs()
}

// ---------------------------------------------------------------------------------------------
// rsqrt.approx.f64

pub const RSQRT: &[Class] = &[Class {
    name: "relative error, positive finite a",
    bound: 2.220446049250313e-16 * (1.0 + 1.0 / 1_048_576.0), // 2^-52 (1 + 2^-20)
    source: "PTX ISA §9.7.3.16 rsqrt states a bound for rsqrt.f32 only (rsqrt.approx.f64 \"is \
             emulated in software\"). ptxvm's: 1/sqrt(a) with two f64 roundings, each ≤ 2^-53",
}];

pub fn rsqrt(hi: u32) -> Result<Option<Measure>, String> {
    let a = operand(hi);
    let d = transcend::rsqrt_f64(a, false);
    // The f32 table: negative → NaN, -0.0 → -Inf, +0.0 → +Inf, +Inf → +0.0, NaN → NaN.
    let special = match a {
        _ if a.is_nan() => Some(f64::NAN),
        _ if a == 0.0 => Some(f64::INFINITY.copysign(a)),
        _ if a < 0.0 => Some(f64::NAN),
        f64::INFINITY => Some(0.0),
        _ => None,
    };
    if let Some(want) = special {
        let ok = if want.is_nan() {
            d.is_nan()
        } else {
            d.to_bits() == want.to_bits()
        };
        return if ok {
            Ok(None)
        } else {
            Err(format!(
                "rsqrt.approx.f64({a:e}) = {d:e}, manual says {want:e}"
            ))
        };
    }
    if !(d.is_normal() && d > 0.0) {
        return Err(format!("rsqrt.approx.f64({a:e}) = {d:e}"));
    }
    Ok(Some(Measure {
        class: 0,
        err: rsqrt_rel_error(a, d),
    }))
}
