//! The CPU executor: runs checked PTX modules bit-exactly, a warp at a time.
//!
//! A checked [`ir::Module`] is lowered once into a decoded [`program::Program`] (register
//! slots, instruction indices, decoded modifiers). A launch runs every CTA of the grid on a
//! local rayon pool; inside a CTA, warps run cooperatively until a barrier or exit, and each
//! decoded instruction runs over the 32 lanes of a warp in one tight loop over a
//! structure-of-arrays register file. Faults (out-of-bounds, misaligned, `trap`, barrier
//! deadlock, step budget) are values: [`ExecError`].
//!
//! For `ptxvm run`: [`LaunchSpec::from_json`] / [`LaunchSpec::from_flags`] parse the launch
//! description (errors are [`SpecError`]s naming the field), [`run`] loads a checked module,
//! allocates the buffers, launches and reads them back into a [`RunResult`]
//! ([`RunResult::to_json`], [`RunResult::summary`], [`RunResult::write_out`]);
//! [`ExecError::exit_code`] gives the process exit code (3 for a fault, 2 for a bad launch,
//! 1 for an instruction the executor cannot run). [`RunOptions::progress`] and
//! [`RunOptions::ctas_done`] are incremented while the launch runs, for a progress bar;
//! [`RunOptions::timeout`] bounds its wall-clock time and [`RunOptions::mem_limit`] the device
//! memory [`run`] may allocate.
//!
//! ```
//! use exec::{Arg, Device, LaunchConfig, RunOptions};
//! use exec::program::*;
//!
//! // A hand-built kernel `out[tid] = tid * 3` (normally `Device::load` lowers checked PTX).
//! let prog = exec::build::demo_triple_kernel();
//! let mut dev = Device::new();
//! let module = dev.load_program(prog);
//! let out = dev.alloc(64 * 4).unwrap();
//! let cfg = LaunchConfig { grid: [1, 1, 1], block: [64, 1, 1], ..LaunchConfig::default() };
//! dev.launch(&module, "triple", &cfg, &[Arg::ptr(out)], &RunOptions::default()).unwrap();
//! let bytes = dev.read(out, 64 * 4).unwrap();
//! let words: Vec<u32> = bytes.chunks(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect();
//! assert_eq!(words, (0..64).map(|t| t * 3).collect::<Vec<u32>>());
//! ```

mod arith;
pub mod build;
mod calls;
mod collective;
mod compare;
mod convert;
mod cta;
pub(crate) mod error;
mod float;
mod fround;
mod lane_ops;
mod lanes;
mod launch_spec;
mod launch_textures;
pub mod lower;
mod matrix;
mod mbarrier;
mod mem_fast;
mod mem_ops;
pub mod memory;
mod npy;
pub mod program;
mod run;
pub mod sanitize;
mod spec_data;
mod spin;
mod step;
mod tex;
mod warp;
mod wmma;

pub use cta::{LaunchStats, MAX_CTA_THREADS, MAX_GRID_THREADS};
pub use error::{Access, BarrierWaiter, ExecError, Fault, FaultKind, LoadError, MemberProblem};
pub use launch_spec::{ElemType, LaunchSpec, ParamSpec, SpecError};
pub use launch_textures::{bind_textures, Geometry, TexelSource, TextureBind, TextureSpec};
pub use run::{run, BufferResult, RunResult};
pub use warp::Texture;

use memory::GlobalMemory;
use program::Program;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

/// A device address returned by [`Device::alloc`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DevicePtr(pub u64);

/// A kernel argument: the little-endian bytes of one `.param`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arg(pub Vec<u8>);

impl Arg {
    pub fn u32(v: u32) -> Arg {
        Arg(v.to_le_bytes().to_vec())
    }
    pub fn u64(v: u64) -> Arg {
        Arg(v.to_le_bytes().to_vec())
    }
    pub fn f32(v: f32) -> Arg {
        Arg(v.to_le_bytes().to_vec())
    }
    pub fn ptr(p: DevicePtr) -> Arg {
        Arg::u64(p.0)
    }
}

/// Grid and CTA shape and launch resources.
#[derive(Clone, Debug, PartialEq)]
pub struct LaunchConfig {
    pub grid: [u32; 3],
    pub block: [u32; 3],
    /// Dynamic `extern .shared` bytes.
    pub shared_bytes: u32,
    /// Textures by id (`None` = unbound).
    pub textures: Vec<Option<Texture>>,
}

