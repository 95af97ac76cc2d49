//! Helpers shared by the CLI tests: run the `ptxvm` binary from the repository root, and a
//! scratch directory per test binary.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// `ptxvm ARGS…` run from the repository root (so paths like `examples/…` work).
pub fn ptxvm(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ptxvm"))
        .args(args)
        .current_dir(repo_root())
        .output()
        .expect("the ptxvm binary runs")
}

pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A directory of this process's own under the system temp directory, named after `tag`.
pub fn scratch_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ptxvm-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}
