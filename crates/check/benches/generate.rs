//! The benchmark's input: compiler-style kernels (loops, shared memory, vector loads,
//! predicated branches, calls) repeated until the text reaches [`TARGET_BYTES`]. Shared by the
//! criterion bench and the `check_speed` profiling example so both measure the same text.

use std::fmt::Write;

pub const TARGET_BYTES: usize = 20 << 20;

fn kernel(i: usize) -> String {
    format!(
        r#"
.func (.param .b32 ret) helper_{i}(.param .b32 x)
{{
	.reg .b32 %r<4>;
	ld.param.b32 %r1, [x];
	mad.lo.s32 %r2, %r1, 1664525, 1013904223;
	shr.u32 %r3, %r2, 13;
	xor.b32 %r2, %r2, %r3;
	st.param.b32 [ret], %r2;
	ret;
}}

.visible .entry kernel_{i}(
	.param .u64 kernel_{i}_param_0,
	.param .u64 kernel_{i}_param_1,
	.param .u32 kernel_{i}_param_2
)
.maxntid 256, 1, 1
{{
	.reg .pred %p<4>;
	.reg .b32 %r<24>;
	.reg .f32 %f<12>;
	.reg .b64 %rd<12>;
	.shared .align 16 .b8 smem_{i}[1024];

	ld.param.u64 %rd1, [kernel_{i}_param_0];
	ld.param.u64 %rd2, [kernel_{i}_param_1];
	ld.param.u32 %r1, [kernel_{i}_param_2];
	cvta.to.global.u64 %rd3, %rd1;
	cvta.to.global.u64 %rd4, %rd2;
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %ntid.x;
	mov.u32 %r4, %tid.x;
	mad.lo.s32 %r5, %r2, %r3, %r4;
	setp.ge.s32 %p1, %r5, %r1;
	@%p1 bra $L__BB{i}_4;
	mul.wide.s32 %rd5, %r5, 16;
	add.s64 %rd6, %rd3, %rd5;
	ld.global.v4.f32 {{%f1, %f2, %f3, %f4}}, [%rd6];
	add.f32 %f5, %f1, %f2;
	fma.rn.f32 %f6, %f3, %f4, %f5;
	mov.u32 %r6, smem_{i};
	shl.b32 %r7, %r4, 2;
	add.s32 %r8, %r6, %r7;
	st.shared.f32 [%r8], %f6;
	bar.sync 0;
	mov.u32 %r9, 0;
$L__BB{i}_2:
	add.s32 %r10, %r6, %r9;
	ld.shared.f32 %f7, [%r10];
	add.f32 %f6, %f6, %f7;
	add.s32 %r9, %r9, 4;
	setp.lt.u32 %p2, %r9, 1024;
	@%p2 bra $L__BB{i}_2;
	{{
	.reg .b32 %t;
	.param .b32 arg;
	.param .b32 res;
	st.param.b32 [arg], %r5;
	call (res), helper_{i}, (arg);
	ld.param.b32 %t, [res];
	and.b32 %r11, %t, 255;
	}}
	cvt.rn.f32.u32 %f8, %r11;
	add.f32 %f9, %f6, %f8;
	add.s64 %rd7, %rd4, %rd5;
	st.global.f32 [%rd7], %f9;
$L__BB{i}_4:
	ret;
}}
"#
    )
}

pub fn generate() -> String {
    let mut text = String::from(".version 7.0\n.target sm_61\n.address_size 64\n");
    let mut i = 0;
    while text.len() < TARGET_BYTES {
        let _ = text.write_str(&kernel(i));
        i += 1;
    }
    text
}
