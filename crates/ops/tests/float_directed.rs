//! Directed rounding (`.rz .rm .rp`) of `add sub mul fma div sqrt rcp` checked against an
//! independent oracle: the host's round-to-nearest result `r` plus the sign of the exact error
//! `exact - r`, computed with error-free transformations (TwoSum, FMA TwoProduct, exact f64
//! products of f32 values). From `r` and that sign, the directed result is `r` or its neighbour.

use ops::float::{self, DivKind, Rounding};
use ops::transcend::{self, Precision};
use proptest::prelude::*;
use std::cmp::Ordering;

const DIRECTED: [Rounding; 4] = [Rounding::Rn, Rounding::Rz, Rounding::Rm, Rounding::Rp];

fn next_up32(x: f32) -> f32 {
    let b = x.to_bits();
    if x.is_nan() || x == f32::INFINITY {
        x
    } else if x == 0.0 {
        f32::from_bits(1)
    } else if b >> 31 == 0 {
        f32::from_bits(b + 1)
    } else {
        f32::from_bits(b - 1)
    }
}
fn next_down32(x: f32) -> f32 {
    -next_up32(-x)
}
fn next_up64(x: f64) -> f64 {
    let b = x.to_bits();
    if x.is_nan() || x == f64::INFINITY {
        x
    } else if x == 0.0 {
        f64::from_bits(1)
    } else if b >> 63 == 0 {
        f64::from_bits(b + 1)
    } else {
        f64::from_bits(b - 1)
    }
}
fn next_down64(x: f64) -> f64 {
    -next_up64(-x)
}

/// Directed result from the nearest result `r` and `sign(exact - r)`.
macro_rules! directed {
    ($name:ident, $t:ty, $up:ident, $down:ident) => {
        fn $name(r: $t, err: Ordering, rnd: Rounding) -> $t {
            let up = || if err == Ordering::Greater { $up(r) } else { r };
            let down = || if err == Ordering::Less { $down(r) } else { r };
            match rnd {
                Rounding::Rn => r,
                Rounding::Rp => up(),
                Rounding::Rm => down(),
                Rounding::Rz => {
                    if r.is_sign_negative() {
                        up()
                    } else {
                        down()
                    }
                }
            }
        }
    };
}
directed!(expect32, f32, next_up32, next_down32);
directed!(expect64, f64, next_up64, next_down64);

fn two_sum64(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    (s, (a - (s - bb)) + (b - bb))
}

/// Sign of the exact sum of `xs` (no overflow, no underflow in the TwoSum/TwoProduct terms),
/// by Shewchuk's growing expansion: its largest nonzero component carries the sign.
fn exact_sign(xs: &[f64]) -> Ordering {
    let mut e: Vec<f64> = Vec::new();
    for &x in xs {
        let mut q = x;
        let mut next = Vec::new();
        for &c in &e {
            let (s, h) = two_sum64(q, c);
            next.push(h);
            q = s;
        }
        next.push(q);
        e = next;
    }
    e.iter()
        .rev()
        .find(|c| **c != 0.0)
        .map_or(Ordering::Equal, |c| c.partial_cmp(&0.0).unwrap())
}

/// A finite f64 as `m × 2^e` with `m` odd (or zero): exact integer view of a float.
fn parts(x: f64) -> (i128, i32) {
    let b = x.to_bits();
    let field = ((b >> 52) & 0x7ff) as i32;
    let frac = i128::from(b & ((1 << 52) - 1));
    let (mut m, mut e) = if field == 0 {
        (frac, -1074)
    } else {
        (frac | 1 << 52, field - 1075)
    };
    if m == 0 {
        return (0, 0);
    }
    let tz = m.trailing_zeros();
    m >>= tz;
    e += tz as i32;
    (if b >> 63 == 1 { -m } else { m }, e)
}

fn lead(t: (i128, i32)) -> i32 {
    t.1 + 127 - t.0.unsigned_abs().leading_zeros() as i32
}

