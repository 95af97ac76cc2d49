//! Moves the translator refused or mishandled before round s25, on both executors, against
//! values computed here from the spec's rules:
//! - `mov.v4.pred` between eight distinct predicates (more than Fermi's seven: split into
//!   one `mov` per lane, since no lane overwrites what a later one reads), unguarded and
//!   guarded, with a branch after it (labels renumbered by the split);
//! - immediates unpacked into parts (`mov.b32 {a, b}, imm`, `mov.b64 {a, b}, imm`,
//!   `mov.b64 {a, b, c, e}, imm`): part k is bits `[k·w, (k+1)·w)` of the immediate, lowest
//!   part first (PTX ISA §9.7.9.5, mov).

use crate::common::*;

const PRED_KERNEL: &str = r#"
.version 2.3
.target sm_20
.address_size 64
.entry preds (.param .u64 in, .param .u64 out)
{
	.reg .u32 %r<12>;
	.reg .u64 %rd<4>;
	.reg .pred %p<8>;
	.reg .pred %q<4>;
	.reg .pred %g;
	ld.param.u64 %rd1, [in];
	ld.param.u64 %rd2, [out];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd3, %r1, 4;
	add.u64 %rd1, %rd1, %rd3;
	ld.global.u32 %r2, [%rd1];
	and.b32 %r3, %r2, 1;
	setp.ne.u32 %p0, %r3, 0;
	and.b32 %r3, %r2, 2;
	setp.ne.u32 %p1, %r3, 0;
	and.b32 %r3, %r2, 4;
	setp.ne.u32 %p2, %r3, 0;
	and.b32 %r3, %r2, 8;
	setp.ne.u32 %p3, %r3, 0;
	and.b32 %r3, %r2, 16;
	setp.ne.u32 %p4, %r3, 0;
	and.b32 %r3, %r2, 32;
	setp.ne.u32 %p5, %r3, 0;
	and.b32 %r3, %r2, 64;
	setp.ne.u32 %p6, %r3, 0;
	and.b32 %r3, %r2, 128;
	setp.ne.u32 %p7, %r3, 0;
	// Eight distinct predicates in one instruction: q <- (p7, p5, p6, p4), then
	// p <- (p4, p5, q0, q1) lanes 0..3 of p0..p3.
	mov.v4.pred {%q0, %q1, %q2, %q3}, {%p7, %p5, %p6, %p4};
	and.b32 %r3, %r2, 256;
	setp.ne.u32 %g, %r3, 0;
	@%g mov.v4.pred {%p0, %p1, %p2, %p3}, {%q3, %q1, %q0, %q2};
	@%q0 bra SKIP;
	add.u32 %r2, %r2, 0x1000;
SKIP:
	selp.u32 %r4, 1, 0, %q0;
	selp.u32 %r5, 2, 0, %q1;
	or.b32 %r4, %r4, %r5;
	selp.u32 %r5, 4, 0, %q2;
	or.b32 %r4, %r4, %r5;
	selp.u32 %r5, 8, 0, %q3;
	or.b32 %r4, %r4, %r5;
	selp.u32 %r5, 16, 0, %p0;
	or.b32 %r4, %r4, %r5;
	selp.u32 %r5, 32, 0, %p1;
	or.b32 %r4, %r4, %r5;
	selp.u32 %r5, 64, 0, %p2;
	or.b32 %r4, %r4, %r5;
	selp.u32 %r5, 128, 0, %p3;
	or.b32 %r4, %r4, %r5;
	mul.wide.u32 %rd3, %r1, 8;
	add.u64 %rd2, %rd2, %rd3;
	st.global.v2.u32 [%rd2], {%r4, %r2};
	ret;
}
"#;

#[test]
fn eight_predicate_vector_moves_agree_with_their_meaning() {
    let threads = 512usize;
    let input: Vec<u32> = (0..threads as u32).collect();
    let s = spec(
        "preds",
        1,
        threads as u32,
        vec![u32s(&input), zeros32(2 * threads)],
    );
    let out = run_both("s25_preds", PRED_KERNEL, &s);
    let w = words(&out[1]);
    for (t, &x) in input.iter().enumerate() {
        let p = |i: u32| x >> i & 1 == 1;
        let q = [p(7), p(5), p(6), p(4)];
        let guard = p(8);
        let pp = if guard {
            [q[3], q[1], q[0], q[2]]
        } else {
            [p(0), p(1), p(2), p(3)]
        };
        let bits = q
            .iter()
            .chain(pp.iter())
            .enumerate()
            .fold(0u32, |acc, (i, &b)| acc | u32::from(b) << i);
        let r2 = if q[0] { x } else { x + 0x1000 };
        assert_eq!(w[2 * t], bits, "thread {t}: the predicates");
        assert_eq!(w[2 * t + 1], r2, "thread {t}: the branch on q0");
    }
}

const UNPACK_KERNEL: &str = r#"
.version 2.3
.target sm_20
.address_size 64
.entry unpack (.param .u64 out)
{
	.reg .b16 %h<4>;
	.reg .b32 %r<4>;
	.reg .u64 %rd<2>;
	ld.param.u64 %rd1, [out];
	mov.b32 {%h0, %h1}, 0x89abcdef;
	cvt.u32.u16 %r0, %h0;
	cvt.u32.u16 %r1, %h1;
	st.global.v2.u32 [%rd1], {%r0, %r1};
	mov.b64 {%r2, %r3}, 0xfedcba9876543210;
	st.global.v2.u32 [%rd1+8], {%r2, %r3};
	mov.b64 {%h0, %h1, %h2, %h3}, 0x0123456789abcdef;
	st.global.v4.u16 [%rd1+16], {%h0, %h1, %h2, %h3};
	mov.b64 {_, %r2}, 0x7fffffff80000000;
	st.global.u32 [%rd1+24], %r2;
	mov.b32 {_, %h3}, -1;
	st.global.u16 [%rd1+28], %h3;
	ret;
}
"#;

#[test]
fn immediates_unpack_lowest_part_first() {
    let s = spec("unpack", 1, 1, vec![zeros32(8)]);
    let out = run_both("s25_unpack", UNPACK_KERNEL, &s);
    let w = words(&out[0]);
    let halves = |v: u64, n: usize| -> Vec<u32> {
        (0..n).map(|k| (v >> (16 * k)) as u32 & 0xffff).collect()
    };
    assert_eq!(w[0..2], halves(0x89ab_cdef, 2)[..]);
    let v = 0xfedc_ba98_7654_3210u64;
    assert_eq!(w[2..4], [v as u32, (v >> 32) as u32]);
    let h = halves(0x0123_4567_89ab_cdef, 4);
    assert_eq!(w[4..6], [h[0] | h[1] << 16, h[2] | h[3] << 16]);
    assert_eq!(w[6], (0x7fff_ffff_8000_0000u64 >> 32) as u32);
    // Only the low half of word 7 is stored; the high half keeps the buffer's filler.
    assert_eq!(w[7], 0xdead_0000 | (u32::MAX >> 16));
}
