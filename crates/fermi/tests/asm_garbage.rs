//! Property tests: no text makes the file-level assembler, the listing disassembler or verify
//! mode panic, and errors always point inside the file.

use diag::SourceFile;
use fermi::asm::{assemble_file, AsmOptions};
use proptest::prelude::*;

/// Lines built from the assembler's own vocabulary, so the generator reaches deep paths.
fn line() -> impl Strategy<Value = String> {
    let piece = prop::sample::select(vec![
        "!Kernel k",
        "!Kernel",
        "!EndKernel",
        "!Label l",
        "l:",
        "!Param 4",
        "!Param 8 3",
        "!Param 0",
        "!Shared 64",
        "!Local 0x10",
        "!MinStack 8",
        "!MinFrame 8",
        "!RegCount 10",
        "!BarCount 1",
        "!RawInstruction 0x00001de780000000",
        "!Arch sm_20",
        "!Arch sm_21",
        "!Machine 32",
        "!Align",
        "!Align 64",
        "!Constant2 16",
        "!Constant int 0",
        "!Constant float 4",
        "!EndConstant",
        "1, 2",
        "-1.5",
        "0xffffffffffff",
        "/*",
        "*/",
        "//",
        "\tcode for sm_20",
        "\t\tFunction : f",
        "\t\t......",
        "EXIT;",
        "BRA l;",
        "@P0 BRA 0x8;",
        "MOV R1, c [0x1] [0x100];",
        "IADD R0, R0, 0x1;",
        ";",
        ":",
        "@",
        "é",
        "/*0000*/     /*0x00001de780000000*/ \tEXIT;",
        "!",
        "\u{0}",
    ]);
    prop::collection::vec(piece, 0..4).prop_map(|v| v.join(" "))
}

fn check(text: &str) {
    let file = SourceFile::new("g.sass", text);
    match assemble_file(&file, &AsmOptions::default()) {
        Ok(a) => {
            let _ = a.print_listing();
            let _ = a.write_cubin();
        }
        Err(diags) => {
            assert!(!diags.is_empty());
            for d in &diags {
                assert!(d.span.start <= d.span.end && d.span.end as usize <= text.len());
            }
            let _ = diag::render(&file, &diags);
        }
    }
    let _ = fermi::disasm::disassemble_listing(text);
    let _ = fermi::verify::verify_listing("g", text);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn vocabulary_soup_never_panics(lines in prop::collection::vec(line(), 0..12)) {
        check(&lines.join("\n"));
    }

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,200}") {
        check(&text);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        check(&String::from_utf8_lossy(&bytes));
    }
}
