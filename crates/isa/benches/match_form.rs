//! Throughput of `match_form` on the instruction mix of a compiled kernel.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

const MIX: &[(&str, &[&str])] = &[
    ("ld", &[".param", ".u64"]),
    ("cvta", &[".to", ".global", ".u64"]),
    ("mov", &[".u32"]),
    ("mad", &[".lo", ".s32"]),
    ("setp", &[".ge", ".s32"]),
    ("mul", &[".wide", ".s32"]),
    ("add", &[".s64"]),
    ("ld", &[".global", ".nc", ".v4", ".f32"]),
    ("fma", &[".rn", ".f32"]),
    ("st", &[".shared", ".f32"]),
    ("bar", &[".sync"]),
    ("shfl", &[".sync", ".bfly", ".b32"]),
    ("atom", &[".global", ".add", ".u32"]),
    ("cvt", &[".rn", ".f32", ".s32"]),
    ("bra", &[".uni"]),
    ("ret", &[]),
];

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("match_form");
    g.throughput(Throughput::Elements(MIX.len() as u64));
    g.bench_function("kernel mix", |b| {
        b.iter(|| {
            let mut ok = 0;
            for (op, mods) in MIX {
                ok += usize::from(isa::match_form(std::hint::black_box(op), mods).is_ok());
            }
            assert_eq!(ok, MIX.len());
        })
    });
    let heads: Vec<String> = MIX
        .iter()
        .map(|(op, mods)| format!("{op}{}", mods.concat()))
        .collect();
    let mut cache = isa::MatchCache::new();
    g.bench_function("kernel mix, cached heads", |b| {
        b.iter(|| {
            let mut ok = 0;
            for h in &heads {
                ok += usize::from(cache.match_head(std::hint::black_box(h)).is_ok());
            }
            assert_eq!(ok, heads.len());
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
