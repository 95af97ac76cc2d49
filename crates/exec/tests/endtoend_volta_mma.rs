//! sm_70's quad-pair `mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32`, as NVRTC 12.9 emits it
//! (`tests/corpus/nvrtc_volta_sm70.ptx`, CUDA C in `tests/corpus/nvrtc/volta_sm70.cu`): lane
//! `t` loads its A fragment from `a[2t..2t+2]`, its B fragment from `b[2t..2t+2]` and its eight
//! f32 accumulators from `c[8t..8t+8]`, and stores D over C. The fragments are packed here
//! from four random 8x4 A, 4x8 B and 8x8 C matrices (one per quad-pair) with the PTX manual's
//! tables (§9.7.14.5.1, transcribed below), and D is checked against a reference written here
//! with the accumulation semantics of `docs/spec-notes.md`: exact products added to C in f64
//! in ascending k, rounded once to f32.

mod common;
use common::*;
use exec::Arg;
use half::f16;

/// xorshift64*: test inputs.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

/// The manual's quad-pair ("MMA computation") of a lane: lanes 0-3 and 16-19 compute the
/// first product, 4-7 and 20-23 the second, and so on.
fn computation(lane: usize) -> usize {
    (lane % 16) / 4
}

#[test]
fn nvrtc_volta_quad_pair_mma_matches_the_reference() {
    let text = std::fs::read_to_string(format!(
        "{}/../../tests/corpus/nvrtc_volta_sm70.ptx",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let (mut dev, m) = load("nvrtc_volta_sm70.ptx", &text);
    let mut rng = Rng(0x5eed_0070);
    // Values in [-2, 2) with 10 fraction bits of noise, so the f32 sums round.
    let mut val = || f16::from_f64((rng.next() % 4096) as f64 / 1024.0 - 2.0);
    let a: Vec<[[f16; 4]; 8]> = (0..4)
        .map(|_| std::array::from_fn(|_| std::array::from_fn(|_| val())))
        .collect();
    let b: Vec<[[f16; 8]; 4]> = (0..4)
        .map(|_| std::array::from_fn(|_| std::array::from_fn(|_| val())))
        .collect();
    let c: Vec<[[f32; 8]; 8]> = (0..4)
        .map(|_| std::array::from_fn(|_| std::array::from_fn(|_| val().to_f32() * 1000.0)))
        .collect();
    let (mut fa, mut fb, mut fc) = (vec![0u32; 64], vec![0u32; 64], vec![0u32; 256]);
    // C/D .f32 (Figures 51, 52): row = X (+ 4 for lanes >= 16), X = (laneid & 1) + (i & 2);
    // col = (i & 4) + (laneid & 2) + (i & 1).
    let acc_pos = |lane: usize, i: usize| {
        let x = (lane & 1) + (i & 2) + if lane >= 16 { 4 } else { 0 };
        (x, (i & 4) + (lane & 2) + (i & 1))
    };
    for lane in 0..32 {
        let q = computation(lane);
        let hi = if lane >= 16 { 4 } else { 0 };
        for i in 0..4 {
            // A .row (Figure 46): row = laneid % 4 (+ 4 for lanes >= 16), col = i.
            let av = a[q][lane % 4 + hi][i].to_bits();
            // B .col (Figure 49): row = i, col = laneid % 4 (+ 4 for lanes >= 16).
            let bv = b[q][i][lane % 4 + hi].to_bits();
            fa[lane * 2 + i / 2] |= u32::from(av) << (16 * (i % 2));
            fb[lane * 2 + i / 2] |= u32::from(bv) << (16 * (i % 2));
        }
        for i in 0..8 {
            let (r, col) = acc_pos(lane, i);
            fc[lane * 8 + i] = c[q][r][col].to_bits();
        }
    }
    let pa = upload_u32(&mut dev, &fa);
    let pb = upload_u32(&mut dev, &fb);
    let pc = upload_u32(&mut dev, &fc);
    launch(
        &dev,
        &m,
        "volta_mma",
        &cfg([1, 1, 1], [32, 1, 1]),
        &[Arg::ptr(pa), Arg::ptr(pb), Arg::ptr(pc)],
    )
    .unwrap();
    let got = read_u32(&dev, pc, 256);
    for lane in 0..32 {
        let q = computation(lane);
        for i in 0..8 {
            let (r, col) = acc_pos(lane, i);
            let mut s = f64::from(c[q][r][col]);
            for k in 0..4 {
                s += a[q][r][k].to_f64() * b[q][k][col].to_f64();
            }
            assert_eq!(
                f32::from_bits(got[lane * 8 + i]),
                s as f32,
                "lane {lane} d{i}: quad-pair {q} D[{r}][{col}]"
            );
        }
    }
}
