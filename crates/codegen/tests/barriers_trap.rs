//! Named barriers and thread counts (`bar.sync a, b`, `bar.arrive a, b`, `barrier.sync`) and
//! `trap`, on both executors: tests/kernels/reduce_shared.ptx's producer/consumer entry (warp
//! 0 signals with `bar.arrive 1, 64`, warp 1 waits with `bar.sync 1, 64`) against its
//! documented meaning, a kernel with barrier number and count in registers, and `trap`
//! faulting both executors (and not when its guard is false).

mod common;
use common::*;

#[test]
fn producer_consumer_with_named_barriers_agrees_with_its_meaning() {
    let path = "tests/kernels/reduce_shared.ptx";
    let text = std::fs::read_to_string(format!("../../{path}")).expect(path);
    let ctas = 3u32;
    let out = run_both(
        path,
        &text,
        &spec(
            "producer_consumer",
            ctas,
            64,
            vec![zeros32(32 * ctas as usize)],
        ),
    );
    let got = words(&out[0]);
    // Consumer thread t (32..64) of CTA c sums buf[t - 32] = (t-32)^2 + 1000r + c over r = 0..3.
    for c in 0..ctas {
        for t in 32..64u32 {
            let u = t - 32;
            let want: u32 = (0..3).map(|r| u * u + 1000 * r + c).sum();
            assert_eq!(got[(32 * c + u) as usize], want, "CTA {c} thread {t}");
        }
    }
}

const REGISTERS: &str = r#".version 7.0
.target sm_20
.address_size 64
.visible .entry named(.param .u64 out, .param .u32 bar_id, .param .u32 count)
{
	.reg .pred %p<3>;
	.reg .b32 %r<12>;
	.reg .b64 %rd<6>;
	.shared .align 4 .u32 s[128];
	ld.param.u64 %rd1, [out];
	ld.param.u32 %r1, [bar_id];
	ld.param.u32 %r2, [count];
	mov.u32 %r3, %tid.x;
	mov.u32 %r4, %ctaid.x;
	shl.b32 %r5, %r3, 2;
	mov.u32 %r6, s;
	add.s32 %r6, %r6, %r5;
	mad.lo.s32 %r7, %r3, 3, %r4;
	st.shared.u32 [%r6], %r7;
	// Warps 0 and 1 (64 threads) meet at barrier %r1 with %r2 threads; warps 2 and 3 at
	// barrier 2 with an immediate count.
	setp.lt.u32 %p1, %r3, 64;
	@%p1 bra LOW;
	bar.sync 2, 64;
	xor.b32 %r8, %r3, 32;
	bra.uni READ;
LOW:
	bar.sync %r1, %r2;
	xor.b32 %r8, %r3, 32;
READ:
	shl.b32 %r9, %r8, 2;
	mov.u32 %r10, s;
	add.s32 %r10, %r10, %r9;
	ld.shared.u32 %r11, [%r10];
	bar.sync 0;
	mad.lo.s32 %r7, %r4, 128, %r3;
	mul.wide.u32 %rd2, %r7, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r11;
	ret;
}
"#;

#[test]
fn barrier_number_and_count_in_registers_agree() {
    let ctas = 2usize;
    let out = run_both(
        "named.ptx",
        REGISTERS,
        &spec(
            "named",
            ctas as u32,
            128,
            vec![zeros32(128 * ctas), value_u32(1), value_u32(64)],
        ),
    );
    let got = words(&out[0]);
    for c in 0..ctas as u32 {
        for t in 0..128u32 {
            // Each thread reads the word its partner warp-half (t xor 32) stored.
            assert_eq!(
                got[(128 * c + t) as usize],
                (t ^ 32) * 3 + c,
                "CTA {c} thread {t}"
            );
        }
    }
}

const TRAP: &str = r#".version 7.0
.target sm_20
.address_size 64
.visible .entry maybe_trap(.param .u64 out, .param .u32 which)
{
	.reg .pred %p<2>;
	.reg .b32 %r<4>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [out];
	ld.param.u32 %r1, [which];
	mov.u32 %r2, %tid.x;
	setp.eq.u32 %p1, %r2, %r1;
	@%p1 trap;
	mul.wide.u32 %rd2, %r2, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r2;
	ret;
}
"#;

#[test]
fn trap_faults_both_executors_only_when_executed() {
    // No thread traps: the kernel runs and both executors agree.
    let out = run_both(
        "trap.ptx",
        TRAP,
        &spec("maybe_trap", 1, 64, vec![zeros32(64), value_u32(1000)]),
    );
    assert_eq!(words(&out[0]), (0..64).collect::<Vec<u32>>());
    // Thread 37 traps: both executors stop with a fault.
    let (m, file, cubin) = compile("trap.ptx", TRAP);
    let s = spec("maybe_trap", 1, 64, vec![zeros32(64), value_u32(37)]);
    let ptx = exec::run(&m, &file, &s, &exec::RunOptions::default());
    assert!(ptx.is_err(), "the PTX executor must fault on trap");
    match fermi_exec::run_module(&cubin, &s, &fermi_exec::Options::default()) {
        Err(e) => assert!(format!("{e:?}").contains("Trap"), "{e:?}"),
        Ok(_) => panic!("the Fermi executor must fault on BPT.TRAP"),
    }
}
