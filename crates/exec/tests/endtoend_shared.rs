//! End-to-end: shared-memory reductions with barriers, histograms with shared and global
//! atomics, and the atomic operations, each checked against a plain Rust computation.

mod endtoend_common;
use endtoend_common::*;
use exec::Arg;

fn random_u32(n: usize, seed: u64) -> Vec<u32> {
    let mut rng = Rng(seed);
    (0..n).map(|_| rng.next_u32()).collect()
}

/// Expected per-CTA sums of `reduce_sum`: CTA b covers 2*block consecutive elements.
fn block_sums(data: &[u32], block: usize, ctas: usize) -> Vec<u32> {
    (0..ctas)
        .map(|b| {
            data.iter()
                .skip(b * 2 * block)
                .take(2 * block)
                .fold(0u32, |s, &x| s.wrapping_add(x))
        })
        .collect()
}

/// Run `kernel` (reduce_sum or reduce_sum_dyn) over `n` random values and compare the
/// per-CTA sums.
fn check_reduce_sum(kernel: &str, block: usize, ctas: usize, n: usize, seed: u64) {
    let data = random_u32(n, seed);
    let mut c = cfg([ctas as u32, 1, 1], [block as u32, 1, 1]);
    if kernel == "reduce_sum_dyn" {
        c.shared_bytes = 4 * block as u32;
    }
    let out = run_all_threads(
        "reduce_shared.ptx",
        kernel,
        &c,
        &[
            buf(&data),
            zbuf::<u32>(ctas),
            Param::Scalar(Arg::u32(n as u32)),
        ],
    );
    assert_eq!(
        decode::<u32>(&out[1]),
        block_sums(&data, block, ctas),
        "{kernel}: block {block}, {ctas} CTAs, n = {n}"
    );
}

#[test]
fn reduce_sum_static_shared_tree() {
    // The last CTA sees a partial tile.
    check_reduce_sum("reduce_sum", 256, 7, 2 * 256 * 7 - 100, 11);
}

#[test]
fn reduce_sum_small_blocks_and_1024_thread_ctas() {
    for block in [1usize, 2, 32, 64, 1024] {
        check_reduce_sum("reduce_sum", block, 3, 2 * block * 3, block as u64 + 5);
    }
}

#[test]
fn reduce_sum_dynamic_shared_and_generic_addresses() {
    check_reduce_sum("reduce_sum_dyn", 128, 5, 2 * 128 * 5 - 3, 12);
}

#[test]
fn reduce_max_in_2d_ctas_of_a_2d_grid() {
    let (bx, by, gx, gy) = (16usize, 8usize, 3usize, 2usize);
    let per = bx * by;
    let data = random_u32(per * gx * gy, 13);
    let out = run_all_threads(
        "reduce_shared.ptx",
        "reduce_max_2d",
        &cfg([gx as u32, gy as u32, 1], [bx as u32, by as u32, 1]),
        &[buf(&data), zbuf::<u32>(gx * gy)],
    );
    let want: Vec<u32> = data
        .chunks(per)
        .map(|c| c.iter().copied().max().unwrap())
        .collect();
    assert_eq!(decode::<u32>(&out[1]), want);
}

#[test]
fn bar_red_popc_and_or_across_the_cta() {
    let (block, ctas) = (96usize, 4usize);
    let mut data = random_u32(block * ctas, 14);
    // CTA 1: every value odd (and = 1); CTA 2: every value even (or = 0).
    for x in &mut data[block..2 * block] {
        *x |= 1;
    }
    for x in &mut data[2 * block..3 * block] {
        *x &= !1;
    }
    let out = run_all_threads(
        "reduce_shared.ptx",
        "bar_red",
        &cfg([ctas as u32, 1, 1], [block as u32, 1, 1]),
        &[buf(&data), zbuf::<u32>(3 * block * ctas)],
    );
    let w: Vec<u32> = decode(&out[1]);
    for b in 0..ctas {
        let tile = &data[b * block..(b + 1) * block];
        let popc = tile.iter().filter(|&&x| x & 1 == 1).count() as u32;
        let all = u32::from(popc as usize == block);
        let any = u32::from(popc > 0);
        for t in 0..block {
            let g = b * block + t;
            assert_eq!(&w[3 * g..3 * g + 3], [popc, all, any], "CTA {b} thread {t}");
        }
    }
}

