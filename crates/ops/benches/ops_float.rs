//! ns per call of hot float/compare/convert/permute operations. Each iteration runs the
//! operation over 1024 varied operands; throughput is reported per element.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use ops::cmp::{self, CmpOp};
use ops::cvt::{self, CvtMode, CvtRounding, CvtType, IntRounding};
use ops::float::{self, Rounding};
use ops::prmt::{prmt, PrmtMode};
use ops::transcend::{self, Precision};
use std::hint::black_box;

const N: usize = 1024;

/// Deterministic pseudo-random operands (xorshift), spread over many magnitudes.
fn operands() -> Vec<u64> {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    (0..N)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        })
        .collect()
}

fn f32s(v: &[u64]) -> Vec<f32> {
    v.iter()
        .map(|b| f32::from_bits(0x3000_0000 + (*b as u32 % 0x1e00_0000)))
        .collect()
}

fn f64s(v: &[u64]) -> Vec<f64> {
    v.iter()
        .map(|b| f64::from_bits(0x3c00_0000_0000_0000 + (b % 0x0700_0000_0000_0000)))
        .collect()
}

fn bench(c: &mut Criterion) {
    let raw = operands();
    let a32 = f32s(&raw);
    let b32: Vec<f32> = a32.iter().rev().copied().collect();
    let a64 = f64s(&raw);
    let b64: Vec<f64> = a64.iter().rev().copied().collect();
    let mut g = c.benchmark_group("ops_float");
    g.throughput(Throughput::Elements(N as u64));

    let (a32, b32) = (&a32[..], &b32[..]);
    macro_rules! f32_binary {
        ($name:expr, $op:expr) => {
            g.bench_function($name, |bch| {
                let op = $op;
                bch.iter(|| {
                    let mut acc = 0u32;
                    for (x, y) in a32.iter().zip(b32) {
                        acc ^= op(black_box(*x), black_box(*y)).to_bits();
                    }
                    acc
                })
            });
        };
    }
    f32_binary!("add.rn.f32", |x, y| float::add_f32(
        x,
        y,
        Rounding::Rn,
        false,
        false
    ));
    f32_binary!("add.rz.f32", |x, y| float::add_f32(
        x,
        y,
        Rounding::Rz,
        false,
        false
    ));
    f32_binary!("mul.rm.f32", |x, y| float::mul_f32(
        x,
        y,
        Rounding::Rm,
        false,
        false
    ));
    f32_binary!("div.rn.f32", |x, y| {
        float::div_f32(x, y, float::DivKind::Rounded(Rounding::Rn), false, false)
    });
    f32_binary!("sqrt.rn.f32", |x, _| transcend::sqrt_f32(
        x,
        Precision::Rounded(Rounding::Rn),
        false
    ));
    f32_binary!("sqrt.rz.f32", |x, _| transcend::sqrt_f32(
        x,
        Precision::Rounded(Rounding::Rz),
        false
    ));
    f32_binary!("ex2.approx.f32", |x, _| transcend::ex2_f32(x, false));

    for (name, rnd) in [("fma.rn.f64", Rounding::Rn), ("fma.rz.f64", Rounding::Rz)] {
        g.bench_function(name, |bch| {
            bch.iter(|| {
                let mut acc = 0u64;
                for (x, y) in a64.iter().zip(&b64) {
                    acc ^= float::fma_f64(black_box(*x), *y, -*x, black_box(rnd)).to_bits();
                }
                acc
            })
        });
    }

    g.bench_function("cvt.rni.s32.f32 (fast)", |bch| {
        bch.iter(|| {
            let mut acc = 0i32;
            for x in a32 {
                acc ^= cvt::cvt_s32_f32(black_box(*x * 1.0e6), IntRounding::Rni, false);
            }
            acc
        })
    });
    let rni = CvtMode {
        rnd: Some(CvtRounding::Int(IntRounding::Rni)),
        ..CvtMode::default()
    };
    g.bench_function("cvt.rni.s32.f32 (generic)", |bch| {
        bch.iter(|| {
            let mut acc = 0u64;
            for x in a32 {
                let bits = u64::from((*x * 1.0e6).to_bits());
                acc ^= cvt::cvt(black_box(bits), CvtType::F32, CvtType::S32, black_box(rni));
            }
            acc
        })
    });
    g.bench_function("setp.ltu.f32", |bch| {
        bch.iter(|| {
            let mut n = 0u32;
            for (x, y) in a32.iter().zip(b32) {
                n += u32::from(cmp::cmp_f32(black_box(CmpOp::Ltu), *x, *y, false));
            }
            n
        })
    });
    g.bench_function("prmt.b32", |bch| {
        bch.iter(|| {
            let mut acc = 0u32;
            for w in raw.windows(2) {
                acc ^= prmt(
                    w[0] as u32,
                    w[1] as u32,
                    black_box(w[0] >> 40) as u32,
                    PrmtMode::Default,
                );
            }
            acc
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
