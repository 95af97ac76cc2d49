//! Reduction barriers with the barrier number in a register and with a thread count (round
//! s25): `BAR.RED.<op>` takes registers or immediates for both, as `BAR.SYNC` does. Two
//! groups of 64 threads each reduce on their own barrier with a count of 64 (the number in
//! a register for one, an immediate for the other, the count in a register and as an
//! immediate), then the whole CTA reduces on a barrier named by a register. Both executors,
//! against the reductions computed here (PTX ISA §9.7.13.1 bar.red: over the threads the
//! barrier counts).

use crate::common::*;

const KERNEL: &str = r#"
.version 7.0
.target sm_30
.address_size 64
.entry red (.param .u64 out)
{
	.reg .u32 %r<10>;
	.reg .u64 %rd<4>;
	.reg .pred %p<4>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd2, %r1, 16;
	add.u64 %rd1, %rd1, %rd2;
	mov.u32 %r2, 1;
	mov.u32 %r3, 64;
	rem.u32 %r4, %r1, 3;
	setp.eq.u32 %p0, %r4, 0;
	setp.ge.u32 %p1, %r1, 64;
	@%p1 bra HIGH;
	bar.red.popc.u32 %r5, %r2, %r3, %p0;
	setp.ne.u32 %p2, %r1, 17;
	barrier.red.and.pred %p3, %r2, 64, %p2;
	bra JOIN;
HIGH:
	bar.red.popc.u32 %r5, 2, %r3, !%p0;
	setp.eq.u32 %p2, %r1, 100;
	bar.red.or.pred %p3, 2, %r3, %p2;
JOIN:
	selp.u32 %r6, 1, 0, %p3;
	mov.u32 %r7, 3;
	setp.lt.u32 %p2, %r1, 200;
	bar.red.and.pred %p3, %r7, %p2;
	selp.u32 %r8, 1, 0, %p3;
	setp.eq.u32 %p2, %r4, 1;
	barrier.red.popc.u32 %r9, %r7, %p2;
	st.global.v4.u32 [%rd1], {%r5, %r6, %r8, %r9};
	ret;
}
"#;

#[test]
fn reductions_on_register_barriers_with_counts_agree() {
    let n = 128u32;
    let out = run_both(
        "s25_bar_red",
        KERNEL,
        &spec("red", 1, n, vec![zeros32(4 * n as usize)]),
    );
    let w = words(&out[0]);
    let low = 0..64u32;
    let high = 64..128u32;
    let popc_low = low.clone().filter(|t| t % 3 == 0).count() as u32;
    let popc_high = high.clone().filter(|t| t % 3 != 0).count() as u32;
    let and_low = low.clone().all(|t| t != 17);
    let or_high = high.clone().any(|t| t == 100);
    let and_all = (0..n).all(|t| t < 200);
    let popc_all = (0..n).filter(|t| t % 3 == 1).count() as u32;
    for t in 0..n {
        let (popc, pred) = if t < 64 {
            (popc_low, and_low)
        } else {
            (popc_high, or_high)
        };
        let row = &w[4 * t as usize..4 * t as usize + 4];
        assert_eq!(
            row,
            [popc, u32::from(pred), u32::from(and_all), popc_all],
            "thread {t}"
        );
    }
}
