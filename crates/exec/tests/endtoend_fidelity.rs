//! The executor bugs the fidelity issue lists, each run end to end with expected values
//! computed here from the spec's definitions (plain Rust on i64/i128, not `ops`).

mod endtoend_common;

use endtoend_common::*;
use exec::Arg;

const FILE: &str = "fidelity.ptx";

/// Edge values of a 16-bit half, then pseudo-random ones.
fn halves(n: usize) -> Vec<u16> {
    let edges = [
        0u16, 1, 0xffff, 0x8000, 0x7fff, 0x80, 0x7f, 0xff, 0x100, 2, 0xfffe,
    ];
    let mut r = Rng(0xf1de);
    (0..n)
        .map(|i| edges.get(i).copied().unwrap_or_else(|| r.next_u32() as u16))
        .collect()
}

fn pack(lo: u16, hi: u16) -> u32 {
    u32::from(lo) | u32::from(hi) << 16
}

/// Per half-word lane: `f(a_lane, b_lane)` as i64 values of the lane type, then truncated.
fn lanewise(a: u32, b: u32, signed: bool, f: impl Fn(i64, i64) -> i64) -> u32 {
    let lane = |x: u32, k: u32| {
        let h = (x >> (16 * k)) as u16;
        if signed {
            i64::from(h as i16)
        } else {
            i64::from(h)
        }
    };
    let lo = f(lane(a, 0), lane(b, 0)) as u16;
    let hi = f(lane(a, 1), lane(b, 1)) as u16;
    pack(lo, hi)
}

#[test]
fn packed_half_word_and_relu_forms() {
    let n = 64usize;
    let (ha, hb) = (halves(2 * n), {
        let mut v = halves(2 * n);
        v.rotate_left(5);
        v
    });
    let a: Vec<u32> = (0..n).map(|i| pack(ha[2 * i], ha[2 * i + 1])).collect();
    let b: Vec<u32> = (0..n).map(|i| pack(hb[2 * i], hb[2 * i + 1])).collect();
    let params = [
        buf(&a),
        buf(&b),
        zbuf::<u32>(10 * n),
        Param::Scalar(Arg::u32(n as u32)),
    ];
    let out = run_once(FILE, "pairs", &cfg([1, 1, 1], [n as u32, 1, 1]), &params, 1).unwrap();
    let got: Vec<u32> = decode(&out[2]);
    let relu = |x: i64| x.max(0);
    for i in 0..n {
        let (x, y) = (a[i], b[i]);
        let want = [
            lanewise(x, y, false, |p, q| p + q),
            lanewise(x, y, true, |p, q| p + q),
            lanewise(x, y, false, |p, q| p.min(q)),
            lanewise(x, y, false, |p, q| p.max(q)),
            lanewise(x, y, true, |p, q| p.min(q)),
            lanewise(x, y, true, |p, q| p.max(q)),
            lanewise(x, y, true, |p, q| relu(p.min(q))),
            lanewise(x, y, true, |p, q| relu(p.max(q))),
            relu(i64::from(x as i32).min(i64::from(y as i32))) as u32,
            relu(i64::from(x as i32).max(i64::from(y as i32))) as u32,
        ];
        let names = [
            "add.u16x2",
            "add.s16x2",
            "min.u16x2",
            "max.u16x2",
            "min.s16x2",
            "max.s16x2",
            "min.relu.s16x2",
            "max.relu.s16x2",
            "min.relu.s32",
            "max.relu.s32",
        ];
        for (k, w) in want.iter().enumerate() {
            assert_eq!(got[k * n + i], *w, "{} {x:#010x}, {y:#010x}", names[k]);
        }
    }
}

#[test]
fn sixteen_bit_high_products() {
    let n = 96usize;
    let a = halves(n);
    let b: Vec<u16> = a.iter().rev().copied().collect();
    let c: Vec<u16> = a.iter().map(|x| x.rotate_left(3)).collect();
    let params = [
        buf(&a),
        buf(&b),
        buf(&c),
        zbuf::<u16>(4 * n),
        Param::Scalar(Arg::u32(n as u32)),
    ];
    let out = run_once(FILE, "hi16", &cfg([1, 1, 1], [n as u32, 1, 1]), &params, 1).unwrap();
    let got: Vec<u16> = decode(&out[3]);
    for i in 0..n {
        // §9.7.1.3: the high 16 bits of the 32-bit product (signed product for .s16); mad adds c
        // modulo 2^16.
        let hu = ((u32::from(a[i]) * u32::from(b[i])) >> 16) as u16;
        let hs = ((i32::from(a[i] as i16) * i32::from(b[i] as i16)) >> 16) as u16;
        let want = [hu, hs, hu.wrapping_add(c[i]), hs.wrapping_add(c[i])];
        for (k, w) in want.iter().enumerate() {
            assert_eq!(
                got[k * n + i],
                *w,
                "form {k}: a={:#x} b={:#x} c={:#x}",
                a[i],
                b[i],
                c[i]
            );
        }
    }
}

#[test]
fn contended_atomic_decrement_wraps_at_zero() {
    // 6,000 decrements with limit 50 by 1,536 threads of 6 CTAs, starting at 0. The spec's
    // `((old == 0) || (old > b)) ? b : old - 1` permutes 0..=50 in one cycle, so any order of
    // the decrements gives the same final value: apply it 6,000 times here.
    let mut want = 0u32;
    for _ in 0..6000 {
        want = if want == 0 || want > 50 { 50 } else { want - 1 };
    }
    assert_eq!(want, 18);
    for threads in THREAD_COUNTS {
        let params = [buf(&[0u32]), Param::Scalar(Arg::u32(6000))];
        let out = run_once(FILE, "decs", &cfg([6, 1, 1], [256, 1, 1]), &params, threads).unwrap();
        assert_eq!(
            decode::<u32>(&out[0]),
            vec![want],
            "{threads} worker threads"
        );
    }
}

#[test]
fn selp_takes_an_immediate_predicate() {
    let out = run_once(
        FILE,
        "selp_imm",
        &cfg([1, 1, 1], [1, 1, 1]),
        &[zbuf::<u16>(2)],
        1,
    )
    .unwrap();
    assert_eq!(decode::<u16>(&out[0]), vec![9, 7]);
}
