//! `tests/spec-reject/*.ptx`: every line ending in `// error` gets at least one error on that
//! line, and no other line gets an error.

mod common;

use common::{load, ptx_files, repo_root};
use std::collections::BTreeSet;

#[test]
fn spec_reject_lines_and_only_those_are_errors() {
    let files = ptx_files(&repo_root().join("tests/spec-reject"));
    assert!(!files.is_empty(), "no files under tests/spec-reject");
    let mut problems = String::new();
    let mut marked_total = 0;
    for path in &files {
        let file = load(path);
        let marked: BTreeSet<usize> = file
            .text
            .lines()
            .enumerate()
            .filter(|(_, l)| l.trim_end().ends_with("// error"))
            .map(|(i, _)| i + 1)
            .collect();
        marked_total += marked.len();
        let (_, diags) = check::check_source(&file);
        let got: BTreeSet<usize> = diags
            .iter()
            .filter(|d| d.is_error())
            .map(|d| file.line_col(d.span.start).0)
            .collect();
        for line in marked.difference(&got) {
            problems.push_str(&format!(
                "{}:{line}: expected an error, got none: {}\n",
                file.name,
                file.line_text(*line).trim()
            ));
        }
        for line in got.difference(&marked) {
            let msgs: Vec<&str> = diags
                .iter()
                .filter(|d| d.is_error() && file.line_col(d.span.start).0 == *line)
                .map(|d| d.message.as_str())
                .collect();
            problems.push_str(&format!(
                "{}:{line}: unexpected error(s) {msgs:?}: {}\n",
                file.name,
                file.line_text(*line).trim()
            ));
        }
    }
    assert!(marked_total > 0, "no `// error` lines found");
    assert!(problems.is_empty(), "{problems}");
}
