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

fn run_file(
    path: &str,
    kernel: &str,
    grid: u32,
    block: u32,
    params: Vec<exec::ParamSpec>,
) -> Vec<Vec<u8>> {
    let text = std::fs::read_to_string(format!("../../{path}")).expect(path);
    run_both(path, &text, &spec(kernel, grid, block, params))
}

#[test]
fn ptx11_register_parameter_calls_and_16_bit_specials_agree() {
    // old_style(out: u32 address, k): thread g = ctaid*ntid + tid writes {g*k, (0xfff0+tid) as
    // u16, g, 0} at out + 16g.
    let (grid, block, k) = (3u32, 32u32, 7u32);
    let n = (grid * block) as usize;
    let out = run_file(
        "tests/run/ptx11.ptx",
        "old_style",
        grid,
        block,
        vec![zeros32(4 * n), value_u32(k)],
    );
    let got = words(&out[0]);
    for g in 0..n as u32 {
        let tid = g % block;
        assert_eq!(
            &got[4 * g as usize..4 * g as usize + 4],
            &[g * k, (0xfff0 + tid) & 0xffff, g, 0],
            "thread {g}"
        );
    }
}

#[test]
fn param_arguments_from_registers_and_immediates_agree() {
    let n = 64u32;
    let out = run_file(
        "tests/kernels/call_param_registers.ptx",
        "regs_to_params",
        1,
        n,
        vec![zeros32(8 * n as usize), value_u32(12345)],
    );
    let got = words(&out[0]);
    for t in 0..n {
        let w = &got[8 * t as usize..8 * t as usize + 8];
        assert_eq!(
            w[0],
            (t + 12345).wrapping_mul(1_664_525).wrapping_add(3),
            "thread {t}"
        );
        assert_eq!(f32::from_bits(w[2]), t as f32 * 2.0 + 1.5, "thread {t}");
        let wide = u64::from(w[4]) | u64::from(w[5]) << 32;
        assert_eq!(
            wide,
            (u64::from(t) << 40) ^ 0xffff_ffff_0000_0001,
            "thread {t}"
        );
        assert_eq!(w[6] & 0xffff, (0xbeef + t) & 0xffff, "thread {t}");
    }
}

#[test]
fn warp_size_agrees() {
    let out = run_file(
        "tests/kernels/warp_size.ptx",
        "warp_size",
        1,
        64,
        vec![zeros32(64)],
    );
    let got = words(&out[0]);
    assert_eq!(got, (0..64).map(|t| 64 + t).collect::<Vec<u32>>());
}

fn gcd(x: u64, y: u64) -> u64 {
    if y == 0 {
        x
    } else {
        gcd(y, x % y)
    }
}

fn tri(k: u32) -> u32 {
    k * (k + 1) / 2
}

#[test]
fn kernels_calls_recursion_struct_results_and_frame_locals_agree() {
    let n = 96u32;
    let out = run_file(
        "tests/kernels/calls.ptx",
        "calls",
        2,
        64,
        vec![zeros32(5 * 128), value_u32(n)],
    );
    let got = words(&out[0]);
    for g in 0..n {
        let (x, y) = (u64::from(g + 1) * 0x9e37_79b9, u64::from(7 * g + 3) * 12);
        let (a, b) = (1000 * g + 7, g % 13 + 1);
        let last = if g % 2 == 1 {
            u32::from((g % 25) % 2 == 0)
        } else {
            tri(g % 30)
        };
        assert_eq!(
            &got[5 * g as usize..5 * g as usize + 5],
            &[fib(g % 16), gcd(x, y) as u32, a / b, a % b, last],
            "thread {g}"
        );
    }
    let out = run_file(
        "tests/kernels/calls.ptx",
        "frame_locals",
        1,
        64,
        vec![zeros32(64)],
    );
    assert_eq!(
        words(&out[0]),
        (0..64).map(|t| tri(t % 24)).collect::<Vec<u32>>()
    );
}
