//! Parse-only, parse + check (`ptxvm check`: diagnostics only) and parse + check + lowering
//! (`ptxvm run`: the module's IR kept) speed on a PTX file given on the command line, repeated
//! until ≥ 20 MB, or on the criterion bench's generated input when the argument is `bench`
//! (profiling aid: `perf record cargo run --release --example check_speed -- bench`).
//!
//! Figures are in CPU time of the measuring thread (Linux `/proc/thread-self/schedstat`), so a
//! busy shared machine does not deflate them; wall-clock time is the fallback elsewhere. As in
//! `cargo bench`, freeing the results is part of the measured time. `ONLY=parse` (or `check`,
//! `lower`) runs one of the three alone, so a profile shows it alone.

use std::time::Instant;

/// The `ptxvm` binary's allocator, so the figures are what `ptxvm check` achieves.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "../benches/generate.rs"]
mod generate;

/// Nanoseconds this thread has spent on a CPU, if the kernel reports it.
fn thread_cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

/// Seconds `f` took: thread CPU time when available, else wall-clock time. `CLOCK=wall`
/// asks for wall-clock time (finer grained where the CPU time advances in scheduler ticks).
fn measure<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let wall_only = std::env::var_os("CLOCK").is_some_and(|c| c == "wall");
    let cpu = thread_cpu_ns().filter(|_| !wall_only);
    let wall = Instant::now();
    let out = f();
    let secs = match (cpu, thread_cpu_ns()) {
        (Some(a), Some(b)) => (b - a) as f64 / 1e9,
        _ => wall.elapsed().as_secs_f64(),
    };
    (out, secs)
}

fn main() {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "tests/corpus/sgemm_tiled.ptx".into());
    let runs: usize = std::env::args()
        .nth(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(5);
    let text = if path == "bench" {
        generate::generate()
    } else {
        replicate(&path)
    };
    let file = diag::SourceFile::new("gen.ptx", text);
    let mb = file.text.len() as f64 / 1e6;
    let only = std::env::var("ONLY").ok();
    let wanted = |name: &str| only.as_deref().is_none_or(|o| o == name);
    let mut best = [0f64; 3];
    for _ in 0..runs {
        let mut line = Vec::new();
        // The results are dropped inside each measurement, as `cargo bench` does.
        if wanted("parse") {
            let (n, s) = measure(|| syntax::parse_module(&file).1.len());
            best[0] = best[0].max(mb / s);
            line.push(format!("parse {:.1} MB/s ({n} diagnostics)", mb / s));
        }
        if wanted("check") {
            let (n, s) = measure(|| check::diagnose_source(&file).len());
            best[1] = best[1].max(mb / s);
            line.push(format!("parse+check {:.1} MB/s ({n} diagnostics)", mb / s));
        }
        if wanted("lower") {
            let ((m, n), s) = measure(|| {
                let (m, d) = check::check_source(&file);
                (m.is_some(), d.len())
            });
            best[2] = best[2].max(mb / s);
            line.push(format!(
                "parse+check+lower {:.1} MB/s ({n} diagnostics, module: {m})",
                mb / s
            ));
        }
        println!("{}", line.join(", "));
    }
    let names = [
        ("parse", "parse"),
        ("check", "parse+check"),
        ("lower", "parse+check+lower"),
    ];
    let summary: Vec<String> = names
        .iter()
        .zip(best)
        .filter(|((key, _), _)| wanted(key))
        .map(|((_, name), b)| format!("{name} {b:.1} MB/s"))
        .collect();
    println!("best of {runs}: {}", summary.join(", "));
}

/// The file at `path`, its kernel copied under distinct names until the text is ≥ 20 MB.
fn replicate(path: &str) -> String {
    let one = std::fs::read_to_string(path).unwrap_or_default();
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
    text
}