/// `sign(t1 + t2 - r)` for exact terms `m × 2^e`, by i128 arithmetic. When the terms are too
/// far apart for one i128, the smaller one lies below the last bit of both the larger one and
/// `r`, so it only decides the sign when the larger one equals `r`.
fn side_of_sum(t1: (i128, i32), t2: (i128, i32), r: f64) -> Ordering {
    let tr = parts(r);
    let nonzero: Vec<(i128, i32)> = [t1, t2, tr].into_iter().filter(|t| t.0 != 0).collect();
    if nonzero.is_empty() {
        return Ordering::Equal;
    }
    let lo = nonzero.iter().map(|t| t.1).min().unwrap();
    let hi = nonzero.iter().map(|t| lead(*t)).max().unwrap();
    if hi - lo <= 120 {
        let at = |t: (i128, i32)| if t.0 == 0 { 0 } else { t.0 << (t.1 - lo) };
        return (at(t1) + at(t2)).cmp(&at(tr));
    }
    let (big, small) = if t1.0 == 0 || (t2.0 != 0 && lead(t2) > lead(t1)) {
        (t2, t1)
    } else {
        (t1, t2)
    };
    assert!(
        lead(small) < big.1.min(if tr.0 == 0 { i32::MAX } else { tr.1 }),
        "span too wide"
    );
    match side_of_sum(big, (0, 0), r) {
        Ordering::Equal => small.0.cmp(&0),
        other => other,
    }
}

fn parts_product(a: f64, b: f64) -> (i128, i32) {
    let (x, y) = (parts(a), parts(b));
    (x.0 * y.0, x.1 + y.1)
}

fn same(a: f32, b: f32) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}
fn same64(a: f64, b: f64) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

/// Sign of the exact error when the nearest result overflowed from finite operands.
fn overflow_err<T: PartialOrd + Default>(r: T) -> Ordering {
    if r > T::default() {
        Ordering::Less
    } else {
        Ordering::Greater
    }
}

/// Expected f32 result of an operation whose exact value `exact_minus_r` is known.
fn check32(
    got: f32,
    r: f32,
    err: Ordering,
    rnd: Rounding,
    finite_in: bool,
    zero_sign: Option<bool>,
) {
    if r.is_nan() {
        assert_eq!(got.to_bits(), float::NAN_F32);
        return;
    }
    let err = if r.is_infinite() && finite_in {
        overflow_err(r)
    } else {
        err
    };
    let mut want = expect32(r, err, rnd);
    if want == 0.0 && err == Ordering::Equal {
        if let Some(neg) = zero_sign {
            want = if neg { -0.0 } else { 0.0 };
        }
    }
    assert!(
        same(got, want),
        "{rnd:?}: got {got:e} ({:#x}) want {want:e} ({:#x})",
        got.to_bits(),
        want.to_bits()
    );
}

fn check64(
    got: f64,
    r: f64,
    err: Ordering,
    rnd: Rounding,
    finite_in: bool,
    zero_sign: Option<bool>,
) {
    if r.is_nan() {
        assert_eq!(got.to_bits(), float::NAN_F64);
        return;
    }
    let err = if r.is_infinite() && finite_in {
        overflow_err(r)
    } else {
        err
    };
    let mut want = expect64(r, err, rnd);
    if want == 0.0 && err == Ordering::Equal {
        if let Some(neg) = zero_sign {
            want = if neg { -0.0 } else { 0.0 };
        }
    }
    assert!(same64(got, want), "{rnd:?}: got {got:e} want {want:e}");
}

/// IEEE 754 §6.3: an exact zero sum of opposite-signed operands is +0, or -0 under `.rm`.
fn zero_sum(na: bool, nb: bool, rnd: Rounding) -> bool {
    if na == nb {
        na
    } else {
        rnd == Rounding::Rm
    }
}

fn edge32() -> impl Strategy<Value = f32> {
    prop_oneof![
        3 => any::<u32>().prop_map(f32::from_bits),
        1 => prop::sample::select(vec![
            0.0f32, -0.0, 1.0, -1.0, f32::MAX, f32::MIN, f32::MIN_POSITIVE, -f32::MIN_POSITIVE,
            f32::from_bits(1), f32::from_bits(0x8000_0001), f32::from_bits(0x007f_ffff),
            f32::INFINITY, f32::NEG_INFINITY, f32::NAN, 0.5, 2.0, 3.0, 0.1, 1.0e-40,
            16_777_216.0, 16_777_217.0, f32::EPSILON,
        ]),
        2 => (-30i32..30, any::<u32>()).prop_map(|(e, m)| f32::from_bits(((127 + e) as u32) << 23 | (m & 0x807f_ffff))),
    ]
}

