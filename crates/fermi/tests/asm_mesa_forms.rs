//! The Mesa-derived forms through the file-level assembler: a kernel using them assembles, its
//! cubin reads back to the same words, its listing prints the same text, and errors in them are
//! reported at their line and column, all in one run.

mod asm_cases;

use asm_cases::{assert_errors_at_tokens, Case};
use diag::SourceFile;
use fermi::asm::{assemble_file, AsmOptions};
use fermi::cubin::read_cubin;
use fermi::isa::{assemble_text, disassemble_word};

const KERNEL: &[&str] = &[
    "S2R R0, SR_Tid_X",
    "ISETP.NE.AND P0, pt, R0, RZ, pt",
    "@P0 BRA CC.NE, skip",
    "LD.E.CG.64 R4, [R2+0x10]",
    "ATOM.E.ADD R6, [R2+0x8], R4",
    "ATOM.E.CAS R7, [R2], R8, R9",
    "RED.E.MAX.S32 [R2+-0x4], R5",
    "LDSLK P1, R10, [R11+0x40]",
    "STSUL [R11+0x40], R10",
    "CCTL.E.IVALL [R2]",
    "skip:",
    "BAR.RED.POPC RZ, RZ",
    "BAR.ARV 0x1, 0x40",
    "MOV R12, R13, 0x3",
    "TLD.LL.P R0, R2, R4, 0x1, 2D, 0xf",
    "EXIT CC.LT",
    "EXIT",
];

#[test]
fn a_kernel_of_mesa_forms_assembles_and_reads_back() {
    let mut text = String::from("!Kernel k\n");
    for line in KERNEL {
        text.push_str(line);
        text.push_str(";\n");
    }
    // Labels are lines of their own.
    let mut text = text.replace("skip:;", "skip:");
    text.push_str("!EndKernel\n");
    let file = SourceFile::new("m.sass", text.as_str());
    let a = assemble_file(&file, &AsmOptions::default())
        .unwrap_or_else(|d| panic!("{}", diag::render(&file, &d)));
    let code = &a.module.kernels[0].code;
    let insts: Vec<&str> = KERNEL
        .iter()
        .copied()
        .filter(|l| !l.ends_with(':'))
        .collect();
    assert_eq!(code.len(), insts.len());
    // `skip` labels the 11th instruction (index 10): the branch at 0x10 targets 0x50.
    let skip = 10 * 8;
    for (i, (w, t)) in code.iter().zip(&insts).enumerate() {
        let addr = 8 * i as u64;
        let t = t.replace("skip", &format!("{skip:#x}"));
        assert_eq!(assemble_text(&t, addr, &|_| None), Ok(*w), "line {i}: {t}");
        assert_eq!(disassemble_word(*w, addr), format!("{t};"));
    }
    let back = read_cubin(&a.write_cubin().unwrap()).unwrap();
    assert_eq!(&back.kernels[0].code, code);
    let listing = a.print_listing();
    assert!(
        listing.contains("ATOM.E.CAS R7, [R2], R8, R9;"),
        "{listing}"
    );
    assert!(
        listing.contains(&format!("@P0 BRA CC.NE, {skip:#x};")),
        "{listing}"
    );
}

#[test]
fn errors_in_mesa_forms_point_at_their_tokens() {
    // (line text, offending token, words the message must contain)
    let cases: [Case; 6] = [
        (
            "  ATOM.E.AND.S32 R0, [R2], R3;",
            ".S32",
            &["no form of ATOM"],
        ),
        ("  P3R R0, 0x0;", "P3R", &["unknown opcode `P3R`"]),
        ("  B2R R0, 0x40;", "0x40", &["6 bits"]),
        ("  CCTL.E.IV [R2+0x6];", "[R2+0x6]", &["multiple of 4"]),
        ("  BAR.ARV 0x1, 0x1000;", "0x1000", &["12 bits"]),
        ("  BRA CC.XX, 0x0;", "CC.XX", &["CC.LT"]),
    ];
    assert_errors_at_tokens(&cases);
}
