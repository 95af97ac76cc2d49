//! The `launch_spec` fuzz target's body, shared with the regression test in
//! `crates/ptxvm/tests/fuzz_regressions.rs`: the launch-spec loader must never panic (any bytes
//! give a spec or a field-naming error), and the outputs of what it describes (JSON, summary,
//! `.npy` files) never panic either.

pub fn fuzz_launch_spec(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // Relative `file` paths resolve inside an empty scratch directory.
    let base = std::env::temp_dir().join("ptxvm-fuzz-launch-spec-empty");
    let parsed = exec::LaunchSpec::from_json(text, &base);
    // The flag sugar sees the same text split as `--arg` values and dimensions.
    let args: Vec<String> = text.split_whitespace().map(str::to_string).collect();
    let flags = exec::LaunchSpec::from_flags(
        None,
        args.first().map(String::as_str),
        args.get(1).map(String::as_str),
        None,
        &args,
    );
    for spec in [parsed, flags].into_iter().flatten() {
        outputs(&spec, args.first().map_or("", String::as_str));
    }
}

/// Every buffer the spec holds (and small zero buffers) as a result, written as JSON, as the
/// summary and as `.npy` files under a directory named by `name` (only safe characters, inside
/// a scratch directory).
fn outputs(spec: &exec::LaunchSpec, name: &str) {
    let buffers: Vec<exec::BufferResult> = spec
        .params
        .iter()
        .enumerate()
        .filter_map(|(i, p)| match p {
            exec::ParamSpec::Buffer { ty, bytes } => Some(exec::BufferResult::new(i, *ty, bytes)),
            exec::ParamSpec::Zeros { ty, len } if *len <= 4096 => Some(exec::BufferResult::new(
                i,
                *ty,
                &vec![0; *len as usize * ty.bytes()],
            )),
            _ => None,
        })
        .collect();
    let r = exec::RunResult {
        kernel: spec.kernel.clone().unwrap_or_default(),
        buffers,
        instructions: 0,
        seconds: 0.0,
    };
    let _ = r.to_json();
    let _ = r.summary();
    let name: String = name
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
        .take(32)
        .collect();
    if !name.is_empty() && name != "." && name != ".." {
        let dir = std::env::temp_dir().join("ptxvm-fuzz-out").join(name);
        let _ = r.write_out(&dir);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