/// f64 operands whose products, quotients and sums stay far from overflow and underflow.
fn mid64() -> impl Strategy<Value = f64> {
    prop_oneof![
        4 => (-300i64..300, any::<u64>()).prop_map(|(e, m)| f64::from_bits(((1023 + e) as u64) << 52 | (m & 0x800f_ffff_ffff_ffff))),
        1 => (-5i64..5, 0u64..16, any::<bool>()).prop_map(|(e, m, s)| {
            f64::from_bits(u64::from(s) << 63 | ((1023 + e) as u64) << 52 | m << 48)
        }),
        1 => prop::sample::select(vec![0.0f64, -0.0, 1.0, -1.0, 3.0, 0.1, 1.0 + f64::EPSILON]),
    ]
}

fn add32_check(a: f32, b: f32) {
    let finite = a.is_finite() && b.is_finite();
    for (b, negate) in [(b, false), (-b, true)] {
        let r = a + b;
        let err = if r.is_finite() && finite {
            side_of_sum(parts(a.into()), parts(b.into()), r.into())
        } else {
            Ordering::Equal
        };
        for rnd in DIRECTED {
            let zs = zero_sum(a.is_sign_negative(), b.is_sign_negative(), rnd);
            let got = if negate {
                float::sub_f32(a, -b, rnd, false, false)
            } else {
                float::add_f32(a, b, rnd, false, false)
            };
            check32(got, r, err, rnd, finite, Some(zs));
        }
    }
}

fn mul32_check(a: f32, b: f32) {
    let r = a * b;
    let exact = f64::from(a) * f64::from(b); // 48-bit product: exact in f64
    let err = if r.is_finite() {
        exact.partial_cmp(&f64::from(r)).unwrap_or(Ordering::Equal)
    } else {
        Ordering::Equal
    };
    for rnd in DIRECTED {
        check32(
            float::mul_f32(a, b, rnd, false, false),
            r,
            err,
            rnd,
            a.is_finite() && b.is_finite(),
            None,
        );
    }
}

fn fma32_check(a: f32, b: f32, c: f32) {
    let r = a.mul_add(b, c);
    let p = f64::from(a) * f64::from(b);
    let finite = a.is_finite() && b.is_finite() && c.is_finite();
    let err = if r.is_finite() && finite {
        side_of_sum(parts_product(a.into(), b.into()), parts(c.into()), r.into())
    } else {
        Ordering::Equal
    };
    let pneg = a.is_sign_negative() != b.is_sign_negative();
    for rnd in DIRECTED {
        let zs = if p == 0.0 {
            zero_sum(pneg, c.is_sign_negative(), rnd)
        } else {
            rnd == Rounding::Rm
        };
        check32(
            float::fma_f32(a, b, c, rnd, false, false),
            r,
            err,
            rnd,
            a.is_finite() && b.is_finite() && c.is_finite(),
            Some(zs),
        );
    }
}

fn div32_check(a: f32, b: f32) {
    let r = a / b;
    let err = if r.is_finite() && r != 0.0 && a.is_finite() && b.is_finite() {
        // sign(a/b - r) = sign(a - r·b)·sign(b); r·b is exact in f64.
        let res = f64::from(a) - f64::from(r) * f64::from(b);
        let s = res.partial_cmp(&0.0).unwrap();
        if b < 0.0 {
            s.reverse()
        } else {
            s
        }
    } else if r == 0.0 && a != 0.0 && b.is_finite() {
        // Underflow to zero: the exact quotient is on r's side of zero.
        if r.is_sign_negative() {
            Ordering::Less
        } else {
            Ordering::Greater
        }
    } else {
        Ordering::Equal
    };
    for rnd in DIRECTED {
        check32(
            float::div_f32(a, b, DivKind::Rounded(rnd), false, false),
            r,
            err,
            rnd,
            a.is_finite() && b != 0.0,
            None,
        );
        if a == 1.0 {
            check32(
                transcend::rcp_f32(b, Precision::Rounded(rnd), false),
                r,
                err,
                rnd,
                b != 0.0,
                None,
            );
        }
    }
}

