//! Errors the single-instruction assembler finds, as the file-level assembler reports them:
//! each at the line and column of the offending token, all in one run. Needs the real
//! instruction table (`fermi::isa`).

mod asm_cases;

use asm_cases::{assert_errors_at_tokens, Case};

#[test]
fn each_instruction_error_points_at_its_token() {
    // (line text, offending token, words the message must contain)
    let cases: [Case; 8] = [
        ("  IADD R64, R0, R1;", "R64", &["R64", "range"]),
        ("  IADD R0, R0, 0x100000;", "0x100000", &["20 bits"]),
        ("  @P9 EXIT;", "P9", &["P9"]),
        ("  IADD.FOO R0, R0, R1;", ".FOO", &["FOO"]),
        ("  BRA nowhere;", "nowhere", &["nowhere"]),
        ("  MOV R1, c [0x10] [0x100];", "0x10", &["bank"]),
        ("  FROB R1, R2;", "FROB", &[]),
        (
            "\t/*0008*/     /*0x0*/ \tIADD R0, R0, R99;",
            "R99",
            &["R99"],
        ),
    ];
    assert_errors_at_tokens(&cases);
}
