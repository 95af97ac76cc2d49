//! `ex2.approx.f16` and `ex2.approx.ftz.bf16`: every one of the 2^16 operands (the packed
//! `.f16x2`/`.bf16x2` forms apply the same function to each half).

use crate::sweep::{Class, Measure};
use ops::half::{ex2_h, HalfFormat};

/// The exact value of an f16 encoding, decoded here rather than with ops' helper.
fn f16_value(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = i32::from((h >> 10) & 0x1f);
    let frac = f64::from(h & 0x3ff);
    sign * match exp {
        0 => frac * 2f64.powi(-24),
        31 if frac == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        _ => (1024.0 + frac) * 2f64.powi(exp - 25),
    }
}

/// The exact value of a bf16 encoding (the high half of an f32).
fn bf16_value(h: u16) -> f64 {
    f64::from(f32::from_bits(u32::from(h) << 16))
}

/// Special values shared by both tables: -Inf → +0.0, ±0.0 → +1.0, +Inf → +Inf, NaN → NaN.
fn special(x: f64) -> Option<f64> {
    match x {
        _ if x.is_nan() => Some(f64::NAN),
        f64::NEG_INFINITY => Some(0.0),
        f64::INFINITY => Some(f64::INFINITY),
        _ if x == 0.0 => Some(1.0),
        _ => None,
    }
}

fn expect(what: &str, h: u16, r: f64, want: f64) -> Result<Option<Measure>, String> {
    let ok = if want.is_nan() {
        r.is_nan()
    } else {
        r.to_bits() == want.to_bits()
    };
    if ok {
        Ok(None)
    } else {
        Err(format!("{what}({h:#06x}) = {r:e}, manual says {want:e}"))
    }
}

pub const EX2_F16: &[Class] = &[
    Class {
        name: "relative error, normal results",
        bound: 0.0010466537720080985, // 2^-9.9
        source: "PTX ISA §9.7.4.10 ex2 (half): \"The maximum relative error for .f16 type is \
                 2^-9.9\"",
    },
    Class {
        name: "absolute error, subnormal results (2^a < 2^-14)",
        bound: 2.9802322387695312e-8, // 2^-25
        source: "the manual's relative bound cannot hold where f16 values are 2^-24 apart; \
                 ptxvm's: correctly rounded, ≤ half a subnormal ulp (2^-25)",
    },
];

/// Largest finite f16 and the point from which round-to-nearest overflows (65504 + 16).
const F16_MAX: f64 = 65504.0;
const F16_OVERFLOW: f64 = 65520.0;

pub fn ex2_f16(bits: u32) -> Result<Option<Measure>, String> {
    let h = bits as u16;
    let x = f16_value(h);
    let r = f16_value(ex2_h(h, HalfFormat::F16, false));
    if let Some(want) = special(x) {
        return expect("ex2.approx.f16", h, r, want);
    }
    let want = x.exp2();
    if r.is_infinite() {
        // Within the bound of a result at or beyond the overflow threshold.
        return if want * (1.0 + EX2_F16[0].bound) >= F16_OVERFLOW {
            Ok(None)
        } else {
            Err(format!("ex2.approx.f16({x:e}) = Inf, 2^a = {want:e}"))
        };
    }
    if r > F16_MAX || r.is_nan() {
        return Err(format!("ex2.approx.f16({x:e}) = {r:e}"));
    }
    Ok(Some(if want < 2f64.powi(-14) {
        Measure {
            class: 1,
            err: (r - want).abs(),
        }
    } else {
        Measure {
            class: 0,
            err: ((r - want) / want).abs(),
        }
    }))
}

pub const EX2_BF16: &[Class] = &[
    Class {
        name: "relative error, normal results",
        bound: 0.0078125, // 2^-7
        source: "PTX ISA §9.7.4.10 ex2 (half): \"The maximum relative error for .bf16 type is \
                 2^-7\"",
    },
    Class {
        name: "flushed results (2^a below 2^-126)",
        bound: 0.0,
        source: "\"ex2.approx.ftz.bf16 flushes subnormal inputs and results to sign-preserving \
                 zero\"",
    },
];

pub fn ex2_bf16(bits: u32) -> Result<Option<Measure>, String> {
    let h = bits as u16;
    let x = bf16_value(h);
    let r = bf16_value(ex2_h(h, HalfFormat::Bf16, true));
    // The .bf16 table adds ±subnormal → +1.0 (the operand is flushed).
    let special = if x.abs() < 2f64.powi(-126) && x.is_finite() {
        Some(1.0)
    } else {
        special(x)
    };
    if let Some(want) = special {
        return expect("ex2.approx.ftz.bf16", h, r, want);
    }
    let want = x.exp2();
    if r.is_infinite() {
        // bf16 has f32's range: 2^a overflows only for a ≥ 128.
        return if want * (1.0 + EX2_BF16[0].bound) >= f64::from(f32::MAX) {
            Ok(None)
        } else {
            Err(format!("ex2.approx.ftz.bf16({x:e}) = Inf, 2^a = {want:e}"))
        };
    }
    if r == 0.0 {
        // Flushed: only a result whose approximation can be below the normal range.
        return if r.to_bits() == 0 && want * (1.0 - EX2_BF16[0].bound) < 2f64.powi(-126) {
            Ok(Some(Measure { class: 1, err: 0.0 }))
        } else {
            Err(format!(
                "ex2.approx.ftz.bf16({x:e}) = {r:e}, 2^a = {want:e}"
            ))
        };
    }
    if r.abs() < 2f64.powi(-126) || r.is_nan() {
        return Err(format!(
            "ex2.approx.ftz.bf16({x:e}) = {r:e}: subnormal or NaN"
        ));
    }
    Ok(Some(Measure {
        class: 0,
        err: ((r - want) / want).abs(),
    }))
}
