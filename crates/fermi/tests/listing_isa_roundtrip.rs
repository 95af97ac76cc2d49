//! Whole listings through the file-level tools and back. These need the real instruction
//! table (`fermi::isa`): with its stub they fail by design.

use diag::SourceFile;
use fermi::asm::{assemble_file, AsmOptions, NOP_WORD};
use fermi::listing::parse_listing_line;

const LISTINGS: [(&str, &str); 2] = [
    (
        "mailbag_maxindex_maxindex.isa",
        include_str!("container-data/mailbag_maxindex_maxindex.isa"),
    ),
    (
        "support_ballotscan_ballotscan.isa",
        include_str!("container-data/support_ballotscan_ballotscan.isa"),
    ),
];

/// Lines with trailing whitespace removed (cuobjdump leaves a space after some `;`), and
/// whitespace runs inside instruction text collapsed (insignificant per the issue).
fn normalized(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| match parse_listing_line(l) {
            Some(p) => format!(
                "{}{}",
                &l[..p.text_offset],
                p.text.split_whitespace().collect::<Vec<_>>().join(" ")
            ),
            None => l.trim_end().to_string(),
        })
        .collect()
}

#[test]
fn verify_reports_no_mismatch_on_nvidia_listings() {
    for (name, text) in LISTINGS {
        let report = fermi::verify::verify_listing(name, text);
        let expected_lines = text
            .lines()
            .filter(|l| parse_listing_line(l).is_some())
            .count();
        assert_eq!(report.lines, expected_lines);
        assert!(report.is_clean(), "{report}");
    }
}

#[test]
fn disassembling_a_listing_reproduces_it() {
    for (_, text) in LISTINGS {
        assert_eq!(
            normalized(&fermi::disasm::disassemble_listing(text)),
            normalized(text)
        );
    }
}

#[test]
fn assembling_a_listing_gives_its_words_and_prints_it_back() {
    for (name, text) in LISTINGS {
        let file = SourceFile::new(name, text);
        let a = assemble_file(&file, &AsmOptions::default())
            .unwrap_or_else(|d| panic!("{}", diag::render(&file, &d)));
        let words: Vec<u64> = text
            .lines()
            .filter_map(parse_listing_line)
            .map(|l| l.word)
            .collect();
        let ours: Vec<u64> = a
            .module
            .kernels
            .iter()
            .flat_map(|k| k.code.clone())
            .collect();
        assert_eq!(ours, words);
        assert_eq!(normalized(&a.print_listing()), normalized(text));
        // …and through a cubin and cuobjdump-style disassembly of it.
        let cubin = a.write_cubin().unwrap();
        let listing = fermi::disasm::disassemble_cubin(&cubin).unwrap();
        assert_eq!(normalized(&listing), normalized(text));
    }
}

#[test]
fn align_padding_is_a_nop_without_the_sync_bit() {
    // NVIDIA's `NOP.S CC.T;` (from the listings) with instruction bit 4, the `.S` flag,
    // cleared. cuobjdump prints the instruction's low 32-bit half first, so instruction bit 4
    // is bit 36 of the printed number.
    assert_eq!(NOP_WORD, 0x00001df440000000 & !(1 << (32 + 4)));
    let text = fermi::isa::disassemble_word(NOP_WORD, 0);
    assert!(text.starts_with("NOP") && !text.contains(".S"), "{text}");
}

#[test]
fn labels_resolve_to_the_same_words_as_absolute_targets() {
    let src = "!Kernel k\n\
               top: IADD R0, R0, 0x1;\n\
               ISETP.LT.U32.AND P0, pt, R0, 0x10, pt;\n\
               @P0 BRA top;\n\
               !Label done\n\
               BRA done;\n\
               EXIT;\n\
               !EndKernel\n";
    let file = SourceFile::new("l.sass", src);
    let a = assemble_file(&file, &AsmOptions::default())
        .unwrap_or_else(|d| panic!("{}", diag::render(&file, &d)));
    let none = |_: &str| None;
    let abs = |t: &str, addr: u64| fermi::isa::assemble_text(t, addr, &none).unwrap();
    let code = &a.module.kernels[0].code;
    assert_eq!(code[2], abs("@P0 BRA 0x0;", 0x10));
    assert_eq!(code[3], abs("BRA 0x18;", 0x18));
    assert_eq!(code[4], abs("EXIT;", 0x20));
}

#[test]
fn undecodable_words_print_a_marker_and_assemble_back() {
    let bad = (0..64u32)
        .map(|i| 0xffff_ffff_ffff_ffffu64.rotate_left(i) ^ u64::from(i))
        .find(|&w| fermi::isa::decode(w).is_err())
        .expect("some word does not decode");
    let module = fermi::cubin::Module {
        kernels: vec![fermi::cubin::Kernel {
            name: "k".into(),
            code: vec![bad, 0x00001de780000000],
            ..Default::default()
        }],
        ..Default::default()
    };
    let listing =
        fermi::disasm::disassemble_cubin(&fermi::cubin::write_cubin(&module).unwrap()).unwrap();
    let line = listing.lines().find(|l| l.contains("/*0000*/")).unwrap();
    assert!(line.contains("INVALID"), "{line}");
    assert!(listing.contains("EXIT;"));
    // The listing, marker included, assembles back to the same words.
    let file = SourceFile::new("x.isa", listing.as_str());
    let a = assemble_file(&file, &AsmOptions::default())
        .unwrap_or_else(|d| panic!("{}", diag::render(&file, &d)));
    assert_eq!(a.module.kernels[0].code, module.kernels[0].code);
}
