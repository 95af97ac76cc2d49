//! File-level throughput: assembling whole cuobjdump listings, writing and reading cubins,
//! disassembling a cubin and verifying a listing.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use diag::SourceFile;
use fermi::asm::{assemble_file, AsmOptions};

const LISTING: &str = include_str!("../tests/container-data/mailbag_maxindex_maxindex.isa");
const LISTING2: &str = include_str!("../tests/container-data/support_ballotscan_ballotscan.isa");

fn container(c: &mut Criterion) {
    // Both listings as one file of six kernels (their kernel names differ).
    let text = format!("{LISTING}{LISTING2}");
    let lines = text
        .lines()
        .filter(|l| fermi::listing::parse_listing_line(l).is_some())
        .count() as u64;
    let file = SourceFile::new("bench.isa", text.as_str());
    let assembly = assemble_file(&file, &AsmOptions::default()).expect("listings assemble");
    let cubin = assembly.write_cubin().expect("cubin");

    let mut g = c.benchmark_group("fermi_container");
    g.throughput(Throughput::Elements(lines));
    g.bench_function("assemble_file", |b| {
        b.iter(|| assemble_file(black_box(&file), &AsmOptions::default()).is_ok())
    });
    g.bench_function("write_cubin", |b| {
        b.iter(|| black_box(&assembly).write_cubin().map(|v| v.len()))
    });
    g.bench_function("read_cubin", |b| {
        b.iter(|| fermi::cubin::read_cubin(black_box(&cubin)).is_ok())
    });
    g.bench_function("disassemble_cubin", |b| {
        b.iter(|| fermi::disasm::disassemble_cubin(black_box(&cubin)).map(|s| s.len()))
    });
    g.bench_function("verify_listing", |b| {
        b.iter(|| fermi::verify::verify_listing("bench", black_box(&text)).lines)
    });
    g.finish();
}

criterion_group!(benches, container);
criterion_main!(benches);
