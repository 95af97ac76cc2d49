//! `cargo run --release -p ptxvm-codegen --example compile_speed [MB]`: the speed of `ptxvm
//! compile` against `ptxvm check` on a generated file of compiler-style kernels (the three
//! entries of tests/kernels/vector_add.ptx, renamed, repeated to about 20 MB by default).
//!
//! The check benchmark's own generator (crates/check/benches/generate.rs) emits `call`s,
//! which the translator does not handle yet, so this file uses kernels it can translate.

use std::time::Instant;

fn generate(target: usize) -> String {
    let src = include_str!("../../../tests/kernels/vector_add.ptx");
    let body_start = src.find(".visible").unwrap_or(0);
    let (head, body) = src.split_at(body_start);
    let mut out = String::from(head);
    let mut i = 0;
    while out.len() < target {
        let renamed = body
            .replace("vector_add_u64(", &format!("vector_add_u64_{i}("))
            .replace("vector_add(", &format!("vector_add_{i}("))
            .replace("axpy_f64(", &format!("axpy_f64_{i}("));
        out.push_str(&renamed);
        i += 1;
    }
    out
}

fn main() {
    let mb: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    let text = generate(mb << 20);
    // `compile_speed MB FILE` also writes the generated PTX, to time the whole `ptxvm check`
    // and `ptxvm compile` processes on it.
    if let Some(path) = std::env::args().nth(2) {
        std::fs::write(&path, &text).expect("write the generated PTX");
    }
    let file = diag::SourceFile::new("gen.ptx", text);
    let size = file.text.len() as f64 / 1e6;
    let mut best_check = f64::MAX;
    let mut best_compile = f64::MAX;
    for _ in 0..2 {
        let t = Instant::now();
        let n = check::diagnose_source(&file).len();
        best_check = best_check.min(t.elapsed().as_secs_f64());
        let t = Instant::now();
        let (m, _) = check::check_source(&file);
        let compiled = codegen::compile_module(&m.expect("the generated file checks"), &file)
            .expect("the generated file translates");
        best_compile = best_compile.min(t.elapsed().as_secs_f64());
        // Tens of thousands of kernels overflow one ELF's section count, so the cubin is
        // written (and timed) only when it fits.
        let t = Instant::now();
        let cubin = match fermi::cubin::write_cubin(&compiled.cubin) {
            Ok(b) => format!(
                "cubin {} bytes in {:.2} s",
                b.len(),
                t.elapsed().as_secs_f64()
            ),
            Err(e) => format!("no cubin: {e}"),
        };
        println!(
            "{size:.1} MB, {} kernels, {n} diagnostics, {cubin}",
            compiled.cubin.kernels.len()
        );
    }
    println!(
        "check {best_check:.2} s ({:.1} MB/s); compile (check + translate) {best_compile:.2} s ({:.1} MB/s); ratio {:.2}x",
        size / best_check,
        size / best_compile,
        best_compile / best_check
    );
}
