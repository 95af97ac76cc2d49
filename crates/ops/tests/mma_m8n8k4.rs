//! sm_70's `mma.sync.aligned.m8n8k4` with `.f16` A and B, every layout and accumulator-type
//! combination, against the PTX ISA 8.x tables of §9.7.14.5.1 (Figures 46-52) transcribed here
//! in the manual's own terms, independently of `ops::mma`'s position functions.
//!
//! The four quad-pairs (lanes 0-3 with 16-19, 4-7 with 20-23, 8-11 with 24-27, 12-15 with
//! 28-31) compute four separate 8x8x4 products; every test gives each quad-pair its own
//! values, so a lane read into the wrong product fails as a misplaced element does.

use ops::mma::{mma_sync, Frag, MmaKind};

/// The manual's quad-pair of a lane: "MMA computation q+1: %laneid 4q..4q+3 (low group) and
/// 16+4q..16+4q+3 (high group)".
fn computation(lane: usize) -> usize {
    (0..4)
        .find(|q| (4 * q..4 * q + 4).contains(&lane) || (16 + 4 * q..20 + 4 * q).contains(&lane))
        .unwrap()
}

/// Figures 46 (row) and 47 (col): (row, col) of element `i` of A (8x4).
fn a_table(col_major: bool, lane: usize, i: usize) -> (usize, usize) {
    let low = lane < 16;
    if col_major {
        // "row = i % 4 if %laneid < 16, (i % 4) + 4 otherwise; col = %laneid % 4".
        (if low { i % 4 } else { i % 4 + 4 }, lane % 4)
    } else {
        // "row = %laneid % 4 if %laneid < 16, (%laneid % 4) + 4 otherwise; col = i".
        (if low { lane % 4 } else { lane % 4 + 4 }, i)
    }
}

/// Figures 48 (row) and 49 (col): (row, col) of element `i` of B (4x8).
fn b_table(col_major: bool, lane: usize, i: usize) -> (usize, usize) {
    let low = lane < 16;
    if col_major {
        // "row = i; col = %laneid % 4 if %laneid < 16, (%laneid % 4) + 4 otherwise".
        (i, if low { lane % 4 } else { lane % 4 + 4 })
    } else {
        // "row = %laneid % 4; col = i if %laneid < 16, i + 4 otherwise".
        (lane % 4, if low { i } else { i + 4 })
    }
}

/// Figures 50 (`.f16`) and 51/52 (`.f32`): (row, col) of element `i` of C or D (8x8).
fn acc_table(f32_acc: bool, lane: usize, i: usize) -> (usize, usize) {
    let low = lane < 16;
    if f32_acc {
        // "row = X if %laneid < 16, X + 4 otherwise, X = (%laneid & 0b1) + (i & 0b10);
        // col = (i & 0b100) + (%laneid & 0b10) + (i & 0b1)".
        let x = (lane & 1) + (i & 2);
        (if low { x } else { x + 4 }, (i & 4) + (lane & 2) + (i & 1))
    } else {
        // "row = %laneid % 4 if %laneid < 16, (%laneid % 4) + 4 otherwise; col = i".
        (if low { lane % 4 } else { lane % 4 + 4 }, i)
    }
}

fn h(v: f64) -> u64 {
    u64::from(half::f16::from_f64(v).to_bits())
}

fn from_h(bits: u64) -> f64 {
    half::f16::from_bits(bits as u16).to_f64()
}

/// Element `i` of a fragment of `bits`-bit elements, low half of the first register first.
fn put(f: &mut Frag, i: usize, bits: u32, v: u64) {
    let per = 32 / bits as usize;
    f[i / per] |= (v & ((1 << bits) - 1)) << ((i % per) as u32 * bits);
}

fn get(f: &Frag, i: usize, bits: u32) -> u64 {
    let per = 32 / bits as usize;
    (f[i / per] >> ((i % per) as u32 * bits)) & ((1 << bits) - 1)
}

fn all_forms() -> Vec<(bool, bool, bool, bool)> {
    let mut v = Vec::new();
    for n in 0..16u32 {
        v.push((n & 1 != 0, n & 2 != 0, n & 4 != 0, n & 8 != 0));
    }
    v
}

fn kind((a_col, b_col, c_f32, d_f32): (bool, bool, bool, bool)) -> MmaKind {
    MmaKind::M8n8k4F16 {
        a_col,
        b_col,
        c_f32,
        d_f32,
    }
}

