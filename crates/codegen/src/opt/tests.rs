//! Each pass on a small body, against the expected body written as PTX in the test (both
//! declare the same registers, so register ids and branch targets compare directly).

use super::optimize;
use diag::SourceFile;
use ir::{Guard, Opcode, Operand};

fn entry(body: &str) -> ir::Function {
    let text = format!(
        ".version 7.0\n.target sm_20\n.address_size 64\n.shared .align 4 .b8 smem[64];\n\
         .visible .entry k(.param .u64 p, .param .u64 q)\n{{\n.reg .pred %p<4>;\n.reg .b32 %r<10>;\n\
         .reg .b64 %rd<10>;\n{body}\n}}\n"
    );
    let file = SourceFile::new("opt.ptx", &text);
    let (m, diags) = check::check_source(&file);
    assert!(!diag::has_errors(&diags), "{}", diag::render(&file, &diags));
    let m = m.expect("a module");
    m.functions
        .into_iter()
        .find(|f| f.name == "k")
        .expect("the entry")
}

type Shape = Vec<(Opcode, Option<Guard>, Vec<Operand>)>;

fn shape(f: &ir::Function) -> Shape {
    f.insts()
        .iter()
        .map(|i| (i.op, i.guard, i.operands.to_vec()))
        .collect()
}

fn assert_cleans_to(input: &str, expected: &str) {
    let got = optimize(&entry(input));
    assert_eq!(shape(&got), shape(&entry(expected)));
}

/// Registers renumbered in order of first appearance: passes that make registers of their
/// own (`narrow.rs`) number them after the declared ones.
fn renamed(mut s: Shape) -> Shape {
    let mut seen: Vec<ir::RegId> = Vec::new();
    let mut name = |r: &mut ir::RegId| {
        let k = seen.iter().position(|x| x == r).unwrap_or_else(|| {
            seen.push(*r);
            seen.len() - 1
        });
        *r = ir::RegId(k as u32);
    };
    for (_, guard, ops) in s.iter_mut() {
        if let Some(g) = guard.as_mut() {
            name(&mut g.reg);
        }
        for o in ops.iter_mut() {
            match o {
                Operand::Reg(r) | Operand::NotPred(r) | Operand::Neg(r) => name(r),
                Operand::Address(a) => {
                    if let ir::AddrBase::Reg(r) = &mut a.base {
                        name(r);
                    }
                }
                _ => {}
            }
        }
    }
    s
}

fn assert_cleans_to_renamed(input: &str, expected: &str) {
    let got = optimize(&entry(input));
    assert_eq!(renamed(shape(&got)), renamed(shape(&entry(expected))));
}

#[test]
fn copies_are_propagated_and_the_copies_removed() {
    assert_cleans_to(
        "ld.param.u64 %rd1, [p];
         cvta.to.global.u64 %rd2, %rd1;
         mov.u32 %r1, %tid.x;
         mov.u32 %r2, %r1;
         add.s32 %r3, %r2, %r2;
         st.global.u32 [%rd2+4], %r3;
         ret;",
        "mov.u32 %r1, %tid.x;
         add.s32 %r3, %r1, %r1;
         ld.param.u64 %rd1, [p];
         st.global.u32 [%rd1+4], %r3;
         ret;",
    );
}

#[test]
fn constants_are_folded_and_put_where_selection_takes_immediates() {
    // 6 · 7 = 42, and 42 − 2 = 40: small enough for the 20-bit immediate field, so it goes
    // into both uses. 0x12345678 does not fit: with two uses it stays in its register.
    assert_cleans_to(
        "mov.u32 %r1, 6;
         mul.lo.u32 %r2, %r1, 7;
         sub.u32 %r3, %r2, 2;
         mov.u32 %r4, %tid.x;
         add.u32 %r5, %r4, %r3;
         xor.b32 %r6, %r5, %r3;
         mov.u32 %r7, 0x12345678;
         and.b32 %r8, %r6, %r7;
         or.b32 %r9, %r8, %r7;
         ld.param.u64 %rd1, [p];
         st.global.u32 [%rd1], %r9;
         ret;",
        "mov.u32 %r4, %tid.x;
         add.u32 %r5, %r4, 40;
         xor.b32 %r6, %r5, 40;
         mov.u32 %r7, 0x12345678;
         and.b32 %r8, %r6, %r7;
         or.b32 %r9, %r8, %r7;
         ld.param.u64 %rd1, [p];
         st.global.u32 [%rd1], %r9;
         ret;",
    );
}

#[test]
fn common_address_arithmetic_is_computed_once_in_32_bits() {
    // Both accesses read one address; a shared access reads its low word only, so the
    // 64-bit chain becomes 32-bit (`narrow.rs`): tid·4 as a shift, plus the window offset.
    assert_cleans_to_renamed(
        "mov.u32 %r1, %tid.x;
         mul.wide.u32 %rd1, %r1, 4;
         mov.u64 %rd2, smem;
         add.s64 %rd3, %rd2, %rd1;
         ld.shared.u32 %r2, [%rd3];
         mul.wide.u32 %rd4, %r1, 4;
         mov.u64 %rd5, smem;
         add.s64 %rd6, %rd5, %rd4;
         st.shared.u32 [%rd6+4], %r2;
         ret;",
        "mov.u32 %r1, %tid.x;
         shl.b32 %r8, %r1, 2;
         mov.u32 %r7, smem;
         add.u32 %r9, %r7, %r8;
         ld.shared.u32 %r2, [%r9];
         st.shared.u32 [%r9+4], %r2;
         ret;",
    );
}

