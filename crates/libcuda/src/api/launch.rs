//! `cuLaunchKernel` (parameters by `kernelParams` or by the packed `extra` buffer) and the
//! occupancy calculator.

use super::Handle;
use crate::consts::*;
use crate::ffi::{get, host_bytes, index, put, status};
use crate::state::{self, Driver};
use crate::CUresult;
use std::ffi::{c_int, c_uint, c_void};

/// What a launch asks for.
pub struct Launch {
    pub func: Handle,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub shared: u32,
    pub stream: Handle,
}

/// The arguments of `kernel`: each `kernelParams[i]` points to parameter i's bytes; the
/// `extra` form passes one buffer laid out as the parameter space (`CU_LAUNCH_PARAM_*`).
fn collect_args(
    params: &[exec::program::ParamInfo],
    kernel_params: *mut *mut c_void,
    extra: *mut *mut c_void,
) -> Result<Vec<exec::Arg>, CUresult> {
    if !kernel_params.is_null() {
        if !extra.is_null() {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        return params
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let ptr = index(kernel_params.cast_const(), i)?;
                Ok(exec::Arg(host_bytes(ptr.cast(), p.size as usize)?.to_vec()))
            })
            .collect();
    }
    if extra.is_null() {
        return if params.is_empty() {
            Ok(Vec::new())
        } else {
            Err(CUDA_ERROR_INVALID_VALUE)
        };
    }
    let (mut buf, mut size): (*mut c_void, Option<usize>) = (std::ptr::null_mut(), None);
    let mut i = 0;
    loop {
        match index(extra.cast_const(), i)? as usize {
            CU_LAUNCH_PARAM_END => break,
            CU_LAUNCH_PARAM_BUFFER_POINTER => buf = index(extra.cast_const(), i + 1)?,
            CU_LAUNCH_PARAM_BUFFER_SIZE => {
                size = Some(get(index(extra.cast_const(), i + 1)?.cast::<usize>())?)
            }
            _ => return Err(CUDA_ERROR_INVALID_VALUE),
        }
        i += 2;
    }
    let need = params
        .iter()
        .map(|p| p.offset as usize + p.size as usize)
        .max()
        .unwrap_or(0);
    let size = size.ok_or(CUDA_ERROR_INVALID_VALUE)?;
    if size < need {
        return Err(CUDA_ERROR_INVALID_VALUE);
    }
    let bytes = host_bytes(buf.cast::<u8>(), need)?;
    Ok(params
        .iter()
        .map(|p| {
            let at = p.offset as usize;
            exec::Arg(bytes[at..at + p.size as usize].to_vec())
        })
        .collect())
}

/// `CU_LAUNCH_PARAM_*` markers (macros in cuda.h).
const CU_LAUNCH_PARAM_END: usize = 0;
const CU_LAUNCH_PARAM_BUFFER_POINTER: usize = 1;
const CU_LAUNCH_PARAM_BUFFER_SIZE: usize = 2;

/// The status a failed launch returns; a fault's report goes to stderr, as ptxvm prints it.
fn launch_error(e: &exec::ExecError) -> CUresult {
    match e {
        exec::ExecError::Fault(f) => {
            eprintln!("ptxvm: {f}");
            match f.kind {
                exec::FaultKind::OutOfBounds { .. } | exec::FaultKind::ReadOnly { .. } => {
                    CUDA_ERROR_ILLEGAL_ADDRESS
                }
                exec::FaultKind::Misaligned { .. } => CUDA_ERROR_MISALIGNED_ADDRESS,
                exec::FaultKind::Timeout { .. } | exec::FaultKind::StepBudget { .. } => {
                    CUDA_ERROR_LAUNCH_TIMEOUT
                }
                exec::FaultKind::Trap => CUDA_ERROR_ILLEGAL_INSTRUCTION,
                _ => CUDA_ERROR_LAUNCH_FAILED,
            }
        }
        exec::ExecError::Launch(m) => {
            if std::env::var_os("PTXVM_CUDA_LOG").is_some() {
                eprintln!("ptxvm libcuda: launch refused: {m}");
            }
            CUDA_ERROR_INVALID_VALUE
        }
        exec::ExecError::Load(l) => {
            eprintln!("ptxvm: {l}");
            CUDA_ERROR_LAUNCH_FAILED
        }
    }
}

