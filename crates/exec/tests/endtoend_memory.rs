//! End-to-end: the state spaces side by side — static and dynamic `.shared`, a `.local`
//! array sorted in place with dynamic indexing, generic addresses (`cvta.local`), and
//! module-scope `.const`/`.global` variables with initializers.

mod endtoend_common;
use endtoend_common::*;

fn local_values(g: u32) -> Vec<u32> {
    let mut a: Vec<u32> = (0..8u32)
        .map(|k| {
            let h = g.wrapping_mul(0x9E37_79B1).wrapping_add(k * 40503);
            h ^ (h >> 15)
        })
        .collect();
    a.sort_unstable();
    a
}

#[test]
fn memory_spaces_shared_local_const_global() {
    let block = 48u32;
    let mut c = cfg([1, 1, 1], [block, 1, 1]);
    c.shared_bytes = 4 * block;
    let ctab = [3u32, 1, 4, 1, 5, 9, 2, 6];
    let gtab = [1u64, 0x1_0000_0002, 3, u64::MAX];
    let mut first: Option<Vec<u32>> = None;
    for threads in THREAD_COUNTS {
        let out = run_once(
            "memory_spaces.ptx",
            "mem_spaces",
            &c,
            &[zbuf::<u32>(8 * 48)],
            threads,
        )
        .unwrap_or_else(|e| panic!("{threads} worker threads: {e}"));
        let w: Vec<u32> = decode(&out[0]);
        let mut olds = Vec::new();
        for t in 0..block {
            let r = &w[8 * t as usize..8 * t as usize + 8];
            let a = local_values(t);
            let k = (t % 8) as usize;
            let want = [
                3 * ((t + 1) % block),
                5 * ((t + 7) % block) + 1,
                a[k],
                a[7 - k],
                ctab[k],
                gtab[t as usize % 4] as u32,
                (gtab[t as usize % 4] >> 32) as u32,
            ];
            assert_eq!(
                r[..7],
                want,
                "thread {t}: static shared, dynamic shared, local, generic local, const, global lo/hi"
            );
            olds.push(r[7]);
        }
        olds.sort_unstable();
        assert_eq!(
            olds,
            (100..100 + block).collect::<Vec<_>>(),
            "atom on a module-scope .global"
        );
        // Everything but the racing atomic's returned values is independent of the threads.
        let fixed: Vec<u32> = w.chunks(8).flat_map(|r| r[..7].to_vec()).collect();
        match &first {
            None => first = Some(fixed),
            Some(f) => assert_eq!(*f, fixed, "{threads} worker threads"),
        }
    }
}

#[test]
fn generic_pointers_to_global_shared_and_local_through_one_function() {
    let g: Vec<u32> = (0..40u32).map(|i| i * i + 7).collect();
    for threads in THREAD_COUNTS {
        let out = run_once(
            "generic_addressing.ptx",
            "generic_ptrs",
            &cfg([1, 1, 1], [32, 1, 1]),
            &[buf(&g), zbuf::<u32>(8 * 32)],
            threads,
        )
        .unwrap_or_else(|e| panic!("{threads} worker threads: {e}"));
        let w: Vec<u32> = decode(&out[1]);
        let shared_sum: u32 = (0..32).map(|t| 2 * t + 1).sum();
        let mut olds = Vec::new();
        for t in 0..32u32 {
            let r = &w[8 * t as usize..8 * t as usize + 8];
            let want = [
                g[t as usize..t as usize + 4].iter().sum(),
                shared_sum,
                4 * t + 60,
                0,
                0,
                0,
                0,
            ];
            assert_eq!(
                r[..7],
                want,
                "thread {t}: sums through generic pointers to global, shared, local memory"
            );
            olds.push(r[7]);
        }
        olds.sort_unstable();
        assert_eq!(
            olds,
            (0..32).collect::<Vec<u32>>(),
            "generic atom.add on shared"
        );
    }
}

#[test]
fn isspacep_classifies_generic_pointers() {
    let out = run_all_threads(
        "isspacep.ptx",
        "isspacep",
        &cfg([1, 1, 1], [48, 1, 1]),
        &[zbuf::<u32>(4), zbuf::<u32>(4 * 48)],
    );
    let w: Vec<u32> = decode(&out[1]);
    for t in 0..48usize {
        let mut want = [0u32; 4];
        want[t % 3] = 1;
        assert_eq!(
            &w[4 * t..4 * t + 4],
            want,
            "thread {t}: global, shared, local"
        );
    }
}
