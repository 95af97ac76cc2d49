//! `.shared::cluster` loads, stores and atomics (round s25): ptxvm's clusters are one CTA,
//! so they are the CTA's shared memory, translated as `.shared` (LDS/STS and the shared
//! atomic loop). Both executors, against values computed here.

use crate::common::*;

const KERNEL: &str = r#"
.version 7.8
.target sm_90
.address_size 64
.entry cl (.param .u64 out)
{
	.reg .u32 %r<10>;
	.reg .u64 %rd<4>;
	.reg .pred %p1;
	.shared .align 8 .u32 sh[64];
	.shared .align 4 .u32 count;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd2, %r1, 16;
	add.u64 %rd1, %rd1, %rd2;
	mov.u32 %r2, sh;
	shl.b32 %r3, %r1, 2;
	add.u32 %r2, %r2, %r3;
	mul.lo.u32 %r4, %r1, 3;
	add.u32 %r4, %r4, 7;
	st.shared::cluster.u32 [%r2], %r4;
	setp.eq.u32 %p1, %r1, 0;
	@%p1 st.shared::cluster.u32 [count], 1000;
	bar.sync 0;
	xor.b32 %r5, %r1, 1;
	shl.b32 %r5, %r5, 2;
	mov.u32 %r6, sh;
	add.u32 %r6, %r6, %r5;
	ld.shared::cluster.u32 %r7, [%r6];
	atom.shared::cluster.add.u32 %r8, [count], %r1;
	red.shared::cluster.add.u32 [count], 1;
	bar.sync 0;
	ld.shared::cluster.u32 %r9, [count];
	st.global.v4.u32 [%rd1], {%r7, %r9, %r4, %r1};
	ret;
}
"#;

#[test]
fn cluster_shared_memory_is_the_ctas_own() {
    let n = 64u32;
    let out = run_both(
        "s25_cluster",
        KERNEL,
        &spec("cl", 1, n, vec![zeros32(4 * n as usize)]),
    );
    let w = words(&out[0]);
    // After both atomics of every thread: 1000 + Σ tid + n.
    let total = 1000 + (0..n).sum::<u32>() + n;
    for t in 0..n {
        let row = &w[4 * t as usize..4 * t as usize + 4];
        assert_eq!(row, [(t ^ 1) * 3 + 7, total, t * 3 + 7, t], "thread {t}");
    }
}
