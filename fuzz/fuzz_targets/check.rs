#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../harness/check.rs"]
mod harness;

fuzz_target!(|data: &[u8]| harness::fuzz_check(data));
