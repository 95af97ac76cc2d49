//! A side entry into a divergent region inside a loop, through a block too large to copy:
//! the then-arm of an `if` jumps into the middle of its else-arm (`@c2 bra MID`), so `MID`
//! (120 PTX instructions) is entered both from that branch's region and from the
//! else-arm's first block, outside it; and a jump over an `if` into its else-arm. The plan
//! maps both shapes as written, without copying the large block; they translated before the
//! flag per side entry (`funnel/redispatch.rs`) too, whose shapes are those of
//! `random_control_flow.rs`'s large-block and register-pressure programs (seeds 25, 51, 63,
//! 80 and 265, refused before it). Kept as checks that a large join entered inside a loop is
//! neither copied nor mistranslated: lanes of one warp take every path with different trip
//! counts; the result is checked on both executors bit for bit and against the program's
//! meaning computed here.

mod common;
use common::*;

/// Steps of the large block `MID` (two instructions each).
const MID_STEPS: u32 = 60;

fn kernel() -> String {
    let mut mid = String::new();
    for k in 0..MID_STEPS {
        mid += &format!("  mad.lo.u32 %r1, %r1, 3, {k};\n  xor.b32 %r1, %r1, %r2;\n");
    }
    format!(
        ".version 7.0\n.target sm_20\n.address_size 64\n\
         .visible .entry k(.param .u64 pout)\n{{\n\
         \t.reg .pred %p<4>;\n\t.reg .b32 %r<16>;\n\t.reg .b64 %rd<4>;\n\
         \tld.param.u64 %rd1, [pout];\n\
         \tmov.u32 %r2, %tid.x;\n\tmov.u32 %r1, %r2;\n\
         \tand.b32 %r4, %r2, 3;\n\tadd.u32 %r4, %r4, 1;\n\tmov.u32 %r3, 0;\n\
         HEAD:\n\tadd.u32 %r3, %r3, 1;\n\tsetp.gt.u32 %p1, %r3, %r4;\n\t@%p1 bra EXIT;\n\
         \txor.b32 %r5, %r2, %r3;\n\tand.b32 %r5, %r5, 4;\n\tsetp.eq.u32 %p2, %r5, 0;\n\
         \t@!%p2 bra ELSE;\n\
         \tmad.lo.u32 %r1, %r1, 7, 1;\n\
         \tand.b32 %r6, %r1, 8;\n\tsetp.eq.u32 %p3, %r6, 0;\n\
         \t@%p3 bra MID;\n\
         \tadd.u32 %r1, %r1, 100;\n\tbra.uni JOIN;\n\
         ELSE:\n\tmul.lo.u32 %r1, %r1, 11;\n\
         MID:\n{mid}\
         JOIN:\n\tadd.u32 %r1, %r1, %r3;\n\tbra HEAD;\n\
         EXIT:\n\tmul.wide.u32 %rd2, %r2, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n\
         \tst.global.u32 [%rd3], %r1;\n\tret;\n}}\n"
    )
}

/// The kernel's meaning for thread `tid`.
fn expected(tid: u32) -> u32 {
    let mut acc = tid;
    let trips = (tid & 3) + 1;
    for i in 1..=trips {
        let mid = |mut a: u32| {
            for k in 0..MID_STEPS {
                a = a.wrapping_mul(3).wrapping_add(k) ^ tid;
            }
            a
        };
        if (tid ^ i) & 4 == 0 {
            acc = acc.wrapping_mul(7).wrapping_add(1);
            if acc & 8 == 0 {
                acc = mid(acc);
            } else {
                acc = acc.wrapping_add(100);
            }
        } else {
            acc = mid(acc.wrapping_mul(11));
        }
        acc = acc.wrapping_add(i);
    }
    acc
}

#[test]
fn a_jump_into_a_large_else_arm_inside_a_loop_translates_and_agrees() {
    let text = kernel();
    let s = spec("k", 1, 64, vec![zeros32(64)]);
    let out = words(&run_both("side_entry.ptx", &text, &s)[0]);
    let want: Vec<u32> = (0..64).map(expected).collect();
    assert_eq!(out, want);
    // No copy of the large block: the code holds `MID` once.
    let (_, _, cubin) = compile("side_entry.ptx", &text);
    let code = &cubin.kernels[0].code;
    assert!(
        code.len() < 2 * (2 * MID_STEPS as usize),
        "{} instructions: MID copied?",
        code.len()
    );
}

