//! `mma.sync` fragment layouts and arithmetic against the PTX ISA 8.x tables
//! (§9.7.14.5.8–10), transcribed here in the manual's own terms (groupID = laneid >> 2,
//! threadID_in_group = laneid % 4, element index i across the registers), independently of
//! `ops::mma`'s position functions.
//!
//! Each layout test gives every element of A a distinct value, selects one column `kk` of A
//! with a B that is 1 at (kk, j) and 0 elsewhere, and checks that D's element (r, j) in every
//! lane's fragment is A[r][kk] (plus a distinct C value): so every A, B and C/D position is
//! checked against the table, and a swap of any two positions fails.

// Lane and element loops index several fragments at once, as the manual's tables do.
#![allow(clippy::needless_range_loop)]

use ops::fp8::Fp8;
use ops::half::HalfFormat;
use ops::mma::{mma_sync, Frag, MmaKind};

/// The manual's A layout: (row, col) of element `i` of `lane`.
fn a_table(kind: MmaKind, lane: usize, i: usize) -> (usize, usize) {
    let group_id = lane >> 2;
    let tig = lane % 4;
    match kind {
        // m16n8k16 .f16/.bf16: "row = groupID for a0 a1 a4 a5, groupID + 8 for a2 a3 a6 a7;
        // col = threadID_in_group * 2 + (i & 0x1) for a0..a3, + 8 for a4..a7".
        MmaKind::M16n8k16F32(_) | MmaKind::M16n8k16F16 => {
            let row = if matches!(i, 0 | 1 | 4 | 5) {
                group_id
            } else {
                group_id + 8
            };
            let col = tig * 2 + (i & 1) + if i >= 4 { 8 } else { 0 };
            (row, col)
        }
        // m16n8k8 .f16/.bf16: "row = groupID for a0 a1, groupID + 8 for a2 a3;
        // col = threadID_in_group * 2 + (i & 0x1)".
        MmaKind::M16n8k8F32(_) => {
            let row = if i < 2 { group_id } else { group_id + 8 };
            (row, tig * 2 + (i & 1))
        }
        // m16n8k8 .tf32: "row = groupID for a0 a2, groupID + 8 for a1 a3;
        // col = threadID_in_group for a0 a1, threadID_in_group + 4 for a2 a3".
        MmaKind::M16n8k8Tf32 => {
            let row = if i == 0 || i == 2 {
                group_id
            } else {
                group_id + 8
            };
            let col = if i < 2 { tig } else { tig + 4 };
            (row, col)
        }
        // m8n8k4 .f64: "row = groupID, col = threadID_in_group".
        MmaKind::M8n8k4F64 => (group_id, tig),
        MmaKind::M8n8k4F16 { .. } => panic!("the quad-pair form is tested in mma_m8n8k4.rs"),
        // m16n8k16 .s8: "row = groupID for a0..a3, groupID + 8 for a4..a7;
        // col = threadID_in_group * 4 + (i & 0x3)"; m16n8k32 adds a8..a15 at col + 16. The
        // .e4m3/.e5m2 fragments use the .s8 figures of the same shape.
        MmaKind::I8 { .. } | MmaKind::F8 { .. } => {
            let row = if i % 8 < 4 { group_id } else { group_id + 8 };
            let col = tig * 4 + (i & 3) + if i >= 8 { 16 } else { 0 };
            (row, col)
        }
    }
}

/// The manual's B layout: (row, col) of element `i`.
fn b_table(kind: MmaKind, lane: usize, i: usize) -> (usize, usize) {
    let group_id = lane >> 2;
    let tig = lane % 4;
    match kind {
        // "row = threadID_in_group * 2 + (i & 0x1) for b0 b1, + 8 for b2 b3; col = groupID".
        MmaKind::M16n8k16F32(_) | MmaKind::M16n8k16F16 => {
            (tig * 2 + (i & 1) + if i >= 2 { 8 } else { 0 }, group_id)
        }
        MmaKind::M16n8k8F32(_) => (tig * 2 + (i & 1), group_id),
        // "row = threadID_in_group for b0, threadID_in_group + 4 for b1; col = groupID".
        MmaKind::M16n8k8Tf32 => (if i == 0 { tig } else { tig + 4 }, group_id),
        MmaKind::M8n8k4F64 => (tig, group_id),
        MmaKind::M8n8k4F16 { .. } => panic!("the quad-pair form is tested in mma_m8n8k4.rs"),
        // "row = threadID_in_group * 4 + (i & 0x3) for b0..b3, + 16 for b4..b7; col = groupID".
        MmaKind::I8 { .. } | MmaKind::F8 { .. } => {
            (tig * 4 + (i & 3) + if i >= 4 { 16 } else { 0 }, group_id)
        }
    }
}

