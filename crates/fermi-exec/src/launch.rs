//! `ptxvm run k.cubin`'s library half: the launch spec's buffers and values laid out by the
//! sm_20 launch ABI, every CTA run (in parallel), the buffers read back.

use crate::error::{Fault, RunError};
use crate::image::Image;
use crate::memory::{Global, LOCAL_WINDOW, SHARED_WINDOW};
use crate::warp::CtaMem;
use exec::{BufferResult, LaunchSpec, ParamSpec, RunResult};
use fermi::cubin::Module;
use rayon::prelude::*;
use std::sync::atomic::AtomicU64;
use std::time::Instant;

/// Start of the kernel parameters in `c[0x0]` (sm_20 ABI).
pub const PARAM_BASE: usize = 0x20;
/// Offset of the initial stack pointer in `c[0x1]`.
pub const STACK_TOP_OFFSET: usize = 0x100;
/// Most threads of one CTA on sm_20.
pub const MAX_CTA_THREADS: u64 = 1024;
/// Most local memory (with stack) per thread on sm_20 (512 KiB).
pub const MAX_LOCAL_BYTES: u64 = 512 << 10;
/// Size of a constant bank.
const CBANK_BYTES: u64 = 0x1_0000;
/// Most CTAs of one launch (a bound on the per-CTA bookkeeping, not an sm_20 limit).
pub const MAX_CTAS: u64 = 1 << 24;
/// Most shared memory one CTA may have on sm_20 (48 KiB).
pub const MAX_SHARED_BYTES: u64 = 48 << 10;

/// How to run: worker threads (0 = one per core), the step budget per warp, and an optional
/// counter of executed thread-instructions for a progress display.
#[derive(Clone, Copy, Debug)]
pub struct Options<'a> {
    pub threads: usize,
    pub max_steps: u64,
    pub progress: Option<&'a AtomicU64>,
}

impl Default for Options<'_> {
    fn default() -> Self {
        Options {
            threads: 0,
            max_steps: 1 << 32,
            progress: None,
        }
    }
}

/// Reads `cubin`, launches the spec's kernel on it, and returns the buffers.
pub fn run_cubin(
    cubin: &[u8],
    spec: &LaunchSpec,
    opts: &Options<'_>,
) -> Result<RunResult, RunError> {
    let module = fermi::cubin::read_cubin(cubin).map_err(|e| RunError::Cubin(e.to_string()))?;
    run_module(&module, spec, opts)
}

