//! Shared by the tests that run NVIDIA's cubins: where they are, and launch-spec shorthands.
#![allow(dead_code)]

use exec::{ElemType, LaunchSpec, ParamSpec, RunResult};
use fermi::cubin::{AddressSize, Kernel, Module, Param};
use std::path::PathBuf;

/// `../shared/fermi/mgpu-sources` beside the repository (CI keeps `../shared` next to the
/// clone).
pub fn mgpu_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/fermi/mgpu-sources")
}

pub fn cubin(name: &str) -> Vec<u8> {
    let p = mgpu_dir().join(name);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Line `i` assembled at address `8 * i` (a kernel's code starts at 0). A line that does not
/// assemble is a mistake in the test, so it panics naming the line.
pub fn assemble<S: AsRef<str>>(lines: &[S]) -> Vec<u64> {
    lines
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let t = t.as_ref();
            fermi::isa::assemble_text(t, 8 * i as u64, &|_| None)
                .unwrap_or_else(|e| panic!("{t}: {e}"))
        })
        .collect()
}

/// The module the hand-written tests run: one kernel `k` over `code`, in 32-bit code, with
/// parameters of `param_sizes` bytes, each at its natural alignment from `c[0x0][0x20]` on.
/// Tests set the kernel's other fields (shared size, constant banks) on the result.
pub fn kernel_module(code: Vec<u64>, param_sizes: &[u32]) -> Module {
    let mut params = Vec::new();
    let mut end = 0u32;
    for &size in param_sizes {
        let offset = end.next_multiple_of(size);
        params.push(Param { offset, size });
        end = offset + size;
    }
    Module {
        address_size: AddressSize::Bits32,
        kernels: vec![Kernel {
            name: "k".into(),
            code,
            params,
            param_size: end,
            ..Default::default()
        }],
        ..Default::default()
    }
}

pub fn u32s(v: &[u32]) -> ParamSpec {
    ParamSpec::Buffer {
        ty: ElemType::U32,
        bytes: v.iter().flat_map(|x| x.to_le_bytes()).collect(),
    }
}

pub fn f32s(v: &[f32]) -> ParamSpec {
    ParamSpec::Buffer {
        ty: ElemType::F32,
        bytes: v.iter().flat_map(|x| x.to_le_bytes()).collect(),
    }
}

pub fn value_u32(v: u32) -> ParamSpec {
    ParamSpec::Value {
        ty: ElemType::U32,
        bytes: v.to_le_bytes().to_vec(),
    }
}

pub fn spec(kernel: &str, grid: u32, block: u32, params: Vec<ParamSpec>) -> LaunchSpec {
    LaunchSpec {
        kernel: Some(kernel.to_string()),
        grid: [grid, 1, 1],
        block: [block, 1, 1],
        shared_bytes: 0,
        params,
        textures: Vec::new(),
    }
}

pub fn run(file: &str, spec: &LaunchSpec) -> RunResult {
    fermi_exec::run_cubin(&cubin(file), spec, &fermi_exec::Options::default())
        .unwrap_or_else(|e| panic!("{}: {e}", spec.kernel.as_deref().unwrap_or("?")))
}

/// Buffer `param`'s words.
pub fn words(r: &RunResult, param: usize) -> Vec<u32> {
    let b = r
        .buffers
        .iter()
        .find(|b| b.param == param)
        .unwrap_or_else(|| panic!("no buffer for param {param}"));
    b.bytes()
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// A deterministic pseudo-random sequence (xorshift32), so inputs are varied but fixed.
pub fn xorshift(seed: u32, n: usize) -> Vec<u32> {
    let mut x = seed.max(1);
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        })
        .collect()
}
