//! End-to-end kernels written in PTX: check → load → launch → compare with Rust.

mod common;
use common::*;
use exec::Arg;

#[test]
fn vector_add_example_file() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/vector_add.ptx"
    ))
    .unwrap();
    let (mut dev, m) = load("vector_add.ptx", &text);
    let n = 1000usize;
    let a: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
    let b: Vec<f32> = (0..n).map(|i| i as f32 * 2.0).collect();
    let pa = upload_u32(&mut dev, &a.iter().map(|x| x.to_bits()).collect::<Vec<_>>());
    let pb = upload_u32(&mut dev, &b.iter().map(|x| x.to_bits()).collect::<Vec<_>>());
    let pc = dev.alloc(n as u64 * 4).unwrap();
    launch(
        &dev,
        &m,
        "vector_add",
        &cfg([4, 1, 1], [256, 1, 1]),
        &[Arg::ptr(pa), Arg::ptr(pb), Arg::ptr(pc), Arg::u32(n as u32)],
    )
    .unwrap();
    let c = read_u32(&dev, pc, n);
    for i in 0..n {
        assert_eq!(f32::from_bits(c[i]), a[i] + b[i], "element {i}");
    }
}

/// `copysign` and every `testp` property on edge values; the expectations are Rust's own
/// float classification, independent of `ops`.
#[test]
fn copysign_and_testp_f32() {
    let text = r#".version 7.0
.target sm_61
.address_size 64
.visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pout)
{
	.reg .pred %p<7>;
	.reg .b32 %r<12>;
	.reg .f32 %f<4>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [pa];
	ld.param.u64 %rd2, [pb];
	ld.param.u64 %rd3, [pout];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd4, %r1, 4;
	add.s64 %rd5, %rd1, %rd4;
	add.s64 %rd6, %rd2, %rd4;
	ld.global.f32 %f1, [%rd5];
	ld.global.f32 %f2, [%rd6];
	copysign.f32 %f3, %f1, %f2;
	testp.finite.f32 %p1, %f1;
	testp.infinite.f32 %p2, %f1;
	testp.number.f32 %p3, %f1;
	testp.notanumber.f32 %p4, %f1;
	testp.normal.f32 %p5, %f1;
	testp.subnormal.f32 %p6, %f1;
	selp.u32 %r2, 1, 0, %p1;
	selp.u32 %r3, 2, 0, %p2;
	selp.u32 %r4, 4, 0, %p3;
	selp.u32 %r5, 8, 0, %p4;
	selp.u32 %r6, 16, 0, %p5;
	selp.u32 %r7, 32, 0, %p6;
	or.b32 %r8, %r2, %r3;
	or.b32 %r8, %r8, %r4;
	or.b32 %r8, %r8, %r5;
	or.b32 %r8, %r8, %r6;
	or.b32 %r8, %r8, %r7;
	mul.wide.u32 %rd4, %r1, 8;
	add.s64 %rd7, %rd3, %rd4;
	mov.b32 %r9, %f3;
	st.global.v2.u32 [%rd7], {%r9, %r8};
	ret;
}
"#;
    let vals: Vec<f32> = vec![
        0.0,
        -0.0,
        1.5,
        -2.25,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        -f32::NAN,
        f32::MIN_POSITIVE,
        f32::from_bits(1),
        -f32::from_bits(0x7f_ffff),
        f32::MAX,
    ];
    let n = vals.len();
    let b: Vec<f32> = (0..n)
        .map(|i| if i % 2 == 0 { -3.0 } else { 7.5 })
        .collect();
    let (mut dev, m) = load("testp.ptx", text);
    let pa = upload_u32(
        &mut dev,
        &vals.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
    );
    let pb = upload_u32(&mut dev, &b.iter().map(|x| x.to_bits()).collect::<Vec<_>>());
    let pout = dev.alloc(n as u64 * 8).unwrap();
    launch(
        &dev,
        &m,
        "k",
        &cfg([1, 1, 1], [n as u32, 1, 1]),
        &[Arg::ptr(pa), Arg::ptr(pb), Arg::ptr(pout)],
    )
    .unwrap();
    let out = read_u32(&dev, pout, 2 * n);
    for (i, &a) in vals.iter().enumerate() {
        let want_copy = b[i]
            .abs()
            .copysign(if a.is_sign_negative() { -1.0 } else { 1.0 });
        assert_eq!(out[2 * i], want_copy.to_bits(), "copysign lane {i} ({a:?})");
        let want = u32::from(a.is_finite())
            | u32::from(a.is_infinite()) << 1
            | u32::from(!a.is_nan()) << 2
            | u32::from(a.is_nan()) << 3
            | u32::from(a.is_normal()) << 4
            | u32::from(a.is_subnormal()) << 5;
        assert_eq!(out[2 * i + 1], want, "testp lane {i} ({a:?})");
    }
}

