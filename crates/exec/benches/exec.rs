//! Thread-instructions per second of the executor, and the same computation in plain Rust.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use exec::{Arg, Device, LaunchConfig, RunOptions};
use std::hint::black_box;

const CTAS: u32 = 4096;
const BLOCK: u32 = 256;

fn hash_instrs(divergent: bool) -> u64 {
    // Instructions per thread: 8 (divergent: 9) before the loop, 6 per iteration, 4 after (mul.wide, add,
    // st, exit) — the counter the executor reports must agree (checked in the tests).
    let n = (CTAS * BLOCK) as u64;
    (0..n)
        .map(|g| {
            let trips = if divergent { 128 + (g & 255) } else { 256 };
            let setup = if divergent { 9 } else { 8 };
            setup + 6 * trips + 4
        })
        .sum()
}

fn bench_hash(c: &mut Criterion, divergent: bool) {
    let name = if divergent { "hash_divergent" } else { "hash" };
    let mut g = c.benchmark_group(name);
    g.sample_size(10);
    g.throughput(Throughput::Elements(hash_instrs(divergent)));
    let mut dev = Device::new();
    let m = dev.load_program(exec::build::hash_kernel(divergent));
    let out = dev.alloc((CTAS * BLOCK) as u64 * 4).unwrap();
    let cfg = LaunchConfig {
        grid: [CTAS, 1, 1],
        block: [BLOCK, 1, 1],
        ..LaunchConfig::default()
    };
    for threads in [1usize, 2] {
        g.bench_function(format!("exec_threads_{threads}"), |b| {
            b.iter(|| {
                let opts = RunOptions {
                    threads,
                    ..RunOptions::default()
                };
                dev.launch(&m, "hash", &cfg, &[Arg::ptr(out)], &opts)
                    .unwrap()
            })
        });
    }
    g.bench_function("plain_rust", |b| {
        let mut v = vec![0u32; (CTAS * BLOCK) as usize];
        b.iter(|| {
            for (gid, o) in v.iter_mut().enumerate() {
                let mut x = gid as u32;
                let trips = if divergent {
                    128 + (gid as u32 & 255)
                } else {
                    256
                };
                for _ in 0..black_box(trips) {
                    x = x.wrapping_mul(1664525).wrapping_add(1013904223);
                    x ^= x >> 13;
                }
                *o = x;
            }
            black_box(&v);
        })
    });
    g.finish();
}

fn benches(c: &mut Criterion) {
    bench_hash(c, false);
    bench_hash(c, true);
}

criterion_group!(all, benches);
criterion_main!(all);
