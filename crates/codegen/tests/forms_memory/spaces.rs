//! `isspacep` of a 32-bit register in a 64-bit module (round s25): the PTX executor reads
//! the operand as `.u64`, so the register is the address zero-extended. The generic pointers
//! of `tests/kernels/isspacep.ptx` (global, shared, local by `tid % 3`) truncated to 32 bits
//! (every window and buffer lies below 4 GiB on both executors) keep their space; the same
//! pointers with bit 32 set are in no window, so global. Both executors, against that
//! meaning.

use crate::common::*;

fn kernel() -> String {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/kernels/isspacep.ptx"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let tests = "\tcvt.u32.u64 \t%r7, %rd8;\n\
                 \tisspacep.global \t%p2, %r7;\n\
                 \tisspacep.shared \t%p3, %r7;\n\
                 \tisspacep.local \t%p4, %r7;\n\
                 \tadd.u64 \t%rd8, %rd8, 0x100000000;\n\
                 \tisspacep.global \t%p5, %rd8;\n\
                 \tisspacep.shared \t%p1, %rd8;\n\
                 \tisspacep.local \t%p0, %rd8;\n\
                 \tselp.u32 \t%r6, 1, 0, %p5;\n\
                 \tselp.u32 \t%r8, 2, 0, %p1;\n\
                 \tor.b32 \t%r6, %r6, %r8;\n\
                 \tselp.u32 \t%r8, 4, 0, %p0;\n\
                 \tor.b32 \t%r6, %r6, %r8;\n";
    let old = "\tisspacep.global \t%p2, %rd8;\n\
               \tisspacep.shared \t%p3, %rd8;\n\
               \tisspacep.local \t%p4, %rd8;\n";
    assert!(text.contains(old), "the kernel's isspacep lines moved");
    text.replace(old, tests)
        .replace("\tmov.u32 \t%r6, 0;\n", "")
}

#[test]
fn a_32_bit_generic_address_is_zero_extended() {
    let text = kernel();
    let s = spec("isspacep", 1, 96, vec![zeros32(4), zeros32(4 * 96)]);
    let out = run_both("s25_isspacep.ptx", &text, &s);
    let got = words(&out[1]);
    for t in 0..96usize {
        let mut want = [0u32; 4];
        want[t % 3] = 1;
        // With bit 32 set the address is in no window: global only.
        want[3] = 1;
        assert_eq!(&got[4 * t..4 * t + 4], want, "thread {t}");
    }
}

/// `isspacep.const` and `isspacep.param{,::entry}` (PTX 7.7) of the same global, shared and
/// local pointers, and of a kernel parameter's own (non-generic) address: none is in a
/// constant or parameter window (sm_20 code cannot form such generic addresses).
#[test]
fn no_pointer_is_in_a_constant_or_parameter_window() {
    let old = "\tisspacep.global \t%p2, %r7;\n\
               \tisspacep.shared \t%p3, %r7;\n\
               \tisspacep.local \t%p4, %r7;\n";
    let new = "\tisspacep.const \t%p2, %rd8;\n\
               \tisspacep.param \t%p3, %rd8;\n\
               \tmov.u64 \t%rd10, g;\n\
               \tisspacep.param::entry \t%p4, %rd10;\n";
    let text = kernel()
        .replace(old, new)
        .replace(".version 7.0", ".version 8.3")
        .replace(".target sm_70", ".target sm_90");
    assert!(
        text.contains("isspacep.param::entry"),
        "the kernel's lines moved"
    );
    let s = spec("isspacep", 1, 96, vec![zeros32(4), zeros32(4 * 96)]);
    let out = run_both("s25_isspacep_const.ptx", &text, &s);
    let got = words(&out[1]);
    for t in 0..96usize {
        assert_eq!(&got[4 * t..4 * t + 4], [0, 0, 0, 1], "thread {t}");
    }
}
