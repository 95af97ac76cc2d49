#![no_main]
use libfuzzer_sys::fuzz_target;

// Parse + check + load + launch of arbitrary text: nothing may panic. Lowering and running are
// user-input-facing too (`ptxvm run` loads and launches whatever checks). Each kernel runs as
// two CTAs of 64 threads under a small step budget, every parameter pointing at (or holding the
// low bytes of the address of) a small zeroed buffer, so runaway loops end as a step-budget fault.
fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let file = diag::SourceFile::new("fuzz.ptx", text);
        let (module, diags) = check::check_source(&file);
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
                progress: None,
            };
            let _ = device.launch(&loaded, &name, &cfg, &args, &opts);
        }
    }
});
