//! The `compile_diff` fuzz target's body: translation must never produce wrong code. Whatever
//! checks, runs clean under the sanitizer on the PTX executor (no fault, no race, no read of
//! an uninitialised register or byte, no divergent barrier) and translates, must give the same
//! buffers, bit for bit, on the Fermi executor.
//!
//! Programs whose results depend on more than their inputs are left out: atomics (the order
//! of their returned values), clocks, timers, performance counters, and the special registers
//! that name hardware units or report sizes the two layouts may differ in.

use crate::compile_harness::{prologue, EPILOGUE};

const NONDETERMINISTIC: &[&str] = &[
    "atom",
    "red.",
    "%clock",
    "timer",
    "%pm",
    "%smid",
    "%nsmid",
    "%warpid",
    "%nwarpid",
    "%gridid",
    "smem_size",
    "%envreg",
    "%reserved",
    "tex",
    "txq",
    "suld",
    "sust",
    "sured",
    "suq",
    "activemask",
    "nanosleep",
    "%lanemask",
    "vote",
    "brkpt",
    "pmevent",
];

/// The launch both executors run: 2 CTAs of 48 threads (a full warp and a partial one), an
/// input buffer of distinct words at `p`, `n` = 5, `x` = 1.5 (the prologue's parameters).
fn spec(kernel: &str, params: &[u32]) -> Option<exec::LaunchSpec> {
    let mut out = Vec::new();
    for &size in params {
        out.push(match size {
            8 => exec::ParamSpec::Buffer {
                ty: exec::ElemType::U32,
                bytes: (0..1024u32)
                    .flat_map(|i| i.wrapping_mul(0x9e37_79b9).to_le_bytes())
                    .collect(),
            },
            4 => exec::ParamSpec::Value {
                ty: exec::ElemType::U32,
                bytes: if out.len() == 2 {
                    1.5f32.to_le_bytes().to_vec()
                } else {
                    5u32.to_le_bytes().to_vec()
                },
            },
            _ => return None,
        });
    }
    Some(exec::LaunchSpec {
        kernel: Some(kernel.to_string()),
        grid: [2, 1, 1],
        block: [48, 1, 1],
        shared_bytes: 0,
        params: out,
        textures: Vec::new(),
    })
}

/// Returns how many kernels were compared (the regression driver checks that its controls are).
pub fn fuzz_compile_diff(data: &[u8]) -> usize {
    let Ok(text) = std::str::from_utf8(data) else {
        return 0;
    };
    if NONDETERMINISTIC.iter().any(|w| text.contains(w)) {
        return 0;
    }
    if text.contains(".version") {
        differential(text)
    } else {
        differential(&format!("{}{text}{EPILOGUE}", prologue()))
    }
}

fn differential(text: &str) -> usize {
    let file = diag::SourceFile::new("fuzz.ptx", text);
    let (module, diags) = check::check_source(&file);
    let Some(module) = module else { return 0 };
    if diag::has_errors(&diags) {
        return 0;
    }
    let Ok(compiled) = codegen::compile_module(&module, &file) else {
        return 0;
    };
    let mut compared = 0;
    for k in compiled.cubin.kernels.iter().take(2) {
        let sizes: Vec<u32> = k.params.iter().map(|p| p.size).collect();
        let Some(spec) = spec(&k.name, &sizes) else {
            continue;
        };
        let san = exec::sanitize::Sanitizer::new();
        let opts = exec::RunOptions {
            threads: 1,
            max_steps: 4000,
            sanitize: Some(&san),
            ..Default::default()
        };
        let Ok(ptx) = exec::run(&module, &file, &spec, &opts) else {
            continue;
        };
        if !san.findings().is_empty() {
            continue;
        }
        // Translated code runs more instructions than the PTX it came from.
        let fopts = fermi_exec::Options {
            threads: 1,
            max_steps: 400_000,
            progress: None,
        };
        let sass = match fermi_exec::run_module(&compiled.cubin, &spec, &fopts) {
            Ok(r) => r,
            // A translation can take many instructions per PTX one (`div.u64` is a loop of
            // hundreds): running out of steps says nothing about its correctness.
            Err(fermi_exec::RunError::Fault(f))
                if matches!(f.kind, fermi_exec::FaultKind::StepBudget { .. }) =>
            {
                continue
            }
            Err(e) => panic!(
                "{}: the PTX ran clean, its translation failed: {e:?}",
                k.name
            ),
        };
        assert_eq!(ptx.buffers.len(), sass.buffers.len(), "{}: buffers", k.name);
        for (a, b) in ptx.buffers.iter().zip(&sass.buffers) {
            assert!(
                a.bytes() == b.bytes(),
                "{}: parameter {} differs between the PTX and its translation",
                k.name,
                a.param
            );
        }
        compared += 1;
    }
    compared
}
