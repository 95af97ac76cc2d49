//! The narrow `cvt` formats (`ops::mx`) over every encoding, against values worked out here
//! from the format definitions (PTX ISA 8.8 §5.2.5.1; OCP Microscaling formats): `e2m1` has 2
//! exponent bits of bias 1 and 1 fraction bit, `e2m3` 2 of bias 1 and 3, `e3m2` 3 of bias 3
//! and 2; the exponent field 0 is subnormal; no infinities or NaNs. `ue8m0` is `2^(e-127)`.

use ops::mx::{cvt, MxCvt, Narrow};

/// (format, exponent bits, fraction bits, bias).
const FORMATS: [(Narrow, u32, u32, i32); 3] = [
    (Narrow::E2m1, 2, 1, 1),
    (Narrow::E2m3, 2, 3, 1),
    (Narrow::E3m2, 3, 2, 3),
];

/// The value of a code, from the definition.
fn value(code: u32, e_bits: u32, m_bits: u32, bias: i32) -> f64 {
    let sign = if code >> (e_bits + m_bits) & 1 == 1 {
        -1.0
    } else {
        1.0
    };
    let e = (code >> m_bits) & ((1 << e_bits) - 1);
    let m = f64::from(code & ((1 << m_bits) - 1)) / f64::from(1u32 << m_bits);
    let mag = if e == 0 {
        m * 2f64.powi(1 - bias)
    } else {
        (1.0 + m) * 2f64.powi(e as i32 - bias)
    };
    sign * mag
}

/// An `.f16` encoding of a value that is a normal `.f16` or zero (every narrow value is).
fn f16_bits(v: f64) -> u16 {
    let sign = if v.is_sign_negative() { 0x8000 } else { 0 };
    let a = v.abs();
    if a == 0.0 {
        return sign;
    }
    let e = a.log2().floor() as i32;
    let frac = a / 2f64.powi(e) - 1.0;
    sign | (((e + 15) as u16) << 10) | (frac * 1024.0) as u16
}

fn pair_bits(f: Narrow) -> u32 {
    if f == Narrow::E2m1 {
        8
    } else {
        16
    }
}

#[test]
fn every_code_pair_converts_to_its_f16_pair() {
    for (f, e_bits, m_bits, bias) in FORMATS {
        let bits = 1 + e_bits + m_bits;
        let half = pair_bits(f) / 2;
        for hi in 0..1u32 << bits {
            for lo in 0..1u32 << bits {
                let packed = hi << half | lo;
                let (vh, vl) = (
                    value(hi, e_bits, m_bits, bias),
                    value(lo, e_bits, m_bits, bias),
                );
                let want = u32::from(f16_bits(vh)) << 16 | u32::from(f16_bits(vl));
                let k = MxCvt::F16x2FromPair { f, relu: false };
                assert_eq!(cvt(k, packed, 0), want, "{f:?} {hi:#x} {lo:#x}");
                let relu = |v: f64| {
                    if v < 0.0 || v.is_sign_negative() {
                        0
                    } else {
                        f16_bits(v)
                    }
                };
                let want = u32::from(relu(vh)) << 16 | u32::from(relu(vl));
                let k = MxCvt::F16x2FromPair { f, relu: true };
                assert_eq!(cvt(k, packed, 0), want, "{f:?} relu {hi:#x} {lo:#x}");
            }
        }
    }
}

#[test]
fn six_bit_pairs_ignore_the_two_high_bits_of_each_byte() {
    for f in [Narrow::E2m3, Narrow::E3m2] {
        let k = MxCvt::F16x2FromPair { f, relu: false };
        assert_eq!(cvt(k, 0xc0c0 | 0x0102, 0), cvt(k, 0x0102, 0));
    }
}

/// The code nearest to `x` (ties to the even code), clamped to the largest finite value.
fn nearest(x: f64, e_bits: u32, m_bits: u32, bias: i32) -> u32 {
    let bits = 1 + e_bits + m_bits;
    let sign_bit = 1 << (bits - 1);
    let mut best: Option<(f64, u32)> = None;
    for code in 0..sign_bit {
        let d = (value(code, e_bits, m_bits, bias) - x.abs()).abs();
        best = match best {
            Some((bd, bc)) if bd < d || (bd == d && bc & 1 == 0) => Some((bd, bc)),
            _ => Some((d, code)),
        };
    }
    let code = best.map_or(0, |b| b.1);
    if x.is_sign_negative() {
        code | sign_bit
    } else {
        code
    }
}

