//! Warp-level matrix instructions: `mma.sync` (tensor-core multiply-accumulate) and the 8x8
//! matrix fragments of `ldmatrix`/`stmatrix`/`movmatrix` (PTX ISA 8.x §9.7.14.5).
//!
//! A warp's operands are passed as one fragment per lane ([`Frag`]: up to four registers of
//! up to 64 bits each); the functions here gather them into matrices through the fragment
//! layouts of the manual's figures, compute, and scatter the result the same way.
//!
//! What is computed (`docs/spec-notes.md`, issue 16):
//! - Floating point: every product `A[i][k]·B[k][j]` is exact (f16, bf16 and tf32
//!   significands have at most 11 bits, so their products are exact in f64); the sum
//!   `C[i][j] + Σ_k` is formed in f64, starting from `C[i][j]` and adding the products in
//!   ascending `k`, each addition rounded to nearest-even f64; the result is rounded once to
//!   the destination type (nearest-even). Subnormal inputs and results are kept. A NaN result
//!   (a NaN input, or `inf - inf`) is the canonical NaN of the destination type.
//! - `.tf32` inputs are `.b32` registers holding f32 bit patterns; the low 13 significand bits
//!   are ignored (the value is truncated to tf32's 10 fraction bits).
//! - `.f64` (`m8n8k4`): `D = fma(A[i][3], B[3][j], … fma(A[i][0], B[0][j], C[i][j]))`, each
//!   step a fused multiply-add rounded to nearest-even.
//! - Integers: exact; the 32-bit result wraps, or with `.satfinite` clamps to the `.s32` range.

use crate::float::{NAN_F32, NAN_F64};
use crate::fp8::{self, Fp8};
use crate::half::{f64_to_h, h_to_f64, HalfFormat, NAN_H};

/// One lane's registers of one operand, in operand order (`{a0, a1, a2, a3}`); each register
/// is zero-extended to 64 bits. Eight slots: the sm_70 `m8n8k4` `.f32` accumulators take
/// eight registers.
pub type Frag = [u64; 8];

/// The shapes and types of `mma.sync.aligned` that are executed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MmaKind {
    /// `m16n8k16` with `.f16` or `.bf16` inputs and `.f32` accumulators.
    M16n8k16F32(HalfFormat),
    /// `m16n8k16.f16.f16.f16.f16`.
    M16n8k16F16,
    /// `m16n8k8` with `.f16` or `.bf16` inputs and `.f32` accumulators.
    M16n8k8F32(HalfFormat),
    /// `m16n8k8.f32.tf32.tf32.f32`.
    M16n8k8Tf32,
    /// `m8n8k4.f64.f64.f64.f64`.
    M8n8k4F64,
    /// `m16n8k16` (`k32 == false`) or `m16n8k32` with 8-bit integers (signedness of A and B)
    /// and `.s32` accumulators.
    I8 {
        k32: bool,
        a_signed: bool,
        b_signed: bool,
    },
    /// `m16n8k16` (`k32 == false`) or `m16n8k32` with fp8 A and B (their formats) and
    /// `.f32` accumulators, or (`f16_acc`, PTX ISA 8.7) `.f16` ones; A and B are laid out as
    /// the 8-bit integer shapes' (PTX ISA 8.x §9.7.14.5.9), C and D as the `.f16`/`.f32`
    /// accumulators of `m16n8k16`.
    F8 {
        k32: bool,
        a: Fp8,
        b: Fp8,
        f16_acc: bool,
    },
    /// sm_70's `m8n8k4` with `.f16` A and B: each quad-pair of lanes computes its own 8x8x4
    /// product (PTX ISA 8.x §9.7.14.5.1). `a_col`/`b_col`: the `.col` layouts; `c_f32`/`d_f32`:
    /// `.f32` (eight registers) rather than `.f16` (four `.f16x2`) accumulators.
    M8n8k4F16 {
        a_col: bool,
        b_col: bool,
        c_f32: bool,
        d_f32: bool,
    },
}

