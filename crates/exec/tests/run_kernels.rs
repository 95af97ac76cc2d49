//! The kernels in `tests/run/*.ptx`, each checked against the same computation in Rust.

mod common;
use common::*;
use exec::Arg;

fn text(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/../../tests/run/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

/// A small deterministic generator for test inputs (xorshift64*).
pub struct Rng(u64);
impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

#[test]
fn shared_memory_tree_reduction() {
    let (mut dev, m) = load("reduce_shared.ptx", &text("reduce_shared.ptx"));
    let mut rng = Rng(7);
    let ctas = 12;
    let input: Vec<u32> = (0..ctas * 256).map(|_| rng.next_u64() as u32).collect();
    let pin = upload_u32(&mut dev, &input);
    let pout = dev.alloc(ctas as u64 * 4).unwrap();
    launch(
        &dev,
        &m,
        "reduce",
        &cfg([ctas as u32, 1, 1], [256, 1, 1]),
        &[Arg::ptr(pin), Arg::ptr(pout)],
    )
    .unwrap();
    let got = read_u32(&dev, pout, ctas);
    for c in 0..ctas {
        let want = input[c * 256..(c + 1) * 256]
            .iter()
            .fold(0u32, |s, x| s.wrapping_add(*x));
        assert_eq!(got[c], want, "CTA {c}");
    }
}

#[test]
fn histogram_with_shared_and_global_atomics() {
    let (mut dev, m) = load("histogram.ptx", &text("histogram.ptx"));
    let mut rng = Rng(99);
    let n = 5000u32;
    let data: Vec<u32> = (0..n).map(|_| (rng.next_u64() % 1000) as u32).collect();
    let pd = upload_u32(&mut dev, &data);
    let ph = dev.alloc(64 * 4).unwrap();
    let ctas = n.div_ceil(128);
    launch(
        &dev,
        &m,
        "histogram",
        &cfg([ctas, 1, 1], [128, 1, 1]),
        &[Arg::ptr(pd), Arg::ptr(ph), Arg::u32(n)],
    )
    .unwrap();
    let mut want = [0u32; 64];
    for x in &data {
        want[(x & 63) as usize] += 1;
    }
    assert_eq!(read_u32(&dev, ph, 64), want);
}

fn add_limbs(a: &[u64], b: &[u64], sub: bool) -> Vec<u64> {
    // Independent multi-word add/sub through u128.
    let mut out = Vec::new();
    let mut carry: i128 = 0;
    for (x, y) in a.iter().zip(b) {
        let s = *x as i128 + if sub { -(*y as i128) } else { *y as i128 } + carry;
        out.push(s as u64);
        carry = s >> 64;
    }
    out
}

fn mul_128x128(a: [u64; 2], b: [u64; 2]) -> [u64; 4] {
    let mut r = [0u128; 5];
    for i in 0..2 {
        for j in 0..2 {
            let p = a[i] as u128 * b[j] as u128;
            r[i + j] += p & u64::MAX as u128;
            r[i + j + 1] += p >> 64;
        }
    }
    let mut out = [0u64; 4];
    let mut carry = 0u128;
    for k in 0..4 {
        let v = r[k] + carry;
        out[k] = v as u64;
        carry = v >> 64;
    }
    out
}

#[test]
fn big_integer_carry_chains() {
    let (mut dev, m) = load("bigint.ptx", &text("bigint.ptx"));
    let mut rng = Rng(12345);
    let threads = 64usize;
    let edge = [
        0u64,
        1,
        u64::MAX,
        u64::MAX - 1,
        1 << 63,
        0xffff_ffff,
        0x1_0000_0000,
    ];
    let mut input = Vec::new();
    for t in 0..threads {
        for k in 0..8 {
            input.push(if t < 16 {
                edge[(t + k * 3) % edge.len()]
            } else {
                rng.next_u64()
            });
        }
    }
    let pin = dev.alloc(input.len() as u64 * 8).unwrap();
    dev.write(
        pin,
        &input
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect::<Vec<_>>(),
    )
    .unwrap();
    let pout = dev.alloc(threads as u64 * 192).unwrap();
    launch(
        &dev,
        &m,
        "bigint",
        &cfg([1, 1, 1], [threads as u32, 1, 1]),
        &[Arg::ptr(pin), Arg::ptr(pout)],
    )
    .unwrap();
    let out = read_u64(&dev, pout, threads * 24);
    for t in 0..threads {
        let a = &input[t * 8..t * 8 + 4];
        let b = &input[t * 8 + 4..t * 8 + 8];
        let o = &out[t * 24..t * 24 + 24];
        let (a128, b128) = (
            a[0] as u128 | (a[1] as u128) << 64,
            b[0] as u128 | (b[1] as u128) << 64,
        );
        let s = a128.wrapping_add(b128);
        assert_eq!([o[0], o[1]], [s as u64, (s >> 64) as u64], "add128 t{t}");
        let d = a128.wrapping_sub(b128);
        assert_eq!([o[2], o[3]], [d as u64, (d >> 64) as u64], "sub128 t{t}");
        assert_eq!(&o[4..8], add_limbs(a, b, false).as_slice(), "add256 t{t}");
        assert_eq!(&o[8..12], add_limbs(a, b, true).as_slice(), "sub256 t{t}");
        let p = a[0] as u128 * b[0] as u128;
        assert_eq!(
            [o[12], o[13]],
            [p as u64, (p >> 64) as u64],
            "mul64x64 t{t}"
        );
        assert_eq!(
            &o[14..18],
            mul_128x128([a[0], a[1]], [b[0], b[1]]).as_slice(),
            "mul128x128 t{t}"
        );
        let (hi_sum, c) = a[1].overflowing_add(b[1]);
        assert_eq!(o[18], hi_sum, "add.cc t{t}");
        assert_eq!(
            o[19],
            a[0].wrapping_mul(b[0])
                .wrapping_add(a[1])
                .wrapping_add(c as u64),
            "madc.lo t{t}"
        );
    }
}

#[test]
fn sad_over_image_blocks_with_video_instructions() {
    let (mut dev, m) = load("sad.ptx", &text("sad.ptx"));
    let (w, h) = (64usize, 32usize);
    let mut rng = Rng(5);
    let a: Vec<u8> = (0..w * h).map(|_| rng.next_u64() as u8).collect();
    let b: Vec<u8> = (0..w * h).map(|_| rng.next_u64() as u8).collect();
    let pa = dev.alloc((w * h) as u64).unwrap();
    let pb = dev.alloc((w * h) as u64).unwrap();
    dev.write(pa, &a).unwrap();
    dev.write(pb, &b).unwrap();
    let (bw, bh) = (w / 8, h / 8);
    let pout = dev.alloc((bw * bh * 4) as u64).unwrap();
    let psum = dev.alloc((bw * bh * 4) as u64).unwrap();
    launch(
        &dev,
        &m,
        "sad",
        &cfg([bw as u32, 1, 1], [bh as u32, 1, 1]),
        &[
            Arg::ptr(pa),
            Arg::ptr(pb),
            Arg::ptr(pout),
            Arg::ptr(psum),
            Arg::u32(w as u32),
        ],
    )
    .unwrap();
    let got = read_u32(&dev, pout, bw * bh);
    let sums = read_u32(&dev, psum, bw * bh);
    for bx in 0..bw {
        for by in 0..bh {
            let mut s = 0u32;
            for y in 0..8 {
                for x in 0..8 {
                    let i = (by * 8 + y) * w + bx * 8 + x;
                    s += (a[i] as i32 - b[i] as i32).unsigned_abs();
                }
            }
            assert_eq!(got[bx * bh + by], s, "block ({bx},{by})");
            let i = by * 8 * w + bx * 8;
            let want: u32 = (0..4)
                .map(|k| ((a[i + k] as u32 + b[i + k] as u32).min(255)) << (8 * k))
                .sum();
            assert_eq!(sums[bx * bh + by], want, "vadd4.sat block ({bx},{by})");
        }
    }
}

#[test]
fn warp_vote_shuffle_scans_and_collectives() {
    let (mut dev, m) = load("warp.ptx", &text("warp.ptx"));
    let mut rng = Rng(77);
    let n = 64usize;
    let input: Vec<u32> = (0..n).map(|_| (rng.next_u64() % 1000) as u32).collect();
    let pin = upload_u32(&mut dev, &input);
    let pout = dev.alloc(n as u64 * 48).unwrap();
    launch(
        &dev,
        &m,
        "warp_ops",
        &cfg([1, 1, 1], [n as u32, 1, 1]),
        &[Arg::ptr(pin), Arg::ptr(pout)],
    )
    .unwrap();
    let out = read_u32(&dev, pout, n * 12);
    for w in 0..n / 32 {
        let v = &input[w * 32..w * 32 + 32];
        let ballot: u32 = (0..32).filter(|&l| v[l] & 1 == 1).map(|l| 1u32 << l).sum();
        let odd_max = (0..32)
            .filter(|&l| v[l] & 1 == 1)
            .map(|l| v[l])
            .max()
            .unwrap_or(0);
        for l in 0..32 {
            let o = &out[(w * 32 + l) * 12..(w * 32 + l) * 12 + 10];
            let prefix: u32 = v[..=l].iter().sum();
            let total: u32 = v.iter().sum();
            let odd = v[l] & 1 == 1;
            // shfl.down pseudo-code (PTX ISA shfl.sync) with b = 3, c = 0x101f.
            let (bval, cval, seg) = (3i32, 0x1f_i32, 0x10_i32);
            let max_lane = (l as i32 & seg) | (cval & !seg);
            let j = l as i32 + bval;
            let pval = j <= max_lane;
            let src = if pval { j as usize } else { l };
            let want = [
                prefix,
                total,
                ballot,
                (ballot != 0) as u32,
                (ballot == u32::MAX) as u32,
                if odd { ballot } else { 0 },
                if odd { odd_max } else { 0 },
                v[(l * 7) % 32],
                v[src],
                pval as u32,
            ];
            assert_eq!(o, want, "warp {w} lane {l}");
        }
    }
}

#[test]
fn calls_with_param_abi_and_recursion() {
    let (mut dev, m) = load("calls.ptx", &text("calls.ptx"));
    let n = 64usize;
    let pout = dev.alloc(n as u64 * 12).unwrap();
    launch(
        &dev,
        &m,
        "calls",
        &cfg([1, 1, 1], [n as u32, 1, 1]),
        &[Arg::ptr(pout)],
    )
    .unwrap();
    let out = read_u32(&dev, pout, n * 3);
    fn fib(n: u32) -> u32 {
        let (mut a, mut b) = (0u32, 1u32);
        for _ in 0..n {
            (a, b) = (b, a + b);
        }
        a
    }
    for t in 0..n as u32 {
        let o = &out[t as usize * 3..t as usize * 3 + 3];
        let (q, r) = if t < 40 {
            ((t + 1000) / (t + 3), (t + 1000) % (t + 3))
        } else {
            (0, 0)
        };
        assert_eq!(o, [fib(t & 15), q, r], "thread {t}");
    }
}

/// The 1-based line of the PTX line containing `marker`.
fn line_of(text: &str, marker: &str) -> usize {
    text.lines().position(|l| l.contains(marker)).unwrap() + 1
}

#[test]
fn every_fault_kind_stops_the_launch_with_its_message() {
    let t = text("faults.ptx");
    let (mut dev, m) = load("faults.ptx", &t);
    let buf = dev.alloc(16).unwrap();
    let base = buf.0;
    let thread = "thread ctaid=(1,0,0) tid=(5,0,0)";
    let cases: Vec<(u32, String)> = vec![
        (0, format!("kernel `faults` faulted at faults.ptx:{} in {thread}: out-of-bounds 4-byte access to .global address {:#x}", line_of(&t, "FAULT-OOB"), base + 4096)),
        (1, format!("kernel `faults` faulted at faults.ptx:{} in {thread}: misaligned 4-byte access to .global address {:#x}", line_of(&t, "FAULT-MISALIGNED"), base + 2)),
        (2, format!("kernel `faults` faulted at faults.ptx:{} in {thread}: trap instruction executed", line_of(&t, "FAULT-TRAP"))),
        (3, format!("kernel `faults` faulted at faults.ptx:{} in {thread}: out-of-bounds 4-byte access to .shared address 0x400", line_of(&t, "FAULT-SHARED"))),
        // Threads 0..31 (warp 0) wait at `bar.sync 0`, threads 32..63 (warp 1) at `bar.sync 1`.
        (4, format!("kernel `faults` faulted at faults.ptx:{0} in thread ctaid=(0,0,0) tid=(0,0,0): barrier 0 can never complete: every live warp of the CTA is waiting: warp 0 (32 threads from tid=(0,0,0)) at line {0} on barrier 0; warp 1 (32 threads from tid=(32,0,0)) at line {1} on barrier 1", line_of(&t, "FAULT-DEADLOCK"), line_of(&t, "bar.sync 1;"))),
        (5, format!("kernel `faults` faulted at faults.ptx:{} in thread ctaid=(0,0,0) tid=(0,0,0): step budget of 9999 instructions per warp exceeded", line_of(&t, "FAULT-STEPS"))),
        (6, format!("kernel `faults` faulted at faults.ptx:{} in {thread}: store to read-only .const address 0xfc000000", line_of(&t, "FAULT-CONST"))),
    ];
    for (mode, want) in cases {
        for threads in [1, 2] {
            // Mode 5: warp 0 runs 19 instructions to reach FOREVER, then alternates add (even
            // step numbers) and bra; the 10000th instruction, the first over budget, is an add.
            let opts = exec::RunOptions {
                threads,
                max_steps: 9_999,
                ..exec::RunOptions::default()
            };
            let e = dev
                .launch(
                    &m,
                    "faults",
                    &cfg([3, 1, 1], [64, 1, 1]),
                    &[Arg::ptr(buf), Arg::u32(mode)],
                    &opts,
                )
                .expect_err("launch must fault");
            assert_eq!(e.to_string(), want, "mode {mode}");
            assert_eq!(e.exit_code(), 3);
        }
    }
    // Mode 7 is clean.
    launch(
        &dev,
        &m,
        "faults",
        &cfg([3, 1, 1], [64, 1, 1]),
        &[Arg::ptr(buf), Arg::u32(7)],
    )
    .unwrap();
}

#[test]
fn launch_errors_name_the_problem() {
    let (dev, m) = load("faults.ptx", &text("faults.ptx"));
    let e = |k: &str, c: exec::LaunchConfig, a: &[Arg]| {
        launch(&dev, &m, k, &c, a).unwrap_err().to_string()
    };
    assert_eq!(
        e("nope", cfg([1, 1, 1], [1, 1, 1]), &[]),
        "launch error: no kernel named `nope` in the module"
    );
    assert_eq!(
        e("faults", cfg([1, 1, 1], [1, 1, 1]), &[Arg::u32(0)]),
        "launch error: kernel `faults` takes 2 parameters, 1 given"
    );
    assert_eq!(
        e(
            "faults",
            cfg([1, 1, 1], [1, 1, 1]),
            &[Arg::u32(0), Arg::u32(0)]
        ),
        "launch error: parameter 0 (`buf`) is 8 bytes, argument has 4"
    );
    assert_eq!(
        e(
            "faults",
            cfg([1, 1, 1], [33, 32, 1]),
            &[Arg::u64(0), Arg::u32(7)]
        ),
        "launch error: a CTA of 1056 threads exceeds the limit of 1024"
    );
    assert_eq!(
        e(
            "faults",
            cfg([0, 1, 1], [1, 1, 1]),
            &[Arg::u64(0), Arg::u32(7)]
        ),
        "launch error: grid dimensions must be at least 1"
    );
}

#[test]
fn ptx_1_1_kernel_with_register_call_and_16_bit_math() {
    let (mut dev, m) = load("ptx11.ptx", &text("ptx11.ptx"));
    let (ctas, block) = (3u32, 40u32);
    let n = (ctas * block) as usize;
    let out = dev.alloc(n as u64 * 16).unwrap();
    launch(
        &dev,
        &m,
        "old_style",
        &cfg([ctas, 1, 1], [block, 1, 1]),
        &[Arg::u32(out.0 as u32), Arg::u32(7)],
    )
    .unwrap();
    let got = read_u32(&dev, out, n * 4);
    for g in 0..n {
        let tid = (g as u32) % block;
        let o = &got[g * 4..g * 4 + 4];
        assert_eq!(o[0], g as u32 * 7, "scale() result, thread {g}");
        assert_eq!(o[1], (0xfff0 + tid) & 0xffff, "16-bit add, thread {g}");
        assert_eq!(o[2], g as u32, "global id, thread {g}");
    }
}

#[test]
fn textures_1d_and_2d_point_sampled_and_clamped() {
    let (mut dev, m) = load("texture.ptx", &text("texture.ptx"));
    let n = 48usize;
    let out = dev.alloc(n as u64 * 32).unwrap();
    let lut: Vec<u32> = (0..30).map(|i| i * 11 + 3).collect();
    let (w, h) = (20u32, 10u32);
    // 2 channels per texel.
    let img: Vec<u32> = (0..w * h * 2).map(|i| i * 7 + 1).collect();
    let mut c = cfg([1, 1, 1], [n as u32, 1, 1]);
    c.textures = vec![
        Some(exec::Texture {
            dims: [30, 1, 1],
            channels: 1,
            data: lut.clone(),
        }),
        Some(exec::Texture {
            dims: [w, h, 1],
            channels: 2,
            data: img.clone(),
        }),
    ];
    launch(&dev, &m, "fetch", &c, &[Arg::u32(out.0 as u32)]).unwrap();
    let got = read_u32(&dev, out, n * 8);
    for t in 0..n {
        let x1 = (t as i64 - 4).clamp(0, 29) as usize;
        assert_eq!(&got[t * 8..t * 8 + 4], [lut[x1], 0, 0, 0], "1d thread {t}");
        let fx = t as f32 * 0.75;
        let fy = fx - 2.5;
        let cx = (fx.floor() as i64).clamp(0, w as i64 - 1) as u32;
        let cy = (fy.floor() as i64).clamp(0, h as i64 - 1) as u32;
        let i = ((cy * w + cx) * 2) as usize;
        assert_eq!(
            &got[t * 8 + 4..t * 8 + 8],
            [img[i], img[i + 1], 0, 0],
            "2d thread {t}"
        );
    }
}

#[test]
fn grids_and_ctas_in_two_and_three_dimensions() {
    let (mut dev, m) = load("grid3d.ptx", &text("grid3d.ptx"));
    for (grid, block) in [
        ([3u32, 2, 2], [4u32, 3, 5]),
        ([2, 3, 1], [8, 8, 1]),
        ([1, 1, 4], [1, 1, 33]),
    ] {
        let per_cta = block.iter().product::<u32>() as usize;
        let n = grid.iter().product::<u32>() as usize * per_cta;
        let out = dev.alloc(n as u64 * 32).unwrap();
        launch(&dev, &m, "grid3d", &cfg(grid, block), &[Arg::ptr(out)]).unwrap();
        let got = read_u32(&dev, out, n * 8);
        let mut g = 0;
        for cz in 0..grid[2] {
            for cy in 0..grid[1] {
                for cx in 0..grid[0] {
                    for tz in 0..block[2] {
                        for ty in 0..block[1] {
                            for tx in 0..block[0] {
                                let local = ((tz * block[1] + ty) * block[0] + tx) as usize;
                                let want = [
                                    tx,
                                    ty,
                                    tz,
                                    cx,
                                    cy,
                                    cz,
                                    (local % 32) as u32,
                                    (local / 32) as u32,
                                ];
                                assert_eq!(
                                    &got[g * 8..g * 8 + 8],
                                    want,
                                    "grid {grid:?} block {block:?} thread {g}"
                                );
                                g += 1;
                            }
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn indirect_call_through_a_function_table() {
    // tests/corpus/device_calls.ptx: `indirect_kernel(out, sel)` loads op_table[sel & 1] (both
    // entries are `square_u32`) and calls it through the pointer: out[tid] = tid * tid.
    let path = format!(
        "{}/../../tests/corpus/device_calls.ptx",
        env!("CARGO_MANIFEST_DIR")
    );
    let (mut dev, m) = load("device_calls.ptx", &std::fs::read_to_string(path).unwrap());
    let n = 96usize;
    let out = dev.alloc(n as u64 * 4).unwrap();
    for sel in [0u32, 1] {
        launch(
            &dev,
            &m,
            "indirect_kernel",
            &cfg([1, 1, 1], [n as u32, 1, 1]),
            &[Arg::ptr(out), Arg::u32(sel)],
        )
        .unwrap();
        let got = read_u32(&dev, out, n);
        for (t, v) in got.iter().enumerate() {
            assert_eq!(*v, (t * t) as u32, "sel {sel} thread {t}");
        }
    }
}

#[test]
fn scalar_video_with_selectors_and_vset() {
    let (mut dev, m) = load("video_scalar.ptx", &text("video_scalar.ptx"));
    let mut rng = Rng(31);
    let n = 64usize;
    let input: Vec<u32> = (0..2 * n).map(|_| rng.next_u64() as u32).collect();
    let pin = upload_u32(&mut dev, &input);
    let pout = dev.alloc(n as u64 * 24).unwrap();
    launch(
        &dev,
        &m,
        "video_scalar",
        &cfg([1, 1, 1], [n as u32, 1, 1]),
        &[Arg::ptr(pin), Arg::ptr(pout)],
    )
    .unwrap();
    let out = read_u32(&dev, pout, n * 6);
    for t in 0..n {
        let (a, b) = (input[2 * t], input[2 * t + 1]);
        let byte = |x: u32, k: u32| (x >> (8 * k)) & 0xff;
        let sbyte = |x: u32, k: u32| (x >> (8 * k)) as u8 as i8 as i64;
        let shalf = |x: u32, k: u32| (x >> (16 * k)) as u16 as i16 as i64;
        // vset4: per byte lane k, d.b_k = (a.b_k > b.b_k), unsigned; lanes of `c` unused.
        let vset4: u32 = (0..4)
            .map(|k| ((byte(a, k) > byte(b, k)) as u32) << (8 * k))
            .sum();
        let want = [
            byte(a, 0) + byte(b, 1),
            (shalf(a, 1) - shalf(b, 0)).unsigned_abs() as u32,
            (sbyte(a, 2).max(sbyte(b, 3)) + t as i64) as u32,
            (a < b) as u32,
            vset4,
            // vmad: a.h0 * b.h1 - c with signed halves (the product fits 32 bits).
            (shalf(a, 0) * shalf(b, 1) - t as i64) as u32,
        ];
        assert_eq!(&out[t * 6..t * 6 + 6], want, "thread {t} a={a:#x} b={b:#x}");
    }
}
