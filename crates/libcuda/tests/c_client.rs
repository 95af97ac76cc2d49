//! Builds `tests/c/driver_test.c` with gcc against `include/cuda.h`, links it to the
//! `libcuda.so` cargo built for this test run, and runs it: the C program calls every
//! tier-1 function and its error paths and checks results computed on the host.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The cdylib of this crate from the same build as this test executable
/// (`target/<profile>/deps/libcuda.so`, or the copy cargo places one level up).
fn built_library() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    let deps = exe.parent().expect("deps directory");
    for dir in [deps, deps.parent().unwrap_or(deps)] {
        let p = dir.join("libcuda.so");
        if p.is_file() {
            return p;
        }
    }
    panic!("libcuda.so not found next to {}", exe.display());
}

/// A fresh scratch directory for this test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ptxvm-libcuda-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch directory");
    dir
}

/// Put the library in `dir` under the soname the client links against.
fn install_library(dir: &Path) {
    let lib = built_library();
    std::fs::copy(&lib, dir.join("libcuda.so.1")).expect("copy libcuda.so.1");
    std::fs::copy(&lib, dir.join("libcuda.so")).expect("copy libcuda.so");
}

/// Compile `tests/c/<source>` against include/cuda.h and the built library in `dir`.
fn build_client(dir: &Path, source: &str) -> PathBuf {
    build_client_with(dir, source, &[])
}

/// [`build_client`] with extra compiler flags (`-D…`).
fn build_client_with(dir: &Path, source: &str, flags: &[&str]) -> PathBuf {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    install_library(dir);
    let exe = dir.join(source.trim_end_matches(".c"));
    let gcc = Command::new("gcc")
        .args(flags)
        .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-I"])
        .arg(crate_dir.join("include"))
        .arg(crate_dir.join("tests/c").join(source))
        .arg("-o")
        .arg(&exe)
        .arg("-L")
        .arg(dir)
        .args(["-lcuda", "-lpthread"])
        // RPATH, not RUNPATH: the library of this build wins over any libcuda.so.1 on
        // LD_LIBRARY_PATH (cargo puts its target directories there for tests).
        .arg(format!("-Wl,--disable-new-dtags,-rpath,{}", dir.display()))
        .output()
        .expect("gcc must be installed to build the C clients");
    assert!(
        gcc.status.success(),
        "gcc failed on {source}:\n{}",
        String::from_utf8_lossy(&gcc.stderr)
    );
    exe
}

/// Run a C client; its stdout must start with "ok". Returns its stderr.
fn run_client(exe: &Path, args: &[&std::ffi::OsStr]) -> String {
    run_client_with(exe, args, false)
}

/// [`run_client`], with `PTXVM_CUDA_LOG` set when `log` is.
fn run_client_with(exe: &Path, args: &[&std::ffi::OsStr], log: bool) -> String {
    let mut cmd = Command::new(exe);
    cmd.args(args)
        .env_remove("PTXVM_CUDA_LOG")
        .env_remove("LD_LIBRARY_PATH");
    if log {
        cmd.env("PTXVM_CUDA_LOG", "1");
    }
    let run = cmd.output().expect("run the C client");
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr).into_owned();
    assert!(
        run.status.success() && stdout.starts_with("ok "),
        "C client {} failed ({}):\n{stdout}\n{stderr}",
        exe.display(),
        run.status
    );
    stderr
}

#[test]
fn c_client_exercises_every_tier1_call() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = scratch("c-client");
    let exe = build_client(&dir, "driver_test.c");
    let kernels = crate_dir.join("tests/c/kernels.ptx");
    let stderr = run_client(&exe, &[kernels.as_os_str(), dir.as_os_str()]);
    // The faulting launch printed ptxvm's report naming the kernel, line and thread.
    assert!(
        stderr.contains("kernel `oob` faulted at") && stderr.contains("tid=(0,0,0)"),
        "no fault report on stderr:\n{stderr}"
    );
    // Without PTXVM_CUDA_LOG an unimplemented function is silent; with it, it names itself
    // once, and a rejected module's diagnostics are shown.
    assert!(!stderr.contains("not implemented"), "{stderr}");
    let logged = run_client_with(&exe, &[kernels.as_os_str(), dir.as_os_str()], true);
    assert_eq!(
        logged
            .matches("cuGraphCreate is not implemented (CUDA_ERROR_NOT_SUPPORTED)")
            .count(),
        1,
        "{logged}"
    );
    assert!(logged.contains("frobnicate"), "{logged}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Built with `CUDA_API_PER_THREAD_DEFAULT_STREAM`, the same program calls the `_ptds`/`_ptsz`
/// entry points (copies, sets, streams, events, launches) and must pass the same checks.
#[test]
fn c_client_runs_with_the_per_thread_default_stream() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = scratch("c-client-ptds");
    let exe = build_client_with(
        &dir,
        "driver_test.c",
        &["-DCUDA_API_PER_THREAD_DEFAULT_STREAM"],
    );
    // The program really links against the per-thread entry points.
    let syms = Command::new("nm")
        .args(["-u"])
        .arg(&exe)
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default();
    for entry in [
        "cuLaunchKernel_ptsz",
        "cuMemcpyHtoD_v2_ptds",
        "cuStreamSynchronize_ptsz",
    ] {
        assert!(syms.contains(entry), "{entry} not referenced:\n{syms}");
    }
    let kernels = crate_dir.join("tests/c/kernels.ptx");
    run_client(&exe, &[kernels.as_os_str(), dir.as_os_str()]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn c_client_links_and_launches_through_tier2() {
    let dir = scratch("c-tier2");
    let exe = build_client(&dir, "tier2_test.c");
    run_client(&exe, &[]);
    let _ = std::fs::remove_dir_all(&dir);
}