/// Launches the spec's kernel of an already read cubin.
pub fn run_module(
    module: &Module,
    spec: &LaunchSpec,
    opts: &Options<'_>,
) -> Result<RunResult, RunError> {
    let mut img = Image::load(module, spec.kernel.as_deref()).map_err(RunError::Launch)?;
    let limit = if img.addr64 { 1 << 48 } else { 1 << 32 };
    let mut global = Global::new();
    // The module's `.global` variables live in device memory for the launch: `.nv.global.init`
    // copied, `.nv.global` zero-filled; the code's relocations then receive their addresses.
    let globals = &module.globals;
    let no_room = || RunError::Launch("the module's global variables do not fit memory".into());
    let init_base = if globals.init.is_empty() {
        0
    } else {
        global.alloc(&globals.init, limit).ok_or_else(no_room)?
    };
    let zero_base = if globals.zero_size == 0 {
        0
    } else {
        global
            .alloc(&vec![0; globals.zero_size as usize], limit)
            .ok_or_else(no_room)?
    };
    let address = |name: &str| {
        let v = globals.vars.iter().find(|v| v.name == name)?;
        let base = if v.initialized { init_base } else { zero_base };
        Some(base + u64::from(v.offset))
    };
    // Addresses in initializers (`.rela.nv.global.init`: R_CUDA_64, or R_CUDA_32's low word),
    // written into the copied `.nv.global.init` as the driver does at load.
    for r in &globals.relocs {
        let value = address(&r.symbol)
            .ok_or_else(|| {
                RunError::Launch(format!(
                    "a .nv.global.init relocation names `{}`, which is no global variable",
                    r.symbol
                ))
            })?
            .wrapping_add(r.addend as u64);
        let bytes = value.to_le_bytes();
        let slot = if r.wide {
            &bytes[..]
        } else {
            bytes.get(..4).unwrap_or(&[])
        };
        global
            .store(init_base + u64::from(r.offset), slot)
            .map_err(|_| {
                RunError::Launch(format!(
                    "a .nv.global.init relocation at byte {} lies outside the section",
                    r.offset
                ))
            })?;
    }
    img.relocate(&address).map_err(RunError::Launch)?;
    let k = &img.kernel;
    if k.params.len() != spec.params.len() {
        return Err(RunError::Launch(format!(
            "params: kernel `{}` takes {} parameters, the launch gives {}",
            k.name,
            k.params.len(),
            spec.params.len()
        )));
    }
    let threads: u64 = spec.block.iter().map(|&b| u64::from(b)).product();
    if threads == 0 || threads > MAX_CTA_THREADS {
        return Err(RunError::Launch(format!(
            "block: {threads} threads per CTA; sm_20 runs 1 to {MAX_CTA_THREADS}"
        )));
    }
    if spec.grid.contains(&0) {
        return Err(RunError::Launch(
            "grid: every dimension must be at least 1".into(),
        ));
    }
    let shared = u64::from(k.shared_size) + u64::from(spec.shared_bytes);
    if shared > MAX_SHARED_BYTES {
        return Err(RunError::Launch(format!(
            "shared_bytes: the kernel's {} static bytes plus {} dynamic exceed sm_20's {MAX_SHARED_BYTES}",
            k.shared_size, spec.shared_bytes
        )));
    }

    let ptr_bytes: u32 = if img.addr64 { 8 } else { 4 };
    let param_end = u64::from(k.param_size.max(k.params_end()));
    if param_end > CBANK_BYTES - PARAM_BASE as u64 {
        return Err(RunError::Launch(format!(
            "the kernel's parameters end at byte {param_end}, past constant bank 0 (64 KiB)"
        )));
    }
    let cbank_len = PARAM_BASE + param_end as usize;
    let mut cbank0 = vec![0u8; cbank_len];
    put(&mut cbank0, 0, &(SHARED_WINDOW as u32).to_le_bytes());
    // The local window's generic base next to the shared one: translated `cvta.local` reads it
    // here (docs/spec-notes.md, "Generic local window in c[0x0][0x4]").
    put(&mut cbank0, 4, &(LOCAL_WINDOW as u32).to_le_bytes());
    for (i, n) in spec.block.iter().enumerate() {
        put(&mut cbank0, 0x8 + 4 * i, &n.to_le_bytes());
    }
    for (i, n) in spec.grid.iter().enumerate() {
        put(&mut cbank0, 0x14 + 4 * i, &n.to_le_bytes());
    }
    let mut bufs = Vec::new();
    for (i, (p, kp)) in spec.params.iter().zip(&k.params).enumerate() {
        let at = PARAM_BASE + kp.offset as usize;
        // Zero-filled and file buffers are materialised here: the Fermi address space is
        // 32-bit, and the spec reader has already bounded their sizes.
        let owned;
        let buffer: Option<(&exec::ElemType, &[u8])> = match p {
            ParamSpec::Buffer { ty, bytes } => Some((ty, bytes.as_slice())),
            ParamSpec::Zeros { ty, len } => {
                let n = usize::try_from(len.saturating_mul(ty.bytes() as u64)).map_err(|_| {
                    RunError::Launch(format!("params[{i}]: the buffer is too large"))
                })?;
                owned = vec![0u8; n];
                Some((ty, owned.as_slice()))
            }
            ParamSpec::File { ty, path, .. } => {
                owned = std::fs::read(path).map_err(|e| {
                    RunError::Launch(format!("params[{i}]: cannot read {}: {e}", path.display()))
                })?;
                Some((ty, owned.as_slice()))
            }
            ParamSpec::Value { .. } => None,
        };
        match (p, buffer) {
            (_, Some((ty, bytes))) => {
                if kp.size != ptr_bytes {
                    return Err(RunError::Launch(format!(
                        "params[{i}]: a buffer needs a {ptr_bytes}-byte address parameter, \
                         parameter {i} of `{}` is {} bytes",
                        k.name, kp.size
                    )));
                }
                let addr = global.alloc(bytes, limit).ok_or_else(|| {
                    RunError::Launch(format!(
                        "params[{i}]: the buffers do not fit the kernel's address space"
                    ))
                })?;
                let le = addr.to_le_bytes();
                put(&mut cbank0, at, le.get(..ptr_bytes as usize).unwrap_or(&[]));
                bufs.push((i, *ty, addr));
            }
            (ParamSpec::Value { ty, bytes }, None) => {
                if bytes.len() != kp.size as usize {
                    return Err(RunError::Launch(format!(
                        "params[{i}]: a .{} value is {} bytes, parameter {i} of `{}` is {} bytes",
                        ty.name(),
                        bytes.len(),
                        k.name,
                        kp.size
                    )));
                }
                put(&mut cbank0, at, bytes);
            }
            (_, None) => {}
        }
    }
    let local_bytes = img.local_bytes();
    if local_bytes > MAX_LOCAL_BYTES {
        return Err(RunError::Launch(format!(
            "the kernel asks for {local_bytes} bytes of local memory and stack per thread; \
             sm_20 allows {MAX_LOCAL_BYTES}"
        )));
    }
    let mut cbank1 = vec![0u8; STACK_TOP_OFFSET + 4];
    put(
        &mut cbank1,
        STACK_TOP_OFFSET,
        &(local_bytes as u32).to_le_bytes(),
    );

    // A cubin's code names a texture by its unit (the 8-bit texture field of TEX/TLD/TXQ);
    // the texture names a cubin may record are not read (docs/fermi-exec.md, "Textures").
    let textures = exec::bind_textures(&spec.textures, &|name| {
        Err(format!(
            "a cubin's textures are bound by \"unit\" (the texture field of TEX/TLD/TXQ), \
             not by name (`{name}`)"
        ))
    })
    .map_err(RunError::Launch)?;
    let [gx, gy, gz] = spec.grid;
    let ctas = u64::from(gx) * u64::from(gy) * u64::from(gz);
    if ctas > MAX_CTAS {
        return Err(RunError::Launch(format!(
            "grid: {ctas} CTAs; the Fermi executor runs at most {MAX_CTAS}"
        )));
    }
    let run_one = |c: u64| -> Result<u64, Box<Fault>> {
        let ctaid = [
            (c % u64::from(gx)) as u32,
            (c / u64::from(gx) % u64::from(gy)) as u32,
            (c / (u64::from(gx) * u64::from(gy))) as u32,
        ];
        let mut m = CtaMem {
            img: &img,
            global: &global,
            cbank0: &cbank0,
            cbank1: &cbank1,
            shared: vec![0; shared as usize],
            // Allocated on a thread's first local access (most threads of most kernels
            // never touch local memory).
            local: vec![Vec::new(); threads as usize],
            local_bytes: local_bytes as usize,
            ctaid,
            ntid: spec.block,
            nctaid: spec.grid,
            bars: Default::default(),
            completed: Vec::new(),
            shared_locks: Vec::new(),
            textures: &textures,
        };
        crate::cta::run_cta(&mut m, opts.max_steps, opts.progress)
    };
    let start = Instant::now();
    let all = || -> Result<u64, Box<Fault>> {
        // Every CTA runs; the fault reported is that of the lowest-numbered faulting CTA, so
        // a report does not depend on scheduling.
        (0..ctas)
            .into_par_iter()
            .map(|c| run_one(c).map_err(|f| (c, f)))
            .reduce(
                || Ok(0),
                |a, b| match (a, b) {
                    (Ok(x), Ok(y)) => Ok(x + y),
                    (Err(e), Ok(_)) | (Ok(_), Err(e)) => Err(e),
                    (Err(e), Err(f)) => Err(if e.0 <= f.0 { e } else { f }),
                },
            )
            .map_err(|(_, f)| f)
    };
    let outcome = if opts.threads == 0 {
        all()
    } else {
        rayon::ThreadPoolBuilder::new()
            .num_threads(opts.threads)
            .build()
            .map_err(|e| RunError::Launch(format!("cannot start worker threads: {e}")))?
            .install(all)
    };
    let instructions = outcome.map_err(RunError::Fault)?;
    let seconds = start.elapsed().as_secs_f64();
    Ok(RunResult {
        kernel: k.name.clone(),
        buffers: bufs
            .into_iter()
            .map(|(param, ty, addr)| BufferResult::new(param, ty, &global.read_buffer(addr)))
            .collect(),
        instructions,
        seconds,
    })
}

/// Copies `bytes` into `bank` at `at` (the bank was sized to hold every parameter).
fn put(bank: &mut [u8], at: usize, bytes: &[u8]) {
    if let Some(dst) = bank.get_mut(at..at + bytes.len()) {
        dst.copy_from_slice(bytes);
    }
}
