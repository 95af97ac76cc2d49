//! Local arrays (LDL/STL at window offsets, through a variable or a register), `.const` data
//! (c[0x2] with its initializer, LDC through a register) and `cvta` to and from the shared
//! and local windows (a local variable read through its generic address), on both executors bit for bit and against the kernel's meaning written here.

mod common;
use common::*;

const KERNEL: &str = r#"
.version 7.0
.target sm_20
.address_size 64
.const .align 4 .u32 tab[8] = {1, 2, 3, 5, 8, 13, 21, 34};
.const .align 8 .u64 wide = 0x123456789abcdef0;
.shared .align 4 .u32 sh[64];
.visible .entry spaces(.param .u64 out)
{
	.local .align 8 .u32 arr[16];
	.local .align 8 .u64 one;
	.reg .pred %p<2>;
	.reg .b32 %r<16>;
	.reg .b64 %rd<12>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, 0;
	mov.u64 %rd2, arr;
	mov.u64 %rd9, tab;
LOOP:
	and.b32 %r3, %r2, 7;
	mul.wide.u32 %rd3, %r3, 4;
	add.s64 %rd4, %rd9, %rd3;
	ld.const.u32 %r4, [%rd4];
	mad.lo.s32 %r5, %r1, %r2, %r4;
	mul.wide.u32 %rd3, %r2, 4;
	add.s64 %rd4, %rd2, %rd3;
	st.local.u32 [%rd4], %r5;
	add.s32 %r2, %r2, 1;
	setp.lt.u32 %p1, %r2, 16;
	@%p1 bra LOOP;
	and.b32 %r6, %r1, 15;
	mul.wide.u32 %rd3, %r6, 4;
	add.s64 %rd4, %rd2, %rd3;
	ld.local.u32 %r7, [%rd4];
	ld.local.u32 %r8, [arr+60];
	ld.const.u32 %r9, [tab+28];
	ld.const.u64 %rd5, [wide];
	st.local.u64 [one], %rd5;
	mov.u64 %rd10, one;
	cvta.local.u64 %rd11, %rd10;
	ld.u64 %rd6, [%rd11];
	mov.u64 %rd7, sh;
	cvta.shared.u64 %rd8, %rd7;
	mul.wide.u32 %rd3, %r1, 4;
	add.s64 %rd10, %rd8, %rd3;
	mul.lo.s32 %r10, %r1, 3;
	st.u32 [%rd10], %r10;
	bar.sync 0;
	cvta.to.shared.u64 %rd11, %rd10;
	xor.b32 %r11, %r1, 1;
	mul.wide.u32 %rd3, %r11, 4;
	add.s64 %rd11, %rd7, %rd3;
	ld.shared.u32 %r12, [%rd11];
	mul.wide.u32 %rd3, %r1, 32;
	add.s64 %rd3, %rd1, %rd3;
	st.global.u32 [%rd3], %r7;
	st.global.u32 [%rd3+4], %r8;
	st.global.u32 [%rd3+8], %r9;
	st.global.u64 [%rd3+16], %rd6;
	st.global.u32 [%rd3+24], %r12;
	ret;
}
"#;

#[test]
fn local_const_and_shared_windows_agree_with_the_meaning() {
    let n = 64u32;
    let out = run_both(
        "spaces.ptx",
        KERNEL,
        &spec("spaces", 1, n, vec![zeros32(8 * n as usize)]),
    );
    let got = words(&out[0]);
    let tab = [1u32, 2, 3, 5, 8, 13, 21, 34];
    for t in 0..n {
        let arr = |i: u32| t.wrapping_mul(i).wrapping_add(tab[(i & 7) as usize]);
        let row = &got[8 * t as usize..8 * t as usize + 8];
        assert_eq!(row[0], arr(t & 15), "thread {t}");
        assert_eq!(row[1], arr(15), "thread {t}");
        assert_eq!(row[2], 34);
        assert_eq!(
            u64::from(row[4]) | u64::from(row[5]) << 32,
            0x1234_5678_9abc_def0
        );
        assert_eq!(row[6], (t ^ 1) * 3, "thread {t}");
    }
}
