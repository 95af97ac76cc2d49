//! Errors the single-instruction assembler finds, as the file-level assembler reports them:
//! each at the line and column of the offending token, all in one run. Needs the real
//! instruction table (`fermi::isa`).

use diag::SourceFile;
use fermi::asm::{assemble_file, AsmOptions};

#[test]
fn each_instruction_error_points_at_its_token() {
    // (line text, offending token, words the message must contain)
    let cases: [(&str, &str, &[&str]); 8] = [
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
    let mut text = String::from("!Kernel k\n");
    for (line, _, _) in &cases {
        text.push_str(line);
        text.push('\n');
    }
    text.push_str("!EndKernel\n");
    let file = SourceFile::new("e.sass", text.as_str());
    let diags = assemble_file(&file, &AsmOptions::default()).unwrap_err();
    assert_eq!(diags.len(), cases.len(), "{}", diag::render(&file, &diags));
    for (i, ((line, token, words), d)) in cases.iter().zip(&diags).enumerate() {
        let (l, c) = file.line_col(d.span.start);
        assert_eq!(l, i + 2, "{}", d.message);
        let token_col = line.find(token).unwrap() + 1;
        assert!(
            (token_col..token_col + token.len()).contains(&c),
            "line {l}: error at column {c}, token `{token}` at {token_col}: {}",
            d.message
        );
        for w in *words {
            assert!(d.message.contains(w), "`{}` lacks `{w}`", d.message);
        }
    }
}
