#![no_main]
//! The cubin reader on arbitrary bytes: classified errors, never a panic; whatever it reads and
//! the writer accepts must survive a write/read round trip.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = fermi::disasm::disassemble_cubin(data);
    if let Ok(module) = fermi::cubin::read_cubin(data) {
        if let Ok(bytes) = fermi::cubin::write_cubin(&module) {
            assert_eq!(fermi::cubin::read_cubin(&bytes), Ok(module));
        }
    }
});
