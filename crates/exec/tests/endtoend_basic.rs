//! End-to-end: vector add, 1D/2D/3D grids and divergent control flow, run from
//! `tests/kernels/*.ptx` through check → load → launch, with expected values computed here.

mod endtoend_common;
use endtoend_common::*;
use exec::Arg;

#[test]
fn vector_add_f32_matches_rust_addition() {
    let n = 1000usize;
    let mut rng = Rng(0x5eed_0001);
    let a: Vec<f32> = (0..n)
        .map(|_| (rng.next_u32() as i32) as f32 / 65536.0)
        .collect();
    let b: Vec<f32> = (0..n).map(|i| i as f32 * 0.3 - 17.25).collect();
    let out = run_all_threads(
        "vector_add.ptx",
        "vector_add",
        &cfg([4, 1, 1], [256, 1, 1]),
        &[
            buf(&a),
            buf(&b),
            buf(&vec![f32::from_bits(0x7fc0_dead); n + 24]),
            Param::Scalar(Arg::u32(n as u32)),
        ],
    );
    let c: Vec<f32> = decode(&out[2]);
    for i in 0..n {
        assert_eq!(c[i].to_bits(), (a[i] + b[i]).to_bits(), "element {i}");
    }
    // Threads past `n` must not store: the guard bytes keep their sentinel.
    for (i, x) in c.iter().enumerate().skip(n) {
        assert_eq!(x.to_bits(), 0x7fc0_dead, "guard element {i} was written");
    }
}

#[test]
fn vector_add_u64_grid_stride_loop() {
    let n = 5000usize;
    let a: Vec<u64> = (0..n as u64)
        .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .collect();
    let b: Vec<u64> = (0..n as u64).map(|i| u64::MAX - i * 3).collect();
    let out = run_all_threads(
        "vector_add.ptx",
        "vector_add_u64",
        &cfg([3, 1, 1], [96, 1, 1]),
        &[
            buf(&a),
            buf(&b),
            zbuf::<u64>(n),
            Param::Scalar(Arg::u32(n as u32)),
        ],
    );
    let c: Vec<u64> = decode(&out[2]);
    for i in 0..n {
        assert_eq!(c[i], a[i].wrapping_add(b[i]), "element {i}");
    }
}

#[test]
fn axpy_f64_fused_multiply_add() {
    let n = 777usize;
    let mut rng = Rng(0x5eed_0002);
    let mut val = || f64::from_bits(rng.next_u64() >> 2) - 1.0e-3;
    let x: Vec<f64> = (0..n).map(|_| val()).collect();
    let y: Vec<f64> = (0..n).map(|i| i as f64 / 3.0 - 100.0).collect();
    let a = -1.0f64 / 7.0;
    let out = run_all_threads(
        "vector_add.ptx",
        "axpy_f64",
        &cfg([7, 1, 1], [128, 1, 1]),
        &[
            buf(&x),
            buf(&y),
            Param::Scalar(Arg(a.to_le_bytes().to_vec())),
            Param::Scalar(Arg::u32(n as u32)),
        ],
    );
    let got: Vec<f64> = decode(&out[1]);
    for i in 0..n {
        let want = a.mul_add(x[i], y[i]);
        assert_eq!(
            got[i].to_bits(),
            want.to_bits(),
            "element {i}: {} vs {want}",
            got[i]
        );
    }
}

/// Run grid_ids and check every thread's record against the launch shape.
fn check_grid_ids(grid: [u32; 3], block: [u32; 3]) {
    let per_cta = (block[0] * block[1] * block[2]) as usize;
    let ctas = (grid[0] * grid[1] * grid[2]) as usize;
    let out = run_all_threads(
        "grid_ids.ptx",
        "grid_ids",
        &cfg(grid, block),
        &[zbuf::<u32>(per_cta * ctas * 16)],
    );
    let words: Vec<u32> = decode(&out[0]);
    let mut seen = 0usize;
    for cz in 0..grid[2] {
        for cy in 0..grid[1] {
            for cx in 0..grid[0] {
                for tz in 0..block[2] {
                    for ty in 0..block[1] {
                        for tx in 0..block[0] {
                            let flat_tid = (tz * block[1] + ty) * block[0] + tx;
                            let flat_cta = (cz * grid[1] + cy) * grid[0] + cx;
                            let g = flat_cta as usize * per_cta + flat_tid as usize;
                            let rec = &words[g * 16..g * 16 + 16];
                            let want = [
                                cx,
                                cy,
                                cz,
                                tx,
                                ty,
                                tz,
                                grid[0],
                                grid[1],
                                grid[2],
                                block[0],
                                block[1],
                                block[2],
                                flat_tid % 32,
                                flat_tid,
                                0xC0FFEE,
                                g as u32,
                            ];
                            assert_eq!(
                                rec, want,
                                "grid {grid:?} block {block:?}: thread ctaid=({cx},{cy},{cz}) tid=({tx},{ty},{tz})"
                            );
                            seen += 1;
                        }
                    }
                }
            }
        }
    }
    assert_eq!(seen, per_cta * ctas);
}

#[test]
fn grid_1d_every_thread_reports_its_ids() {
    check_grid_ids([5, 1, 1], [70, 1, 1]);
}

#[test]
fn grid_2d_every_thread_reports_its_ids() {
    check_grid_ids([3, 4, 1], [8, 6, 1]);
}

