//! `min max abs neg sad copysign testp`, `.sat`, `.ftz`, NaN results, `mad` (unfused, PTX 1.1
//! Table 19) versus `fma`, `div` by zero, against the spec's pseudo-code written out here.

use ops::float::{self, DivKind, Rounding, TestpOp};
use proptest::prelude::*;

const SUB: f32 = 1.0e-40; // subnormal f32

fn bits(x: f32) -> u32 {
    x.to_bits()
}

/// Table 27 pseudo-code: `isNaN(a) ? b : isNaN(b) ? a : (a < b) ? a : b`.
#[allow(clippy::if_same_then_else)] // a literal transcription, branch for branch
fn spec_min(a: f32, b: f32) -> f32 {
    if a.is_nan() {
        b
    } else if b.is_nan() {
        a
    } else if a < b {
        a
    } else {
        b
    }
}

/// Table 28 pseudo-code.
#[allow(clippy::if_same_then_else)] // a literal transcription, branch for branch
fn spec_max(a: f32, b: f32) -> f32 {
    if a.is_nan() {
        b
    } else if b.is_nan() {
        a
    } else if a > b {
        a
    } else {
        b
    }
}

fn any_f32() -> impl Strategy<Value = f32> {
    prop_oneof![
        any::<u32>().prop_map(f32::from_bits),
        prop::sample::select(vec![
            0.0f32,
            -0.0,
            1.0,
            -1.0,
            f32::NAN,
            -f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            SUB,
            -SUB,
            f32::MAX,
            f32::MIN
        ]),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn min_max_follow_pseudo_code(a in any_f32(), b in any_f32()) {
        prop_assert_eq!(bits(float::min_f32(a, b, false)), bits(spec_min(a, b)));
        prop_assert_eq!(bits(float::max_f32(a, b, false)), bits(spec_max(a, b)));
        let (a64, b64) = (f64::from(a), f64::from(b));
        let m = float::min_f64(a64, b64);
        let want = if a64.is_nan() { b64 } else if b64.is_nan() || a64 < b64 { a64 } else { b64 };
        prop_assert_eq!(m.to_bits(), want.to_bits());
    }

    #[test]
    fn sat_clamps_to_unit_interval(a in any_f32(), b in any_f32()) {
        let r = float::add_f32(a, b, Rounding::Rn, false, true);
        let plain = a + b;
        let want = if plain.is_nan() || plain <= 0.0 { 0.0 } else if plain >= 1.0 { 1.0 } else { plain };
        prop_assert_eq!(bits(r), bits(want));
    }

    #[test]
    fn ftz_never_sees_or_makes_subnormals(a in any_f32(), b in any_f32()) {
        for r in [
            float::add_f32(a, b, Rounding::Rn, true, false),
            float::mul_f32(a, b, Rounding::Rz, true, false),
            float::fma_f32(a, b, a, Rounding::Rm, true, false),
            float::div_f32(a, b, DivKind::Rounded(Rounding::Rp), true, false),
        ] {
            prop_assert!(!r.is_subnormal());
        }
        // Flushed inputs: the result equals the one computed from sign-preserving zeros.
        let fl = |x: f32| if x.is_subnormal() { f32::from_bits(bits(x) & 0x8000_0000) } else { x };
        let want = fl(fl(a) * fl(b));
        let got = float::mul_f32(a, b, Rounding::Rn, true, false);
        prop_assert!(bits(got) == bits(want) || (got.is_nan() && want.is_nan()));
    }

    #[test]
    fn abs_neg_copysign_touch_only_the_sign(a in any::<u32>(), b in any::<u32>()) {
        let (x, y) = (f32::from_bits(a), f32::from_bits(b));
        prop_assert_eq!(bits(float::abs_f32(x, false)), a & 0x7fff_ffff);
        prop_assert_eq!(bits(float::neg_f32(x, false)), a ^ 0x8000_0000);
        prop_assert_eq!(bits(float::copysign_f32(x, y)), (b & 0x7fff_ffff) | (a & 0x8000_0000));
        let (xa, yb) = (f64::from_bits(u64::from(a) << 32 | u64::from(b)), f64::from_bits(u64::from(b) << 32));
        prop_assert_eq!(float::copysign_f64(xa, yb).to_bits() >> 63, u64::from(a >> 31));
        prop_assert_eq!(float::neg_f64(xa).to_bits(), xa.to_bits() ^ (1 << 63));
        prop_assert_eq!(float::abs_f64(xa).to_bits(), xa.to_bits() & !(1 << 63));
    }

    #[test]
    fn nan_results_are_canonical(a in any::<u32>()) {
        let nan = f32::from_bits(a | 0x7f80_0001);
        prop_assert_eq!(bits(float::add_f32(nan, 1.0, Rounding::Rn, false, false)), float::NAN_F32);
        prop_assert_eq!(bits(float::add_f32(nan, 1.0, Rounding::Rz, false, false)), float::NAN_F32);
        prop_assert_eq!(bits(float::mul_f32(1.0, nan, Rounding::Rp, false, false)), float::NAN_F32);
        let n64 = f64::from_bits(u64::from(a) | 0x7ff0_0000_0000_0001);
        prop_assert_eq!(float::fma_f64(n64, 1.0, 2.0, Rounding::Rm).to_bits(), float::NAN_F64);
    }

    #[test]
    fn sad_matches_table_22(a in any_f32(), b in any_f32(), c in any_f32()) {
        let want = c + if a < b { b - a } else { a - b };
        let got = float::sad_f32(a, b, c);
        prop_assert!(bits(got) == bits(want) || (want.is_nan() && bits(got) == float::NAN_F32));
    }

    #[test]
    fn mad_rounds_the_product_first(a in any_f32(), b in any_f32(), c in any_f32()) {
        let t = a * b;
        let want = t + c;
        let got = float::mad_f32(a, b, c, false, false);
        prop_assert!(bits(got) == bits(want) || (want.is_nan() && bits(got) == float::NAN_F32));
    }
}

#[test]
fn spec_min_max_nan_rule() {
    // "If either source operand is NaN, then the result is the other operand."
    assert_eq!(float::min_f32(f32::NAN, 3.0, false), 3.0);
    assert_eq!(float::min_f32(3.0, f32::NAN, false), 3.0);
    assert_eq!(float::max_f32(f32::NAN, -3.0, false), -3.0);
    assert_eq!(float::max_f64(-3.0, f64::NAN), -3.0);
    assert!(float::max_f32(f32::NAN, f32::NAN, false).is_nan());
    // Examples `max.f32 f0,f1,f2` / `min.f32 z,z,x`.
    assert_eq!(float::max_f32(1.5, 2.5, false), 2.5);
    assert_eq!(float::min_f32(1.5, 2.5, false), 1.5);
    // Equal operands (including ±0) select b by the pseudo-code.
    assert_eq!(bits(float::min_f32(0.0, -0.0, false)), bits(-0.0));
    assert_eq!(bits(float::min_f32(-0.0, 0.0, false)), bits(0.0));
    // .ftz flushes before comparing: -SUB and +0 are equal, b is chosen.
    assert_eq!(bits(float::max_f32(-SUB, 0.0, true)), bits(0.0));
    assert_eq!(bits(float::max_f32(-SUB, 0.0, false)), bits(0.0));
    assert_eq!(bits(float::min_f32(-SUB, 0.0, false)), bits(-SUB));
}

#[test]
#[allow(clippy::approx_constant)] // 3.14159 is the spec example's literal
fn spec_div_examples() {
    // "Division by zero creates a value of infinity"; the sign is IEEE's sign(a) ^ sign(b).
    let k = DivKind::Rounded(Rounding::Rn);
    assert_eq!(float::div_f32(1.0, 0.0, k, false, false), f32::INFINITY);
    assert_eq!(
        float::div_f32(-1.0, 0.0, k, false, false),
        f32::NEG_INFINITY
    );
    assert_eq!(
        float::div_f32(1.0, -0.0, k, false, false),
        f32::NEG_INFINITY
    );
    assert_eq!(
        bits(float::div_f32(0.0, 0.0, k, false, false)),
        float::NAN_F32
    );
    // `div.f32 diam,circum,3.14159`
    let circum = 10.0f32;
    assert_eq!(
        float::div_f32(circum, 3.14159, k, false, false),
        circum / 3.14159
    );
    assert_eq!(float::div_f64(1.0, 3.0, Rounding::Rn), 1.0 / 3.0);
    // .sat on the quotient
    assert_eq!(float::div_f32(3.0, 2.0, k, false, true), 1.0);
    // .approx is a · (1/b): 1/3 rounded, times 3, rounded.
    let approx = float::div_f32(1.0, 3.0, DivKind::Approx, false, false);
    assert_eq!(approx, 1.0 / 3.0);
    let approx = float::div_f32(3.0, 3.0, DivKind::Approx, false, false);
    assert_eq!(approx, 3.0 * (1.0f32 / 3.0));
    assert_eq!(
        float::div_f32(7.0, 5.0, DivKind::Full, false, false),
        7.0 / 5.0
    );
}

#[test]
fn mad_differs_from_fma() {
    // (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24: the product rounds to 1 + 2^-11 (tie to even), so
    // mad (unfused) loses the 2^-24 that fma keeps.
    let a = 1.0 + 2f32.powi(-12);
    let c = -(1.0 + 2f32.powi(-11));
    assert_eq!(float::mad_f32(a, a, c, false, false), 0.0);
    assert_eq!(
        float::fma_f32(a, a, c, Rounding::Rn, false, false),
        2f32.powi(-24)
    );
    let a64 = 1.0 + 2f64.powi(-27);
    let c64 = -(1.0 + 2f64.powi(-26));
    assert_eq!(float::mad_f64(a64, a64, c64), 0.0);
    assert_eq!(float::fma_f64(a64, a64, c64, Rounding::Rn), 2f64.powi(-54));
}

#[test]
fn sat_edge_values() {
    let s = |x: f32| bits(float::saturate_f32(x));
    assert_eq!(s(f32::NAN), 0);
    assert_eq!(s(-0.0), 0);
    assert_eq!(s(-5.0), 0);
    assert_eq!(s(f32::INFINITY), bits(1.0));
    assert_eq!(s(0.25), bits(0.25));
    assert_eq!(s(SUB), bits(SUB));
    // add.sat of NaN-producing operands is +0.
    assert_eq!(
        bits(float::add_f32(
            f32::INFINITY,
            f32::NEG_INFINITY,
            Rounding::Rn,
            false,
            true
        )),
        0
    );
}

#[test]
fn testp_classes() {
    let cases: [(f32, [bool; 6]); 8] = [
        // finite infinite number notanumber normal subnormal
        (0.0, [true, false, true, false, false, false]),
        (-0.0, [true, false, true, false, false, false]),
        (1.0, [true, false, true, false, true, false]),
        (SUB, [true, false, true, false, false, true]),
        (-SUB, [true, false, true, false, false, true]),
        (f32::INFINITY, [false, true, true, false, false, false]),
        (f32::NEG_INFINITY, [false, true, true, false, false, false]),
        (f32::NAN, [false, false, false, true, false, false]),
    ];
    let ops = [
        TestpOp::Finite,
        TestpOp::Infinite,
        TestpOp::Number,
        TestpOp::NotANumber,
        TestpOp::Normal,
        TestpOp::Subnormal,
    ];
    for (x, want) in cases {
        for (op, w) in ops.iter().zip(want) {
            assert_eq!(float::testp_f32(*op, x), w, "{op:?} {x}");
            assert_eq!(
                float::testp_f64(
                    *op,
                    f64::from(x) * if x.is_subnormal() { 1e-280 } else { 1.0 }
                ),
                w,
                "{op:?} f64 {x}"
            );
        }
    }
}

#[test]
fn table_16_examples() {
    // `add.rz.f32 f1,f2,f3`, `mul.f32 circumf,radius,pi`, `sub` default .rn.
    assert_eq!(
        float::add_f32(0.1, 0.2, Rounding::Rn, false, false),
        0.1f32 + 0.2f32
    );
    assert_eq!(
        float::mul_f32(2.0, std::f32::consts::PI, Rounding::Rn, false, false),
        2.0 * std::f32::consts::PI
    );
    assert_eq!(float::sub_f64(1.0, 0.25, Rounding::Rn), 0.75);
    // x - x = +0 under .rn/.rz/.rp, -0 under .rm (IEEE 754 §6.3).
    for (rnd, neg) in [
        (Rounding::Rn, false),
        (Rounding::Rz, false),
        (Rounding::Rp, false),
        (Rounding::Rm, true),
    ] {
        assert_eq!(
            float::sub_f32(3.0, 3.0, rnd, false, false).is_sign_negative(),
            neg,
            "{rnd:?}"
        );
        assert_eq!(
            float::sub_f64(3.0, 3.0, rnd).is_sign_negative(),
            neg,
            "{rnd:?}"
        );
    }
}
