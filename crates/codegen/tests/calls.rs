//! Calls on both executors, bit for bit: the repository's recursive Fibonacci and two-result
//! function called under divergence (tests/run/calls.ptx), checked against the meaning here
//! too, and the corpus's device-function kernels.

mod common;
use common::*;

fn fib(n: u32) -> u32 {
    if n < 2 {
        n
    } else {
        fib(n - 1) + fib(n - 2)
    }
}

#[test]
fn recursive_and_divergent_calls_agree_with_the_meaning() {
    let text = std::fs::read_to_string("../../tests/run/calls.ptx").expect("tests/run/calls.ptx");
    let n = 64u32;
    let out = run_both(
        "calls.ptx",
        &text,
        &spec("calls", 1, n, vec![zeros32(3 * n as usize)]),
    );
    let got = words(&out[0]);
    for t in 0..n {
        let (q, r) = if t < 40 {
            ((t + 1000) / (t + 3), (t + 1000) % (t + 3))
        } else {
            (0, 0)
        };
        assert_eq!(
            &got[3 * t as usize..3 * t as usize + 3],
            &[fib(t & 15), q, r],
            "thread {t}"
        );
    }
}
