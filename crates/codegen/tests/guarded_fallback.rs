//! A guarded instruction whose sequence cannot run under its guard (a shared atomic: its
//! `LDSLK`/`STSUL` loop) is selected again unguarded behind a branch of the other lanes.
//! The failed guarded attempt is undone entirely (its lines, the carry chain's state, the
//! barrier count: `flow::select_or_around_guard`), so a carry chain pending across the
//! instruction still reaches its `addc`: lanes compute a 64-bit sum across the fallback,
//! checked on both executors against Rust's 64-bit addition, and the shared counter the
//! guarded lanes add to against the number of lanes whose guard holds.

mod common;
use common::*;

const KERNEL: &str = r#".version 7.0
.target sm_20
.address_size 64
.visible .entry k(.param .u64 pout)
{
	.reg .pred %p<3>;
	.reg .b32 %r<12>;
	.reg .b64 %rd<4>;
	.shared .align 4 .u32 cnt;
	ld.param.u64 %rd1, [pout];
	mov.u32 %r2, %tid.x;
	setp.eq.u32 %p2, %r2, 0;
	@%p2 st.shared.u32 [cnt], 0;
	bar.sync 0;
	mul.lo.u32 %r3, %r2, -1640531527;
	and.b32 %r5, %r2, 3;
	setp.ne.u32 %p1, %r5, 0;
	add.cc.u32 %r4, %r3, -2147483648;
	@%p1 atom.shared.add.u32 %r6, [cnt], 1;
	addc.u32 %r7, %r2, 0;
	bar.sync 0;
	ld.shared.u32 %r8, [cnt];
	mul.wide.u32 %rd2, %r2, 12;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r4;
	st.global.u32 [%rd3+4], %r7;
	st.global.u32 [%rd3+8], %r8;
	ret;
}
"#;

#[test]
fn a_carry_chain_across_a_guarded_fallback_keeps_its_carry() {
    let threads = 64u32;
    let s = spec("k", 1, threads, vec![zeros32(3 * threads as usize)]);
    let out = words(&run_both("guarded_fallback.ptx", KERNEL, &s)[0]);
    // Lanes whose guard (`tid & 3 != 0`) holds each add 1 once.
    let guarded = (0..threads).filter(|t| t & 3 != 0).count() as u32;
    for tid in 0..threads {
        let a = u64::from(tid.wrapping_mul(0x9e37_79b9));
        // The 64-bit sum (tid:a) + (0:0x8000_0000), as the chain computes it.
        let sum = ((u64::from(tid) << 32) | a).wrapping_add(0x8000_0000);
        let row = &out[3 * tid as usize..3 * tid as usize + 3];
        assert_eq!(row[0], sum as u32, "thread {tid}: low word");
        assert_eq!(
            row[1],
            (sum >> 32) as u32,
            "thread {tid}: high word (the carry)"
        );
        assert_eq!(row[2], guarded, "thread {tid}: the shared counter");
    }
    // The fallback is taken: the lanes whose guard fails branch around an unguarded loop.
    let (_, _, cubin) = compile("guarded_fallback.ptx", KERNEL);
    let listing = disassembly(&cubin.kernels[0]);
    assert!(
        listing.iter().any(|l| l.contains("LDSLK")) && listing.iter().any(|l| l.contains("SSY")),
        "{listing:#?}"
    );
}
