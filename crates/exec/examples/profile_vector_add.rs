//! Runs the vector-add example kernel once: `profile_vector_add [N] [THREADS]` (for callgrind
//! profiling and for comparing wall time with CPU time under load).
use exec::{Arg, Device, LaunchConfig, RunOptions};

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1 << 20);
    let path = format!(
        "{}/../../examples/vector_add.ptx",
        env!("CARGO_MANIFEST_DIR")
    );
    let src = diag::SourceFile::new("vector_add.ptx", std::fs::read_to_string(path).unwrap());
    let (m, _) = check::check_source(&src);
    let mut dev = Device::new();
    let m = dev.load(&m.unwrap(), &src).unwrap();
    let pa = dev.alloc(n as u64 * 4).unwrap();
    let pb = dev.alloc(n as u64 * 4).unwrap();
    let pc = dev.alloc(n as u64 * 4).unwrap();
    let cfg = LaunchConfig {
        grid: [(n / 256) as u32, 1, 1],
        block: [256, 1, 1],
        ..LaunchConfig::default()
    };
    let t = std::time::Instant::now();
    let opts = RunOptions {
        threads: 1,
        ..RunOptions::default()
    };
    let st = dev
        .launch(
            &m,
            "vector_add",
            &cfg,
            &[Arg::ptr(pa), Arg::ptr(pb), Arg::ptr(pc), Arg::u32(n as u32)],
            &opts,
        )
        .unwrap();
    let s = t.elapsed().as_secs_f64();
    println!(
        "{} thread-instructions in {s:.3} s = {:.1} M/s",
        st.thread_instructions,
        st.thread_instructions as f64 / s / 1e6
    );
}