fn byte_histogram(data: &[u8]) -> Vec<u32> {
    let mut h = vec![0u32; 256];
    for &b in data {
        h[b as usize] += 1;
    }
    h
}

#[test]
fn histogram_shared_atomics_then_global_merge() {
    let n = 40_000usize;
    let mut rng = Rng(21);
    // Skewed data so that many lanes of a warp hit the same bin at once.
    let data: Vec<u8> = (0..n)
        .map(|i| {
            if i % 3 == 0 {
                7
            } else {
                (rng.next_u32() % 40) as u8 * 6
            }
        })
        .collect();
    let out = run_all_threads(
        "histogram.ptx",
        "histogram",
        &cfg([6, 1, 1], [192, 1, 1]),
        &[
            buf(&data),
            Param::Scalar(Arg::u32(n as u32)),
            zbuf::<u32>(256),
        ],
    );
    assert_eq!(decode::<u32>(&out[1]), byte_histogram(&data));
}

#[test]
fn histogram_global_atomics_only() {
    let n = 20_000usize;
    let mut rng = Rng(22);
    let data: Vec<u8> = (0..n).map(|_| rng.next_u32() as u8).collect();
    let out = run_all_threads(
        "histogram.ptx",
        "histogram_global",
        &cfg([5, 1, 1], [128, 1, 1]),
        &[
            buf(&data),
            Param::Scalar(Arg::u32(n as u32)),
            zbuf::<u32>(256),
        ],
    );
    assert_eq!(decode::<u32>(&out[1]), byte_histogram(&data));
}

fn sorted(mut v: Vec<u32>) -> Vec<u32> {
    v.sort_unstable();
    v
}

#[test]
fn atomics_of_every_operation() {
    let (block, ctas) = (128usize, 5usize);
    let n = block * ctas;
    let mut rng = Rng(23);
    let vals: Vec<i32> = (0..n).map(|_| rng.next_u32() as i32 >> 3).collect();
    let mut init = vec![0u32; 17];
    init[0] = i32::MAX as u32;
    init[1] = i32::MIN as u32;
    init[2] = 0xFFFF_FFFF;
    init[5] = 1_000_000;
    init[6] = 0xFFFF_FFFF;
    init[12] = u32::MAX;
    init[16] = i32::MAX as u32;
    // The atomics race (exch and the returned old values depend on the order), so only
    // order-independent facts are compared, for every worker-thread count.
    for threads in THREAD_COUNTS {
        let out = run_once(
            "atomics.ptx",
            "atomics_mix",
            &cfg([ctas as u32, 1, 1], [block as u32, 1, 1]),
            &[buf(&vals), buf(&init), zbuf::<u32>(8 * n)],
            threads,
        )
        .unwrap_or_else(|e| panic!("{threads} worker threads: {e}"));
        check_atomics(&vals, block, ctas, &out);
    }
}