/// The shape (M, N, K).
pub fn shape(kind: MmaKind) -> (usize, usize, usize) {
    match kind {
        MmaKind::M16n8k16F32(_) | MmaKind::M16n8k16F16 => (16, 8, 16),
        MmaKind::M16n8k8F32(_) | MmaKind::M16n8k8Tf32 => (16, 8, 8),
        MmaKind::M8n8k4F64 | MmaKind::M8n8k4F16 { .. } => (8, 8, 4),
        MmaKind::I8 { k32, .. } => (16, 8, if k32 { 32 } else { 16 }),
        MmaKind::F8 { k32, .. } => (16, 8, if k32 { 32 } else { 16 }),
    }
}

/// Registers per lane of A, B and C/D (for `m8n8k4` `.f16`, of D; C's are
/// [`m8n8k4_acc_regs`]`(c_f32)`).
pub fn regs(kind: MmaKind) -> (usize, usize, usize) {
    match kind {
        MmaKind::M8n8k4F16 { d_f32, .. } => (2, 2, m8n8k4_acc_regs(d_f32)),
        MmaKind::M16n8k16F32(_) => (4, 2, 4),
        MmaKind::M16n8k16F16 => (4, 2, 2),
        MmaKind::M16n8k8F32(_) => (2, 1, 4),
        MmaKind::M16n8k8Tf32 => (4, 2, 4),
        MmaKind::M8n8k4F64 => (1, 1, 2),
        MmaKind::I8 { k32: false, .. } => (2, 1, 4),
        MmaKind::I8 { k32: true, .. } => (4, 2, 4),
        MmaKind::F8 { k32, f16_acc, .. } => (
            if k32 { 4 } else { 2 },
            if k32 { 2 } else { 1 },
            if f16_acc { 2 } else { 4 },
        ),
    }
}

/// Bits per element of A/B, and of C/D.
fn elem_bits(kind: MmaKind) -> (u32, u32) {
    match kind {
        MmaKind::M16n8k16F32(_) | MmaKind::M16n8k8F32(_) => (16, 32),
        MmaKind::M16n8k16F16 => (16, 16),
        MmaKind::M16n8k8Tf32 => (32, 32),
        MmaKind::M8n8k4F64 => (64, 64),
        MmaKind::I8 { .. } | MmaKind::F8 { f16_acc: false, .. } => (8, 32),
        MmaKind::F8 { f16_acc: true, .. } => (8, 16),
        MmaKind::M8n8k4F16 { d_f32, .. } => (16, if d_f32 { 32 } else { 16 }),
    }
}

/// Registers per lane of an sm_70 `m8n8k4` accumulator: eight `.f32` or four `.f16x2`.
pub fn m8n8k4_acc_regs(f32_acc: bool) -> usize {
    if f32_acc {
        8
    } else {
        4
    }
}

/// The quad-pair (0..4) whose product lane `lane` takes part in: lanes 4q..4q+3 (the low
/// group, rows or columns 0-3 of its matrices) and 16+4q..16+4q+3 (the high group, 4-7).
pub fn quad_pair(lane: usize) -> usize {
    lane % 16 / 4
}

/// 0 for the low group of a quad-pair, 4 for the high group.
fn high(lane: usize) -> usize {
    if lane % 32 >= 16 {
        4
    } else {
        0
    }
}

/// sm_70 `m8n8k4` `.f16`: where element `i` (0..4) of a lane's A fragment sits in its
/// quad-pair's 8x4 A (PTX ISA 8.x Figures 46 and 47).
pub fn m8n8k4_a_pos(col: bool, lane: usize, i: usize) -> (usize, usize) {
    if col {
        (i % 4 + high(lane), lane % 4)
    } else {
        (lane % 4 + high(lane), i)
    }
}

/// sm_70 `m8n8k4` `.f16`: where element `i` (0..4) of a lane's B fragment sits in its
/// quad-pair's 4x8 B (Figures 48 and 49).
pub fn m8n8k4_b_pos(col: bool, lane: usize, i: usize) -> (usize, usize) {
    if col {
        (i, lane % 4 + high(lane))
    } else {
        (lane % 4, i + high(lane))
    }
}

