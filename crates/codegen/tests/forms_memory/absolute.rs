//! Absolute addresses (round s25): `[a]` is the address `a` itself, `[RZ+a]` on Fermi.
//! Shared window offsets mean the same memory on both executors (the CTA's shared array
//! starts at offset 0), so stores and loads at absolute shared addresses agree with the
//! array's named accesses; a global load at an address no buffer holds (256) faults on both.

use crate::common::*;

const KERNEL: &str = r#"
.version 7.0
.target sm_20
.address_size 64
.entry ab (.param .u64 out, .param .u32 wild)
{
	.reg .u32 %r<8>;
	.reg .u64 %rd<4>;
	.reg .pred %p;
	.shared .align 16 .u32 s[4];
	ld.param.u64 %rd1, [out];
	ld.param.u32 %r5, [wild];
	mov.u32 %r1, %tid.x;
	setp.ne.u32 %p, %r1, 0;
	@%p bra WAIT;
	st.shared.u32 [0], 11;
	st.shared.u32 [4], 22;
	st.shared.v2.u32 [8], {33, 44};
WAIT:
	bar.sync 0;
	ld.shared.u32 %r2, [s];
	ld.shared.u32 %r3, [8];
	ld.shared.u32 %r4, [s+12];
	setp.ne.u32 %p, %r5, 0;
	@%p ld.global.u32 %r4, [256];
	mul.wide.u32 %rd2, %r1, 16;
	add.u64 %rd1, %rd1, %rd2;
	st.global.v4.u32 [%rd1], {%r2, %r3, %r4, %r1};
	ret;
}
"#;

#[test]
fn absolute_addresses_are_the_addresses_themselves() {
    let n = 32u32;
    let launch = |wild: u32| spec("ab", 1, n, vec![zeros32(4 * n as usize), value_u32(wild)]);
    let out = run_both("s25_absolute", KERNEL, &launch(0));
    let w = words(&out[0]);
    for t in 0..n {
        let row = &w[4 * t as usize..4 * t as usize + 4];
        // s[0] = 11 (stored by [0]), s[2] = 33 (read by [8]), s[3] = 44 (by the .v2 at [8]).
        assert_eq!(row, [11, 33, 44, t], "thread {t}");
    }
    let (m, file, cubin) = compile("s25_absolute", KERNEL);
    let s = launch(1);
    assert!(
        exec::run(&m, &file, &s, &exec::RunOptions::default()).is_err(),
        "the PTX executor must fault at global address 256"
    );
    assert!(
        fermi_exec::run_module(&cubin, &s, &fermi_exec::Options::default()).is_err(),
        "the Fermi executor must fault at global address 256"
    );
}
