//! `cvt` to and from `.bf16`, and `cvt.rna.tf32.f32`, against references written here: bf16 is
//! the top half of an f32, so f32 bit arithmetic (round-to-nearest-even on the dropped 16 bits,
//! truncation for `.rz`) is the reference; tf32 is checked with f64 arithmetic (`f64::round` is
//! ties-away-from-zero).

use ops::cvt::{cvt, cvt_rna_tf32_f32, CvtMode, CvtRounding, CvtType, IntRounding};
use ops::float::Rounding;

fn mode(rnd: Option<CvtRounding>) -> CvtMode {
    CvtMode {
        rnd,
        ..CvtMode::default()
    }
}

/// f32 → bf16 under a float rounding, by bit arithmetic on the f32 pattern (finite inputs).
fn bf16_of_f32(b: u32, rnd: Rounding) -> u16 {
    let neg = b >> 31 != 0;
    let kept = b >> 16;
    let rem = b & 0xffff;
    let up = match rnd {
        Rounding::Rn => rem > 0x8000 || (rem == 0x8000 && kept & 1 == 1),
        Rounding::Rz => false,
        Rounding::Rm => neg && rem != 0,
        Rounding::Rp => !neg && rem != 0,
    };
    let r = kept + u32::from(up);
    // Rounding the largest finite magnitude up lands on Inf; .rz/.rm/.rp keep the largest finite
    // value instead, which the truncated pattern already is when not rounding up.
    r as u16
}

fn samples() -> Vec<u32> {
    let mut v: Vec<u32> = vec![
        0,
        0x8000_0000,
        1,
        0x8000_0001,
        0x007f_ffff,
        0x0080_0000,
        0x3f80_0000,
        0x3f80_8000,
        0x3f81_8000,
        0x3f80_8001,
        0x7f7f_ffff,
        0xff7f_ffff,
        0x7f7f_7fff,
        0x7f80_0000,
        0xff80_0000,
    ];
    let mut s = 0x1234_5678_9abc_def0u64;
    for _ in 0..200_000 {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        v.push((s >> 32) as u32);
    }
    v
}

#[test]
fn f32_to_bf16_rounds_like_the_bit_reference() {
    for b in samples() {
        let x = f32::from_bits(b);
        if x.is_nan() {
            let r = cvt(u64::from(b), CvtType::F32, CvtType::Bf16, mode(None)) as u16;
            assert!(r & 0x7f80 == 0x7f80 && r & 0x7f != 0, "NaN {b:#x} → {r:#x}");
            continue;
        }
        for rnd in [Rounding::Rn, Rounding::Rz, Rounding::Rm, Rounding::Rp] {
            let got = cvt(
                u64::from(b),
                CvtType::F32,
                CvtType::Bf16,
                mode(Some(CvtRounding::Float(rnd))),
            ) as u16;
            assert_eq!(got, bf16_of_f32(b, rnd), "{b:#010x} {rnd:?}");
        }
    }
}

#[test]
fn bf16_widens_exactly_and_converts_to_integers() {
    for h in 0..=u16::MAX {
        let f = f32::from_bits(u32::from(h) << 16);
        let wide = cvt(u64::from(h), CvtType::Bf16, CvtType::F32, mode(None)) as u32;
        if f.is_nan() {
            assert!(f32::from_bits(wide).is_nan());
            continue;
        }
        assert_eq!(wide, u32::from(h) << 16, "{h:#06x}");
        let int = cvt(
            u64::from(h),
            CvtType::Bf16,
            CvtType::S32,
            mode(Some(CvtRounding::Int(IntRounding::Rzi))),
        ) as u32 as i32;
        let want = if f.is_nan() {
            0
        } else {
            (f.trunc() as f64).clamp(i32::MIN as f64, i32::MAX as f64) as i32
        };
        assert_eq!(int, want, "{h:#06x} = {f}");
    }
}

#[test]
fn integers_to_bf16_round_to_eight_significant_bits() {
    let mut s = 99u64;
    for k in 0..100_000 {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let v = if k < 600 { k - 300 } else { (s >> 32) as i32 };
        // Reference: |v| to 8 significant bits, ties to even, then the bf16 pattern.
        let mag = v.unsigned_abs() as u64;
        let want = if mag == 0 {
            0u16
        } else {
            let len = 64 - mag.leading_zeros();
            let (mut q, e) = if len <= 8 {
                (mag << (8 - len), len as i32 - 8)
            } else {
                let sh = len - 8;
                let q = mag >> sh;
                let rem = mag & ((1 << sh) - 1);
                let half = 1 << (sh - 1);
                let q = q + u64::from(rem > half || (rem == half && q & 1 == 1));
                (q, sh as i32)
            };
            // q in [128, 256]: value q × 2^e; renormalise a carry to 256.
            let mut e = e;
            if q == 256 {
                q = 128;
                e += 1;
            }
            let exp = (e + 7 + 127) as u16; // value = 1.f × 2^(e+7)
            let sign = if v < 0 { 0x8000 } else { 0 };
            sign | exp << 7 | (q as u16 & 0x7f)
        };
        let got = cvt(
            u64::from(v as u32),
            CvtType::S32,
            CvtType::Bf16,
            mode(Some(CvtRounding::Float(Rounding::Rn))),
        ) as u16;
        assert_eq!(got, want, "{v}");
    }
}

#[test]
fn tf32_rounds_to_ten_fraction_bits_ties_away() {
    for b in samples() {
        let x = f32::from_bits(b);
        let got = cvt_rna_tf32_f32(b);
        if x.is_nan() {
            assert_eq!(got, 0x7fff_ffff);
            continue;
        }
        if x.is_infinite() {
            assert_eq!(got, b);
            continue;
        }
        let a = f64::from(x).abs();
        let want = if a == 0.0 {
            0.0
        } else {
            let e = a.log2().floor().max(-126.0);
            let ulp = 2f64.powf(e - 10.0);
            (a / ulp).round() * ulp
        };
        let want = if want >= 2f64.powi(128) {
            f32::INFINITY
        } else {
            want as f32
        };
        let want = if x.is_sign_negative() { -want } else { want };
        assert_eq!(got, want.to_bits(), "{b:#010x} = {x}");
        assert_eq!(got & 0x1fff, 0);
    }
    // Ties away: 1 + 2^-11 (exactly half a tf32 ulp) rounds up to 1 + 2^-10.
    assert_eq!(cvt_rna_tf32_f32(0x3f80_1000), 0x3f80_2000);
    assert_eq!(cvt_rna_tf32_f32(0xbf80_1000), 0xbf80_2000);
}
