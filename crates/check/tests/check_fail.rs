//! Golden negative tests: each `tests/check-fail/*.ptx` is checked and its rendered
//! diagnostics must equal the sibling `*.stderr` file. `PTXVM_BLESS=1` rewrites the goldens
//! (review the diff). Every file must produce at least one diagnostic, so a golden can never
//! pass by checking nothing; files whose name starts with `missing-target`, `newer-version` or
//! `sreg-restated` test warnings, every other file must produce an error.

mod common;

use common::{check_rendered, load, ptx_files, repo_root};

#[test]
fn check_fail_goldens() {
    let dir = repo_root().join("tests/check-fail");
    let files = ptx_files(&dir);
    assert!(!files.is_empty(), "no files under tests/check-fail");
    let bless = std::env::var_os("PTXVM_BLESS").is_some_and(|v| v == "1");
    let mut problems = String::new();
    for path in &files {
        let file = load(path);
        let (ok, rendered, diags) = check_rendered(&file);
        let warning_only = [
            "missing-target",
            "newer-version",
            "sreg-restated",
            "immediate-truncated",
        ]
        .iter()
        .any(|p| {
            file.name
                .rsplit('/')
                .next()
                .is_some_and(|n| n.starts_with(p))
        });
        if diags.is_empty() || (!warning_only && (ok || !diag::has_errors(&diags))) {
            problems.push_str(&format!("{}: expected an error, got none\n", file.name));
        }
        let golden = path.with_extension("stderr");
        if bless {
            std::fs::write(&golden, &rendered).unwrap_or_else(|e| panic!("{e}"));
            continue;
        }
        let expected = std::fs::read_to_string(&golden).unwrap_or_default();
        if expected != rendered {
            problems.push_str(&format!(
                "{}: diagnostics differ from {}\n--- expected\n{expected}--- got\n{rendered}\n",
                file.name,
                golden.display()
            ));
        }
    }
    assert!(problems.is_empty(), "{problems}");
}