/// The manual's C/D layout.
fn c_table(kind: MmaKind, lane: usize, i: usize) -> (usize, usize) {
    let group_id = lane >> 2;
    let tig = lane % 4;
    match kind {
        // m8n8k4 .f64: "row = groupID; col = threadID_in_group * 2 + i".
        MmaKind::M8n8k4F64 => (group_id, tig * 2 + i),
        // "row = groupID for c0 c1, groupID + 8 for c2 c3; col = threadID_in_group * 2 + (i & 0x1)".
        _ => (
            if i < 2 { group_id } else { group_id + 8 },
            tig * 2 + (i & 1),
        ),
    }
}

/// Element widths (A/B, C/D) and element counts per lane (A, B, C) of each kind.
fn geometry(kind: MmaKind) -> (u32, u32, usize, usize, usize) {
    match kind {
        MmaKind::M16n8k16F32(_) => (16, 32, 8, 4, 4),
        MmaKind::M16n8k16F16 => (16, 16, 8, 4, 4),
        MmaKind::M16n8k8F32(_) => (16, 32, 4, 2, 4),
        MmaKind::M16n8k8Tf32 => (32, 32, 4, 2, 4),
        MmaKind::M8n8k4F64 => (64, 64, 1, 1, 2),
        MmaKind::M8n8k4F16 { .. } => panic!("the quad-pair form is tested in mma_m8n8k4.rs"),
        MmaKind::I8 { k32: false, .. } => (8, 32, 8, 4, 4),
        MmaKind::I8 { k32: true, .. } => (8, 32, 16, 8, 4),
        MmaKind::F8 { k32, f16_acc, .. } => (
            8,
            if f16_acc { 16 } else { 32 },
            if k32 { 16 } else { 8 },
            if k32 { 8 } else { 4 },
            4,
        ),
    }
}

fn put(f: &mut Frag, i: usize, bits: u32, v: u64) {
    if bits == 64 {
        f[i] = v;
        return;
    }
    let per = 32 / bits as usize;
    f[i / per] |= (v & ((1 << bits) - 1)) << ((i % per) as u32 * bits);
}

fn get(f: &Frag, i: usize, bits: u32) -> u64 {
    if bits == 64 {
        return f[i];
    }
    let per = 32 / bits as usize;
    (f[i / per] >> ((i % per) as u32 * bits)) & ((1 << bits) - 1)
}

/// Encodes a small integer `v` (exactly representable) in the A/B element format.
fn enc_ab(kind: MmaKind, v: i64) -> u64 {
    match kind {
        MmaKind::M16n8k16F32(HalfFormat::F16)
        | MmaKind::M16n8k8F32(HalfFormat::F16)
        | MmaKind::M16n8k16F16 => u64::from(half::f16::from_f64(v as f64).to_bits()),
        MmaKind::M16n8k16F32(HalfFormat::Bf16) | MmaKind::M16n8k8F32(HalfFormat::Bf16) => {
            u64::from(half::bf16::from_f64(v as f64).to_bits())
        }
        MmaKind::M16n8k8Tf32 => u64::from((v as f32).to_bits()),
        MmaKind::M8n8k4F64 => (v as f64).to_bits(),
        MmaKind::M8n8k4F16 { .. } => panic!("the quad-pair form is tested in mma_m8n8k4.rs"),
        MmaKind::I8 { .. } => v as u8 as u64,
        // 0 or 1..=15 in e4m3 (A) or 0/1 in e5m2 (B), encoded from the formats' fields: a
        // value 1.m * 2^e is (e + bias) << fraction bits | m.
        MmaKind::F8 { .. } if v == 0 => 0,
        MmaKind::F8 { .. } => {
            let e = 63 - (v as u64).leading_zeros() as i64;
            let frac = ((v - (1 << e)) << 3) >> e;
            (((e + 7) << 3) | frac) as u64
        }
    }
}

fn enc_c(kind: MmaKind, v: i64) -> u64 {
    match kind {
        MmaKind::M16n8k16F16 | MmaKind::F8 { f16_acc: true, .. } => {
            u64::from(half::f16::from_f64(v as f64).to_bits())
        }
        MmaKind::M8n8k4F64 => (v as f64).to_bits(),
        MmaKind::I8 { .. } => u64::from(v as i32 as u32),
        _ => u64::from((v as f32).to_bits()),
    }
}