/// PTX 1.1 `sad.f32` (Table 22): `d = c + |a - b|`, each step rounded to nearest.
#[test]
fn sad_f32_in_ptx_1_1() {
    let text = r#"	.version 1.1
	.target sm_10
	.entry sadf
	{
	.reg .u32 $r1,$r2,$r3;
	.reg .f32 $f1,$f2,$f3,$f4;
	.param .u32 pin;
	.param .u32 pout;
	cvt.u32.u16 	$r1, %tid.x;
	mul.lo.u32 	$r2, $r1, 12;
	ld.param.u32 	$r3, [pin];
	add.u32 	$r3, $r3, $r2;
	ld.global.f32 	$f1, [$r3+0];
	ld.global.f32 	$f2, [$r3+4];
	ld.global.f32 	$f3, [$r3+8];
	sad.f32 	$f4, $f1, $f2, $f3;
	mul.lo.u32 	$r2, $r1, 4;
	ld.param.u32 	$r3, [pout];
	add.u32 	$r3, $r3, $r2;
	st.global.f32 	[$r3+0], $f4;
	exit;
	}
"#;
    let triples: [(f32, f32, f32); 6] = [
        (1.0, 3.5, 0.25),
        (3.5, 1.0, -10.0),
        (-2.0, 2.0, 1e-8),
        (1e30, -1e30, 1.0),
        (0.1, 0.2, 0.3),
        (f32::INFINITY, 1.0, -5.0),
    ];
    let input: Vec<u32> = triples
        .iter()
        .flat_map(|&(a, b, c)| [a.to_bits(), b.to_bits(), c.to_bits()])
        .collect();
    let (mut dev, m) = load("sadf.ptx", text);
    let pin = upload_u32(&mut dev, &input);
    let n = triples.len();
    let pout = dev.alloc(n as u64 * 4).unwrap();
    launch(
        &dev,
        &m,
        "sadf",
        &cfg([1, 1, 1], [n as u32, 1, 1]),
        &[Arg::u32(pin.0 as u32), Arg::u32(pout.0 as u32)],
    )
    .unwrap();
    let out = read_u32(&dev, pout, n);
    for (i, &(a, b, c)) in triples.iter().enumerate() {
        let diff = if a < b { b - a } else { a - b };
        assert_eq!(f32::from_bits(out[i]), c + diff, "lane {i}");
    }
}

/// PTX 1.1 `div.wide.u32`/`rem.wide.u32`/`div.wide.s32` (Tables 23–24): a 64-bit dividend by a
/// 32-bit divisor, checked against u64/i64 arithmetic.
#[test]
fn div_rem_wide_in_ptx_1_1() {
    let text = r#"	.version 1.1
	.target sm_10
	.entry dw
	{
	.reg .u32 $r1,$r2,$r3,$r4,$r5,$r6,$r7;
	.reg .u64 $rd1;
	.reg .s64 $sd1;
	.param .u32 pin;
	.param .u32 pout;
	cvt.u32.u16 	$r1, %tid.x;
	mul.lo.u32 	$r2, $r1, 16;
	ld.param.u32 	$r3, [pin];
	add.u32 	$r3, $r3, $r2;
	ld.global.u64 	$rd1, [$r3+0];
	ld.global.u32 	$r4, [$r3+8];
	div.wide.u32 	$r5, $rd1, $r4;
	rem.wide.u32 	$r6, $rd1, $r4;
	mov.b64 	$sd1, $rd1;
	div.wide.s32 	$r7, $sd1, $r4;
	mul.lo.u32 	$r2, $r1, 12;
	ld.param.u32 	$r3, [pout];
	add.u32 	$r3, $r3, $r2;
	st.global.u32 	[$r3+0], $r5;
	st.global.u32 	[$r3+4], $r6;
	st.global.u32 	[$r3+8], $r7;
	exit;
	}
"#;
    // `d` is the low 32 bits of the 64-bit quotient (docs/spec-notes.md, integer section); the
    // last case's unsigned quotient needs all 64 bits, so it exercises that rule.
    let cases: [(u64, u32); 4] = [
        (0x0000_0001_0000_0000, 3),
        (1_000_000_007, 10),
        (0x0000_0000_ffff_fffe, 0x7fff_ffff),
        ((-100i64) as u64, 7),
    ];
    let mut input = Vec::new();
    for &(a, b) in &cases {
        // 16-byte records keep the 64-bit dividend 8-byte aligned.
        input.extend([a as u32, (a >> 32) as u32, b, 0]);
    }
    let (mut dev, m) = load("dw.ptx", text);
    let pin = upload_u32(&mut dev, &input);
    let n = cases.len();
    let pout = dev.alloc(n as u64 * 12).unwrap();
    launch(
        &dev,
        &m,
        "dw",
        &cfg([1, 1, 1], [n as u32, 1, 1]),
        &[Arg::u32(pin.0 as u32), Arg::u32(pout.0 as u32)],
    )
    .unwrap();
    let out = read_u32(&dev, pout, 3 * n);
    for (i, &(a, b)) in cases.iter().enumerate() {
        assert_eq!(
            out[3 * i],
            (a / u64::from(b)) as u32,
            "div.wide.u32 lane {i}"
        );
        assert_eq!(
            out[3 * i + 1],
            (a % u64::from(b)) as u32,
            "rem.wide.u32 lane {i}"
        );
        let sq = (a as i64) / i64::from(b as i32);
        assert_eq!(out[3 * i + 2], sq as u32, "div.wide.s32 lane {i}");
    }
}
