//! End-to-end through the launch-spec half of `ptxvm run`: SPEC.json → `exec::run` → the
//! `--json` result, with kernels from `tests/kernels/` and independently computed values.

mod endtoend_common;
use endtoend_common::*;
use exec::{LaunchSpec, RunOptions};
use std::path::Path;

fn check_module(file: &str) -> (ir::Module, diag::SourceFile) {
    let src = diag::SourceFile::new(kernel_path(file), kernel_text(file));
    let (m, diags) = check::check_source(&src);
    assert!(
        !diags.iter().any(|d| d.is_error()),
        "{}",
        diag::render(&src, &diags)
    );
    (m.expect("a module"), src)
}

fn run_spec(file: &str, spec: &str, base: &Path) -> Result<serde_json::Value, exec::ExecError> {
    let (m, src) = check_module(file);
    let spec = LaunchSpec::from_json(spec, base).unwrap_or_else(|e| panic!("spec: {e}"));
    let r = exec::run(&m, &src, &spec, &RunOptions::default())?;
    Ok(serde_json::from_str(&r.to_json()).expect("--json output is JSON"))
}

#[test]
fn spec_vector_add_u64_round_trips_64_bit_integers() {
    let a: [u64; 5] = [
        u64::MAX,
        9_007_199_254_740_993, // 2^53 + 1: not representable as f64
        0,
        0x8000_0000_0000_0000,
        12_345_678_901_234_567_890,
    ];
    let b: [u64; 5] = [1, 2, 3, 0x8000_0000_0000_0001, 7_777_777_777_777_777_777];
    let spec = format!(
        r#"{{"kernel": "vector_add_u64", "grid": [2], "block": [4, 1],
            "params": [{{"buffer": {{"type": "u64", "data": {a:?}}}}},
                       {{"buffer": {{"type": "u64", "data": {b:?}}}}},
                       {{"buffer": {{"type": "u64", "len": 5}}}},
                       {{"value": 5, "type": "u32"}}]}}"#
    );
    let v = run_spec("vector_add.ptx", &spec, Path::new(".")).expect("launch");
    assert_eq!(v["kernel"], "vector_add_u64");
    let bufs = v["buffers"].as_array().expect("buffers");
    assert_eq!(bufs.len(), 3, "every buffer param and nothing else: {v}");
    for (i, bv) in bufs.iter().enumerate() {
        assert_eq!(bv["param"], i as u64);
        assert_eq!(bv["type"], "u64");
    }
    let data = |k: usize| -> Vec<u64> {
        bufs[k]["data"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().expect("an exact u64"))
            .collect()
    };
    assert_eq!(data(0), a, "input buffer a is returned unchanged");
    assert_eq!(data(1), b);
    let want: Vec<u64> = a.iter().zip(&b).map(|(x, y)| x.wrapping_add(*y)).collect();
    assert_eq!(data(2), want);
    assert!(v["stats"]["instructions"].as_u64().unwrap() > 0, "{v}");
}

#[test]
fn spec_sad_reads_u8_buffers_from_files() {
    let dir = std::env::temp_dir().join(format!("ptxvm-e2e-spec-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (w, h) = (16usize, 8usize);
    let mut rng = Rng(81);
    let cur: Vec<u8> = (0..w * h).map(|_| rng.next_u32() as u8).collect();
    let refi: Vec<u8> = (0..w * h).map(|_| rng.next_u32() as u8).collect();
    std::fs::write(dir.join("cur.bin"), &cur).unwrap();
    std::fs::write(dir.join("ref.bin"), &refi).unwrap();
    let spec = r#"{"grid": [1, 1, 1], "block": [2, 1, 1],
        "params": [{"buffer": {"type": "u8", "file": "cur.bin"}},
                   {"buffer": {"type": "u8", "file": "ref.bin"}},
                   {"buffer": {"type": "u32", "len": 6}},
                   {"value": 16, "type": "u32"}, {"value": 8, "type": "u32"},
                   {"value": 0, "type": "u32"}]}"#;
    let v = run_spec("sad_video.ptx", spec, &dir).expect("launch");
    std::fs::remove_dir_all(&dir).ok();
    let out: Vec<u64> = v["buffers"][2]["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect();
    for k in 0..2 {
        let (mut sad, mut sum) = (0u64, 0u64);
        for y in 0..8 {
            for x in 0..8 {
                let i = y * w + 8 * k + x;
                sad += u64::from(cur[i].abs_diff(refi[i]));
                sum += u64::from(cur[i]);
            }
        }
        assert_eq!([out[3 * k], out[3 * k + 1]], [sad, sum], "block {k}");
    }
}

#[test]
fn spec_fault_is_exit_code_3_with_location() {
    let spec = r#"{"kernel": "trap_kernel", "grid": [4], "block": [64], "params": []}"#;
    let err = run_spec("faults.ptx", spec, Path::new(".")).expect_err("trap");
    assert_eq!(err.exit_code(), 3, "{err}");
    let msg = err.to_string();
    let line = line_of(&kernel_text("faults.ptx"), "FAULT: trap");
    assert!(msg.contains("trap_kernel"), "{msg}");
    assert!(
        msg.contains(&format!("{}:{line}", kernel_path("faults.ptx"))),
        "{msg}"
    );
}

#[test]
fn spec_without_kernel_in_a_module_of_several_entries_is_a_launch_error() {
    let spec = r#"{"grid": [1], "block": [1], "params": []}"#;
    let err = run_spec("faults.ptx", spec, Path::new(".")).expect_err("ambiguous kernel");
    assert_eq!(err.exit_code(), 2, "{err}");
    assert!(err.to_string().contains("kernel"), "{err}");
}