#[test]
fn f32_pairs_round_to_nearest_even_and_saturate() {
    for (f, e_bits, m_bits, bias) in FORMATS {
        let half = pair_bits(f) / 2;
        let k = MxCvt::PairFromF32 { f, relu: false };
        let kr = MxCvt::PairFromF32 { f, relu: true };
        // Every multiple of 1/64 in [-40, 40] (the formats' steps are 1/16 at the finest,
        // so this hits every value, every midpoint and points between), past each maximum.
        for i in -2560..=2560 {
            let x = f64::from(i) / 64.0;
            let want = nearest(x, e_bits, m_bits, bias);
            let got = cvt(k, (x as f32).to_bits(), 1.0f32.to_bits());
            assert_eq!(got >> half, want, "{f:?} {x}");
            let want_relu = if x.is_sign_negative() { 0 } else { want };
            let got = cvt(kr, 0.0f32.to_bits(), (x as f32).to_bits());
            assert_eq!(got & ((1 << half) - 1), want_relu, "{f:?} relu {x}");
        }
        let max = (1u32 << (e_bits + m_bits)) - 1;
        let sign_bit = 1 << (e_bits + m_bits);
        let one = |x: f32| cvt(k, x.to_bits(), 0) >> half;
        assert_eq!(one(f32::INFINITY), max);
        assert_eq!(one(f32::NEG_INFINITY), max | sign_bit);
        assert_eq!(one(f32::MAX), max);
        assert_eq!(one(f32::NAN), max, "NaN gives +MAX (docs/spec-notes.md)");
        assert_eq!(one(-0.0), sign_bit);
        assert_eq!(one(1e-30), 0);
    }
}

#[test]
fn ue8m0_codes_are_powers_of_two() {
    for c in 0..=255u32 {
        let packed = c << 8 | (255 - c);
        let d = cvt(MxCvt::Bf16x2FromUe8m0x2, packed, 0);
        for (code, bf) in [(c, d >> 16), (255 - c, d & 0xffff)] {
            let v = f32::from_bits(bf << 16);
            if code == 255 {
                assert!(v.is_nan());
            } else {
                assert_eq!(f64::from(v), 2f64.powi(code as i32 - 127), "code {code}");
            }
        }
    }
}

#[test]
fn f32_to_ue8m0_rounds_toward_zero_or_up() {
    let k = |up, satfinite| MxCvt::Ue8m0x2FromF32 { up, satfinite };
    let one = |x: f64, up, sat| cvt(k(up, sat), (x as f32).to_bits(), 0) >> 8;
    for c in 0..=254u32 {
        let p = 2f64.powi(c as i32 - 127);
        assert_eq!(one(p, false, false), c, "exact {c} rz");
        assert_eq!(one(p, true, false), c, "exact {c} rp");
        assert_eq!(one(p * 1.5, false, false), c, "1.5·2^e rz");
        let up = if c == 254 { 255 } else { c + 1 };
        assert_eq!(one(p * 1.5, true, false), up, "1.5·2^e rp");
        let up_sat = if c == 254 { 254 } else { c + 1 };
        assert_eq!(one(p * 1.5, true, true), up_sat, "1.5·2^e rp satfinite");
    }
    assert_eq!(one(f64::NAN, false, true), 255);
    assert_eq!(one(f64::INFINITY, false, true), 254);
    assert_eq!(one(f64::INFINITY, false, false), 255);
    assert_eq!(one(0.0, true, false), 0);
    assert_eq!(one(-4.0, true, false), 0);
    // The smallest f32 subnormal, 2^-149, is below 2^-127.
    let tiny = cvt(k(true, false), 1, 0) >> 8;
    assert_eq!(tiny, 0);
    // bf16 sources: each half is the upper 16 bits of an f32.
    let bf = |x: f32| x.to_bits() >> 16;
    let d = cvt(
        MxCvt::Ue8m0x2FromBf16x2 {
            up: true,
            satfinite: false,
        },
        bf(3.0) << 16 | bf(0.25),
        0,
    );
    assert_eq!(d, (128 + 1) << 8 | (127 - 2));
}

#[test]
fn f32_redux_orders_signed_zeros_and_handles_nan_as_spelled() {
    use ops::warp::{redux, ReduxOp};
    let min = |abs, nan| ReduxOp::MinF32 { abs, nan };
    let max = |abs, nan| ReduxOp::MaxF32 { abs, nan };
    let b = |x: f32| x.to_bits();
    let nan = 0x7fff_ffffu32;
    // -0 below +0 in either order.
    for v in [[b(0.0), b(-0.0)], [b(-0.0), b(0.0)]] {
        assert_eq!(redux(min(false, false), v), Some(b(-0.0)));
        assert_eq!(redux(max(false, false), v), Some(b(0.0)));
    }
    let vals = [b(3.0), b(-7.5), 0x7fc0_1234, b(2.0)];
    assert_eq!(redux(min(false, false), vals), Some(b(-7.5)));
    assert_eq!(redux(max(false, false), vals), Some(b(3.0)));
    assert_eq!(redux(min(true, false), vals), Some(b(2.0)));
    assert_eq!(redux(max(true, false), vals), Some(b(7.5)));
    assert_eq!(redux(min(false, true), vals), Some(nan));
    assert_eq!(redux(max(true, true), vals), Some(nan));
    // One member, a NaN: the canonical NaN.
    assert_eq!(redux(min(false, false), [0xffc0_0001]), Some(nan));
    assert_eq!(redux(max(false, false), [b(-1.0)]), Some(b(-1.0)));
    assert_eq!(redux(max(true, false), [b(-1.0)]), Some(b(1.0)));
    assert_eq!(redux(min(false, false), []), None);
}
