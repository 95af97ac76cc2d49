//! Module-scope `.global` variables in translated code: their addresses are `MOV32I`s with
//! `R_CUDA_ABS32_*_26` relocations, their data `.nv.global.init` / `.nv.global`, which the
//! Fermi executor's loader places and relocates. The repository's kernels that use them run on
//! both executors, with the values each kernel's header comment states computed here.

mod common;
use common::*;

const ARRAY_INDEX: &str = include_str!("../../../tests/kernels/array_index_ptx11.ptx");
const STRUCT_INIT: &str = include_str!("../../../tests/kernels/struct_init_ptx11.ptx");
const ANONYMOUS: &str = include_str!("../../../tests/kernels/anonymous_entry_ptx11.ptx");
const MEMORY_SPACES: &str = include_str!("../../../tests/kernels/memory_spaces.ptx");

#[test]
fn array_index_reads_and_writes_module_arrays() {
    // table[i] = (7 i^2 + 3) mod 1000; thread t writes {table[t], table[t+1], 4(t-1),
    // table[0] + .. + table[t], table[30 - t]}.
    let table: Vec<u32> = (0..32u32).map(|i| (7 * i * i + 3) % 1000).collect();
    let n = 31u32;
    let out = run_both(
        "array_index_ptx11.ptx",
        ARRAY_INDEX,
        &spec("gather", 1, n, vec![zeros32(5 * n as usize)]),
    );
    let w = words(&out[0]);
    for t in 0..n as usize {
        let want = [
            table[t],
            table[t + 1],
            4u32.wrapping_mul((t as u32).wrapping_sub(1)),
            table[..=t].iter().sum(),
            table[30 - t],
        ];
        assert_eq!(w[5 * t..5 * t + 5], want, "thread {t}");
    }
}

#[test]
fn struct_initializers_are_read_through_addresses() {
    let f = |x: f32| x.to_bits();
    let tbl = [1, f(2.0), 3, 0, (-4i32) as u32, f(1.0)];
    // struct big { .u8 c; pt p; .f32[2] v; .v2 .u16 w; iof u; } at C alignment.
    let cb = [
        7,
        8,
        f(1.5),
        f(2.5),
        f(3.5),
        9 | (10 << 16),
        (-11i32) as u32,
    ];
    let out = run_both(
        "struct_init_ptx11.ptx",
        STRUCT_INIT,
        &spec("dump", 1, 15, vec![zeros32(15)]),
    );
    let mut want: Vec<u32> = tbl.iter().chain(&cb).copied().collect();
    want.extend([f(-0.5), 0x1234_5678]);
    assert_eq!(words(&out[0]), want);
}

#[test]
fn a_zero_initialized_global_array_reads_zero() {
    // `dump` alone: nothing wrote `g` in this launch, so `.nv.global` gives zeros.
    let out = run_both(
        "anonymous_entry_ptx11.ptx",
        ANONYMOUS,
        &spec("dump", 1, 64, vec![u32s(&[0xffff_ffff; 64])]),
    );
    assert_eq!(words(&out[0]), vec![0; 64]);
}

#[test]
fn memory_spaces_reads_initialized_globals_and_counts_atomically() {
    let block = 48u32;
    let mut s = spec("mem_spaces", 1, block, vec![zeros32(8 * block as usize)]);
    s.shared_bytes = 4 * block;
    let (m, file, cubin) = compile("memory_spaces.ptx", MEMORY_SPACES);
    assert_words_round_trip(&cubin);
    // Through the cubin file, as `ptxvm run out.cubin` loads it: sections, symbols and
    // relocations written and read back.
    let bytes = fermi::cubin::write_cubin(&cubin).expect("writes");
    let r = fermi_exec::run_cubin(&bytes, &s, &fermi_exec::Options::default())
        .unwrap_or_else(|e| panic!("the Fermi executor faulted: {e:?}"));
    let w = words(&r.buffers[0].bytes());
    // Bit for bit with the PTX executor, but for the atomic's old values (their order
    // depends on scheduling).
    let ptx = exec::run(&m, &file, &s, &exec::RunOptions::default())
        .unwrap_or_else(|e| panic!("the PTX executor faulted: {e:?}"));
    let p = words(&ptx.buffers[0].bytes());
    for t in 0..block as usize {
        assert_eq!(w[8 * t..8 * t + 7], p[8 * t..8 * t + 7], "thread {t}");
    }
    let ctab = [3u32, 1, 4, 1, 5, 9, 2, 6];
    let gtab = [1u64, 0x1_0000_0002, 3, u64::MAX];
    let mut olds = Vec::new();
    for t in 0..block {
        let r = &w[8 * t as usize..8 * t as usize + 8];
        let mut a: Vec<u32> = (0..8u32)
            .map(|k| {
                let h = t.wrapping_mul(0x9E37_79B1).wrapping_add(k * 40503);
                h ^ (h >> 15)
            })
            .collect();
        a.sort_unstable();
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
        assert_eq!(r[..7], want, "thread {t}");
        olds.push(r[7]);
    }
    olds.sort_unstable();
    assert_eq!(
        olds,
        (100..100 + block).collect::<Vec<_>>(),
        "atom.global.add"
    );
}