#[test]
fn window_address_constants_go_into_the_offset_and_global_addresses_stay_64_bit() {
    // (i − 1)·4 is i·4 − 4 modulo 2^32: the access takes −4 as its offset and shares i·4
    // with the other access; the global address keeps its 64-bit arithmetic.
    assert_cleans_to_renamed(
        "mov.u32 %r1, %tid.x;
         cvt.u64.u32 %rd1, %r1;
         shl.b64 %rd2, %rd1, 2;
         ld.shared.u32 %r2, [%rd2];
         add.s32 %r3, %r1, -1;
         mul.wide.u32 %rd3, %r3, 4;
         ld.shared.u32 %r4, [%rd3+8];
         add.s32 %r5, %r4, %r2;
         ld.param.u64 %rd4, [p];
         add.s64 %rd5, %rd4, %rd2;
         st.global.u32 [%rd5], %r5;
         ret;",
        "mov.u32 %r1, %tid.x;
         shl.b32 %r7, %r1, 2;
         cvt.u64.u32 %rd1, %r1;
         shl.b64 %rd2, %rd1, 2;
         ld.shared.u32 %r2, [%r7];
         ld.shared.u32 %r4, [%r7+4];
         add.s32 %r5, %r4, %r2;
         ld.param.u64 %rd4, [p];
         add.s64 %rd5, %rd4, %rd2;
         st.global.u32 [%rd5], %r5;
         ret;",
    );
}

#[test]
fn loop_carried_values_and_guarded_definitions_are_left_alone() {
    // %r1 is defined twice (a loop-carried value), %r3 under a guard: neither copy of them
    // may be propagated, and nothing here is dead.
    let body = "mov.u32 %r1, 0;
         L1:
         add.u32 %r1, %r1, 1;
         mov.u32 %r2, %r1;
         setp.lt.u32 %p1, %r1, 10;
         @%p1 bra L1;
         mov.u32 %r3, 5;
         @%p1 mov.u32 %r3, %r2;
         mov.u32 %r4, %r3;
         ld.param.u64 %rd1, [p];
         st.global.u32 [%rd1], %r2;
         st.global.u32 [%rd1+4], %r4;
         ret;";
    assert_cleans_to(body, body);
}

#[test]
fn dead_code_goes_and_branch_targets_follow() {
    // The two dead instructions before L1 go; the branch must still reach the `add`.
    assert_cleans_to(
        "mov.u32 %r1, %tid.x;
         setp.eq.u32 %p1, %r1, 0;
         @%p1 bra L1;
         mul.lo.u32 %r5, %r1, %r1;
         L1:
         shl.b32 %r6, %r1, 3;
         add.u32 %r2, %r1, 1;
         add.cc.u32 %r7, %r1, %r1;
         ld.param.u64 %rd1, [p];
         st.global.u32 [%rd1], %r2;
         ret;",
        "mov.u32 %r1, %tid.x;
         setp.eq.u32 %p1, %r1, 0;
         @%p1 bra L1;
         L1:
         add.u32 %r2, %r1, 1;
         add.cc.u32 %r7, %r1, %r1;
         ld.param.u64 %rd1, [p];
         st.global.u32 [%rd1], %r2;
         ret;",
    );
}

#[test]
fn parameter_loads_sink_to_the_block_that_uses_them_and_branches_follow() {
    // (Uniform branches: a divergent one around so short a block would be predicated.)
    // %rd1 is used only after L1, %rd2 only in the block before it: each load moves to just
    // before its use, and the branch to L1 lands on the moved load.
    assert_cleans_to(
        "ld.param.u64 %rd1, [p];
         ld.param.u64 %rd2, [q];
         mov.u32 %r1, %tid.x;
         setp.eq.u32 %p1, %r1, 0;
         @%p1 bra.uni L1;
         add.u32 %r2, %r1, 1;
         st.global.u32 [%rd2+8], %r2;
         L1:
         st.global.u32 [%rd1], %r1;
         ret;",
        "mov.u32 %r1, %tid.x;
         setp.eq.u32 %p1, %r1, 0;
         @%p1 bra.uni L1;
         add.u32 %r2, %r1, 1;
         ld.param.u64 %rd2, [q];
         st.global.u32 [%rd2+8], %r2;
         L1:
         ld.param.u64 %rd1, [p];
         st.global.u32 [%rd1], %r1;
         ret;",
    );
}

#[test]
fn nothing_sinks_into_a_loop() {
    let body = "ld.param.u64 %rd1, [p];
         mov.u32 %r1, %tid.x;
         mov.u32 %r2, 0;
         L1:
         st.global.u32 [%rd1], %r2;
         add.u32 %r2, %r2, 1;
         setp.lt.u32 %p1, %r2, %r1;
         @%p1 bra.uni L1;
         ret;";
    assert_cleans_to(body, body);
}

