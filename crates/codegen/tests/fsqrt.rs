//! IEEE `sqrt.{rn,rz,rm,rp}.f32` on both executors, bit for bit, over f32 edge classes and
//! random bit patterns (all exponents); `.rn` also against Rust's `sqrt`, and the directed
//! roundings against the bracket `rz <= sqrt <= rp` with `rm == rz` for positive inputs.

mod common;
use common::*;

#[test]
fn f32_square_root_is_exact_on_both_executors() {
    let mut body = String::new();
    for (i, r) in ["rn", "rz", "rm", "rp", "rn.ftz", "rp.ftz"]
        .iter()
        .enumerate()
    {
        body += &format!(
            "\tsqrt.{r}.f32 %f3, %f1;\n\tst.global.f32 [%rd7+{}], %f3;\n",
            4 * i
        );
    }
    let text = format!(
        r#".version 7.0
.target sm_20
.address_size 64
.visible .entry fsqrt(.param .u64 pa, .param .u64 out)
{{
	.reg .b32 %r<6>;
	.reg .f32 %f<4>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [pa];
	ld.param.u64 %rd3, [out];
	mov.u32 %r1, %ctaid.x;
	mov.u32 %r2, %ntid.x;
	mov.u32 %r3, %tid.x;
	mad.lo.s32 %r4, %r1, %r2, %r3;
	mul.wide.u32 %rd4, %r4, 4;
	add.s64 %rd7, %rd1, %rd4;
	ld.global.f32 %f1, [%rd7];
	mul.wide.u32 %rd4, %r4, 24;
	add.s64 %rd7, %rd3, %rd4;
{body}	ret;
}}
"#
    );
    let mut a = f32_edges(64, 0x600d_f00d);
    // Exact squares (small integers and their scaled forms) and random bits.
    for k in 1..200u32 {
        a.push(((k * k) as f32).to_bits());
        a.push(((k * k) as f32 * 2f32.powi(-140)).to_bits());
    }
    let mut s = 0x00dd_ba11_u32;
    while a.len() < 16384 {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        a.push(s);
    }
    let n = a.len();
    let out = run_both(
        "fsqrt.ptx",
        &text,
        &spec("fsqrt", n as u32 / 64, 64, vec![u32s(&a), zeros32(6 * n)]),
    );
    let got = words(&out[1]);
    for i in 0..n {
        let x = f32::from_bits(a[i]);
        let row = &got[6 * i..6 * i + 6];
        let want = x.sqrt();
        if !want.is_nan() {
            assert_eq!(row[0], want.to_bits(), "sqrt.rn {x:e}");
            let (rz, rp) = (f32::from_bits(row[1]), f32::from_bits(row[3]));
            assert!(
                rz <= want && want <= rp,
                "bracket {x:e}: {rz:e} {want:e} {rp:e}"
            );
            assert_eq!(row[2], row[1], "rm == rz for {x:e}");
        }
        // .ftz: a subnormal operand is a zero of its sign, whose root is itself.
        let xf = if x.is_subnormal() {
            f32::from_bits(a[i] & 0x8000_0000)
        } else {
            x
        };
        let wf = xf.sqrt();
        if !wf.is_nan() {
            assert_eq!(row[4], wf.to_bits(), "sqrt.rn.ftz {x:e}");
            if x.is_subnormal() {
                assert_eq!(row[5], wf.to_bits(), "sqrt.rp.ftz {x:e}");
            } else {
                assert_eq!(row[5], row[3], "sqrt.rp.ftz {x:e}");
            }
        }
    }
}
