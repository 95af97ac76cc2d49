#![no_main]
//! The cubin-run path of `ptxvm run k.cubin` (the Fermi executor): the first byte picks what
//! the rest is. 0: a whole cubin, launched with a fixed spec; otherwise: the code words of a
//! 32-bit kernel with one buffer parameter. Either way the launch returns results or a
//! classified error (bad cubin, bad launch, kernel fault), never a panic or a hang.
use exec::{ElemType, LaunchSpec, ParamSpec};
use fermi::cubin::{AddressSize, Kernel, Module, Param};
use libfuzzer_sys::fuzz_target;

fn spec(kernel: Option<&str>) -> LaunchSpec {
    LaunchSpec {
        kernel: kernel.map(str::to_string),
        grid: [2, 1, 1],
        block: [40, 1, 1],
        shared_bytes: 0,
        params: vec![ParamSpec::Buffer {
            ty: ElemType::U32,
            bytes: vec![7; 256],
        }],
        textures: Vec::new(),
    }
}

fuzz_target!(|data: &[u8]| {
    let opts = fermi_exec::Options {
        threads: 1,
        max_steps: 10_000,
        progress: None,
    };
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    if mode == 0 {
        let _ = fermi_exec::run_cubin(rest, &spec(None), &opts);
        return;
    }
    let code = rest
        .chunks_exact(8)
        .map(|c| fermi::isa::listing_from_bytes(c.try_into().unwrap_or([0; 8])))
        .collect();
    let module = Module {
        address_size: AddressSize::Bits32,
        kernels: vec![Kernel {
            name: "k".into(),
            code,
            params: vec![Param { offset: 0, size: 4 }],
            param_size: 4,
            shared_size: u32::from(mode) * 16,
            // The input's first bytes double as a jump table in c[0x10] for BRX.
            constants: vec![(16, rest.iter().take(64).copied().collect())],
            ..Default::default()
        }],
        constants: vec![(14, vec![0; 16])],
        ..Default::default()
    };
    let _ = fermi_exec::run_module(&module, &spec(Some("k")), &opts);
});
