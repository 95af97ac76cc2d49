//! Scalar video instructions (`vadd`, `vsub`, `vmin`, `vmax`, `vshl`, `vshr`) onto Fermi's
//! VADD/VMNMX/VSHL/VSHR on both executors, bit for bit, over all pairs of 32 integer edges;
//! the rows without saturation or merging are also checked against PTX's definition written
//! here (part select and extend, the operation on 33+ bits, the low 32 bits, the secondary
//! add), the `.sat` and merge rows against the PTX executor.

mod common;
use common::*;

const ROWS: &[&str] = &[
    "vadd.u32.u32.u32 %r7, %r5.b0, %r6.b1;",
    "vsub.s32.s32.s32 %r7, %r5.h1, %r6.h0;",
    "vmin.s32.s32.s32 %r7, %r5, %r6;",
    "vmax.u32.u32.u32.add %r7, %r5, %r6, %r5;",
    "vshl.u32.u32.u32.wrap %r7, %r5, %r6;",
    "vshr.s32.s32.u32.clamp %r7, %r5, %r6;",
    "vadd.s32.u32.s32 %r7, %r5.b3, %r6.b2;",
    "vmin.u32.s32.u32.min %r7, %r5.h0, %r6, %r6;",
    // Differential only: saturation and merges.
    "vadd.s32.s32.s32.sat %r7, %r5, %r6;",
    "vsub.u32.u32.u32.sat %r7, %r5.h1, %r6;",
    "vadd.u32.u32.u32 %r7.h1, %r5, %r6, %r5;",
    "vmax.s32.s32.s32 %r7.b2, %r5.b1, %r6, %r6;",
];

/// PTX's part select: the selected byte or half-word (or the word), sign- or zero-extended.
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

fn expect(row: usize, x: u32, y: u32) -> Option<u32> {
    let lo = |v: i64| v as u32;
    Some(match row {
        0 => lo(ext(x, false, "b0") + ext(y, false, "b1")),
        1 => lo(ext(x, true, "h1") - ext(y, true, "h0")),
        2 => lo(ext(x, true, "w").min(ext(y, true, "w"))),
        3 => lo(ext(x, false, "w").max(ext(y, false, "w")) + i64::from(x)),
        4 => lo(ext(x, false, "w") << (y & 31)),
        5 => lo(ext(x, true, "w") >> y.min(32)),
        6 => lo(ext(x, false, "b3") + ext(y, true, "b2")),
        7 => lo(ext(x, true, "h0").min(i64::from(y)).min(i64::from(y))),
        _ => return None,
    })
}

#[test]
fn scalar_video_instructions_agree_with_the_spec() {
    let mut body = String::new();
    for (i, row) in ROWS.iter().enumerate() {
        // Merging rows read the destination's other parts: start it from a known value.
        body += &format!(
            "\tmov.u32 %r7, 0x89abcdef;\n\t{row}\n\tst.global.u32 [%rd7+{}], %r7;\n",
            4 * i
        );
    }
    let text = row_kernel(
        "video",
        "\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<8>;\n",
        &[("u32", "%r5", 4), ("u32", "%r6", 4)],
        4 * ROWS.len(),
        &body,
    );
    let edges = int_edges(32, 0x0bad_f00d);
    let (a, b) = all_pairs(&edges);
    let got = run_row_pairs("video", &text, ROWS.len(), &a, &b);
    assert_rows(ROWS, &a, &b, &got, expect);
}
