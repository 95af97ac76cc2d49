//! Reducible loops whose exits go to several blocks where the lanes also `continue` before
//! they reconverge, `continue`s of an outer loop taken inside an inner one, and breaks out
//! of two loops at once: the translator gives each such loop one exit (a landing block that
//! dispatches on a per-lane exit code) instead of refusing it. Each kernel runs on both
//! executors with the same launch (buffers equal bit for bit) and every thread's word is
//! checked against the kernel's meaning written here in Rust. Small joins entered from
//! inside and outside a divergent region (refused in earlier rounds) are copied onto each
//! branch that reaches them.

mod common;
use common::*;

const HEAD: &str = ".version 7.0\n.target sm_20\n.address_size 64\n\
    .visible .entry k(.param .u64 pout)\n{\n\t.reg .pred %p<4>;\n\t.reg .b32 %r<12>;\n\
    \t.reg .b64 %rd<4>;\n\tld.param.u64 %rd1, [pout];\n\tmov.u32 %r2, %tid.x;\n";

/// Stores `%r1` at `out[tid]` and returns.
const TAIL: &str = "\tmul.wide.u32 %rd2, %r2, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n\
    \tst.global.u32 [%rd3], %r1;\n\tret;\n}\n";

/// Runs `k` over two warps and compares every thread's word with `meaning(tid)`.
fn check(name: &str, body: &str, meaning: impl Fn(u32) -> u32) {
    let text = format!("{HEAD}{body}{TAIL}");
    let s = spec("k", 1, 64, vec![zeros32(64)]);
    let out = words(&run_both(name, &text, &s)[0]);
    for tid in 0..64u32 {
        assert_eq!(
            out[tid as usize],
            meaning(tid),
            "{name}: thread {tid}\n{text}"
        );
    }
}

#[test]
fn a_continuing_loop_with_exits_to_two_blocks_agrees() {
    // The refused shape of earlier rounds: H's branch reconverges at X inside the loop,
    // but lanes continue to H before that (a `PCNT` loop), and the loop leaves to E1 and
    // to the block before E2.
    let body = "\tand.b32 %r1, %r2, 3;\n\tand.b32 %r3, %r2, 1;\n\
        \tsetp.eq.u32 %p1, %r3, 0;\n\
        H:\n\tadd.u32 %r1, %r1, 1;\n\t@%p1 bra X;\n\tsetp.lt.u32 %p3, %r1, 3;\n\
        \t@%p3 bra H;\nX:\n\tsetp.eq.u32 %p3, %r1, 5;\n\t@%p3 bra E1;\n\
        \tsetp.lt.u32 %p3, %r1, 8;\n\t@%p3 bra H;\n\tadd.u32 %r1, %r1, 100;\n\
        \tbra.uni E2;\nE1:\n\tadd.u32 %r1, %r1, 1000;\nE2:\n";
    check("continuing_two_exits.ptx", body, |tid| {
        let mut r = tid & 3;
        let even = tid & 1 == 0;
        loop {
            r += 1;
            if !even && r < 3 {
                continue;
            }
            if r == 5 {
                return r + 1000;
            }
            if r < 8 {
                continue;
            }
            return r + 100;
        }
    });
}

#[test]
fn a_loop_with_continue_break_and_return_agrees() {
    // CUDA's common shape: `continue` in a divergent `if`, a `break`, an early `return`
    // (a branch to the store), each taken by different lanes in different iterations.
    let body = "\tmov.u32 %r1, %r2;\n\tmov.u32 %r3, 0;\n\
        H:\n\tadd.u32 %r3, %r3, 1;\n\tsetp.gt.u32 %p1, %r3, 12;\n\t@%p1 bra AFTER;\n\
        \tmad.lo.u32 %r1, %r1, 3, %r3;\n\tand.b32 %r4, %r1, 4;\n\tsetp.ne.u32 %p1, %r4, 0;\n\
        \t@%p1 bra CONT;\n\tshl.b32 %r4, %r3, 3;\n\txor.b32 %r1, %r1, %r4;\n\
        \tand.b32 %r4, %r1, 48;\n\tsetp.eq.u32 %p1, %r4, 48;\n\t@%p1 bra EARLY;\n\
        \tand.b32 %r4, %r1, 768;\n\tsetp.eq.u32 %p1, %r4, 256;\n\t@%p1 bra AFTER;\n\
        \tadd.u32 %r1, %r1, %r2;\nCONT:\n\tadd.u32 %r1, %r1, 1;\n\tbra.uni H;\n\
        EARLY:\n\tadd.u32 %r1, %r1, 1000;\n\tbra.uni STORE;\n\
        AFTER:\n\tadd.u32 %r1, %r1, 5;\nSTORE:\n";
    check("continue_break_return.ptx", body, |tid| {
        let mut acc = tid;
        let mut i = 0u32;
        loop {
            i += 1;
            if i > 12 {
                break;
            }
            acc = acc.wrapping_mul(3).wrapping_add(i);
            if acc & 4 == 0 {
                acc ^= i << 3;
                if acc & 48 == 48 {
                    return acc.wrapping_add(1000);
                }
                if acc & 768 == 256 {
                    break;
                }
                acc = acc.wrapping_add(tid);
            }
            acc = acc.wrapping_add(1);
        }
        acc.wrapping_add(5)
    });
}