impl Default for LaunchConfig {
    fn default() -> Self {
        LaunchConfig {
            grid: [1, 1, 1],
            block: [1, 1, 1],
            shared_bytes: 0,
            textures: Vec::new(),
        }
    }
}

/// How to run a launch.
#[derive(Clone, Copy, Debug)]
pub struct RunOptions<'a> {
    /// Worker threads; 0 = one per core.
    pub threads: usize,
    /// Most instructions one warp may execute before the launch faults.
    pub max_steps: u64,
    /// Incremented with thread-instructions as they run (every few thousand instructions of a
    /// warp), for a progress bar.
    pub progress: Option<&'a AtomicU64>,
    /// Incremented when a CTA finishes.
    pub ctas_done: Option<&'a AtomicU64>,
    /// Wall-clock limit of the launch: past it, the launch faults with
    /// [`FaultKind::Timeout`] naming where a warp was.
    pub timeout: Option<std::time::Duration>,
    /// Device memory budget of the device [`run`] creates (buffers and `.global` variables
    /// together); checked before anything is allocated.
    pub mem_limit: u64,
    /// Run the sanitizer's checks ([`sanitize`]) and collect findings here.
    pub sanitize: Option<&'a sanitize::Sanitizer>,
}

impl Default for RunOptions<'_> {
    fn default() -> Self {
        RunOptions {
            threads: 0,
            max_steps: 1 << 32,
            progress: None,
            ctas_done: None,
            timeout: None,
            mem_limit: memory::DEVICE_MEMORY_BYTES,
            sanitize: None,
        }
    }
}

/// A module loaded on a device.
#[derive(Clone, Debug)]
pub struct LoadedModule {
    pub program: Program,
}

/// The simulated GPU: device memory plus launch machinery.
#[derive(Debug, Default)]
pub struct Device {
    global: GlobalMemory,
    grids: AtomicU32,
}

impl Device {
    pub fn new() -> Device {
        Device {
            global: GlobalMemory::new(),
            grids: AtomicU32::new(0),
        }
    }

    /// Allocate `bytes` zero-filled bytes of global memory.
    pub fn alloc(&mut self, bytes: u64) -> Result<DevicePtr, ExecError> {
        self.global
            .alloc(bytes)
            .map(DevicePtr)
            .ok_or_else(|| ExecError::Launch(format!("cannot allocate {bytes} bytes")))
    }

    pub fn write(&self, ptr: DevicePtr, data: &[u8]) -> Result<(), ExecError> {
        self.global.write(ptr.0, data).map_err(|_| {
            ExecError::Launch(format!(
                "write of {} bytes at {:#x} is outside every allocation",
                data.len(),
                ptr.0
            ))
        })
    }

    pub fn read(&self, ptr: DevicePtr, len: u64) -> Result<Vec<u8>, ExecError> {
        self.global.read(ptr.0, len).map_err(|_| {
            ExecError::Launch(format!(
                "read of {len} bytes at {:#x} is outside every allocation",
                ptr.0
            ))
        })
    }

    pub fn memory(&self) -> &GlobalMemory {
        &self.global
    }

    pub fn memory_mut(&mut self) -> &mut GlobalMemory {
        &mut self.global
    }

    /// Lower a checked module (allocating its `.global` variables on this device).
    pub fn load(
        &mut self,
        module: &ir::Module,
        src: &diag::SourceFile,
    ) -> Result<LoadedModule, LoadError> {
        let program = lower::lower_module(module, src, &mut self.global)?;
        Ok(LoadedModule { program })
    }

    /// Use an already decoded program.
    pub fn load_program(&mut self, program: Program) -> LoadedModule {
        LoadedModule { program }
    }