#[test]
fn a_parameter_used_in_two_blocks_is_loaded_in_each_into_its_own_register() {
    // The second block's copy gets a fresh register: the one declared last in the expected
    // body (`%rdx`), which the input does not declare.
    let input = "ld.param.u64 %rd2, [q];
         mov.u32 %r1, %tid.x;
         st.global.u32 [%rd2], %r1;
         setp.eq.u32 %p2, %r1, 0;
         @%p2 bra.uni L2;
         st.global.u32 [%rd2+4], %r1;
         L2:
         ret;";
    let expected = "mov.u32 %r1, %tid.x;
         ld.param.u64 %rd2, [q];
         st.global.u32 [%rd2], %r1;
         setp.eq.u32 %p2, %r1, 0;
         @%p2 bra.uni L2;
         ld.param.u64 %rdx, [q];
         st.global.u32 [%rdx+4], %r1;
         L2:
         ret;";
    let got = optimize(&entry(input));
    assert_eq!(
        shape(&got),
        shape(&entry(&format!(".reg .b64 %rdx;\n{expected}")))
    );
}

#[test]
fn the_low_half_of_a_widened_value_is_the_value() {
    assert_cleans_to(
        "mov.u32 %r1, %tid.x;
         cvt.u64.u32 %rd1, %r1;
         cvt.u32.u64 %r2, %rd1;
         add.u32 %r3, %r2, 1;
         ld.param.u64 %rd2, [p];
         st.global.u32 [%rd2], %r3;
         st.global.u64 [%rd2+8], %rd1;
         ret;",
        "mov.u32 %r1, %tid.x;
         cvt.u64.u32 %rd1, %r1;
         add.u32 %r3, %r1, 1;
         ld.param.u64 %rd2, [p];
         st.global.u32 [%rd2], %r3;
         st.global.u64 [%rd2+8], %rd1;
         ret;",
    );
}

#[test]
fn a_short_region_skipped_by_a_branch_becomes_guarded_instructions() {
    // The `@%p1 bra L1` skips two instructions: the store runs under `@!%p1` instead (the
    // shift, read only there, needs no guard), with the
    // parameter load sunk in between (and loaded again, into the extra register `%rdx`, in
    // the last block). The second branch skips a region that redefines its own predicate,
    // and stays.
    assert_cleans_to(
        "mov.u32 %r1, %tid.x;
         ld.param.u64 %rd1, [p];
         setp.eq.u32 %p1, %r1, 0;
         @%p1 bra L1;
         shl.b32 %r2, %r1, 2;
         st.global.u32 [%rd1], %r2;
         L1:
         setp.lt.u32 %p2, %r1, 5;
         @%p2 bra L2;
         setp.lt.u32 %p2, %r1, 9;
         selp.u32 %r3, 1, 2, %p2;
         st.global.u32 [%rd1+4], %r3;
         L2:
         ret;",
        &format!(
            ".reg .b64 %rdx;\n{}",
            "mov.u32 %r1, %tid.x;
         setp.eq.u32 %p1, %r1, 0;
         shl.b32 %r2, %r1, 2;
         @!%p1 ld.param.u64 %rd1, [p];
         @!%p1 st.global.u32 [%rd1], %r2;
         setp.lt.u32 %p2, %r1, 5;
         @%p2 bra L2;
         setp.lt.u32 %p2, %r1, 9;
         selp.u32 %r3, 1, 2, %p2;
         ld.param.u64 %rdx, [p];
         st.global.u32 [%rdx+4], %r3;
         L2:
         ret;"
        ),
    );
}

#[test]
fn a_complementary_setp_is_the_earlier_predicate_negated() {
    assert_cleans_to(
        "mov.u32 %r1, %tid.x;
         setp.eq.s32 %p1, %r1, 5;
         setp.ne.s32 %p2, %r1, 5;
         selp.u32 %r2, 1, 0, %p2;
         ld.param.u64 %rd1, [p];
         @%p2 st.global.u32 [%rd1], %r2;
         @%p1 st.global.u32 [%rd1+4], %r1;
         ret;",
        "mov.u32 %r1, %tid.x;
         setp.eq.s32 %p1, %r1, 5;
         selp.u32 %r2, 1, 0, !%p1;
         ld.param.u64 %rd1, [p];
         @!%p1 st.global.u32 [%rd1], %r2;
         @%p1 st.global.u32 [%rd1+4], %r1;
         ret;",
    );
}

#[test]
fn float_comparisons_that_are_not_complements_under_nan_stay_apart() {
    // lt and ge are both false for a NaN operand: ge is not !lt for floats (geu is).
    let body = "mov.u32 %r1, %tid.x;
         setp.lt.f32 %p1, %r1, 0f3F800000;
         setp.ge.f32 %p2, %r1, 0f3F800000;
         ld.param.u64 %rd1, [p];
         @%p2 st.global.u32 [%rd1], %r1;
         @%p1 st.global.u32 [%rd1+4], %r1;
         ret;";
    assert_cleans_to(body, body);
}
