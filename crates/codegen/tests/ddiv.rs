//! IEEE `div.rn/.rz/.rm/.rp.f64` and `rcp.rn/.rz/.rm/.rp.f64` on both executors, bit for bit,
//! over all pairs of f64 edge classes (zeros, subnormals, extremes, infinities, NaNs) and
//! random pairs including subnormal and overflowing quotients; `.rn` against Rust's `/`, the
//! directed roundings against it too (each is `.rn`'s result or its neighbour on the side
//! the mode says, and equal to it when `.rn` is exact — checked with an exact product).

mod common;
use common::*;
use std::cmp::Ordering;

pub const KERNEL: &str = include_str!("data/ddiv.ptx");

fn edges() -> Vec<u64> {
    let mut v: Vec<u64> = vec![
        0,
        0x8000_0000_0000_0000,
        1,
        0x8000_0000_0000_0001,
        0x000f_ffff_ffff_ffff,
        0x0008_0000_0000_0000,
        0x0000_0000_0000_0003,
        0x0010_0000_0000_0000,
        0x8010_0000_0000_0001,
        0x3ff0_0000_0000_0000,
        0xbff0_0000_0000_0000,
        0x3ff0_0000_0000_0001,
        0x3fff_ffff_ffff_ffff,
        0x4000_0000_0000_0000,
        0x4008_0000_0000_0000,
        0x3fe0_0000_0000_0000,
        0x7fef_ffff_ffff_ffff,
        0xffef_ffff_ffff_ffff,
        0x7fe0_0000_0000_0000,
        0x0020_0000_0000_0000,
        0x7ff0_0000_0000_0000,
        0xfff0_0000_0000_0000,
        0x7ff8_0000_0000_0000,
        0xfff8_0000_0000_0001,
        0x7ff0_0000_0000_0001,
        0x3fb9_9999_9999_999a,
        0x4024_0000_0000_0000,
        0x3ff5_5555_5555_5555,
    ];
    let mut s = 0x2545_f491_4f6c_dd1du64;
    while v.len() < 64 {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        v.push(s);
    }
    v
}

fn next_up(x: f64) -> f64 {
    if x.is_nan() || x == f64::INFINITY {
        return x;
    }
    if x == 0.0 {
        return f64::from_bits(1);
    }
    let b = x.to_bits();
    f64::from_bits(if x > 0.0 { b + 1 } else { b - 1 })
}

fn next_down(x: f64) -> f64 {
    -next_up(-x)
}

/// A finite nonzero double as `(negative, m, e)` with value `±m·2^e`, `m` an integer.
fn parts(x: f64) -> (bool, u128, i32) {
    let b = x.to_bits();
    let (exp, frac) = ((b >> 52 & 0x7ff) as i32, u128::from(b & ((1 << 52) - 1)));
    let (m, e) = if exp == 0 {
        (frac, -1074)
    } else {
        (frac | 1 << 52, exp - 1075)
    };
    // Subnormals normalized to 53-bit integers too, so the exponents of close values are close.
    let z = m.leading_zeros() as i32 - (128 - 53);
    (b >> 63 == 1, m << z, e - z)
}

/// The sign of `a − b·n`, exactly (integers), for finite nonzero `a, b, n` with `b·n` within
/// a few ulps of `a` (so the exponents are close and the shifts below stay in 128 bits).
fn residual(a: f64, b: f64, n: f64) -> Ordering {
    let (sa, ma, ea) = parts(a);
    let (sb, mb, eb) = parts(b);
    let (sn, mn, en) = parts(n);
    let (p, d) = (mb * mn, ea - (eb + en));
    // |a| against |b·n|.
    let mag = if d >= 0 {
        if d > 74 {
            Ordering::Greater
        } else {
            (ma << d).cmp(&p)
        }
    } else if -d > 21 {
        Ordering::Less
    } else {
        ma.cmp(&(p << -d))
    };
    match (sa, sb != sn) {
        (false, true) => Ordering::Greater,
        (true, false) => Ordering::Less,
        (false, false) => mag,
        (true, true) => mag.reverse(),
    }
}

/// Whether `q·b == a` exactly (so every rounding gives `q`).
fn exact(a: f64, b: f64, q: f64) -> bool {
    q.is_finite()
        && q != 0.0
        && a.is_finite()
        && a != 0.0
        && b.is_finite()
        && residual(a, b, q) == Ordering::Equal
}

/// The directed rounding `mode` of a/b, from the round-to-nearest result `n` (which is one of
/// the two neighbours of the exact quotient, or the quotient): the sign of the residual
/// `a − b·n` (computed exactly in integers) says on which
/// side of `n` the exact quotient lies.
fn directed(a: f64, b: f64, up: bool) -> f64 {
    let n = a / b;
    if !n.is_finite() || n == 0.0 || exact(a, b, n) {
        return directed_special(a, b, n, up);
    }
    // The quotient is above n when (a − b·n)/b > 0.
    let above = (residual(a, b, n) == Ordering::Greater) == (b > 0.0);
    match (above, up) {
        (true, true) => next_up(n),
        (false, false) => next_down(n),
        _ => n,
    }
}

