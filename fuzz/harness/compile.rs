//! The `compile` fuzz target's body, shared by the fuzz target (`fuzz/fuzz_targets/compile.rs`)
//! and the regression driver (`crates/ptxvm/tests/fuzz_regressions.rs`) through `#[path]`.
//!
//! `ptxvm compile` takes user PTX: whatever checks goes to the translator, which must answer
//! with code or with errors naming instructions, never a panic or a hang. What it produces must
//! hold to the promise that every emitted word disassembles and re-assembles to
//! itself, must write as a cubin that reads back, and must run on the Fermi executor to
//! results or a classified fault.

/// Inputs without a `.version` directive are instruction lines placed in the `check`
/// harness's kernel (its registers, buffers and parameters), retargeted to `.target sm_20` so
/// nothing is refused for its target alone.
pub fn prologue() -> String {
    let header = ".version 7.8\n.target sm_80\n";
    assert!(crate::check_harness::PROLOGUE.starts_with(header));
    crate::check_harness::PROLOGUE.replacen(header, ".version 7.0\n.target sm_20\n", 1)
}
pub use crate::check_harness::EPILOGUE;

pub fn fuzz_compile(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if text.contains(".version") {
        compile_and_run(text);
    } else {
        compile_and_run(&format!("{}{text}{EPILOGUE}", prologue()));
    }
}

fn compile_and_run(text: &str) {
    let file = diag::SourceFile::new("fuzz.ptx", text);
    let (module, diags) = check::check_source(&file);
    let Some(module) = module else { return };
    if diag::has_errors(&diags) {
        return;
    }
    let compiled = match codegen::compile_module(&module, &file) {
        Ok(c) => c,
        Err(errors) => {
            assert!(!errors.is_empty(), "a refused translation must say why");
            let _ = diag::render(&file, &errors);
            return;
        }
    };
    if let Err(m) = fermi::verify::words_round_trip(&compiled.cubin) {
        panic!("{m}");
    }
    let Ok(bytes) = fermi::cubin::write_cubin(&compiled.cubin) else {
        return;
    };
    let read = fermi::cubin::read_cubin(&bytes);
    assert!(
        read.is_ok(),
        "an emitted cubin does not read back: {read:?}"
    );
    let opts = fermi_exec::Options {
        threads: 1,
        max_steps: 2000,
        progress: None,
    };
    for k in compiled.cubin.kernels.iter().take(4) {
        // Pointer-sized parameters get a buffer, the others a small value.
        let params = k
            .params
            .iter()
            .map(|p| match p.size {
                8 => exec::ParamSpec::Buffer {
                    ty: exec::ElemType::U32,
                    bytes: vec![0; 4096],
                },
                n => exec::ParamSpec::Value {
                    ty: exec::ElemType::U32,
                    bytes: vec![3; n.min(4096) as usize],
                },
            })
            .collect();
        let spec = exec::LaunchSpec {
            kernel: Some(k.name.clone()),
            grid: [2, 1, 1],
            block: [64, 1, 1],
            shared_bytes: 0,
            params,
            textures: Vec::new(),
        };
        let _ = fermi_exec::run_module(&compiled.cubin, &spec, &opts);
    }
}
