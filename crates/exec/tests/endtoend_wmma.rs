//! `wmma` kernels written with `nvcuda::wmma` and compiled by NVRTC 12.9
//! (`tests/corpus/nvrtc/wmma.cu` → `tests/corpus/nvrtc_wmma_sm70.ptx`, `…_sm80.ptx`), and a
//! tiled int8 GEMM with `cp.async` + `ldmatrix` + `mma.sync.m16n8k32`
//! (`tests/corpus/nvrtc/igemm_sm80.cu` → `tests/corpus/nvrtc_igemm_sm80.ptx`), against
//! references computed here.
//!
//! The wmma kernels move the fragments only through `wmma.load`/`wmma.store` (the portable
//! use), with leading dimensions larger than the tiles and row/column-major layouts: every
//! element of A, B and C holds a distinct value (as far as the type has values), so a wrong
//! fragment position, stride or layout changes D. Floating-point values have at most 8
//! significant bits and moderate exponents, so every product and the whole sum are exact in
//! f64 and the reference rounds once to D's type (docs/spec-notes.md: exact products summed in
//! ascending k, one rounding); integers are exact.

mod common;
use common::*;
use exec::Arg;
use half::{bf16, f16};

#[derive(Clone, Copy, PartialEq)]
enum Ty {
    F16,
    Bf16,
    Tf32,
    F32,
    F64,
    S8,
    U8,
    S32,
}

impl Ty {
    fn bytes(self) -> usize {
        match self {
            Ty::S8 | Ty::U8 => 1,
            Ty::F16 | Ty::Bf16 => 2,
            Ty::Tf32 | Ty::F32 | Ty::S32 => 4,
            Ty::F64 => 8,
        }
    }
    /// The encoding of `v` (exact in the type by construction); `.tf32` gets noise in the
    /// 13 low bits the instruction ignores.
    fn encode(self, v: f64, noise: u32) -> Vec<u8> {
        match self {
            Ty::F16 => f16::from_f64(v).to_bits().to_le_bytes().to_vec(),
            Ty::Bf16 => bf16::from_f64(v).to_bits().to_le_bytes().to_vec(),
            Ty::Tf32 => ((v as f32).to_bits() | (noise & 0x1fff))
                .to_le_bytes()
                .to_vec(),
            Ty::F32 => (v as f32).to_le_bytes().to_vec(),
            Ty::F64 => v.to_le_bytes().to_vec(),
            Ty::S8 => vec![v as i64 as i8 as u8],
            Ty::U8 => vec![v as i64 as u8],
            Ty::S32 => (v as i64 as i32).to_le_bytes().to_vec(),
        }
    }
    fn decode(self, b: &[u8]) -> f64 {
        match self {
            Ty::F16 => f16::from_bits(u16::from_le_bytes([b[0], b[1]])).to_f64(),
            Ty::F32 => f64::from(f32::from_le_bytes([b[0], b[1], b[2], b[3]])),
            Ty::F64 => f64::from_le_bytes(b[..8].try_into().unwrap()),
            Ty::S32 => f64::from(i32::from_le_bytes([b[0], b[1], b[2], b[3]])),
            _ => unreachable!("not a D type"),
        }
    }
    /// The exact sum rounded once to this (D) type; `.s32` saturates when `sat`.
    fn round(self, exact: f64, sat: bool) -> f64 {
        match self {
            Ty::F16 => f16::from_f64(exact).to_f64(),
            Ty::F32 => f64::from(exact as f32),
            Ty::S32 if sat => exact.clamp(f64::from(i32::MIN), f64::from(i32::MAX)),
            Ty::S32 => f64::from(exact as i64 as i32),
            _ => exact,
        }
    }
}

/// A distinct value for each `n` with 8 significant bits: (128 + n % 128) · 2^(n / 128 − 8),
/// negative for every third `n`.
fn fval(n: usize) -> f64 {
    let v = (128 + n % 128) as f64 * 2f64.powi((n / 128) as i32 - 8);
    if n.is_multiple_of(3) {
        -v
    } else {
        v
    }
}

/// One matrix in memory: `rows x cols`, column-major or not, leading dimension `ld`.
#[derive(Clone, Copy)]
struct Mat {
    col: bool,
    ld: usize,
}

impl Mat {
    fn index(self, r: usize, c: usize) -> usize {
        if self.col {
            c * self.ld + r
        } else {
            r * self.ld + c
        }
    }
    fn len(self, rows: usize, cols: usize) -> usize {
        if self.col {
            self.ld * cols
        } else {
            self.ld * rows
        }
    }
}

