//! Golden files for the canonical printer: `tests/fmt/NAME.ptx` → `tests/fmt/NAME.fmt`.
//! `PTXVM_BLESS=1 cargo test -p ptxvm-syntax --test fmt_golden` rewrites the `.fmt` files; review the
//! diff before committing.

use diag::SourceFile;
use std::path::Path;

#[test]
fn fmt_output_matches_golden_files() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fmt");
    let bless = std::env::var_os("PTXVM_BLESS").is_some_and(|v| v == "1");
    let mut inputs: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "ptx"))
        .collect();
    inputs.sort();
    assert!(
        inputs.len() >= 4,
        "golden inputs missing in {}",
        dir.display()
    );
    let mut failures = Vec::new();
    for input in &inputs {
        let text = std::fs::read_to_string(input).unwrap();
        let file = SourceFile::new(input.display().to_string(), text);
        let (module, diags) = syntax::parse_module(&file);
        assert!(diags.is_empty(), "{}", diag::render(&file, &diags));
        let got = syntax::print_module(&module, &file);
        let golden = input.with_extension("fmt");
        if bless {
            std::fs::write(&golden, &got).unwrap();
            continue;
        }
        let want = std::fs::read_to_string(&golden).unwrap_or_default();
        if got != want {
            failures.push(format!(
                "{}: output differs from {} (PTXVM_BLESS=1 to update)\n--- got ---\n{got}",
                input.display(),
                golden.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
