#![no_main]
//! The launch-spec loader must never panic: any bytes give a spec or a field-naming error.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // Relative `file` paths resolve inside an empty scratch directory.
    let base = std::env::temp_dir().join("ptxvm-fuzz-launch-spec-empty");
    let _ = exec::LaunchSpec::from_json(text, &base);
    // The flag sugar sees the same text split as `--arg` values and dimensions.
    let args: Vec<String> = text.split_whitespace().map(str::to_string).collect();
    let _ = exec::LaunchSpec::from_flags(
        None,
        args.first().map(String::as_str),
        args.get(1).map(String::as_str),
        None,
        &args,
    );
});
