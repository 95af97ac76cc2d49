//! `ptxvm run --sanitize` as a user meets it: the report on stderr with the PTX line, the
//! `ERROR SUMMARY` line, the JSON field and the exit code.

mod common;
use common::{ptxvm, scratch_dir};

use serde_json::Value;

/// Two warps: each thread stores to s[t], then (with `racy`, no barrier in between) reads
/// s[(t + 32) % 64] and writes it to out[t].
fn kernel(racy: bool) -> String {
    let sync = if racy { "" } else { "bar.sync 0;" };
    format!(
        ".version 6.0
.target sm_60
.address_size 64
.visible .entry k(.param .u64 out)
{{
    .reg .b32 %r<8>;
    .reg .b64 %rd<4>;
    .shared .align 4 .u32 s[64];
    mov.u32 %r1, %tid.x;
    mov.u32 %r6, s;
    shl.b32 %r2, %r1, 2;
    add.u32 %r3, %r6, %r2;
    st.shared.u32 [%r3], %r1;
    {sync}
    add.u32 %r4, %r1, 32;
    rem.u32 %r4, %r4, 64;
    shl.b32 %r4, %r4, 2;
    add.u32 %r4, %r6, %r4;
    ld.shared.u32 %r5, [%r4];
    ld.param.u64 %rd1, [out];
    cvt.u64.u32 %rd2, %r2;
    add.u64 %rd1, %rd1, %rd2;
    st.global.u32 [%rd1], %r5;
    ret;
}}
"
    )
}

fn run(racy: bool, json: bool) -> std::process::Output {
    let dir = scratch_dir("run-sanitize");
    let name = if racy { "racy.ptx" } else { "fixed.ptx" };
    let p = dir.join(name);
    std::fs::write(&p, kernel(racy)).unwrap();
    let mut args = vec![
        "run",
        p.to_str().unwrap(),
        "--grid",
        "1",
        "--block",
        "64",
        "--arg",
        "zeros:u32:64",
        "--sanitize",
        "-q",
    ];
    if json {
        args.push("--json");
    }
    ptxvm(&args)
}

#[test]
fn a_race_is_reported_with_line_source_threads_and_summary_and_exits_3() {
    let o = run(true, false);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "{err}");
    // Warp 0 runs first (no barrier stops it): it reads s[32..64] before warp 1 wrote it
    // (initcheck at the load, line 19). Then warp 1's thread 32 overwrites s[32], which
    // thread 0 read (write-after-read at the store, line 13), and reads s[0], which thread 0
    // wrote (read-after-write at the load): three errors.
    assert!(err.contains("racecheck: read-after-write hazard"), "{err}");
    assert!(
        err.contains("racy.ptx:19: ld.shared.u32 %r5, [%r4];"),
        "{err}"
    );
    assert!(
        err.contains("thread (32, 0, 0) in block (0, 0, 0)"),
        "{err}"
    );
    assert!(
        err.contains("and thread (0, 0, 0) in block (0, 0, 0) at")
            && err.contains("racy.ptx:13: st.shared.u32 [%r3], %r1;"),
        "{err}"
    );
    assert!(err.contains("racecheck: write-after-read hazard"), "{err}");
    assert!(
        err.contains("initcheck: read of uninitialised shared memory"),
        "{err}"
    );
    assert!(err.contains("ERROR SUMMARY: 3 errors\n"), "{err}");
    // The results are still printed.
    assert!(String::from_utf8_lossy(&o.stdout).contains("param 0"));
}

#[test]
fn the_json_output_carries_the_findings() {
    let o = run(true, true);
    assert_eq!(o.status.code(), Some(3));
    let v: Value = serde_json::from_slice(&o.stdout).expect("one JSON object");
    let s = &v["sanitizer"];
    assert_eq!(s["errors"], 3);
    let findings = s["findings"].as_array().unwrap();
    let f = findings
        .iter()
        .find(|f| f["title"] == "read-after-write hazard")
        .expect("the RAW hazard");
    assert_eq!(f["check"], "racecheck");
    assert_eq!(f["line"], 19);
    assert_eq!(f["source"], "ld.shared.u32 %r5, [%r4];");
    assert_eq!(f["address"], 0);
    assert_eq!(f["space"], "shared");
    assert_eq!(f["threads"][0]["tid"], serde_json::json!([32, 0, 0]));
    assert!(v["buffers"].is_array());
}

#[test]
fn a_correct_kernel_reports_zero_errors_and_exits_0() {
    let o = run(false, false);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(err.contains("ERROR SUMMARY: 0 errors"), "{err}");
    assert!(!err.contains("racecheck"), "{err}");
}

/// Each thread adds 1 to out[t]: a read of the buffer before any store.
const INCREMENT: &str = ".version 6.0
.target sm_60
.address_size 64
.visible .entry k(.param .u64 out)
{
    .reg .b32 %r<4>;
    .reg .b64 %rd<4>;
    mov.u32 %r1, %tid.x;
    ld.param.u64 %rd1, [out];
    mul.wide.u32 %rd2, %r1, 4;
    add.u64 %rd3, %rd1, %rd2;
    ld.global.u32 %r2, [%rd3];
    add.u32 %r2, %r2, 1;
    st.global.u32 [%rd3], %r2;
    ret;
}
";

#[test]
fn a_zeros_buffer_read_before_any_store_is_an_initcheck_error_and_host_data_is_not() {
    let dir = scratch_dir("run-sanitize-global-init");
    let p = dir.join("inc.ptx");
    std::fs::write(&p, INCREMENT).unwrap();
    let file = p.to_str().unwrap();
    let go = |arg: &str| {
        ptxvm(&[
            "run",
            file,
            "--grid",
            "1",
            "--block",
            "4",
            "--arg",
            arg,
            "--sanitize",
            "-q",
        ])
    };
    let o = go("zeros:u32:4");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "{err}");
    // Line 12 is the load; thread 0 meets it first, at the buffer's first byte.
    assert!(
        err.contains("initcheck: read of uninitialised global memory"),
        "{err}"
    );
    assert!(
        err.contains("inc.ptx:12: ld.global.u32 %r2, [%rd3];"),
        "{err}"
    );
    assert!(err.contains("thread (0, 0, 0) in block (0, 0, 0)"), "{err}");
    assert!(err.contains("ERROR SUMMARY: 1 error\n"), "{err}");
    let o = go("buf:u32:1,2,3,4");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(err.contains("ERROR SUMMARY: 0 errors"), "{err}");
}
