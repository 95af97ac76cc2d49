//! `.sat` of `vmin`/`vmax`/`vshr`/`vshl` (no saturation bit in Fermi's VMNMX/VSHR rows: the operands
//! or the shifted value are clamped to the destination's range first, `select/video_sat.rs`)
//! on both executors, against PTX ISA §9.7.18.1's definition written here: part select and
//! extend, the operation on 33 bits, `optSaturate` to the destination type (or the merged
//! part's type), then the secondary operation (`c` signed by the destination type) or merge.

use crate::common::*;

/// (row, destination signed, destination part bits (32 = none, or merge 8/16 at `shift`)).
const ROWS: &[&str] = &[
    "vmin.s32.u32.s32.sat %r7, %r5, %r6;",
    "vmax.u32.s32.s32.sat %r7, %r5, %r6;",
    "vmax.s32.u32.u32.sat %r7, %r5.h1, %r6;",
    "vmin.u32.s32.u32.sat.add %r7, %r5.b2, %r6, %r6;",
    "vmax.s32.s32.u32.sat.min %r7, %r5, %r6.b1, %r5;",
    "vmin.s32.s32.s32.sat %r7.b0, %r5, %r6, %r6;",
    "vmax.u32.u32.s32.sat %r7.h1, %r5, %r6, %r5;",
    "vshr.s32.u32.u32.sat.clamp %r7, %r5, %r6;",
    "vshr.u32.s32.u32.sat.wrap %r7, %r5, %r6;",
    "vshr.s32.s32.u32.sat.clamp.max %r7, %r5.h0, %r6.b0, %r6;",
    "vshr.u32.s32.u32.sat.wrap %r7.b2, %r5, %r6.b0, %r5;",
    "vshr.s32.u32.u32.sat.clamp %r7.h0, %r5, %r6.b0, %r6;",
    "vmin.u32.u32.u32.sat %r7, %r5, %r6;",
    "vshl.s32.u32.u32.sat.clamp %r7, %r5, %r6;",
    "vshl.u32.s32.u32.sat.wrap %r7, %r5, %r6;",
    "vshl.s32.s32.u32.sat.clamp.add %r7, %r5.h1, %r6.b0, %r6;",
    "vshl.u32.u32.u32.sat.clamp %r7.b0, %r5.b1, %r6.b2, %r5;",
    "vshl.s32.s32.u32.sat.wrap %r7.h1, %r5, %r6.h0, %r6;",
    "vshl.u32.s32.u32.sat.clamp.min %r7, %r5.b3, %r6, %r5;",
    "vshl.s32.s32.u32.sat.clamp %r7, %r5, %r6;",
    "vshl.u32.u32.u32.sat.clamp %r7, %r5, %r6;",
];

fn ext(v: u32, signed: bool, sel: &str) -> i64 {
    let (shift, bits) = match sel {
        "b0" => (0, 8),
        "b1" => (8, 8),
        "b2" => (16, 8),
        "b3" => (24, 8),
        "h0" => (0, 16),
        "h1" => (16, 16),
        _ => (0, 32),
    };
    let x = (u64::from(v) >> shift) & ((1u64 << bits) - 1);
    if signed && x >> (bits - 1) & 1 == 1 {
        x as i64 - (1i64 << bits)
    } else {
        x as i64
    }
}

/// optSaturate to a `bits`-wide signed or unsigned range.
fn sat(t: i64, signed: bool, bits: u32) -> i64 {
    let (lo, hi) = if signed {
        (-(1i64 << (bits - 1)), (1i64 << (bits - 1)) - 1)
    } else {
        (0, (1i64 << bits) - 1)
    };
    t.clamp(lo, hi)
}

/// `sat(ta << tb)` on the exact value.
fn shl_sat(ta: i64, tb: u32, signed: bool, bits: u32) -> i64 {
    let v = i128::from(ta) << tb;
    let (lo, hi) = if signed {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    };
    v.clamp(lo, hi) as i64
}

/// `c` (the destination type's sign) as an s33 value.
fn c33(c: u32, signed: bool) -> i64 {
    ext(c, signed, "w")
}

/// optMerge of the low `bits` of `t` into `c` at `shift`.
fn merge(t: i64, c: u32, bits: u32, shift: u32) -> u32 {
    let mask = ((1u64 << bits) - 1) as u32;
    ((t as u32 & mask) << shift) | (c & !(mask << shift))
}

