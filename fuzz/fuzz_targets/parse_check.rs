#![no_main]
//! Parser (and, once wired by the lead, checker) on arbitrary input: nothing may panic. When
//! the input parses cleanly the `fmt` invariants must also hold.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data).into_owned();
    let file = diag::SourceFile::new("fuzz.ptx", text);
    let (module, diags) = syntax::parse_module(&file);
    let _ = diag::render(&file, &diags);
    if diags.is_empty() {
        let out = syntax::print_module(&module, &file);
        let file2 = diag::SourceFile::new("fmt.ptx", out.clone());
        let (module2, diags2) = syntax::parse_module(&file2);
        assert!(diags2.is_empty(), "fmt output does not parse");
        assert!(
            syntax::same_module(&module, &file.text, &module2, &file2.text),
            "parse(fmt(x)) != parse(x)"
        );
        assert_eq!(syntax::print_module(&module2, &file2), out, "fmt not idempotent");
    }
});

/// The isa table is built once per process and leaked on purpose (it is `'static`), which
/// LeakSanitizer reports as a leak on the first input; leak checking is off so that report
/// does not end every run.
#[no_mangle]
pub extern "C" fn __lsan_default_options() -> *const std::ffi::c_char {
    c"detect_leaks=0".as_ptr()
}
