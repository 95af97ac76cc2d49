//! NVIDIA's sm_20 build of `ballotscan.cu` (four stream-compaction kernels) on the Fermi
//! executor, against what the CUDA source computes, written out here.

mod common;
use common::*;

/// Inputs where a fraction of the elements are -1.0 (the value the kernels drop).
fn input(n: usize, seed: u32, drop_percent: u32) -> Vec<f32> {
    xorshift(seed, n)
        .iter()
        .enumerate()
        .map(|(i, r)| {
            if r % 100 < drop_percent {
                -1.0
            } else {
                i as f32 * 1.5 + (r % 7) as f32
            }
        })
        .collect()
}

/// The compaction every kernel performs: the kept values in order, and their count.
fn compact(data: &[f32]) -> Vec<f32> {
    data.iter().copied().filter(|&v| v != -1.0).collect()
}

/// Runs `kernel` with `out` pre-filled by `fill` and checks the source's result: the first
/// `total` outputs are the kept values, the others hold `rest(tid)`.
fn check(kernel: &str, data: &[f32], fill: f32, rest: impl Fn(usize) -> f32) {
    let n = data.len();
    let r = run(
        "ballotscan.cubin",
        &spec(
            kernel,
            1,
            n as u32,
            vec![f32s(data), f32s(&vec![fill; n]), u32s(&[0xdead])],
        ),
    );
    let kept = compact(data);
    let out = words(&r, 1);
    for (tid, &o) in out.iter().enumerate() {
        let want = kept.get(tid).copied().unwrap_or_else(|| rest(tid));
        assert_eq!(o, want.to_bits(), "{kernel}: output {tid}");
    }
    assert_eq!(words(&r, 2), vec![kept.len() as u32], "{kernel}: count");
}

const SEEDS: [(u32, u32); 4] = [(1, 40), (77, 0), (5, 100), (0xabcdef, 75)];

#[test]
fn parallel_scan_warp() {
    for (seed, p) in SEEDS {
        check("ParallelScanWarp", &input(32, seed, p), 123.0, |_| 123.0);
    }
}

#[test]
fn ballot_scan_warp() {
    for (seed, p) in SEEDS {
        check("BallotScanWarp", &input(32, seed, p), 123.0, |_| 123.0);
    }
}

#[test]
fn parallel_scan_block() {
    for (seed, p) in SEEDS {
        check("ParallelScanBlock", &input(256, seed, p), 7.0, |_| 7.0);
    }
}

#[test]
fn ballot_scan_block() {
    // This build also stores float(exc) to every output first (a debug store, see the
    // README): outputs past the total keep their thread's exclusive count of kept values.
    for (seed, p) in SEEDS {
        let data = input(256, seed, p);
        let exc: Vec<f32> = (0..256)
            .map(|t| data[..t].iter().filter(|&&v| v != -1.0).count() as f32)
            .collect();
        check("BallotScanBlock", &data, 7.0, |t| exc[t]);
    }
}
