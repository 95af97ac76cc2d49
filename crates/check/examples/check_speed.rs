//! Parse + check speed on a PTX file given on the command line, repeated until ≥ 20 MB, in CPU
//! time of this thread (profiling aid: `perf record cargo run --release --example check_speed`).

use std::time::Instant;

fn main() {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "tests/corpus/sgemm_tiled.ptx".into());
    let one = std::fs::read_to_string(&path).unwrap_or_default();
    let (header, body) = match one.find(".visible") {
        Some(i) => one.split_at(i),
        None => ("", one.as_str()),
    };
    let mut text = String::from(header);
    let mut i = 0;
    while text.len() < 20 << 20 {
        // Rename the kernel and its labels so every copy is a distinct, valid function.
        text.push_str(
            &body
                .replace("sgemm_tiled", &format!("sgemm_tiled_{i}"))
                .replace("$L__BB0_", &format!("$L__BB{i}_")),
        );
        i += 1;
    }
    let file = diag::SourceFile::new("gen.ptx", text);
    for _ in 0..3 {
        let t = Instant::now();
        let (m, d) = check::check_source(&file);
        let s = t.elapsed().as_secs_f64();
        println!(
            "{:.1} MB/s ({} diagnostics, module: {})",
            file.text.len() as f64 / s / 1e6,
            d.len(),
            m.is_some()
        );
    }
}
