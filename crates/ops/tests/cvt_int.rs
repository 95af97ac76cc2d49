//! `cvt` between integers, float → integer and integer → float (Table 7 of `ptx-isa-1.1.txt`
//! with footnote 1, Tables 8, 9 and 43), against i128 arithmetic on the exact values.

use ops::cvt::{self, cvt, CvtMode, CvtRounding, CvtType, IntRounding};
use ops::float::Rounding;
use proptest::prelude::*;

const INTS: [CvtType; 8] = [
    CvtType::U8,
    CvtType::U16,
    CvtType::U32,
    CvtType::U64,
    CvtType::S8,
    CvtType::S16,
    CvtType::S32,
    CvtType::S64,
];
const IRND: [IntRounding; 4] = [
    IntRounding::Rni,
    IntRounding::Rzi,
    IntRounding::Rmi,
    IntRounding::Rpi,
];
const FRND: [Rounding; 4] = [Rounding::Rn, Rounding::Rz, Rounding::Rm, Rounding::Rp];

fn width(t: CvtType) -> u32 {
    t.bits()
}
fn signed(t: CvtType) -> bool {
    matches!(t, CvtType::S8 | CvtType::S16 | CvtType::S32 | CvtType::S64)
}

/// Source value per Table 7: the low `width` bits, sign- or zero-extended by the source type.
fn source_value(bits: u64, t: CvtType) -> i128 {
    let n = width(t);
    let low = i128::from(bits) & ((1i128 << n) - 1);
    if signed(t) && low >> (n - 1) & 1 == 1 {
        low - (1i128 << n)
    } else {
        low
    }
}

fn range(t: CvtType) -> (i128, i128) {
    let n = width(t);
    if signed(t) {
        (-(1i128 << (n - 1)), (1i128 << (n - 1)) - 1)
    } else {
        (0, (1i128 << n) - 1)
    }
}

/// Footnote 1: chop to the destination format, then extend by the destination format (here to
/// the full 64 bits; any narrower register keeps the low bits).
fn chop_extend(v: i128, t: CvtType) -> u64 {
    let n = width(t);
    let low = v.rem_euclid(1i128 << n);
    let ext = if signed(t) && low >> (n - 1) & 1 == 1 {
        low - (1i128 << n)
    } else {
        low
    };
    ext as u64
}

