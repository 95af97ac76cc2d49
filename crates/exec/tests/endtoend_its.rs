//! Warp collectives under independent thread scheduling: `.sync` collectives wait for the lanes
//! of their membermask that run elsewhere (docs/spec-notes.md); expected values from the spec.

mod endtoend_common;

use endtoend_common::*;

const FILE: &str = "its_collectives.ptx";

#[test]
fn a_lane_that_exits_elsewhere_is_absent_from_the_vote() {
    let out = run_once(
        FILE,
        "vote_after_exit",
        &cfg([1, 1, 1], [32, 1, 1]),
        &[zbuf::<u32>(32)],
        1,
    )
    .unwrap();
    let got: Vec<u32> = decode(&out[0]);
    // Lane 0 stored 7 on its own path; lanes 1-31 voted `all` over the lanes that arrived (the
    // exited lane 0 counts as absent), all with predicate 1.
    let mut want = vec![1u32; 32];
    want[0] = 7;
    assert_eq!(got, want);
}

#[test]
fn a_lane_coming_back_by_a_backward_branch_joins_the_shuffle() {
    for threads in THREAD_COUNTS {
        let out = run_once(
            FILE,
            "shfl_after_detour",
            &cfg([1, 1, 1], [32, 1, 1]),
            &[zbuf::<u32>(32)],
            threads,
        )
        .unwrap();
        let got: Vec<u32> = decode(&out[0]);
        // Lane l holds 10*l, lane 0 1000 after its detour; each reads lane l^1's value.
        let val = |l: u32| if l == 0 { 1000 } else { l * 10 };
        let want: Vec<u32> = (0..32).map(|l| val(l ^ 1)).collect();
        assert_eq!(got, want, "{threads} worker threads");
    }
}

#[test]
fn members_waiting_at_two_different_collectives_fault() {
    let err = run_once(
        FILE,
        "two_collectives",
        &cfg([1, 1, 1], [32, 1, 1]),
        &[zbuf::<u32>(1)],
        1,
    )
    .unwrap_err();
    let msg = err.to_string();
    assert!(msg.contains("membermask"), "unexpected fault: {msg}");
}
