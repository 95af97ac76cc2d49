//! `.sat` of `.f32` `add`/`sub`/`mul`/`fma` (`FADD`/`FMUL`/`FFMA` `.SAT`) on both executors, bit
//! for bit, over all pairs of f32 edges, against IEEE arithmetic done here then saturated as
//! PTX ISA §9.7.3 says: the result clamped to [0.0, 1.0], NaN → +0.0 (`.ftz` flushes
//! subnormal sources and results to sign-preserving zero first); the `.rz` sum from
//! `common::add_f32`'s exact directed rounding.

mod common;
use common::*;

const ROWS: &[&str] = &[
    "add.sat.f32 %f3, %f1, %f2;",
    "sub.sat.f32 %f3, %f1, %f2;",
    "mul.ftz.sat.f32 %f3, %f1, %f2;",
    "fma.rn.sat.f32 %f3, %f1, %f2, %f1;",
    "add.rz.sat.f32 %f3, %f1, %f2;",
    "mad.rn.ftz.sat.f32 %f3, %f1, %f2, %f2;",
];

fn sat(x: f32) -> u32 {
    (if x > 0.0 { x.min(1.0) } else { 0.0 }).to_bits()
}

fn flush(x: f32) -> f32 {
    if x.is_subnormal() {
        0.0f32.copysign(x)
    } else {
        x
    }
}

fn expect(row: usize, a: u32, b: u32) -> Option<u32> {
    let (x, y) = (f32::from_bits(a), f32::from_bits(b));
    Some(match row {
        0 => sat(x + y),
        1 => sat(x - y),
        2 => sat(flush(flush(x) * flush(y))),
        3 => sat(x.mul_add(y, x)),
        4 => sat(add_f32(x, y, Directed::Rz)),
        _ => sat(flush(flush(x).mul_add(flush(y), flush(y)))),
    })
}

#[test]
fn saturated_float_arithmetic_agrees_with_ieee_then_clamped() {
    let mut body = String::new();
    for (i, row) in ROWS.iter().enumerate() {
        body += &format!("\t{row}\n\tst.global.f32 [%rd7+{}], %f3;\n", 4 * i);
    }
    let text = row_kernel(
        "fsat",
        "\t.reg .f32 %f<4>;\n\t.reg .b32 %r<5>;\n\t.reg .b64 %rd<8>;\n",
        &[("f32", "%f1", 4), ("f32", "%f2", 4)],
        4 * ROWS.len(),
        &body,
    );
    let edges = f32_edges(32, 0xf5a7);
    let (a, b) = all_pairs(&edges);
    let got = run_row_pairs("fsat", &text, ROWS.len(), &a, &b);
    assert_rows(ROWS, &a, &b, &got, expect);
}
