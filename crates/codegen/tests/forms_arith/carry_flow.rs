//! Carry chains across blocks (`select/carry_flow.rs`): a producer before a divergent branch
//! and consumers on both paths, a chain through a loop's back edge, subtraction chains, and
//! consumers with no producer at all (PTX's flag starts at 0), even after Fermi code that
//! writes CC for its own purposes. Both executors run the code; expected values are
//! multiword arithmetic written here in plain Rust. Paths that disagree are refused.

use crate::common::*;

const DECLS: &str = "\t.reg .b32 %r<16>;\n\t.reg .b64 %rd<12>;\n\t.reg .pred %p<4>;\n";

/// Runs `body` (inputs `%r5`, `%r6`; it stores `rows` words at `%rd7`) over all pairs.
fn run(name: &str, body: &str, rows: usize, extra: &[u32]) -> (Vec<u32>, Vec<u32>, Vec<u32>) {
    let text = row_kernel(
        name,
        DECLS,
        &[("u32", "%r5", 4), ("u32", "%r6", 4)],
        4 * rows,
        body,
    );
    let mut edges = int_edges(24, 0x0c0f_fee1);
    edges.extend(extra);
    let (mut a, mut b) = all_pairs(&edges);
    while a.len() % 64 != 0 {
        a.push(0);
        b.push(0);
    }
    let got = run_row_pairs(name, &text, rows, &a, &b);
    (a, b, got)
}

#[test]
fn chains_continue_across_divergent_branches_and_loops() {
    // Row 0: a + b, then on one path (a < 100) `b + 7 + carry`, on the other `a + 1 + carry`.
    // Row 1: a subtraction chain split the same way. Row 2: a three-word sum in a loop:
    // `acc += a` five times, the carry of each step feeding the next across the back edge.
    // Row 3: the loop's final carry.
    let body = "\
	add.cc.u32 %r7, %r5, %r6;
	setp.lt.u32 %p1, %r5, 100;
	@%p1 bra LA;
	addc.u32 %r8, %r5, 1;
	bra LB;
LA:
	addc.u32 %r8, %r6, 7;
LB:
	st.global.u32 [%rd7], %r8;
	sub.cc.u32 %r7, %r5, %r6;
	setp.lt.u32 %p2, %r6, 100;
	@%p2 bra LC;
	subc.u32 %r9, %r5, 3;
	bra LD;
LC:
	subc.u32 %r9, %r6, %r5;
LD:
	st.global.u32 [%rd7+4], %r9;
	mov.u32 %r10, %r6;
	mov.u32 %r11, 0;
	mov.u32 %r12, 0;
	add.cc.u32 %r13, %r5, %r5;
LOOP:
	addc.cc.u32 %r10, %r10, %r5;
	add.u32 %r12, %r12, 1;
	setp.lt.u32 %p3, %r12, 5;
	@%p3 bra LOOP;
	addc.u32 %r11, 0, 0;
	st.global.u32 [%rd7+8], %r10;
	st.global.u32 [%rd7+12], %r11;
";
    let (a, b, got) = run("chains", body, 4, &[99, 100, 101]);
    for i in 0..a.len() {
        let (x, y) = (a[i], b[i]);
        let c0 = u32::from(x.checked_add(y).is_none());
        let r0 = if x < 100 {
            y.wrapping_add(7).wrapping_add(c0)
        } else {
            x.wrapping_add(1).wrapping_add(c0)
        };
        let borrow = u32::from(x < y);
        let r1 = if y < 100 {
            y.wrapping_sub(x).wrapping_sub(borrow)
        } else {
            x.wrapping_sub(3).wrapping_sub(borrow)
        };
        // The loop: carry in from x + x, then acc = acc + x + carry five times.
        let mut carry = u64::from(x.checked_add(x).is_none());
        let mut acc = u64::from(y);
        for _ in 0..5 {
            let s = acc + u64::from(x) + carry;
            acc = s & 0xffff_ffff;
            carry = s >> 32;
        }
        let want = [r0, r1, acc as u32, carry as u32];
        for (r, w) in want.iter().enumerate() {
            assert_eq!(got[4 * i + r], *w, "row {r}: a = {x:#x}, b = {y:#x}");
        }
    }
}

#[test]
fn consumers_without_a_producer_read_zero() {
    // PTX's flag starts at 0: addc adds nothing, subc subtracts nothing, madc adds nothing,
    // also after a 64-bit add and a 64-bit division, whose Fermi sequences write CC.
    let body = "\
	addc.u32 %r8, %r5, %r6;
	st.global.u32 [%rd7], %r8;
	subc.u32 %r8, %r5, %r6;
	st.global.u32 [%rd7+4], %r8;
	madc.lo.u32 %r8, %r5, %r6, %r5;
	st.global.u32 [%rd7+16], %r8;
	cvt.u64.u32 %rd8, %r5;
	add.u64 %rd9, %rd8, -1;
	div.u64 %rd10, %rd9, 3;
	cvt.u32.u64 %r9, %rd10;
	addc.cc.u32 %r8, %r9, %r6;
	addc.u32 %r10, 0, 0;
	st.global.u32 [%rd7+8], %r8;
	st.global.u32 [%rd7+12], %r10;
";
    let (a, b, got) = run("zero", body, 5, &[]);
    for i in 0..a.len() {
        let (x, y) = (a[i], b[i]);
        let q = ((u64::from(x).wrapping_sub(1)) / 3) as u32;
        let want = [
            x.wrapping_add(y),
            x.wrapping_sub(y),
            q.wrapping_add(y),
            u32::from(q.checked_add(y).is_none()),
            x.wrapping_mul(y).wrapping_add(x),
        ];
        for (r, w) in want.iter().enumerate() {
            assert_eq!(got[5 * i + r], *w, "row {r}: a = {x:#x}, b = {y:#x}");
        }
    }
}

