//! fp8 `mma` with `.f16` accumulators and the fp8 `m16n8k16` shape (PTX ISA 8.7, sm_89), run
//! through `ops::mma`: with every A element 1.0 (e4m3 0x38), every B element 2.0 (e4m3 0x40)
//! and every C element 0.5, each D element is K * 2 + 0.5, exact in `.f16` and `.f32`.

mod common;
use common::*;
use exec::Arg;

const KERNEL: &str = r#"
.version 8.7
.target sm_89
.address_size 64
.visible .entry k(.param .u64 pout)
{
	.reg .b32 %r<16>;
	.reg .f32 %f<9>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [pout];
	mov.u32 %r1, %laneid;
	mul.wide.u32 %rd2, %r1, 32;
	add.s64 %rd3, %rd1, %rd2;
	mov.b32 %r2, 0x38383838;
	mov.b32 %r3, 0x40404040;
	mov.b32 %r4, 0x38003800;
	mov.f32 %f5, 0f3F000000;
	// m16n8k32 .f16: 32 * 2 + 0.5 = 64.5 (0x5408); C is {0.5, 0.5} as .f16x2 (0x3800).
	mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e4m3.f16 {%r5, %r6}, {%r2, %r2, %r2, %r2}, {%r3, %r3}, {%r4, %r4};
	// m16n8k16 .f16: 16 * 2 + 0.5 = 32.5 (0x5010).
	mma.sync.aligned.m16n8k16.row.col.f16.e4m3.e4m3.f16 {%r7, %r8}, {%r2, %r2}, {%r3}, {%r4, %r4};
	// m16n8k16 .f32: 32.5.
	mma.sync.aligned.m16n8k16.row.col.f32.e4m3.e4m3.f32 {%f1, %f2, %f3, %f4}, {%r2, %r2}, {%r3}, {%f5, %f5, %f5, %f5};
	st.global.v4.b32 [%rd3], {%r5, %r6, %r7, %r8};
	st.global.v4.f32 [%rd3+16], {%f1, %f2, %f3, %f4};
	ret;
}
"#;

#[test]
fn fp8_mma_into_f16_and_the_k16_shape() {
    let (mut dev, m) = load("mma_fp8_f16.ptx", KERNEL);
    let pout = upload_u32(&mut dev, &[0; 256]);
    launch(
        &dev,
        &m,
        "k",
        &cfg([1, 1, 1], [32, 1, 1]),
        &[Arg::ptr(pout)],
    )
    .unwrap();
    let h = |x: f64| u32::from(half::f16::from_f64(x).to_bits());
    let pair = |x: f64| h(x) | h(x) << 16;
    let f = 32.5f32.to_bits();
    let lane = [pair(64.5), pair(64.5), pair(32.5), pair(32.5), f, f, f, f];
    assert_eq!(h(64.5), 0x5408);
    assert_eq!(read_u32(&dev, pout, 256), lane.repeat(32));
}