fn check_layout(kind: MmaKind) {
    let (m, n, k) = ops::mma::shape(kind);
    let (abits, cbits, na, nb, nc) = geometry(kind);
    // Distinct A values: 1 + r*k + c (under 128 for the 8-bit kinds: 16*... is too many for
    // s8, so the 8-bit kinds use (r*k + c) % 100 + 1 with a C that separates rows).
    let a_val = |r: usize, c: usize| -> i64 {
        if matches!(kind, MmaKind::F8 { .. }) {
            ((r * 7 + c * 3) % 15) as i64 + 1
        } else if matches!(kind, MmaKind::I8 { .. }) {
            ((r * 7 + c * 3) % 120) as i64 + 1
        } else {
            (r * k + c) as i64 + 1
        }
    };
    // Distinct C values; under 2048 (exact in f16, with the added A value) for the kinds
    // whose C is .f16 and has no other infinity-free choice.
    let f16_c = matches!(kind, MmaKind::F8 { f16_acc: true, .. });
    let c_val = |r: usize, j: usize| -> i64 {
        if f16_c {
            8 * (r * n + j) as i64
        } else {
            1000 * (r * n + j) as i64
        }
    };
    let mut a = [[0u64; 8]; 32];
    let mut c = [[0u64; 8]; 32];
    for lane in 0..32 {
        for i in 0..na {
            let (r, col) = a_table(kind, lane, i);
            put(&mut a[lane], i, abits, enc_ab(kind, a_val(r, col)));
        }
        for i in 0..nc {
            let (r, j) = c_table(kind, lane, i);
            put(&mut c[lane], i, cbits, enc_c(kind, c_val(r, j)));
        }
    }
    for kk in 0..k {
        for jj in 0..n {
            let mut b = [[0u64; 8]; 32];
            for lane in 0..32 {
                for i in 0..nb {
                    let (r, j) = b_table(kind, lane, i);
                    let v = i64::from(r == kk && j == jj);
                    put(&mut b[lane], i, abits, enc_ab(kind, v));
                }
            }
            let d = mma_sync(kind, false, &a, &b, &c);
            for lane in 0..32 {
                for i in 0..nc {
                    let (r, j) = c_table(kind, lane, i);
                    assert!(r < m && j < n);
                    let want = c_val(r, j) + if j == jj { a_val(r, kk) } else { 0 };
                    let f16_out = kind == MmaKind::M16n8k16F16 || f16_c;
                    let want = if f16_out {
                        // 1000*(r*8+j) reaches 127000: beyond f16's range, so C is infinity
                        // for most elements; compare with the f16 rounding of the exact sum.
                        u64::from(
                            half::f16::from_f64(
                                half::f16::from_f64(c_val(r, j) as f64).to_f64()
                                    + if j == jj { a_val(r, kk) as f64 } else { 0.0 },
                            )
                            .to_bits(),
                        )
                    } else {
                        enc_c(kind, want)
                    };
                    assert_eq!(
                        get(&d[lane], i, cbits),
                        want,
                        "{kind:?}: lane {lane} element {i} (row {r}, col {j}), k={kk} n={jj}"
                    );
                }
            }
        }
    }
}

#[test]
fn every_fragment_layout_matches_the_manuals_tables() {
    for kind in [
        MmaKind::M16n8k16F32(HalfFormat::F16),
        MmaKind::M16n8k16F32(HalfFormat::Bf16),
        MmaKind::M16n8k16F16,
        MmaKind::M16n8k8F32(HalfFormat::F16),
        MmaKind::M16n8k8F32(HalfFormat::Bf16),
        MmaKind::M16n8k8Tf32,
        MmaKind::M8n8k4F64,
        MmaKind::I8 {
            k32: false,
            a_signed: true,
            b_signed: true,
        },
        MmaKind::I8 {
            k32: true,
            a_signed: false,
            b_signed: true,
        },
        MmaKind::F8 {
            k32: true,
            a: Fp8::E4m3,
            b: Fp8::E4m3,
            f16_acc: false,
        },
        MmaKind::F8 {
            k32: true,
            a: Fp8::E4m3,
            b: Fp8::E4m3,
            f16_acc: true,
        },
        MmaKind::F8 {
            k32: false,
            a: Fp8::E4m3,
            b: Fp8::E4m3,
            f16_acc: false,
        },
        MmaKind::F8 {
            k32: false,
            a: Fp8::E4m3,
            b: Fp8::E4m3,
            f16_acc: true,
        },
    ] {
        check_layout(kind);
    }
}

