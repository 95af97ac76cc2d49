//! 128-bit registers (`.reg .b128`): `ld/st.b128` on global and shared memory, `mov.b128`
//! between registers and packing/unpacking two `.b64` halves, against u128 arithmetic here.

mod endtoend_common;
use endtoend_common::*;

#[test]
fn b128_loads_stores_and_moves() {
    let mut rng = Rng(0x128);
    let input: Vec<u64> = (0..128).map(|_| rng.next_u64()).collect();
    let out = run_all_threads(
        "b128.ptx",
        "b128_moves",
        &cfg([1, 1, 1], [64, 1, 1]),
        &[buf(&input), zbuf::<u64>(128)],
    );
    let got: Vec<u64> = decode(&out[1]);
    for t in 0..64usize {
        let n = t ^ 1;
        let q = u128::from(input[2 * n]) | u128::from(input[2 * n + 1]) << 64;
        let (lo, hi) = (q as u64, (q >> 64) as u64);
        let want = u128::from(hi.wrapping_add(1)) | u128::from(lo ^ n as u64) << 64;
        let g = u128::from(got[2 * t]) | u128::from(got[2 * t + 1]) << 64;
        assert_eq!(g, want, "thread {t}");
    }
}

#[test]
fn misaligned_b128_access_faults() {
    // A .b128 access needs 16-byte alignment: offset the input by 8 bytes.
    let text = kernel_text("b128.ptx").replace(
        "add.s64 \t%rd4, %rd1, %rd3;",
        "add.s64 \t%rd4, %rd1, %rd3;\n\tadd.s64 \t%rd4, %rd4, 8;",
    );
    let (mut dev, m) = load_text("b128_misaligned.ptx", &text);
    let pin = zeros::<u64>(&mut dev, 130);
    let pout = zeros::<u64>(&mut dev, 128);
    let err = dev
        .launch(
            &m,
            "b128_moves",
            &cfg([1, 1, 1], [64, 1, 1]),
            &[exec::Arg::ptr(pin), exec::Arg::ptr(pout)],
            &opts(1),
        )
        .expect_err("misaligned");
    let exec::ExecError::Fault(f) = err else {
        panic!("expected a fault: {err}")
    };
    assert!(
        matches!(f.kind, exec::FaultKind::Misaligned { size: 16, .. }),
        "{:?}",
        f.kind
    );
}

#[test]
fn cas_b128_counts_every_thread_on_global_and_shared() {
    let n = 64usize;
    let out = run_all_threads(
        "b128.ptx",
        "cas128",
        &cfg([1, 1, 1], [n as u32, 1, 1]),
        &[zbuf::<u64>(2 * (2 + n))],
    );
    let g: Vec<u64> = decode(&out[0]);
    // 64 successful CASes of {+1, +2}.
    assert_eq!(&g[0..2], &[64, 128], "global counter");
    assert_eq!(&g[2..4], &[64, 128], "shared counter");
    // Each first try returned a consistent pair {k, 2k} with k < 64; someone saw the zero.
    let firsts: Vec<(u64, u64)> = (0..n).map(|t| (g[4 + 2 * t], g[5 + 2 * t])).collect();
    assert!(
        firsts.iter().all(|&(lo, hi)| lo < 64 && hi == 2 * lo),
        "{firsts:?}"
    );
    assert!(firsts.contains(&(0, 0)));
}
