//! Half-precision `add sub mul fma neg abs min max ex2` and `tanh.approx.f32` against a
//! reference written here: operands decoded to exact scaled integers (i128), the exact result
//! computed in integers, then rounded to nearest-even by a binary search over the format's
//! values (overflow to Inf at the midpoint between the largest finite value and 2^(emax+1)).

use ops::float::Rounding;
use ops::half::{self, HalfFormat, HalfMode, MinMaxMode, NAN_H};

/// (fraction bits, exponent bits) of a format.
fn layout(f: HalfFormat) -> (u32, u32) {
    match f {
        HalfFormat::F16 => (10, 5),
        HalfFormat::Bf16 => (7, 8),
    }
}

fn is_nan(x: u16, f: HalfFormat) -> bool {
    let (fb, eb) = layout(f);
    let e = (x as u32 & 0x7fff) >> fb;
    e == (1 << eb) - 1 && x as u32 & ((1 << fb) - 1) != 0
}

fn is_inf(x: u16, f: HalfFormat) -> bool {
    let (fb, eb) = layout(f);
    x & 0x7fff == (((1u32 << eb) - 1) << fb) as u16
}

fn is_subnormal(x: u16, f: HalfFormat) -> bool {
    let (fb, _) = layout(f);
    x & 0x7fff != 0 && (x as u32 & 0x7fff) >> fb == 0
}

/// The finite value of `x` in units of 2^-k (exact; `k` large enough).
fn scaled(x: u16, f: HalfFormat, k: i32) -> i128 {
    let (fb, eb) = layout(f);
    let bias = (1i32 << (eb - 1)) - 1;
    let e = ((x as u32 & 0x7fff) >> fb) as i32;
    let frac = i128::from(x as u32 & ((1 << fb) - 1));
    // value = sig × 2^p
    let (sig, p) = if e == 0 {
        (frac, 1 - bias - fb as i32)
    } else {
        (frac | 1 << fb, e - bias - fb as i32)
    };
    let shift = p + k;
    // Outside the scale only the binary search's bracketing looks at a value: those far above
    // saturate, those far below truncate (both compare correctly with every tested result).
    let v = if shift > 110 {
        1i128 << 122
    } else if shift < 0 {
        sig >> (-shift).min(127)
    } else {
        sig << shift
    };
    if x & 0x8000 != 0 {
        -v
    } else {
        v
    }
}