/// Per quad-pair matrices: A 8x4, B 4x8, C 8x8, as f64 values (all exactly representable
/// in f16 by the callers' choice).
type Mats = ([[[f64; 4]; 8]; 4], [[[f64; 8]; 4]; 4], [[[f64; 8]; 8]; 4]);

/// Scatters the matrices into fragments through the manual's tables.
fn fragments(form: (bool, bool, bool, bool), m: &Mats) -> [[Frag; 32]; 3] {
    let (a_col, b_col, c_f32, _) = form;
    let mut a = [[0u64; 8]; 32];
    let mut b = [[0u64; 8]; 32];
    let mut c = [[0u64; 8]; 32];
    for lane in 0..32 {
        let q = computation(lane);
        for i in 0..4 {
            let (r, k) = a_table(a_col, lane, i);
            put(&mut a[lane], i, 16, h(m.0[q][r][k]));
            let (k, j) = b_table(b_col, lane, i);
            put(&mut b[lane], i, 16, h(m.1[q][k][j]));
        }
        for i in 0..8 {
            let (r, j) = acc_table(c_f32, lane, i);
            let v = m.2[q][r][j];
            if c_f32 {
                put(&mut c[lane], i, 32, u64::from((v as f32).to_bits()));
            } else {
                put(&mut c[lane], i, 16, h(v));
            }
        }
    }
    [a, b, c]
}

/// D's element `i` of `lane` as f64.
fn d_elem(d_f32: bool, d: &[Frag; 32], lane: usize, i: usize) -> f64 {
    if d_f32 {
        f64::from(f32::from_bits(get(&d[lane], i, 32) as u32))
    } else {
        from_h(get(&d[lane], i, 16))
    }
}

/// The expected D: C + A·B per quad-pair, exact in f64 (the callers' values keep every sum
/// exact), then rounded once to D's type.
fn expected(m: &Mats, q: usize, r: usize, j: usize, d_f32: bool) -> f64 {
    let mut s = m.2[q][r][j];
    for k in 0..4 {
        s += m.0[q][r][k] * m.1[q][k][j];
    }
    if d_f32 {
        f64::from(s as f32)
    } else {
        from_h(h(s))
    }
}

fn run_and_check(form: (bool, bool, bool, bool), m: &Mats, what: &str) {
    let [a, b, c] = fragments(form, m);
    let d = mma_sync(kind(form), false, &a, &b, &c);
    let d_f32 = form.3;
    for lane in 0..32 {
        let q = computation(lane);
        for i in 0..8 {
            let (r, j) = acc_table(d_f32, lane, i);
            let want = expected(m, q, r, j, d_f32);
            let got = d_elem(d_f32, &d, lane, i);
            assert_eq!(
                got, want,
                "{what}: form {form:?} lane {lane} d{i} (quad-pair {q}, D[{r}][{j}])"
            );
        }
        // An .f16 D fills four registers; the rest of the fragment stays clear.
        if !d_f32 {
            assert_eq!(&d[lane][4..], &[0; 4], "form {form:?} lane {lane}");
        }
    }
}

#[test]
fn c_reaches_d_through_both_accumulator_layouts() {
    // A = B = 0: D is C, element for element; C distinct in every element and quad-pair
    // (at most 256: exact in f16).
    for form in all_forms() {
        let mut m: Mats = ([[[0.0; 4]; 8]; 4], [[[0.0; 8]; 4]; 4], [[[0.0; 8]; 8]; 4]);
        for q in 0..4 {
            for r in 0..8 {
                for j in 0..8 {
                    m.2[q][r][j] = (q * 64 + r * 8 + j + 1) as f64;
                }
            }
        }
        run_and_check(form, &m, "C -> D");
    }
}

#[test]
fn every_a_and_b_element_lands_where_the_tables_say() {
    // B is one at (kk, j0) and zero elsewhere, so D's column j0 is A's column kk and every
    // other element is C; A is distinct in every element and quad-pair (1..=128), C distinct
    // and negative (exact: |D| <= 256). Every (kk, j0) is tried, so every B element is.
    for form in all_forms() {
        for kk in 0..4 {
            for j0 in 0..8 {
                let mut m: Mats = ([[[0.0; 4]; 8]; 4], [[[0.0; 8]; 4]; 4], [[[0.0; 8]; 8]; 4]);
                for q in 0..4 {
                    for r in 0..8 {
                        for k in 0..4 {
                            m.0[q][r][k] = (q * 32 + r * 4 + k + 1) as f64;
                        }
                        for j in 0..8 {
                            m.2[q][r][j] = -((r * 8 + j) as f64) / 2.0;
                        }
                    }
                    m.1[q][kk][j0] = 1.0;
                }
                run_and_check(form, &m, "A/B placement");
            }
        }
    }
}

