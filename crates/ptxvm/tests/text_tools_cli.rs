//! `sass verify`, `disasm` and `asm` refuse what is not theirs, with a message and exit 1.

mod common;
use common::ptxvm;

use std::path::PathBuf;
use std::process::{Command, Output};

fn scratch(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ptxvm-text-tools-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn verify_and_disasm_refuse_a_file_without_listing_lines() {
    let cases: [&[&str]; 2] = [
        &["sass", "verify", "examples/vector_add.ptx"],
        &["disasm", "--arch", "sm_20", "examples/vector_add.ptx"],
    ];
    for args in cases {
        let o = ptxvm(args);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("listing"), "{}", stderr(&o));
        assert!(o.stdout.is_empty(), "nothing echoed: {args:?}");
    }
}

#[test]
fn a_truncated_cubin_names_the_offset_and_structure() {
    let p = scratch("trunc.cubin", b"\x7fELF\x02\x01\x01\x00");
    let o = ptxvm(&["disasm", p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(e.contains("offset 8 (0x8): ELF header truncated"), "{e}");
    assert!(!e.contains("not an ELF file"), "{e}");
}

#[test]
fn asm_stops_printing_after_1000_errors() {
    let text: String = (0..1500).map(|i| format!("FROB R{i};\n")).collect();
    let p = scratch("bad.sass", text.as_bytes());
    let out = p.with_extension("cubin");
    let o = ptxvm(&["asm", p.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    // Located diagnostics start with the path; the closing count line starts with `ptxvm:`.
    let prefix = format!("{}:", p.display());
    let located = e
        .lines()
        .filter(|l| l.starts_with(&prefix) && l.contains(": error:"))
        .count();
    assert_eq!(located, 1000);
    assert!(e.contains("500 more not shown"), "{}", &e[e.len() - 300..]);
}

fn ptxvm_stdin(args: &[&str], input: &str) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_ptxvm"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

const MESSY: &str = "// header comment\n.version 7.0\n.target sm_61\n.address_size 64\n\
    .visible .entry k()\n{\n  /* before ret */\n    ret;   // trailing\n}\n";

/// What `fmt` must print for MESSY: every comment kept, at the statement's indentation.
const CANONICAL: &str = "// header comment\n.version 7.0\n.target sm_61\n.address_size 64\n\n\
    .visible .entry k()\n{\n\t/* before ret */\n\tret; // trailing\n}\n";

#[test]
fn fmt_keeps_comments_reads_stdin_and_several_files() {
    let o = ptxvm_stdin(&["fmt", "-"], MESSY);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(String::from_utf8_lossy(&o.stdout), CANONICAL);
    // Idempotent, and two files print one after the other.
    let a = scratch("a.ptx", CANONICAL.as_bytes());
    let o = ptxvm(&["fmt", a.to_str().unwrap(), a.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&o.stdout), CANONICAL.repeat(2));
}

#[test]
fn fmt_check_names_files_not_in_canonical_form() {
    let good = scratch("good.ptx", CANONICAL.as_bytes());
    let bad = scratch("messy.ptx", MESSY.as_bytes());
    let o = ptxvm(&["fmt", "--check", good.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(o.stdout.is_empty());
    let o = ptxvm(&[
        "fmt",
        "--check",
        good.to_str().unwrap(),
        bad.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty());
    let e = stderr(&o);
    assert!(e.contains("messy.ptx: not in canonical form"), "{e}");
    assert!(!e.contains("good.ptx"), "{e}");
}
