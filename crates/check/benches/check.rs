//! Parse + check throughput on a generated ≥ 20 MB PTX file of compiler-style kernels (loops,
//! shared memory, vector loads, predicated branches, calls), reported in bytes per second.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
/// The `ptxvm` binary's allocator, so the figures are what `ptxvm check` achieves.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "generate.rs"]
mod generate;
use generate::generate;

fn bench_check(c: &mut Criterion) {
    let file = diag::SourceFile::new("bench.ptx", generate());
    // The input must be valid: a benchmark of error paths would measure the wrong thing.
    let (module, diags) = check::check_source(&file);
    assert!(module.is_some(), "{}", diag::render(&file, &diags));
    let mut g = c.benchmark_group("check");
    g.throughput(Throughput::Bytes(file.text.len() as u64));
    g.sample_size(10);
    // What `ptxvm check` runs: parse and check, keeping only the diagnostics.
    g.bench_function("parse_and_check_20MB", |b| {
        b.iter(|| check::diagnose_source(std::hint::black_box(&file)))
    });
    // What `ptxvm run` runs: parse and check, lowering every body into the module's IR.
    g.bench_function("parse_check_and_lower_20MB", |b| {
        b.iter(|| check::check_source(std::hint::black_box(&file)))
    });
    g.bench_function("check_only_20MB", |b| {
        let (ast, _) = syntax::parse_module(&file);
        b.iter(|| check::check_module(&file, std::hint::black_box(&ast)))
    });
    g.finish();
}

criterion_group!(benches, bench_check);
criterion_main!(benches);
