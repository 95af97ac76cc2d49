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
    // Flags: CU_GET_PROC_ADDRESS_DEFAULT, _LEGACY_STREAM, _PER_THREAD_DEFAULT_STREAM. The
    // per-thread flag answers with the `_ptds`/`_ptsz` entry point where the header has one
    // (work is synchronous, so both reach the same function; callers may compare addresses).
    if flags > 2 {
        return CUDA_ERROR_INVALID_VALUE;
    }
    let version = u32::try_from(cudaVersion).unwrap_or(0);
    let found = name
        .to_str()
        .map_err(|_| false)
        .and_then(|n| resolve(n, version));
    let per_thread = flags == 2;
    let address = |n: &str| {
        per_thread
            .then(|| crate::per_thread_address(n))
            .flatten()
            .or_else(|| crate::symbol_address(n))
    };
    match found.map(address) {
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

#[cfg(test)]
mod tests {
    use super::resolve;

    #[test]
    fn every_declared_function_is_reachable_at_cuda_13() {
        for &(name, base, since) in crate::PROCS {
            assert!(since <= 13000, "{name} introduced after 13000");
            let got = resolve(base, 13000).expect("a variant at 13000");
            assert!(crate::symbol_address(got).is_some(), "{got} has no address");
            // The answer is the newest variant: none of `base`'s variants is newer.
            let newest = crate::PROCS
                .iter()
                .filter(|p| p.1 == base)
                .map(|p| p.2)
                .max();
            let got_since = crate::PROCS.iter().find(|p| p.0 == got).map(|p| p.2);
            assert_eq!(got_since, newest, "{base}");
            assert!(crate::symbol_address(name).is_some());
        }
    }

    #[test]
    fn versions_pick_the_variant_of_their_time() {
        // cuda-bindings' requests (the examples and cydriver's table).
        assert_eq!(resolve("cuMemAlloc", 3020), Ok("cuMemAlloc_v2"));
        assert_eq!(resolve("cuCtxCreate", 11040), Ok("cuCtxCreate_v3"));
        assert_eq!(resolve("cuCtxCreate", 12050), Ok("cuCtxCreate_v4"));
        assert_eq!(
            resolve("cuStreamGetCaptureInfo", 10010),
            Ok("cuStreamGetCaptureInfo")
        );
        assert_eq!(
            resolve("cuStreamGetCaptureInfo", 11030),
            Ok("cuStreamGetCaptureInfo_v2")
        );
        assert_eq!(
            resolve("cuDevicePrimaryCtxRelease", 11000),
            Ok("cuDevicePrimaryCtxRelease_v2")
        );
        assert_eq!(resolve("cuInit", 2000), Ok("cuInit"));
        assert_eq!(resolve("cuMemAlloc", 2000), Err(true));
        assert_eq!(resolve("cuNoSuchThing", 13000), Err(false));
    }
}
