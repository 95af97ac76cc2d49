//! `vabsdiff` and `vset` onto Fermi's VABSDIFF and VSET on both executors, bit for bit, over
//! all pairs of 32 integer edges; the rows without saturation or merging also against PTX's
//! definition written here (part select and extend, `|a − b|` or the comparison on 33+
//! bits, the secondary operation on the result, the low 32 bits), the `.sat` row against a
//! clamp written here, the merging rows against the PTX executor.

mod common;
use common::*;

const ROWS: &[&str] = &[
    "vabsdiff.u32.u32.u32 %r7, %r5, %r6;",
    "vabsdiff.s32.s32.s32 %r7, %r5.h1, %r6.h0;",
    "vabsdiff.u32.s32.u32.add %r7, %r5.b2, %r6.b0, %r5;",
    "vabsdiff.u32.u32.u32.max %r7, %r5.b1, %r6.b3, %r6;",
    "vabsdiff.s32.u32.s32.min %r7, %r5, %r6.h1, %r5;",
    "vabsdiff.s32.s32.s32.sat %r7, %r5, %r6;",
    "vset.u32.u32.lt %r7, %r5, %r6;",
    "vset.s32.s32.ge %r7, %r5.h0, %r6.h1;",
    "vset.s32.u32.ne.add %r7, %r5, %r6.b1, %r6;",
    "vset.u32.s32.eq.min %r7, %r5.b0, %r6.b0, %r6;",
    "vset.s32.s32.le.max %r7, %r5.b3, %r6.h0, %r5;",
    "vset.u32.u32.gt %r7, %r5, %r5;",
    // Differential only: merges.
    "vabsdiff.u32.u32.u32 %r7.h0, %r5, %r6, %r5;",
    "vset.s32.s32.gt %r7.b2, %r5, %r6, %r6;",
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
    let (ux, sx, uy, sy) = (
        i64::from(x),
        i64::from(x as i32),
        i64::from(y),
        i64::from(y as i32),
    );
    let b = |v: bool| i64::from(v);
    // The primary result wraps to the manual's `.s33` intermediate (`optSaturate` returns an
    // `.s33`) before the secondary operation.
    let w = |v: i64| (v << 31) >> 31;
    Some(match row {
        0 => lo((ux - uy).abs()),
        1 => lo((ext(x, true, "h1") - ext(y, true, "h0")).abs()),
        // Types are .dtype.atype.btype.
        2 => lo(w((ext(x, true, "b2") - ext(y, false, "b0")).abs()) + ux),
        // The secondary min/max compares in the destination type (.u32 here, .s32 below).
        3 => lo(w((ext(x, false, "b1") - ext(y, false, "b3")).abs()).max(uy)),
        4 => lo(w((ux - ext(y, true, "h1")).abs()).min(sx)),
        // .sat clamps to the .s32 range: |a − b| is never negative.
        5 => (sx - sy).abs().min(i64::from(i32::MAX)) as u32,
        6 => lo(b(ux < uy)),
        7 => lo(b(ext(x, true, "h0") >= ext(y, true, "h1"))),
        // vset's result and `c` are unsigned.
        8 => lo(b(sx != ext(y, false, "b1")) + uy),
        9 => lo(b(ext(x, false, "b0") == ext(y, true, "b0")).min(uy)),
        10 => lo(b(ext(x, true, "b3") <= ext(y, true, "h0")).max(ux)),
        11 => 0,
        _ => return None,
    })
}

#[test]
fn vabsdiff_and_vset_agree_with_the_spec() {
    let mut body = String::new();
    for (i, row) in ROWS.iter().enumerate() {
        // Merging rows read the destination's other parts: start it from a known value.
        body += &format!(
            "\tmov.u32 %r7, 0x89abcdef;\n\t{row}\n\tst.global.u32 [%rd7+{}], %r7;\n",
            4 * i
        );
    }
    let text = row_kernel(
        "video2",
        "\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<8>;\n",
        &[("u32", "%r5", 4), ("u32", "%r6", 4)],
        4 * ROWS.len(),
        &body,
    );
    let edges = int_edges(32, 0x5eed_1234);
    let (a, b) = all_pairs(&edges);
    let got = run_row_pairs("video2", &text, ROWS.len(), &a, &b);
    assert_rows(ROWS, &a, &b, &got, expect);
    // The rows are the VABSDIFF/VSET ones, not a sequence.
    let (_, _, cubin) = compile("video2.ptx", &text);
    let listing: Vec<String> = cubin.kernels[0]
        .code
        .iter()
        .map(|&w| fermi::isa::disassemble_word(w, 0))
        .collect();
    let count = |m: &str| listing.iter().filter(|l| l.starts_with(m)).count();
    assert_eq!(count("VABSDIFF"), 7);
    assert_eq!(count("VSET"), 7);
}
