//! Translation throughput on the check benchmark's generated ≥ 20 MB PTX file
//! (crates/check/benches/generate.rs), beside `check` on the same text, so the ratio the issue
//! bounds (compile under 5× check) can be read off one run: `cargo bench -p ptxvm-codegen`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
/// The `ptxvm` binary's allocator, so the figures are what `ptxvm compile` achieves.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "../../check/benches/generate.rs"]
mod generate;

fn bench_compile(c: &mut Criterion) {
    let file = diag::SourceFile::new("bench.ptx", generate::generate());
    let (module, diags) = check::check_source(&file);
    let Some(module) = module else {
        panic!("{}", diag::render(&file, &diags));
    };
    // The input must translate: a benchmark of the error path would measure the wrong thing.
    let compiled = codegen::compile_module(&module, &file)
        .unwrap_or_else(|e| panic!("{}", diag::render(&file, &e)));
    let mut g = c.benchmark_group("compile");
    g.throughput(Throughput::Bytes(file.text.len() as u64));
    g.sample_size(10);
    // What `ptxvm check` runs, the denominator of the ratio.
    g.bench_function("check_20MB", |b| {
        b.iter(|| check::diagnose_source(std::hint::black_box(&file)))
    });
    // The translation alone, from the checked module.
    g.bench_function("translate_20MB", |b| {
        b.iter(|| codegen::compile_module(std::hint::black_box(&module), &file))
    });
    g.bench_function("write_cubin_20MB", |b| {
        b.iter(|| fermi::cubin::write_cubin(std::hint::black_box(&compiled.cubin)))
    });
    // The two stages one after the other: check and lower, translate, write the cubin.
    g.bench_function("check_translate_write_20MB", |b| {
        b.iter(|| {
            let (m, _) = check::check_source(std::hint::black_box(&file));
            let c = codegen::compile_module(&m.expect("checks"), &file).expect("translates");
            fermi::cubin::write_cubin(&c.cubin)
        })
    });
    // What `ptxvm compile` runs: the check streaming each body to a translator meanwhile,
    // the rest translated in parallel, then the cubin.
    g.bench_function("streamed_compile_write_20MB", |b| {
        b.iter(|| {
            let (_, c) = codegen::check_and_compile(std::hint::black_box(&file));
            let c = c.expect("checks").expect("translates");
            fermi::cubin::write_cubin(&c.cubin)
        })
    });
    g.finish();
}

criterion_group!(benches, bench_compile);
criterion_main!(benches);