/// sm_70 `m8n8k4`: where element `i` (0..8) of a lane's C or D fragment sits in its
/// quad-pair's 8x8 accumulator, `.f32` (Figures 51 and 52) or `.f16` (Figure 50).
pub fn m8n8k4_acc_pos(f32_acc: bool, lane: usize, i: usize) -> (usize, usize) {
    if f32_acc {
        (
            (lane & 1) + (i & 2) + high(lane),
            (i & 4) + (lane & 2) + (i & 1),
        )
    } else {
        (lane % 4 + high(lane), i)
    }
}

/// The sm_70 `m8n8k4` `.f16` form: four independent 8x8x4 products, one per quad-pair, each
/// computed as the other `.f16` shapes (exact products summed in f64 after C in ascending k,
/// rounded once to D's type).
fn mma_m8n8k4_f16(
    (a_col, b_col, c_f32, d_f32): (bool, bool, bool, bool),
    a: &[Frag; 32],
    b: &[Frag; 32],
    c: &[Frag; 32],
) -> [Frag; 32] {
    let h = |bits: u64| h_to_f64(bits as u16, HalfFormat::F16);
    let c_bits = if c_f32 { 32 } else { 16 };
    let d_bits = if d_f32 { 32 } else { 16 };
    // Per quad-pair: A (8x4), B (4x8), C (8x8) as values.
    let mut am = [[[0f64; 4]; 8]; 4];
    let mut bm = [[[0f64; 8]; 4]; 4];
    let mut cm = [[[0f64; 8]; 8]; 4];
    for lane in 0..32 {
        let q = quad_pair(lane);
        for i in 0..4 {
            let (r, col) = m8n8k4_a_pos(a_col, lane, i);
            am[q][r][col] = h(elem(&a[lane], i, 16));
            let (r, col) = m8n8k4_b_pos(b_col, lane, i);
            bm[q][r][col] = h(elem(&b[lane], i, 16));
        }
        for i in 0..8 {
            let (r, col) = m8n8k4_acc_pos(c_f32, lane, i);
            let v = elem(&c[lane], i, c_bits);
            cm[q][r][col] = if c_f32 {
                f64::from(f32::from_bits(v as u32))
            } else {
                h(v)
            };
        }
    }
    let mut d = [[0u64; 8]; 32];
    for (lane, out) in d.iter_mut().enumerate() {
        let q = quad_pair(lane);
        for i in 0..8 {
            let (r, col) = m8n8k4_acc_pos(d_f32, lane, i);
            let acc = sum_products(
                cm[q][r][col],
                bm[q]
                    .iter()
                    .enumerate()
                    .map(|(kk, brow)| (am[q][r][kk], brow[col])),
            );
            let v = if d_f32 {
                round_f32(acc)
            } else {
                round_f16(acc)
            };
            set_elem(out, i, d_bits, v);
        }
    }
    d
}

/// Where element `i` of a lane's A fragment sits: (row, column) of A (M x K). Elements are
/// numbered across the registers, low bits first (`a0` is the low half of the first
/// register). PTX ISA 8.x §9.7.14.5.8 (m16n8k16/m16n8k8 .f16/.bf16, m16n8k8 .tf32),
/// §9.7.14.5.9 (m16n8k16/m16n8k32 .s8/.u8), §9.7.14.5.10 (m8n8k4 .f64).
pub fn a_pos(kind: MmaKind, lane: usize, i: usize) -> (usize, usize) {
    let (g, t) = (lane >> 2, lane % 4);
    match kind {
        MmaKind::M16n8k16F32(_) | MmaKind::M16n8k16F16 => {
            (g + 8 * ((i >> 1) & 1), t * 2 + (i & 1) + 8 * (i >> 2))
        }
        MmaKind::M16n8k8F32(_) => (g + 8 * (i >> 1), t * 2 + (i & 1)),
        MmaKind::M16n8k8Tf32 => (g + 8 * (i & 1), t + 4 * (i >> 1)),
        MmaKind::M8n8k4F64 => (g, t),
        MmaKind::I8 { .. } | MmaKind::F8 { .. } => {
            (g + 8 * ((i >> 2) & 1), t * 4 + (i & 3) + 16 * (i >> 3))
        }
        // Within the lane's quad-pair's matrix.
        MmaKind::M8n8k4F16 { a_col, .. } => m8n8k4_a_pos(a_col, lane, i),
    }
}

