//! Parse throughput on a generated ≥ 20 MB compiler-style PTX file (one kernel repeated with
//! renamed labels and entry names).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use diag::SourceFile;

const KERNEL: &str = include_str!("../../../tests/corpus/sgemm_tiled.ptx");

/// The corpus kernel's functions repeated under fresh names until the text reaches `min_len`.
fn generate(min_len: usize) -> String {
    let start = KERNEL.find(".visible").unwrap_or(0);
    let (header, body) = KERNEL.split_at(start);
    let mut out = String::with_capacity(min_len + body.len() * 2);
    out.push_str(header);
    let mut i = 0usize;
    while out.len() < min_len {
        let renamed = body
            .replace("sgemm_tiled", &format!("sgemm_tiled_{i}"))
            .replace("$L__BB0_", &format!("$L__BB{i}_"));
        out.push_str(&renamed);
        out.push('\n');
        i += 1;
    }
    out
}

fn bench_parse(c: &mut Criterion) {
    let text = generate(20 * 1024 * 1024);
    let file = SourceFile::new("big.ptx", text);
    let (_, diags) = syntax::parse_module(&file);
    assert!(diags.is_empty(), "generated file must parse cleanly");
    let mut g = c.benchmark_group("parse");
    g.throughput(Throughput::Bytes(file.text.len() as u64));
    g.sample_size(10);
    g.bench_function("parse_module_20MB", |b| {
        b.iter(|| syntax::parse_module(std::hint::black_box(&file)))
    });
    g.finish();
}

criterion_group!(benches, bench_parse);
criterion_main!(benches);
