//! Encode and decode throughput over every distinct word of NVIDIA's listings.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use fermi::isa::{decode, encode, Inst};

fn words() -> Vec<u64> {
    let data = include_str!("../tests/data/cuobjdump_sm20.txt");
    let mut w: Vec<u64> = data
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split(' ').nth(2))
        .filter_map(|h| u64::from_str_radix(h.trim_start_matches("0x"), 16).ok())
        .collect();
    w.sort_unstable();
    w.dedup();
    w
}

fn codec(c: &mut Criterion) {
    let words = words();
    let insts: Vec<Inst> = words.iter().filter_map(|&w| decode(w).ok()).collect();
    let mut g = c.benchmark_group("fermi_codec");
    g.throughput(Throughput::Elements(words.len() as u64));
    g.bench_function("decode", |b| {
        b.iter(|| {
            let mut ok = 0usize;
            for &w in &words {
                ok += usize::from(decode(black_box(w)).is_ok());
            }
            ok
        })
    });
    g.throughput(Throughput::Elements(insts.len() as u64));
    g.bench_function("encode", |b| {
        b.iter(|| {
            let mut x = 0u64;
            for i in &insts {
                x ^= encode(black_box(i));
            }
            x
        })
    });
    g.finish();
}

criterion_group!(benches, codec);
criterion_main!(benches);
