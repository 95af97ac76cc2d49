//! Whatever the code, the executor returns a result or a fault: random words, and NVIDIA's
//! kernels with bits flipped, run under a small step budget without a panic or a hang.

mod common;
use common::*;
use fermi::cubin::{AddressSize, Kernel, Module, Param};
use fermi_exec::{run_module, Options, RunError};

fn module(code: Vec<u64>) -> Module {
    Module {
        address_size: AddressSize::Bits32,
        kernels: vec![Kernel {
            name: "k".into(),
            code,
            params: vec![Param { offset: 0, size: 4 }],
            param_size: 4,
            shared_size: 256,
            ..Default::default()
        }],
        ..Default::default()
    }
}

fn launch(m: &Module) -> Result<exec::RunResult, RunError> {
    let s = spec("k", 2, 40, vec![u32s(&[7; 64])]);
    run_module(
        m,
        &s,
        &Options {
            threads: 1,
            max_steps: 2000,
            progress: None,
        },
    )
}

#[test]
fn random_words_never_panic() {
    let r = xorshift(0x0bad_5eed, 2 * 24 * 300);
    let mut faults = 0;
    for k in r.chunks_exact(48) {
        let code: Vec<u64> = k
            .chunks_exact(2)
            .map(|w| u64::from(w[0]) << 32 | u64::from(w[1]))
            .collect();
        if launch(&module(code)).is_err() {
            faults += 1;
        }
    }
    // Random words rarely decode: nearly every kernel faults (and none panicked).
    assert!(faults > 250, "{faults}");
}

#[test]
fn mutated_nvidia_kernels_never_panic() {
    let bytes = cubin("mgpuscan-mgpuscan.cubin");
    let real = fermi::cubin::read_cubin(&bytes).unwrap();
    let flips = xorshift(42, 4000);
    // Small buffer contents, so that ranges and counts read from them stay short.
    let contents: Vec<u32> = xorshift(7, 256).iter().map(|x| x % 300).collect();
    for (n, k) in real.kernels.iter().enumerate() {
        for t in 0..30 {
            let mut code = k.code.clone();
            for j in 0..3 {
                let f = flips[(n * 90 + t * 3 + j) % flips.len()] as usize;
                let i = f % code.len();
                code[i] ^= 1 << (f / code.len() % 64);
            }
            let m = Module {
                kernels: vec![Kernel { code, ..k.clone() }],
                ..real.clone()
            };
            let params = k.params.iter().map(|_| u32s(&contents)).collect();
            let s = spec(&k.name, 2, 64, params);
            // Any result or fault will do; a panic fails the test.
            let opts = Options {
                threads: 1,
                max_steps: 5000,
                progress: None,
            };
            let _ = run_module(&m, &s, &opts);
        }
    }
}