/// Fragments of an m16n8k32 s8 product with every A and B element set to `a` and `b`.
fn uniform_i8(a: i8, b: i8, c: i32, sat: bool, a_signed: bool) -> u32 {
    let kind = MmaKind::I8 {
        k32: true,
        a_signed,
        b_signed: true,
    };
    let rep = |x: i8| u64::from(u32::from_ne_bytes([x as u8; 4]));
    let a = [[rep(a); 8]; 32];
    let b = [[rep(b); 8]; 32];
    let c = [[u64::from(c as u32); 8]; 32];
    mma_sync(kind, sat, &a, &b, &c)[0][0] as u32
}

#[test]
fn integer_products_are_exact_and_satfinite_clamps() {
    // 32 products of -128 * -128 = 16384 each: 524288, plus C.
    assert_eq!(uniform_i8(-128, -128, 5, false, true), 524_293);
    // Unsigned A: 0x80 is 128; 128 * -128 * 32 = -524288.
    assert_eq!(uniform_i8(-128, -128, 0, false, false) as i32, -524_288);
    // Wrap without .satfinite, clamp with it.
    assert_eq!(
        uniform_i8(127, 127, i32::MAX, false, true),
        (i32::MAX as u32).wrapping_add(32 * 127 * 127)
    );
    assert_eq!(uniform_i8(127, 127, i32::MAX, true, true), i32::MAX as u32);
    assert_eq!(uniform_i8(-128, 127, i32::MIN, true, true), i32::MIN as u32);
}

fn f16x2(lo: f64, hi: f64) -> u64 {
    u64::from(half::f16::from_f64(lo).to_bits())
        | u64::from(half::f16::from_f64(hi).to_bits()) << 16
}

/// D[0][0] of an m16n8k16 f16 -> f32 product whose A row 0 and B column 0 are given by
/// `pairs` (k = 0..16) and whose other elements are zero; C[0][0] = `c`.
fn dot16(pairs: &[(f64, f64); 16], c: f32) -> u32 {
    let kind = MmaKind::M16n8k16F32(HalfFormat::F16);
    let mut a = [[0u64; 8]; 32];
    let mut b = [[0u64; 8]; 32];
    let mut cf = [[0u64; 8]; 32];
    // Row 0 of A lives in lanes 0..3 (groupID 0): registers 0 (cols 2t, 2t+1) and 2
    // (cols 2t+8, 2t+9). Column 0 of B lives in lanes 0..3: registers 0 (rows 2t, 2t+1) and
    // 1 (rows 2t+8, 2t+9).
    for t in 0..4 {
        a[t][0] = f16x2(pairs[2 * t].0, pairs[2 * t + 1].0);
        a[t][2] = f16x2(pairs[2 * t + 8].0, pairs[2 * t + 9].0);
        b[t][0] = f16x2(pairs[2 * t].1, pairs[2 * t + 1].1);
        b[t][1] = f16x2(pairs[2 * t + 8].1, pairs[2 * t + 9].1);
    }
    cf[0][0] = u64::from(c.to_bits());
    mma_sync(kind, false, &a, &b, &cf)[0][0] as u32
}

#[test]
fn float_accumulation_edge_values() {
    let mut p = [(0.0, 0.0); 16];
    // Products are exact: 2049 * 2049 needs 23 bits (f16 holds 2049? no: 11 bits, so use
    // 2047 * 2047 = 4190209, exact in f32 as well) and the subnormal 2^-24 * 2^-24 = 2^-48 is
    // kept in the sum (it is below f32's subnormals only after adding 1, so alone it gives
    // 2^-48 exactly).
    p[0] = (2047.0, 2047.0);
    assert_eq!(f32::from_bits(dot16(&p, 0.0)), 4_190_209.0);
    let mut q = [(0.0, 0.0); 16];
    q[5] = (2f64.powi(-24), 2f64.powi(-24));
    assert_eq!(f32::from_bits(dot16(&q, 0.0)), 2f32.powi(-48));
    // inf * 1 + (-inf) * 1 = NaN: the canonical NaN.
    let mut r = [(0.0, 0.0); 16];
    r[0] = (f64::INFINITY, 1.0);
    r[15] = (f64::NEG_INFINITY, 1.0);
    assert_eq!(dot16(&r, 0.0), 0x7fff_ffff);
    // A NaN input gives the canonical NaN.
    let mut s = [(0.0, 0.0); 16];
    s[3] = (f64::NAN, 0.0);
    assert_eq!(dot16(&s, 1.0), 0x7fff_ffff);
    // inf survives a finite C.
    let mut u = [(0.0, 0.0); 16];
    u[9] = (f64::INFINITY, 2.0);
    assert_eq!(f32::from_bits(dot16(&u, -5.0)), f32::INFINITY);
    // One rounding at the end: 2^24 + 1 + 1 (products summed in f64 exactly) rounds to
    // 2^24 + 2, where two f32 additions would give 2^24.
    let mut v = [(0.0, 0.0); 16];
    v[0] = (1.0, 1.0);
    v[1] = (1.0, 1.0);
    assert_eq!(f32::from_bits(dot16(&v, 16_777_216.0)), 16_777_218.0);
}

