//! A partial barrier completed by arrivals alone (PTX `bar`: "When a barrier completes, the
//! waiting threads are restarted without delay, and the barrier is reinitialized so that it
//! can be immediately reused"). In a 128-thread CTA warps 0–1 `bar.arrive 1, 64` and warps
//! 2–3 `bar.red.popc.u32 1, 64`: the producers' 64 arrivals complete the first use, the
//! consumers' 64 the second, so the consumers' reduction is over their own predicates only.
//! The same case in SASS on the Fermi executor: crates/fermi-exec/tests/barriers.rs.

mod endtoend_common;
use endtoend_common::*;
use exec::Arg;

const KERNEL: &str = r#"
.version 7.0
.target sm_70
.address_size 64

.visible .entry arrive_reuse(
	.param .u64 out
)
{
	.reg .pred 	%p<3>;
	.reg .b32 	%r<6>;
	.reg .b64 	%rd<4>;

	ld.param.u64 	%rd1, [out];
	cvta.to.global.u64 	%rd1, %rd1;
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd2, %r1, 4;
	add.s64 	%rd3, %rd1, %rd2;
	setp.ge.u32 	%p1, %r1, 64;
	@%p1 bra 	CONSUME;
	mad.lo.u32 	%r2, %r1, 3, 1;
	st.global.u32 	[%rd3], %r2;
	bar.arrive 	1, 64;
	ret;
CONSUME:
	setp.lt.u32 	%p2, %r1, 80;
	bar.red.popc.u32 	%r3, 1, 64, %p2;
	st.global.u32 	[%rd3], %r3;
	ret;
}
"#;

#[test]
fn arrivals_alone_complete_a_use_of_a_counted_barrier() {
    let consumers_held = (64..128u32).filter(|&t| t < 80).count() as u32;
    let want: Vec<u32> = (0..128u32)
        .map(|t| if t < 64 { 3 * t + 1 } else { consumers_held })
        .collect();
    for threads in THREAD_COUNTS {
        let (mut dev, m) = load_text("arrive_reuse.ptx", KERNEL);
        let out = zeros::<u32>(&mut dev, 128);
        dev.launch(
            &m,
            "arrive_reuse",
            &cfg([1, 1, 1], [128, 1, 1]),
            &[Arg::ptr(out)],
            &opts(threads),
        )
        .unwrap_or_else(|e| panic!("{threads} worker threads: {e}"));
        assert_eq!(
            download::<u32>(&dev, out, 128),
            want,
            "{threads} worker threads"
        );
    }
}
