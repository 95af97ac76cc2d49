//! `rcp sqrt rsqrt sin cos lg2 ex2` (Tables 53–59): special values from the spec's notes,
//! exactly representable results, correctly rounded `.rn` checked by exact bracketing in f64,
//! and the documented error bounds of the `.approx` forms.

use ops::float::{Rounding, NAN_F32, NAN_F64};
use ops::transcend::{self, Precision};
use proptest::prelude::*;

const RN: Precision = Precision::Rounded(Rounding::Rn);

fn ulp32(x: f32) -> f64 {
    let x = x.abs();
    if x < f32::MIN_POSITIVE {
        2f64.powi(-149)
    } else {
        f64::from(f32::from_bits(x.to_bits() + 1)) - f64::from(x)
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]

    /// sqrt.rn.f32: (r - u/2)² < a < (r + u/2)², all exact in f64 (25-bit operands).
    #[test]
    fn sqrt_rn_f32_is_correctly_rounded(bits in 0u32..0x7f80_0000) {
        let a = f32::from_bits(bits);
        let r = transcend::sqrt_f32(a, RN, false);
        let half_below = if r.to_bits() == 0 { 0.0 } else { (f64::from(r) + f64::from(f32::from_bits(r.to_bits() - 1))) / 2.0 };
        let half_above = (f64::from(r) + f64::from(f32::from_bits(r.to_bits() + 1))) / 2.0;
        let a = f64::from(a);
        prop_assert!(half_below * half_below < a || a == 0.0);
        prop_assert!(a < half_above * half_above);
        prop_assert_eq!(transcend::sqrt_f32(f32::from_bits(bits), Precision::Approx, false), r);
    }

    /// rcp.rn.f32: |1 - r·a| ≤ ulp(r)/2 · |a|, exact in f64.
    #[test]
    fn rcp_rn_f32_is_correctly_rounded(bits in 0x0080_0000u32..0x7e80_0000) {
        let a = f32::from_bits(bits);
        let r = transcend::rcp_f32(a, RN, false);
        let err = (1.0 - f64::from(r) * f64::from(a)).abs();
        prop_assert!(err <= ulp32(r) / 2.0 * f64::from(a), "{} {}", a, r);
    }

    /// rsqrt.approx.f32: within 1 ulp of 1/sqrt(a) (checked as |r²·a - 1| ≤ 2^-22, plus slack
    /// for evaluating it in f64).
    #[test]
    fn rsqrt_f32_bound(bits in 0x0080_0000u32..0x7f80_0000) {
        let a = f32::from_bits(bits);
        let r = f64::from(transcend::rsqrt_f32(a, false));
        prop_assert!((r * r * f64::from(a) - 1.0).abs() <= 2f64.powi(-22), "{}", a);
        let r64 = transcend::rsqrt_f64(f64::from(a), false);
        prop_assert!((r64 * r64 * f64::from(a) - 1.0).abs() <= 2f64.powi(-50));
    }

    /// sin²+cos² = 1 and ex2(lg2(x)) = x within a few f32 ulps.
    #[test]
    fn approx_identities(x in -100.0f32..100.0, y in 1.0e-30f32..1.0e30) {
        let (s, c) = (f64::from(transcend::sin_f32(x, false)), f64::from(transcend::cos_f32(x, false)));
        prop_assert!((s * s + c * c - 1.0).abs() <= 4.0 * f64::from(f32::EPSILON));
        let l = transcend::lg2_f32(y, false);
        let back = f64::from(transcend::ex2_f32(l, false));
        // lg2 carries ≤ 1 ulp of |l| ≤ 100, which ex2 multiplies by ln 2 in relative terms.
        let tol = 2.0 * f64::from(f32::EPSILON) + ulp32(l) * std::f64::consts::LN_2;
        prop_assert!((back / f64::from(y) - 1.0).abs() <= tol, "{} {} {}", y, l, back);
    }
}

