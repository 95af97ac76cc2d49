//! 64-bit integer `setp` (three ISETPs on the halves) on both executors and against Rust's
//! comparisons, over every pair of 64-bit edge values.

mod common;
use common::*;

const OPS: &[&str] = &[
    "eq.s64", "ne.s64", "lt.s64", "le.s64", "gt.s64", "ge.s64", "lo.u64", "ls.u64", "hi.u64",
    "hs.u64",
];

fn kernel() -> String {
    let mut body = String::new();
    for (i, op) in OPS.iter().enumerate() {
        body += &format!(
            "\tsetp.{op} %p1, %rd5, %rd6;\n\tselp.u32 %r7, 1, 0, %p1;\n\tst.global.u32 [%rd7+{}], %r7;\n",
            4 * i
        );
    }
    // A combined form and an immediate operand.
    body += &format!(
        "\tsetp.ne.u32 %p2, %r4, 0;\n\tsetp.lt.and.s64 %p1, %rd5, %rd6, %p2;\n\tselp.u32 %r7, 1, 0, %p1;\n\tst.global.u32 [%rd7+{}], %r7;\n",
        4 * OPS.len()
    );
    body += &format!(
        "\tsetp.ge.u64 %p1, %rd5, 0x100000000;\n\tselp.u32 %r7, 1, 0, %p1;\n\tst.global.u32 [%rd7+{}], %r7;\n",
        4 * OPS.len() + 4
    );
    row_kernel(
        "cmp64",
        "\t.reg .pred %p<3>;\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<8>;\n",
        &[("u64", "%rd5", 8), ("u64", "%rd6", 8)],
        4 * (OPS.len() + 2),
        &body,
    )
}

#[test]
fn sixty_four_bit_comparisons_agree_with_rust() {
    let edges: Vec<u64> = vec![
        0,
        1,
        2,
        0xffff_ffff,
        0x1_0000_0000,
        0x1_0000_0001,
        0x7fff_ffff_ffff_ffff,
        0x8000_0000_0000_0000,
        0x8000_0000_0000_0001,
        0xffff_ffff_0000_0000,
        0xffff_ffff_ffff_fffe,
        0xffff_ffff_ffff_ffff,
        0x0000_0001_ffff_ffff,
        0x1234_5678_9abc_def0,
        0x1234_5678_0000_0001,
        0xfedc_ba98_7654_3210,
    ];
    let (a, b) = all_pairs(&edges);
    let n = a.len();
    let stride = OPS.len() + 2;
    let out = run_both(
        "cmp64.ptx",
        &kernel(),
        &spec(
            "cmp64",
            n as u32 / 64,
            64,
            vec![u64s(&a), u64s(&b), zeros32(stride * n)],
        ),
    );
    let got = words(&out[2]);
    for i in 0..n {
        let (x, y) = (a[i], b[i]);
        let (sx, sy) = (x as i64, y as i64);
        let want = [
            x == y,
            x != y,
            sx < sy,
            sx <= sy,
            sx > sy,
            sx >= sy,
            x < y,
            x <= y,
            x > y,
            x >= y,
            sx < sy && i != 0,
            x >= 0x1_0000_0000,
        ]
        .map(u32::from);
        assert_eq!(
            &got[stride * i..stride * (i + 1)],
            &want,
            "{x:#x} vs {y:#x}"
        );
    }
}

#[test]
fn sixty_four_bit_multiplication_and_subtraction_agree_with_rust() {
    let text = r#".version 7.0
.target sm_20
.address_size 64
.visible .entry mul64(.param .u64 pa, .param .u64 pb, .param .u64 out)
{
	.reg .b32 %r<6>;
	.reg .b64 %rd<12>;
	ld.param.u64 %rd1, [pa];
	ld.param.u64 %rd2, [pb];
	ld.param.u64 %rd3, [out];
	mov.u32 %r1, %ctaid.x;
	mov.u32 %r2, %ntid.x;
	mov.u32 %r3, %tid.x;
	mad.lo.s32 %r4, %r1, %r2, %r3;
	mul.wide.u32 %rd4, %r4, 8;
	add.s64 %rd7, %rd1, %rd4;
	ld.global.u64 %rd5, [%rd7];
	add.s64 %rd7, %rd2, %rd4;
	ld.global.u64 %rd6, [%rd7];
	mul.wide.u32 %rd4, %r4, 40;
	add.s64 %rd7, %rd3, %rd4;
	mul.lo.u64 %rd8, %rd5, %rd6;
	st.global.u64 [%rd7], %rd8;
	mul.lo.s64 %rd8, %rd5, 1099511627777;
	st.global.u64 [%rd7+8], %rd8;
	sub.s64 %rd8, %rd5, %rd6;
	st.global.u64 [%rd7+16], %rd8;
	sub.s64 %rd8, %rd5, 1125899906842624;
	st.global.u64 [%rd7+24], %rd8;
	sub.s64 %rd8, 0, %rd6;
	st.global.u64 [%rd7+32], %rd8;
	ret;
}
"#;
    let edges: Vec<u64> = [
        0u64,
        1,
        2,
        0xffff_ffff,
        0x1_0000_0000,
        0x7fff_ffff_ffff_ffff,
        0x8000_0000_0000_0000,
        0xffff_ffff_ffff_ffff,
        0x1234_5678_9abc_def0,
        0xfedc_ba98_7654_3210,
        0x0000_0001_ffff_ffff,
        0xdead_beef_0000_0001,
        3,
        0x8000_0000,
        0xffff_fffe_0000_0003,
        0x5555_5555_5555_5555,
    ]
    .to_vec();
    let (a, b) = all_pairs(&edges);
    let n = a.len();
    let out = run_both(
        "mul64.ptx",
        text,
        &spec(
            "mul64",
            n as u32 / 64,
            64,
            vec![u64s(&a), u64s(&b), zeros32(10 * n)],
        ),
    );
    let got = words(&out[2]);
    for i in 0..n {
        let w =
            |k: usize| u64::from(got[10 * i + 2 * k]) | u64::from(got[10 * i + 2 * k + 1]) << 32;
        assert_eq!(w(0), a[i].wrapping_mul(b[i]), "{:#x} * {:#x}", a[i], b[i]);
        assert_eq!(
            w(1),
            a[i].wrapping_mul(1_099_511_627_777),
            "{:#x} * imm",
            a[i]
        );
    }
}