/// Directed rounding where `.rn` gave ±0, ±∞ or an exact value: exact stays; otherwise the
/// quotient is a tiny or huge nonzero value whose side is its sign.
fn directed_special(a: f64, b: f64, n: f64, up: bool) -> f64 {
    if n.is_nan() || exact(a, b, n) || a == 0.0 || b.is_infinite() || a.is_infinite() || b == 0.0 {
        return n;
    }
    let positive = (a > 0.0) == (b > 0.0);
    if n == 0.0 {
        // The exact quotient is a nonzero value below half the smallest subnormal.
        return match (positive, up) {
            (true, true) => f64::from_bits(1),
            (false, false) => -f64::from_bits(1),
            _ => n,
        };
    }
    // Overflow: ±∞ in round-to-nearest; toward zero gives the largest finite value.
    match (positive, up) {
        (true, false) => f64::MAX,
        (false, true) => -f64::MAX,
        _ => n,
    }
}

/// Whether two results agree: equal bits, or both NaN.
fn same(x: u64, y: f64) -> bool {
    x == y.to_bits() || (f64::from_bits(x).is_nan() && y.is_nan())
}

#[test]
fn f64_division_is_correctly_rounded_in_every_mode() {
    let e = edges();
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for &x in &e {
        for &y in &e {
            a.push(x);
            b.push(y);
        }
    }
    let mut s = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    while a.len() < 8192 {
        let (x, y) = (next(), next());
        match a.len() % 4 {
            // Quotients near the subnormal range and near overflow.
            0 => {
                a.push(x & 0x80ff_ffff_ffff_ffff);
                b.push(y & 0x800f_ffff_ffff_ffff | 0x3ff0_0000_0000_0000);
            }
            1 => {
                a.push(x | 0x7f00_0000_0000_0000);
                b.push(y & 0x803f_ffff_ffff_ffff);
            }
            _ => {
                a.push(x);
                b.push(y);
            }
        }
    }
    let n = a.len();
    let out = run_both(
        "ddiv.ptx",
        KERNEL,
        &spec(
            "ddiv",
            (n / 64) as u32,
            64,
            vec![u64s(&a), u64s(&b), u64s(&vec![0; 9 * n])],
        ),
    );
    let got = words(&out[2]);
    let slot = |i: usize, k: usize| {
        u64::from(got[18 * i + 2 * k]) | u64::from(got[18 * i + 2 * k + 1]) << 32
    };
    for i in 0..n {
        let (x, y) = (f64::from_bits(a[i]), f64::from_bits(b[i]));
        let rn = x / y;
        let want = [
            rn,
            if (x / y) > 0.0 || (rn == 0.0 && (x > 0.0) == (y > 0.0)) && !rn.is_nan() {
                directed(x, y, false)
            } else {
                directed(x, y, true)
            },
            directed(x, y, false),
            directed(x, y, true),
            1.0 / y,
            if (1.0 / y) > 0.0 || (1.0 / y == 0.0 && y > 0.0) {
                directed(1.0, y, false)
            } else {
                directed(1.0, y, true)
            },
            directed(1.0, x, false),
            directed(1.0, x, true),
            x / 3.0,
        ];
        for (k, w) in want.iter().enumerate() {
            assert!(
                same(slot(i, k), *w),
                "slot {k}: {:#018x} / {:#018x}: got {:#018x}, want {:#018x}",
                a[i],
                b[i],
                slot(i, k),
                w.to_bits()
            );
        }
    }
}

const SQRT: &str = include_str!("data/dsqrt.ptx");

/// `s·s` against `x`, exactly (integers): the sign of `x − s²`.
fn sqrt_residual(x: f64, s: f64) -> Ordering {
    residual(x, s, s)
}

#[test]
fn f64_square_root_is_correctly_rounded_in_every_mode() {
    let mut x = edges();
    // Exact squares (normal and subnormal), and random bits of every exponent.
    for k in [3.0f64, 1.5, 1e-160, 7e150, 1.0 + f64::EPSILON] {
        x.push((k * k).to_bits());
    }
    let mut s = 0x5851_f42d_4c95_7f2du64;
    while x.len() < 4096 {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        x.push(if x.len().is_multiple_of(3) {
            s & 0x800f_ffff_ffff_ffff
        } else {
            s
        });
    }
    let n = x.len();
    let out = run_both(
        "dsqrt.ptx",
        SQRT,
        &spec(
            "dsqrt",
            (n / 64) as u32,
            64,
            vec![u64s(&x), u64s(&vec![0; 4 * n])],
        ),
    );
    let got = words(&out[1]);
    let slot = |i: usize, k: usize| {
        u64::from(got[8 * i + 2 * k]) | u64::from(got[8 * i + 2 * k + 1]) << 32
    };
    for (i, &bits) in x.iter().enumerate() {
        let v = f64::from_bits(bits);
        let rn = v.sqrt();
        // The directed results: rn or its neighbour below/above, by the exact sign of x − rn².
        let (down, up) = if !rn.is_finite() || rn == 0.0 {
            (rn, rn)
        } else {
            match sqrt_residual(v, rn) {
                Ordering::Equal => (rn, rn),
                Ordering::Greater => (rn, next_up(rn)),
                Ordering::Less => (next_down(rn), rn),
            }
        };
        for (k, w) in [rn, down, down, up].iter().enumerate() {
            assert!(
                same(slot(i, k), *w),
                "slot {k}: sqrt {bits:#018x}: got {:#018x}, want {:#018x}",
                slot(i, k),
                w.to_bits()
            );
        }
    }
}
