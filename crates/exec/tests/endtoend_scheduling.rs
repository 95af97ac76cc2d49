//! Warp scheduling fairness: a warp that spins on a flag another warp of its CTA sets must let
//! that warp run (warps round-robin after a bounded quantum at backward branches), whatever the
//! worker count. A CTA waiting for a later CTA is not supported (it needs the CTAs to be
//! co-resident): with one worker it ends at the step budget, with a fault naming the loop.

mod endtoend_common;
use endtoend_common::*;
use exec::{Arg, ExecError, FaultKind, RunOptions};

#[test]
fn consumer_warp_spinning_on_shared_flag_sees_producer_data() {
    let out = run_all_threads(
        "spin_wait.ptx",
        "spin_shared",
        &cfg([1, 1, 1], [64, 1, 1]),
        &[zbuf::<u32>(32)],
    );
    let got: Vec<u32> = decode(&out[0]);
    let want: Vec<u32> = (0..32u32).map(|t| 7 * (t + 32) + 1 + t).collect();
    assert_eq!(got, want);
}

#[test]
fn consumer_warp_spinning_on_global_atomic_sees_producer_data() {
    let out = run_all_threads(
        "spin_wait.ptx",
        "spin_global",
        &cfg([1, 1, 1], [64, 1, 1]),
        &[zbuf::<u32>(64), zbuf::<u32>(1)],
    );
    let got: Vec<u32> = decode(&out[0]);
    let want: Vec<u32> = (0..64u32)
        .map(|t| {
            if t < 32 {
                7 * (t + 32) + 1 + t
            } else {
                7 * t + 1
            }
        })
        .collect();
    assert_eq!(got, want);
    assert_eq!(decode::<u32>(&out[1]), vec![1]);
}

#[test]
fn waiting_for_a_later_cta_with_one_worker_ends_at_the_step_budget() {
    let (mut dev, m) = load_kernel("spin_wait.ptx");
    let flag = dev.alloc(4).unwrap();
    let opts = RunOptions {
        threads: 1,
        max_steps: 200_000,
        ..RunOptions::default()
    };
    let err = dev
        .launch(
            &m,
            "wait_for_later_cta",
            &cfg([2, 1, 1], [32, 1, 1]),
            &[Arg::ptr(flag)],
            &opts,
        )
        .expect_err("CTA 0 cannot see CTA 1's store before CTA 1 runs");
    let ExecError::Fault(f) = err else {
        panic!("expected a fault, got {err}");
    };
    assert_eq!(f.kind, FaultKind::StepBudget { max_steps: 200_000 });
    assert_eq!(f.ctaid, [0, 0, 0]);
    let text = kernel_text("spin_wait.ptx");
    let wait_lines: Vec<u32> = (0..3).map(|k| line_of(&text, "WAIT:") + 1 + k).collect();
    assert!(wait_lines.contains(&f.line), "fault at line {}", f.line);
}

#[test]
fn race_free_results_do_not_depend_on_warp_switches() {
    // 3000+ iterations of 6 instructions: every warp is switched out many times mid-loop.
    for trips in [1u32, 700, 3000] {
        let out = run_all_threads(
            "spin_wait.ptx",
            "long_loops_then_exchange",
            &cfg([1, 1, 1], [128, 1, 1]),
            &[zbuf::<u32>(128), Param::Scalar(Arg::u32(trips))],
        );
        let got: Vec<u32> = decode(&out[0]);
        let x: Vec<u32> = (0..128u32)
            .map(|t| {
                let mut x = t;
                for _ in 0..trips + 7 * (t / 32) {
                    x = x.wrapping_mul(1664525).wrapping_add(1013904223);
                    x ^= x >> 13;
                }
                x
            })
            .collect();
        let want: Vec<u32> = (0..128).map(|t| x[t].wrapping_add(x[127 - t])).collect();
        assert_eq!(got, want, "trips {trips}");
    }
}
