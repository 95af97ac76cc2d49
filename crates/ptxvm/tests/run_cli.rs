//! `ptxvm run` as a script meets it: `--json` failures, limits, outputs and hangs.

mod common;
use common::{ptxvm, scratch_dir};

use serde_json::Value;
use std::path::PathBuf;
use std::process::Output;

fn scratch(name: &str, text: &str) -> PathBuf {
    let p = scratch_dir("run-cli").join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Stdout must be exactly one JSON object (one line).
fn json_out(o: &Output) -> Value {
    let text = String::from_utf8_lossy(&o.stdout);
    assert_eq!(text.lines().count(), 1, "one line on stdout: {text}");
    serde_json::from_str(text.trim()).expect("stdout is one JSON object")
}

const HEADER: &str = ".version 7.0\n.target sm_61\n.address_size 64\n";

/// `oob(p)`: stores a u32 at p+4; line 10 is the store.
fn oob_kernel() -> PathBuf {
    let src = format!(
        "{HEADER}.visible .entry oob(.param .u64 p)\n{{\n\t.reg .b64 %rd<3>;\n\t.reg .b32 %r<2>;\n\
         \tld.param.u64 %rd1, [p];\n\tmov.u32 %r1, 7;\n\tst.global.u32 [%rd1+4], %r1;\n\tret;\n}}\n"
    );
    scratch("oob.ptx", &src)
}

#[test]
fn json_fault_is_one_error_object_with_the_location() {
    let p = oob_kernel();
    let o = ptxvm(&[
        "run",
        p.to_str().unwrap(),
        "--grid",
        "1",
        "--block",
        "1",
        "--arg",
        "zeros:u32:1",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let v = json_out(&o);
    let e = &v["error"];
    assert_eq!(e["kind"], "fault");
    assert_eq!(e["kernel"], "oob");
    assert_eq!(e["line"], 10);
    assert_eq!(e["file"], p.to_str().unwrap());
    assert_eq!(e["ctaid"], serde_json::json!([0, 0, 0]));
    assert_eq!(e["tid"], serde_json::json!([0, 0, 0]));
    assert_eq!(e["space"], "global");
    assert_eq!(e["access"], "write");
    assert!(e["address"].as_u64().is_some(), "{v}");
    assert!(e["message"].as_str().unwrap().contains("out-of-bounds"));
}

#[test]
fn json_launch_check_and_io_errors_are_error_objects() {
    // Launch: the kernel takes one parameter, none given.
    let p = oob_kernel();
    let o = ptxvm(&[
        "run",
        p.to_str().unwrap(),
        "--grid",
        "1",
        "--block",
        "1",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(json_out(&o)["error"]["kind"], "launch");

    // Check: an undeclared register on line 6.
    let bad = scratch(
        "bad.ptx",
        &format!("{HEADER}.visible .entry k()\n{{\n\tadd.s32 %r1, %r1, 1;\n\tret;\n}}\n"),
    );
    let o = ptxvm(&[
        "run",
        bad.to_str().unwrap(),
        "--grid",
        "1",
        "--block",
        "1",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let v = json_out(&o);
    assert_eq!(v["error"]["kind"], "check");
    assert_eq!(v["error"]["line"], 6);
    assert!(v["error"]["diagnostics"]
        .as_array()
        .is_some_and(|d| !d.is_empty()));

    // I/O: a PTX file that does not exist.
    let o = ptxvm(&["run", "no/such/file.ptx", "--json"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(json_out(&o)["error"]["kind"], "io");

    // A malformed spec is a launch error naming the field.
    let spec = scratch("bad.json", r#"{"grid": [0]}"#);
    let o = ptxvm(&[
        "run",
        p.to_str().unwrap(),
        "--launch",
        spec.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let v = json_out(&o);
    assert_eq!(v["error"]["kind"], "launch");
    assert!(
        v["error"]["message"].as_str().unwrap().contains("grid[0]"),
        "{v}"
    );
}

#[test]
fn launch_flags_override_the_spec_and_grid_block_are_required_without_one() {
    // The example spec adds 1000 elements; the flags replace grid, block and parameters:
    // c = a + b over 4 elements with n = 3, so the last stays 0.
    let o = ptxvm(&[
        "run",
        "examples/vector_add.ptx",
        "--launch",
        "examples/vector_add.json",
        "--grid",
        "1",
        "--block",
        "4",
        "--arg",
        "buf:f32:1,2,3,4",
        "--arg",
        "buf:f32:10,20,30,40",
        "--arg",
        "zeros:f32:4",
        "--arg",
        "u32:3",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = json_out(&o);
    assert_eq!(
        v["buffers"][2]["data"],
        serde_json::json!([11.0, 22.0, 33.0, 0.0])
    );

    let o = ptxvm(&[
        "run",
        "examples/vector_add.ptx",
        "--block",
        "4",
        "--arg",
        "u32:1",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("missing --grid"), "{}", stderr(&o));
}

#[test]
fn file_args_and_unknown_kernels() {
    // --arg file:TYPE:PATH reads a buffer from a file: a = [1, 2], b = [0.5, 0.25].
    let a: Vec<u8> = [1.0f32, 2.0].iter().flat_map(|x| x.to_le_bytes()).collect();
    let b: Vec<u8> = [0.5f32, 0.25]
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    let pa = scratch_dir("run-cli").join("a.bin");
    let pb = scratch_dir("run-cli").join("b.bin");
    std::fs::write(&pa, a).unwrap();
    std::fs::write(&pb, b).unwrap();
    let fa = format!("file:f32:{}", pa.display());
    let fb = format!("file:f32:{}", pb.display());
    let o = ptxvm(&[
        "run",
        "examples/vector_add.ptx",
        "--grid",
        "1",
        "--block",
        "2",
        "--arg",
        &fa,
        "--arg",
        &fb,
        "--arg",
        "zeros:f32:2",
        "--arg",
        "u32:2",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        json_out(&o)["buffers"][2]["data"],
        serde_json::json!([1.5, 2.25])
    );

    // A wrong kernel name lists the module's kernels, mangled C++ names with their C++ form.
    let p = scratch(
        "two.ptx",
        &format!(
            "{HEADER}.visible .entry _Z6squarePfi(.param .u64 p, .param .u32 n) {{ ret; }}\n\
             .visible .entry plain() {{ ret; }}\n"
        ),
    );
    let o = ptxvm(&[
        "run",
        p.to_str().unwrap(),
        "--kernel",
        "nope",
        "--grid",
        "1",
        "--block",
        "1",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(e.contains("`_Z6squarePfi` (square(float*, int))"), "{e}");
    assert!(e.contains("`plain`"), "{e}");
}

#[test]
fn nvcc_style_arch_flag_is_accepted() {
    let cases: [&[&str]; 2] = [
        &["disasm", "-arch=sm_20", "examples/vector_add.ptx"],
        &["disasm", "-arch", "sm_20", "examples/vector_add.ptx"],
    ];
    for args in cases {
        let o = ptxvm(args);
        // Parsed (not a usage error): the file is then refused as not a listing.
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
    }
    let o = ptxvm(&["disasm", "-arch=sm_99", "examples/vector_add.ptx"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

/// `spin()`: one loop that never ends (line 9 is the branch back).
fn spin_kernel() -> PathBuf {
    scratch(
        "spin.ptx",
        &format!(
            "{HEADER}.visible .entry spin()\n{{\n\t.reg .b32 %r<2>;\nL:\n\tadd.u32 %r1, %r1, 1;\n\tbra L;\n}}\n"
        ),
    )
}

#[test]
fn timeout_stops_a_runaway_loop_naming_where_it_was() {
    let p = spin_kernel();
    let start = std::time::Instant::now();
    let o = ptxvm(&[
        "run",
        p.to_str().unwrap(),
        "--grid",
        "1",
        "--block",
        "32",
        "--timeout",
        "0.3",
        "--json",
    ]);
    let took = start.elapsed();
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let v = json_out(&o);
    assert_eq!(v["error"]["kind"], "fault");
    let line = v["error"]["line"].as_u64().unwrap();
    assert!(line == 8 || line == 9, "the loop is lines 8-9: {v}");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("time limit of 0.300 s"),
        "{v}"
    );
    assert!(took < std::time::Duration::from_secs(20), "{took:?}");
}

#[test]
fn a_barrier_deadlock_is_reported_at_once_naming_each_waiting_warp() {
    // Threads 0..31 wait at barrier 0 (line 14), threads 32..63 at barrier 1 (line 11):
    // neither barrier can complete.
    let src = format!(
        "{HEADER}.visible .entry dl()\n{{\n\t.reg .b32 %r<2>;\n\t.reg .pred %p;\n\
         \tmov.u32 %r1, %tid.x;\n\tsetp.lt.u32 %p, %r1, 32;\n\t@%p bra A;\n\
         \tbar.sync 1;\n\tret;\nA:\n\tbar.sync 0;\n\tret;\n}}\n"
    );
    // Line numbers: 1-3 header, 4 .entry, 5 {, 6-7 .reg, 8 mov, 9 setp, 10 bra, 11 bar.sync 1,
    // 12 ret, 13 A:, 14 bar.sync 0.
    let p = scratch("deadlock.ptx", &src);
    let o = ptxvm(&["run", p.to_str().unwrap(), "--grid", "1", "--block", "64"]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(e.contains("can never complete"), "{e}");
    assert!(
        e.contains("warp 0 (32 threads from tid=(0,0,0)) at line 14 on barrier 0"),
        "{e}"
    );
    assert!(
        e.contains("warp 1 (32 threads from tid=(32,0,0)) at line 11 on barrier 1"),
        "{e}"
    );
}

#[test]
fn odd_timeouts_and_limits_are_usage_errors_or_harmless() {
    let p = oob_kernel();
    let ptx = p.to_str().unwrap();
    for bad in [
        ["--timeout", "0"],
        ["--timeout", "-3"],
        ["--timeout", "x"],
        ["--timeout", "1e300"],
        ["--mem-limit", "12Q"],
        ["--mem-limit", "99999999999999T"],
    ] {
        let mut args = vec![
            "run",
            ptx,
            "--grid",
            "1",
            "--block",
            "1",
            "--arg",
            "zeros:u32:2",
        ];
        args.extend(bad);
        let o = ptxvm(&args);
        assert_eq!(o.status.code(), Some(2), "{bad:?}: {}", stderr(&o));
    }
    // A limit too large to represent as a deadline is no limit: the kernel just runs (and
    // its store at p+4 fits the two-element buffer).
    let o = ptxvm(&[
        "run",
        ptx,
        "--grid",
        "1",
        "--block",
        "1",
        "--arg",
        "zeros:u32:2",
        "--timeout",
        "1e19",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn an_unusable_output_directory_is_refused_before_the_kernel_runs() {
    // The spin kernel never ends: the refusal must come before the launch.
    let p = spin_kernel();
    let not_a_dir = scratch("plain-file", "x");
    let o = ptxvm(&[
        "run",
        p.to_str().unwrap(),
        "--grid",
        "1",
        "--block",
        "32",
        "--out",
        not_a_dir.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(json_out(&o)["error"]["kind"], "io");
}
