//! Hand-built decoded programs: the warp machinery without the PTX front end.

use exec::{Arg, Device, LaunchConfig, RunOptions};

fn hash_ref(gid: u32, trips: u32) -> u32 {
    let mut x = gid;
    for _ in 0..trips {
        x = x.wrapping_mul(1664525).wrapping_add(1013904223);
        x ^= x >> 13;
    }
    x
}

fn words(b: &[u8]) -> Vec<u32> {
    b.chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn run_hash(divergent: bool, ctas: u32, block: u32, threads: usize) -> (Vec<u32>, u64) {
    let mut dev = Device::new();
    let m = dev.load_program(exec::build::hash_kernel(divergent));
    let n = (ctas * block) as u64;
    let out = dev.alloc(n * 4).unwrap();
    let cfg = LaunchConfig {
        grid: [ctas, 1, 1],
        block: [block, 1, 1],
        ..LaunchConfig::default()
    };
    let opts = RunOptions {
        threads,
        ..RunOptions::default()
    };
    let st = dev
        .launch(&m, "hash", &cfg, &[Arg::ptr(out)], &opts)
        .unwrap();
    (
        words(&dev.read(out, n * 4).unwrap()),
        st.thread_instructions,
    )
}

#[test]
fn hash_kernel_matches_plain_rust_and_counts_instructions() {
    for divergent in [false, true] {
        let (got, instrs) = run_hash(divergent, 8, 96, 2);
        let mut expect_instrs = 0u64;
        for (g, v) in got.iter().enumerate() {
            let trips = if divergent {
                128 + (g as u32 & 255)
            } else {
                256
            };
            assert_eq!(*v, hash_ref(g as u32, trips), "gid {g}");
            // 8 setup instructions (9 with the trip-count and/add pair instead of one mov),
            // 6 per iteration, 4 after the loop.
            let setup = if divergent { 9 } else { 8 };
            expect_instrs += setup + 6 * trips as u64 + 4;
        }
        assert_eq!(instrs, expect_instrs);
    }
}

#[test]
fn results_do_not_depend_on_worker_count() {
    let a = run_hash(true, 16, 64, 1);
    let b = run_hash(true, 16, 64, 2);
    assert_eq!(a, b);
}

#[test]
fn partial_warps_run_only_existing_threads() {
    let (got, instrs) = run_hash(false, 3, 40, 1);
    assert_eq!(got.len(), 120);
    for (g, v) in got.iter().enumerate() {
        assert_eq!(*v, hash_ref(g as u32, 256));
    }
    assert_eq!(instrs, 120 * (8 + 6 * 256 + 4));
}
