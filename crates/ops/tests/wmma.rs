//! `ops::wmma`: the fragment layout covers every matrix element equally often and agrees with
//! the `mma.sync` C layout of the PTX ISA tables (§9.7.14.5.8) where ptxvm's choice rests on it;
//! `wmma.load` → `wmma.mma` → `wmma.store` through [`accesses`] on a byte memory, for every
//! executed type combination, both layouts of every operand and padded strides, gives the
//! reference GEMM computed here (values exact in f64, one rounding to D's type with the `half`
//! crate); NaN and infinity inputs give the canonical NaN.

use half::{bf16, f16};
use ops::float::Rounding;
use ops::mma::Frag;
use ops::wmma::{accesses, matrix_dims, position, regs, wmma_mma, Elem, MmaSpec, Operand, Shape};

const SHAPES: [Shape; 7] = [
    Shape::M16n16k16,
    Shape::M32n8k16,
    Shape::M8n32k16,
    Shape::M16n16k8,
    Shape::M8n8k4,
    Shape::M8n8k32,
    Shape::M8n8k128,
];

/// The element types each operand of a shape takes (PTX ISA 8.x §9.7.14.4.1).
fn types(shape: Shape, op: Operand) -> Vec<Elem> {
    match (shape, op) {
        (Shape::M16n16k8, Operand::C) => vec![Elem::F32],
        (Shape::M16n16k8, _) => vec![Elem::Tf32],
        (Shape::M8n8k4, _) => vec![Elem::F64],
        (Shape::M8n8k32 | Shape::M8n8k128, Operand::C) => vec![Elem::S32],
        (Shape::M8n8k32, _) => vec![Elem::S4, Elem::U4],
        (Shape::M8n8k128, _) => vec![Elem::B1],
        (_, Operand::C) => vec![Elem::F16, Elem::F32, Elem::S32],
        _ => vec![Elem::F16, Elem::Bf16, Elem::S8, Elem::U8],
    }
}

fn bits(e: Elem) -> usize {
    match e {
        Elem::B1 => 1,
        Elem::S4 | Elem::U4 => 4,
        Elem::S8 | Elem::U8 => 8,
        Elem::F16 | Elem::Bf16 => 16,
        Elem::F64 => 64,
        _ => 32,
    }
}

#[test]
fn every_element_is_held_equally_often_and_inside_the_matrix() {
    for shape in SHAPES {
        for op in [Operand::A, Operand::B, Operand::C] {
            for e in types(shape, op) {
                let (rows, cols) = matrix_dims(shape, op);
                let per = if e == Elem::F64 { 1 } else { 32 / bits(e) };
                let n = regs(shape, op, e) * per;
                let mut count = vec![vec![0usize; cols]; rows];
                for lane in 0..32 {
                    for i in 0..n {
                        let (r, c) = position(shape, op, e, lane, i);
                        assert!(
                            r < rows && c < cols,
                            "{shape:?} {op:?} {e:?} lane {lane} {i}"
                        );
                        count[r][c] += 1;
                    }
                }
                let copies = 32 * n / (rows * cols);
                assert!(copies >= 1, "{shape:?} {op:?} {e:?}");
                for row in &count {
                    for &x in row {
                        assert_eq!(x, copies, "{shape:?} {op:?} {e:?}");
                    }
                }
            }
        }
    }
}

#[test]
fn register_counts_are_the_manuals() {
    // §9.7.14.4.1: (shape, operand, type) → registers per lane.
    let table = [
        (Shape::M16n16k16, Operand::A, Elem::F16, 8),
        (Shape::M8n32k16, Operand::B, Elem::F16, 8),
        (Shape::M16n16k16, Operand::C, Elem::F16, 4),
        (Shape::M32n8k16, Operand::C, Elem::F32, 8),
        (Shape::M16n16k16, Operand::A, Elem::S8, 2),
        (Shape::M32n8k16, Operand::A, Elem::U8, 4),
        (Shape::M32n8k16, Operand::B, Elem::S8, 1),
        (Shape::M8n32k16, Operand::A, Elem::S8, 1),
        (Shape::M8n32k16, Operand::B, Elem::U8, 4),
        (Shape::M16n16k16, Operand::B, Elem::Bf16, 4),
        (Shape::M32n8k16, Operand::A, Elem::Bf16, 8),
        (Shape::M32n8k16, Operand::B, Elem::Bf16, 2),
        (Shape::M8n32k16, Operand::A, Elem::Bf16, 2),
        (Shape::M8n32k16, Operand::B, Elem::Bf16, 8),
        (Shape::M16n16k8, Operand::A, Elem::Tf32, 4),
        (Shape::M16n16k8, Operand::B, Elem::Tf32, 4),
        (Shape::M16n16k16, Operand::C, Elem::S32, 8),
        (Shape::M8n8k4, Operand::A, Elem::F64, 1),
        (Shape::M8n8k4, Operand::C, Elem::F64, 2),
    ];
    for (shape, op, e, n) in table {
        assert_eq!(regs(shape, op, e), n, "{shape:?} {op:?} {e:?}");
    }
}