#[test]
fn full_products_with_distinct_a_b_and_c() {
    // Every element of A, B and C distinct; A in 1/8 steps within [-3, 4], B integers
    // -16..=16, so every sum is exact in f64 and f32; an f16 D is that sum rounded once (by
    // the `half` crate in `expected`).
    for form in all_forms() {
        let mut m: Mats = ([[[0.0; 4]; 8]; 4], [[[0.0; 8]; 4]; 4], [[[0.0; 8]; 8]; 4]);
        for q in 0..4 {
            for r in 0..8 {
                for k in 0..4 {
                    m.0[q][r][k] = ((q * 32 + r * 4 + k) % 32 + 1) as f64 / 8.0 - q as f64;
                }
                for j in 0..8 {
                    m.2[q][r][j] = (r * 8 + j) as f64 - 32.0 + q as f64 / 4.0;
                }
            }
            for k in 0..4 {
                for j in 0..8 {
                    m.1[q][k][j] = ((k * 8 + j + q) % 33) as f64 - 16.0;
                }
            }
        }
        run_and_check(form, &m, "full product");
    }
}

/// One quad-pair-uniform product: every lane's fragments from single values `a`, `b` (f16
/// bits) and `c` (f32 bits), `.row.col.f32.f16.f16.f32`; returns lane 0's d0.
fn uniform_f32(a: u16, b: u16, c: f32) -> f32 {
    let k = kind((false, true, true, true));
    let ab = |v: u16| -> [Frag; 32] {
        let reg = u64::from(v) | (u64::from(v) << 16);
        [[reg, reg, 0, 0, 0, 0, 0, 0]; 32]
    };
    let cf = [[u64::from(c.to_bits()); 8]; 32];
    f32::from_bits(mma_sync(k, false, &ab(a), &ab(b), &cf)[0][0] as u32)
}

#[test]
fn f32_accumulation_rounds_once_after_exact_products() {
    // C = 2^24, four products of 1: the exact sum 2^24 + 4 is an f32; so is each partial
    // sum here, so take C = 2^24 and products 0.5 (1 * 0.5): 2^24 + 2 exact, while rounding
    // after each addition (2^24 + 0.5 -> 2^24) would give 2^24.
    let one = half::f16::from_f64(1.0).to_bits();
    let half_v = half::f16::from_f64(0.5).to_bits();
    assert_eq!(uniform_f32(one, half_v, 16_777_216.0), 16_777_218.0);
    // Subnormal f16 inputs are kept: 2^-24 * 2^-24 * 4 = 2^-46, an f32 normal.
    let tiny = 1u16; // the smallest f16 subnormal, 2^-24
    assert_eq!(uniform_f32(tiny, tiny, 0.0), 2f32.powi(-46));
    // inf * 0 is NaN; the result is the canonical f32 NaN.
    let inf = half::f16::INFINITY.to_bits();
    let r = uniform_f32(inf, 0, 1.0);
    assert!(r.is_nan());
    assert_eq!(r.to_bits(), 0x7fff_ffff);
    // inf * 1 + finite C stays inf.
    assert_eq!(uniform_f32(inf, one, 5.0), f32::INFINITY);
}

#[test]
fn f16_destination_rounds_to_nearest_even_once() {
    // .row.row.f16.f16.f16.f16, C = 2048 (f16 spacing 2 there), four products of 0.25: the
    // exact sum 2049 is a tie between 2048 and 2050 and rounds to even 2048; 0.375 products
    // give 2049.5 -> 2050.
    let k = kind((false, false, false, false));
    let uniform = |a: f64, b: f64, c: f64| -> f64 {
        let ab = |v: f64| -> [Frag; 32] {
            let reg = h(v) | (h(v) << 16);
            [[reg, reg, 0, 0, 0, 0, 0, 0]; 32]
        };
        let creg = h(c) | (h(c) << 16);
        let cf = [[creg, creg, creg, creg, 0, 0, 0, 0]; 32];
        from_h(get(&mma_sync(k, false, &ab(a), &ab(b), &cf)[5], 3, 16))
    };
    assert_eq!(uniform(0.5, 0.5, 2048.0), 2048.0);
    assert_eq!(uniform(0.75, 0.5, 2048.0), 2050.0);
    // Overflow past the f16 range gives inf.
    assert_eq!(uniform(256.0, 256.0, 0.0), f64::INFINITY);
}
