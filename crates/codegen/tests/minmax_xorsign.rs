//! `min/max{.ftz}{.NaN}.xorsign.abs.f32` on both executors, bit for bit, over all pairs of 48
//! f32 edge classes, against PTX ISA §9.7.3.10/11 written here: the magnitudes compared by
//! Tables 27/28 (a NaN operand gives the other; equal values give b), the result's sign the
//! XOR of the operands' signs; a NaN result (both NaN, or with `.NaN` either) is the
//! canonical NaN; `.ftz` flushes subnormal operands (keeping their signs) first.

mod common;
use common::*;

const ROWS: &[&str] = &[
    "min.xorsign.abs.f32 %r7, %r5, %r6;",
    "max.xorsign.abs.f32 %r7, %r5, %r6;",
    "min.ftz.NaN.xorsign.abs.f32 %r7, %r5, %r6;",
    "max.NaN.xorsign.abs.f32 %r7, %r5, %r6;",
    "max.ftz.xorsign.abs.f32 %r7, %r5, %r6;",
    // Guarded: lanes whose a is below b keep the destination's earlier value (0x12345).
    "mov.u32 %r7, 0x12345;\n\tsetp.lt.u32 %p1, %r5, %r6;\n\t@!%p1 min.xorsign.abs.f32 %r7, %r5, %r6;",
];

fn expect(row: usize, x: u32, y: u32) -> u32 {
    if row == 5 {
        return if x < y { 0x12345 } else { expect(0, x, y) };
    }
    let (max, ftz, nan_mode) = [
        (false, false, false),
        (true, false, false),
        (false, true, true),
        (true, false, true),
        (true, true, false),
    ][row];
    let flush = |v: u32| {
        if ftz && f32::from_bits(v).is_subnormal() {
            v & 0x8000_0000
        } else {
            v
        }
    };
    let (x, y) = (flush(x), flush(y));
    let nan = |v: u32| v & 0x7fff_ffff > 0x7f80_0000;
    if nan_mode && (nan(x) || nan(y)) || nan(x) && nan(y) {
        return 0x7fff_ffff;
    }
    let (mx, my) = (x & 0x7fff_ffff, y & 0x7fff_ffff);
    let (a, b) = (f32::from_bits(mx), f32::from_bits(my));
    let m = if nan(mx) {
        my
    } else if nan(my) || (!max && a < b) || (max && a > b) {
        mx
    } else {
        my
    };
    m | ((x ^ y) & 0x8000_0000)
}

#[test]
fn xorsign_abs_min_max_agree_with_the_spec() {
    let mut body = String::new();
    for (i, row) in ROWS.iter().enumerate() {
        body += &format!("\t{row}\n\tst.global.u32 [%rd7+{}], %r7;\n", 4 * i);
    }
    let text = row_kernel(
        "mmx",
        "\t.reg .pred %p<2>;\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<8>;\n",
        &[("u32", "%r5", 4), ("u32", "%r6", 4)],
        4 * ROWS.len(),
        &body,
    )
    .replace(".target sm_20", ".target sm_86")
    .replace(".version 7.0", ".version 7.2");
    let edges = f32_edges(48, 0x5a17);
    let (a, b) = all_pairs(&edges);
    let got = run_row_pairs("mmx", &text, ROWS.len(), &a, &b);
    assert_rows(ROWS, &a, &b, &got, |r, x, y| Some(expect(r, x, y)));
}
