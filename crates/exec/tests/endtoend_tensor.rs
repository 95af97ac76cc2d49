//! Tensor-core kernels compiled by NVRTC 12.9 for sm_80 (`tests/corpus/nvrtc_gemm_sm80.ptx`,
//! CUDA C in `tests/corpus/nvrtc/gemm_sm80.cu`) against Rust references written here:
//! - `hgemm_16x8`: a 16x8 f32 tile of A (16xK f16, row-major) times B (Kx8 f16, stored
//!   column-major), through `cp.async`, `ldmatrix` and `mma.sync.m16n8k16`. The reference
//!   follows the accumulation semantics of `docs/spec-notes.md` (issue 16): per 16-wide k
//!   tile, start from the f32 accumulator, add the exact products in ascending k in f64, round
//!   to f32.
//! - `i8gemm_16x8`: one `mma.sync.m16n8k32.s32.s8.s8.s32` from fragments the test packs with
//!   the PTX manual's layout (§9.7.14.5.9, transcribed below); integer results are exact.

mod common;
use common::*;
use exec::Arg;
use half::f16;

fn gemm_module() -> (exec::Device, exec::LoadedModule) {
    let text = std::fs::read_to_string(format!(
        "{}/../../tests/corpus/nvrtc_gemm_sm80.ptx",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    load("nvrtc_gemm_sm80.ptx", &text)
}

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

fn pack_f16(v: &[f16]) -> Vec<u32> {
    v.chunks(2)
        .map(|p| u32::from(p[0].to_bits()) | u32::from(p[1].to_bits()) << 16)
        .collect()
}

#[test]
fn nvrtc_hgemm_with_cp_async_ldmatrix_and_mma_matches_the_reference() {
    let (mut dev, m) = gemm_module();
    let k = 64usize;
    let mut rng = Rng(0x1234_5678);
    // Values in [-2, 2) with 10 fraction bits of noise: the sums round in f32.
    let mut val = || f16::from_f64((rng.next() % 4096) as f64 / 1024.0 - 2.0);
    let a: Vec<f16> = (0..16 * k).map(|_| val()).collect();
    let b: Vec<f16> = (0..8 * k).map(|_| val()).collect(); // column-major: b[col * k + kk]
    let pa = upload_u32(&mut dev, &pack_f16(&a));
    let pb = upload_u32(&mut dev, &pack_f16(&b));
    let pc = dev.alloc(16 * 8 * 4).unwrap();
    launch(
        &dev,
        &m,
        "hgemm_16x8",
        &cfg([1, 1, 1], [32, 1, 1]),
        &[Arg::ptr(pa), Arg::ptr(pb), Arg::ptr(pc), Arg::u32(k as u32)],
    )
    .unwrap();
    let got = read_u32(&dev, pc, 16 * 8);
    for r in 0..16 {
        for c in 0..8 {
            let mut acc = 0f32;
            for k0 in (0..k).step_by(16) {
                let mut s = f64::from(acc);
                for kk in k0..k0 + 16 {
                    s += a[r * k + kk].to_f64() * b[c * k + kk].to_f64();
                }
                acc = s as f32;
            }
            assert_eq!(f32::from_bits(got[r * 8 + c]), acc, "C[{r}][{c}]");
        }
    }
}

/// PTX ISA §9.7.14.5.9, m16n8k32 `.s8`: A element i of a lane is at row groupID (i % 8 < 4)
/// or groupID + 8, column threadID_in_group * 4 + (i & 3) (+ 16 for i >= 8); B element i at
/// row threadID_in_group * 4 + (i & 3) (+ 16 for i >= 4), column groupID; C element i at row
/// groupID (i < 2) or groupID + 8, column threadID_in_group * 2 + (i & 1).
#[test]
fn nvrtc_int8_mma_is_exact() {
    let (mut dev, m) = gemm_module();
    let mut rng = Rng(99);
    let a: Vec<i8> = (0..16 * 32).map(|_| rng.next() as i8).collect(); // a[r * 32 + k]
    let b: Vec<i8> = (0..32 * 8).map(|_| rng.next() as i8).collect(); // b[k * 8 + n]
    let mut fa = vec![0u32; 32 * 4];
    let mut fb = vec![0u32; 32 * 2];
    for lane in 0..32 {
        let (g, t) = (lane / 4, lane % 4);
        for i in 0..16 {
            let row = if i % 8 < 4 { g } else { g + 8 };
            let col = t * 4 + (i & 3) + if i >= 8 { 16 } else { 0 };
            fa[lane * 4 + i / 4] |= u32::from(a[row * 32 + col] as u8) << (8 * (i % 4));
        }
        for i in 0..8 {
            let row = t * 4 + (i & 3) + if i >= 4 { 16 } else { 0 };
            fb[lane * 2 + i / 4] |= u32::from(b[row * 8 + g] as u8) << (8 * (i % 4));
        }
    }
    let pa = upload_u32(&mut dev, &fa);
    let pb = upload_u32(&mut dev, &fb);
    let pc = dev.alloc(32 * 4 * 4).unwrap();
    launch(
        &dev,
        &m,
        "i8gemm_16x8",
        &cfg([1, 1, 1], [32, 1, 1]),
        &[Arg::ptr(pa), Arg::ptr(pb), Arg::ptr(pc)],
    )
    .unwrap();
    let got = read_u32(&dev, pc, 32 * 4);
    for lane in 0..32 {
        let (g, t) = (lane / 4, lane % 4);
        for i in 0..4 {
            let row = if i < 2 { g } else { g + 8 };
            let col = t * 2 + (i & 1);
            let want: i32 = (0..32)
                .map(|k| i32::from(a[row * 32 + k]) * i32::from(b[k * 8 + col]))
                .sum();
            assert_eq!(got[lane * 4 + i] as i32, want, "D[{row}][{col}]");
        }
    }
}
