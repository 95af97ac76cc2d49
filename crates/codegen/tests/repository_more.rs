//! Repository kernels that translate since the third selection round, run on both executors
//! and checked against their documented meaning: `tests/run/grid3d.ptx` (`%warpid`,
//! `%laneid` in a 3-D grid of 3-D CTAs) and the `atomics64` entry of
//! `tests/kernels/atomics.ptx` (a 64-bit CAS retry loop, `atom.exch.b64`, and the emulated
//! `atom.min.s64`, `atom.max.u64`, `atom.add.f64`), and `tests/run/wide_vectors.ptx` (the
//! sm_100 `.v8`/`.v4.f64` loads and stores, one access per element on Fermi).

mod common;
use common::*;

fn text(path: &str) -> String {
    std::fs::read_to_string(format!("{}/../../{path}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

#[test]
fn grid3d_ids_lanes_and_warps_agree_with_their_meaning() {
    let (grid, block) = ([2u32, 3, 2], [5u32, 3, 2]);
    let per_cta = (block[0] * block[1] * block[2]) as usize;
    let n = per_cta * (grid[0] * grid[1] * grid[2]) as usize;
    let spec = exec::LaunchSpec {
        kernel: Some("grid3d".into()),
        grid,
        block,
        shared_bytes: 0,
        params: vec![zeros32(8 * n)],
        textures: Vec::new(),
    };
    let out = run_both("tests/run/grid3d.ptx", &text("tests/run/grid3d.ptx"), &spec);
    let w = words(&out[0]);
    for cz in 0..grid[2] {
        for cy in 0..grid[1] {
            for cx in 0..grid[0] {
                let cta = (cz * grid[1] + cy) * grid[0] + cx;
                for tz in 0..block[2] {
                    for ty in 0..block[1] {
                        for tx in 0..block[0] {
                            let t = (tz * block[1] + ty) * block[0] + tx;
                            let g = (cta as usize) * per_cta + t as usize;
                            let want = [tx, ty, tz, cx, cy, cz, t % 32, t / 32];
                            assert_eq!(&w[8 * g..8 * g + 8], want, "thread {g}");
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn atomics64_entry_agrees_with_its_meaning_on_each_executor() {
    let src = text("tests/kernels/atomics.ptx");
    let (m, file, cubin) = compile("atomics.ptx", &src);
    let (ctas, threads) = (3u32, 64u32);
    let n = u64::from(ctas * threads);
    let init: [u64; 6] = [5, 0xdead, 0x7fff_ffff_ffff_ffff, 1, 0.5f64.to_bits(), 1000];
    let s = spec(
        "atomics64",
        ctas,
        threads,
        vec![u64s(&init), u64s(&vec![0; 2 * n as usize])],
    );
    let ptx = exec::run(&m, &file, &s, &exec::RunOptions::default()).expect("PTX run");
    let sass =
        fermi_exec::run_module(&cubin, &s, &fermi_exec::Options::default()).expect("Fermi run");
    for (who, bufs) in [
        (
            "PTX",
            ptx.buffers.iter().map(|b| b.bytes()).collect::<Vec<_>>(),
        ),
        ("Fermi", sass.buffers.iter().map(|b| b.bytes()).collect()),
    ] {
        let q = words64;
        let (words, olds) = (q(&bufs[0]), q(&bufs[1]));
        let step = 0x2_0000_0001u64;
        assert_eq!(words[0], init[0].wrapping_add(n * step), "{who}: cas loop");
        let min = (0..n)
            .map(|g| (g.wrapping_mul(0x100_0000_0001) as i64).wrapping_sub(1 << 50))
            .fold(init[2] as i64, i64::min);
        assert_eq!(words[2] as i64, min, "{who}: atom.min.s64");
        let max = (0..n).map(|g| g << 33).fold(init[3], u64::max);
        assert_eq!(words[3], max, "{who}: atom.max.u64");
        // Integers well below 2^53: the f64 sum is exact in any order.
        let sum = (0..n).fold(0.5f64, |s, g| s + g as f64);
        assert_eq!(words[4], sum.to_bits(), "{who}: atom.add.f64");
        assert_eq!(words[5], init[5] + n, "{who}: per-CTA counts");
        // The CAS loop: each thread replaced a different value of the sequence.
        let mut replaced: Vec<u64> = (0..n as usize).map(|g| olds[2 * g]).collect();
        replaced.sort_unstable();
        let want: Vec<u64> = (0..n).map(|k| init[0].wrapping_add(k * step)).collect();
        assert_eq!(replaced, want, "{who}: values the CAS loop replaced");
        // exch: the final word and every old value are the initial word or a thread's value.
        let exch = |g: u64| (g << 40) | g;
        let mut seen: Vec<u64> = (0..n as usize).map(|g| olds[2 * g + 1]).collect();
        seen.push(words[1]);
        seen.sort_unstable();
        let mut all: Vec<u64> = (0..n).map(exch).collect();
        all.push(init[1]);
        all.sort_unstable();
        assert_eq!(seen, all, "{who}: atom.exch.b64 chain");
    }
}

/// Each thread moves its own 32-byte block as the kernel's comments say; the expected bytes
/// are those permutations computed here from the input.
#[test]
fn wide_vectors_move_every_element_where_the_kernel_says() {
    let path = "tests/run/wide_vectors.ptx";
    let n = 128usize;
    let input = int_edges(8 * n, 0x5eed_0808);
    let spec = spec("wide", 2, 64, vec![u32s(&input), zeros32(4096)]);
    let out = run_both(path, &text(path), &spec);
    let bytes = &out[1];
    let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    for g in 0..n {
        let w = &input[8 * g..8 * g + 8];
        let b: Vec<u8> = w.iter().flat_map(|x| x.to_le_bytes()).collect();
        let base = 32 * g;
        for k in 0..8 {
            // .v8.f32 rotated by one.
            assert_eq!(word(base + 4 * k), w[(k + 1) % 8], "thread {g} v8.f32 {k}");
        }
        for j in 0..4 {
            // .v4.f64 reversed: double j of the output is double 3 - j of the input.
            let d = 3 - j;
            assert_eq!(word(base + 4096 + 8 * j), w[2 * d], "thread {g} f64 {j}");
            assert_eq!(
                word(base + 4096 + 8 * j + 4),
                w[2 * d + 1],
                "thread {g} f64 {j}"
            );
        }
        // .v8.b32 with element 5 not loaded: %r9 keeps the thread index.
        let want = [w[7], w[6], g as u32, w[4], w[3], w[2], w[1], w[0]];
        for (k, &x) in want.iter().enumerate() {
            assert_eq!(word(base + 8192 + 4 * k), x, "thread {g} v8.b32 {k}");
        }
        // .v8.b16 reversed half-words of bytes 0..16.
        for k in 0..8 {
            let h = 7 - k;
            assert_eq!(
                &bytes[base + 12288 + 2 * k..base + 12290 + 2 * k],
                &b[2 * h..2 * h + 2],
                "thread {g} v8.b16 {k}"
            );
        }
        // .v8.u8 of bytes 16..24 reversed, the last one plus the first.
        let mut want8: Vec<u8> = b[16..24].iter().rev().copied().collect();
        want8[0] = b[23].wrapping_add(b[16]);
        assert_eq!(
            &bytes[base + 12304..base + 12312],
            &want8[..],
            "thread {g} v8.u8"
        );
    }
}
