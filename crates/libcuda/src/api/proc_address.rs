//! `cuGetProcAddress` and `cuGetProcAddress_v2`: a function by base name, CUDA version and
//! flags, from the table `build.rs` generates out of `include/cuda.h`.

use crate::consts::*;
use crate::ffi::{c_str, put};
use crate::CUresult;
use std::ffi::{c_char, c_int, c_void};

/// The symbol `cuGetProcAddress(symbol, cudaVersion)` answers with: of the variants of
/// `symbol` (`symbol`, `symbol_v2`, ...), the newest one introduced at or before
/// `cudaVersion`. `Err(true)` when variants exist but all are newer than `cudaVersion`.
pub fn resolve(symbol: &str, cuda_version: u32) -> Result<&'static str, bool> {
    let mut best: Option<(&'static str, u32)> = None;
    let mut exists = false;
    for &(name, base, since) in crate::PROCS {
        if base != symbol {
            continue;
        }
        exists = true;
        if since <= cuda_version && best.is_none_or(|(_, s)| since >= s) {
            best = Some((name, since));
        }
    }
    best.map(|(n, _)| n).ok_or(exists)
}

#[no_mangle]
pub unsafe extern "C" fn cuGetProcAddress_v2(
    symbol: *const c_char,
    pfn: *mut *mut c_void,
    cudaVersion: c_int,
    flags: u64,
    symbolStatus: *mut u32,
) -> CUresult {
    let report = |s: u32| {
        if !symbolStatus.is_null() {
            let _ = put(symbolStatus, s);
        }
    };
    let Ok(name) = c_str(symbol) else {
        return CUDA_ERROR_INVALID_VALUE;
    };
    if pfn.is_null() {
        return CUDA_ERROR_INVALID_VALUE;
    }
    // Flags: CU_GET_PROC_ADDRESS_DEFAULT, _LEGACY_STREAM, _PER_THREAD_DEFAULT_STREAM. Work
    // is synchronous, so the per-thread default stream behaves as the legacy one and every
    // flag selects the same functions.
    if flags > 2 {
        return CUDA_ERROR_INVALID_VALUE;
    }
    let version = u32::try_from(cudaVersion).unwrap_or(0);
    let found = name
        .to_str()
        .map_err(|_| false)
        .and_then(|n| resolve(n, version));
    match found.map(crate::symbol_address) {
        Ok(Some(addr)) => {
            let _ = put(pfn, addr as *mut c_void);
            report(CU_GET_PROC_ADDRESS_SUCCESS);
            CUDA_SUCCESS
        }
        Err(true) => {
            let _ = put(pfn, std::ptr::null_mut());
            report(CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT);
            CUDA_ERROR_NOT_FOUND
        }
        _ => {
            let _ = put(pfn, std::ptr::null_mut());
            report(CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);
            CUDA_ERROR_NOT_FOUND
        }
    }
}

#[no_mangle]
pub unsafe extern "C" fn cuGetProcAddress(
    symbol: *const c_char,
    pfn: *mut *mut c_void,
    cudaVersion: c_int,
    flags: u64,
) -> CUresult {
    cuGetProcAddress_v2(symbol, pfn, cudaVersion, flags, std::ptr::null_mut())
}