/// The meaning of [`nested_body`]: an outer loop of five trips whose inner loop runs
/// `(tid & 3) + 1` trips, continues the outer loop (`acc & 8`), or leaves both
/// (`acc & 0x70 == 0x70`).
fn nested_meaning(tid: u32) -> u32 {
    let mut acc = tid;
    let mut i = 0u32;
    'outer: loop {
        i += 1;
        if i > 5 {
            return acc;
        }
        acc = acc.wrapping_mul(5).wrapping_add(i);
        let mut j = 0u32;
        loop {
            j += 1;
            if j > (tid & 3) + 1 {
                break;
            }
            acc = acc.wrapping_mul(3).wrapping_add(j);
            if acc & 8 != 0 {
                continue 'outer;
            }
            if acc & 0x70 == 0x70 {
                return acc.wrapping_add(77);
            }
        }
        acc = acc.wrapping_add(11);
    }
}

const NESTED: &str = "\tmov.u32 %r1, %r2;\n\tmov.u32 %r3, 0;\n\
    \tand.b32 %r6, %r2, 3;\n\tadd.u32 %r6, %r6, 1;\n\
    O:\n\tadd.u32 %r3, %r3, 1;\n\tsetp.gt.u32 %p1, %r3, 5;\n\t@%p1 bra END;\n\
    \tmad.lo.u32 %r1, %r1, 5, %r3;\n\tmov.u32 %r5, 0;\n\
    I:\n\tadd.u32 %r5, %r5, 1;\n\tsetp.gt.u32 %p2, %r5, %r6;\n\t@%p2 bra AFTER_INNER;\n\
    \tmad.lo.u32 %r1, %r1, 3, %r5;\n\tand.b32 %r4, %r1, 8;\n\tsetp.ne.u32 %p2, %r4, 0;\n\
    \t@%p2 bra O;\n\tand.b32 %r4, %r1, 112;\n\tsetp.eq.u32 %p2, %r4, 112;\n\
    \t@%p2 bra BOTH;\n\tbra.uni I;\n\
    AFTER_INNER:\n\tadd.u32 %r1, %r1, 11;\n\tbra.uni O;\n\
    BOTH:\n\tadd.u32 %r1, %r1, 77;\nEND:\n";

#[test]
fn an_outer_continue_and_a_two_level_break_from_an_inner_loop_agree() {
    check("outer_continue.ptx", NESTED, nested_meaning);
}

#[test]
fn an_outer_continue_as_the_inner_loops_only_exit_agrees() {
    // The inner loop leaves only by continuing the outer one (its trip-count exit also
    // goes to the outer header): one exit target, still an edge the stack cannot take.
    let body = "\tmov.u32 %r1, %r2;\n\tmov.u32 %r3, 0;\n\
        O:\n\tadd.u32 %r3, %r3, 1;\n\tsetp.gt.u32 %p1, %r3, 4;\n\t@%p1 bra END;\n\
        \tadd.u32 %r1, %r1, %r3;\n\tmov.u32 %r5, 0;\n\
        I:\n\tadd.u32 %r5, %r5, 1;\n\tand.b32 %r4, %r2, 3;\n\tsetp.gt.u32 %p2, %r5, %r4;\n\
        \t@%p2 bra O;\n\tmad.lo.u32 %r1, %r1, 3, %r5;\n\tand.b32 %r4, %r1, 2;\n\
        \tsetp.ne.u32 %p2, %r4, 0;\n\t@%p2 bra O;\n\tadd.u32 %r1, %r1, 1;\n\tbra.uni I;\n\
        END:\n";
    check("outer_continue_only.ptx", body, |tid| {
        let mut acc = tid;
        for i in 1..=4u32 {
            acc = acc.wrapping_add(i);
            let mut j = 0u32;
            loop {
                j += 1;
                if j > tid & 3 {
                    break;
                }
                acc = acc.wrapping_mul(3).wrapping_add(j);
                if acc & 2 != 0 {
                    break;
                }
                acc = acc.wrapping_add(1);
            }
        }
        acc
    });
}