    /// Launch `kernel` and wait for it.
    pub fn launch(
        &self,
        module: &LoadedModule,
        kernel: &str,
        cfg: &LaunchConfig,
        args: &[Arg],
        opts: &RunOptions<'_>,
    ) -> Result<LaunchStats, ExecError> {
        let prog = &module.program;
        let k = prog.kernel(kernel).ok_or_else(|| {
            ExecError::Launch(format!("no kernel named `{kernel}` in the module"))
        })?;
        if args.len() != k.params.len() {
            return Err(ExecError::Launch(format!(
                "kernel `{kernel}` takes {} parameters, {} given",
                k.params.len(),
                args.len()
            )));
        }
        let mut params = vec![0u8; k.param_bytes as usize];
        for (i, (p, a)) in k.params.iter().zip(args).enumerate() {
            let n = p.size as usize;
            let bytes = &a.0;
            // A 64-bit pointer fits a 32-bit parameter when its high half is zero.
            let fits =
                bytes.len() == n || (bytes.len() > n && bytes.iter().skip(n).all(|&b| b == 0));
            if !fits {
                return Err(ExecError::Launch(format!(
                    "parameter {i} (`{}`) is {n} bytes, argument has {}",
                    p.name,
                    bytes.len()
                )));
            }
            let off = p.offset as usize;
            if let (Some(dst), Some(src)) = (
                params.get_mut(off..off + n),
                bytes.get(..n.min(bytes.len())),
            ) {
                if let Some(d) = dst.get_mut(..src.len()) {
                    d.copy_from_slice(src);
                }
            }
        }
        for (what, d) in [("grid", cfg.grid), ("block", cfg.block)] {
            if d.contains(&0) {
                return Err(ExecError::Launch(format!(
                    "{what} dimensions must be at least 1"
                )));
            }
        }
        let threads: u64 = cfg.block.iter().map(|&x| x as u64).product();
        if threads > MAX_CTA_THREADS {
            return Err(ExecError::Launch(format!(
                "a CTA of {threads} threads exceeds the limit of {MAX_CTA_THREADS}"
            )));
        }
        let ctas: u128 = cfg.grid.iter().map(|&x| x as u128).product();
        let grid_threads = ctas * threads as u128;
        if grid_threads > MAX_GRID_THREADS as u128 {
            return Err(ExecError::Launch(format!(
                "a grid of {ctas} CTAs of {threads} threads ({grid_threads} threads) exceeds \
                 the limit of {MAX_GRID_THREADS} (2^40) threads"
            )));
        }
        if let Some(m) = k.maxntid {
            let max: u64 = m.iter().map(|&x| x as u64).product();
            if threads > max {
                return Err(ExecError::Launch(format!(
                    "kernel `{kernel}` declares .maxntid {}, {}, {} ({max} threads); the CTA has {threads}",
                    m[0], m[1], m[2]
                )));
            }
        }
        if let Some(r) = k.reqntid {
            if r != cfg.block {
                return Err(ExecError::Launch(format!(
                    "kernel `{kernel}` requires .reqntid {}, {}, {}; the CTA is {}, {}, {}",
                    r[0], r[1], r[2], cfg.block[0], cfg.block[1], cfg.block[2]
                )));
            }
        }
        if let Some(dims) = k.cta_dims {
            // "The programmer may use the constant dimensions rather than the runtime
            // dimensions if the CTA is always invoked with the constant dimensions"
            // (ptx-isa-1.1 Table 68): a launch of another shape would compute wrongly.
            for (axis, (&want, &got)) in ["x", "y", "z"].iter().zip(dims.iter().zip(&cfg.block)) {
                if want != 0 && want != got {
                    return Err(ExecError::Launch(format!(
                        "block.{axis} is {got}, but kernel `{kernel}` declares its CTA \
                         dimensions as constants ({} = {want}); launch it with block {}, {}, {} \
                         (0 = any)",
                        match *axis {
                            "x" => "NTID.0",
                            "y" => "NTID.1",
                            _ => "NTID.2",
                        },
                        dims[0],
                        dims[1],
                        dims[2]
                    )));
                }
            }
        }
        let shared = k.shared_bytes as u64 + cfg.shared_bytes as u64;
        if shared > cta::MAX_SHARED_BYTES {
            return Err(ExecError::Launch(format!(
                "{shared} bytes of shared memory exceed the limit of {}",
                cta::MAX_SHARED_BYTES
            )));
        }
        let ctx = warp::Ctx {
            prog,
            kernel: k,
            global: &self.global,
            params: &params,
            ntid: cfg.block,
            nctaid: cfg.grid,
            gridid: self.grids.fetch_add(1, Ordering::Relaxed),
            max_steps: opts.max_steps,
            textures: &cfg.textures,
            shared_bytes: cfg.shared_bytes,
            sanitize: opts.sanitize,
        };
        let watch = cta::Watch {
            progress: opts.progress,
            ctas_done: opts.ctas_done,
            // A limit too far away to represent is no limit.
            deadline: opts.timeout.and_then(|t| {
                let at = std::time::Instant::now().checked_add(t)?;
                Some((at, u64::try_from(t.as_millis()).unwrap_or(u64::MAX)))
            }),
        };
        cta::launch_grid(&ctx, opts.threads, &watch)
    }
}
