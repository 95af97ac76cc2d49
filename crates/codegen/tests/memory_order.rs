//! `ld`/`st`/`atom`/`red` with semantics and scopes: the translation fences them as the PTX
//! memory model asks of a machine whose accesses are relaxed (ptx-isa §8: an acquire pattern
//! orders later accesses after it, a release pattern earlier ones before it): `ld.acquire`
//! is the load then `MEMBAR`, `st.release` `MEMBAR` then the store, `.acq_rel` both, at
//! `.CTA`/`.GL`/`.SYS` per scope; loads that must see other SMs' writes bypass the L1
//! (`.CG`, `.CV`). Run on both executors with a message passed between warps, and the
//! listing checked for the fences.

mod common;
use common::*;

const KERNEL: &str = r#".version 7.8
.target sm_90
.address_size 64
.visible .entry mp(.param .u64 data, .param .u64 flag, .param .u64 out)
{
	.reg .b32 %r<10>;
	.reg .b64 %rd<8>;
	.reg .pred %p<3>;
	ld.param.u64 %rd1, [data];
	ld.param.u64 %rd2, [flag];
	ld.param.u64 %rd3, [out];
	mov.u32 %r1, %tid.x;
	setp.lt.u32 %p1, %r1, 32;
	mul.wide.u32 %rd4, %r1, 4;
	add.s64 %rd5, %rd1, %rd4;
	@%p1 st.relaxed.gpu.global.u32 [%rd5], %r1;
	@%p1 st.release.gpu.global.u32 [%rd2], 1;
	@%p1 red.release.sys.global.add.u32 [%rd2+4], 1;
	bar.sync 0;
	ld.acquire.gpu.global.u32 %r2, [%rd2];
	ld.relaxed.cta.global.u32 %r3, [%rd2+4];
	ld.volatile.global.u32 %r4, [%rd2+4];
	and.b32 %r5, %r1, 31;
	mul.wide.u32 %rd6, %r5, 4;
	add.s64 %rd6, %rd1, %rd6;
	ld.relaxed.sys.global.u32 %r6, [%rd6];
	atom.acquire.cta.global.add.u32 %r7, [%rd2+8], 1;
	atom.acq_rel.gpu.global.exch.b32 %r8, [%rd2+12], %r1;
	mul.wide.u32 %rd7, %r1, 16;
	add.s64 %rd7, %rd3, %rd7;
	st.global.v4.u32 [%rd7], {%r2, %r3, %r4, %r6};
	ret;
}
"#;

#[test]
fn ordered_accesses_pass_a_message_and_carry_their_fences() {
    let s = spec(
        "mp",
        1,
        64,
        vec![zeros32(32), u32s(&[0, 0, 0, 0]), zeros32(4 * 64)],
    );
    let out = run_both("mp.ptx", KERNEL, &s);
    let o = words(&out[2]);
    for t in 0..64 {
        assert_eq!(
            &o[4 * t..4 * t + 4],
            &[1, 32, 32, (t % 32) as u32],
            "thread {t}"
        );
    }
    let flag = words(&out[1]);
    assert_eq!(&flag[..3], &[1, 32, 64]);
    let (_, _, cubin) = compile("mp.ptx", KERNEL);
    let listing = disassembly(&cubin.kernels[0]);
    let count = |p: &str| listing.iter().filter(|l| l.contains(p)).count();
    // st.release.gpu, ld.acquire.gpu, atom.acq_rel.gpu (twice): MEMBAR.GL; red.release.sys:
    // MEMBAR.SYS; atom.acquire.cta: MEMBAR.CTA.
    assert_eq!(count("MEMBAR.GL"), 4, "{listing:#?}");
    assert_eq!(count("MEMBAR.SYS"), 1, "{listing:#?}");
    assert_eq!(count("MEMBAR.CTA"), 1, "{listing:#?}");
    assert_eq!(count("LD.E.CG"), 1, "{listing:#?}");
    assert_eq!(count("LD.E.CV"), 2, "{listing:#?}");
}
