//! Helpers shared by the checker's file-driven tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The repository root (tests run with the crate directory as the working directory).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every `*.ptx` file under `dir`, recursively, sorted for stable output.
pub fn ptx_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "ptx") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Reads a file as a `SourceFile` named by its path relative to the repository root, so
/// golden output does not depend on where the checkout lives.
pub fn load(path: &Path) -> diag::SourceFile {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let root = repo_root().canonicalize().unwrap_or_else(|_| repo_root());
    let abs = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    let name = abs
        .strip_prefix(&root)
        .map(|p| p.display().to_string())
        .unwrap_or_else(|_| path.display().to_string());
    diag::SourceFile::new(name, text)
}

/// Parse + check, returning the rendered diagnostics.
pub fn check_rendered(file: &diag::SourceFile) -> (bool, String, Vec<diag::Diagnostic>) {
    let (module, diags) = check::check_source(file);
    (module.is_some(), diag::render(file, &diags), diags)
}
