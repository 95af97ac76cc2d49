//! Every input a fuzz target once crashed or hung on, kept under
//! `tests/fuzz-regressions/<target>/`, goes back through the same library calls as that fuzz
//! target (`fuzz/fuzz_targets/<target>.rs`) and must return, without a panic, within a few
//! seconds. Inputs whose fix is still pending live under `tests/fuzz-regressions/pending/`,
//! which this driver deliberately skips.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

/// Generous next to the fuzzers' own 10 s timeout at opt-level 3 with sanitizers: a regression
/// that takes this long is a hang, not slowness.
const LIMIT: Duration = Duration::from_secs(20);

fn regressions_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fuzz-regressions")
}

fn inputs(target: &str) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(regressions_dir().join(target)) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

/// Runs `body` on each input in its own thread so that a panic or a
/// hang is reported with the file name instead of aborting the whole test binary.
fn run_all(target: &str, body: fn(&[u8])) {
    run_files(&inputs(target), body);
}

fn run_files(files: &[PathBuf], body: fn(&[u8])) {
    let mut failures = Vec::new();
    for path in files {
        let data = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let (tx, rx) = mpsc::channel();
        let worker = std::thread::spawn(move || {
            body(&data);
            let _ = tx.send(());
        });
        match rx.recv_timeout(LIMIT) {
            Ok(()) => {
                let _ = worker.join();
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                // The sender was dropped without sending: the body panicked.
                let _ = worker.join();
                failures.push(format!("{}: panicked", path.display()));
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                failures.push(format!("{}: still running after {LIMIT:?}", path.display()));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[path = "../../../fuzz/harness/check.rs"]
mod check_harness;
use check_harness::{fuzz_check, EPILOGUE, PROLOGUE};

#[path = "../../../fuzz/harness/compile.rs"]
mod compile_harness;
use compile_harness::fuzz_compile;

#[path = "../../../fuzz/harness/compile_diff.rs"]
mod compile_diff_harness;
use compile_diff_harness::fuzz_compile_diff;

#[path = "../../../fuzz/harness/launch_spec.rs"]
mod launch_spec_harness;
use launch_spec_harness::fuzz_launch_spec;

fn fuzz_parse_check(data: &[u8]) {
    let text = String::from_utf8_lossy(data).into_owned();
    let file = diag::SourceFile::new("fuzz.ptx", text);
    let (module, diags) = syntax::parse_module(&file);
    let _ = diag::render(&file, &diags);
    if diags.is_empty() {
        let out = syntax::print_module(&module, &file);
        let file2 = diag::SourceFile::new("fmt.ptx", out.clone());
        let (module2, diags2) = syntax::parse_module(&file2);
        assert!(diags2.is_empty(), "fmt output does not parse");
        assert!(
            syntax::same_module(&module, &file.text, &module2, &file2.text),
            "parse(fmt(x)) != parse(x)"
        );
        assert_eq!(
            syntax::print_module(&module2, &file2),
            out,
            "fmt not idempotent"
        );
    }
}

fn fuzz_sass_text(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let file = diag::SourceFile::new("fuzz.sass", text.as_ref());
    if let Ok(assembly) = fermi::asm::assemble_file(&file, &fermi::asm::AsmOptions::default()) {
        let _ = assembly.print_listing();
        if let Ok(bytes) = assembly.write_cubin() {
            assert_eq!(fermi::cubin::read_cubin(&bytes), Ok(assembly.module));
        }
    }
    let _ = fermi::disasm::disassemble_listing(&text);
    let _ = fermi::verify::verify_listing("fuzz", &text);
}

fn fuzz_fermi_decode(data: &[u8]) {
    use fermi::isa::{assemble_text, decode, disassemble_word, encode, listing_from_bytes};
    for chunk in data.chunks_exact(8) {
        let mut b = [0u8; 8];
        b.copy_from_slice(chunk);
        let word = listing_from_bytes(b);
        let text = disassemble_word(word, 0x100);
        if let Ok(inst) = decode(word) {
            assert_eq!(encode(&inst), word);
            let back = assemble_text(&text, 0x100, &|_| None);
            assert_eq!(back, Ok(word), "{text}");
        }
    }
}

fn fuzz_cubin_read(data: &[u8]) {
    let _ = fermi::disasm::disassemble_cubin(data);
    if let Ok(module) = fermi::cubin::read_cubin(data) {
        if let Ok(bytes) = fermi::cubin::write_cubin(&module) {
            assert_eq!(fermi::cubin::read_cubin(&bytes), Ok(module));
        }
    }
}

#[test]
fn check_regressions() {
    run_all("check", fuzz_check);
}

#[test]
fn compile_regressions() {
    let files = inputs("compile");
    // Seeded with kernel bodies of the fuzz corpus besides any crash found, so the runner
    // always has something to translate.
    assert!(!files.is_empty(), "tests/fuzz-regressions/compile is empty");
    run_files(&files, fuzz_compile);
}

#[test]
fn compile_diff_regressions() {
    let files = inputs("compile_diff");
    run_files(&files, |d| {
        fuzz_compile_diff(d);
    });
    // The seeds reach the comparison (not all skipped as racing or faulting).
    let compared: usize = files
        .iter()
        .map(|p| fuzz_compile_diff(&std::fs::read(p).expect("read")))
        .sum();
    assert!(
        compared > 0,
        "no input of tests/fuzz-regressions/compile_diff was compared"
    );
}

/// The differential harness must reach the comparison: a race-free kernel whose every thread
/// divides, shifts and converts its own words is compared, one racing on one word is not.
#[test]
fn compile_diff_compares_clean_kernels() {
    let own = "mov.u32 %r5, %ctaid.x;\nmov.u32 %r6, %ntid.x;\nmad.lo.u32 %r6, %r5, %r6, %r2;\n\
        mul.wide.u32 %rd2, %r6, 4;\nadd.u64 %rd3, %rd1, %rd2;\nld.global.u32 %r3, [%rd3];\n\
        ld.global.u32 %r7, [%rd3+512];\ndiv.u32 %r4, %r3, %r7;\nshr.s32 %r8, %r3, %r7;\n\
        xor.b32 %r4, %r4, %r8;\ncvt.rn.f32.u32 %f2, %r4;\nmov.b32 %r4, %f2;\n\
        st.global.u32 [%rd3], %r4;";
    assert_eq!(fuzz_compile_diff(own.as_bytes()), 1);
    let racing = "st.global.u32 [%rd1], %r2;";
    assert_eq!(fuzz_compile_diff(racing.as_bytes()), 0);
}

/// The compile harness's wrapper translates: a trivial body compiles (not refused), so
/// mutations of instruction lines reach instruction selection.
#[test]
fn compile_wrapper_translates() {
    let text = format!(
        "{}st.global.u32 [%rd1], %r2;{}",
        compile_harness::prologue(),
        compile_harness::EPILOGUE
    );
    let file = diag::SourceFile::new("wrapped.ptx", text.as_str());
    let (module, diags) = check::check_source(&file);
    let module = module.unwrap_or_else(|| panic!("{}", diag::render(&file, &diags)));
    let compiled = codegen::compile_module(&module, &file)
        .unwrap_or_else(|e| panic!("{}", diag::render(&file, &e)));
    assert_eq!(compiled.cubin.kernels.len(), 1);
    assert!(compiled.cubin.kernels[0].code.len() > 2);
}

#[test]
fn parse_check_regressions() {
    run_all("parse_check", fuzz_parse_check);
}

#[test]
fn launch_spec_regressions() {
    run_all("launch_spec", fuzz_launch_spec);
}

#[test]
fn sass_text_regressions() {
    run_all("sass_text", fuzz_sass_text);
}

#[test]
fn fermi_decode_regressions() {
    run_all("fermi_decode", fuzz_fermi_decode);
}

#[test]
fn cubin_read_regressions() {
    run_all("cubin_read", fuzz_cubin_read);
}

/// Wrapped inputs must reach the executor: the wrapper plus a trivial body checks cleanly.
#[test]
fn wrapper_checks_cleanly() {
    let text = format!("{PROLOGUE}st.global.u32 [%rd1], %r2;{EPILOGUE}");
    let file = diag::SourceFile::new("wrapped.ptx", text.as_str());
    let (module, diags) = check::check_source(&file);
    assert!(module.is_some(), "{}", diag::render(&file, &diags));
    assert!(exec::Device::new().load(&module.unwrap(), &file).is_ok());
}

/// The driver itself must notice a panicking input, or every test above passes vacuously.
#[test]
fn driver_reports_a_panicking_input() {
    let dir = std::env::temp_dir().join(format!("ptxvm-fuzz-driver-{}", std::process::id()));
    let target = dir.join("probe");
    std::fs::create_dir_all(&target).unwrap();
    std::fs::write(target.join("input"), b"x").unwrap();
    let files: Vec<PathBuf> = std::fs::read_dir(&target)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(files.len(), 1);
    let outcome = std::panic::catch_unwind(|| run_files(&files, |_| panic!("probe")));
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(outcome.is_err(), "a panicking body was not reported");
}
