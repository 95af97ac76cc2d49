//! 16-bit integer arithmetic on both executors and against the PTX semantics written here,
//! over every pair of 16-bit edge values.

mod common;
use common::*;

const ROWS: &[&str] = &[
    "add.u16 %h3, %h1, %h2;",
    "sub.s16 %h3, %h1, %h2;",
    "mul.lo.u16 %h3, %h1, %h2;",
    "mul.hi.u16 %h3, %h1, %h2;",
    "mul.hi.s16 %h3, %h1, %h2;",
    "shr.u16 %h3, %h1, 3;",
    "shr.s16 %h3, %h1, 5;",
    "shl.b16 %h3, %h1, 4;",
    "min.s16 %h3, %h1, %h2;",
    "max.u16 %h3, %h1, %h2;",
    "and.b16 %h3, %h1, %h2;",
    "abs.s16 %h3, %h1;",
    "mad.hi.u16 %h3, %h1, %h2, %h1;",
    "mad.hi.s16 %h3, %h1, %h2, %h2;",
    "selp.u16 %h3, %h1, %h2, 0;",
    "selp.b16 %h3, %h1, 7, 1;",
];

fn kernel() -> String {
    let mut body = String::new();
    for (i, row) in ROWS.iter().enumerate() {
        body += &format!("\t{row}\n\tst.global.u16 [%rd7+{}], %h3;\n", 2 * i);
    }
    let k = 2 * ROWS.len();
    body += &format!(
        "\tmul.wide.s16 %r5, %h1, %h2;\n\tst.global.u32 [%rd7+{k}], %r5;\n\tmul.wide.u16 %r5, %h1, %h2;\n\tst.global.u32 [%rd7+{}], %r5;\n\tsetp.lt.s16 %p1, %h1, %h2;\n\tselp.u32 %r5, 1, 0, %p1;\n\tst.global.u32 [%rd7+{}], %r5;\n\tsetp.hi.u16 %p1, %h1, %h2;\n\tselp.u32 %r5, 1, 0, %p1;\n\tst.global.u32 [%rd7+{}], %r5;\n",
        k + 4,
        k + 8,
        k + 12
    );
    body += &format!(
        "\tmul.wide.u16 %r6, %h2, %h2;\n\tmad.wide.s16 %r5, %h1, %h2, %r6;\n\tst.global.u32 [%rd7+{}], %r5;\n",
        k + 16
    );
    format!(
        r#".version 7.0
.target sm_20
.address_size 64
.visible .entry sub16(.param .u64 pa, .param .u64 pb, .param .u64 out)
{{
	.reg .pred %p<2>;
	.reg .b16 %h<4>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [pa];
	ld.param.u64 %rd2, [pb];
	ld.param.u64 %rd3, [out];
	mov.u32 %r1, %ctaid.x;
	mov.u32 %r2, %ntid.x;
	mov.u32 %r3, %tid.x;
	mad.lo.s32 %r4, %r1, %r2, %r3;
	mul.wide.u32 %rd4, %r4, 2;
	add.s64 %rd7, %rd1, %rd4;
	ld.global.u16 %h1, [%rd7];
	add.s64 %rd7, %rd2, %rd4;
	ld.global.u16 %h2, [%rd7];
	mul.wide.u32 %rd4, %r4, {stride};
	add.s64 %rd7, %rd3, %rd4;
{body}	ret;
}}
"#,
        stride = 2 * ROWS.len() + 20
    )
}

#[test]
fn sixteen_bit_rows_agree_with_the_spec() {
    let edges: Vec<u16> = vec![
        0, 1, 2, 3, 0x7f, 0x80, 0xff, 0x100, 0x7ffe, 0x7fff, 0x8000, 0x8001, 0xfffe, 0xffff,
        0x1234, 0xbeef,
    ];
    let (a, b) = all_pairs(&edges);
    let n = a.len();
    let halves = |v: &[u16]| buffer(exec::ElemType::U16, v, |x: u16| x.to_le_bytes().to_vec());
    let stride = 2 * ROWS.len() + 20;
    let out = run_both(
        "sub16.ptx",
        &kernel(),
        &spec(
            "sub16",
            n as u32 / 64,
            64,
            vec![halves(&a), halves(&b), zeros32(stride * n / 4)],
        ),
    );
    let bytes = &out[2];
    for i in 0..n {
        let (x, y) = (a[i], b[i]);
        let (sx, sy) = (x as i16, y as i16);
        let want16: [u16; 16] = [
            x.wrapping_add(y),
            x.wrapping_sub(y),
            x.wrapping_mul(y),
            ((u32::from(x) * u32::from(y)) >> 16) as u16,
            ((i32::from(sx) * i32::from(sy)) >> 16) as u16,
            x >> 3,
            (sx >> 5) as u16,
            x << 4,
            sx.min(sy) as u16,
            x.max(y),
            x & y,
            sx.wrapping_abs() as u16,
            (((u32::from(x) * u32::from(y)) >> 16) as u16).wrapping_add(x),
            (((i32::from(sx) * i32::from(sy)) >> 16) as u16).wrapping_add(y),
            y,
            x,
        ];
        let row = &bytes[stride * i..stride * (i + 1)];
        for (k, w) in want16.iter().enumerate() {
            assert_eq!(
                u16::from_le_bytes([row[2 * k], row[2 * k + 1]]),
                *w,
                "row {k} ({}) for {x:#x}, {y:#x}",
                ROWS[k]
            );
        }
        let w32 = words(&row[2 * ROWS.len()..]);
        assert_eq!(
            &w32[..5],
            &[
                (i32::from(sx) * i32::from(sy)) as u32,
                u32::from(x) * u32::from(y),
                u32::from(sx < sy),
                u32::from(x > y),
                (i32::from(sx) * i32::from(sy)).wrapping_add((u32::from(y) * u32::from(y)) as i32)
                    as u32,
            ],
            "{x:#x}, {y:#x}"
        );
    }
}
