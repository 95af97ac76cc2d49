//! PTX 1.x integer forms (`set`, `slct`, `cnot`, `mul24`, `mad24`, `sad`) and the unfused
//! `mad.f32`, on both executors and against the semantics written here.

mod common;
use common::*;

const ROWS: &[&str] = &[
    "set.lt.u32.u32 %r7, %r5, %r6;",
    "set.ge.u32.s32 %r7, %r5, %r6;",
    "slct.u32.s32 %r7, %r5, 99, %r6;",
    "cnot.b32 %r7, %r5;",
    "mul24.lo.u32 %r7, %r5, %r6;",
    "mul24.lo.s32 %r7, %r5, %r6;",
    "mad24.lo.s32 %r7, %r5, %r6, %r5;",
    "sad.u32 %r7, %r5, %r6, 7;",
    "sad.s32 %r7, %r5, %r6, %r5;",
    "mad.f32 %r7, %r5, %r6, %r5;",
];

fn expect(a: u32, b: u32) -> [u32; 9] {
    let s24 = |x: u32| ((x << 8) as i32 >> 8) as u32;
    let (sa, sb) = (a as i32, b as i32);
    [
        if a < b { u32::MAX } else { 0 },
        if sa >= sb { u32::MAX } else { 0 },
        if sb >= 0 { a } else { 99 },
        u32::from(a == 0),
        (a & 0xff_ffff).wrapping_mul(b & 0xff_ffff),
        s24(a).wrapping_mul(s24(b)),
        s24(a).wrapping_mul(s24(b)).wrapping_add(a),
        a.abs_diff(b).wrapping_add(7),
        sa.abs_diff(sb).wrapping_add(a),
    ]
}

#[test]
fn legacy_integer_forms_and_unfused_mad_agree() {
    let mut body = String::new();
    for (i, row) in ROWS.iter().enumerate() {
        let row = if row.starts_with("mad.f32") {
            "mad.f32 %f3, %f1, %f2, %f1;\n\tmov.b32 %r7, %f3;".to_string()
        } else {
            row.to_string()
        };
        body += &format!("\t{row}\n\tst.global.u32 [%r10+{}], %r7;\n", 4 * i);
    }
    let text = format!(
        r#".version 1.3
.target sm_13
.entry legacy(.param .u32 pa, .param .u32 pb, .param .u32 out)
{{
	.reg .b32 %r<12>;
	.reg .f32 %f<4>;
	ld.param.u32 %r8, [pa];
	ld.param.u32 %r9, [pb];
	ld.param.u32 %r10, [out];
	mov.u32 %r1, %ctaid.x;
	mov.u32 %r2, %ntid.x;
	mov.u32 %r3, %tid.x;
	mad.lo.s32 %r4, %r1, %r2, %r3;
	mul.lo.u32 %r11, %r4, 4;
	add.u32 %r8, %r8, %r11;
	ld.global.u32 %r5, [%r8];
	ld.global.f32 %f1, [%r8];
	add.u32 %r9, %r9, %r11;
	ld.global.u32 %r6, [%r9];
	ld.global.f32 %f2, [%r9];
	mul.lo.u32 %r11, %r4, {stride};
	add.u32 %r10, %r10, %r11;
{body}	ret;
}}
"#,
        stride = 4 * ROWS.len()
    );
    let mut edges = int_edges(24, 0x1357_9bdf);
    edges.extend(f32_edges(16, 0x2468_ace1));
    edges.extend([0x00ff_ffff, 0x0080_0000, 0x007f_ffff, 0xff80_0000]);
    let (mut a, mut b) = all_pairs(&edges);
    while a.len() % 64 != 0 {
        a.push(0);
        b.push(0);
    }
    let got = run_row_pairs("legacy", &text, ROWS.len(), &a, &b);
    let n = a.len();
    for i in 0..n {
        let row = &got[ROWS.len() * i..ROWS.len() * (i + 1)];
        assert_eq!(&row[..9], &expect(a[i], b[i]), "{:#x}, {:#x}", a[i], b[i]);
        // Unfused: the product rounded to f32, then the sum (NaNs are the canonical NaN).
        let (x, y) = (f32::from_bits(a[i]), f32::from_bits(b[i]));
        let want = (x * y) + x;
        if !want.is_nan() {
            assert_eq!(row[9], want.to_bits(), "mad.f32 {x:e} {y:e}");
        }
    }
}