fn expect(row: usize, x: u32, y: u32) -> u32 {
    let w = |v: i64| v as u32;
    match row {
        0 => w(sat(ext(x, false, "w").min(ext(y, true, "w")), true, 32)),
        1 => w(sat(ext(x, true, "w").max(ext(y, true, "w")), false, 32)),
        2 => w(sat(ext(x, false, "h1").max(ext(y, false, "w")), true, 32)),
        3 => w(sat(ext(x, true, "b2").min(ext(y, false, "w")), false, 32) + c33(y, false)),
        4 => w(sat(ext(x, true, "w").max(ext(y, false, "b1")), true, 32).min(c33(x, true))),
        5 => merge(
            sat(ext(x, true, "w").min(ext(y, true, "w")), true, 8),
            y,
            8,
            0,
        ),
        6 => merge(
            sat(ext(x, false, "w").max(ext(y, true, "w")), false, 16),
            x,
            16,
            16,
        ),
        7 => w(sat(ext(x, false, "w") >> y.min(32), true, 32)),
        8 => w(sat(ext(x, true, "w") >> (y & 31), false, 32)),
        9 => w(sat(ext(x, true, "h0") >> (y & 0xff).min(32), true, 32).max(c33(y, true))),
        10 => merge(
            sat(ext(x, true, "w") >> (y & 0xff & 31), false, 8),
            x,
            8,
            16,
        ),
        11 => merge(
            sat(ext(x, false, "w") >> (y & 0xff).min(32), true, 16),
            y,
            16,
            0,
        ),
        12 => w(sat(ext(x, false, "w").min(ext(y, false, "w")), false, 32)),
        // vshl: the exact shifted value (up to 65 bits), then optSaturate.
        13 => w(shl_sat(ext(x, false, "w"), y.min(32), true, 32)),
        14 => w(shl_sat(ext(x, true, "w"), y & 31, false, 32)),
        15 => w(shl_sat(ext(x, true, "h1"), (y & 0xff).min(32), true, 32) + c33(y, true)),
        16 => merge(
            shl_sat(ext(x, false, "b1"), (y >> 16 & 0xff).min(32), false, 8),
            x,
            8,
            0,
        ),
        17 => merge(
            shl_sat(ext(x, true, "w"), (y & 0xffff) & 31, true, 16),
            y,
            16,
            16,
        ),
        18 => w(shl_sat(ext(x, true, "b3"), y.min(32), false, 32).min(c33(x, false))),
        19 => w(shl_sat(ext(x, true, "w"), y.min(32), true, 32)),
        20 => w(shl_sat(ext(x, false, "w"), y.min(32), false, 32)),
        _ => unreachable!("one expectation per row"),
    }
}

#[test]
fn saturating_vmin_vmax_vshr_agree_with_the_spec() {
    let mut body = String::new();
    for (i, row) in ROWS.iter().enumerate() {
        // A merge's untouched bits are c's: start from c in %r7.
        let c = if row.contains("%r7.") {
            let c = row
                .rsplit(", ")
                .next()
                .unwrap_or("%r5;")
                .trim_end_matches(';');
            format!("\tmov.b32 %r7, {c};\n")
        } else {
            String::new()
        };
        body += &format!("{c}\t{row}\n\tst.global.u32 [%rd7+{}], %r7;\n", 4 * i);
    }
    let text = row_kernel(
        "vsat",
        "\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<8>;\n",
        &[("u32", "%r5", 4), ("u32", "%r6", 4)],
        4 * ROWS.len(),
        &body,
    );
    let mut edges = int_edges(30, 0x7531_8642);
    edges.extend([
        0x7f,
        0x80,
        0xff,
        0x100,
        0xff80,
        0x8000_7fff,
        0x0080_0000,
        0x7fff_8000,
    ]);
    edges.extend([0xffff_ff80, 0x21, 0x1f, 0x20, 0xff7f_ff00]);
    let (mut a, mut b) = all_pairs(&edges);
    while a.len() % 64 != 0 {
        a.push(0);
        b.push(0);
    }
    let got = run_row_pairs("vsat", &text, ROWS.len(), &a, &b);
    assert_rows(ROWS, &a, &b, &got, |r, x, y| Some(expect(r, x, y)));
}
