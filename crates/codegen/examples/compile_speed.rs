//! `cargo run --release -p ptxvm-codegen --example compile_speed [MB [FILE]]`: the speed of
//! `ptxvm compile` against `ptxvm check` on the check benchmark's own generated file
//! (crates/check/benches/generate.rs: compiler-style kernels with loops, shared memory, vector
//! loads, predicated branches and a `call` each, 20 MB), cut at a kernel boundary when `MB` is
//! below 20. `FILE` also receives the text, to time the whole `ptxvm check` and `ptxvm compile`
//! processes on it. The criterion bench (`cargo bench -p ptxvm-codegen`) measures the stages.
//! "streamed" is `ptxvm compile`'s pipeline (`codegen::check_and_compile`: the check hands
//! each body over as it is checked and a second thread translates meanwhile) plus the write.

use std::time::Instant;

/// The `ptxvm` binary's allocator, so the figures are what `ptxvm compile` achieves.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "../../check/benches/generate.rs"]
mod generate;

/// The generated text, cut before the first `.func` past `target` bytes.
fn generated(target: usize) -> String {
    let mut text = generate::generate();
    if target < text.len() {
        if let Some(cut) = text[target..].find("\n.func").map(|i| i + target) {
            text.truncate(cut + 1);
        }
    }
    text
}

fn main() {
    let mb: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    let text = generated(mb << 20);
    if let Some(path) = std::env::args().nth(2) {
        std::fs::write(&path, &text).expect("write the generated PTX");
    }
    let file = diag::SourceFile::new("gen.ptx", text);
    let size = file.text.len() as f64 / 1e6;
    let mut best_check = f64::MAX;
    let mut best_compile = f64::MAX;
    let mut best_stages = (f64::MAX, f64::MAX);
    let mut best_streamed = f64::MAX;
    for _ in 0..3 {
        let t = Instant::now();
        let n = check::diagnose_source(&file).len();
        best_check = best_check.min(t.elapsed().as_secs_f64());
        let t = Instant::now();
        let (m, _) = check::check_source(&file);
        let lowered = t.elapsed().as_secs_f64();
        let compiled = match codegen::compile_module(&m.expect("the generated file checks"), &file)
        {
            Ok(c) => c,
            Err(e) => {
                eprint!("{}", diag::render(&file, &e[..e.len().min(5)]));
                std::process::exit(1);
            }
        };
        let translated = t.elapsed().as_secs_f64() - lowered;
        let t = Instant::now();
        let cubin = match fermi::cubin::write_cubin(&compiled.cubin) {
            Ok(b) => format!("cubin {} bytes", b.len()),
            Err(e) => format!("no cubin: {e}"),
        };
        let written = t.elapsed().as_secs_f64();
        best_compile = best_compile.min(lowered + translated + written);
        // `ptxvm compile`'s own pipeline: the check and the translation overlapped.
        let t = Instant::now();
        let ok = matches!(codegen::check_and_compile(&file).1, Some(Ok(_)));
        let streamed = t.elapsed().as_secs_f64() + written;
        best_streamed = best_streamed.min(streamed);
        best_stages = (best_stages.0.min(translated), best_stages.1.min(written));
        println!(
            "{size:.1} MB, {} kernels, {n} diagnostics, {cubin}; check+lower {lowered:.2} s, translate {translated:.2} s, write {written:.2} s; streamed (ok: {ok}) {streamed:.2} s",
            compiled.cubin.kernels.len()
        );
    }
    println!(
        "check {best_check:.2} s ({:.1} MB/s); compile (check + translate + cubin) {best_compile:.2} s ({:.1} MB/s); ratio {:.2}x (best translate {:.2} s, write {:.2} s); streamed (check_and_compile + cubin) {best_streamed:.2} s, ratio {:.2}x",
        size / best_check,
        size / best_compile,
        best_compile / best_check,
        best_stages.0,
        best_stages.1,
        best_streamed / best_check
    );
}