fn check_atomics(vals: &[i32], block: usize, ctas: usize, out: &[Vec<u8>]) {
    let n = block * ctas;
    let w: Vec<u32> = decode(&out[1]);
    let olds: Vec<u32> = decode(&out[2]);
    let g_all = 0..n as u32;
    assert_eq!(w[0] as i32, *vals.iter().min().unwrap(), "min.s32");
    assert_eq!(w[1] as i32, *vals.iter().max().unwrap(), "max.s32");
    // exch: the old values plus the final value are the initial value plus every g.
    let mut exch: Vec<u32> = (0..n).map(|g| olds[8 * g]).collect();
    exch.push(w[2]);
    let mut want_exch: Vec<u32> = g_all.clone().collect();
    want_exch.push(0xFFFF_FFFF);
    assert_eq!(sorted(exch), sorted(want_exch), "exch");
    // cas loop: every thread installed a distinct successor.
    assert_eq!(w[3], n as u32, "cas counter");
    let cas: Vec<u32> = (0..n).map(|g| olds[8 * g + 1]).collect();
    assert_eq!(sorted(cas), g_all.clone().collect::<Vec<_>>(), "cas values");
    // inc with bound 6 counts 0,1,..,6,0,1,..: per spec inc(r, s) = r >= s ? 0 : r + 1.
    let mut want_inc = Vec::new();
    let mut r = 0u32;
    for _ in 0..n {
        want_inc.push(r);
        r = if r >= 6 { 0 } else { r + 1 };
    }
    assert_eq!(w[4], r, "inc final");
    let inc: Vec<u32> = (0..n).map(|g| olds[8 * g + 2]).collect();
    assert_eq!(sorted(inc), sorted(want_inc), "inc olds");
    // dec with bound 0xffffffff from 1e6 is a plain decrement.
    assert_eq!(w[5], 1_000_000 - n as u32, "dec final");
    let dec: Vec<u32> = (0..n).map(|g| olds[8 * g + 3]).collect();
    let want_dec: Vec<u32> = (0..n as u32).map(|k| 1_000_000 - k).collect();
    assert_eq!(sorted(dec), sorted(want_dec), "dec olds");
    let and = g_all
        .clone()
        .fold(0xFFFF_FFFFu32, |a, g| a & !(1 << (g & 31)));
    assert_eq!(w[6], and, "and");
    let or = g_all.clone().fold(0u32, |a, g| a | 1 << (g % 29));
    assert_eq!(w[7], or, "or");
    let xor = g_all
        .clone()
        .fold(0u32, |a, g| a ^ g.wrapping_mul(2_654_435_761));
    assert_eq!(w[8], xor, "xor");
    let add = vals.iter().fold(0u32, |a, &v| a.wrapping_add(v as u32));
    assert_eq!(w[9], add, "add.u32");
    let add64 = vals
        .iter()
        .fold(0u64, |a, &v| a.wrapping_add(v as i64 as u64));
    assert_eq!(u64::from(w[10]) | u64::from(w[11]) << 32, add64, "add.u64");
    assert_eq!(
        w[12],
        vals.iter().map(|&v| v as u32).min().unwrap(),
        "min.u32"
    );
    assert_eq!(
        w[13],
        vals.iter().map(|&v| v as u32).max().unwrap(),
        "max.u32"
    );
    let fsum: u32 = g_all.clone().map(|g| g & 15).sum();
    assert_eq!(
        f32::from_bits(w[14]),
        fsum as f32,
        "add.f32 of small integers"
    );
    assert_eq!(w[15], n as u32, "per-CTA shared counts");
    assert_eq!(w[16] as i32, *vals.iter().min().unwrap(), "shared min.s32");
    for b in 0..ctas {
        let s: Vec<u32> = (0..block).map(|t| olds[8 * (b * block + t) + 4]).collect();
        assert_eq!(
            sorted(s),
            (0..block as u32).collect::<Vec<_>>(),
            "atom.shared.add olds of CTA {b}"
        );
    }
}

#[test]
fn atomics_64_bit_and_shared_cas() {
    let (block, ctas) = (96usize, 4usize);
    let n = (block * ctas) as u64;
    let init = [0u64, u64::MAX, i64::MAX as u64, 0, 0, 0];
    for threads in THREAD_COUNTS {
        let out = run_once(
            "atomics.ptx",
            "atomics64",
            &cfg([ctas as u32, 1, 1], [block as u32, 1, 1]),
            &[buf(&init), zbuf::<u64>(2 * n as usize)],
            threads,
        )
        .unwrap_or_else(|e| panic!("{threads} worker threads: {e}"));
        let w: Vec<u64> = decode(&out[0]);
        let olds: Vec<u64> = decode(&out[1]);
        let step = 0x2_0000_0001u64;
        assert_eq!(w[0], n * step, "cas.b64 counter");
        let cas: Vec<u64> = (0..n as usize).map(|g| olds[2 * g]).collect();
        let mut cas_sorted = cas.clone();
        cas_sorted.sort_unstable();
        assert_eq!(
            cas_sorted,
            (0..n).map(|k| k * step).collect::<Vec<_>>(),
            "cas.b64 replaced values"
        );
        let mut exch: Vec<u64> = (0..n as usize).map(|g| olds[2 * g + 1]).collect();
        exch.push(w[1]);
        exch.sort_unstable();
        let mut want: Vec<u64> = (0..n).map(|g| g << 40 | g).collect();
        want.push(u64::MAX);
        want.sort_unstable();
        assert_eq!(exch, want, "exch.b64");
        let min = (0..n)
            .map(|g| (g * 0x100_0000_0001) as i64 - (1 << 50))
            .min()
            .unwrap();
        assert_eq!(w[2] as i64, min, "min.s64");
        assert_eq!(w[3], (n - 1) << 33, "max.u64");
        assert_eq!(f64::from_bits(w[4]), (n * (n - 1) / 2) as f64, "add.f64");
        assert_eq!(w[5], n, "shared cas counters");
    }
}

