//! `min/max.NaN{.ftz}.f32` on both executors, bit for bit, over all pairs of 48 f32 edge
//! classes, against PTX's rule written here: a NaN operand gives the canonical NaN, else
//! Tables 27/28's `(a < b) ? a : b` / `(a > b) ? a : b` (`.ftz` flushes subnormal operands
//! first).

mod common;
use common::*;

const ROWS: &[&str] = &[
    "min.NaN.f32 %r7, %r5, %r6;",
    "max.NaN.f32 %r7, %r5, %r6;",
    "min.ftz.NaN.f32 %r7, %r5, %r6;",
    "max.ftz.NaN.f32 %r7, %r5, %r6;",
    // Guarded: lanes whose a is below b keep the destination's earlier value (0x12345).
    "mov.u32 %r7, 0x12345;\n\tsetp.lt.u32 %p1, %r5, %r6;\n\t@!%p1 min.NaN.f32 %r7, %r5, %r6;",
];

fn expect(row: usize, x: u32, y: u32) -> u32 {
    if row == 4 {
        return if x < y { 0x12345 } else { expect(0, x, y) };
    }
    let flush = |v: u32| {
        if row >= 2 && f32::from_bits(v).is_subnormal() {
            v & 0x8000_0000
        } else {
            v
        }
    };
    let (x, y) = (flush(x), flush(y));
    let nan = |v: u32| v & 0x7fff_ffff > 0x7f80_0000;
    if nan(x) || nan(y) {
        return 0x7fff_ffff;
    }
    let (a, b) = (f32::from_bits(x), f32::from_bits(y));
    let max = row % 2 == 1;
    // PTX Tables 27/28: (a < b) ? a : b and (a > b) ? a : b, so equal values (±0) give b.
    if (!max && a < b) || (max && a > b) {
        x
    } else {
        y
    }
}

#[test]
fn nan_propagating_min_max_agree_with_the_spec() {
    let mut body = String::new();
    for (i, row) in ROWS.iter().enumerate() {
        body += &format!("\t{row}\n\tst.global.u32 [%rd7+{}], %r7;\n", 4 * i);
    }
    let text = row_kernel(
        "mmn",
        "\t.reg .pred %p<2>;\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<8>;\n",
        &[("u32", "%r5", 4), ("u32", "%r6", 4)],
        4 * ROWS.len(),
        &body,
    )
    .replace(".target sm_20", ".target sm_80");
    let edges = f32_edges(48, 0x77aa);
    let (a, b) = all_pairs(&edges);
    let got = run_row_pairs("mmn", &text, ROWS.len(), &a, &b);
    assert_rows(ROWS, &a, &b, &got, |r, x, y| Some(expect(r, x, y)));
}
