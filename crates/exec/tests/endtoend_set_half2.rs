//! End-to-end: packed half comparisons, `set.CmpOp.{u32,s32,f16x2}.f16x2` and
//! `set.CmpOp.{u32,s32,bf16x2}.bf16x2` (PTX ISA 8.x §9.7.6.1: each 16-bit half of `d` is
//! 0xffff, or 1.0 of the destination format, when the matching halves compare true after the
//! optional BoolOp with `c`, else 0), against values computed here from an IEEE decoding of
//! each half written for this test.

mod endtoend_common;
use endtoend_common::*;

/// IEEE binary16 value (inf and NaN included); `ftz` reads subnormals as zero of their sign.
fn f16_value(h: u16, ftz: bool) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let e = i32::from((h >> 10) & 0x1f);
    let f = f64::from(h & 0x3ff);
    sign * match e {
        0 if ftz => 0.0,
        0 => f * 2f64.powi(-24),
        31 if f == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        _ => (1.0 + f / 1024.0) * 2f64.powi(e - 15),
    }
}

fn bf16_value(h: u16) -> f64 {
    f64::from(f32::from_bits(u32::from(h) << 16))
}

/// Edge halves: ±0, ±1, ±inf, quiet and signalling NaNs of both formats, f16 and bf16
/// subnormals, the largest finite values.
const EDGES: [u16; 14] = [
    0x0000, 0x8000, 0x3c00, 0xbc00, 0x7c00, 0xfc00, 0x7e00, 0x7d00, 0x0001, 0x8001, 0x7bff, 0x7f80,
    0x7fc0, 0x3f80,
];

fn pack(lo: u16, hi: u16) -> u32 {
    u32::from(lo) | u32::from(hi) << 16
}

/// The per-half result, both halves: `one` where `f` holds, else 0.
fn per_half_of(a: u32, b: u32, one: u32, f: impl Fn(u16, u16) -> bool) -> u32 {
    let mut d = 0;
    for sh in [0, 16] {
        if f((a >> sh) as u16, (b >> sh) as u16) {
            d |= one << sh;
        }
    }
    d
}

fn per_half(a: u32, b: u32, f: impl Fn(u16, u16) -> bool) -> u32 {
    per_half_of(a, b, 0xffff, f)
}

/// 1.0 in binary16 and in bfloat16 (sign 0, biased exponent 15 resp. 127, fraction 0).
const F16_ONE: u32 = 15 << 10;
const BF16_ONE: u32 = 127 << 7;

#[test]
fn set_on_packed_halves_gives_a_mask_per_half() {
    let n = EDGES.len() * EDGES.len();
    let mut rng = Rng(0x5e7_f16);
    let mut a = Vec::with_capacity(n);
    let mut b = Vec::with_capacity(n);
    for (i, &x) in EDGES.iter().enumerate() {
        for (j, &y) in EDGES.iter().enumerate() {
            // Low halves: every edge pair; high halves: an edge against random bits, or equal.
            let r = rng.next_u32() as u16;
            let hi_b = if (i + j) % 3 == 0 { y } else { r };
            a.push(pack(x, y));
            b.push(pack(y, hi_b));
        }
    }
    let c: Vec<u32> = (0..n).map(|_| rng.next_u32()).collect();
    let out = run_all_threads(
        "set_half2.ptx",
        "set_half2",
        &cfg([1, 1, 1], [n as u32, 1, 1]),
        &[buf(&a), buf(&b), buf(&c), zbuf::<u32>(7 * n)],
    );
    let got: Vec<u32> = decode(&out[3]);
    let mut flips = [0usize; 2];
    for t in 0..n {
        let (a, b, c) = (a[t], b[t], c[t] & 1 == 1);
        let h = |x: u16| f16_value(x, false);
        let hz = |x: u16| f16_value(x, true);
        let want = [
            per_half(a, b, |x, y| h(x) < h(y)),
            per_half(a, b, |x, y| h(x) == h(y) || h(x).is_nan() || h(y).is_nan()),
            per_half(a, b, |x, y| hz(x) >= hz(y) && c),
            per_half(a, b, |x, y| bf16_value(x) < bf16_value(y)),
            per_half(a, b, |x, y| {
                let (x, y) = (bf16_value(x), bf16_value(y));
                let ne = !x.is_nan() && !y.is_nan() && x != y;
                ne ^ !c
            }),
            per_half_of(a, b, F16_ONE, |x, y| {
                h(x) > h(y) || h(x).is_nan() || h(y).is_nan() || c
            }),
            per_half_of(a, b, BF16_ONE, |x, y| bf16_value(x) <= bf16_value(y)),
        ];
        for w in &want {
            flips[usize::from(*w != 0)] += 1;
        }
        assert_eq!(
            &got[7 * t..7 * t + 7],
            &want,
            "thread {t}: a {a:#010x} b {b:#010x} c {c}"
        );
    }
    // The inputs exercise both outcomes.
    assert!(flips[0] > 0 && flips[1] > 0, "{flips:?}");
}