#[test]
fn exact_results() {
    for k in -149..128 {
        let p = 2f64.powi(k) as f32;
        assert_eq!(transcend::ex2_f32(k as f32, false), p, "ex2 {k}");
        assert_eq!(transcend::lg2_f32(p, false), k as f32, "lg2 {k}");
        if (-127..=127).contains(&k) {
            let want = (1.0 / 2f64.powi(k)) as f32; // a power of two: exact
            assert_eq!(
                transcend::rcp_f32(p, Precision::Rounded(Rounding::Rz), false),
                want
            );
        }
    }
    assert_eq!(transcend::sqrt_f32(16.0, RN, false), 4.0);
    assert_eq!(transcend::sqrt_f64(2.25, Rounding::Rz), 1.5);
    assert_eq!(transcend::rsqrt_f32(4.0, false), 0.5);
    assert_eq!(transcend::rcp_f64(4.0, Precision::Approx), 0.25);
    assert_eq!(transcend::sin_f32(0.0, false), 0.0);
    assert_eq!(transcend::cos_f32(0.0, false), 1.0);
    // Example `sin.f32 sa,a` at π/6 (rounded): 0.5 within an ulp.
    let s = transcend::sin_f32(std::f32::consts::FRAC_PI_6, false);
    assert!((s - 0.5).abs() <= f32::EPSILON / 2.0);
}

#[test]
fn special_values_from_the_notes() {
    // sqrt: "If a < 0; d = NaN" and "sqrt(-0.0) ... yields -0.0".
    assert_eq!(transcend::sqrt_f32(-1.0, RN, false).to_bits(), NAN_F32);
    assert_eq!(
        transcend::sqrt_f32(-0.0, RN, false).to_bits(),
        (-0.0f32).to_bits()
    );
    assert_eq!(
        transcend::sqrt_f64(-0.0, Rounding::Rp).to_bits(),
        (-0.0f64).to_bits()
    );
    assert_eq!(transcend::sqrt_f64(-2.0, Rounding::Rm).to_bits(), NAN_F64);
    assert_eq!(
        transcend::sqrt_f32(f32::INFINITY, Precision::Rounded(Rounding::Rz), false),
        f32::INFINITY
    );
    // rsqrt: "if a < 0; d = NaN; if a == 0, d = Inf"; -0 gives 1/(-0) = -Inf by the pseudo-code.
    assert_eq!(transcend::rsqrt_f32(-1.0, false).to_bits(), NAN_F32);
    assert_eq!(transcend::rsqrt_f32(0.0, false), f32::INFINITY);
    assert_eq!(transcend::rsqrt_f32(-0.0, false), f32::NEG_INFINITY);
    assert_eq!(transcend::rsqrt_f32(f32::INFINITY, false), 0.0);
    // rcp of zeros and infinities.
    assert_eq!(transcend::rcp_f32(-0.0, RN, false), f32::NEG_INFINITY);
    assert_eq!(
        transcend::rcp_f32(f32::INFINITY, Precision::Rounded(Rounding::Rm), false),
        0.0
    );
    assert_eq!(
        transcend::rcp_f64(-0.0, Precision::Rounded(Rounding::Rz)),
        f64::NEG_INFINITY
    );
    // lg2 / ex2 / sin / cos.
    assert_eq!(transcend::lg2_f32(0.0, false), f32::NEG_INFINITY);
    assert_eq!(transcend::lg2_f32(-2.0, false).to_bits(), NAN_F32);
    assert_eq!(transcend::lg2_f32(f32::INFINITY, false), f32::INFINITY);
    assert_eq!(transcend::ex2_f32(f32::NEG_INFINITY, false), 0.0);
    assert_eq!(transcend::ex2_f32(f32::INFINITY, false), f32::INFINITY);
    assert_eq!(transcend::sin_f32(f32::INFINITY, false).to_bits(), NAN_F32);
    assert_eq!(transcend::cos_f32(f32::NAN, false).to_bits(), NAN_F32);
}

#[test]
fn ftz_flushes_operands_and_results() {
    let sub = 1.0e-40f32;
    // A flushed operand is a zero: lg2 → -Inf, rcp → ±Inf, sqrt → ±0.
    assert_eq!(transcend::lg2_f32(sub, true), f32::NEG_INFINITY);
    assert!(transcend::lg2_f32(sub, false).is_finite());
    assert_eq!(transcend::rcp_f32(-sub, RN, true), f32::NEG_INFINITY);
    assert_eq!(transcend::sqrt_f32(-sub, RN, true).to_bits(), 0x8000_0000);
    // Subnormal results are flushed: 2^-130 → +0.
    assert_eq!(transcend::ex2_f32(-130.0, true).to_bits(), 0);
    assert_eq!(transcend::ex2_f32(-130.0, false), 2f32.powi(-130));
    assert_eq!(transcend::rcp_f32(2f32.powi(127), RN, true), 0.0);
    assert_eq!(
        transcend::rcp_f64(f64::MIN_POSITIVE / 4.0, Precision::Approx),
        f64::INFINITY
    );
}
