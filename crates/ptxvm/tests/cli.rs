//! End-to-end tests of the `ptxvm` binary: exit codes, message formats and outputs.

mod common;
use common::{ptxvm, repo_root};

use std::path::PathBuf;
use std::process::Output;

fn scratch(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ptxvm-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

const HEADER: &str = ".version 7.0\n.target sm_61\n.address_size 64\n";

#[test]
fn check_accepts_the_shipped_example_and_corpus() {
    let mut files = vec!["examples/vector_add.ptx".to_string()];
    for e in std::fs::read_dir(repo_root().join("tests/corpus")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "ptx") {
            files.push(p.display().to_string());
        }
    }
    let args: Vec<&str> = std::iter::once("check")
        .chain(files.iter().map(String::as_str))
        .collect();
    let o = ptxvm(&args);
    assert_eq!(o.status.code(), Some(0), "stderr:\n{}", stderr(&o));
}

#[test]
fn check_reports_gcc_style_location_and_exit_1() {
    // Line 6, column 2 is where the undeclared register's instruction starts; the message
    // must name the file and a line/column on that line.
    let src = format!(
        "{HEADER}.visible .entry k()\n{{\n\t.reg .b32 %r<2>;\n\tadd.s32 %r1, %r1, %nope;\n\tret;\n}}\n"
    );
    let p = scratch("undeclared.ptx", &src);
    let o = ptxvm(&["check", p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    let want = format!("{}:7:", p.display());
    assert!(err.contains(&want), "expected `{want}` in:\n{err}");
    assert!(err.contains("error:"), "{err}");
    assert!(err.contains("%nope"), "{err}");
    assert!(err.contains('^'), "caret line missing:\n{err}");
}

#[test]
fn check_json_is_one_array_naming_the_line() {
    let src = format!("{HEADER}.visible .entry k()\n{{\n\tfrobnicate.u32 1;\n}}\n");
    let p = scratch("unknown.ptx", &src);
    let o = ptxvm(&["check", "--json", p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("stdout is JSON");
    let items = v.as_array().expect("an array");
    assert!(!items.is_empty());
    assert_eq!(items[0]["line"], 6);
    assert_eq!(items[0]["severity"], "error");
}

#[test]
fn missing_file_is_an_io_error() {
    let o = ptxvm(&["check", "does/not/exist.ptx"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("does/not/exist.ptx"));
}

#[test]
fn bad_command_line_is_exit_2() {
    assert_eq!(ptxvm(&["frobnicate"]).status.code(), Some(2));
    assert_eq!(ptxvm(&["check"]).status.code(), Some(2));
}

#[test]
fn fmt_is_idempotent_on_the_example() {
    let o = ptxvm(&["fmt", "examples/vector_add.ptx"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let once = stdout(&o);
    let p = scratch("once.ptx", &once);
    let o2 = ptxvm(&["fmt", p.to_str().unwrap()]);
    assert_eq!(o2.status.code(), Some(0), "{}", stderr(&o2));
    assert_eq!(stdout(&o2), once);
}

#[test]
fn fmt_rejects_unparsable_input() {
    let p = scratch("garbage.ptx", ".version 7.0\n.target sm_61\n}}}} ((( ;\n");
    let o = ptxvm(&["fmt", p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains(":3:"), "{}", stderr(&o));
}

/// The first lines of a real listing, with their words as NVIDIA printed them.
const LISTING: &str = "\tcode for sm_20\n\t\tFunction : FindMaxIndexLoop\n\
\t/*0000*/     /*0x00005de428004404*/ \tMOV R1, c [0x1] [0x100];\n\
\t/*0008*/     /*0x94001c042c000000*/ \tS2R R0, SR_CTAid_X;\n\
\t/*0010*/     /*0x8400dc042c000000*/ \tS2R R3, SR_Tid_X;\n\
\t/*0018*/     /*0x00001de780000000*/ \tEXIT;\n";

#[test]
fn sass_verify_disasm_and_asm_agree_with_nvidia_words() {
    let p = scratch("excerpt.isa", LISTING);
    let o = ptxvm(&["sass", "verify", p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stdout(&o).contains("4 lines, 0 encode mismatches, 0 decode mismatches"),
        "{}",
        stdout(&o)
    );

    let o = ptxvm(&["disasm", "--arch", "sm_20", p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("/*0x94001c042c000000*/"), "{text}");
    assert!(text.contains("S2R R0, SR_CTAid_X;"), "{text}");

    let cubin =
        std::env::temp_dir().join(format!("ptxvm-cli-{}/excerpt.cubin", std::process::id()));
    let o = ptxvm(&[
        "asm",
        "--arch",
        "sm_20",
        p.to_str().unwrap(),
        "-o",
        cubin.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let bytes = std::fs::read(&cubin).unwrap();
    assert_eq!(&bytes[..4], b"\x7fELF");
    let o = ptxvm(&["disasm", cubin.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("Function : FindMaxIndexLoop"), "{text}");
    for word in [
        "0x00005de428004404",
        "0x94001c042c000000",
        "0x8400dc042c000000",
        "0x00001de780000000",
    ] {
        assert!(text.contains(word), "{word} missing from\n{text}");
    }
}

#[test]
fn asm_reports_every_error_with_its_location() {
    let p = scratch(
        "bad.sass",
        "!Kernel k\nMOV R1, R2;\nFROB R1;\nIADD R1, R2, 0x7fffffff;\n!EndKernel\n",
    );
    let o = ptxvm(&["asm", p.to_str().unwrap(), "-o", "/dev/null"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains(&format!("{}:3:", p.display())), "{err}");
    assert!(err.contains(&format!("{}:4:", p.display())), "{err}");
}

#[test]
fn disasm_rejects_a_truncated_cubin() {
    let p = scratch("trunc.cubin", "\x7fELF\x02\x01");
    let o = ptxvm(&["disasm", p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
}

#[test]
fn run_example_json_matches_an_independent_sum() {
    let o = ptxvm(&[
        "run",
        "examples/vector_add.ptx",
        "--launch",
        "examples/vector_add.json",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).expect("one JSON object");
    let spec: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(repo_root().join("examples/vector_add.json")).unwrap(),
    )
    .unwrap();
    let a = spec["params"][0]["buffer"]["data"].as_array().unwrap();
    let b = spec["params"][1]["buffer"]["data"].as_array().unwrap();
    assert_eq!(v["kernel"], "vector_add");
    let bufs = v["buffers"].as_array().unwrap();
    assert_eq!(bufs.len(), 3);
    assert_eq!(bufs[2]["param"], 2);
    assert_eq!(bufs[2]["type"], "f32");
    let c = bufs[2]["data"].as_array().unwrap();
    assert_eq!(c.len(), a.len());
    for i in 0..a.len() {
        let want = a[i].as_f64().unwrap() as f32 + b[i].as_f64().unwrap() as f32;
        assert_eq!(c[i].as_f64().unwrap() as f32, want, "element {i}");
    }
    assert!(v["stats"]["instructions"].as_u64().unwrap() > 0);
}

#[test]
fn run_with_flag_sugar_and_out_dir() {
    let dir = std::env::temp_dir().join(format!("ptxvm-cli-{}/out", std::process::id()));
    let o = ptxvm(&[
        "run",
        "examples/vector_add.ptx",
        "--grid",
        "1",
        "--block",
        "8",
        "--arg",
        "buf:f32:1,2,3,4,5,6,7,8",
        "--arg",
        "buf:f32:10,20,30,40,50,60,70,80",
        "--arg",
        "zeros:f32:8",
        "--arg",
        "u32:6",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // numpy's .npy: 10 bytes of magic, version and header length, then the header.
    let npy = std::fs::read(dir.join("param2.npy")).unwrap();
    let hlen = u16::from_le_bytes([npy[8], npy[9]]) as usize;
    assert!(std::str::from_utf8(&npy[10..10 + hlen])
        .unwrap()
        .contains("'descr': '<f4'"));
    let got: Vec<f32> = npy[10 + hlen..]
        .chunks(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    // n = 6: the last two elements stay zero.
    let want: Vec<f32> = (1..=8)
        .map(|i| if i <= 6 { (i * 11) as f32 } else { 0.0 })
        .collect();
    assert_eq!(got, want);
}

#[test]
fn run_spec_errors_name_the_field_and_exit_2() {
    let p = scratch(
        "badspec.json",
        r#"{"grid": [1], "block": [8], "params": [{"buffer": {"type": "u33", "len": 8}}]}"#,
    );
    let o = ptxvm(&[
        "run",
        "examples/vector_add.ptx",
        "--launch",
        p.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("params[0].buffer.type"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn run_fault_exits_3_naming_kernel_and_line() {
    // Stores one element past the end of a one-element buffer.
    let src = format!(
        "{HEADER}.visible .entry oob(.param .u64 p)\n{{\n\t.reg .b64 %rd<3>;\n\t.reg .b32 %r<2>;\n\
         \tld.param.u64 %rd1, [p];\n\tmov.u32 %r1, 7;\n\tst.global.u32 [%rd1+4], %r1;\n\tret;\n}}\n"
    );
    let p = scratch("oob.ptx", &src);
    let o = ptxvm(&[
        "run",
        p.to_str().unwrap(),
        "--grid",
        "1",
        "--block",
        "1",
        "--arg",
        "zeros:u32:1",
    ]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("oob"), "{err}");
    assert!(err.contains(":10"), "the faulting line 10 is named: {err}");
}

#[test]
fn oversized_memory_declarations_are_refused_at_load() {
    let o = ptxvm(&[
        "run",
        "tests/fuzz-regressions/check/oom-global-4gb.ptx",
        "--grid",
        "1",
        "--block",
        "1",
        "--arg",
        "u64:0",
        "--mem-limit",
        "1G",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("cannot allocate `g`"), "{}", stderr(&o));
    assert!(stderr(&o).contains("1073741824 bytes"), "{}", stderr(&o));
    let o = ptxvm(&[
        "run",
        "tests/fuzz-regressions/check/abort-local-4gb-per-thread.ptx",
        "--grid",
        "1",
        "--block",
        "1",
        "--arg",
        "u64:0",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(".local memory per thread"),
        "{}",
        stderr(&o)
    );
}