/// Fragments of an m16n8k32 e4m3 x e5m2 product with every A and B element set to the
/// encodings `a` and `b` and every C element to `c`; returns D's first element of lane 0.
fn uniform_f8(a: u8, b: u8, c: f32) -> u32 {
    let kind = MmaKind::F8 {
        k32: true,
        a: Fp8::E4m3,
        b: Fp8::E5m2,
        f16_acc: false,
    };
    let rep = |x: u8| u64::from(u32::from_le_bytes([x; 4]));
    let fa = [[rep(a); 8]; 32];
    let fb = [[rep(b); 8]; 32];
    let fc = [[u64::from(c.to_bits()); 8]; 32];
    mma_sync(kind, false, &fa, &fb, &fc)[0][0] as u32
}

#[test]
fn fp8_products_are_exact_and_specials_propagate() {
    // e4m3 0x7e is 448, e5m2 0xc0 is -2.0: 32 products of -896 plus 0.5 = -28671.5, exact.
    assert_eq!(uniform_f8(0x7e, 0xc0, 0.5), (-28671.5f32).to_bits());
    // e4m3 0x01 is 2^-9, e5m2 0x01 is 2^-16: 32 products of 2^-25 = 2^-20, exact in f32.
    assert_eq!(uniform_f8(0x01, 0x01, 0.0), 2f32.powi(-20).to_bits());
    // 0 x infinity (e5m2 0x7c) is NaN: the canonical f32 NaN.
    assert_eq!(uniform_f8(0x00, 0x7c, 1.0), 0x7fff_ffff);
    // e4m3 NaN (0x7f) propagates too.
    assert_eq!(uniform_f8(0x7f, 0x3c, 1.0), 0x7fff_ffff);
    // 2.0 x infinity: +infinity.
    assert_eq!(uniform_f8(0x40, 0x7c, 1.0), f32::INFINITY.to_bits());
}

/// [`uniform_f8`] with `.f16` accumulators (`m16n8k32.f16.e4m3.e5m2.f16`, PTX ISA 8.7): the
/// `.f16` bits of D's first element of lane 0.
fn uniform_f8_f16(a: u8, b: u8, c: u16) -> u16 {
    let kind = MmaKind::F8 {
        k32: true,
        a: Fp8::E4m3,
        b: Fp8::E5m2,
        f16_acc: true,
    };
    let rep = |x: u8| u64::from(u32::from_le_bytes([x; 4]));
    let fa = [[rep(a); 8]; 32];
    let fb = [[rep(b); 8]; 32];
    let fc = [[u64::from(u32::from(c) * 0x1_0001); 8]; 32];
    mma_sync(kind, false, &fa, &fb, &fc)[0][0] as u16
}

#[test]
fn fp8_products_into_f16_accumulators_round_once() {
    let h = |x: f64| half::f16::from_f64(x).to_bits();
    // e4m3 0x7e is 448, e5m2 0x3c is 1.0: 32 * 448 + 0.5 = 14336.5; f16 has a spacing of 8
    // there, so one rounding gives 14336 (0x7300).
    assert_eq!(uniform_f8_f16(0x7e, 0x3c, h(0.5)), 0x7300);
    // e5m2 0x48 is 8.0: 32 * 448 * 8 = 114688 is past f16's largest finite value: +inf.
    assert_eq!(uniform_f8_f16(0x7e, 0x48, 0), 0x7c00);
    // The same negated (e5m2 0xc8 is -8.0): -inf.
    assert_eq!(uniform_f8_f16(0x7e, 0xc8, 0), 0xfc00);
    // 2^-9 * 2^-16 * 32 = 2^-20: an f16 subnormal (2^-20 = 16 * 2^-24), kept.
    assert_eq!(uniform_f8_f16(0x01, 0x01, 0), 0x0010);
    // 0 x infinity is NaN, and an infinite C stays: the canonical f16 NaN, then +inf.
    let nan = uniform_f8_f16(0x00, 0x7c, h(1.0));
    assert!(nan & 0x7c00 == 0x7c00 && nan & 0x03ff != 0, "{nan:#x}");
    assert_eq!(uniform_f8_f16(0x38, 0x3c, 0x7c00), 0x7c00);
}