#[test]
fn paths_that_disagree_are_refused() {
    // One path produces a carry, the other does not: the consumer after the join is refused.
    let body = "\
	setp.lt.u32 %p1, %r5, 100;
	@%p1 bra LA;
	add.cc.u32 %r7, %r5, %r6;
LA:
	addc.u32 %r8, %r5, 1;
	st.global.u32 [%rd7], %r8;
";
    let text = row_kernel(
        "disagree",
        DECLS,
        &[("u32", "%r5", 4), ("u32", "%r6", 4)],
        4,
        body,
    );
    let (m, file) = checked("disagree.ptx", &text);
    let err = match codegen::compile_module(&m, &file) {
        Ok(_) => panic!("a carry-in that differs between paths must be refused"),
        Err(e) => diag::render(&file, &e),
    };
    assert!(err.contains("every path"), "{err}");
}

/// A sequence that writes CC for itself (64-bit `neg` is `IADD.CC`/`IADD.X`) between a
/// producer and its consumer, in the block or in a successor, is refused: it would lose the
/// chain's carry.
#[test]
fn flag_writers_inside_a_pending_chain_are_refused() {
    for (name, mid) in [
        ("inblock", "neg.s64 %rd8, %rd8;"),
        ("division", "div.u64 %rd8, %rd8, 3;"),
        ("sad", "sad.u64 %rd8, %rd8, 3, %rd8;"),
        (
            "successor",
            "setp.lt.u32 %p1, %r5, 100;\n\t@%p1 bra LA;\nLA:\n\tneg.s64 %rd8, %rd8;",
        ),
    ] {
        let body = format!(
            "\tcvt.u64.u32 %rd8, %r5;\n\tadd.cc.u32 %r7, %r5, %r6;\n\t{mid}\n\
             \taddc.u32 %r8, %r5, 1;\n\tst.global.u32 [%rd7], %r8;\n\tst.global.u64 [%rd7+8], %rd8;\n"
        );
        let text = row_kernel(
            name,
            DECLS,
            &[("u32", "%r5", 4), ("u32", "%r6", 4)],
            16,
            &body,
        );
        let (m, file) = checked("clobber.ptx", &text);
        let err = match codegen::compile_module(&m, &file) {
            Ok(_) => panic!("{name}: a CC-writing sequence inside a pending chain must be refused"),
            Err(e) => diag::render(&file, &e),
        };
        assert!(
            err.contains("carry flag of a pending .cc chain"),
            "{name}: {err}"
        );
    }
}

/// A guarded producer: the lanes its guard skips keep PTX's flag as it was. Row 0: no
/// producer before it (PTX's initial 0), after a 64-bit add (`2a`) whose `IADD.CC` leaves
/// Fermi's CC set for itself (a carry when a ≥ 2^31): the skipped lanes' consumer must add 0. Row 1: a pending chain of the same
/// kind: the skipped lanes keep that chain's carry.
#[test]
fn guarded_producers_leave_the_skipped_lanes_flag() {
    let body = "\
	cvt.u64.u32 %rd8, %r5;
	add.u64 %rd10, %rd8, %rd8;
	setp.lt.u32 %p1, %r5, %r6;
	@%p1 add.cc.u32 %r7, %r5, %r6;
	addc.u32 %r8, %r5, 5;
	st.global.u32 [%rd7], %r8;
	add.cc.u32 %r7, %r6, %r6;
	@%p1 add.cc.u32 %r7, %r5, %r6;
	addc.u32 %r9, %r6, 9;
	st.global.u32 [%rd7+4], %r9;
	st.global.u64 [%rd7+8], %rd10;
";
    let (a, b, got) = run("guardedcc", body, 4, &[0xffff_ffff, 1]);
    let carry = |x: u32, y: u32| u32::from(x.checked_add(y).is_none());
    for i in 0..a.len() {
        let (x, y) = (a[i], b[i]);
        let guard = x < y;
        let r0 = x
            .wrapping_add(5)
            .wrapping_add(if guard { carry(x, y) } else { 0 });
        let r1 = y
            .wrapping_add(9)
            .wrapping_add(if guard { carry(x, y) } else { carry(y, y) });
        assert_eq!(got[4 * i], r0, "row 0: a = {x:#x}, b = {y:#x}");
        assert_eq!(got[4 * i + 1], r1, "row 1: a = {x:#x}, b = {y:#x}");
        let twice = 2 * u64::from(x);
        assert_eq!(
            u64::from(got[4 * i + 2]) | u64::from(got[4 * i + 3]) << 32,
            twice,
            "2a: a = {x:#x}"
        );
    }
}

/// A guarded producer after a chain of the other kind: its skipped lanes hold Fermi's
/// not-borrow, which an addition chain cannot read as PTX's flag: the consumer is refused.
#[test]
fn guarded_producers_after_the_other_kind_are_refused() {
    let body = "\tsub.cc.u32 %r7, %r5, %r6;\n\tsetp.lt.u32 %p1, %r5, %r6;\n\
                \t@%p1 add.cc.u32 %r7, %r5, %r6;\n\taddc.u32 %r8, %r5, 5;\n\
                \tst.global.u32 [%rd7], %r8;\n";
    let text = row_kernel(
        "mixed",
        DECLS,
        &[("u32", "%r5", 4), ("u32", "%r6", 4)],
        4,
        body,
    );
    let (m, file) = checked("mixed.ptx", &text);
    let err = match codegen::compile_module(&m, &file) {
        Ok(_) => panic!("a guarded producer after a subtraction chain must not feed addc"),
        Err(e) => diag::render(&file, &e),
    };
    assert!(err.contains("addc.u32 %r8, %r5, 5"), "{err}");
}
