#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../harness/check.rs"]
#[allow(dead_code)]
mod check_harness;
#[path = "../harness/compile.rs"]
#[allow(dead_code)]
mod compile_harness;
#[path = "../harness/compile_diff.rs"]
mod harness;

fuzz_target!(|data: &[u8]| {
    harness::fuzz_compile_diff(data);
});

/// The isa table is built once per process and leaked on purpose (it is `'static`); leak
/// checking is off so that report does not end every run.
#[no_mangle]
pub extern "C" fn __lsan_default_options() -> *const std::ffi::c_char {
    c"detect_leaks=0".as_ptr()
}
