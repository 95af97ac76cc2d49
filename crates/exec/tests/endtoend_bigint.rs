//! End-to-end: 128- and 256-bit add/sub/multiply through the carry chain
//! (`add.cc/addc/sub.cc/subc/mad.lo.cc/madc.hi`), against u128 and a limb-wise Rust reference.

mod endtoend_common;
use endtoend_common::*;
use exec::Arg;

/// Little-endian u32 limbs of a number `bits` wide.
type Limbs = Vec<u32>;

fn ref_add(a: &[u32], b: &[u32]) -> (Limbs, bool) {
    let mut carry = 0u64;
    let s = a
        .iter()
        .zip(b)
        .map(|(&x, &y)| {
            let t = u64::from(x) + u64::from(y) + carry;
            carry = t >> 32;
            t as u32
        })
        .collect();
    (s, carry == 1)
}

fn ref_sub(a: &[u32], b: &[u32]) -> (Limbs, bool) {
    let mut borrow = 0i64;
    let d = a
        .iter()
        .zip(b)
        .map(|(&x, &y)| {
            let t = i64::from(x) - i64::from(y) - borrow;
            borrow = i64::from(t < 0);
            t.rem_euclid(1 << 32) as u32
        })
        .collect();
    (d, borrow == 1)
}

fn ref_mul(a: &[u32], b: &[u32]) -> Limbs {
    let mut r = vec![0u32; a.len() + b.len()];
    for (i, &y) in b.iter().enumerate() {
        let mut carry = 0u64;
        for (j, &x) in a.iter().enumerate() {
            let t = u64::from(x) * u64::from(y) + u64::from(r[i + j]) + carry;
            r[i + j] = t as u32;
            carry = t >> 32;
        }
        r[i + a.len()] = carry as u32;
    }
    r
}

fn bytes(limbs: &[u32]) -> Vec<u8> {
    limbs.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Operands that stress carries: zero, one, all ones, top bit, long carry runs, random.
fn operands(words: usize, count: usize, seed: u64) -> Vec<Limbs> {
    let mut rng = Rng(seed);
    let mut v = vec![
        vec![0; words],
        vec![u32::MAX; words],
        {
            let mut x = vec![0; words];
            x[0] = 1;
            x
        },
        {
            let mut x = vec![0; words];
            x[words - 1] = 0x8000_0000;
            x
        },
        {
            let mut x = vec![u32::MAX; words];
            x[words - 1] = 0x7FFF_FFFF;
            x
        },
        {
            let mut x = vec![0; words];
            x[words / 2] = 1;
            x
        },
    ];
    while v.len() < count {
        let x = (0..words)
            .map(|k| match rng.next_u32() % 4 {
                0 => u32::MAX,
                1 => 0,
                _ => rng.next_u32() ^ k as u32,
            })
            .collect();
        v.push(x);
    }
    v
}

/// Run `kernel` on every pair of `operands` (a, b) and compare all three results.
fn check_bigint(kernel: &str, bits: usize, limb_bytes: usize) {
    let words = bits / 32;
    let ops = operands(words, 16, bits as u64 * 7 + limb_bytes as u64);
    let mut a = Vec::new();
    let mut b = Vec::new();
    for x in &ops {
        for y in &ops {
            a.push(x.clone());
            b.push(y.clone());
        }
    }
    let n = a.len();
    let limb_pad = |flag: bool| vec![if flag { 0xFF } else { 0 }; limb_bytes];
    let sum_stride = bits / 8 + limb_bytes;
    let out = run_all_threads(
        "bigint.ptx",
        kernel,
        &cfg([(n as u32).div_ceil(64), 1, 1], [64, 1, 1]),
        &[
            buf(&a.concat()),
            buf(&b.concat()),
            Param::Buf(vec![0xAB; n * sum_stride]),
            Param::Buf(vec![0xAB; n * sum_stride]),
            Param::Buf(vec![0xAB; n * bits / 4]),
            Param::Scalar(Arg::u32(n as u32)),
        ],
    );
    for g in 0..n {
        let (s, carry) = ref_add(&a[g], &b[g]);
        let mut want = bytes(&s);
        let mut c = vec![0u8; limb_bytes];
        c[0] = u8::from(carry);
        want.extend(c);
        assert_eq!(
            &out[2][g * sum_stride..(g + 1) * sum_stride],
            &want[..],
            "{kernel} sum {g}: {:x?} + {:x?}",
            a[g],
            b[g]
        );
        let (d, borrow) = ref_sub(&a[g], &b[g]);
        let mut want = bytes(&d);
        want.extend(limb_pad(borrow));
        assert_eq!(
            &out[3][g * sum_stride..(g + 1) * sum_stride],
            &want[..],
            "{kernel} diff {g}: {:x?} - {:x?}",
            a[g],
            b[g]
        );
        let want = bytes(&ref_mul(&a[g], &b[g]));
        assert_eq!(
            &out[4][g * bits / 4..(g + 1) * bits / 4],
            &want[..],
            "{kernel} prod {g}: {:x?} * {:x?}",
            a[g],
            b[g]
        );
    }
}

#[test]
fn reference_agrees_with_u128() {
    // The limb-wise reference itself, checked against native u128 arithmetic.
    for x in operands(4, 12, 99) {
        for y in operands(4, 12, 98) {
            let to = |l: &[u32]| l.iter().rev().fold(0u128, |acc, &w| acc << 32 | w as u128);
            let (s, c) = ref_add(&x, &y);
            assert_eq!((to(&s), c), to(&x).overflowing_add(to(&y)));
            let (d, b) = ref_sub(&x, &y);
            assert_eq!((to(&d), b), to(&x).overflowing_sub(to(&y)));
            let p = ref_mul(&x, &y);
            assert_eq!(to(&p[..4]), to(&x).wrapping_mul(to(&y)));
        }
    }
}

#[test]
fn bigint128_with_u32_limbs() {
    check_bigint("bigint128_u32", 128, 4);
}

#[test]
fn bigint256_with_u32_limbs() {
    check_bigint("bigint256_u32", 256, 4);
}

#[test]
fn bigint256_with_u64_limbs() {
    check_bigint("bigint256_u64", 256, 8);
}

#[test]
fn carry_flag_is_per_thread_through_divergence_and_predication() {
    let out = run_all_threads(
        "bigint.ptx",
        "carry_flags",
        &cfg([1, 1, 1], [64, 1, 1]),
        &[zbuf::<u32>(64)],
    );
    let got: Vec<u32> = decode(&out[0]);
    let want: Vec<u32> = (0..64u32)
        .map(|t| u32::from(t % 8 >= 4 || t % 4 == 0 || t % 4 == 3))
        .collect();
    assert_eq!(got, want);
}
