//! Runs the benchmark hash kernel (4096 CTAs x 256 threads) once:
//! `profile_hash [divergent:0|1] [THREADS]`, printing thread-instructions per second.
use exec::{Arg, Device, LaunchConfig, RunOptions};

fn main() {
    let mut args = std::env::args().skip(1);
    let divergent = args.next().is_some_and(|s| s == "1");
    let threads: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let mut dev = Device::new();
    let m = dev.load_program(exec::build::hash_kernel(divergent));
    let out = dev.alloc(4096 * 256 * 4).unwrap();
    let cfg = LaunchConfig {
        grid: [4096, 1, 1],
        block: [256, 1, 1],
        ..LaunchConfig::default()
    };
    let opts = RunOptions {
        threads,
        ..RunOptions::default()
    };
    let t = std::time::Instant::now();
    let st = dev
        .launch(&m, "hash", &cfg, &[Arg::ptr(out)], &opts)
        .unwrap();
    let s = t.elapsed().as_secs_f64();
    println!(
        "{} thread-instructions in {s:.3} s = {:.2} G/s ({threads} worker threads)",
        st.thread_instructions,
        st.thread_instructions as f64 / s / 1e9
    );
}
