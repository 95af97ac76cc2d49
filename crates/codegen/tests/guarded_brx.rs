//! Guarded `@p brx.idx`: lanes whose guard fails fall through (to a block that may also be a
//! list target), the others take their case; an index past the list on a lane whose guard
//! fails does not fault, on one whose guard holds it faults both executors. The expected
//! values are the kernels' switches written in Rust.

mod common;
use common::*;

/// Per thread t: with i = t % 4 and guard `t & 8` (negated when NEG), lanes whose guard holds
/// branch to list entry i (C0, FALL, C2, C2 — FALL is also the fall-through block), the
/// others fall through; an index of 7 (past the list) is given to lanes whose guard fails
/// when t % 16 == 5.
fn kernel(neg: bool) -> String {
    let guard = if neg { "@!%p1" } else { "@%p1" };
    format!(
        r#".version 7.0
.target sm_30
.address_size 64
.visible .entry gbrx(.param .u64 out, .param .u32 rounds)
{{
	.reg .pred %p<3>;
	.reg .b32 %r<10>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [out];
	ld.param.u32 %r8, [rounds];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, 100;
	mov.u32 %r9, 0;
LOOP:
	add.u32 %r5, %r1, %r9;
	and.b32 %r3, %r5, 3;
	and.b32 %r4, %r5, 8;
	setp.ne.u32 %p1, %r4, 0;
	and.b32 %r6, %r5, 15;
	setp.eq.u32 %p2, %r6, 5;
	{sel}
	$T: .branchtargets C0, FALL, C2, C2;
	{guard} brx.idx %r3, $T;
FALL:
	add.u32 %r2, %r2, 1000;
	bra.uni NEXT;
C0:
	and.b32 %r7, %r1, 4;
	setp.ne.u32 %p2, %r7, 0;
	@%p2 bra C0B;
	add.u32 %r2, %r2, 10;
	bra.uni NEXT;
C0B:
	add.u32 %r2, %r2, 20;
	bra.uni NEXT;
C2:
	mad.lo.u32 %r2, %r2, 3, %r3;
NEXT:
	add.u32 %r9, %r9, 1;
	setp.lt.u32 %p2, %r9, %r8;
	@%p2 bra LOOP;
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r2;
	ret;
}}
"#,
        // Lanes whose guard fails get index 7 where t % 16 == 5.
        sel = if neg {
            "@%p1 selp.u32 %r3, 7, %r3, %p2;"
        } else {
            "@!%p1 selp.u32 %r3, 7, %r3, %p2;"
        }
    )
}

fn want(t: u32, rounds: u32, neg: bool) -> u32 {
    let mut acc = 100u32;
    for k in 0..rounds.max(1) {
        let x = t + k;
        let i = x % 4;
        let taken = (x & 8 != 0) != neg;
        let entry = if taken { i } else { 1 };
        acc = match entry {
            0 if t & 4 != 0 => acc + 20,
            0 => acc + 10,
            1 => acc + 1000,
            _ => acc * 3 + i,
        };
    }
    acc
}

#[test]
fn guarded_brx_takes_its_case_or_falls_through() {
    for neg in [false, true] {
        let text = kernel(neg);
        for rounds in [1u32, 3, 16] {
            let s = spec("gbrx", 1, 96, vec![zeros32(96), value_u32(rounds)]);
            let out = run_both("gbrx.ptx", &text, &s);
            let expect: Vec<u32> = (0..96).map(|t| want(t, rounds, neg)).collect();
            assert_eq!(words(&out[0]), expect, "neg = {neg}, rounds = {rounds}");
        }
    }
}

const BAD: &str = r#".version 7.0
.target sm_30
.address_size 64
.visible .entry bad(.param .u32 i, .param .u32 g)
{
	.reg .pred %p<2>;
	.reg .b32 %r<4>;
	ld.param.u32 %r1, [i];
	ld.param.u32 %r2, [g];
	setp.ne.u32 %p1, %r2, 0;
	$T: .branchtargets A, B;
	@%p1 brx.idx %r1, $T;
A:
	ret;
B:
	ret;
}
"#;

#[test]
fn an_index_past_the_list_faults_only_where_the_guard_holds() {
    let (m, file, cubin) = compile("bad.ptx", BAD);
    for (i, g, faults) in [
        (1u32, 1u32, false),
        (2, 1, true),
        (9, 0, false),
        (0xffff_ffff, 1, true),
    ] {
        let s = spec("bad", 1, 32, vec![value_u32(i), value_u32(g)]);
        let ptx = exec::run(&m, &file, &s, &exec::RunOptions::default());
        let sass = fermi_exec::run_module(&cubin, &s, &fermi_exec::Options::default());
        assert_eq!(ptx.is_err(), faults, "PTX executor, index {i}, guard {g}");
        assert_eq!(
            sass.is_err(),
            faults,
            "Fermi executor, index {i}, guard {g}: {sass:?}"
        );
    }
}