/// Launch options: the worker count is computed once, because asking the OS for it
/// (`available_parallelism` reads the cgroup limits) costs more than a small launch.
fn run_options() -> exec::RunOptions<'static> {
    static WORKERS: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    let threads =
        *WORKERS.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    exec::RunOptions {
        threads,
        ..exec::RunOptions::default()
    }
}

/// Copy the device copies of module `module`'s `.const` variables into its constant bank
/// (the program may have written them since the last launch). The module's image is its own
/// when it has constants (never shared through the cache).
fn refresh_constants(d: &mut Driver, module: Handle) {
    let Some(m) = d.modules.get_mut(&module) else {
        return;
    };
    if m.consts.is_empty() {
        return;
    }
    let Some(image) = std::sync::Arc::get_mut(&mut m.image) else {
        return;
    };
    for c in &m.consts {
        if let Ok(bytes) = d.dev.read(exec::DevicePtr(c.addr), c.size) {
            let at = c.offset as usize;
            if let Some(dst) = image
                .loaded
                .program
                .const_bank
                .get_mut(at..at + bytes.len())
            {
                dst.copy_from_slice(&bytes);
            }
        }
    }
}

/// Run a launch to completion.
pub fn launch(
    d: &mut Driver,
    l: &Launch,
    kernel_params: *mut *mut c_void,
    extra: *mut *mut c_void,
) -> Result<(), CUresult> {
    d.current_ctx()?;
    d.check_stream(l.stream)?;
    let f = d.functions.get(&l.func).ok_or(CUDA_ERROR_INVALID_HANDLE)?;
    let m = d.modules.get(&f.module).ok_or(CUDA_ERROR_INVALID_HANDLE)?;
    let k = m
        .image
        .loaded
        .program
        .kernel(&f.name)
        .ok_or(CUDA_ERROR_INVALID_HANDLE)?;
    if l.shared > f.max_dynamic_shared {
        return Err(CUDA_ERROR_INVALID_VALUE);
    }
    let threads: u64 = l.block.iter().map(|&x| u64::from(x)).product();
    if threads > 1024 || l.block[2] > 64 || l.grid[1] > 65535 || l.grid[2] > 65535 {
        return Err(CUDA_ERROR_INVALID_VALUE);
    }
    let args = collect_args(&k.params, kernel_params, extra)?;
    let module = f.module;
    refresh_constants(d, module);
    let cfg = exec::LaunchConfig {
        grid: l.grid,
        block: l.block,
        shared_bytes: l.shared,
        textures: Vec::new(),
    };
    let image = d
        .modules
        .get(&module)
        .ok_or(CUDA_ERROR_INVALID_HANDLE)?
        .image
        .clone();
    let name = d
        .functions
        .get(&l.func)
        .ok_or(CUDA_ERROR_INVALID_HANDLE)?
        .name
        .clone();
    super::mirror::synced(d, |d| {
        d.dev
            .launch(&image.loaded, &name, &cfg, &args, &run_options())
            .map(|_| ())
    })
    .map_err(|e| launch_error(&e))
}

#[no_mangle]
pub unsafe extern "C" fn cuLaunchKernel(
    f: Handle,
    gridDimX: c_uint,
    gridDimY: c_uint,
    gridDimZ: c_uint,
    blockDimX: c_uint,
    blockDimY: c_uint,
    blockDimZ: c_uint,
    sharedMemBytes: c_uint,
    hStream: Handle,
    kernelParams: *mut *mut c_void,
    extra: *mut *mut c_void,
) -> CUresult {
    let l = Launch {
        func: f,
        grid: [gridDimX, gridDimY, gridDimZ],
        block: [blockDimX, blockDimY, blockDimZ],
        shared: sharedMemBytes,
        stream: hStream,
    };
    status(state::with(|d| launch(d, &l, kernelParams, extra)))
}

