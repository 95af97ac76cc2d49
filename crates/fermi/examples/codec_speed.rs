//! Decode and encode throughput over every distinct word of NVIDIA's listings, measured in
//! wall-clock time and in this process's CPU time (`/proc/self/stat`), so that a figure taken
//! on a loaded machine can be told apart from the codec's own speed:
//! `cargo run --release -p fermi --example codec_speed [rounds]`.

use std::hint::black_box;
use std::time::Instant;

use fermi::isa::{decode, encode, Inst};

fn words() -> Vec<u64> {
    let data = include_str!("../tests/data/cuobjdump_sm20.txt");
    let mut w: Vec<u64> = data
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split(' ').nth(2))
        .filter_map(|h| u64::from_str_radix(h.trim_start_matches("0x"), 16).ok())
        .collect();
    w.sort_unstable();
    w.dedup();
    w
}

/// User + system CPU seconds of this process so far (Linux; 0 elsewhere).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the parenthesised command name; utime and stime are the 14th and 15th.
    let rest = stat.rsplit(')').next().unwrap_or("");
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    // CLK_TCK is 100 on Linux.
    (ticks(11) + ticks(12)) / 100.0
}

fn measure(name: &str, n: usize, rounds: usize, mut f: impl FnMut()) {
    let (t0, c0) = (Instant::now(), cpu_seconds());
    for _ in 0..rounds {
        f();
    }
    let (wall, cpu) = (t0.elapsed().as_secs_f64(), cpu_seconds() - c0);
    let total = (n * rounds) as f64;
    println!(
        "{name}: {:.1} M words/s wall-clock, {:.1} M words/s of CPU time ({:.2} s wall, {:.2} s CPU)",
        total / wall / 1e6,
        total / cpu.max(1e-9) / 1e6,
        wall,
        cpu
    );
}

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(2000);
    let words = words();
    let insts: Vec<Inst> = words.iter().filter_map(|&w| decode(w).ok()).collect();
    assert_eq!(insts.len(), words.len(), "every listing word decodes");
    measure("decode", words.len(), rounds, || {
        for &w in &words {
            black_box(&decode(black_box(w)));
        }
    });
    measure("encode", insts.len(), rounds, || {
        for i in &insts {
            black_box(encode(black_box(i)));
        }
    });
}
