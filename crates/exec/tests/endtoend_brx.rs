//! End-to-end: `brx.idx` through a `.branchtargets` jump table (`tests/kernels/brx_idx.ptx`),
//! lanes of a warp taking different cases every round; the expected values rerun the switch in
//! Rust. An index past the list faults, naming the index and the list length.

mod endtoend_common;
use endtoend_common::*;
use exec::{Arg, ExecError, FaultKind};

fn switch_ref(t: u32, rounds: u32) -> u32 {
    let mut acc = t;
    for k in 0..rounds {
        acc = match acc.wrapping_add(k) % 5 {
            0 => acc.wrapping_mul(3).wrapping_add(1),
            1 => acc ^ 0x55,
            2 => acc.wrapping_add(7),
            3 => acc >> 1,
            _ => acc.wrapping_sub(k),
        };
    }
    acc
}

#[test]
fn divergent_jump_table_matches_the_switch() {
    const ROUNDS: u32 = 37;
    let n = 96u32;
    let out = run_all_threads(
        "brx_idx.ptx",
        "switch_table",
        &cfg([1, 1, 1], [n, 1, 1]),
        &[zbuf::<u32>(n as usize), Param::Scalar(Arg::u32(ROUNDS))],
    );
    let got: Vec<u32> = decode(&out[0]);
    let want: Vec<u32> = (0..n).map(|t| switch_ref(t, ROUNDS)).collect();
    assert_eq!(got, want);
}

#[test]
fn index_past_the_list_faults() {
    let text = kernel_text("brx_idx.ptx");
    let err = run_once(
        "brx_idx.ptx",
        "bad_index",
        &cfg([1, 1, 1], [1, 1, 1]),
        &[Param::Scalar(Arg::u32(2))],
        1,
    )
    .expect_err("index 2 of a 2-label list must fault");
    let ExecError::Fault(f) = err else {
        panic!("expected a fault, got {err}");
    };
    assert_eq!(f.kind, FaultKind::BranchIndex { index: 2, len: 2 });
    assert_eq!(f.line, line_of(&text, "%r1, $L_t;"));
    assert!(f
        .to_string()
        .contains("brx.idx index 2 is past the end of its 2-label .branchtargets list"));
}