/// CTAs of `block` threads (and `smem` dynamic shared bytes) one sm_86 multiprocessor holds.
fn blocks_per_sm(d: &Driver, func: Handle, block: c_int, smem: usize) -> Result<c_int, CUresult> {
    let f = d.functions.get(&func).ok_or(CUDA_ERROR_INVALID_HANDLE)?;
    let statik = super::module::function_attribute(d, f, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES)?;
    let max_threads =
        super::module::function_attribute(d, f, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK)?;
    if block <= 0 || block > max_threads {
        return Ok(0);
    }
    let warps = (block + 31) / 32;
    let by_threads = 48 / warps; // 1536 threads = 48 warps per multiprocessor
    let shared = statik as usize + smem;
    let by_shared = if shared == 0 {
        16
    } else {
        (100 * 1024 / (shared + 1024)) as c_int
    };
    Ok(by_threads.min(by_shared).min(16))
}

#[no_mangle]
pub unsafe extern "C" fn cuOccupancyMaxActiveBlocksPerMultiprocessor(
    numBlocks: *mut c_int,
    func: Handle,
    blockSize: c_int,
    dynamicSMemSize: usize,
) -> CUresult {
    status(state::with(|d| {
        put(
            numBlocks,
            blocks_per_sm(d, func, blockSize, dynamicSMemSize)?,
        )
    }))
}

#[no_mangle]
pub unsafe extern "C" fn cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    numBlocks: *mut c_int,
    func: Handle,
    blockSize: c_int,
    dynamicSMemSize: usize,
    _flags: c_uint,
) -> CUresult {
    cuOccupancyMaxActiveBlocksPerMultiprocessor(numBlocks, func, blockSize, dynamicSMemSize)
}

fn max_potential(
    min_grid: *mut c_int,
    block_size: *mut c_int,
    func: Handle,
    smem: usize,
    limit: c_int,
) -> CUresult {
    status(state::with(|d| {
        let f = d.functions.get(&func).ok_or(CUDA_ERROR_INVALID_HANDLE)?;
        let max = super::module::function_attribute(d, f, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK)?;
        let mut best = (0, 0);
        let top = if limit > 0 { limit.min(max) } else { max };
        let mut b = 32.min(top);
        while b <= top {
            let n = blocks_per_sm(d, func, b, smem)?;
            if n * b >= best.0 * best.1 {
                best = (n, b);
            }
            b += 32;
        }
        let sms = super::device::attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT).unwrap_or(1);
        put(min_grid, best.0 * sms)?;
        put(block_size, best.1)
    }))
}

/// The per-block dynamic shared memory callback is not called: `dynamicSMemSize` is used
/// for every block size.
#[no_mangle]
pub unsafe extern "C" fn cuOccupancyMaxPotentialBlockSize(
    minGridSize: *mut c_int,
    blockSize: *mut c_int,
    func: Handle,
    _blockSizeToDynamicSMemSize: *mut c_void,
    dynamicSMemSize: usize,
    blockSizeLimit: c_int,
) -> CUresult {
    max_potential(
        minGridSize,
        blockSize,
        func,
        dynamicSMemSize,
        blockSizeLimit,
    )
}

#[no_mangle]
pub unsafe extern "C" fn cuOccupancyMaxPotentialBlockSizeWithFlags(
    minGridSize: *mut c_int,
    blockSize: *mut c_int,
    func: Handle,
    _blockSizeToDynamicSMemSize: *mut c_void,
    dynamicSMemSize: usize,
    blockSizeLimit: c_int,
    _flags: c_uint,
) -> CUresult {
    max_potential(
        minGridSize,
        blockSize,
        func,
        dynamicSMemSize,
        blockSizeLimit,
    )
}

#[no_mangle]
pub unsafe extern "C" fn cuOccupancyAvailableDynamicSMemPerBlock(
    dynamicSmemSize: *mut usize,
    func: Handle,
    numBlocks: c_int,
    blockSize: c_int,
) -> CUresult {
    status(state::with(|d| {
        let f = d.functions.get(&func).ok_or(CUDA_ERROR_INVALID_HANDLE)?;
        let statik = super::module::function_attribute(d, f, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES)?;
        if numBlocks <= 0 || blockSize <= 0 {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        let per = (100 * 1024 / numBlocks as usize).saturating_sub(1024);
        let avail = per
            .min(super::module::MAX_SHARED_OPTIN as usize)
            .saturating_sub(statik as usize);
        put(dynamicSmemSize, avail)
    }))
}
