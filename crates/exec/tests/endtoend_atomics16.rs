//! End-to-end: 16-bit atomics (`atom.cas.b16`, `atom/red.add.noftz` on `.f16 .f16x2 .bf16x2`)
//! on global and shared memory, 256 contending threads. Every sum is of small exact values, so
//! the result does not depend on the order the adds happen in.

mod endtoend_common;
use endtoend_common::*;

/// f16 bits of a power of two (exact).
fn f16_pow2(e: i32) -> u32 {
    ((e + 15) as u32) << 10
}

/// bf16 bits of a power of two (exact).
fn bf16_pow2(e: i32) -> u32 {
    ((e + 127) as u32) << 7
}

#[test]
fn sixteen_bit_atomics_on_global_and_shared() {
    let n = 256usize;
    let out = run_all_threads(
        "atomics16.ptx",
        "atomics16",
        &cfg([1, 1, 1], [n as u32, 1, 1]),
        &[zbuf::<u32>(6 + n)],
    );
    let g: Vec<u32> = decode(&out[0]);
    let pair = |lo: u32, hi: u32| lo | hi << 16;
    // 128 threads per half add 1.0: 128 = 2^7.
    assert_eq!(g[0], pair(f16_pow2(7), f16_pow2(7)), "f16 add {:#x}", g[0]);
    // 256 × 1.0 = 2^8 in the low half, 256 × 0.5 = 2^7 in the high half.
    assert_eq!(
        g[1],
        pair(f16_pow2(8), f16_pow2(7)),
        "f16x2 add {:#x}",
        g[1]
    );
    // bf16: 256 × 1.0 = 2^8, 256 × 2.0 = 2^9.
    assert_eq!(
        g[2],
        pair(bf16_pow2(8), bf16_pow2(9)),
        "bf16x2 red {:#x}",
        g[2]
    );
    // CAS increments: 128 per half, neighbour half untouched by each CAS.
    assert_eq!(g[3], pair(128, 128), "global cas.b16 {:#x}", g[3]);
    assert_eq!(g[4], pair(128, 128), "shared cas.b16 {:#x}", g[4]);
    // 128 × 0.25 = 32 = 2^5.
    assert_eq!(
        g[5],
        pair(f16_pow2(5), f16_pow2(5)),
        "shared f16 add {:#x}",
        g[5]
    );
    // The old values a thread's first CAS returned: below the final count, and the first CAS on
    // each zeroed half returned 0.
    let firsts = &g[6..];
    assert!(firsts.iter().all(|&v| v < 128), "{firsts:?}");
    for half in 0..2 {
        assert!(
            firsts.iter().skip(half).step_by(2).any(|&v| v == 0),
            "no thread of half {half} saw the initial 0"
        );
    }
}