/// Round-to-nearest-even of `v × 2^-k` to the format.
fn round_rn(v: i128, k: i32, f: HalfFormat) -> u16 {
    let (fb, eb) = layout(f);
    let sign: u16 = if v < 0 { 0x8000 } else { 0 };
    let mag = v.unsigned_abs() as i128;
    let inf = (((1u32 << eb) - 1) << fb) as u16;
    let bias = (1i32 << (eb - 1)) - 1;
    // 2^(emax+1) in units of 2^-k stands for the value "after" the largest finite one.
    let beyond = 1i128 << (bias + 1 + k).min(123);
    let value = |m: u16| if m == inf { beyond } else { scaled(m, f, k) };
    // Largest magnitude pattern m (0..=inf) with value(m) <= mag.
    let (mut lo, mut hi) = (0u16, inf);
    if value(inf) <= mag {
        return inf | sign;
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if value(mid) <= mag {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let (below, above) = (mag - value(lo), value(hi) - mag);
    let pick = if below < above || (below == above && lo % 2 == 0) {
        lo
    } else {
        hi
    };
    pick | sign
}

const K16: i32 = 60;

fn f16_ref(op: &str, a: u16, b: u16, c: u16, ftz: bool, sat: bool, relu: bool) -> u16 {
    let f = HalfFormat::F16;
    let fl = |x: u16| {
        if ftz && is_subnormal(x, f) {
            x & 0x8000
        } else {
            x
        }
    };
    let (a, b, c) = (fl(a), fl(b), fl(c));
    let r = if [a, b, c].iter().any(|&x| is_nan(x, f) || is_inf(x, f)) {
        // Non-finite operands: f64 arithmetic is exact here.
        let d = |x: u16| half::h_to_f64(x, f);
        let x = match op {
            "add" => d(a) + d(b),
            "sub" => d(a) - d(b),
            "mul" => d(a) * d(b),
            _ => d(a) * d(b) + d(c),
        };
        if x.is_nan() {
            NAN_H
        } else if x.is_infinite() {
            if x < 0.0 {
                0xfc00
            } else {
                0x7c00
            }
        } else {
            // finite result of non-finite operands cannot happen; zero × inf is NaN.
            unreachable!()
        }
    } else {
        let (x, k) = match op {
            "add" => (scaled(a, f, K16) + scaled(b, f, K16), K16),
            "sub" => (scaled(a, f, K16) - scaled(b, f, K16), K16),
            "mul" => (scaled(a, f, 30) * scaled(b, f, 30), K16),
            _ => (scaled(a, f, 30) * scaled(b, f, 30) + scaled(c, f, K16), K16),
        };
        if x == 0 {
            // Sign of an exact zero: product sign for mul, IEEE sum rule for add.
            let sa = a & 0x8000 != 0;
            let sb = b & 0x8000 != 0;
            let neg = match op {
                "add" => sa && sb,
                "sub" => sa && !sb,
                "mul" => sa != sb,
                _ => {
                    let p = sa != sb;
                    let cz = scaled(c, f, K16) == 0;
                    let prod_zero = scaled(a, f, 30) * scaled(b, f, 30) == 0;
                    if prod_zero && cz {
                        p && c & 0x8000 != 0
                    } else {
                        false
                    }
                }
            };
            if neg {
                0x8000
            } else {
                0
            }
        } else {
            round_rn(x, k, f)
        }
    };
    if is_nan(r, f) {
        return if sat { 0 } else { NAN_H };
    }
    let r = fl(r);
    if sat {
        if r & 0x8000 != 0 {
            0
        } else {
            r.min(0x3c00)
        }
    } else if relu && r & 0x8000 != 0 {
        0
    } else {
        r
    }
}

/// Operand sample: zeros, subnormals, ones, extremes, NaN, Inf, and pseudo-random patterns.
fn sample16() -> Vec<u16> {
    let mut v = vec![
        0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x3c00, 0xbc00, 0x3c01, 0x3bff, 0x7bff,
        0xfbff, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0x4000, 0x3800, 0x1400, 0x6000,
    ];
    let mut s = 0x1234_5678u32;
    for _ in 0..28 {
        s = s.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        v.push((s >> 16) as u16);
    }
    v
}

fn mode(ftz: bool, sat: bool, relu: bool) -> HalfMode {
    HalfMode {
        rnd: Rounding::Rn,
        ftz,
        sat,
        relu,
    }
}

#[test]
fn f16_add_sub_mul_match_exact_rounding_for_every_a() {
    let f = HalfFormat::F16;
    let bs = sample16();
    for (ftz, sat) in [(false, false), (true, false), (false, true), (true, true)] {
        let m = mode(ftz, sat, false);
        for a in (0..=u16::MAX).step_by(if ftz || sat { 7 } else { 1 }) {
            for &b in &bs {
                assert_eq!(
                    half::add_h(a, b, f, m),
                    f16_ref("add", a, b, 0, ftz, sat, false),
                    "add {a:#06x} {b:#06x} {m:?}"
                );
                assert_eq!(
                    half::sub_h(a, b, f, m),
                    f16_ref("sub", a, b, 0, ftz, sat, false),
                    "sub {a:#06x} {b:#06x} {m:?}"
                );
                assert_eq!(
                    half::mul_h(a, b, f, m),
                    f16_ref("mul", a, b, 0, ftz, sat, false),
                    "mul {a:#06x} {b:#06x} {m:?}"
                );
            }
        }
    }
}

#[test]
fn f16_fma_rounds_once() {
    let f = HalfFormat::F16;
    let mut s = 0xdead_beefu64;
    let mut next = || {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (s >> 40) as u16
    };
    let sample = sample16();
    let mut cases: Vec<(u16, u16, u16)> = Vec::new();
    for &a in &sample {
        for &b in &sample {
            cases.push((a, b, next()));
        }
    }
    for _ in 0..200_000 {
        cases.push((next(), next(), next()));
    }
    // A case where rounding a×b first and then adding would differ: (1+2^-10)^2 - 1.
    cases.push((0x3c01, 0x3c01, 0xbc00));
    for (ftz, sat, relu) in [
        (false, false, false),
        (true, false, false),
        (false, true, false),
        (false, false, true),
        (true, false, true),
    ] {
        let m = mode(ftz, sat, relu);
        for &(a, b, c) in &cases {
            assert_eq!(
                half::fma_h(a, b, c, f, m),
                f16_ref("fma", a, b, c, ftz, sat, relu),
                "fma {a:#06x} {b:#06x} {c:#06x} {m:?}"
            );
        }
    }
    // (1+2^-10)^2 - 1 = 2^-9 + 2^-20 exactly: representable? 2^-9 needs 11 bits to 2^-19; the
    // 2^-20 term is below half an ulp of 2^-9 (2^-20 = half ulp → tie to even = 2^-9).
    assert_eq!(
        half::fma_h(0x3c01, 0x3c01, 0xbc00, f, mode(false, false, false)),
        0x1800
    );
}

#[test]
fn bf16_arithmetic_in_a_moderate_range_and_at_the_edges() {
    let f = HalfFormat::Bf16;
    let m = mode(false, false, false);
    // Exponents within ±20 keep every exact result within i128 at scale 2^-60.
    let mut s = 7u64;
    let mut next = || {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let sign = ((s >> 63) as u16) << 15;
        let exp = 127 - 20 + ((s >> 40) % 41) as u16;
        let frac = ((s >> 20) & 0x7f) as u16;
        sign | exp << 7 | frac
    };
    for _ in 0..100_000 {
        let (a, b, c) = (next(), next(), next());
        let k = 60;
        let exact_add = scaled(a, f, k) + scaled(b, f, k);
        let want = |x: i128, sa: bool, sb: bool| {
            if x == 0 {
                if sa && sb {
                    0x8000
                } else {
                    0
                }
            } else {
                round_rn(x, k, f)
            }
        };
        let (sa, sb) = (a & 0x8000 != 0, b & 0x8000 != 0);
        assert_eq!(
            half::add_h(a, b, f, m),
            want(exact_add, sa, sb),
            "add {a:#x} {b:#x}"
        );
        let exact_mul = scaled(a, f, 30) * scaled(b, f, 30);
        assert_eq!(
            half::mul_h(a, b, f, m),
            round_rn(exact_mul, k, f),
            "mul {a:#x} {b:#x}"
        );
        let exact_fma = exact_mul + scaled(c, f, k);
        if exact_fma != 0 {
            assert_eq!(
                half::fma_h(a, b, c, f, m),
                round_rn(exact_fma, k, f),
                "fma {a:#x} {b:#x} {c:#x}"
            );
        }
    }
    // Edges, by hand: 1 + 2^-100 → 1 (far below half an ulp); max × 2 → +Inf;
    // smallest normal 2^-126 × 2^-7 = 2^-133, the smallest subnormal (0x0001); NaN canonical.
    let one = 0x3f80;
    let tiny = (127 - 100) << 7;
    assert_eq!(half::add_h(one, tiny, f, m), one);
    assert_eq!(half::mul_h(0x7f7f, 0x4000, f, m), 0x7f80);
    assert_eq!(half::mul_h(0x0080, (127 - 7) << 7, f, m), 0x0001);
    assert_eq!(half::add_h(0x7f80, 0xff80, f, m), NAN_H);
    assert_eq!(half::add_h(0x7fc1, one, f, m), NAN_H);
    // .relu: negative → +0, NaN stays NaN.
    let relu = mode(false, false, true);
    assert_eq!(half::fma_h(one, 0xbf80, 0, f, relu), 0);
    assert_eq!(half::fma_h(0x7f80, 0, 0, f, relu), NAN_H);
}

#[test]
fn neg_abs_touch_only_the_sign_and_flush_under_ftz() {
    for f in [HalfFormat::F16, HalfFormat::Bf16] {
        for a in 0..=u16::MAX {
            assert_eq!(half::neg_h(a, f, false), a ^ 0x8000);
            assert_eq!(half::abs_h(a, f, false), a & 0x7fff);
            let flushed = if is_subnormal(a, f) { a & 0x8000 } else { a };
            assert_eq!(half::neg_h(a, f, true), flushed ^ 0x8000);
            assert_eq!(half::abs_h(a, f, true), flushed & 0x7fff);
        }
    }
}

/// The documented min/max rule on decoded values.
fn min_max_ref(a: u16, b: u16, f: HalfFormat, m: MinMaxMode, max: bool) -> u16 {
    let fl = |x: u16| {
        if m.ftz && is_subnormal(x, f) {
            x & 0x8000
        } else {
            x
        }
    };
    let (a, b) = (fl(a), fl(b));
    let (na, nb) = (is_nan(a, f), is_nan(b, f));
    if na && nb || m.nan && (na || nb) {
        return NAN_H;
    }
    if na {
        return b;
    }
    if nb {
        return a;
    }
    let (x, y) = if m.xorsign_abs {
        (a & 0x7fff, b & 0x7fff)
    } else {
        (a, b)
    };
    let v = |z: u16| {
        let d = half::h_to_f64(z, f);
        // -0.0 below +0.0.
        (d, z & 0x8000 == 0)
    };
    let (vx, vy) = (v(x), v(y));
    let x_wins = if max {
        vx.0 > vy.0 || vx.0 == vy.0 && vx.1 >= vy.1
    } else {
        vx.0 < vy.0 || vx.0 == vy.0 && vx.1 <= vy.1
    };
    let r = if x_wins { x } else { y };
    if m.xorsign_abs {
        r | ((a ^ b) & 0x8000)
    } else {
        r
    }
}

#[test]
fn min_max_follow_the_documented_rule() {
    let s = sample16();
    for f in [HalfFormat::F16, HalfFormat::Bf16] {
        for ftz in [false, true] {
            for nan in [false, true] {
                for xorsign_abs in [false, true] {
                    let m = MinMaxMode {
                        ftz,
                        nan,
                        xorsign_abs,
                    };
                    for &a in &s {
                        for &b in &s {
                            assert_eq!(half::min_h(a, b, f, m), min_max_ref(a, b, f, m, false));
                            assert_eq!(half::max_h(a, b, f, m), min_max_ref(a, b, f, m, true));
                        }
                    }
                }
            }
        }
    }
    // Spot values: min(-0, +0) = -0, max(-0, +0) = +0, min(NaN, 2) = 2, .NaN gives NaN.
    let f = HalfFormat::F16;
    let m = MinMaxMode::default();
    assert_eq!(half::min_h(0x0000, 0x8000, f, m), 0x8000);
    assert_eq!(half::max_h(0x8000, 0x0000, f, m), 0x0000);
    assert_eq!(half::min_h(0x7e00, 0x4000, f, m), 0x4000);
    let mn = MinMaxMode { nan: true, ..m };
    assert_eq!(half::min_h(0x7e00, 0x4000, f, mn), NAN_H);
    // min.xorsign.abs(-3, 2) = -(2): magnitude 2, sign of (- XOR +).
    let mx = MinMaxMode {
        xorsign_abs: true,
        ..m
    };
    assert_eq!(half::min_h(0xc200, 0x4000, f, mx), 0xc000);
}

#[test]
fn packed_forms_apply_per_half() {
    let f = HalfFormat::F16;
    let m = mode(false, false, false);
    let s = sample16();
    for &a in &s {
        for &b in &s {
            let pa = u32::from(a) | u32::from(b) << 16;
            let pb = u32::from(b) | u32::from(a) << 16;
            let r = half::x2(pa, pb, 0, |x, y, _| half::add_h(x, y, f, m));
            assert_eq!(r as u16, half::add_h(a, b, f, m));
            assert_eq!((r >> 16) as u16, half::add_h(b, a, f, m));
        }
    }
}

#[test]
fn ex2_and_tanh_known_values_and_error_bounds() {
    let f = HalfFormat::F16;
    // ex2 of small integers is exact.
    assert_eq!(half::ex2_h(0x3c00, f, false), 0x4000); // 2^1 = 2
    assert_eq!(half::ex2_h(0xbc00, f, false), 0x3800); // 2^-1
    assert_eq!(half::ex2_h(0x4900, f, false), 0x6400); // 2^10 = 1024
    assert_eq!(half::ex2_h(0xfc00, f, false), 0x0000); // 2^-inf = +0
    assert_eq!(half::ex2_h(0x7c00, f, false), 0x7c00);
    assert_eq!(half::ex2_h(0x4c00, f, false), 0x7c00); // 2^16 overflows
    assert_eq!(half::ex2_h(0x7e00, f, false), NAN_H);
    // 2^-24 is the smallest f16 subnormal; with .ftz (bf16 form) a subnormal result flushes.
    assert_eq!(half::ex2_h(0xce00, f, false), 0x0001); // -24
    let bf = HalfFormat::Bf16;
    assert_eq!(half::ex2_h(0xc304, bf, false), 0x0002); // 2^-132, a subnormal
    assert_eq!(half::ex2_h(0xc304, bf, true), 0x0000); // flushed under .ftz
                                                       // Relative error within the spec's bound 2^-9.9 over every finite f16 input.
    for a in 0..=u16::MAX {
        let x = half::h_to_f64(a, f);
        if !x.is_finite() || !(-14.0..15.9).contains(&x) {
            continue;
        }
        let got = half::h_to_f64(half::ex2_h(a, f, false), f);
        let want = x.exp2();
        assert!(
            ((got - want) / want).abs() <= 2f64.powf(-9.9),
            "ex2 {a:#06x}"
        );
    }
    // tanh: odd, ±Inf → ±1, 0 → 0, saturates to 1, relative error ≤ 2^-10.987 (PTX ISA 8.x).
    assert_eq!(half::tanh_f32(0.0).to_bits(), 0);
    assert_eq!(half::tanh_f32(-0.0).to_bits(), 0x8000_0000);
    assert_eq!(half::tanh_f32(f32::INFINITY), 1.0);
    assert_eq!(half::tanh_f32(f32::NEG_INFINITY), -1.0);
    assert_eq!(half::tanh_f32(20.0), 1.0);
    assert_eq!(half::tanh_f32(f32::NAN).to_bits(), 0x7fff_ffff);
    let mut x = -10.0f32;
    while x < 10.0 {
        let t = half::tanh_f32(x);
        assert_eq!(half::tanh_f32(-x), -t);
        // tanh(x) = (e^2x - 1)/(e^2x + 1), independently in f64.
        let e = (2.0 * f64::from(x)).exp();
        let want = (e - 1.0) / (e + 1.0);
        if want != 0.0 {
            assert!(
                ((f64::from(t) - want) / want).abs() <= 2f64.powf(-10.987),
                "tanh {x}"
            );
        }
        x += 0.0137;
    }
}
