//! `cvt` to and from `.f16`, IEEE binary16 and the PTX 1.1 format (§6.5.1: no NaN, maximum
//! "~131,000"), swept over all 65536 encodings and all midpoints between neighbours, against a
//! decoding formula and a table search written in this test.

use ops::cvt::{cvt, CvtMode, CvtRounding, CvtType, F16Rules};
use ops::float::Rounding;
use proptest::prelude::*;
use std::sync::OnceLock;

const MODES: [Rounding; 4] = [Rounding::Rn, Rounding::Rz, Rounding::Rm, Rounding::Rp];

/// Value of a binary16 encoding by the textbook formula; `None` for Inf/NaN encodings.
fn decode(h: u16, rules: F16Rules) -> Option<f64> {
    let s = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let e = i32::from((h >> 10) & 0x1f);
    let m = f64::from(h & 0x3ff);
    if e == 31 && rules == F16Rules::Ieee {
        return None;
    }
    Some(if e == 0 {
        s * m * 2f64.powi(-24)
    } else {
        s * (1024.0 + m) * 2f64.powi(e - 25)
    })
}

fn mode(rnd: Rounding, rules: F16Rules) -> CvtMode {
    CvtMode {
        rnd: Some(CvtRounding::Float(rnd)),
        f16: rules,
        ..CvtMode::default()
    }
}

fn max_bits(rules: F16Rules) -> u16 {
    match rules {
        F16Rules::Ieee => 0x7bff,
        F16Rules::Ptx11 => 0x7fff,
    }
}

/// Reference rounding of a finite or infinite `x` to f16 by searching the sorted magnitudes.
fn reference(x: f64, rnd: Rounding, rules: F16Rules, table: &[f64]) -> u16 {
    let neg = x.is_sign_negative();
    let sign = if neg { 0x8000 } else { 0 };
    let a = x.abs();
    let max = max_bits(rules);
    let top = table[max as usize];
    if a.is_infinite() {
        // Inf is exact (IEEE); the 1.1 format has none and saturates.
        return sign | if rules == F16Rules::Ieee { 0x7c00 } else { max };
    }
    if a > top {
        let to_inf = rules == F16Rules::Ieee
            && match rnd {
                // beyond max + half an ulp (2^4 for IEEE binary16) rounds to Inf
                Rounding::Rn => a >= top + 16.0,
                Rounding::Rz => false,
                Rounding::Rm => neg,
                Rounding::Rp => !neg,
            };
        return sign | if to_inf { 0x7c00 } else { max };
    }
    let i = table.partition_point(|v| *v <= a) - 1; // table[i] <= a < table[i + 1]
    if table[i] == a {
        return sign | i as u16;
    }
    let (lo, hi) = (i as u16, i as u16 + 1);
    let pick = match rnd {
        Rounding::Rn => {
            let (dl, dh) = (a - table[i], table[i + 1] - a);
            if dl < dh || (dl == dh && lo % 2 == 0) {
                lo
            } else {
                hi
            }
        }
        Rounding::Rz => lo,
        Rounding::Rm => {
            if neg {
                hi
            } else {
                lo
            }
        }
        Rounding::Rp => {
            if neg {
                lo
            } else {
                hi
            }
        }
    };
    sign | pick
}

/// Sorted magnitudes of all finite non-negative encodings, built once per format.
fn table(rules: F16Rules) -> &'static [f64] {
    static TABLES: OnceLock<[Vec<f64>; 2]> = OnceLock::new();
    let build = |r| (0..=max_bits(r)).map(|h| decode(h, r).unwrap()).collect();
    let t = TABLES.get_or_init(|| [build(F16Rules::Ieee), build(F16Rules::Ptx11)]);
    match rules {
        F16Rules::Ieee => &t[0],
        F16Rules::Ptx11 => &t[1],
    }
}

#[test]
fn every_f16_to_f32_and_f64() {
    for rules in [F16Rules::Ieee, F16Rules::Ptx11] {
        for h in 0..=u16::MAX {
            let got32 = cvt(
                u64::from(h),
                CvtType::F16,
                CvtType::F32,
                CvtMode {
                    f16: rules,
                    ..CvtMode::default()
                },
            );
            let got64 = cvt(
                u64::from(h),
                CvtType::F16,
                CvtType::F64,
                CvtMode {
                    f16: rules,
                    ..CvtMode::default()
                },
            );
            match decode(h, rules) {
                Some(v) => {
                    assert_eq!(got32, u64::from((v as f32).to_bits()), "{h:#x}");
                    assert_eq!(got64, v.to_bits(), "{h:#x}");
                }
                None => {
                    let sign = u64::from(h >> 15);
                    let m = u64::from(h & 0x3ff);
                    let want = if m == 0 {
                        sign << 31 | 0x7f80_0000
                    } else {
                        // NaN is preserved: payload kept, quiet bit set.
                        sign << 31 | 0x7fc0_0000 | m << 13
                    };
                    assert_eq!(got32, want, "{h:#x}");
                }
            }
            // PTX 1.1 values up to 131008 are all ordinary numbers.
            if rules == F16Rules::Ptx11 {
                assert!(f32::from_bits(got32 as u32).is_finite());
            }
        }
    }
    assert_eq!(decode(0x7fff, F16Rules::Ptx11), Some(131_008.0));
}