/// Where element `i` of a lane's B fragment sits: (row, column) of B (K x N).
pub fn b_pos(kind: MmaKind, lane: usize, i: usize) -> (usize, usize) {
    let (g, t) = (lane >> 2, lane % 4);
    match kind {
        MmaKind::M16n8k16F32(_) | MmaKind::M16n8k16F16 => (t * 2 + (i & 1) + 8 * (i >> 1), g),
        MmaKind::M16n8k8F32(_) => (t * 2 + (i & 1), g),
        MmaKind::M16n8k8Tf32 => (t + 4 * i, g),
        MmaKind::M8n8k4F64 => (t, g),
        MmaKind::I8 { .. } | MmaKind::F8 { .. } => (t * 4 + (i & 3) + 16 * (i >> 2), g),
        MmaKind::M8n8k4F16 { b_col, .. } => m8n8k4_b_pos(b_col, lane, i),
    }
}

/// Where element `i` of a lane's C or D fragment sits: (row, column) of C (M x N) (for
/// `m8n8k4` `.f16`, of D within the lane's quad-pair's matrix).
pub fn c_pos(kind: MmaKind, lane: usize, i: usize) -> (usize, usize) {
    let (g, t) = (lane >> 2, lane % 4);
    match kind {
        MmaKind::M8n8k4F16 { d_f32, .. } => m8n8k4_acc_pos(d_f32, lane, i),
        MmaKind::M8n8k4F64 => (g, t * 2 + i),
        _ => (g + 8 * (i >> 1), t * 2 + (i & 1)),
    }
}

pub(crate) fn elem(f: &Frag, i: usize, bits: u32) -> u64 {
    if bits == 64 {
        return f.get(i).copied().unwrap_or(0);
    }
    let per = 32 / bits as usize;
    let reg = f.get(i / per).copied().unwrap_or(0);
    (reg >> ((i % per) as u32 * bits)) & ((1u64 << bits) - 1)
}

pub(crate) fn set_elem(f: &mut Frag, i: usize, bits: u32, v: u64) {
    let per = if bits == 64 { 1 } else { 32 / bits as usize };
    if let Some(reg) = f.get_mut(i / per) {
        if bits == 64 {
            *reg = v;
        } else {
            let sh = (i % per) as u32 * bits;
            let m = ((1u64 << bits) - 1) << sh;
            *reg = (*reg & !m) | ((v << sh) & m);
        }
    }
}

/// `C + Σ_k A·B` as the floating-point shapes compute it: every product exact in f64 (the
/// inputs have at most 24 significand bits), added to the running sum in the order given,
/// each addition rounded to nearest-even f64. One definition for `mma` and `wmma`.
pub(crate) fn sum_products(c: f64, terms: impl Iterator<Item = (f64, f64)>) -> f64 {
    let mut acc = c;
    for (a, b) in terms {
        acc += a * b;
    }
    acc
}

/// The f64 sum rounded once to `.f32` (nearest-even); a NaN is the canonical NaN.
pub(crate) fn round_f32(acc: f64) -> u64 {
    if acc.is_nan() {
        u64::from(NAN_F32)
    } else {
        u64::from((acc as f32).to_bits())
    }
}

/// The f64 sum rounded once to `.f16` (nearest-even); a NaN is the canonical NaN.
pub(crate) fn round_f16(acc: f64) -> u64 {
    if acc.is_nan() {
        u64::from(NAN_H)
    } else {
        u64::from(f64_to_h(acc, HalfFormat::F16, crate::float::Rounding::Rn))
    }
}

/// An exact integer sum as the `.s32` result: wrapped, or clamped with `.satfinite`.
pub(crate) fn int_result(s: i64, satfinite: bool) -> u64 {
    let r = if satfinite {
        s.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
    } else {
        s as i32
    };
    u64::from(r as u32)
}

