//! `ops::fp8` against encodings worked out by hand from the formats of PTX ISA 8.x §5.2.5.1
//! (e4m3: bias 7, 3 fraction bits, largest finite 448, NaN 0x7f; e5m2: bias 15, 2 fraction
//! bits, IEEE infinities, largest finite 57344) and the `.satfinite`/`.relu` rules of §9.7.9.21.

use ops::fp8::{self, Fp8};

#[test]
fn e4m3_encodings() {
    let c = |x: f64| fp8::from_f64(x, Fp8::E4m3, false);
    assert_eq!(c(1.0), 0x38); // 0 0111 000
    assert_eq!(c(-2.0), 0xc0); // 1 1000 000
    assert_eq!(c(0.1), 0x1d); // 1.6 * 2^-4: fraction 4.8/8 rounds to 5
    assert_eq!(c(448.0), 0x7e);
    assert_eq!(c(464.0), 0x7e); // halfway to 480: ties to the even 448
    assert_eq!(c(500.0), 0x7e); // .satfinite
    assert_eq!(c(f64::INFINITY), 0x7e);
    assert_eq!(c(f64::NEG_INFINITY), 0xfe);
    assert_eq!(c(f64::NAN), 0x7f);
    assert_eq!(c(2f64.powi(-9)), 0x01); // smallest subnormal
    assert_eq!(c(2f64.powi(-10)), 0x00); // halfway to it: ties to even zero
    assert_eq!(c(0.75 * 2f64.powi(-9)), 0x01);
    assert_eq!(c(-0.0), 0x80);
}

#[test]
fn e5m2_encodings() {
    let c = |x: f64| fp8::from_f64(x, Fp8::E5m2, false);
    assert_eq!(c(1.0), 0x3c); // 0 01111 00
    assert_eq!(c(1.5), 0x3e);
    assert_eq!(c(1.125), 0x3c); // tie between 1.0 and 1.25: even
    assert_eq!(c(1.375), 0x3e); // tie between 1.25 and 1.5: even
    assert_eq!(c(57344.0), 0x7b);
    assert_eq!(c(65536.0), 0x7b); // .satfinite instead of infinity
    assert_eq!(c(f64::NEG_INFINITY), 0xfb);
    assert_eq!(c(f64::NAN), 0x7f);
    assert_eq!(c(2f64.powi(-16)), 0x01); // smallest subnormal
}

#[test]
fn relu_clamps_negatives_and_keeps_nan() {
    for f in [Fp8::E4m3, Fp8::E5m2] {
        assert_eq!(fp8::from_f64(-1.0, f, true), 0);
        assert_eq!(fp8::from_f64(-0.0, f, true), 0);
        assert_eq!(fp8::from_f64(f64::NAN, f, true), 0x7f);
    }
    assert_eq!(fp8::from_f64(2.0, Fp8::E4m3, true), 0x40);
}

#[test]
fn pairs_pack_a_high_and_b_low() {
    assert_eq!(fp8::cvt_x2_f32(1.0, -2.0, Fp8::E4m3, false), 0x38c0);
    // f16x2 source: 0x3c00 (1.0) high, 0xc000 (-2.0) low.
    assert_eq!(fp8::cvt_x2_f16x2(0x3c00_c000, Fp8::E5m2, false), 0x3cc0);
    assert_eq!(fp8::cvt_x2_f16x2(0x3c00_c000, Fp8::E5m2, true), 0x3c00);
}

#[test]
fn widening_to_f16_is_exact() {
    // e4m3 1.0 -> 0x3c00; 448 = 1.75 * 2^8 -> 0 10111 1100000000 = 0x5f00; 2^-9 -> 0x1800.
    assert_eq!(fp8::cvt_f16x2_x2(0x387e, Fp8::E4m3, false), 0x3c00_5f00);
    assert_eq!(fp8::cvt_f16x2_x2(0x017f, Fp8::E4m3, false), 0x1800_7fff);
    // e5m2 is the upper byte of an f16: infinity stays infinity; NaN becomes canonical.
    assert_eq!(fp8::cvt_f16x2_x2(0x7cfb, Fp8::E5m2, false), 0x7c00_fb00);
    assert_eq!(fp8::cvt_f16x2_x2(0x7dc0, Fp8::E5m2, true), 0x7fff_0000);
    // Every e5m2 value (not NaN) widens to the f16 with the same upper byte.
    for x in 0u8..=255 {
        if x & 0x7f > 0x7c {
            continue;
        }
        assert_eq!(
            fp8::cvt_f16x2_x2(u16::from(x), Fp8::E5m2, false),
            u32::from(x) << 8
        );
    }
    // And every finite e4m3 value converts back to itself.
    for x in 0u8..=255 {
        if x & 0x7f == 0x7f {
            continue;
        }
        let v = fp8::to_f64(x, Fp8::E4m3);
        assert_eq!(fp8::from_f64(v, Fp8::E4m3, false), x, "{x:#x}");
    }
}
