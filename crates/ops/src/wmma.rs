//! Warp-level `wmma.load`, `wmma.store` and `wmma.mma` (PTX ISA 8.x §9.7.14.4) on top of the
//! `mma.sync` machinery of [`crate::mma`].
//!
//! The PTX ISA leaves the distribution of a `wmma` fragment over the warp's lanes unspecified
//! ("the mapping of matrix elements into fragments is unspecified"). ptxvm lays the fragments
//! out the way sm_80 maps `wmma` onto `mma.sync` (docs/spec-notes.md, "wmma fragments"):
//! - A of M x K is cut into tiles of `mma.sync`'s A operand (16x16 for `.f16`/`.bf16`/`.s8`/
//!   `.u8`, 16x8 for `.tf32`, 8x4 for `.f64`), B of K x N into tiles of its B operand (K x 8)
//!   and C/D of M x N into tiles of its C operand (16x8, 8x8 for `.f64`); tiles are numbered
//!   row by row and a lane's fragment is the concatenation of its `mma.sync` fragments of
//!   every tile, in that order ([`crate::mma::a_pos`], [`crate::mma::b_pos`],
//!   [`crate::mma::c_pos`]).
//! - When the fragment has more registers than the tiles need (the `.f16` A and B fragments:
//!   eight registers whatever the shape, twice or four times what the elements need, a
//!   legacy of sm_70's duplicated layout), the tiles repeat; `wmma.load` fills every copy and
//!   `wmma.mma` reads the first.
//! - `m8n32k16` is `m32n8k16` transposed (`Dᵀ = Bᵀ·Aᵀ + Cᵀ`): its A is laid out as
//!   `m32n8k16`'s B, its B as that A, its C/D as that C/D, each transposed.
//!
//! A program that only moves fragments through `wmma.load`/`wmma.store` (the only portable
//! use) gets the same results on any layout; one that reads fragment registers directly
//! depends on this choice.
//!
//! Arithmetic is `mma.sync`'s: exact products summed in f64 after C in ascending k, rounded
//! once to D's type; integers exact (wrapping, or clamped with `.satfinite`); `.f64` a chain of
//! fused multiply-adds in ascending k, each rounded by the instruction's rounding modifier.

use crate::float::Rounding;
use crate::half::{h_to_f64, HalfFormat};
use crate::mma::{self, Frag, MmaKind};

/// The `wmma` shapes that are executed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    M16n16k16,
    M32n8k16,
    M8n32k16,
    M16n16k8,
    M8n8k4,
    /// `.s4`/`.u4` A and B.
    M8n8k32,
    /// `.b1` A and B.
    M8n8k128,
}

/// The element type of a fragment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Elem {
    F16,
    Bf16,
    Tf32,
    F32,
    F64,
    S8,
    U8,
    S32,
    S4,
    U4,
    B1,
}

/// Which operand a fragment is: A (M x K), B (K x N) or the accumulator C/D (M x N).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    A,
    B,
    C,
}

/// (M, N, K).
pub fn dims(shape: Shape) -> (usize, usize, usize) {
    match shape {
        Shape::M16n16k16 => (16, 16, 16),
        Shape::M32n8k16 => (32, 8, 16),
        Shape::M8n32k16 => (8, 32, 16),
        Shape::M16n16k8 => (16, 16, 8),
        Shape::M8n8k4 => (8, 8, 4),
        Shape::M8n8k32 => (8, 8, 32),
        Shape::M8n8k128 => (8, 8, 128),
    }
}

/// (rows, columns) of an operand.
pub fn matrix_dims(shape: Shape, op: Operand) -> (usize, usize) {
    let (m, n, k) = dims(shape);
    match op {
        Operand::A => (m, k),
        Operand::B => (k, n),
        Operand::C => (m, n),
    }
}

