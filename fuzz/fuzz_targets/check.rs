#![no_main]
use libfuzzer_sys::fuzz_target;

// Parse + check (+ load into the executor) of arbitrary text: nothing may panic.
fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let file = diag::SourceFile::new("fuzz.ptx", text);
        let _ = check::check_source(&file);
    }
});