fn sqrt32_check(a: f32) {
    let r = a.sqrt();
    let err = if r.is_finite() && r > 0.0 {
        let rr = f64::from(r);
        f64::from(a).partial_cmp(&(rr * rr)).unwrap() // r² exact in f64
    } else {
        Ordering::Equal
    };
    for rnd in DIRECTED {
        check32(
            transcend::sqrt_f32(a, Precision::Rounded(rnd), false),
            r,
            err,
            rnd,
            a.is_finite(),
            None,
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn add_sub_f32_directed(a in edge32(), b in edge32()) { add32_check(a, b); }

    #[test]
    fn mul_f32_directed(a in edge32(), b in edge32()) { mul32_check(a, b); }

    #[test]
    fn fma_f32_directed(a in edge32(), b in edge32(), c in edge32()) { fma32_check(a, b, c); }

    #[test]
    fn div_f32_directed(a in edge32(), b in edge32()) { div32_check(a, b); div32_check(1.0, b); }

    #[test]
    fn sqrt_f32_directed(a in edge32()) { sqrt32_check(a); sqrt32_check(a.abs()); }

    #[test]
    fn add_f64_directed(a in mid64(), b in mid64()) {
        let r = a + b;
        let err = side_of_sum(parts(a), parts(b), r);
        for rnd in DIRECTED {
            let zs = zero_sum(a.is_sign_negative(), b.is_sign_negative(), rnd);
            check64(float::add_f64(a, b, rnd), r, err, rnd, true, Some(zs));
        }
    }

    #[test]
    fn mul_fma_f64_directed(a in mid64(), b in mid64(), c in mid64()) {
        let r = a * b;
        let err = side_of_sum(parts_product(a, b), (0, 0), r);
        let pneg = a.is_sign_negative() != b.is_sign_negative();
        for rnd in DIRECTED {
            check64(float::mul_f64(a, b, rnd), r, err, rnd, true, Some(pneg));
        }
        let rf = a.mul_add(b, c);
        let p = a * b;
        let pe = a.mul_add(b, -p);
        let err = exact_sign(&[p, pe, c, -rf]);
        for rnd in DIRECTED {
            let zs = if p == 0.0 { zero_sum(pneg, c.is_sign_negative(), rnd) } else { rnd == Rounding::Rm };
            check64(float::fma_f64(a, b, c, rnd), rf, err, rnd, true, Some(zs));
        }
    }

    #[test]
    fn div_sqrt_f64_directed(a in mid64(), b in mid64()) {
        if b != 0.0 {
            let r = a / b;
            let p = r * b;
            let pe = r.mul_add(b, -p);
            let s = exact_sign(&[a, -p, -pe]);
            let err = if b < 0.0 { s.reverse() } else { s };
            for rnd in DIRECTED {
                check64(float::div_f64(a, b, rnd), r, err, rnd, true, None);
            }
            let r = 1.0 / b;
            let p = r * b;
            let s = exact_sign(&[1.0, -p, -r.mul_add(b, -p)]);
            let err = if b < 0.0 { s.reverse() } else { s };
            for rnd in DIRECTED {
                check64(transcend::rcp_f64(b, Precision::Rounded(rnd)), r, err, rnd, true, None);
            }
        }
        let a = a.abs();
        let r = a.sqrt();
        let p = r * r;
        let err = exact_sign(&[a, -p, -r.mul_add(r, -p)]);
        for rnd in DIRECTED {
            check64(transcend::sqrt_f64(a, rnd), r, err, rnd, true, None);
        }
    }
}

#[test]
fn spec_add_rz_example() {
    // Table 16 example `add.rz.f32 f1,f2,f3`: 1 + 2^-24 is halfway: .rn gives 1 (even),
    // .rz gives 1, .rp gives 1 + 2^-23.
    let tiny = f32::EPSILON / 2.0;
    assert_eq!(float::add_f32(1.0, tiny, Rounding::Rz, false, false), 1.0);
    assert_eq!(float::add_f32(1.0, tiny, Rounding::Rn, false, false), 1.0);
    assert_eq!(
        float::add_f32(1.0, tiny, Rounding::Rp, false, false),
        1.0 + f32::EPSILON
    );
    assert_eq!(
        float::add_f32(-1.0, -tiny, Rounding::Rm, false, false),
        -1.0 - f32::EPSILON
    );
    assert_eq!(
        float::add_f32(-1.0, -tiny, Rounding::Rp, false, false),
        -1.0
    );
}

#[test]
fn directed_overflow_and_underflow() {
    let m = f32::MAX;
    assert_eq!(float::add_f32(m, m, Rounding::Rz, false, false), m);
    assert_eq!(float::add_f32(m, m, Rounding::Rm, false, false), m);
    assert_eq!(
        float::add_f32(m, m, Rounding::Rp, false, false),
        f32::INFINITY
    );
    assert_eq!(float::add_f32(-m, -m, Rounding::Rp, false, false), -m);
    assert_eq!(float::mul_f64(f64::MAX, 2.0, Rounding::Rz), f64::MAX);
    let tiny = f64::from_bits(1);
    assert_eq!(float::mul_f64(tiny, 0.5, Rounding::Rp).to_bits(), 1);
    assert_eq!(float::mul_f64(tiny, 0.5, Rounding::Rz).to_bits(), 0);
    assert_eq!(
        float::mul_f64(-tiny, 0.5, Rounding::Rm).to_bits(),
        (1 << 63) | 1
    );
    assert_eq!(float::mul_f64(tiny, 0.5, Rounding::Rn).to_bits(), 0); // tie to even (zero)
    assert_eq!(float::mul_f64(tiny, 0.75, Rounding::Rn).to_bits(), 1);
    // Subnormal f64 quotient 3·2^-1074 / 2 = 1.5·2^-1074.
    let three = f64::from_bits(3);
    assert_eq!(float::div_f64(three, 2.0, Rounding::Rz).to_bits(), 1);
    assert_eq!(float::div_f64(three, 2.0, Rounding::Rp).to_bits(), 2);
    assert_eq!(float::div_f64(three, 2.0, Rounding::Rn).to_bits(), 2);
}

fn soft32(a: f32, b: f32, c: Option<f32>, rnd: Rounding) -> f32 {
    let c = c.map(|c| u64::from(c.to_bits()));
    let (a, b) = (u64::from(a.to_bits()), u64::from(b.to_bits()));
    let nan = u64::from(float::NAN_F32);
    f32::from_bits(float::soft::fma_bits(a, b, c, rnd, float::soft::F32, nan) as u32)
}

fn soft64(a: f64, b: f64, c: Option<f64>, rnd: Rounding) -> f64 {
    let c = c.map(f64::to_bits);
    let nan = float::NAN_F64;
    f64::from_bits(float::soft::fma_bits(
        a.to_bits(),
        b.to_bits(),
        c,
        rnd,
        float::soft::F64,
        nan,
    ))
}

fn any64() -> impl Strategy<Value = f64> {
    prop_oneof![
        2 => any::<u64>().prop_map(f64::from_bits),
        2 => mid64(),
        1 => (-1074i32..-900, any::<u64>()).prop_map(|(e, m)| (m >> 11) as f64 * 2f64.powi(e)),
        1 => prop::sample::select(vec![f64::MAX, f64::MIN, f64::MIN_POSITIVE, 5e-324, -5e-324, f64::INFINITY]),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]

    /// The host-FPU directed paths (`float::eft`) agree bit for bit with the exact integer
    /// path (`float::soft`) over the whole range, subnormals and overflow included.
    #[test]
    fn eft_paths_equal_exact_integer_path(a in edge32(), b in edge32(), c in edge32(), x in any64(), y in any64()) {
        for rnd in DIRECTED {
            let canon = |v: f32| if v.is_nan() { float::NAN_F32 } else { v.to_bits() };
            prop_assert_eq!(canon(float::eft::add_f32(a, b, rnd)), soft32(a, 1.0, Some(b), rnd).to_bits());
            prop_assert_eq!(canon(float::eft::mul_f32(a, b, rnd)), soft32(a, b, None, rnd).to_bits());
            prop_assert_eq!(canon(float::eft::fma_f32(a, b, c, rnd)), soft32(a, b, Some(c), rnd).to_bits());
            let canon64 = |v: f64| if v.is_nan() { float::NAN_F64 } else { v.to_bits() };
            prop_assert_eq!(canon64(float::eft::add_f64(x, y, rnd)), soft64(x, 1.0, Some(y), rnd).to_bits(), "{} {} {:?}", x, y, rnd);
            prop_assert_eq!(canon64(float::eft::mul_f64(x, y, rnd)), soft64(x, y, None, rnd).to_bits(), "{} {} {:?}", x, y, rnd);
            let soft_div = |x: f32, y: f32| {
                let (x, y) = (u64::from(x.to_bits()), u64::from(y.to_bits()));
                float::soft::div_bits(x, y, rnd, float::soft::F32, u64::from(float::NAN_F32)) as u32
            };
            prop_assert_eq!(canon(float::eft::div_f32(a, b, rnd)), soft_div(a, b), "{} {} {:?}", a, b, rnd);
            prop_assert_eq!(canon(float::eft::div_f32(1.0, c, rnd)), soft_div(1.0, c), "{} {:?}", c, rnd);
            let soft_sqrt = float::soft::sqrt_bits(u64::from(c.to_bits()), rnd, float::soft::F32, u64::from(float::NAN_F32)) as u32;
            prop_assert_eq!(canon(float::eft::sqrt_f32(c, rnd)), soft_sqrt, "{} {:?}", c, rnd);
            let wide = f64::from_bits(x.to_bits() >> 3 | y.to_bits() << 61);
            prop_assert_eq!(canon(float::eft::f64_to_f32(wide, rnd)), {
                let q = ops::cvt::cvt(wide.to_bits(), ops::cvt::CvtType::F64, ops::cvt::CvtType::F32,
                    ops::cvt::CvtMode { rnd: Some(ops::cvt::CvtRounding::Float(rnd)), ..Default::default() }) as u32;
                if f32::from_bits(q).is_nan() { float::NAN_F32 } else { q }
            });
        }
    }
}

fn neg_parts(t: (i128, i32)) -> (i128, i32) {
    (-t.0, t.1)
}

/// f64 operands whose products and quotients land in or near the subnormal range.
fn tiny_pair() -> impl Strategy<Value = (f64, f64)> {
    (
        any::<u64>(),
        any::<u64>(),
        -560i32..-480,
        -600i32..-500,
        any::<bool>(),
    )
        .prop_map(|(m1, m2, e1, e2, neg)| {
            let a = f64::from_bits(((1023 + e1) as u64) << 52 | (m1 & 0x800f_ffff_ffff_ffff));
            let b = f64::from_bits(((1023 + e2) as u64) << 52 | (m2 & 0x000f_ffff_ffff_ffff));
            (a, if neg { -b } else { b })
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]

    /// Directed f64 mul/div/sqrt where the result is subnormal (or the operand is), checked by
    /// exact i128 arithmetic on the operands' integer views.
    #[test]
    fn f64_subnormal_results((a, b) in tiny_pair(), big in 470i32..570) {
        let r = a * b;
        let err = side_of_sum(parts_product(a, b), (0, 0), r);
        for rnd in DIRECTED {
            check64(float::mul_f64(a, b, rnd), r, err, rnd, true, None);
        }
        // d ≈ 2^big: the quotient lands near or below 2^-1022; sign(a/d - r) = sign(a - r·d).
        let d = f64::from_bits(((1023 + big) as u64) << 52 | (b.to_bits() & 0x000f_ffff_ffff_ffff));
        let r = a / d;
        let err = side_of_sum(parts(a), neg_parts(parts_product(r, d)), 0.0);
        for rnd in DIRECTED {
            check64(float::div_f64(a, d, rnd), r, err, rnd, true, None);
        }
        prop_assert!(r.abs() < 2f64.powi(-950));
        let s = (a * b).abs();
        let r = s.sqrt();
        let err = side_of_sum(parts(s), neg_parts(parts_product(r, r)), 0.0);
        for rnd in DIRECTED {
            check64(ops::transcend::sqrt_f64(s, rnd), r, err, rnd, true, None);
        }
    }
}
