//! 64-bit immediates stored and given to atomics (round s25): a store of a 64-bit immediate
//! with one zero half (scalar, vector element, `.f64`), immediates beside a `.global`
//! variable's address (which takes the scratch pair), `atom.exch/.cas.b64`, `red.add.u64`
//! with immediates (a compare-and-swap of two), the emulated 64-bit atomics (`red.min.u64`,
//! `atom.max.s64`) with an immediate, and a 32-bit compare-and-swap of two immediates at a
//! variable. Both executors; the expected memory is computed here from each operation's
//! definition (PTX ISA §9.7.9.9 st, §9.7.13.5 atom, §9.7.13.6 red).

use crate::common::*;

const KERNEL: &str = r#"
.version 7.0
.target sm_70
.address_size 64
.global .u64 gv;
.global .u64 gw[2];
.global .u64 gv2 = 40;
.global .u32 gv3 = 7;
.entry imms (.param .u64 out)
{
	.reg .u32 %r<4>;
	.reg .u64 %rd<8>;
	.reg .f64 %fd1;
	.reg .pred %p;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	red.global.add.u64 [%rd1+104], 0x100000001;
	red.global.min.u64 [%rd1+112], 3;
	atom.global.max.s64 %rd2, [%rd1+120], -2;
	setp.ne.u32 %p, %r1, 0;
	@%p bra DONE;
	st.global.u64 [%rd1], 3;
	st.global.u64 [%rd1+8], 0x500000000;
	st.global.v2.u64 [%rd1+16], {3, 0x700000000};
	st.global.f64 [%rd1+32], 0d3FF8000000000000;
	st.global.u64 [gv], 0x100000002;
	ld.global.u64 %rd2, [gv];
	st.global.u64 [%rd1+40], %rd2;
	st.global.u64 [gw+8], 3;
	ld.global.u64 %rd2, [gw+8];
	st.global.u64 [%rd1+48], %rd2;
	atom.global.exch.b64 %rd2, [%rd1+56], 3;
	st.global.u64 [%rd1+64], %rd2;
	atom.global.cas.b64 %rd2, [%rd1+72], 0x1111222233334444, 0x100000000;
	st.global.u64 [%rd1+80], %rd2;
	ld.global.u64 %rd3, [%rd1+88];
	atom.global.cas.b64 %rd2, [%rd1+88], %rd3, 0x900000000;
	st.global.u64 [%rd1+96], %rd2;
	atom.global.add.u64 %rd2, [gv2], 5;
	st.global.u64 [%rd1+128], %rd2;
	ld.global.u64 %rd2, [gv2];
	st.global.u64 [%rd1+136], %rd2;
	atom.global.cas.b32 %r2, [gv3], 7, 9;
	st.global.u32 [%rd1+144], %r2;
	ld.global.u32 %r2, [gv3];
	st.global.u32 [%rd1+148], %r2;
DONE:
	ret;
}
"#;

#[test]
fn wide_immediates_reach_memory_as_written() {
    let threads = 4u64;
    let mut init = vec![0xdead_beef_dead_beefu64; 19];
    init[7] = 0x0123_4567_89ab_cdef; // exch
    init[9] = 0x1111_2222_3333_4444; // cas of two immediates: equal, swapped
    init[11] = 0x2222_3333_4444_5555; // cas against its own value: swapped
    init[13] = 5; // red.add
    init[14] = 10; // red.min
    init[15] = (-7i64) as u64; // atom.max.s64
    let s = spec("imms", 1, threads as u32, vec![u64s(&init)]);
    let out = run_both("s25_imms", KERNEL, &s);
    let w = words64(&out[0]);
    let mut want = init.clone();
    want[0] = 3;
    want[1] = 0x5_0000_0000;
    want[2] = 3;
    want[3] = 0x7_0000_0000;
    want[4] = 1.5f64.to_bits();
    want[5] = 0x1_0000_0002;
    want[6] = 3;
    want[7] = 3;
    want[8] = init[7];
    want[9] = if init[9] == 0x1111_2222_3333_4444 {
        0x1_0000_0000
    } else {
        init[9]
    };
    want[10] = init[9];
    want[11] = 0x9_0000_0000;
    want[12] = init[11];
    want[13] = init[13].wrapping_add(threads * 0x1_0000_0001);
    want[14] = init[14].min(3);
    want[15] = (init[15] as i64).max(-2) as u64;
    want[16] = 40;
    want[17] = 45;
    want[18] = 7 | 9 << 32;
    assert_eq!(w, want);
}
