#![no_main]
//! The file-level SASS assembler, listing disassembler and verify mode on arbitrary text:
//! none may panic, and a successful assembly must lay out as a cubin that reads back.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let file = diag::SourceFile::new("fuzz.sass", text.as_ref());
    if let Ok(assembly) = fermi::asm::assemble_file(&file, &fermi::asm::AsmOptions::default()) {
        let _ = assembly.print_listing();
        if let Ok(bytes) = assembly.write_cubin() {
            assert_eq!(fermi::cubin::read_cubin(&bytes), Ok(assembly.module));
        }
    }
    let _ = fermi::disasm::disassemble_listing(&text);
    let _ = fermi::verify::verify_listing("fuzz", &text);
});
