//! Rotated loops: the header is not the first of the loop's blocks in the file (a
//! bottom-tested loop entered by a jump to its test, a loop entered by a jump into its
//! middle), so a back edge goes forward in the layout. Loops are recognised by dominance
//! (a back edge is an edge to a block dominating its source), not by layout, so these map
//! as written: the header, which carries a marker instruction (`xor` with `MARK`), is not
//! copied by node splitting (the marker appears once in the listing), nor is the returning
//! tail (one store). Divergent and
//! uniform, with one exit and with several; every thread's word is checked on both
//! executors against the loop's meaning written here in Rust.

mod common;
use common::*;

/// The constant of the header's marker instruction (the bodies' only `xor`).
const MARK: u32 = 0x0123_4567;

const HEAD: &str = ".version 7.0\n.target sm_20\n.address_size 64\n\
    .visible .entry k(.param .u64 pout, .param .u32 pn)\n{\n\t.reg .pred %p<4>;\n\
    \t.reg .b32 %r<12>;\n\t.reg .b64 %rd<4>;\n\tld.param.u64 %rd1, [pout];\n\
    \tld.param.u32 %r9, [pn];\n\tmov.u32 %r2, %tid.x;\n";

/// Stores `%r1` at `out[tid]` and returns.
const TAIL: &str = "\tmul.wide.u32 %rd2, %r2, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n\
    \tst.global.u32 [%rd3], %r1;\n\tret;\n}\n";

/// The marker instruction, in PTX.
fn mark() -> String {
    format!("\txor.b32 %r1, %r1, {MARK};\n")
}

/// Runs `k` over two warps with `pn = n`, compares every thread's word with
/// `meaning(tid)`, and requires the header's marker once in the listing (not copied).
fn check(name: &str, body: &str, n: u32, meaning: impl Fn(u32) -> u32) {
    let text = format!("{HEAD}{body}{TAIL}");
    let s = spec("k", 1, 64, vec![zeros32(64), value_u32(n)]);
    let out = words(&run_both(name, &text, &s)[0]);
    for tid in 0..64u32 {
        assert_eq!(
            out[tid as usize],
            meaning(tid),
            "{name}: thread {tid}, n = {n}\n{text}"
        );
    }
    let (_, _, cubin) = compile(name, &text);
    let listing = disassembly(&cubin.kernels[0]);
    // The marker is the body's only `xor` (its constant may be hoisted out of the loop).
    let marks = listing.iter().filter(|l| l.contains("XOR")).count();
    assert_eq!(marks, 1, "{name}: the header was copied\n{listing:#?}");
    // Nor was the returning tail copied: the body mapped as written.
    let stores = listing.iter().filter(|l| l.contains("ST.E")).count();
    assert_eq!(stores, 1, "{name}: the tail was copied\n{listing:#?}");
}

#[test]
fn a_bottom_tested_divergent_loop_entered_at_its_test_agrees() {
    // The test (the header) is laid out after the body; the body falls through into it.
    let body = format!(
        "\tmov.u32 %r1, %r2;\n\tmov.u32 %r3, 0;\n\tand.b32 %r5, %r2, 7;\n\
         \tbra.uni TEST;\n\
         BODY:\n\tmad.lo.u32 %r1, %r1, 3, %r3;\n\tadd.u32 %r3, %r3, 1;\n\
         TEST:\n{}\tsetp.lt.u32 %p1, %r3, %r5;\n\t@%p1 bra BODY;\n",
        mark()
    );
    check("bottom_tested.ptx", &body, 0, |tid| {
        let (mut acc, mut i, n) = (tid, 0u32, tid & 7);
        loop {
            acc ^= MARK;
            if i >= n {
                return acc;
            }
            acc = acc.wrapping_mul(3).wrapping_add(i);
            i += 1;
        }
    });
}

#[test]
fn a_loop_entered_in_its_middle_with_a_divergent_if_inside_agrees() {
    // Entered at MID; TOP (before it in the file) holds a divergent `if` that reconverges
    // inside the loop; the back edge `@p1 bra TOP` goes backward, TOP → MID forward.
    let body = format!(
        "\tmov.u32 %r1, %r2;\n\tmov.u32 %r3, 0;\n\tand.b32 %r5, %r2, 3;\n\
         \tbra.uni MID;\n\
         TOP:\n\tadd.u32 %r1, %r1, %r3;\n\tand.b32 %r4, %r1, 1;\n\
         \tsetp.ne.u32 %p2, %r4, 0;\n\t@%p2 bra SKIP;\n\tshl.b32 %r1, %r1, 1;\n\
         SKIP:\n\tadd.u32 %r1, %r1, 7;\n\
         MID:\n{}\tadd.u32 %r3, %r3, 1;\n\tsetp.le.u32 %p1, %r3, %r5;\n\
         \t@%p1 bra TOP;\n",
        mark()
    );
    check("middle_entry.ptx", &body, 0, |tid| {
        let (mut acc, mut i, n) = (tid, 0u32, tid & 3);
        loop {
            acc ^= MARK;
            i += 1;
            if i > n {
                return acc;
            }
            acc = acc.wrapping_add(i);
            if acc & 1 == 0 {
                acc <<= 1;
            }
            acc = acc.wrapping_add(7);
        }
    });
}

