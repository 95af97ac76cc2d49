//! Every PTX file that must be valid checks without errors: the wrapped spec examples
//! (`tests/spec-examples/**`), the corpus (`tests/corpus/**`), `examples/*.ptx`, and the
//! executor's run tests and benchmark kernels (`tests/run/**`, `tests/kernels/**`).

mod common;

use common::{check_rendered, load, ptx_files, repo_root};

fn assert_all_valid(dir: &str, min_files: usize) {
    let files = ptx_files(&repo_root().join(dir));
    assert!(
        files.len() >= min_files,
        "expected at least {min_files} .ptx files under {dir}, found {}",
        files.len()
    );
    let mut failures = String::new();
    for path in &files {
        let file = load(path);
        let (ok, rendered, diags) = check_rendered(&file);
        if !ok || diag::has_errors(&diags) {
            failures.push_str(&rendered);
        }
    }
    assert!(failures.is_empty(), "errors in valid files:\n{failures}");
}

#[test]
fn spec_examples_check_cleanly() {
    assert_all_valid("tests/spec-examples", 1);
}

#[test]
fn corpus_checks_cleanly() {
    assert_all_valid("tests/corpus", 1);
}

#[test]
fn examples_check_cleanly() {
    assert_all_valid("examples", 1);
}

#[test]
fn run_tests_and_kernels_check_cleanly() {
    assert_all_valid("tests/run", 0);
    assert_all_valid("tests/kernels", 0);
}