/// The value of a `.tf32` operand: an f32 bit pattern whose low 13 significand bits are
/// ignored.
pub(crate) fn tf32_value(bits: u64) -> f64 {
    f64::from(f32::from_bits((bits as u32) & 0xffff_e000))
}

fn float_value(kind: MmaKind, bits: u64, is_c: bool) -> f64 {
    match (kind, is_c) {
        (
            MmaKind::M16n8k16F32(_)
            | MmaKind::M16n8k8F32(_)
            | MmaKind::M16n8k8Tf32
            | MmaKind::F8 { f16_acc: false, .. },
            true,
        ) => f64::from(f32::from_bits(bits as u32)),
        (MmaKind::M16n8k16F32(h) | MmaKind::M16n8k8F32(h), false) => h_to_f64(bits as u16, h),
        (MmaKind::M16n8k16F16, _) => h_to_f64(bits as u16, HalfFormat::F16),
        (MmaKind::M16n8k8Tf32, false) => tf32_value(bits),
        _ => f64::from_bits(bits),
    }
}

/// The value of an 8-bit integer element.
pub(crate) fn int_value(bits: u64, signed: bool) -> i64 {
    if signed {
        i64::from(bits as u8 as i8)
    } else {
        i64::from(bits as u8)
    }
}

#[allow(clippy::needless_range_loop)]
/// `mma.sync.aligned` over a warp: `a`, `b`, `c` hold each lane's fragments (registers
/// beyond the shape's count are ignored); returns each lane's D fragment.
pub fn mma_sync(
    kind: MmaKind,
    satfinite: bool,
    a: &[Frag; 32],
    b: &[Frag; 32],
    c: &[Frag; 32],
) -> [Frag; 32] {
    if let MmaKind::M8n8k4F16 {
        a_col,
        b_col,
        c_f32,
        d_f32,
    } = kind
    {
        return mma_m8n8k4_f16((a_col, b_col, c_f32, d_f32), a, b, c);
    }
    let (m, n, k) = shape(kind);
    let (ab_bits, c_bits) = elem_bits(kind);
    let (ra, rb, rc) = regs(kind);
    let per = |bits: u32| if bits == 64 { 1 } else { 32 / bits as usize };
    // Gather: value bits of A (m x k), B (k x n), C (m x n).
    let mut am = [[0u64; 32]; 16];
    let mut bm = [[0u64; 8]; 32];
    let mut cm = [[0u64; 8]; 16];
    for lane in 0..32 {
        for i in 0..ra * per(ab_bits) {
            let (r, col) = a_pos(kind, lane, i);
            if let Some(x) = am.get_mut(r).and_then(|row| row.get_mut(col)) {
                *x = elem(&a[lane], i, ab_bits);
            }
        }
        for i in 0..rb * per(ab_bits) {
            let (r, col) = b_pos(kind, lane, i);
            if let Some(x) = bm.get_mut(r).and_then(|row| row.get_mut(col)) {
                *x = elem(&b[lane], i, ab_bits);
            }
        }
        for i in 0..rc * per(c_bits) {
            let (r, col) = c_pos(kind, lane, i);
            if let Some(x) = cm.get_mut(r).and_then(|row| row.get_mut(col)) {
                *x = elem(&c[lane], i, c_bits);
            }
        }
    }
    let mut dm = [[0u64; 8]; 16];
    for i in 0..m {
        for j in 0..n {
            dm[i][j] = match kind {
                MmaKind::I8 {
                    a_signed, b_signed, ..
                } => {
                    let mut s = i64::from(cm[i][j] as u32 as i32);
                    for kk in 0..k {
                        s += int_value(am[i][kk], a_signed) * int_value(bm[kk][j], b_signed);
                    }
                    int_result(s, satfinite)
                }
                MmaKind::F8 {
                    a: fa,
                    b: fb,
                    f16_acc,
                    ..
                } => {
                    // As the .f16 shapes: exact products summed in f64 in k order after C,
                    // one rounding to the accumulator type.
                    let c0 = if f16_acc {
                        h_to_f64(cm[i][j] as u16, HalfFormat::F16)
                    } else {
                        f64::from(f32::from_bits(cm[i][j] as u32))
                    };
                    let acc = sum_products(
                        c0,
                        (0..k).map(|kk| {
                            (
                                fp8::to_f64(am[i][kk] as u8, fa),
                                fp8::to_f64(bm[kk][j] as u8, fb),
                            )
                        }),
                    );
                    if f16_acc {
                        round_f16(acc)
                    } else {
                        round_f32(acc)
                    }
                }
                MmaKind::M8n8k4F64 => {
                    let mut acc = f64::from_bits(cm[i][j]);
                    for kk in 0..k {
                        acc = f64::from_bits(am[i][kk]).mul_add(f64::from_bits(bm[kk][j]), acc);
                    }
                    if acc.is_nan() {
                        NAN_F64
                    } else {
                        acc.to_bits()
                    }
                }
                _ => {
                    let acc = sum_products(
                        float_value(kind, cm[i][j], true),
                        (0..k).map(|kk| {
                            (
                                float_value(kind, am[i][kk], false),
                                float_value(kind, bm[kk][j], false),
                            )
                        }),
                    );
                    if kind == MmaKind::M16n8k16F16 {
                        round_f16(acc)
                    } else {
                        round_f32(acc)
                    }
                }
            };
        }
    }
    let mut d = [[0u64; 8]; 32];
    for (lane, out) in d.iter_mut().enumerate() {
        for i in 0..rc * per(c_bits) {
            let (r, col) = c_pos(kind, lane, i);
            let v = dm.get(r).and_then(|row| row.get(col)).copied().unwrap_or(0);
            set_elem(out, i, c_bits, v);
        }
    }
    d
}

