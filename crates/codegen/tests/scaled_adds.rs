//! 32-bit scaled adds (src/fold.rs `Scaled`, select/folded.rs `scaled_add32`) and products by
//! powers of two (select/arith.rs `int_mul`): `shl.b32`/`mul.lo` by 2^k read by the `add` a
//! few instructions on become `ISCADD d, a, x, k`; `mad.lo` by 2^k is `ISCADD`, `mul.lo` by
//! 2^k is `SHL`. Every row runs over all pairs of integer edges on both executors, is checked
//! against wrapping arithmetic written here, and the listing must show the `ISCADD`s (so the
//! test fails if the fold silently stops happening) — and must not show one where `a`
//! changes between the shift and its `add`.

mod common;
use common::*;
use exec::{ElemType, ParamSpec};

/// Each row: its PTX (`%r5` = a, `%r6` = b, `%r7` = the parameter `w`, result in `%r8`) and
/// its value in wrapping 32-bit arithmetic.
type Row = (&'static str, fn(u32, u32, u32) -> u32);

const W: u32 = 0x8765_4321;

const ROWS: &[Row] = &[
    (
        "shl.b32 %r9, %r5, 1;\n\tadd.s32 %r8, %r9, %r6;",
        |a, b, _| (a << 1).wrapping_add(b),
    ),
    (
        "shl.b32 %r9, %r5, 31;\n\tadd.u32 %r8, %r6, %r9;",
        |a, b, _| (a << 31).wrapping_add(b),
    ),
    (
        "shl.b32 %r9, %r5, 5;\n\tadd.s32 %r8, %r9, -7;",
        |a, _, _| (a << 5).wrapping_add(-7i32 as u32),
    ),
    (
        "shl.b32 %r9, %r5, 3;\n\tadd.s32 %r8, %r9, 0x12345678;",
        |a, _, _| (a << 3).wrapping_add(0x1234_5678),
    ),
    (
        "mul.lo.u32 %r9, %r5, 8;\n\tadd.u32 %r8, %r6, %r9;",
        |a, b, _| a.wrapping_mul(8).wrapping_add(b),
    ),
    (
        "mul.lo.s32 %r9, %r5, -2147483648;\n\tadd.s32 %r8, %r9, %r6;",
        |a, b, _| a.wrapping_mul(0x8000_0000).wrapping_add(b),
    ),
    // The parameter from the constant bank as the added operand.
    (
        "shl.b32 %r9, %r5, 2;\n\tadd.s32 %r8, %r9, %r7;",
        |a, _, w| (a << 2).wrapping_add(w),
    ),
    // Instructions between the shift and its add, one defining the other addend.
    (
        "shl.b32 %r9, %r5, 4;\n\txor.b32 %r10, %r6, 5;\n\tmul.lo.s32 %r11, %r10, 3;\n\tadd.s32 %r8, %r11, %r9;",
        |a, b, _| (a << 4).wrapping_add((b ^ 5).wrapping_mul(3)),
    ),
    (
        "mad.lo.s32 %r8, %r5, 16, %r6;",
        |a, b, _| a.wrapping_mul(16).wrapping_add(b),
    ),
    (
        "mad.lo.u32 %r8, %r5, 1024, 100;",
        |a, _, _| a.wrapping_mul(1024).wrapping_add(100),
    ),
    ("mad.lo.s32 %r8, %r5, 2, 0;", |a, _, _| a.wrapping_mul(2)),
    ("mul.lo.s32 %r8, %r5, 4;", |a, _, _| a.wrapping_mul(4)),
    (
        "mul.lo.u32 %r8, %r5, 2147483648;",
        |a, _, _| a.wrapping_mul(0x8000_0000),
    ),
    // `a` redefined between the shift and its add: the add must see the old `a`'s shift.
    (
        "mov.u32 %r10, %r5;\n\tshl.b32 %r9, %r10, 3;\n\tmov.u32 %r10, %r6;\n\tst.global.u32 [%rd7+64], %r10;\n\tadd.s32 %r8, %r9, 7;",
        |a, _, _| (a << 3).wrapping_add(7),
    ),
    // A guarded add keeps the old value in the lanes it skips.
    (
        "mov.u32 %r8, 0xdead;\n\tsetp.lt.u32 %p1, %r5, %r6;\n\tshl.b32 %r9, %r5, 6;\n\t@%p1 add.s32 %r8, %r9, %r6;",
        |a, b, _| {
            if a < b {
                (a << 6).wrapping_add(b)
            } else {
                0xdead
            }
        },
    ),
    // Both addends shifts: ISCADD scales one, the other is an SHL of its own (two folded
    // into one add once left the second's register unallocated: an internal error).
    (
        "shl.b32 %r9, %r5, 7;\n\tshl.b32 %r12, %r6, 9;\n\tadd.s32 %r8, %r12, %r9;",
        |a, b, _| (a << 7).wrapping_add(b << 9),
    ),
];

/// Row 13 (`a` redefined) stores `b` at word 16 of its row as well.
const STRIDE_WORDS: usize = 17;

fn kernel() -> String {
    let mut body = String::new();
    for (i, (ptx, _)) in ROWS.iter().enumerate() {
        // Each row's product in a register of its own, as compilers write PTX (a register
        // defined twice is not folded: it would need a register for its other value).
        let ptx = ptx.replace("%r9", &format!("%r{}", 20 + i));
        body += &format!("\t{ptx}\n\tst.global.u32 [%rd7+{}], %r8;\n", 4 * i);
    }
    format!(
        ".version 7.0\n.target sm_20\n.address_size 64\n\
         .visible .entry scaled(.param .u64 pa, .param .u64 pb, .param .u64 out, .param .u32 w)\n{{\n\
         \t.reg .b32 %r<40>;\n\t.reg .b64 %rd<8>;\n\t.reg .pred %p<2>;\n\
         \tld.param.u64 %rd1, [pa];\n\tld.param.u64 %rd2, [pb];\n\tld.param.u64 %rd3, [out];\n\
         \tld.param.u32 %r7, [w];\n\
         \tmov.u32 %r1, %ctaid.x;\n\tmov.u32 %r2, %ntid.x;\n\tmov.u32 %r3, %tid.x;\n\
         \tmad.lo.s32 %r4, %r1, %r2, %r3;\n\
         \tmul.wide.u32 %rd4, %r4, 4;\n\tadd.s64 %rd5, %rd1, %rd4;\n\tld.global.u32 %r5, [%rd5];\n\
         \tadd.s64 %rd6, %rd2, %rd4;\n\tld.global.u32 %r6, [%rd6];\n\
         \tmul.wide.u32 %rd4, %r4, {};\n\tadd.s64 %rd7, %rd3, %rd4;\n{body}\tret;\n}}\n",
        4 * STRIDE_WORDS
    )
}

#[test]
fn scaled_adds_agree_with_wrapping_arithmetic_on_both_executors() {
    let text = kernel();
    let edges = int_edges(24, 7);
    let (a, b) = all_pairs(&edges);
    let n = a.len().div_ceil(64) * 64;
    let pad = |v: &[u32]| {
        let mut v = v.to_vec();
        v.resize(n, 0);
        v
    };
    let (a, b) = (pad(&a), pad(&b));
    let launch = spec(
        "scaled",
        (n / 64) as u32,
        64,
        vec![
            u32s(&a),
            u32s(&b),
            zeros32(STRIDE_WORDS * n),
            ParamSpec::Value {
                ty: ElemType::U32,
                bytes: W.to_le_bytes().to_vec(),
            },
        ],
    );
    let got = words(&run_both("scaled.ptx", &text, &launch)[2]);
    for i in 0..n {
        for (r, (ptx, want)) in ROWS.iter().enumerate() {
            assert_eq!(
                got[STRIDE_WORDS * i + r],
                want(a[i], b[i], W),
                "row {r} `{ptx}`: a = {:#x}, b = {:#x}",
                a[i],
                b[i]
            );
        }
        assert_eq!(got[STRIDE_WORDS * i + 16], b[i], "row 13's store of b");
    }
}

#[test]
fn scaled_adds_are_iscadd_and_products_by_powers_of_two_are_shifts() {
    let (_, _, cubin) = compile("scaled.ptx", &kernel());
    let listing: Vec<String> = disassembly(&cubin.kernels[0]);
    let text = listing.join("\n");
    let count = |p: &dyn Fn(&str) -> bool| listing.iter().filter(|l| p(l)).count();
    // Rows 0–9, 14 and 15 fold into one ISCADD each; row 7's parameter comes from the bank.
    let iscadds = count(&|l| l.contains("ISCADD ") && !l.contains(".CC"));
    assert_eq!(iscadds, 12, "one ISCADD per scaled add:\n{text}");
    assert!(
        listing
            .iter()
            .any(|l| l.contains("ISCADD ") && l.contains("c [0x0] [0x38]")),
        "the parameter read from the bank:\n{text}"
    );
    // No 32-bit multiply is left: every product here is by a power of two.
    assert_eq!(
        count(&|l| l.starts_with("IMUL") || l.starts_with("IMAD")),
        // The harness's own `mad.lo` of the thread index, row 7's product by 3, and the
        // harness's two `mul.wide`s into `%rd4` (defined twice, so not folded into their
        // adds: `IMUL.U32.U32` and `.HI` each).
        6,
        "products by 2^k are shifts:\n{text}"
    );
}