#[test]
fn every_f16_value_and_midpoint_from_f32() {
    for rules in [F16Rules::Ieee, F16Rules::Ptx11] {
        let t = table(rules);
        let max = max_bits(rules) as usize;
        let mut inputs: Vec<f64> = Vec::new();
        for i in 0..=max {
            inputs.push(t[i]);
            if i < max {
                let mid = (t[i] + t[i + 1]) / 2.0; // exact in f64
                inputs.push(mid);
                let m32 = mid as f32; // exact too (f16 midpoints need 12 bits)
                inputs.push(f64::from(f32::from_bits(m32.to_bits() + 1)));
                inputs.push(f64::from(f32::from_bits(m32.to_bits() - 1)));
            }
        }
        inputs.extend([
            t[max] + 8.0,
            t[max] + 16.0,
            t[max] * 4.0,
            f64::from(f32::MAX),
            f64::INFINITY,
        ]);
        for x in inputs {
            for x in [x, -x] {
                let x32 = x as f32;
                assert_eq!(f64::from(x32), x);
                for rnd in MODES {
                    let want = reference(x, rnd, rules, t);
                    let got = cvt(
                        u64::from(x32.to_bits()),
                        CvtType::F32,
                        CvtType::F16,
                        mode(rnd, rules),
                    );
                    assert_eq!(got, u64::from(want), "{x} {rnd:?} {rules:?}");
                }
            }
        }
    }
}

#[test]
fn nan_to_f16() {
    let m = mode(Rounding::Rn, F16Rules::Ieee);
    let got = cvt(u64::from(f32::NAN.to_bits()), CvtType::F32, CvtType::F16, m);
    assert_eq!(got & 0x7c00, 0x7c00);
    assert_ne!(got & 0x3ff, 0);
    // PTX 1.1: "NaN is preserved, except for .f16 (no NaN available)": NaN → +0.
    let got = cvt(
        u64::from(f32::NAN.to_bits()),
        CvtType::F32,
        CvtType::F16,
        mode(Rounding::Rn, F16Rules::Ptx11),
    );
    assert_eq!(got, 0);
    // §6.5.1: beyond the range → the maximum (~131,000) for the 1.1 format, under every rounding.
    for rnd in MODES {
        let got = cvt(
            u64::from(1.0e6f32.to_bits()),
            CvtType::F32,
            CvtType::F16,
            mode(rnd, F16Rules::Ptx11),
        );
        assert_eq!(got, 0x7fff);
        let got = cvt(
            u64::from(f32::NEG_INFINITY.to_bits()),
            CvtType::F32,
            CvtType::F16,
            mode(rnd, F16Rules::Ptx11),
        );
        assert_eq!(got, 0xffff);
    }
}

#[test]
fn ints_to_f16() {
    for rules in [F16Rules::Ieee, F16Rules::Ptx11] {
        let t = table(rules);
        for v in
            (-140_000i64..140_000)
                .step_by(7)
                .chain([i64::MAX, i64::MIN, 65_519, 65_520, 131_040])
        {
            for rnd in MODES {
                let want = reference(v as f64, rnd, rules, t);
                if v.unsigned_abs() < 1 << 53 {
                    assert_eq!(
                        cvt(v as u64, CvtType::S64, CvtType::F16, mode(rnd, rules)),
                        u64::from(want),
                        "{v} {rnd:?}"
                    );
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn f64_to_f16(bits in any::<u64>(), small in -30i32..20, frac in any::<u64>()) {
        let near = f64::from_bits(((1023 + small) as u64) << 52 | (frac & 0x800f_ffff_ffff_ffff));
        for x in [f64::from_bits(bits), near] {
            if x.is_nan() { continue; }
            for rules in [F16Rules::Ieee, F16Rules::Ptx11] {
                let t = table(rules);
                for rnd in MODES {
                    let got = cvt(x.to_bits(), CvtType::F64, CvtType::F16, mode(rnd, rules));
                    prop_assert_eq!(got, u64::from(reference(x, rnd, rules, t)), "{} {:?}", x, rnd);
                }
            }
        }
    }
}
