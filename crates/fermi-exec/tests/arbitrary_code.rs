//! Whatever the code, the executor returns a result or a fault: random words, and NVIDIA's
//! kernels with bits flipped, run under a small step budget without a panic or a hang.

mod common;
use common::*;
use fermi::cubin::{Kernel, Module};
use fermi_exec::{run_module, Options, RunError};

fn module(code: Vec<u64>) -> Module {
    let mut m = kernel_module(code, &[4]);
    m.kernels[0].shared_size = 256;
    m
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

/// Instructions that decode, in random order with random registers and guards: the words of
/// NVIDIA's listings plus the forms added later (condition codes, partial barriers,
/// `BAR.ARV`, `LDLK`/`STUL`, `P2R`/`R2P`, indirect `BRA`), so that the executor's paths past
/// decoding are the ones exercised (random words rarely decode).
#[test]
fn random_valid_instructions_never_panic() {
    let listing = include_str!("../../fermi/tests/data/cuobjdump_sm20.txt");
    let mut pool: Vec<u64> = listing
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split(' ').nth(2))
        .filter_map(|h| u64::from_str_radix(h.trim_start_matches("0x"), 16).ok())
        .collect();
    pool.sort_unstable();
    pool.dedup();
    let extra = [
        "IADD RZ.CC, R4, -R5;",
        "IADD.X R6.CC, R4, R5;",
        "BRA CC.LT, 0x10;",
        "BRA CC.HI, c [0x10] [R4+0x0];",
        "EXIT CC.NE;",
        "BRK CC.OFT;",
        "RET CC.GE;",
        "BAR.ARV 0x1, 0x40;",
        "BAR.RED.POPC 0x1, 0x40;",
        "BAR.RED.AND RZ, P1, 0x2, 0x20, P0;",
        "BAR.RED.POPC R3, R4;",
        "LDLK P0, R5, [R2];",
        "STUL [R2], R5;",
        "P2R R4, PR, RZ, 0xf07f;",
        "R2P PR, R4, 0xf07f;",
        "SSY 0x20;",
        "PBK 0x28;",
        "CAL 0x18;",
    ];
    let extra: Vec<u64> = extra
        .iter()
        .map(|t| fermi::isa::assemble_text(t, 0, &|_| None).unwrap_or_else(|e| panic!("{t}: {e}")))
        .collect();
    let exit = fermi::isa::assemble_text("EXIT;", 0, &|_| None).unwrap();
    let r = xorshift(0x5eed_c0de, 600 * 12 * 3);
    let (mut ok, mut faulted) = (0, 0);
    for k in r.chunks_exact(12 * 3) {
        // 1 to 12 instructions, then EXIT.
        let n = 1 + k[0] as usize % 12;
        let mut code: Vec<u64> = k
            .chunks_exact(3)
            .take(n)
            .map(|v| {
                // Half the picks from the later forms, which the listings lack.
                let w = if v[0] % 2 == 0 {
                    extra[v[0] as usize / 2 % extra.len()]
                } else {
                    pool[v[0] as usize % pool.len()]
                };
                // The guard, the destination and part of the first source (instruction bits
                // 10-23, which a listing word holds at 42-55).
                let bits = (u64::from(v[1]) & 0x3fff) << 42;
                let m = w ^ bits;
                let mutated = if v[2] % 3 == 0 { w } else { m };
                if fermi::isa::decode(mutated).is_ok() {
                    mutated
                } else {
                    w
                }
            })
            .collect();
        code.push(exit);
        match launch(&module(code)) {
            Ok(_) => ok += 1,
            Err(RunError::Fault(_)) => faulted += 1,
            Err(e) => panic!("not a fault: {e}"),
        }
    }
    // Both outcomes occur (and none panicked).
    assert!(ok > 0 && faulted > 0, "{ok} ok, {faulted} faulted");
}
