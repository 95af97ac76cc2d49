//! Thread-instructions per second of the executor, and the same computation in plain Rust.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use exec::{Arg, Device, LaunchConfig, RunOptions};
// The plain-Rust baselines compute the same results on one thread.
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

/// Check and load a PTX file of the repository.
fn load_ptx(dev: &mut Device, rel: &str) -> exec::LoadedModule {
    let path = format!("{}/../../{rel}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let src = diag::SourceFile::new(rel, text);
    let (m, _) = check::check_source(&src);
    dev.load(&m.unwrap(), &src).unwrap()
}

const N16M: usize = 16 << 20;

fn bench_vector_add(c: &mut Criterion) {
    let mut dev = Device::new();
    let m = load_ptx(&mut dev, "examples/vector_add.ptx");
    let a: Vec<f32> = (0..N16M).map(|i| i as f32 * 0.5).collect();
    let b: Vec<f32> = (0..N16M).map(|i| i as f32 * 0.25).collect();
    let bytes = |v: &[f32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    let pa = dev.alloc(N16M as u64 * 4).unwrap();
    let pb = dev.alloc(N16M as u64 * 4).unwrap();
    let pc = dev.alloc(N16M as u64 * 4).unwrap();
    dev.write(pa, &bytes(&a)).unwrap();
    dev.write(pb, &bytes(&b)).unwrap();
    let cfg = LaunchConfig {
        grid: [(N16M / 256) as u32, 1, 1],
        block: [256, 1, 1],
        ..LaunchConfig::default()
    };
    let args = [
        Arg::ptr(pa),
        Arg::ptr(pb),
        Arg::ptr(pc),
        Arg::u32(N16M as u32),
    ];
    let instrs = dev
        .launch(&m, "vector_add", &cfg, &args, &RunOptions::default())
        .unwrap()
        .thread_instructions;
    let mut g = c.benchmark_group("vector_add_16M");
    g.sample_size(10);
    g.throughput(Throughput::Elements(instrs));
    for threads in [1usize, 2] {
        g.bench_function(format!("exec_threads_{threads}"), |bch| {
            let opts = RunOptions {
                threads,
                ..RunOptions::default()
            };
            bch.iter(|| dev.launch(&m, "vector_add", &cfg, &args, &opts).unwrap())
        });
    }
    g.bench_function("plain_rust", |bch| {
        let mut out = vec![0f32; N16M];
        bch.iter(|| {
            for ((o, x), y) in out.iter_mut().zip(&a).zip(&b) {
                *o = x + y;
            }
            black_box(&out);
        })
    });
    g.finish();
}

fn bench_reduce(c: &mut Criterion) {
    let mut dev = Device::new();
    let m = load_ptx(&mut dev, "tests/run/reduce_shared.ptx");
    let input: Vec<u32> = (0..N16M as u32)
        .map(|i| i.wrapping_mul(2654435761))
        .collect();
    let pin = dev.alloc(N16M as u64 * 4).unwrap();
    dev.write(
        pin,
        &input
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect::<Vec<u8>>(),
    )
    .unwrap();
    let ctas = N16M / 256;
    let pout = dev.alloc(ctas as u64 * 4).unwrap();
    let cfg = LaunchConfig {
        grid: [ctas as u32, 1, 1],
        block: [256, 1, 1],
        ..LaunchConfig::default()
    };
    let args = [Arg::ptr(pin), Arg::ptr(pout)];
    let instrs = dev
        .launch(&m, "reduce", &cfg, &args, &RunOptions::default())
        .unwrap()
        .thread_instructions;
    let mut g = c.benchmark_group("reduce_shared_16M");
    g.sample_size(10);
    g.throughput(Throughput::Elements(instrs));
    for threads in [1usize, 2] {
        g.bench_function(format!("exec_threads_{threads}"), |bch| {
            let opts = RunOptions {
                threads,
                ..RunOptions::default()
            };
            bch.iter(|| dev.launch(&m, "reduce", &cfg, &args, &opts).unwrap())
        });
    }
    g.bench_function("plain_rust", |bch| {
        let mut out = vec![0u32; ctas];
        bch.iter(|| {
            for (o, chunk) in out.iter_mut().zip(input.chunks(256)) {
                *o = chunk.iter().fold(0u32, |s, x| s.wrapping_add(*x));
            }
            black_box(&out);
        })
    });
    g.finish();
}

fn benches(c: &mut Criterion) {
    bench_hash(c, false);
    bench_hash(c, true);
    bench_vector_add(c);
    bench_reduce(c);
}

criterion_group!(all, benches);
criterion_main!(all);