#[test]
fn the_f32_accumulator_is_two_mma_sync_c_tiles() {
    // m16n8k16's C (§9.7.14.5.8): row = groupID for c0, c1 and groupID + 8 for c2, c3;
    // col = threadID_in_group * 2 + (i & 1). The second 16x8 tile (columns 8..15) follows.
    for lane in 0..32 {
        for i in 0..8 {
            let row = lane / 4 + if i % 4 >= 2 { 8 } else { 0 };
            let col = 8 * (i / 4) + (lane % 4) * 2 + (i & 1);
            assert_eq!(
                position(Shape::M16n16k16, Operand::C, Elem::F32, lane, i),
                (row, col)
            );
            // m8n32k16 is m32n8k16 transposed.
            let (r, c) = position(Shape::M32n8k16, Operand::C, Elem::F32, lane, i);
            assert_eq!(
                position(Shape::M8n32k16, Operand::C, Elem::F32, lane, i),
                (c, r)
            );
        }
    }
}

/// A distinct value for each `n` with 8 significant bits.
fn fval(n: usize) -> f64 {
    let v = (128 + n % 128) as f64 * 2f64.powi((n / 128) as i32 - 8);
    if n.is_multiple_of(3) {
        -v
    } else {
        v
    }
}

fn encode(e: Elem, v: f64) -> u64 {
    match e {
        Elem::F16 => u64::from(f16::from_f64(v).to_bits()),
        Elem::Bf16 => u64::from(bf16::from_f64(v).to_bits()),
        // Noise in the low 13 bits, which `.tf32` ignores.
        Elem::Tf32 => u64::from((v as f32).to_bits() | 0x0abc),
        Elem::F32 => u64::from((v as f32).to_bits()),
        Elem::F64 => v.to_bits(),
        Elem::S8 => u64::from(v as i64 as i8 as u8),
        Elem::U8 => v as u64 & 0xff,
        Elem::S4 | Elem::U4 => v as i64 as u64 & 0xf,
        Elem::B1 => v as u64 & 1,
        Elem::S32 => u64::from(v as i64 as i32 as u32),
    }
}

fn decode(e: Elem, x: u64) -> f64 {
    match e {
        Elem::F16 => f16::from_bits(x as u16).to_f64(),
        Elem::F32 => f64::from(f32::from_bits(x as u32)),
        Elem::F64 => f64::from_bits(x),
        _ => f64::from(x as u32 as i32),
    }
}

/// Loads a fragment of every lane from `mem` with [`accesses`].
fn load(
    mem: &[u8],
    shape: Shape,
    op: Operand,
    e: Elem,
    col: bool,
    stride: Option<u32>,
) -> [Frag; 32] {
    std::array::from_fn(|lane| {
        let mut f = [0u64; 8];
        for a in accesses(shape, op, e, col, stride, lane) {
            let at = a.offset as usize;
            let mut v = 0u64;
            for (k, b) in mem[at..at + a.bytes as usize].iter().enumerate() {
                v |= u64::from(*b) << (8 * k);
            }
            f[a.reg] |= v << a.shift;
        }
        f
    })
}

fn store(mem: &mut [u8], shape: Shape, e: Elem, col: bool, stride: Option<u32>, d: &[Frag; 32]) {
    for (lane, f) in d.iter().enumerate() {
        for a in accesses(shape, Operand::C, e, col, stride, lane) {
            let v = f[a.reg] >> a.shift;
            for k in 0..a.bytes as usize {
                mem[a.offset as usize + k] = (v >> (8 * k)) as u8;
            }
        }
    }
}

