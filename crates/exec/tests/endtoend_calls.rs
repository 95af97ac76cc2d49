//! End-to-end: `call` with `.param` arguments and results, recursion (direct and mutual),
//! struct-valued results and calls in divergent branches.

mod endtoend_common;
use endtoend_common::*;
use exec::Arg;

fn fib(k: u32) -> u32 {
    let (mut a, mut b) = (0u32, 1u32);
    for _ in 0..k {
        (a, b) = (b, a + b);
    }
    a
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

#[test]
fn calls_with_param_abi_and_recursion() {
    let n = 200u32;
    let out = run_all_threads(
        "calls.ptx",
        "calls",
        &cfg([4, 1, 1], [64, 1, 1]),
        &[zbuf::<u32>(5 * 256), Param::Scalar(Arg::u32(n))],
    );
    let w: Vec<u32> = decode(&out[0]);
    for g in 0..256u32 {
        let got = &w[5 * g as usize..5 * g as usize + 5];
        if g >= n {
            assert_eq!(got, [0; 5], "thread {g} past n wrote");
            continue;
        }
        let x = u64::from(g + 1) * 0x9E37_79B9;
        let y = u64::from(7 * g + 3) * 12;
        let (a, b) = (1000 * g + 7, g % 13 + 1);
        let last = if g % 2 == 1 {
            u32::from((g % 25) % 2 == 0)
        } else {
            (0..=g % 30).sum()
        };
        let want = [fib(g % 16), gcd(x, y) as u32, a / b, a % b, last];
        assert_eq!(
            got, want,
            "thread {g}: fib, gcd, quotient, remainder, divergent call"
        );
    }
}

#[test]
fn recursive_function_keeps_its_local_array_per_activation() {
    let out = run_all_threads(
        "calls.ptx",
        "frame_locals",
        &cfg([1, 1, 1], [64, 1, 1]),
        &[zbuf::<u32>(64)],
    );
    let got: Vec<u32> = decode(&out[0]);
    let want: Vec<u32> = (0..64u32).map(|t| (0..=t % 24).sum()).collect();
    assert_eq!(got, want);
}
