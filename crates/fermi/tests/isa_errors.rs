//! Errors name the problem and point at the offending text.

use fermi::isa::assemble_text;

fn no_labels(_: &str) -> Option<u64> {
    None
}

/// Asserts `text` fails, the span covers `at`, and the message contains `says`.
fn fails(text: &str, at: &str, says: &str) {
    let e = assemble_text(text, 0x100, &no_labels).expect_err(text);
    let got = text.get(e.span.clone()).unwrap_or("<bad span>");
    assert_eq!(
        got, at,
        "{text}: span {:?}, message `{}`",
        e.span, e.message
    );
    assert!(
        e.message.contains(says),
        "{text}: message `{}` lacks `{says}`",
        e.message
    );
}

#[test]
fn unknown_opcode() {
    fails("FROB R1, R2;", "FROB", "unknown opcode `FROB`");
    fails("  @P0 FROB.X R1;", "FROB", "unknown opcode");
}

#[test]
fn bad_modifiers() {
    fails(
        "ISETP.LT.BOGUS.AND P0, pt, R1, R2, pt;",
        "BOGUS",
        "modifier `.BOGUS`",
    );
    fails("IADD.LT R1, R2, R3;", "LT", "modifier `.LT`");
    fails("ISETP.AND P0, pt, R1, R2, pt;", "AND", "comparison");
    fails("ISETP P0, pt, R1, R2, pt;", "ISETP", "needs a comparison");
    // Right modifiers, wrong order.
    fails("ISETP.AND.LT P0, pt, R1, R2, pt;", "AND", "comparison");
    fails("IMUL.HI.U32.U32 R0, R1, R2;", "U32", "modifier `.U32`");
}

#[test]
fn registers_out_of_range() {
    fails("IADD R1, R64, R3;", "R64", "register R64 out of range");
    fails("IADD R1, R2, R300;", "R300", "out of range");
    fails("IADD R1, P2, R3;", "P2", "expected a register");
    fails("ISETP.LT.AND P8, pt, R1, R2, pt;", "P8", "out of range");
}

#[test]
fn immediates_that_do_not_fit() {
    fails(
        "IADD R1, R2, 0x100000;",
        "0x100000",
        "does not fit 20 bits sign-extended",
    );
    fails(
        "ISETP.LT.AND P0, pt, R1, -0x80001, pt;",
        "-0x80001",
        "does not fit 20 bits",
    );
    fails(
        "MOV32I R1, 0x100000000;",
        "0x100000000",
        "does not fit 32 bits",
    );
    fails(
        "ISCADD R1, R2, R3, 0x20;",
        "0x20",
        "does not fit 5 bits unsigned",
    );
    fails("LDS R1, [R2+0x800000];", "0x800000", "does not fit 24 bits");
    fails("MOV R1, c [0x10] [0x0];", "0x10", "constant bank");
    fails("MOV R1, c [0x0] [0x10000];", "[0x10000]", "constant offset");
    fails("IADD R1, R2, zork;", "zork", "expected a number");
}

#[test]
fn predicate_misuse() {
    fails("@P9 IADD R1, R2, R3;", "P9", "out of range");
    fails("@P0 SSY 0x200;", "@P0", "cannot take a guard predicate");
    fails("SEL R1, R2, R3, !P8;", "P8", "out of range");
    fails(
        "ISETP.LT.AND !P0, pt, R1, R2, pt;",
        "!P0",
        "cannot be negated",
    );
}

#[test]
fn operands() {
    fails("IADD R1, R2;", "R2", "takes 3 operand(s), found 2");
    fails("IADD R1, , R3;", "", "missing operand");
    fails("BRA nowhere;", "nowhere", "undefined label `nowhere`");
    fails("BRA 0x10000000;", "0x10000000", "branch offset");
    fails("NOP.S CC.XX;", "CC.XX", "expected one of CC.F CC.LT");
    fails("S2R R1, SR_Bogus;", "SR_Bogus", "unknown special register");
    fails(";", ";", "expected an instruction");
    fails("LD R1, R2;", "R2", "memory address");
}