/// A matrix in memory: element (r, c) at `r·ld + c` (row-major) or `c·ld + r`.
fn lay_out(
    rows: usize,
    cols: usize,
    col: bool,
    ld: usize,
    e: Elem,
    f: impl Fn(usize, usize) -> f64,
) -> Vec<u8> {
    let nb = bits(e);
    let mut mem = vec![0u8; (ld * if col { cols } else { rows } * nb).div_ceil(8)];
    for r in 0..rows {
        for c in 0..cols {
            let bit = if col { c * ld + r } else { r * ld + c } * nb;
            let v = encode(e, f(r, c));
            for k in 0..nb {
                if v >> k & 1 != 0 {
                    mem[(bit + k) / 8] |= 1 << ((bit + k) % 8);
                }
            }
        }
    }
    mem
}

fn round_trip(spec: MmaSpec, layouts: [bool; 4], pad: usize) {
    let shape = spec.shape;
    let int = !matches!(spec.a, Elem::F16 | Elem::Bf16 | Elem::Tf32 | Elem::F64);
    let (m, n, k) = {
        let (m, kk) = matrix_dims(shape, Operand::A);
        (m, matrix_dims(shape, Operand::B).1, kk)
    };
    let av = |i: usize, kk: usize| match spec.a {
        Elem::S8 => ((i * k + kk) as i64 * 37 % 256 - 128) as f64,
        Elem::U8 => ((i * k + kk) % 256) as f64,
        Elem::S4 => ((i * k + kk) * 5 % 16) as f64 - 8.0,
        Elem::U4 => ((i * k + kk) * 3 % 16) as f64,
        Elem::B1 => ((i * k + kk) * 7 % 5 % 2) as f64,
        _ => fval(i * k + kk),
    };
    let bv = |kk: usize, j: usize| match spec.b {
        Elem::S8 => ((kk * n + j) as i64 * 53 % 256 - 128) as f64,
        Elem::U8 => ((kk * n + j) * 7 % 256) as f64,
        Elem::S4 => ((kk * n + j) * 11 % 16) as f64 - 8.0,
        Elem::U4 => ((kk * n + j) * 13 % 16) as f64,
        Elem::B1 => ((kk * n + j) * 3 % 7 % 2) as f64,
        _ => fval(kk * n + j + 5),
    };
    let cv = |i: usize, j: usize| {
        if int {
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
    let lds = [
        if layouts[0] { m } else { k } + pad,
        if layouts[1] { k } else { n } + pad,
        if layouts[2] { m } else { n } + pad,
        if layouts[3] { m } else { n } + pad,
    ];
    let stride = |x: usize| (pad > 0).then_some(lds[x] as u32);
    let ma = lay_out(m, k, layouts[0], lds[0], spec.a, av);
    let mb = lay_out(k, n, layouts[1], lds[1], spec.b, bv);
    let mc = lay_out(m, n, layouts[2], lds[2], spec.c, cv);
    let fa = load(&ma, shape, Operand::A, spec.a, layouts[0], stride(0));
    let fb = load(&mb, shape, Operand::B, spec.b, layouts[1], stride(1));
    let fc = load(&mc, shape, Operand::C, spec.c, layouts[2], stride(2));
    let d = wmma_mma(spec, &fa, &fb, &fc);
    let db = bits(spec.d) / 8;
    let mut md = vec![0u8; lds[3] * if layouts[3] { n } else { m } * db];
    store(&mut md, shape, spec.d, layouts[3], stride(3), &d);
    for i in 0..m {
        for j in 0..n {
            let mut exact = cv(i, j);
            for kk in 0..k {
                exact += match (spec.a, spec.b1_and) {
                    (Elem::B1, true) => av(i, kk) * bv(kk, j),
                    (Elem::B1, false) => (av(i, kk) - bv(kk, j)).abs(),
                    _ => av(i, kk) * bv(kk, j),
                };
            }
            let want = match spec.d {
                Elem::F16 => f16::from_f64(exact).to_f64(),
                Elem::F32 => f64::from(exact as f32),
                Elem::S32 if spec.satfinite => {
                    exact.clamp(f64::from(i32::MIN), f64::from(i32::MAX))
                }
                Elem::S32 => f64::from(exact as i64 as i32),
                _ => exact,
            };
            let at = if layouts[3] {
                j * lds[3] + i
            } else {
                i * lds[3] + j
            } * db;
            let mut raw = [0u8; 8];
            raw[..db].copy_from_slice(&md[at..at + db]);
            let got = decode(spec.d, u64::from_le_bytes(raw));
            assert_eq!(got, want, "{spec:?} {layouts:?} pad {pad}: D[{i}][{j}]");
        }
    }
}

#[test]
fn load_mma_store_gives_the_reference_gemm_for_every_form_and_layout() {
    let mut specs = Vec::new();
    for shape in [Shape::M16n16k16, Shape::M32n8k16, Shape::M8n32k16] {
        for (c, d) in [
            (Elem::F16, Elem::F16),
            (Elem::F16, Elem::F32),
            (Elem::F32, Elem::F16),
            (Elem::F32, Elem::F32),
        ] {
            specs.push((shape, Elem::F16, Elem::F16, c, d, false));
        }
        specs.push((shape, Elem::Bf16, Elem::Bf16, Elem::F32, Elem::F32, false));
        for (a, b) in [
            (Elem::S8, Elem::S8),
            (Elem::U8, Elem::S8),
            (Elem::S8, Elem::U8),
            (Elem::U8, Elem::U8),
        ] {
            for sat in [false, true] {
                specs.push((shape, a, b, Elem::S32, Elem::S32, sat));
            }
        }
    }
    specs.push((
        Shape::M16n16k8,
        Elem::Tf32,
        Elem::Tf32,
        Elem::F32,
        Elem::F32,
        false,
    ));
    specs.push((
        Shape::M8n8k4,
        Elem::F64,
        Elem::F64,
        Elem::F64,
        Elem::F64,
        false,
    ));
    for (shape, a, b, c, d, satfinite) in specs {
        let spec = MmaSpec {
            shape,
            a,
            b,
            c,
            d,
            satfinite,
            rnd: Rounding::Rn,
            b1_and: false,
        };
        for l in 0..16u32 {
            let layouts = [l & 1 != 0, l & 2 != 0, l & 4 != 0, l & 8 != 0];
            round_trip(spec, layouts, (l % 3 * 8) as usize);
        }
    }
}

#[test]
fn sub_byte_load_mma_store_gives_the_reference_gemm() {
    // A row-major, B column-major (the only layouts the sub-byte forms have); C and D both ways;
    // padding keeps each register's 32 bits whole.
    for (shape, e, b1_and, pad) in [
        (Shape::M8n8k32, Elem::S4, false, 8),
        (Shape::M8n8k32, Elem::U4, false, 16),
        (Shape::M8n8k128, Elem::B1, false, 32),
        (Shape::M8n8k128, Elem::B1, true, 64),
    ] {
        for satfinite in [false, true] {
            let spec = MmaSpec {
                shape,
                a: e,
                b: e,
                c: Elem::S32,
                d: Elem::S32,
                satfinite,
                rnd: Rounding::Rn,
                b1_and,
            };
            for l in 0..4u32 {
                let cd = [l & 1 != 0, l & 2 != 0];
                round_trip(spec, [false, true, cd[0], cd[1]], pad);
                round_trip(spec, [false, true, cd[0], cd[1]], 0);
            }
        }
    }
}

#[test]
fn nan_and_infinity_inputs_give_the_canonical_nan() {
    // A = inf at (0, 0), B = 0 everywhere but (1, 1) = NaN: D[0][j] = inf·0 = NaN for every j,
    // D[i][1] = x·NaN = NaN; the rest is C.
    let spec = MmaSpec {
        shape: Shape::M16n16k16,
        a: Elem::F16,
        b: Elem::F16,
        c: Elem::F32,
        d: Elem::F32,
        satfinite: false,
        rnd: Rounding::Rn,
        b1_and: false,
    };
    let ma = lay_out(16, 16, false, 16, Elem::F16, |r, c| {
        if (r, c) == (0, 0) {
            f64::INFINITY
        } else {
            1.0
        }
    });
    let mb = lay_out(16, 16, false, 16, Elem::F16, |r, c| {
        if (r, c) == (1, 1) {
            f64::NAN
        } else {
            0.0
        }
    });
    let mc = lay_out(16, 16, false, 16, Elem::F32, |r, c| (r * 16 + c) as f64);
    let fa = load(&ma, spec.shape, Operand::A, spec.a, false, None);
    let fb = load(&mb, spec.shape, Operand::B, spec.b, false, None);
    let fc = load(&mc, spec.shape, Operand::C, spec.c, false, None);
    let d = wmma_mma(spec, &fa, &fb, &fc);
    let mut md = vec![0u8; 16 * 16 * 4];
    store(&mut md, spec.shape, spec.d, false, None, &d);
    for r in 0..16 {
        for c in 0..16 {
            let at = (r * 16 + c) * 4;
            let got = u32::from_le_bytes(md[at..at + 4].try_into().unwrap());
            let want = if r == 0 || c == 1 {
                0x7fff_ffff
            } else {
                ((r * 16 + c) as f32).to_bits()
            };
            assert_eq!(got, want, "D[{r}][{c}]");
        }
    }
}
