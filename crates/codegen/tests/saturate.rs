//! `add.sat.s32`, `sub.sat.s32` with immediates, and `cvt.sat` between integer types of at
//! most 32 bits on both executors, bit for bit, over all pairs of 32 integer edges, against
//! the clamps written here (PTX ISA: `.sat` limits the result to the destination type's
//! MININT..MAXINT; a destination register wider than the type holds it extended).

mod common;
use common::*;

const ROWS: &[&str] = &[
    "add.sat.s32 %r7, %r5, %r6;",
    "sub.sat.s32 %r7, %r5, 1000;",
    "sub.sat.s32 %r7, %r5, -5;",
    "cvt.sat.s8.s32 %r7, %r5;",
    "cvt.sat.u8.s32 %r7, %r5;",
    "cvt.sat.s16.u32 %r7, %r5;",
    "cvt.sat.u16.u32 %r7, %r5;",
    "cvt.sat.u32.s32 %r7, %r5;",
    "cvt.sat.s32.u32 %r7, %r5;",
    "cvt.sat.u8.u32 %r7, %r5;",
    "cvt.sat.s16.s32 %r7, %r6;",
    "cvt.u16.u32 %rs1, %r6;\n\tcvt.sat.s8.s16 %rs2, %rs1;\n\tcvt.u32.u16 %r7, %rs2;",
    "cvt.u16.u32 %rs1, %r6;\n\tcvt.sat.u8.s16 %rs2, %rs1;\n\tcvt.u32.u16 %r7, %rs2;",
    "cvt.u16.u32 %rs1, %r6;\n\tcvt.sat.s16.u16 %rs2, %rs1;\n\tcvt.u32.u16 %r7, %rs2;",
];

fn clamp(v: i64, lo: i64, hi: i64) -> i64 {
    v.clamp(lo, hi)
}

fn expect(row: usize, x: u32, y: u32) -> u32 {
    let (sx, sy) = (i64::from(x as i32), i64::from(y as i32));
    let (ux, uy) = (i64::from(x), i64::from(y));
    let s32 = |v: i64| clamp(v, i64::from(i32::MIN), i64::from(i32::MAX)) as u32;
    // A 16-bit register's value, zero-extended by the final cvt.u32.u16.
    let h = |v: i64| u32::from(v as u16);
    match row {
        0 => s32(sx + sy),
        1 => s32(sx - 1000),
        2 => s32(sx + 5),
        3 => clamp(sx, -128, 127) as u32,
        4 => clamp(sx, 0, 255) as u32,
        5 => clamp(ux, -32768, 32767) as u32,
        6 => clamp(ux, 0, 65535) as u32,
        7 => clamp(sx, 0, i64::from(u32::MAX)) as u32,
        8 => clamp(ux, 0, i64::from(i32::MAX)) as u32,
        9 => clamp(ux, 0, 255) as u32,
        10 => clamp(sy, -32768, 32767) as u32,
        11 => h(clamp(i64::from(y as u16 as i16), -128, 127)),
        12 => h(clamp(i64::from(y as u16 as i16), 0, 255)),
        _ => h(clamp(uy & 0xffff, -32768, 32767)),
    }
}

#[test]
fn saturating_adds_and_conversions_agree_with_the_spec() {
    let mut body = String::new();
    for (i, row) in ROWS.iter().enumerate() {
        body += &format!("\t{row}\n\tst.global.u32 [%rd7+{}], %r7;\n", 4 * i);
    }
    let text = row_kernel(
        "sat",
        "\t.reg .b16 %rs<3>;\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<8>;\n",
        &[("u32", "%r5", 4), ("u32", "%r6", 4)],
        4 * ROWS.len(),
        &body,
    );
    let edges = int_edges(32, 0x5a7_5a7);
    let (a, b) = all_pairs(&edges);
    let got = run_row_pairs("sat", &text, ROWS.len(), &a, &b);
    assert_rows(ROWS, &a, &b, &got, |r, x, y| Some(expect(r, x, y)));
}

