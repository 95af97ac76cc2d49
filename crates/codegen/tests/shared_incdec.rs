//! `atom.shared.inc/dec.u32` and `red.shared.inc/dec.u32` through the LDSLK/STSUL loop on both
//! executors, against PTX's definitions written here: per-thread words over integer edge
//! pairs (old values and final memory), and counters every thread of a CTA wraps.

mod common;
use common::*;

const KERNEL: &str = r#".version 7.0
.target sm_20
.address_size 64
.visible .entry incdec(.param .u64 pa, .param .u64 pb, .param .u64 out)
{
	.reg .pred %p<2>;
	.reg .b32 %r<16>;
	.reg .b64 %rd<8>;
	.shared .align 4 .u32 s[256];
	.shared .align 4 .u32 c[2];
	ld.param.u64 %rd1, [pa];
	ld.param.u64 %rd2, [pb];
	ld.param.u64 %rd3, [out];
	mov.u32 %r1, %ctaid.x;
	mov.u32 %r2, %ntid.x;
	mov.u32 %r3, %tid.x;
	mad.lo.s32 %r4, %r1, %r2, %r3;
	mul.wide.u32 %rd4, %r4, 4;
	add.s64 %rd5, %rd1, %rd4;
	ld.global.u32 %r5, [%rd5];
	add.s64 %rd5, %rd2, %rd4;
	ld.global.u32 %r6, [%rd5];
	mov.u32 %r7, s;
	shl.b32 %r8, %r3, 2;
	add.s32 %r7, %r7, %r8;
	setp.eq.u32 %p1, %r3, 0;
	@!%p1 bra START;
	st.shared.u32 [c], 0;
	st.shared.u32 [c+4], 0;
START:
	bar.sync 0;
	mul.wide.u32 %rd4, %r4, 24;
	add.s64 %rd6, %rd3, %rd4;
	st.shared.u32 [%r7], %r5;
	atom.shared.inc.u32 %r9, [%r7], %r6;
	ld.shared.u32 %r10, [%r7];
	st.global.u32 [%rd6], %r9;
	st.global.u32 [%rd6+4], %r10;
	st.shared.u32 [%r7], %r5;
	atom.shared.dec.u32 %r9, [%r7], %r6;
	ld.shared.u32 %r10, [%r7];
	st.global.u32 [%rd6+8], %r9;
	st.global.u32 [%rd6+12], %r10;
	st.shared.u32 [%r7], %r5;
	red.shared.dec.u32 [%r7], %r6;
	ld.shared.u32 %r10, [%r7];
	st.global.u32 [%rd6+16], %r10;
	red.shared.inc.u32 [c], 100;
	atom.shared.dec.u32 %r11, [c+4], 6;
	bar.sync 0;
	ld.shared.u32 %r12, [c];
	ld.shared.u32 %r13, [c+4];
	add.s32 %r12, %r12, %r13;
	st.global.u32 [%rd6+20], %r12;
	ret;
}
"#;

fn inc(x: u32, y: u32) -> u32 {
    if x >= y {
        0
    } else {
        x + 1
    }
}

fn dec(x: u32, y: u32) -> u32 {
    if x == 0 || x > y {
        y
    } else {
        x - 1
    }
}

#[test]
fn shared_inc_and_dec_agree_with_the_spec() {
    let edges = int_edges(32, 0x1234_5679);
    let (a, b) = all_pairs(&edges);
    let n = a.len();
    let threads = 256usize;
    let out = run_both(
        "incdec.ptx",
        KERNEL,
        &spec(
            "incdec",
            (n / threads) as u32,
            threads as u32,
            vec![u32s(&a), u32s(&b), zeros32(6 * n)],
        ),
    );
    let got = words(&out[2]);
    // 256 increments of a counter wrapping after 100 from 0: 256 mod 101; 256 decrements from
    // 0 with bound 6: the first gives 6, then 6 → 0 cycles of 7: (256 − 1) mod 7 steps below 6.
    let mut counter = 0u32;
    let mut down = 0u32;
    for _ in 0..threads {
        counter = inc(counter, 100);
        down = dec(down, 6);
    }
    for i in 0..n {
        let (x, y) = (a[i], b[i]);
        let want = [x, inc(x, y), x, dec(x, y), dec(x, y), counter + down];
        assert_eq!(&got[6 * i..6 * i + 6], &want, "x = {x:#x}, y = {y:#x}");
    }
}
