#![no_main]
//! The launch-spec loader must never panic: any bytes give a spec or a field-naming error;
//! the outputs of what it describes never panic either (see `harness/launch_spec.rs`).
use libfuzzer_sys::fuzz_target;

#[path = "../harness/launch_spec.rs"]
mod harness;

fuzz_target!(|data: &[u8]| harness::fuzz_launch_spec(data));