#[test]
fn a_rotated_loop_with_two_exits_to_one_block_agrees() {
    // Header H after the body; exits from the body (`acc & 0x30 == 0x30`) and from H
    // (`i >= n`), both to OUT; H's back edge is an unconditional branch to B1.
    let body = format!(
        "\tmov.u32 %r1, %r2;\n\tmov.u32 %r3, 0;\n\tand.b32 %r5, %r2, 7;\n\
         \tbra.uni H;\n\
         B1:\n\tmad.lo.u32 %r1, %r1, 5, %r3;\n\tand.b32 %r4, %r1, 48;\n\
         \tsetp.eq.u32 %p2, %r4, 48;\n\t@%p2 bra OUT;\n\tadd.u32 %r3, %r3, 1;\n\
         H:\n{}\tsetp.ge.u32 %p1, %r3, %r5;\n\t@%p1 bra OUT;\n\tbra.uni B1;\n\
         OUT:\n\tadd.u32 %r1, %r1, 5;\n",
        mark()
    );
    check("two_exits.ptx", &body, 0, |tid| {
        let (mut acc, mut i, n) = (tid, 0u32, tid & 7);
        loop {
            acc ^= MARK;
            if i >= n {
                break;
            }
            acc = acc.wrapping_mul(5).wrapping_add(i);
            if acc & 48 == 48 {
                break;
            }
            i += 1;
        }
        acc.wrapping_add(5)
    });
}

#[test]
fn a_rotated_loop_with_exits_to_two_blocks_agrees() {
    // As above, but the body's exit goes to EARLY (+1000) and H's to OUT (+5).
    let body = format!(
        "\tmov.u32 %r1, %r2;\n\tmov.u32 %r3, 0;\n\tand.b32 %r5, %r2, 7;\n\
         \tbra.uni H;\n\
         B1:\n\tmad.lo.u32 %r1, %r1, 5, %r3;\n\tand.b32 %r4, %r1, 48;\n\
         \tsetp.eq.u32 %p2, %r4, 48;\n\t@%p2 bra EARLY;\n\tadd.u32 %r3, %r3, 1;\n\
         H:\n{}\tsetp.ge.u32 %p1, %r3, %r5;\n\t@%p1 bra OUT;\n\tbra.uni B1;\n\
         EARLY:\n\tadd.u32 %r1, %r1, 1000;\n\tbra.uni STORE;\n\
         OUT:\n\tadd.u32 %r1, %r1, 5;\nSTORE:\n",
        mark()
    );
    check("two_targets.ptx", &body, 0, |tid| {
        let (mut acc, mut i, n) = (tid, 0u32, tid & 7);
        loop {
            acc ^= MARK;
            if i >= n {
                return acc.wrapping_add(5);
            }
            acc = acc.wrapping_mul(5).wrapping_add(i);
            if acc & 48 == 48 {
                return acc.wrapping_add(1000);
            }
            i += 1;
        }
    });
}

#[test]
fn a_rotated_loop_nested_in_a_loop_with_a_divergent_continue_agrees() {
    // An outer loop (header OUTER, laid out first) around a bottom-tested inner loop entered
    // at its test (TEST after BODY); lanes skip the inner loop (`continue` of the outer one)
    // when `j` is odd.
    let body = format!(
        "\tmov.u32 %r1, %r2;\n\tmov.u32 %r6, 0;\n\
         OUTER:\n\tadd.u32 %r6, %r6, 1;\n\tsetp.gt.u32 %p3, %r6, 3;\n\t@%p3 bra DONE;\n\
         \tadd.u32 %r7, %r6, %r2;\n\tand.b32 %r7, %r7, 1;\n\tsetp.ne.u32 %p2, %r7, 0;\n\
         \t@%p2 bra OUTER;\n\
         \tmov.u32 %r3, 0;\n\tand.b32 %r5, %r2, 7;\n\tbra.uni TEST;\n\
         BODY:\n\tmad.lo.u32 %r1, %r1, 3, %r3;\n\tadd.u32 %r3, %r3, 1;\n\
         TEST:\n{}\tsetp.lt.u32 %p1, %r3, %r5;\n\t@%p1 bra BODY;\n\tbra.uni OUTER;\n\
         DONE:\n",
        mark()
    );
    check("nested_rotated.ptx", &body, 0, |tid| {
        let mut acc = tid;
        for j in 1..=3u32 {
            if (j + tid) & 1 != 0 {
                continue;
            }
            let (mut i, n) = (0u32, tid & 7);
            loop {
                acc ^= MARK;
                if i >= n {
                    break;
                }
                acc = acc.wrapping_mul(3).wrapping_add(i);
                i += 1;
            }
        }
        acc
    });
}

#[test]
fn a_uniform_bottom_tested_loop_is_bra_u_and_agrees() {
    // The trip count is the parameter `pn` (every lane agrees): `bra.uni` back edge.
    let body = format!(
        "\tmov.u32 %r1, %r2;\n\tmov.u32 %r3, 0;\n\tbra.uni TEST;\n\
         BODY:\n\tmad.lo.u32 %r1, %r1, 3, %r3;\n\tadd.u32 %r3, %r3, 1;\n\
         TEST:\n{}\tsetp.lt.u32 %p1, %r3, %r9;\n\t@%p1 bra.uni BODY;\n",
        mark()
    );
    for n in [0u32, 1, 5, 17] {
        check("uniform_rotated.ptx", &body, n, |tid| {
            let (mut acc, mut i) = (tid, 0u32);
            loop {
                acc ^= MARK;
                if i >= n {
                    return acc;
                }
                acc = acc.wrapping_mul(3).wrapping_add(i);
                i += 1;
            }
        });
    }
    let text = format!("{HEAD}{body}{TAIL}");
    let (_, _, cubin) = compile("uniform_rotated.ptx", &text);
    let listing = disassembly(&cubin.kernels[0]);
    assert!(listing.iter().any(|l| l.contains("BRA.U")), "{listing:#?}");
    assert!(!listing.iter().any(|l| l.contains("SSY")), "{listing:#?}");
}