/// Bits of one element in memory and in a register.
pub fn elem_bits(e: Elem) -> u32 {
    match e {
        Elem::B1 => 1,
        Elem::S4 | Elem::U4 => 4,
        Elem::S8 | Elem::U8 => 8,
        Elem::F16 | Elem::Bf16 => 16,
        Elem::Tf32 | Elem::F32 | Elem::S32 => 32,
        Elem::F64 => 64,
    }
}

fn per_reg(e: Elem) -> usize {
    if e == Elem::F64 {
        1
    } else {
        32 / elem_bits(e) as usize
    }
}

/// Registers per lane of a fragment (PTX ISA 8.x §9.7.14.4.1): the elements a lane holds,
/// packed, except the `.f16` A and B fragments, which are always eight registers.
pub fn regs(shape: Shape, op: Operand, e: Elem) -> usize {
    if e == Elem::F16 && op != Operand::C {
        return 8;
    }
    let (r, c) = matrix_dims(shape, op);
    (r * c / 32).div_ceil(per_reg(e))
}

/// The `mma.sync` operand whose tiles a fragment is made of.
fn tile_kind(op: Operand, e: Elem) -> MmaKind {
    match (op, e) {
        (Operand::C, Elem::F16) => MmaKind::M16n8k16F16,
        (Operand::C, Elem::F64) | (_, Elem::F64) => MmaKind::M8n8k4F64,
        (Operand::C, _) => MmaKind::M16n8k16F32(HalfFormat::F16),
        (_, Elem::Tf32) => MmaKind::M16n8k8Tf32,
        (_, Elem::S8 | Elem::U8) => MmaKind::I8 {
            k32: false,
            a_signed: true,
            b_signed: true,
        },
        _ => MmaKind::M16n8k16F32(HalfFormat::F16),
    }
}

/// Where element `i` of lane `lane`'s fragment sits: (row, column) of the operand's matrix.
/// Elements are numbered across the registers, low bits first.
pub fn position(shape: Shape, op: Operand, e: Elem, lane: usize, i: usize) -> (usize, usize) {
    if matches!(shape, Shape::M8n8k32 | Shape::M8n8k128) {
        // The sub-byte shapes are `mma.sync`'s m8n8k32/m8n8k128 (PTX ISA 8.x §9.7.14.5.11):
        // A row groupID, columns threadID_in_group·(elements per register) + i; B the
        // transpose; C row groupID, columns 2·threadID_in_group + i.
        let (g, t) = (lane >> 2, lane % 4);
        let per = per_reg(e);
        return match op {
            Operand::A => (g, t * per + i % per),
            Operand::B => (t * per + i % per, g),
            Operand::C => (g, t * 2 + i % 2),
        };
    }
    if shape == Shape::M8n32k16 {
        let (t_op, t_shape) = match op {
            Operand::A => (Operand::B, Shape::M32n8k16),
            Operand::B => (Operand::A, Shape::M32n8k16),
            Operand::C => (Operand::C, Shape::M32n8k16),
        };
        let (r, c) = position(t_shape, t_op, e, lane, i);
        return (c, r);
    }
    let kind = tile_kind(op, e);
    let (tm, tn, tk) = mma::shape(kind);
    let (ra, rb, rc) = mma::regs(kind);
    let (tile_rows, tile_cols, tile_regs) = match op {
        Operand::A => (tm, tk, ra),
        Operand::B => (tk, tn, rb),
        Operand::C => (tm, tn, rc),
    };
    // Elements of one tile in a lane's fragment (the C tile's registers hold one element each
    // unless the type is narrower).
    let per_tile = tile_regs * per_reg(e);
    let (rows, cols) = matrix_dims(shape, op);
    let across = (cols / tile_cols).max(1);
    let tiles = (rows / tile_rows).max(1) * across;
    let t = (i / per_tile) % tiles;
    let (r, c) = match op {
        Operand::A => mma::a_pos(kind, lane, i % per_tile),
        Operand::B => mma::b_pos(kind, lane, i % per_tile),
        Operand::C => mma::c_pos(kind, lane, i % per_tile),
    };
    (t / across * tile_rows + r, t % across * tile_cols + c)
}

