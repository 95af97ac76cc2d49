//! Manual profiling aid: `cargo run --release -p ptxvm-syntax --example parse_speed` parses a
//! generated 20 MB file a few times and prints the time per parse (benchmarks live in
//! `benches/parse.rs`; this exists to run under `perf`).
fn main() {
    let kernel = include_str!("../../../tests/corpus/sgemm_tiled.ptx");
    let start = kernel.find(".visible").unwrap_or(0);
    let (header, body) = kernel.split_at(start);
    let mut text = header.to_string();
    let mut i = 0;
    while text.len() < 20 << 20 {
        text.push_str(&body.replace("sgemm_tiled", &format!("sgemm_tiled_{i}")));
        i += 1;
    }
    let file = diag::SourceFile::new("big.ptx", text);
    let runs: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(3);
    for _ in 0..runs {
        let t = std::time::Instant::now();
        let cpu = cpu_ns();
        let (m, d) = syntax::parse_module(&file);
        let dt = t.elapsed();
        let cpu = cpu_ns().zip(cpu).map(|(b, a)| (b - a) as f64 / 1e9);
        let mb = file.text.len() as f64 / 1e6;
        println!(
            "{} statements, {} diagnostics: {:.1} MB/s wall, {} MB/s on-CPU",
            m.statements.len(),
            d.len(),
            mb / dt.as_secs_f64(),
            cpu.map_or("?".into(), |c| format!("{:.1}", mb / c)),
        );
    }
}

/// Time this thread spent on a CPU (Linux), so a loaded machine does not distort the figure.
fn cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}