fn int_bits() -> impl Strategy<Value = u64> {
    prop_oneof![
        any::<u64>(),
        prop::sample::select(vec![
            0u64,
            1,
            u64::MAX,
            0x80,
            0x7f,
            0xff,
            0x8000,
            0xffff,
            0x8000_0000,
            0xffff_ffff,
            1 << 63
        ]),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn int_to_int(bits in int_bits()) {
        for from in INTS {
            for to in INTS {
                let v = source_value(bits, from);
                let plain = cvt(bits, from, to, CvtMode::default());
                prop_assert_eq!(plain, chop_extend(v, to), "{:?}->{:?}", from, to);
                let (lo, hi) = range(to);
                let sat = cvt(bits, from, to, CvtMode { sat: true, ..CvtMode::default() });
                prop_assert_eq!(sat, chop_extend(v.clamp(lo, hi), to), "sat {:?}->{:?}", from, to);
            }
        }
    }

    #[test]
    fn float_to_int(bits in any::<u64>(), e in -3i32..70, m in any::<u64>()) {
        let near = f64::from_bits(((1023 + e) as u64) << 52 | (m & 0x800f_ffff_ffff_ffff));
        let halves = (m as i64 >> 40) as f64 + 0.5;
        for x in [f64::from_bits(bits), near, halves] {
            for to in INTS {
                for r in IRND {
                    let mode = CvtMode { rnd: Some(CvtRounding::Int(r)), ..CvtMode::default() };
                    let want = chop_extend(ref_f2i(x, r, to), to);
                    prop_assert_eq!(cvt(x.to_bits(), CvtType::F64, to, mode), want, "{} {:?} {:?}", x, r, to);
                    let x32 = x as f32;
                    prop_assert_eq!(cvt(u64::from(x32.to_bits()), CvtType::F32, to, mode), chop_extend(ref_f2i(x32.into(), r, to), to));
                    if to == CvtType::S32 {
                        prop_assert_eq!(cvt::cvt_s32_f32(x32, r, false) as u32 as u64, want32(x32, r));
                    }
                    if to == CvtType::U32 {
                        prop_assert_eq!(u64::from(cvt::cvt_u32_f32(x32, r, false)), chop_extend(ref_f2i(x32.into(), r, to), to));
                    }
                }
            }
        }
    }

    #[test]
    fn int_to_float(v in any::<i64>(), shift in 0u32..64) {
        for v in [v, v >> shift, (v as u64 >> shift) as i64] {
            for rnd in FRND {
                let mode = CvtMode { rnd: Some(CvtRounding::Float(rnd)), ..CvtMode::default() };
                let r32 = f32::from_bits(cvt(v as u64, CvtType::S64, CvtType::F32, mode) as u32);
                check_bracket(i128::from(v), f64::from(r32), next32(r32, true), next32(r32, false), rnd, true);
                let r64 = f64::from_bits(cvt(v as u64, CvtType::S64, CvtType::F64, mode));
                check_bracket(i128::from(v), r64, next64(r64, true), next64(r64, false), rnd, false);
                let u = v as u64;
                let ru = f32::from_bits(cvt(u, CvtType::U64, CvtType::F32, mode) as u32);
                check_bracket(i128::from(u), f64::from(ru), next32(ru, true), next32(ru, false), rnd, true);
                let s = v as i32;
                let rs = f32::from_bits(cvt(s as u64, CvtType::S32, CvtType::F32, mode) as u32);
                check_bracket(i128::from(s), f64::from(rs), next32(rs, true), next32(rs, false), rnd, true);
                prop_assert_eq!(cvt::cvt_f32_s32(s, rnd).to_bits(), rs.to_bits());
                prop_assert_eq!(cvt::cvt_f32_u32(s as u32, rnd).to_bits(), cvt(u64::from(s as u32), CvtType::U32, CvtType::F32, mode) as u32);
            }
        }
    }
}

fn want32(x: f32, r: IntRounding) -> u64 {
    chop_extend(ref_f2i(x.into(), r, CvtType::S32), CvtType::U32)
}

/// Float → integer reference on the exact binary value `m · 2^e` with i128 arithmetic:
/// NaN → 0, rounding by Table 9, clamp to the destination range.
fn ref_f2i(x: f64, r: IntRounding, to: CvtType) -> i128 {
    let (lo, hi) = range(to);
    if x.is_nan() {
        return 0;
    }
    if x.is_infinite() {
        return if x > 0.0 { hi } else { lo };
    }
    let b = x.to_bits();
    let neg = b >> 63 == 1;
    let field = ((b >> 52) & 0x7ff) as i32;
    let frac = i128::from(b & ((1 << 52) - 1));
    let (m, e) = if field == 0 {
        (frac, -1074)
    } else {
        (frac | 1 << 52, field - 1075)
    };
    let mag = if e >= 0 {
        if e > 70 {
            1i128 << 100
        } else {
            m << e
        }
    } else {
        let s = (-e).min(120) as u32;
        let q = m >> s;
        let rem = m - (q << s);
        let half = 1i128 << (s - 1);
        let up = match r {
            IntRounding::Rni => rem > half || (rem == half && q & 1 == 1),
            IntRounding::Rzi => false,
            IntRounding::Rmi => neg && rem != 0,
            IntRounding::Rpi => !neg && rem != 0,
        };
        q + i128::from(up)
    };
    let v = if neg { -mag } else { mag };
    v.clamp(lo, hi)
}

fn next32(x: f32, up: bool) -> f64 {
    let b = x.to_bits();
    let away = (b >> 31 == 0) == up;
    let n = if x == 0.0 {
        if up {
            1
        } else {
            0x8000_0001
        }
    } else if away {
        b + 1
    } else {
        b - 1
    };
    f64::from(f32::from_bits(n))
}

fn next64(x: f64, up: bool) -> f64 {
    let b = x.to_bits();
    let away = (b >> 63 == 0) == up;
    f64::from_bits(if x == 0.0 {
        if up {
            1
        } else {
            (1 << 63) | 1
        }
    } else if away {
        b + 1
    } else {
        b - 1
    })
}

/// Exact comparisons of the integer `v` with the float `r` and its neighbours: `r` must be the
/// float that `rnd` picks from the two floats around `v`.
fn check_bracket(v: i128, r: f64, up: f64, down: f64, rnd: Rounding, is32: bool) {
    // Every float here with |x| ≥ 1 is an integer below 2^127, so `as i128` is exact.
    let as_int = |f: f64| f as i128;
    let ri = as_int(r);
    let (lo, hi) = if ri <= v { (r, up) } else { (down, r) };
    let (li, hi_i) = (as_int(lo), as_int(hi));
    assert!(li <= v && v <= hi_i, "{v} not in [{lo}, {hi}]");
    if li == v {
        assert_eq!(ri, v);
        return;
    }
    let want = match rnd {
        Rounding::Rz => {
            if v > 0 {
                lo
            } else {
                hi
            }
        }
        Rounding::Rm => lo,
        Rounding::Rp => hi,
        Rounding::Rn => {
            let (dl, dh) = (v - li, hi_i - v);
            let lo_even = if is32 {
                (lo as f32).to_bits() & 1 == 0
            } else {
                lo.to_bits() & 1 == 0
            };
            if dl < dh || (dl == dh && lo_even) {
                lo
            } else {
                hi
            }
        }
    };
    assert_eq!(r, want, "{v} {rnd:?}");
}

#[test]
fn table_7_examples() {
    // "cvt.s32.u16 ... the u16 is zero-extended to s32."
    assert_eq!(
        cvt(0xffff, CvtType::U16, CvtType::S32, CvtMode::default()) as u32,
        0x0000_ffff
    );
    // Footnote 1: "cvt.s16.u32 targeting a 32-bit register will first chop to 16-bits, then
    // sign-extend to 32-bits."
    assert_eq!(
        cvt(0x0001_8000, CvtType::U32, CvtType::S16, CvtMode::default()) as u32,
        0xffff_8000
    );
    // sext for s8 → s32 and zext for u8 → u32
    assert_eq!(
        cvt(0x80, CvtType::S8, CvtType::S32, CvtMode::default()) as u32,
        0xffff_ff80
    );
    assert_eq!(
        cvt(0x80, CvtType::U8, CvtType::U32, CvtMode::default()) as u32,
        0x80
    );
    // `cvt.sat.s32.f64 j,r;`
    let sat = CvtMode {
        rnd: Some(CvtRounding::Int(IntRounding::Rni)),
        sat: true,
        ..CvtMode::default()
    };
    assert_eq!(
        cvt(1.0e12f64.to_bits(), CvtType::F64, CvtType::S32, sat) as u32,
        i32::MAX as u32
    );
    // `cvt.f32.s32 f,i;`
    let rn = CvtMode {
        rnd: Some(CvtRounding::Float(Rounding::Rn)),
        ..CvtMode::default()
    };
    assert_eq!(
        cvt((-7i32) as u64, CvtType::S32, CvtType::F32, rn) as u32,
        (-7.0f32).to_bits()
    );
    // `cvt.rni.f32.f32 x,y; // round fp val to nearest int, result is fp`
    let rni = CvtMode {
        rnd: Some(CvtRounding::Int(IntRounding::Rni)),
        ..CvtMode::default()
    };
    for (y, x) in [
        (2.5f32, 2.0f32),
        (3.5, 4.0),
        (-2.5, -2.0),
        (-0.4, -0.0),
        (1e30, 1e30),
    ] {
        assert_eq!(
            cvt(u64::from(y.to_bits()), CvtType::F32, CvtType::F32, rni) as u32,
            x.to_bits(),
            "{y}"
        );
    }
    let rmi = CvtMode {
        rnd: Some(CvtRounding::Int(IntRounding::Rmi)),
        ..CvtMode::default()
    };
    assert_eq!(
        f64::from_bits(cvt((-2.5f64).to_bits(), CvtType::F64, CvtType::F64, rmi)),
        -3.0
    );
    // NaN → 0 on float → integer.
    assert_eq!(
        cvt(
            u64::from(f32::NAN.to_bits()),
            CvtType::F32,
            CvtType::S32,
            rni
        ),
        0
    );
    assert_eq!(cvt::cvt_s32_f32(f32::NAN, IntRounding::Rzi, false), 0);
}

#[test]
fn float_to_float() {
    let m = |r| CvtMode {
        rnd: Some(CvtRounding::Float(r)),
        ..CvtMode::default()
    };
    // f64 → f32 under each rounding: 1 + 2^-30 lies between 1 and 1 + 2^-23.
    let x = 1.0 + 2f64.powi(-30);
    let f = |r| f32::from_bits(cvt(x.to_bits(), CvtType::F64, CvtType::F32, m(r)) as u32);
    assert_eq!(f(Rounding::Rn), 1.0);
    assert_eq!(f(Rounding::Rz), 1.0);
    assert_eq!(f(Rounding::Rm), 1.0);
    assert_eq!(f(Rounding::Rp), 1.0 + f32::EPSILON);
    assert_eq!(
        cvt::cvt_f32_f64(-x, Rounding::Rm, false),
        -1.0 - f32::EPSILON
    );
    // Overflow: Inf under .rn, the largest finite under .rz.
    assert_eq!(cvt::cvt_f32_f64(1e300, Rounding::Rn, false), f32::INFINITY);
    assert_eq!(cvt::cvt_f32_f64(1e300, Rounding::Rz, false), f32::MAX);
    // "NaN is preserved": payload kept across f32 → f64 → f32.
    let nan = f32::from_bits(0x7fc1_2345);
    let wide = cvt::cvt_f64_f32(nan, false);
    assert!(wide.is_nan());
    assert_eq!(
        cvt::cvt_f32_f64(wide, Rounding::Rn, false).to_bits(),
        0x7fc1_2345
    );
    // .sat: clamp to [0, 1], NaN → 0.
    let sat = CvtMode {
        sat: true,
        ..m(Rounding::Rn)
    };
    assert_eq!(
        cvt(2.0f64.to_bits(), CvtType::F64, CvtType::F32, sat) as u32,
        1.0f32.to_bits()
    );
    assert_eq!(cvt(f64::NAN.to_bits(), CvtType::F64, CvtType::F32, sat), 0);
    assert_eq!(cvt((-3.0f64).to_bits(), CvtType::F64, CvtType::F64, sat), 0);
    assert_eq!(
        cvt(7u64, CvtType::U32, CvtType::F32, sat) as u32,
        1.0f32.to_bits()
    );
    // .ftz: subnormal f32 source and result flushed, sign kept.
    let ftz = CvtMode {
        ftz: true,
        ..m(Rounding::Rn)
    };
    assert_eq!(
        cvt(
            u64::from((-1e-40f32).to_bits()),
            CvtType::F32,
            CvtType::F64,
            ftz
        ),
        (-0.0f64).to_bits()
    );
    assert_eq!(cvt(1e-40f64.to_bits(), CvtType::F64, CvtType::F32, ftz), 0);
    assert_eq!(
        cvt(
            1e-40f64.to_bits(),
            CvtType::F64,
            CvtType::F32,
            m(Rounding::Rn)
        ) as u32,
        1e-40f32.to_bits()
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]

    /// The fast forms give the general entry point's results.
    #[test]
    fn fast_forms_match_cvt(bits in any::<u64>(), ftz in any::<bool>()) {
        let (x32, x64) = (f32::from_bits(bits as u32), f64::from_bits(bits));
        for r in IRND {
            let mode = CvtMode { rnd: Some(CvtRounding::Int(r)), ftz, ..CvtMode::default() };
            prop_assert_eq!(cvt::cvt_s32_f64(x64, r) as u32 as u64, cvt(bits, CvtType::F64, CvtType::S32, mode) & 0xffff_ffff);
            prop_assert_eq!(cvt::cvt_s32_f32(x32, r, ftz) as u32 as u64, cvt(bits, CvtType::F32, CvtType::S32, mode) & 0xffff_ffff);
            prop_assert_eq!(u64::from(cvt::cvt_u32_f32(x32, r, ftz)), cvt(bits, CvtType::F32, CvtType::U32, mode));
        }
        for rnd in FRND {
            let mode = CvtMode { rnd: Some(CvtRounding::Float(rnd)), ftz, ..CvtMode::default() };
            prop_assert_eq!(u64::from(cvt::cvt_f32_f64(x64, rnd, ftz).to_bits()), cvt(bits, CvtType::F64, CvtType::F32, mode));
        }
        let mode = CvtMode { ftz, ..CvtMode::default() };
        prop_assert_eq!(cvt::cvt_f64_f32(x32, ftz).to_bits(), cvt(bits, CvtType::F32, CvtType::F64, mode));
    }
}
