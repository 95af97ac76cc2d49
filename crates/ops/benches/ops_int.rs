//! ns per call of a handful of integer, carry-chain and video semantics functions. Each
//! iteration folds a batch of 1024 inputs through the function so the loop cannot be hoisted;
//! criterion's throughput (elements) gives the per-call time.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use ops::carry;
use ops::int::{self, Sign};
use ops::video::{self, PartSel, Simd4Mode, VideoScalar, VideoSecondary};
use std::hint::black_box;

const N: usize = 1024;

/// Deterministic pseudo-random inputs (xorshift64*).
fn inputs() -> Vec<u64> {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    (0..N)
        .map(|_| {
            x ^= x >> 12;
            x ^= x << 25;
            x ^= x >> 27;
            x.wrapping_mul(0x2545_f491_4f6c_dd1d)
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let v = inputs();
    let mut g = c.benchmark_group("ops_int");
    g.throughput(Throughput::Elements(N as u64));

    g.bench_function("add.sat.s32", |b| {
        b.iter(|| {
            let mut acc = 0i32;
            for &x in black_box(&v) {
                acc = int::add_sat_s32(acc, x as i32);
            }
            acc
        })
    });
    g.bench_function("mul.hi.u64", |b| {
        b.iter(|| {
            let mut acc = 1u64;
            for &x in black_box(&v) {
                acc ^= int::mul_hi(x, x.rotate_left(17));
            }
            acc
        })
    });
    g.bench_function("div.s32", |b| {
        b.iter(|| {
            let mut acc = 0i32;
            for &x in black_box(&v) {
                acc = acc.wrapping_add(int::div(x as i32, (x >> 40) as i32));
            }
            acc
        })
    });
    g.bench_function("madc.hi.cc.u64", |b| {
        b.iter(|| {
            let (mut acc, mut cf) = (0u64, false);
            for &x in black_box(&v) {
                (acc, cf) = carry::madc_hi(x, x ^ acc, acc, cf);
            }
            (acc, cf)
        })
    });
    g.bench_function("bfe.s32", |b| {
        b.iter(|| {
            let mut acc = 0i32;
            for &x in black_box(&v) {
                acc ^= int::bfe(x as i32, (x >> 32) as u32, (x >> 40) as u32);
            }
            acc
        })
    });
    g.bench_function("dp4a.s32.u32", |b| {
        b.iter(|| {
            let mut acc = 0u32;
            for &x in black_box(&v) {
                acc = int::dp4a(
                    x as u32,
                    (x >> 32) as u32,
                    acc,
                    Sign::Signed,
                    Sign::Unsigned,
                );
            }
            acc
        })
    });
    let sad = Simd4Mode {
        add: true,
        ..Simd4Mode::new(Sign::Unsigned, Sign::Unsigned, Sign::Unsigned)
    };
    g.bench_function("vabsdiff4.u32.u32.u32.add", |b| {
        b.iter(|| {
            let mut acc = 0u32;
            for &x in black_box(&v) {
                acc = video::vabsdiff4(x as u32, (x >> 32) as u32, acc, black_box(sad));
            }
            acc
        })
    });
    let scalar = VideoScalar {
        dtype: Sign::Signed,
        atype: Sign::Unsigned,
        btype: Sign::Signed,
        asel: PartSel::B0,
        bsel: PartSel::H0,
        sat: true,
        secondary: VideoSecondary::Add,
    };
    g.bench_function("vadd.s32.u32.s32.sat.add (b0, h0)", |b| {
        b.iter(|| {
            let mut acc = 0u32;
            for &x in black_box(&v) {
                acc = video::vadd(x as u32, (x >> 32) as u32, acc, black_box(scalar));
            }
            acc
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
