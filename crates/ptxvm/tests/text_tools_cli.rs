//! `sass verify`, `disasm` and `asm` refuse what is not theirs, with a message and exit 1.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn ptxvm(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ptxvm"))
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."))
        .output()
        .expect("the ptxvm binary runs")
}

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
