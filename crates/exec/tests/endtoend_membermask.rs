//! `match.sync` results, and the membermask rules of the warp-synchronous instructions: a
//! violation (undefined in the spec) is a fault naming the instruction, the thread and the mask.

mod endtoend_common;
use endtoend_common::*;
use exec::{ExecError, FaultKind, MemberProblem};

#[test]
fn match_any_and_all() {
    let mut rng = Rng(99);
    // Few distinct values so groups form; one run where all lanes agree.
    for uniform in [false, true] {
        let input: Vec<u32> = (0..32)
            .map(|_| if uniform { 7 } else { rng.next_u32() % 4 })
            .collect();
        let out = run_all_threads(
            "membermask.ptx",
            "match_sync",
            &cfg([1, 1, 1], [32, 1, 1]),
            &[buf(&input), zbuf::<u32>(4 * 32)],
        );
        let got: Vec<u32> = decode(&out[1]);
        let all_same = input.iter().all(|&v| v == input[0]);
        for t in 0..32 {
            let any: u32 = (0..32)
                .filter(|&k| input[k] == input[t])
                .map(|k| 1u32 << k)
                .sum();
            let any64: u32 = (0..32)
                .filter(|&k| input[k] == input[t] && k % 2 == t % 2)
                .map(|k| 1u32 << k)
                .sum();
            let want = [
                any,
                if all_same { u32::MAX } else { 0 },
                all_same as u32,
                any64,
            ];
            assert_eq!(&got[4 * t..4 * t + 4], &want, "lane {t} input {input:?}");
        }
    }
}

#[test]
fn full_membermask_in_a_partial_warp_is_fine() {
    let out = run_all_threads(
        "membermask.ptx",
        "partial_warp_sync",
        &cfg([1, 1, 1], [48, 1, 1]),
        &[zbuf::<u32>(48)],
    );
    let got: Vec<u32> = decode(&out[0]);
    let want: Vec<u32> = (0..48u32).map(|t| 100 + (t & !31)).collect();
    assert_eq!(got, want);
}

fn fault_of(kernel: &str) -> exec::Fault {
    let err = run_once(
        "membermask.ptx",
        kernel,
        &cfg([1, 1, 1], [32, 1, 1]),
        &[zbuf::<u32>(1)],
        1,
    )
    .expect_err("a membermask violation must fault");
    match err {
        ExecError::Fault(f) => *f,
        other => panic!("{kernel}: expected a fault, got {other}"),
    }
}

#[test]
fn membermask_violations_fault_with_instruction_thread_and_mask() {
    let text = kernel_text("membermask.ptx");
    let cases = [
        (
            "shfl_not_member",
            "FAULT_SHFL",
            "shfl.sync",
            0x0000_ffff,
            MemberProblem::NotAMember,
            16,
            "not in its membermask 0x0000ffff",
        ),
        (
            "redux_mask_differs",
            "FAULT_REDUX",
            "redux.sync",
            0xffff_ffff,
            MemberProblem::Differs { other: 0xffff },
            16,
            "different membermasks",
        ),
    ];
    for (kernel, marker, inst, mask, problem, tid, text_part) in cases {
        let f = fault_of(kernel);
        assert_eq!(
            f.kind,
            FaultKind::Membermask {
                inst,
                mask,
                problem
            },
            "{kernel}"
        );
        assert_eq!(f.tid, [tid, 0, 0], "{kernel}");
        assert_eq!(f.line, line_of(&text, marker), "{kernel}");
        let msg = f.to_string();
        assert!(
            msg.contains(inst) && msg.contains(text_part),
            "{kernel}: {msg}"
        );
        assert!(msg.contains(kernel), "{kernel}: {msg}");
    }
}

/// A lane of the membermask that is alive on another path is waited for, and one that exits
/// there counts as absent (PTX ISA: a thread waits "until all non-exited threads corresponding
/// to membermask have executed" the instruction; docs/spec-notes.md): these two kernels, which
/// faulted before independent thread scheduling was modelled, complete.
#[test]
fn members_that_exit_elsewhere_are_waited_for_then_absent() {
    for kernel in ["vote_diverged", "warp_sync_predicated"] {
        run_once(
            "membermask.ptx",
            kernel,
            &cfg([1, 1, 1], [32, 1, 1]),
            &[zbuf::<u32>(1)],
            1,
        )
        .unwrap_or_else(|e| panic!("{kernel}: {e}"));
    }
}
