//! The `check` fuzz target's body, shared by the fuzz target (`fuzz/fuzz_targets/check.rs`) and
//! the regression driver (`crates/ptxvm/tests/fuzz_regressions.rs`) through `#[path]`, so a
//! replayed input takes exactly the path the fuzzer took.

/// Inputs without a `.version` directive are instruction lines: they go inside this kernel,
/// whose registers, buffers and parameters they can use, so mutations reach the checker's
/// instruction rules and the executor instead of stopping at a missing module header.
pub const PROLOGUE: &str = ".version 7.8\n.target sm_80\n.address_size 64\n\
.visible .entry k(.param .u64 p, .param .u32 n, .param .f32 x)\n{\n\
.reg .pred %p<8>;\n.reg .b16 %h<8>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<16>;\n\
.reg .f32 %f<16>;\n.reg .f64 %fd<8>;\n.shared .align 8 .b8 sh[256];\n.local .align 8 .b8 lo[64];\n\
ld.param.u64 %rd1, [p];\nld.param.u32 %r1, [n];\nld.param.f32 %f1, [x];\n\
mov.u32 %r2, %tid.x;\n";
pub const EPILOGUE: &str = "\nret;\n}\n";

/// Parse + check + load + launch of arbitrary text: nothing may panic. Lowering and running are
/// user-input-facing too (`ptxvm run` loads and launches whatever checks). Each kernel runs as
/// two CTAs of 64 threads under a small step budget, every parameter pointing at (or holding
/// the low bytes of the address of) a small zeroed buffer, so runaway loops end as a
/// step-budget fault.
pub fn fuzz_check(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if text.contains(".version") {
        check_and_run(text);
    } else {
        check_and_run(&format!("{PROLOGUE}{text}{EPILOGUE}"));
    }
}

fn check_and_run(text: &str) {
    let file = diag::SourceFile::new("fuzz.ptx", text);
    let (module, diags) = check::check_source(&file);
    // `ptxvm check` drops each body's IR as it goes; it must find exactly the same problems.
    assert_eq!(check::diagnose_source(&file), diags);
    let _ = diag::render(&file, &diags);
    let Some(module) = module else { return };
    let mut device = exec::Device::new();
    let Ok(loaded) = device.load(&module, &file) else {
        return;
    };
    let Ok(buf) = device.alloc(4096) else { return };
    let names: Vec<String> = loaded
        .program
        .kernels
        .iter()
        .take(4)
        .map(|k| loaded.program.kernel_name(k).to_string())
        .collect();
    for name in names {
        let Some(k) = loaded.program.kernel(&name) else {
            continue;
        };
        let args: Vec<exec::Arg> = k
            .params
            .iter()
            .map(|p| {
                let mut bytes = buf.0.to_le_bytes().to_vec();
                bytes.resize(p.size.min(4096) as usize, 0);
                exec::Arg(bytes)
            })
            .collect();
        let cfg = exec::LaunchConfig {
            grid: [2, 1, 1],
            block: [64, 1, 1],
            ..Default::default()
        };
        let opts = exec::RunOptions {
            threads: 1,
            max_steps: 2000,
            ..Default::default()
        };
        let _ = device.launch(&loaded, &name, &cfg, &args, &opts);
    }
}
