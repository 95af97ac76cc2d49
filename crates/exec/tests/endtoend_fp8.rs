//! fp8 pair conversions (`cvt` with `.e4m3x2`/`.e5m2x2`, PTX ISA 8.x §9.7.9.21) run as the
//! formats of §5.2.5.1 say; expected encodings are worked out by hand in the comments.

mod common;
use common::*;
use exec::Arg;

#[test]
fn fp8_pair_conversions_run_each_form() {
    let text = r#"
.version 8.1
.target sm_89
.address_size 64
.visible .entry k(.param .u64 pin, .param .u64 pout)
{
	.reg .b16 %h<8>;
	.reg .b32 %r<8>;
	.reg .f32 %f<4>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [pin];
	ld.param.u64 %rd2, [pout];
	ld.global.f32 %f1, [%rd1];
	ld.global.f32 %f2, [%rd1+4];
	ld.global.b32 %r1, [%rd1+8];
	cvt.rn.satfinite.e4m3x2.f32 %h1, %f1, %f2;
	cvt.rn.satfinite.relu.e5m2x2.f32 %h2, %f1, %f2;
	cvt.rn.satfinite.e5m2x2.f16x2 %h3, %r1;
	cvt.rn.f16x2.e4m3x2 %r2, %h1;
	cvt.rn.relu.f16x2.e5m2x2 %r3, %h3;
	cvt.u32.u16 %r4, %h1;
	cvt.u32.u16 %r5, %h2;
	cvt.u32.u16 %r6, %h3;
	st.global.v4.u32 [%rd2], {%r4, %r5, %r6, %r2};
	st.global.u32 [%rd2+16], %r3;
	ret;
}
"#;
    let (mut dev, m) = load("fp8.ptx", text);
    // a = 500.0 (past e4m3's 448), b = -2.0; the f16 pair is 65504 (0x7bff) high, 1.125
    // (0x3c80) low.
    let pin = upload_u32(
        &mut dev,
        &[500f32.to_bits(), (-2f32).to_bits(), 0x7bff_3c80],
    );
    let pout = upload_u32(&mut dev, &[0; 5]);
    launch(
        &dev,
        &m,
        "k",
        &cfg([1, 1, 1], [1, 1, 1]),
        &[Arg::ptr(pin), Arg::ptr(pout)],
    )
    .unwrap();
    // e4m3: 500 saturates to 448 = 0x7e; -2.0 = 1 1000 000 = 0xc0.
    // e5m2 with .relu: 500 = 1.953125 * 2^8 rounds to 2.0 * 2^8 = 512 = 0 11000 00 = 0x60;
    //   -2.0 clamps to +0.
    // e5m2 from f16: 65504 rounds past 57344 (to 65536): .satfinite gives 0x7b; 1.125 is a tie
    //   between 1.0 and 1.25 and goes to the even 1.0 = 0x3c.
    // f16 pair from e4m3 0x7ec0: 448 = 0x5f00, -2.0 = 0xc000.
    // f16 pair from e5m2 0x7b3c with .relu: 57344 = 0x7b00, 1.0 = 0x3c00.
    assert_eq!(
        read_u32(&dev, pout, 5),
        vec![0x7ec0, 0x6000, 0x7b3c, 0x5f00_c000, 0x7b00_3c00]
    );
}

#[test]
fn cvt_pack_sat_runs_both_forms() {
    let text = r#"
.version 6.5
.target sm_72
.address_size 64
.visible .entry k(.param .u64 pout)
{
	.reg .b32 %r<8>;
	.reg .b64 %rd<2>;
	ld.param.u64 %rd1, [pout];
	mov.b32 %r1, 300;
	mov.b32 %r2, -1;
	mov.b32 %r3, 0x1234;
	cvt.pack.sat.u8.s32.b32 %r4, %r1, %r2, %r3;
	cvt.pack.sat.s16.s32 %r5, 40000, -40000;
	cvt.pack.sat.s8.s32.b32 %r6, -200, 100, 0xabcd0001;
	st.global.v4.u32 [%rd1], {%r4, %r5, %r6, %r6};
	ret;
}
"#;
    let (mut dev, m) = load("pack.ptx", text);
    let pout = upload_u32(&mut dev, &[0; 4]);
    launch(&dev, &m, "k", &cfg([1, 1, 1], [1, 1, 1]), &[Arg::ptr(pout)]).unwrap();
    // u8: 300 -> 0xff (a, bits 8..15), -1 -> 0 (b, bits 0..7), c = 0x1234 in bits 16..31.
    // s16: 40000 -> 0x7fff high, -40000 -> 0x8000 low.
    // s8: -200 -> 0x80, 100 -> 0x64; c's low 16 bits (0x0001) above them.
    assert_eq!(
        read_u32(&dev, pout, 4),
        vec![0x1234_ff00, 0x7fff_8000, 0x0001_8064, 0x0001_8064]
    );
}

#[test]
fn fp8_mma_accumulates_exact_products_into_f32() {
    // Every A element e4m3 1.5 (0x3c), every B element e5m2 -0.5 (0xb8); C = 100.0 in every
    // element: D = 100 + 32 * (1.5 * -0.5) = 76.0 in every element, whatever the layout.
    let text = r#"
.version 8.4
.target sm_89
.address_size 64
.visible .entry k(.param .u64 pout)
{
	.reg .b32 %r<8>;
	.reg .f32 %f<8>;
	.reg .b64 %rd<4>;
	.reg .u32 %t;
	ld.param.u64 %rd1, [pout];
	mov.b32 %r1, 0x3c3c3c3c;
	mov.b32 %r2, 0xb8b8b8b8;
	mov.f32 %f1, 0f42C80000;
	mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32 {%f2, %f3, %f4, %f5}, {%r1, %r1, %r1, %r1}, {%r2, %r2}, {%f1, %f1, %f1, %f1};
	mov.u32 %t, %tid.x;
	mul.wide.u32 %rd2, %t, 16;
	add.u64 %rd3, %rd1, %rd2;
	st.global.v4.f32 [%rd3], {%f2, %f3, %f4, %f5};
	ret;
}
"#;
    let (mut dev, m) = load("mma_fp8.ptx", text);
    let pout = upload_u32(&mut dev, &[0; 128]);
    launch(
        &dev,
        &m,
        "k",
        &cfg([1, 1, 1], [32, 1, 1]),
        &[Arg::ptr(pout)],
    )
    .unwrap();
    assert_eq!(read_u32(&dev, pout, 128), vec![76f32.to_bits(); 128]);
}