struct Case {
    kernel: &'static str,
    mnk: (usize, usize, usize),
    ty: (Ty, Ty, Ty, Ty),
    mats: [Mat; 4],
    sat: bool,
}

fn upload(dev: &mut exec::Device, bytes: &[u8]) -> exec::DevicePtr {
    let p = dev.alloc(bytes.len().max(1) as u64).unwrap();
    dev.write(p, bytes).unwrap();
    p
}

fn run_case(file: &str, case: &Case) {
    let text = std::fs::read_to_string(format!(
        "{}/../../tests/corpus/{file}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let (mut dev, module) = load(file, &text);
    let (m, n, k) = case.mnk;
    let (ta, tb, tc, td) = case.ty;
    let [ma, mb, mc, md] = case.mats;
    let int = ta == Ty::S8 || ta == Ty::U8;
    let a = |i: usize, kk: usize| match ta {
        Ty::S8 => ((i * k + kk) as i64 * 37 % 256 - 128) as f64,
        Ty::U8 => ((i * k + kk) % 256) as f64,
        _ => fval(i * k + kk),
    };
    let b = |kk: usize, j: usize| match tb {
        Ty::S8 => ((kk * n + j) as i64 * 53 % 256 - 128) as f64,
        Ty::U8 => ((kk * n + j) * 7 % 256) as f64,
        _ => fval(kk * n + j + 5),
    };
    let c = |i: usize, j: usize| {
        if int {
            // Half the accumulators near the top of the range: `.satfinite` clamps them.
            let base = if (i + j).is_multiple_of(2) {
                i32::MAX - 40_000
            } else {
                -7
            };
            f64::from(base) + (i * n + j) as f64 * 3.0
        } else {
            fval(i * n + j + 11)
        }
    };
    let fill = |rows: usize, cols: usize, mat: Mat, ty: Ty, f: &dyn Fn(usize, usize) -> f64| {
        let mut buf = vec![0u8; mat.len(rows, cols) * ty.bytes()];
        for r in 0..rows {
            for cc in 0..cols {
                let at = mat.index(r, cc) * ty.bytes();
                let enc = ty.encode(f(r, cc), (r * 131 + cc * 17) as u32);
                buf[at..at + ty.bytes()].copy_from_slice(&enc);
            }
        }
        buf
    };
    let pa = upload(&mut dev, &fill(m, k, ma, ta, &a));
    let pb = upload(&mut dev, &fill(k, n, mb, tb, &b));
    let pc = upload(&mut dev, &fill(m, n, mc, tc, &c));
    let d_len = md.len(m, n) * td.bytes();
    let pd = upload(&mut dev, &vec![0u8; d_len]);
    launch(
        &dev,
        &module,
        case.kernel,
        &cfg([1, 1, 1], [32, 1, 1]),
        &[
            Arg::ptr(pa),
            Arg::ptr(pb),
            Arg::ptr(pc),
            Arg::ptr(pd),
            Arg::u32(ma.ld as u32),
            Arg::u32(mb.ld as u32),
            Arg::u32(mc.ld as u32),
            Arg::u32(md.ld as u32),
        ],
    )
    .unwrap();
    let got = dev.read(pd, d_len as u64).unwrap();
    for i in 0..m {
        for j in 0..n {
            let mut exact = c(i, j);
            for kk in 0..k {
                exact += a(i, kk) * b(kk, j);
            }
            let want = td.round(exact, case.sat);
            let at = md.index(i, j) * td.bytes();
            let v = td.decode(&got[at..at + td.bytes()]);
            assert_eq!(v, want, "{}: D[{i}][{j}] (exact {exact})", case.kernel);
        }
    }
    // Elements between the columns (or rows) of D that the leading dimension skips stay 0.
    let written: std::collections::HashSet<usize> = (0..m)
        .flat_map(|i| (0..n).map(move |j| md.index(i, j)))
        .collect();
    for e in 0..md.len(m, n) {
        if !written.contains(&e) {
            let at = e * td.bytes();
            assert!(
                got[at..at + td.bytes()].iter().all(|&x| x == 0),
                "{}: gap {e}",
                case.kernel
            );
        }
    }
}

const fn mat(col: bool, ld: usize) -> Mat {
    Mat { col, ld }
}

const F16_CASES: &[Case] = &[
    Case {
        kernel: "wmma_f16_m16n16k16",
        mnk: (16, 16, 16),
        ty: (Ty::F16, Ty::F16, Ty::F32, Ty::F32),
        mats: [mat(false, 24), mat(true, 20), mat(false, 20), mat(true, 18)],
        sat: false,
    },
    Case {
        kernel: "wmma_f16_m32n8k16",
        mnk: (32, 8, 16),
        ty: (Ty::F16, Ty::F16, Ty::F32, Ty::F32),
        mats: [mat(true, 40), mat(false, 16), mat(true, 36), mat(false, 12)],
        sat: false,
    },
    Case {
        kernel: "wmma_f16acc_m8n32k16",
        mnk: (8, 32, 16),
        ty: (Ty::F16, Ty::F16, Ty::F16, Ty::F16),
        mats: [
            mat(false, 20),
            mat(false, 40),
            mat(false, 36),
            mat(true, 12),
        ],
        sat: false,
    },
];

#[test]
fn nvrtc_wmma_f16_kernels_for_sm70_match_the_reference() {
    for case in F16_CASES {
        run_case("nvrtc_wmma_sm70.ptx", case);
    }
}

#[test]
fn nvrtc_wmma_kernels_for_sm80_match_the_reference() {
    let sm80 = [
        Case {
            kernel: "wmma_u8_m16n16k16",
            mnk: (16, 16, 16),
            ty: (Ty::U8, Ty::U8, Ty::S32, Ty::S32),
            mats: [
                mat(false, 32),
                mat(true, 16),
                mat(false, 16),
                mat(false, 20),
            ],
            sat: false,
        },
        Case {
            kernel: "wmma_s8_m32n8k16_sat",
            mnk: (32, 8, 16),
            ty: (Ty::S8, Ty::S8, Ty::S32, Ty::S32),
            mats: [mat(true, 32), mat(false, 16), mat(false, 8), mat(true, 32)],
            sat: true,
        },
        Case {
            kernel: "wmma_bf16_m32n8k16",
            mnk: (32, 8, 16),
            ty: (Ty::Bf16, Ty::Bf16, Ty::F32, Ty::F32),
            mats: [mat(false, 16), mat(true, 24), mat(false, 8), mat(false, 8)],
            sat: false,
        },
        Case {
            kernel: "wmma_tf32_m16n16k8",
            mnk: (16, 16, 8),
            ty: (Ty::Tf32, Ty::Tf32, Ty::F32, Ty::F32),
            mats: [
                mat(false, 8),
                mat(false, 16),
                mat(false, 16),
                mat(false, 16),
            ],
            sat: false,
        },
        Case {
            kernel: "wmma_f64_m8n8k4",
            mnk: (8, 8, 4),
            ty: (Ty::F64, Ty::F64, Ty::F64, Ty::F64),
            mats: [mat(true, 8), mat(false, 8), mat(true, 8), mat(true, 10)],
            sat: false,
        },
    ];
    for case in F16_CASES.iter().chain(&sm80) {
        run_case("nvrtc_wmma_sm80.ptx", case);
    }
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

#[test]
fn nvrtc_tiled_int8_gemm_is_exactly_the_reference() {
    let text = std::fs::read_to_string(format!(
        "{}/../../tests/corpus/nvrtc_igemm_sm80.ptx",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let (mut dev, module) = load("nvrtc_igemm_sm80.ptx", &text);
    let (m, n, k) = (128usize, 96usize, 256usize);
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let a: Vec<i8> = (0..m * k).map(|_| rng.next() as i8).collect();
    let bt: Vec<u8> = (0..n * k).map(|_| rng.next() as u8).collect(); // Bt[j][kk] = B[kk][j]
    let pa = upload(&mut dev, &a.iter().map(|&x| x as u8).collect::<Vec<_>>());
    let pb = upload(&mut dev, &bt);
    let pd = upload(&mut dev, &vec![0u8; m * n * 4]);
    launch(
        &dev,
        &module,
        "igemm_s8u8",
        &cfg([(n / 32) as u32, (m / 32) as u32, 1], [128, 1, 1]),
        &[
            Arg::ptr(pa),
            Arg::ptr(pb),
            Arg::ptr(pd),
            Arg::u32(m as u32),
            Arg::u32(n as u32),
            Arg::u32(k as u32),
        ],
    )
    .unwrap();
    let got = read_u32(&dev, pd, m * n);
    for i in 0..m {
        for j in 0..n {
            let want: i32 = (0..k)
                .map(|kk| i32::from(a[i * k + kk]) * i32::from(bt[j * k + kk]))
                .sum();
            assert_eq!(got[i * n + j] as i32, want, "D[{i}][{j}]");
        }
    }
}