#[test]
fn a_join_inside_another_region_reached_by_a_uniform_branch_agrees() {
    // Block Y is inside the region of the branch at A (A -> A2 -> Y -> D) and is also the
    // join of the region of Q0's branch (Q0 -> Q1 -> Y), reached by a uniform branch: lanes
    // from Q0/Q1 would reconverge at Y's `.S`, then walk into A's region without its SSY
    // (refused until Y, two instructions, was copied onto the branches reaching it).
    let text = ".version 7.0\n.target sm_20\n.address_size 64\n\
        .visible .entry k(.param .u64 out, .param .u32 u)\n{\n\t.reg .pred %p<4>;\n\
        \t.reg .b32 %r<6>;\n\t.reg .b64 %rd<4>;\n\tld.param.u64 %rd1, [out];\n\
        \tld.param.u32 %r3, [u];\n\tmov.u32 %r1, %tid.x;\n\tsetp.ne.u32 %p1, %r3, 0;\n\
        \tand.b32 %r4, %r1, 1;\n\tsetp.ne.u32 %p2, %r4, 0;\n\tand.b32 %r4, %r1, 2;\n\
        \tsetp.ne.u32 %p3, %r4, 0;\n\tmov.u32 %r2, 1;\n\t@%p1 bra.uni Q0;\n\t@%p2 bra D;\n\
        \tadd.u32 %r2, %r2, 5;\nY:\n\tadd.u32 %r2, %r2, 6;\nD:\n\
        \tmul.wide.u32 %rd2, %r1, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n\
        \tst.global.u32 [%rd3], %r2;\n\tret;\nQ0:\n\t@%p3 bra Y;\n\
        \tadd.u32 %r2, %r2, 7;\n\tbra Y;\n}\n";
    for u in [0u32, 1] {
        let s = spec("k", 1, 64, vec![zeros32(64), value_u32(u)]);
        let out = words(&run_both("join_in_region.ptx", text, &s)[0]);
        for tid in 0..64u32 {
            let (p2, p3) = (tid & 1 != 0, tid & 2 != 0);
            let mut r = 1u32;
            if u != 0 {
                if !p3 {
                    r += 7;
                }
                r += 6;
            } else if !p2 {
                r += 5 + 6;
            }
            assert_eq!(out[tid as usize], r, "u {u}, thread {tid}");
        }
    }
}

#[test]
fn a_continuing_loop_with_two_exits_in_a_func_agrees() {
    // The `PCNT` loop with exits to two blocks inside a `.func` called divergently (odd
    // threads only): the landing block and its exit code live in the callee's frame.
    let text = ".version 7.0\n.target sm_20\n.address_size 64\n\
        .func (.param .b32 ret) walk(.param .b32 k)\n{\n\t.reg .pred %p<4>;\n\
        \t.reg .b32 %r<6>;\n\tld.param.u32 %r2, [k];\n\tand.b32 %r1, %r2, 3;\n\
        \tshr.u32 %r3, %r2, 1;\n\tand.b32 %r3, %r3, 1;\n\tsetp.eq.u32 %p1, %r3, 0;\n\
        H:\n\tadd.u32 %r1, %r1, 1;\n\t@%p1 bra X;\n\tsetp.lt.u32 %p3, %r1, 3;\n\
        \t@%p3 bra H;\nX:\n\tsetp.eq.u32 %p3, %r1, 5;\n\t@%p3 bra E1;\n\
        \tsetp.lt.u32 %p3, %r1, 8;\n\t@%p3 bra H;\n\tadd.u32 %r1, %r1, 100;\n\
        \tbra.uni E2;\nE1:\n\tadd.u32 %r1, %r1, 1000;\nE2:\n\tst.param.b32 [ret], %r1;\n\
        \tret;\n}\n\
        .visible .entry k(.param .u64 pout)\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<6>;\n\
        \t.reg .b64 %rd<4>;\n\tld.param.u64 %rd1, [pout];\n\tmov.u32 %r2, %tid.x;\n\
        \tmov.u32 %r1, 7;\n\tand.b32 %r3, %r2, 1;\n\tsetp.eq.u32 %p1, %r3, 0;\n\
        \t@%p1 bra SKIP;\n\t{\n\t.param .b32 p0;\n\tst.param.b32 [p0], %r2;\n\
        \t.param .b32 r0;\n\tcall (r0), walk, (p0);\n\tld.param.b32 %r1, [r0];\n\t}\n\
        SKIP:\n\tmul.wide.u32 %rd2, %r2, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n\
        \tst.global.u32 [%rd3], %r1;\n\tret;\n}\n";
    let s = spec("k", 1, 64, vec![zeros32(64)]);
    let out = words(&run_both("func_two_exits.ptx", text, &s)[0]);
    for tid in 0..64u32 {
        let want = if tid & 1 == 0 {
            7
        } else {
            let mut r = tid & 3;
            let skip = (tid >> 1) & 1 == 0;
            loop {
                r += 1;
                if !skip && r < 3 {
                    continue;
                }
                if r == 5 {
                    break r + 1000;
                }
                if r < 8 {
                    continue;
                }
                break r + 100;
            }
        };
        assert_eq!(out[tid as usize], want, "thread {tid}\n{text}");
    }
}