/// One element a lane's `wmma.load`/`wmma.store` moves: register `reg`, bits from `shift`,
/// `bytes` wide, at byte `offset` from the address operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Access {
    pub reg: usize,
    pub shift: u32,
    pub bytes: u32,
    pub offset: u64,
}

/// The memory accesses of one lane's `wmma.load`/`wmma.store`: element (r, c) of a
/// row-major matrix is at element `r·stride + c` from the address, of a column-major one at
/// `c·stride + r`; without a stride operand the stride is the matrix's row length (row-major)
/// or column length (column-major), i.e. the matrix is packed.
pub fn accesses(
    shape: Shape,
    op: Operand,
    e: Elem,
    col_major: bool,
    stride: Option<u32>,
    lane: usize,
) -> impl Iterator<Item = Access> {
    let (rows, cols) = matrix_dims(shape, op);
    let stride = stride.map_or(if col_major { rows } else { cols } as u64, u64::from);
    let bits = elem_bits(e);
    let per = per_reg(e);
    // A sub-byte register's elements are consecutive in memory (A is row-major, B
    // column-major): one 32-bit access per register, from its first element's bit position.
    let sub = bits < 8;
    let n = regs(shape, op, e) * if sub { 1 } else { per };
    (0..n).map(move |i| {
        let first = if sub { i * per } else { i };
        let (r, c) = position(shape, op, e, lane, first);
        let idx = if col_major {
            c as u64 * stride + r as u64
        } else {
            r as u64 * stride + c as u64
        };
        if sub {
            Access {
                reg: i,
                shift: 0,
                bytes: 4,
                offset: idx * u64::from(bits) / 8,
            }
        } else {
            Access {
                reg: i / per,
                shift: (i % per) as u32 * bits,
                bytes: bits / 8,
                offset: idx * u64::from(bits / 8),
            }
        }
    })
}

/// The types and modifiers of one `wmma.mma`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MmaSpec {
    pub shape: Shape,
    pub a: Elem,
    pub b: Elem,
    pub c: Elem,
    pub d: Elem,
    pub satfinite: bool,
    /// `.f64` only: the rounding of each fused multiply-add (`.rn` when not spelled).
    pub rnd: Rounding,
    /// `.b1` only: `.and.popc` (else `.xor.popc`).
    pub b1_and: bool,
}

/// The most elements an operand has (A of m8n8k128: 8 x 128 bits; B: 128 x 8).
const MAX_ELEMS: usize = 1024;

/// One operand's matrix, row-major in a fixed buffer (the crate allocates nothing).
struct Matrix {
    cols: usize,
    data: [u64; MAX_ELEMS],
}

impl Matrix {
    fn at(&self, r: usize, c: usize) -> u64 {
        self.data.get(r * self.cols + c).copied().unwrap_or(0)
    }
}

/// The operand matrix the warp's fragments hold (element bits, zero where no lane holds
/// one); of duplicated elements, the first copy counts.
fn gather(shape: Shape, op: Operand, e: Elem, frags: &[Frag; 32]) -> Matrix {
    let (rows, cols) = matrix_dims(shape, op);
    let mut m = Matrix {
        cols,
        data: [0; MAX_ELEMS],
    };
    let mut seen = [false; MAX_ELEMS];
    let bits = elem_bits(e);
    for (lane, f) in frags.iter().enumerate() {
        for i in 0..regs(shape, op, e) * per_reg(e) {
            let (r, c) = position(shape, op, e, lane, i);
            let k = r * cols + c;
            if r < rows && c < cols && !seen.get(k).copied().unwrap_or(true) {
                if let (Some(x), Some(s)) = (m.data.get_mut(k), seen.get_mut(k)) {
                    *x = mma::elem(f, i, bits);
                    *s = true;
                }
            }
        }
    }
    m
}