#[test]
fn grid_3d_every_thread_reports_its_ids() {
    check_grid_ids([2, 3, 4], [5, 3, 4]);
}

fn divergent_reference(gid: u32) -> (u32, u32) {
    let mut acc = gid;
    let trips = (gid.wrapping_mul(7).wrapping_add(3)) % 37;
    for i in 0..trips {
        if i % 3 == 0 {
            acc = acc.wrapping_mul(3).wrapping_add(1);
        } else if acc & 1 == 1 {
            acc ^= i << 5;
            if acc > 0x8000_0000 {
                break;
            }
        } else {
            acc = acc.wrapping_add(i);
            for j in 0..(i & 3) {
                acc = acc.wrapping_add(j.wrapping_mul(acc >> 3));
            }
        }
    }
    let mut c = gid % 1000 + 1;
    let mut steps = 0;
    while c != 1 && steps < 500 {
        c = if c.is_multiple_of(2) {
            c / 2
        } else {
            c.wrapping_mul(3).wrapping_add(1)
        };
        steps += 1;
    }
    (acc, steps)
}

#[test]
fn divergent_loops_with_per_thread_trip_counts() {
    let n = 1200u32;
    let sentinel = 0xAAAA_5555u32;
    let out = run_all_threads(
        "divergent_loops.ptx",
        "divergent_loops",
        &cfg([5, 1, 1], [256, 1, 1]),
        &[buf(&vec![sentinel; 2 * 1280]), Param::Scalar(Arg::u32(n))],
    );
    let w: Vec<u32> = decode(&out[0]);
    for gid in 0..1280u32 {
        let got = (w[2 * gid as usize], w[2 * gid as usize + 1]);
        let want = if gid >= n || gid % 5 == 4 {
            (sentinel, sentinel)
        } else {
            divergent_reference(gid)
        };
        assert_eq!(got, want, "thread {gid}");
    }
}

#[test]
fn special_registers_lanemasks_warpid_clock_gridid() {
    let (block, ctas) = (80u32, 2u32);
    let n = (block * ctas) as usize;
    let (mut dev, m) = load_kernel("special_regs.ptx");
    let p = zeros::<u32>(&mut dev, 8 * n);
    let mut gridids = Vec::new();
    for launch in 0..2 {
        dev.launch(
            &m,
            "special_regs",
            &cfg([ctas, 1, 1], [block, 1, 1]),
            &[Arg::ptr(p)],
            &opts(2),
        )
        .unwrap_or_else(|e| panic!("launch {launch}: {e}"));
        let w: Vec<u32> = download(&dev, p, 8 * n);
        for g in 0..n {
            let lane = (g % block as usize) % 32;
            let bit = 1u32 << lane;
            let want = [
                bit,
                bit | (bit - 1),
                bit - 1,
                !(bit - 1),
                !(bit | (bit - 1)),
                1,
                1,
                w[7],
            ];
            assert_eq!(&w[8 * g..8 * g + 8], want, "launch {launch} thread {g}");
        }
        gridids.push(w[7]);
    }
    assert_ne!(gridids[0], gridids[1], "two launches share a %gridid");
}

#[test]
fn warp_sz_immediate() {
    let out = run_all_threads(
        "warp_size.ptx",
        "warp_size",
        &cfg([1, 1, 1], [40, 1, 1]),
        &[zbuf::<u32>(40)],
    );
    let want: Vec<u32> = (0..40).map(|t| 64 + t).collect();
    assert_eq!(decode::<u32>(&out[0]), want);
}

/// Instruction lines of the body of `.entry name` in `text` (declarations, labels, braces
/// and comments excluded): what each thread executes in a straight-line kernel.
fn straight_line_instructions(text: &str, name: &str) -> u64 {
    let start = text.find(&format!(".entry {name}(")).expect("entry");
    let body = &text[start..];
    let open = body.find('{').expect("body");
    let close = body.find("\n}").expect("end of body");
    body[open + 1..close]
        .lines()
        .map(|l| l.split("//").next().unwrap().trim())
        .filter(|l| l.ends_with(';') && !l.starts_with('.'))
        .count() as u64
}

#[test]
fn launch_stats_count_thread_instructions_and_progress() {
    let text = kernel_text("grid_ids.ptx");
    let per_thread = straight_line_instructions(&text, "grid_ids");
    assert!(per_thread > 20, "counted {per_thread} instructions");
    let (grid, block) = ([3u32, 2, 1], [70u32, 1, 1]);
    let threads = 6 * 70;
    let (mut dev, m) = load_kernel("grid_ids.ptx");
    let p = zeros::<u32>(&mut dev, 16 * threads);
    let progress = std::sync::atomic::AtomicU64::new(0);
    let stats = dev
        .launch(
            &m,
            "grid_ids",
            &cfg(grid, block),
            &[Arg::ptr(p)],
            &exec::RunOptions {
                threads: 2,
                progress: Some(&progress),
                ..exec::RunOptions::default()
            },
        )
        .unwrap();
    assert_eq!(stats.ctas, 6);
    assert_eq!(
        stats.thread_instructions,
        per_thread * threads as u64,
        "{per_thread} instructions x {threads} threads (partial warps count only their threads)"
    );
    assert_eq!(
        progress.load(std::sync::atomic::Ordering::Relaxed),
        stats.thread_instructions,
        "progress counter after the launch"
    );
}