/// `sub.sat.s32` of a register (MIN included: its 32-bit negation is itself), of MIN as an
/// immediate, and of an immediate minuend; `mad.hi.sat.s32`; `mul24.hi`/`mad24.hi{.sat}`:
/// against i64 arithmetic clamped here (PTX ISA §9.7.1.2, §9.7.1.4–6: `.sat` clamps to
/// MININT..MAXINT).
const SUB_ROWS: &[&str] = &[
    "sub.sat.s32 %r7, %r5, %r6;",
    "sub.sat.s32 %r7, %r6, %r5;",
    "sub.sat.s32 %r7, %r5, -2147483648;",
    "sub.sat.s32 %r7, 5, %r6;",
    "sub.sat.s32 %r7, -7, %r6;",
    "sub.sat.s32 %r7, %r5, %r5;",
    "mad.hi.sat.s32 %r7, %r5, %r6, %r6;",
    "mad.hi.sat.s32 %r7, %r5, %r5, %r6;",
    "mad.hi.sat.s32 %r7, %r5, %r6, 2147483647;",
    "mul24.hi.u32 %r7, %r5, %r6;",
    "mul24.hi.s32 %r7, %r5, %r6;",
    "mad24.hi.u32 %r7, %r5, %r6, 0x12345;",
    "mad24.hi.s32 %r7, %r5, %r6, %r5;",
    "mad24.hi.sat.s32 %r7, %r5, %r6, %r6;",
    "mad24.hi.sat.s32 %r7, %r5, %r5, -2147483000;",
];

fn sub_expect(row: usize, x: u32, y: u32) -> u32 {
    let (sx, sy) = (i64::from(x as i32), i64::from(y as i32));
    let s32 = |v: i64| v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32 as u32;
    let hi = |a: i64, b: i64| (a * b) >> 32;
    match row {
        0 => s32(sx - sy),
        1 => s32(sy - sx),
        2 => s32(sx + (1 << 31)),
        3 => s32(5 - sy),
        4 => s32(-7 - sy),
        5 => 0,
        6 => s32(hi(sx, sy) + sy),
        7 => s32(hi(sx, sx) + sy),
        8 => s32(hi(sx, sy) + i64::from(i32::MAX)),
        // mul24/mad24 .hi (§9.7.1.5–6): bits 47..16 of the product of the low 24 bits.
        _ => {
            let u24 = |v: u32| i64::from(v & 0xff_ffff);
            let s24 = |v: u32| i64::from(((v << 8) as i32) >> 8);
            let h = |p: i64| (p >> 16) as u32;
            match row {
                9 => h(u24(x) * u24(y)),
                10 => h(s24(x) * s24(y)),
                11 => h(u24(x) * u24(y)).wrapping_add(0x12345),
                12 => h(s24(x) * s24(y)).wrapping_add(x),
                13 => s32(i64::from(h(s24(x) * s24(y)) as i32) + sy),
                _ => s32(i64::from(h(s24(x) * s24(x)) as i32) - 2147483000),
            }
        }
    }
}

#[test]
fn saturating_differences_of_registers_and_mad_hi_sat_agree_with_the_spec() {
    let mut body = String::new();
    for (i, row) in SUB_ROWS.iter().enumerate() {
        body += &format!("\t{row}\n\tst.global.u32 [%rd7+{}], %r7;\n", 4 * i);
    }
    let text = row_kernel(
        "subsat",
        "\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<8>;\n",
        &[("u32", "%r5", 4), ("u32", "%r6", 4)],
        4 * SUB_ROWS.len(),
        &body,
    );
    let edges = int_edges(32, 0x5b7_5b7);
    let (a, b) = all_pairs(&edges);
    let got = run_row_pairs("subsat", &text, SUB_ROWS.len(), &a, &b);
    assert_rows(SUB_ROWS, &a, &b, &got, |r, x, y| Some(sub_expect(r, x, y)));
}
