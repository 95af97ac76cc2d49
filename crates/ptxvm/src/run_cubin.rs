//! `ptxvm run k.cubin`: runs a kernel of an NVIDIA sm_20 cubin on the Fermi executor
//! (`fermi-exec`) with the same launch spec, outputs and exit codes as a PTX run.

use crate::exit::Exit;
use exec::LaunchSpec;
use fermi_exec::{Options, RunError};
use std::io::Write;
use std::path::Path;

/// Largest cubin accepted (NVIDIA's are kilobytes to a few megabytes).
const MAX_CUBIN_BYTES: u64 = 256 << 20;

/// Whether `path` names a cubin: a `.cubin` file, or any file that starts with the ELF magic.
pub fn is_cubin(path: &Path) -> bool {
    if path.extension().is_some_and(|e| e == "cubin") {
        return true;
    }
    let mut magic = [0u8; 4];
    std::fs::File::open(path)
        .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut magic))
        .is_ok()
        && magic == *b"\x7fELF"
}

/// What `ptxvm run` passes on for a cubin.
pub struct CubinRun<'a> {
    pub file: &'a Path,
    pub spec: LaunchSpec,
    pub kernel: Option<&'a str>,
    pub json: bool,
    pub out: Option<&'a Path>,
    pub threads: usize,
    pub max_steps: u64,
}

pub fn run(r: CubinRun<'_>) -> Exit {
    let bytes = match crate::input::read_bytes(r.file, MAX_CUBIN_BYTES) {
        Ok(b) => b,
        Err(code) => return code,
    };
    let mut spec = r.spec;
    if let Some(k) = r.kernel {
        spec.kernel = Some(k.to_string());
    }
    let opts = Options {
        threads: r.threads,
        max_steps: r.max_steps,
        progress: None,
    };
    let result = match fermi_exec::run_cubin(&bytes, &spec, &opts) {
        Ok(res) => res,
        Err(e) => {
            match &e {
                RunError::Cubin(_) => crate::error(format!("{}: {e}", r.file.display())),
                _ => crate::error(&e),
            }
            return match e.exit_code() {
                3 => Exit::Fault,
                2 => Exit::Usage,
                _ => Exit::Invalid,
            };
        }
    };
    if let Some(dir) = r.out {
        if let Err(e) = result.write_out(dir) {
            crate::error(format!("cannot write buffers to {}: {e}", dir.display()));
            return Exit::Usage;
        }
    }
    let text = if r.json {
        result.to_json() + "\n"
    } else {
        result.summary()
    };
    if std::io::stdout().lock().write_all(text.as_bytes()).is_err() {
        return Exit::Usage;
    }
    Exit::Ok
}
