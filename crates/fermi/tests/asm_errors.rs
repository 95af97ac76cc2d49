//! Every kind of error the assembler reports, at the right line and column, all in one run.

use diag::SourceFile;
use fermi::asm::{assemble_file, AsmOptions};

/// `(line, column, message)` of every diagnostic, in order.
fn errors(text: &str) -> Vec<(usize, usize, String)> {
    let file = SourceFile::new("e.sass", text);
    let diags = assemble_file(&file, &AsmOptions::default()).expect_err("expected errors");
    // The rendered form starts with `file:line:col: error:` (what editors and CI parse).
    let rendered = diag::render(&file, &diags);
    diags
        .iter()
        .map(|d| {
            let (l, c) = file.line_col(d.span.start);
            assert!(rendered.contains(&format!("e.sass:{l}:{c}: error: {}", d.message)));
            (l, c, d.message.clone())
        })
        .collect()
}

/// Asserts exactly one error, at `line:col`, whose message contains `needle`.
fn one_error(text: &str, line: usize, col: usize, needle: &str) {
    let e = errors(text);
    assert_eq!(e.len(), 1, "{e:?}");
    let (l, c, m) = &e[0];
    assert_eq!((*l, *c), (line, col), "{m}");
    assert!(m.contains(needle), "`{m}` lacks `{needle}`");
}

#[test]
fn directive_errors_point_at_the_offending_token() {
    one_error("!Frobnicate 3\n", 1, 1, "unknown directive");
    one_error(
        "!Kernel k\n  !Param zero\n!EndKernel\n",
        2,
        10,
        "not an integer",
    );
    one_error("!Kernel k\n!Param 4 0\n!EndKernel\n", 2, 10, "out of range");
    one_error(
        "!Kernel k\n!Param 4096\n!Param 4\n!EndKernel\n",
        3,
        1,
        "parameter block",
    );
    one_error(
        "!Kernel k\n!RegCount 64\n!EndKernel\n",
        2,
        11,
        "out of range",
    );
    one_error(
        "!Kernel k\n!BarCount 17\n!EndKernel\n",
        2,
        11,
        "out of range",
    );
    one_error(
        "!Kernel k\n!Shared 49153\n!EndKernel\n",
        2,
        9,
        "out of range",
    );
    one_error("!Arch sm_30\n", 1, 7, "unsupported architecture");
    one_error("!Machine 16\n", 1, 10, "32 or 64");
    one_error("!Align 12\n", 1, 8, "power of two");
    one_error("!RawInstruction 0x10000000000000000\n", 1, 17, "64-bit");
    one_error("!RawInstruction\n", 1, 1, "takes 1 argument");
    one_error("!EndKernel 3 4\n", 1, 12, "takes 0 argument");
    one_error("!EndKernel\n", 1, 1, "without an open");
    one_error("!Kernel 9lives\n", 1, 9, "not a valid kernel name");
    one_error("code for sm_35\n", 1, 10, "unsupported architecture");
}

#[test]
fn structure_errors() {
    one_error("!Kernel k\n!RawInstruction 0x1\n", 1, 9, "no `!EndKernel`");
    one_error(
        "!Kernel a\n!Kernel b\n!EndKernel\n",
        2,
        9,
        "before `!EndKernel`",
    );
    one_error(
        "!Kernel a\n!EndKernel\n!Kernel a\n!EndKernel\n",
        3,
        9,
        "defined twice",
    );
    one_error(
        "!Kernel a\n!EndKernel\n  !RawInstruction 0x1\n",
        3,
        3,
        "outside a kernel",
    );
    one_error(
        "x:\n!RawInstruction 1\nx:\n",
        3,
        1,
        "label `x` is defined twice",
    );
    one_error("!Label 1x\n", 1, 8, "not a valid label name");
    one_error("/* never closed\n!RawInstruction 1\n", 1, 1, "unterminated");
    one_error("!Arch sm_20\n!Arch sm_21\n", 2, 7, "architecture changes");
}

#[test]
fn constant_errors() {
    one_error(
        "!Constant int 0\n1\n!EndConstant\n",
        1,
        1,
        "before `!Constant2`",
    );
    one_error(
        "!Constant2 8\n!Constant int 8\n!EndConstant\n",
        2,
        15,
        "out of range",
    );
    one_error(
        "!Constant2 8\n!Constant short 0\n1\n!EndConstant\n",
        2,
        11,
        "unknown constant type",
    );
    one_error(
        "!Constant2 8\n!Constant int 4\n1 2\n!EndConstant\n",
        3,
        3,
        "past the 8-byte",
    );
    one_error(
        "!Constant2 8\n!Constant int 0\n1 x\n!EndConstant\n",
        3,
        3,
        "not an integer",
    );
    one_error(
        "!Constant2 8\n!Constant int 0\n0x100000000\n!EndConstant\n",
        3,
        1,
        "32 bits",
    );
    one_error(
        "!Constant2 8\n!Constant float 0\n1.0.0\n!EndConstant\n",
        3,
        1,
        "not a float",
    );
    one_error(
        "!Constant2 8\n!Constant int 0\n1\n",
        2,
        1,
        "no `!EndConstant`",
    );
    one_error("!EndConstant\n", 1, 1, "without `!Constant`");
    one_error("!Constant2 8\n!Constant2 8\n", 2, 12, "declared twice");
    one_error(
        "!Constant2 8\n!Constant int 0\n!Kernel k\n!EndConstant\n",
        3,
        1,
        "inside a `!Constant` block",
    );
}

#[test]
fn instruction_errors_map_to_file_positions() {
    // Whatever the single-instruction assembler objects to in a made-up mnemonic, the
    // diagnostic lands on that line, inside the instruction's text.
    let text =
        "!Kernel k\n\t/*0000*/     /*0x0000000000000000*/ \tFROBNICATE R1, R2;\n!EndKernel\n";
    let e = errors(text);
    assert_eq!(e.len(), 1, "{e:?}");
    let col_of_text = text.lines().nth(1).unwrap().find("FROB").unwrap() + 1;
    let (l, c, _) = &e[0];
    assert_eq!(*l, 2);
    assert!(
        (col_of_text..col_of_text + "FROBNICATE R1, R2".len()).contains(c),
        "col {c}"
    );
}

#[test]
fn all_errors_of_a_file_are_reported_in_source_order() {
    let text = "!Kernel k\n\
                !Param x\n\
                !Bogus\n\
                FROB1 R1;\n\
                !RegCount 99\n\
                L: FROB2 R2; FROB3 R3\n\
                !EndKernel\n\
                !EndKernel\n";
    let e = errors(text);
    let lines: Vec<usize> = e.iter().map(|(l, _, _)| *l).collect();
    assert_eq!(lines, vec![2, 3, 4, 5, 6, 6, 8], "{e:?}");
    // The two instructions on line 6 are reported at their own columns.
    assert_eq!(e[4].1, 4);
    assert!(e[5].1 >= 14);
}

#[test]
fn padding_cannot_blow_up_a_small_file() {
    // Each pair adds 512 slots; 4200 pairs would be over 2^21 instructions.
    let text = "!RawInstruction 0x1\n!Align 4096\n".repeat(4200);
    let e = errors(&text);
    assert_eq!(e.len(), 1, "{:?}", &e[..e.len().min(3)]);
    assert!(e[0].2.contains("more than"), "{}", e[0].2);
    // The error is where the limit is crossed: line 2 * ceil(2^21 / 512) or just before.
    assert!(e[0].0 > 8000 && e[0].0 <= 2 * 4096 + 2, "line {}", e[0].0);
}