#[test]
fn bar_arrive_producer_and_bar_sync_consumer() {
    let ctas = 5u32;
    let out = run_all_threads(
        "reduce_shared.ptx",
        "producer_consumer",
        &cfg([ctas, 1, 1], [64, 1, 1]),
        &[zbuf::<u32>(32 * ctas as usize)],
    );
    let got: Vec<u32> = decode(&out[0]);
    for c in 0..ctas {
        for t in 0..32u32 {
            let want: u32 = (0..3).map(|r| t * t + 1000 * r + c).sum();
            assert_eq!(got[(32 * c + t) as usize], want, "CTA {c} consumer {t}");
        }
    }
}

#[test]
fn many_ctas_give_the_same_reduction_for_every_thread_count() {
    check_reduce_sum("reduce_sum", 64, 300, 2 * 64 * 300, 15);
}

#[test]
fn concurrent_launches_from_host_threads_share_global_atomics() {
    let n = 30_000usize;
    let mut rng = Rng(24);
    let data: Vec<u8> = (0..n).map(|_| (rng.next_u32() % 17) as u8).collect();
    let (mut dev, m) = load_kernel("histogram.ptx");
    let d = upload(&mut dev, &data);
    let hist = zeros::<u32>(&mut dev, 256);
    let args = [Arg::ptr(d), Arg::u32(n as u32), Arg::ptr(hist)];
    let c = cfg([8, 1, 1], [128, 1, 1]);
    std::thread::scope(|s| {
        for k in 0..3 {
            let (dev, m, args, c) = (&dev, &m, &args, &c);
            s.spawn(move || {
                let kernel = if k == 1 {
                    "histogram"
                } else {
                    "histogram_global"
                };
                dev.launch(m, kernel, c, args, &opts(2))
                    .unwrap_or_else(|e| panic!("launch {k}: {e}"));
            });
        }
    });
    let want: Vec<u32> = byte_histogram(&data).iter().map(|x| 3 * x).collect();
    assert_eq!(download::<u32>(&dev, hist, 256), want);
}

#[test]
fn shared_memory_atomics_of_every_operation() {
    let (block, ctas) = (160usize, 3usize);
    let mut rng = Rng(25);
    let vals: Vec<i32> = (0..block * ctas).map(|_| rng.next_u32() as i32).collect();
    let out = run_all_threads(
        "atomics.ptx",
        "shared_atomics",
        &cfg([ctas as u32, 1, 1], [block as u32, 1, 1]),
        &[buf(&vals), zbuf::<u32>(10 * ctas)],
    );
    let w: Vec<u32> = decode(&out[1]);
    for c in 0..ctas {
        let v = &vals[c * block..(c + 1) * block];
        let ts = 0..block as u32;
        let mut inc = 0u32;
        for _ in 0..block {
            inc = if inc >= 9 { 0 } else { inc + 1 };
        }
        let fsum: u32 = ts.clone().map(|t| t & 7).sum();
        let want = [
            ts.clone().fold(u32::MAX, |a, t| a & !(1 << (t & 31))),
            ts.clone().fold(0, |a, t| a | 1 << (t % 29)),
            ts.clone().fold(0, |a, t| a ^ t.wrapping_mul(2_654_435_761)),
            *v.iter().min().unwrap() as u32,
            *v.iter().max().unwrap() as u32,
            inc,
            5000 - block as u32,
            (fsum as f32).to_bits(),
            v.iter().map(|&x| x as u32).min().unwrap(),
            v.iter().map(|&x| x as u32).max().unwrap(),
        ];
        assert_eq!(
            &w[10 * c..10 * c + 10],
            want,
            "CTA {c}: and, or, xor, min.s32, max.s32, inc, dec, add.f32, min.u32, max.u32"
        );
    }
}
