//! What the sanitizer tests share: running one `kernel(out: *u32)` under the sanitizer.
// Each test crate uses part of this.
#![allow(dead_code)]

use exec::sanitize::{Finding, Sanitizer};
use exec::{Arg, Device, ExecError, LaunchConfig, RunOptions};

/// Lowest device address (memory.rs `FIRST_BASE`): the first buffer starts here.
pub const FIRST_BASE: u64 = 0x1_0000;

pub struct Outcome {
    pub result: Result<(), ExecError>,
    pub findings: Vec<Finding>,
    /// The buffer after the launch.
    pub out: Vec<u32>,
}

/// Run `kernel(out: *u32)` of `text` over `grid` CTAs of `block` threads with one zeroed
/// buffer of `n` u32 (`uninit`: registered as never written by the host), one worker, at
/// most `max_steps` instructions per warp.
pub fn run_with(
    text: &str,
    grid: u32,
    block: u32,
    n: u64,
    uninit: bool,
    max_steps: u64,
) -> Outcome {
    let src = diag::SourceFile::new("san.ptx", text);
    let (m, diags) = check::check_source(&src);
    assert!(
        !diags.iter().any(|d| d.is_error()),
        "{}",
        diag::render(&src, &diags)
    );
    let mut dev = Device::new();
    let module = dev.load(&m.expect("checked"), &src).expect("loads");
    let out = dev.alloc(n * 4).expect("alloc");
    assert_eq!(out.0, FIRST_BASE);
    let san = Sanitizer::new();
    if uninit {
        san.track_uninitialised(out.0, n * 4);
    }
    let cfg = LaunchConfig {
        grid: [grid, 1, 1],
        block: [block, 1, 1],
        ..LaunchConfig::default()
    };
    let opts = RunOptions {
        threads: 1,
        max_steps,
        sanitize: Some(&san),
        ..RunOptions::default()
    };
    let result = dev
        .launch(&module, "k", &cfg, &[Arg::ptr(out)], &opts)
        .map(|_| ());
    let bytes = dev.read(out, n * 4).expect("read back");
    Outcome {
        result,
        findings: san.findings(),
        out: bytes
            .chunks(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect(),
    }
}

/// The 1-based line of `text` that contains `marker`.
pub fn line_of(text: &str, marker: &str) -> u32 {
    text.lines()
        .position(|l| l.contains(marker))
        .unwrap_or_else(|| panic!("no `{marker}`")) as u32
        + 1
}
