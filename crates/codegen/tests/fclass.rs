//! `testp` (every property) and `copysign` on f32 and f64 on both executors, bit for bit, and
//! against the IEEE classes computed here with Rust's `f32`/`f64` methods.

mod common;
use common::*;

const PROPS: &[&str] = &[
    "finite",
    "infinite",
    "number",
    "notanumber",
    "normal",
    "subnormal",
];

fn class(p: &str, finite: bool, inf: bool, nan: bool, normal: bool, sub: bool) -> u32 {
    u32::from(match p {
        "finite" => finite,
        "infinite" => inf,
        "number" => !nan,
        "notanumber" => nan,
        "normal" => normal,
        _ => sub,
    })
}

fn kernel() -> String {
    let mut body = String::new();
    for (i, p) in PROPS.iter().enumerate() {
        body += &format!(
            "\ttestp.{p}.f32 %p1, %f1;\n\tselp.u32 %r5, 1, 0, %p1;\n\tst.global.u32 [%rd7+{}], %r5;\n\ttestp.{p}.f64 %p1, %fd1;\n\tselp.u32 %r5, 1, 0, %p1;\n\tst.global.u32 [%rd7+{}], %r5;\n",
            8 * i,
            8 * i + 4
        );
    }
    body += "\tcopysign.f32 %f3, %f1, %f2;\n\tst.global.f32 [%rd7+48], %f3;\n\tcopysign.f64 %fd3, %fd1, %fd2;\n\tst.global.f64 [%rd7+56], %fd3;\n";
    format!(
        r#".version 7.0
.target sm_20
.address_size 64
.visible .entry fclass(.param .u64 pa, .param .u64 pd, .param .u64 out)
{{
	.reg .pred %p<2>;
	.reg .b32 %r<6>;
	.reg .f32 %f<4>;
	.reg .f64 %fd<4>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [pa];
	ld.param.u64 %rd2, [pd];
	ld.param.u64 %rd3, [out];
	mov.u32 %r1, %ctaid.x;
	mov.u32 %r2, %ntid.x;
	mov.u32 %r3, %tid.x;
	mad.lo.s32 %r4, %r1, %r2, %r3;
	mul.wide.u32 %rd4, %r4, 8;
	add.s64 %rd7, %rd1, %rd4;
	ld.global.v2.f32 {{%f1, %f2}}, [%rd7];
	mul.wide.u32 %rd4, %r4, 16;
	add.s64 %rd7, %rd2, %rd4;
	ld.global.v2.f64 {{%fd1, %fd2}}, [%rd7];
	mul.wide.u32 %rd4, %r4, 64;
	add.s64 %rd7, %rd3, %rd4;
{body}	ret;
}}
"#
    )
}

#[test]
fn testp_and_copysign_agree_with_ieee_classes() {
    let f = f32_edges(64, 0x600d_f00d);
    let d: Vec<u64> = vec![
        0,
        1 << 63,
        1,
        0x000f_ffff_ffff_ffff,
        0x8000_0000_0000_0001,
        0x0010_0000_0000_0000,
        0x7fef_ffff_ffff_ffff,
        0x7ff0_0000_0000_0000,
        0xfff0_0000_0000_0000,
        0x7ff0_0000_0000_0001,
        0x7ff8_0000_0000_0000,
        0xfff0_0000_0000_0001,
        0x3ff0_0000_0000_0000,
        0x000f_ffff_0000_0000,
        0x7fef_ffff_0000_0000,
        0x0000_0000_ffff_ffff,
    ];
    let (mut pf, mut pd) = (Vec::new(), Vec::new());
    for (i, &x) in f.iter().enumerate() {
        for (j, &y) in d.iter().enumerate() {
            pf.push(x);
            pf.push(f[(i + j + 1) % f.len()]);
            pd.push(y);
            pd.push(d[(i + 3 * j + 1) % d.len()]);
        }
    }
    let n = pf.len() / 2;
    let out = run_both(
        "fclass.ptx",
        &kernel(),
        &spec(
            "fclass",
            (n / 64) as u32,
            64,
            vec![u32s(&pf), u64s(&pd), zeros32(16 * n)],
        ),
    );
    let got = words(&out[2]);
    for i in 0..n {
        let (x, y) = (f32::from_bits(pf[2 * i]), f32::from_bits(pf[2 * i + 1]));
        let (u, v) = (f64::from_bits(pd[2 * i]), f64::from_bits(pd[2 * i + 1]));
        let row = &got[16 * i..16 * i + 16];
        for (k, p) in PROPS.iter().enumerate() {
            let wf = class(
                p,
                x.is_finite(),
                x.is_infinite(),
                x.is_nan(),
                x.is_normal(),
                x.is_subnormal(),
            );
            let wd = class(
                p,
                u.is_finite(),
                u.is_infinite(),
                u.is_nan(),
                u.is_normal(),
                u.is_subnormal(),
            );
            assert_eq!(row[2 * k], wf, "testp.{p}.f32 {:#010x}", pf[2 * i]);
            assert_eq!(row[2 * k + 1], wd, "testp.{p}.f64 {:#018x}", pd[2 * i]);
        }
        assert_eq!(
            row[12],
            y.abs().to_bits() | (x.to_bits() & 0x8000_0000),
            "copysign.f32"
        );
        let c = u64::from(row[14]) | u64::from(row[15]) << 32;
        assert_eq!(
            c,
            v.abs().to_bits() | (u.to_bits() & 1 << 63),
            "copysign.f64"
        );
    }
}