/// Steps of each arm of [`kernel_jump_over_the_branch`]'s `if`.
const ARM_STEPS: u32 = 8;

/// A loop whose body first jumps divergently (`@c0 bra Y`) past an `if` into the middle of
/// its else-arm: `Y` (120 PTX instructions, too large to copy) is entered from outside the
/// `if`'s region, inside the loop. The plan maps it as written (the jump's own region, which
/// holds the `if`'s, reconverges at the same join), without the flag.
fn kernel_jump_over_the_branch() -> String {
    // Arms of `ARM_STEPS` steps: too long for the clean-ups to predicate.
    let (mut then, mut els) = (String::new(), String::new());
    for k in 0..ARM_STEPS {
        then += &format!("  mad.lo.u32 %r1, %r1, 7, {k};\n  xor.b32 %r1, %r1, %r2;\n");
        els += &format!("  mad.lo.u32 %r1, %r1, 11, {k};\n  xor.b32 %r1, %r1, %r4;\n");
    }
    let mut y = String::new();
    for k in 0..MID_STEPS {
        y += &format!("  mad.lo.u32 %r1, %r1, 5, {k};\n  xor.b32 %r1, %r1, %r3;\n");
    }
    format!(
        ".version 7.0\n.target sm_20\n.address_size 64\n\
         .visible .entry k(.param .u64 pout)\n{{\n\
         \t.reg .pred %p<4>;\n\t.reg .b32 %r<16>;\n\t.reg .b64 %rd<4>;\n\
         \tld.param.u64 %rd1, [pout];\n\
         \tmov.u32 %r2, %tid.x;\n\tmov.u32 %r1, %r2;\n\
         \tshr.u32 %r4, %r2, 2;\n\tand.b32 %r4, %r4, 3;\n\tadd.u32 %r4, %r4, 1;\n\tmov.u32 %r3, 0;\n\
         HEAD:\n\tadd.u32 %r3, %r3, 1;\n\tsetp.gt.u32 %p1, %r3, %r4;\n\t@%p1 bra EXIT;\n\
         \txor.b32 %r5, %r2, %r3;\n\tand.b32 %r5, %r5, 1;\n\tsetp.ne.u32 %p2, %r5, 0;\n\
         \t@%p2 bra Y;\n\
         \tand.b32 %r6, %r1, 2;\n\tsetp.ne.u32 %p3, %r6, 0;\n\
         \t@%p3 bra ELSE;\n\
         {then}\tbra.uni JOIN;\n\
         ELSE:\n{els}\
         Y:\n{y}\
         JOIN:\n\tadd.u32 %r1, %r1, %r3;\n\tbra HEAD;\n\
         EXIT:\n\tmul.wide.u32 %rd2, %r2, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n\
         \tst.global.u32 [%rd3], %r1;\n\tret;\n}}\n"
    )
}

/// [`kernel_jump_over_the_branch`]'s meaning for thread `tid`.
fn expected_jump_over_the_branch(tid: u32) -> u32 {
    let mut acc = tid;
    let trips = ((tid >> 2) & 3) + 1;
    for i in 1..=trips {
        let y = |mut a: u32| {
            for k in 0..MID_STEPS {
                a = a.wrapping_mul(5).wrapping_add(k) ^ i;
            }
            a
        };
        let trips_reg = trips;
        if (tid ^ i) & 1 != 0 {
            acc = y(acc);
        } else if acc & 2 != 0 {
            for k in 0..ARM_STEPS {
                acc = acc.wrapping_mul(11).wrapping_add(k) ^ trips_reg;
            }
            acc = y(acc);
        } else {
            for k in 0..ARM_STEPS {
                acc = acc.wrapping_mul(7).wrapping_add(k) ^ tid;
            }
        }
        acc = acc.wrapping_add(i);
    }
    acc
}

#[test]
fn a_jump_over_a_divergent_if_into_its_large_else_arm_inside_a_loop_translates_and_agrees() {
    let text = kernel_jump_over_the_branch();
    let s = spec("k", 1, 64, vec![zeros32(64)]);
    let out = words(&run_both("jump_over.ptx", &text, &s)[0]);
    let want: Vec<u32> = (0..64).map(expected_jump_over_the_branch).collect();
    assert_eq!(out, want);
}