/// An 8x8 matrix of 16-bit elements, row-major.
pub type Mat8 = [[u16; 8]; 8];

/// The fragment register of `lane` for one 8x8 matrix (`ldmatrix` without `.trans`, the
/// layout of PTX ISA 8.x §9.7.14.5.15): row `lane / 4`, columns `2·(lane % 4)` (low half) and
/// `2·(lane % 4) + 1` (high half). With `trans` the matrix is read transposed.
pub fn fragment_of(m: &Mat8, lane: usize, trans: bool) -> u32 {
    let (r, c) = (lane / 4 % 8, lane % 4 * 2);
    let at = |i: usize, j: usize| if trans { m[j][i] } else { m[i][j] };
    u32::from(at(r, c)) | (u32::from(at(r, c + 1)) << 16)
}

/// The inverse of [`fragment_of`]: the 8x8 matrix a warp's registers hold.
pub fn matrix_of(regs: &[u32; 32], trans: bool) -> Mat8 {
    let mut m = [[0u16; 8]; 8];
    for (lane, &v) in regs.iter().enumerate() {
        let (r, c) = (lane / 4, lane % 4 * 2);
        for (dc, h) in [(0, v as u16), (1, (v >> 16) as u16)] {
            if trans {
                m[c + dc][r] = h;
            } else {
                m[r][c + dc] = h;
            }
        }
    }
    m
}

/// `movmatrix.sync.aligned.m8n8.trans.b16`: each lane's register of the transposed matrix.
pub fn movmatrix_trans(regs: &[u32; 32]) -> [u32; 32] {
    let m = matrix_of(regs, false);
    std::array::from_fn(|lane| fragment_of(&m, lane, true))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn movmatrix_transposes() {
        // Element (r, c) of the source is 16r + c; lane l holds (l/4, 2(l%4)) and the next.
        let regs: [u32; 32] = std::array::from_fn(|l| {
            let (r, c) = (l as u32 / 4, l as u32 % 4 * 2);
            (16 * r + c) | ((16 * r + c + 1) << 16)
        });
        let t = movmatrix_trans(&regs);
        for (l, &v) in t.iter().enumerate() {
            let (r, c) = (l as u32 / 4, l as u32 % 4 * 2);
            // The transpose's (r, c) is the source's (c, r).
            assert_eq!(v, (16 * c + r) | ((16 * (c + 1) + r) << 16), "lane {l}");
        }
    }
}
