//! Repository kernels that translate since the third selection round, run on both executors
//! and checked against their documented meaning: `tests/run/grid3d.ptx` (`%warpid`,
//! `%laneid` in a 3-D grid of 3-D CTAs) and the `atomics64` entry of
//! `tests/kernels/atomics.ptx` (a 64-bit CAS retry loop, `atom.exch.b64`, and the emulated
//! `atom.min.s64`, `atom.max.u64`, `atom.add.f64`).

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
        let q = |b: &[u8]| -> Vec<u64> {
            b.chunks_exact(8)
                .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
                .collect()
        };
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
