//! End-to-end: barriers after early exits, divergent returns from a function, and `exit`
//! inside a function.

mod endtoend_common;
use endtoend_common::*;
use exec::Arg;

#[test]
fn barrier_completes_after_some_threads_exited() {
    let (block, n) = (128usize, 80usize);
    let mut rng = Rng(61);
    let input: Vec<u32> = (0..block).map(|_| rng.next_u32()).collect();
    let sentinel = 0x5A5A_5A5Au32;
    let out = run_all_threads(
        "control_flow.ptx",
        "early_exit_barrier",
        &cfg([1, 1, 1], [block as u32, 1, 1]),
        &[
            buf(&input),
            buf(&vec![sentinel; block]),
            Param::Scalar(Arg::u32(n as u32)),
        ],
    );
    let got: Vec<u32> = decode(&out[1]);
    for t in 0..block {
        let want = if t < n { input[n - 1 - t] } else { sentinel };
        assert_eq!(got[t], want, "thread {t}");
    }
}

#[test]
fn divergent_returns_reconverge_after_the_call() {
    let out = run_all_threads(
        "control_flow.ptx",
        "divergent_ret",
        &cfg([1, 1, 1], [64, 1, 1]),
        &[zbuf::<u32>(128)],
    );
    let got: Vec<u32> = decode(&out[0]);
    for t in 0..64u32 {
        let f = if t % 3 == 0 { 1000 + t } else { 5 * (t % 7) };
        assert_eq!(
            &got[2 * t as usize..2 * t as usize + 2],
            [f, u32::MAX],
            "thread {t}: result, ballot after the call"
        );
    }
}

#[test]
fn exit_inside_a_function_ends_only_that_thread() {
    let sentinel = 0xEEEE_EEEEu32;
    let out = run_all_threads(
        "control_flow.ptx",
        "exit_in_func",
        &cfg([1, 1, 1], [64, 1, 1]),
        &[buf(&vec![sentinel; 128])],
    );
    let got: Vec<u32> = decode(&out[0]);
    // Survivors in every warp: lanes l with l % 4 != 1.
    let survivors = (0..32).filter(|l| l % 4 != 1).fold(0u32, |m, l| m | 1 << l);
    for t in 0..64u32 {
        let want = if t % 4 == 1 {
            [sentinel, sentinel]
        } else {
            [3 * t, survivors]
        };
        assert_eq!(
            &got[2 * t as usize..2 * t as usize + 2],
            want,
            "thread {t}: result, activemask after the call"
        );
    }
}

#[test]
fn one_barrier_number_at_two_instructions_is_one_barrier() {
    let out = run_all_threads(
        "control_flow.ptx",
        "same_barrier_two_sites",
        &cfg([2, 1, 1], [64, 1, 1]),
        &[zbuf::<u32>(32)],
    );
    let want: Vec<u32> = (0..32).map(|k| 1000 + k).collect();
    assert_eq!(decode::<u32>(&out[0]), want);
}