fn float_of(e: Elem, bits: u64) -> f64 {
    match e {
        Elem::F16 => h_to_f64(bits as u16, HalfFormat::F16),
        Elem::Bf16 => h_to_f64(bits as u16, HalfFormat::Bf16),
        Elem::Tf32 => mma::tf32_value(bits),
        Elem::F32 => f64::from(f32::from_bits(bits as u32)),
        Elem::F64 => f64::from_bits(bits),
        Elem::S32 => f64::from(bits as u32 as i32),
        _ => int_of(e, bits) as f64,
    }
}

/// The value of an integer element: `.s8`/`.u8` as `mma`, `.s4` sign-extended, `.u4`/`.b1`
/// as is.
fn int_of(e: Elem, bits: u64) -> i64 {
    match e {
        Elem::S4 => ((bits as u8) << 4) as i8 as i64 >> 4,
        Elem::U4 => (bits & 0xf) as i64,
        Elem::B1 => (bits & 1) as i64,
        _ => mma::int_value(bits, e == Elem::S8),
    }
}

/// `wmma.mma.sync.aligned` over a warp: each lane's A, B and C fragments in, each lane's D
/// fragment out.
pub fn wmma_mma(spec: MmaSpec, a: &[Frag; 32], b: &[Frag; 32], c: &[Frag; 32]) -> [Frag; 32] {
    let (m, n, k) = dims(spec.shape);
    let am = gather(spec.shape, Operand::A, spec.a, a);
    let bm = gather(spec.shape, Operand::B, spec.b, b);
    let cm = gather(spec.shape, Operand::C, spec.c, c);
    let at = |i: usize, kk: usize| am.at(i, kk);
    let bt = |kk: usize, j: usize| bm.at(kk, j);
    let mut dm = Matrix {
        cols: n,
        data: [0; MAX_ELEMS],
    };
    for i in 0..m {
        for j in 0..n {
            let cv = cm.at(i, j);
            let Some(out) = dm.data.get_mut(i * n + j) else {
                continue;
            };
            *out = match spec.d {
                Elem::S32 => {
                    let mut s = i64::from(cv as u32 as i32);
                    for kk in 0..k {
                        s += if spec.a == Elem::B1 {
                            // `.popc`: the bits of A's row and B's column, ANDed or XORed.
                            let (x, y) = (at(i, kk) & 1, bt(kk, j) & 1);
                            (if spec.b1_and { x & y } else { x ^ y }) as i64
                        } else {
                            int_of(spec.a, at(i, kk)) * int_of(spec.b, bt(kk, j))
                        };
                    }
                    mma::int_result(s, spec.satfinite)
                }
                Elem::F64 => {
                    let mut acc = f64::from_bits(cv);
                    for kk in 0..k {
                        acc = crate::float::fma_f64(
                            f64::from_bits(at(i, kk)),
                            f64::from_bits(bt(kk, j)),
                            acc,
                            spec.rnd,
                        );
                    }
                    if acc.is_nan() {
                        crate::float::NAN_F64
                    } else {
                        acc.to_bits()
                    }
                }
                d => {
                    let acc = mma::sum_products(
                        float_of(spec.c, cv),
                        (0..k).map(|kk| (float_of(spec.a, at(i, kk)), float_of(spec.b, bt(kk, j)))),
                    );
                    if d == Elem::F16 {
                        mma::round_f16(acc)
                    } else {
                        mma::round_f32(acc)
                    }
                }
            };
        }
    }
    let bits = elem_bits(spec.d);
    let mut d = [[0u64; 8]; 32];
    for (lane, out) in d.iter_mut().enumerate() {
        for i in 0..regs(spec.shape, Operand::C, spec.d) * per_reg(spec.d) {
            let (r, col) = position(spec.shape, Operand::C, spec.d, lane, i);
            mma::set_elem(out, i, bits, dm.at(r, col));
        }
    }
    d
}
