//! Encode and decode throughput over every distinct word of NVIDIA's listings (all of which
//! decode), encode over the instructions those words decode to.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use fermi::isa::{decode, encode, Inst};

/// Every distinct word of the listing vectors (`tests/data/cuobjdump_sm20.txt` holds each
/// distinct line of the shared listings; a word may appear there under both dialects).
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
    assert_eq!(insts.len(), words.len(), "every listing word decodes");
    let mut g = c.benchmark_group("fermi_codec");
    g.throughput(Throughput::Elements(words.len() as u64));
    g.bench_function("decode", |b| {
        b.iter(|| {
            for &w in &words {
                // The whole result is observed (by reference: no copy is timed), so none of
                // its fields can be skipped.
                let r = decode(black_box(w));
                black_box(&r);
            }
        })
    });
    g.throughput(Throughput::Elements(insts.len() as u64));
    g.bench_function("encode", |b| {
        b.iter(|| {
            for i in &insts {
                black_box(encode(black_box(i)));
            }
        })
    });
    g.finish();
}

criterion_group!(benches, codec);
criterion_main!(benches);
