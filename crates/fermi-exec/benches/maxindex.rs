//! Executor speed: NVIDIA's FindMaxIndexLoop (`../shared/fermi/mgpu-sources/maxindex.cubin`)
//! over 4 Mi floats in 64 CTAs of 256 threads, as docs/fermi-exec.md reports it. Prints
//! thread-instructions per second, the best of three runs. Correctness is the tests' business;
//! this only checks that the run succeeds.

use exec::{ElemType, LaunchSpec, ParamSpec};
use std::path::PathBuf;

fn buffer(ty: ElemType, bytes: Vec<u8>) -> ParamSpec {
    ParamSpec::Buffer { ty, bytes }
}

fn main() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/fermi/mgpu-sources/maxindex.cubin");
    let Ok(cubin) = std::fs::read(&path) else {
        eprintln!("{}: not found; nothing to measure", path.display());
        return;
    };
    let n: u32 = 4 << 20;
    let blocks: u32 = 64;
    let data: Vec<u8> = (0..n)
        .flat_map(|i| ((i.wrapping_mul(2_654_435_761) >> 8) as f32).to_le_bytes())
        .collect();
    let per = n / blocks;
    let ranges: Vec<u8> = (0..blocks)
        .flat_map(|b| [b * per, (b + 1) * per])
        .flat_map(u32::to_le_bytes)
        .collect();
    let spec = LaunchSpec {
        kernel: Some("FindMaxIndexLoop".into()),
        grid: [blocks, 1, 1],
        block: [256, 1, 1],
        shared_bytes: 0,
        params: vec![
            buffer(ElemType::F32, data),
            buffer(ElemType::F32, vec![0; 4 * blocks as usize]),
            buffer(ElemType::U32, vec![0; 4 * blocks as usize]),
            buffer(ElemType::U32, ranges),
        ],
        textures: Vec::new(),
    };
    let mut best = f64::INFINITY;
    let mut insts = 0;
    for _ in 0..3 {
        let t = std::time::Instant::now();
        let r = fermi_exec::run_cubin(&cubin, &spec, &fermi_exec::Options::default());
        let s = t.elapsed().as_secs_f64();
        match r {
            Ok(r) => insts = r.instructions,
            Err(e) => {
                eprintln!("FindMaxIndexLoop failed: {e}");
                std::process::exit(1);
            }
        }
        best = best.min(s);
    }
    println!(
        "FindMaxIndexLoop, 4 Mi floats: {insts} thread-instructions in {best:.3} s = {:.1} M/s",
        insts as f64 / best / 1e6
    );
}
