//! `cuGetErrorName`, `cuGetErrorString`, `cuDriverGetVersion`, `cuInit`.

use crate::consts::*;
use crate::ffi::{put, status};
use crate::CUresult;
use std::ffi::{c_char, c_int, c_uint, CString};
use std::sync::OnceLock;

/// The driver version reported: CUDA 13.0 (cuda-bindings 13 requires it).
pub const DRIVER_VERSION: c_int = 13000;

fn name_of(code: CUresult) -> Option<&'static std::ffi::CStr> {
    RESULT_NAMES
        .iter()
        .find(|(v, _)| *v == code)
        .map(|(_, n)| *n)
}

/// A sentence for each code, derived from its name (`CUDA_ERROR_INVALID_VALUE` -> "invalid
/// value"), so the one list of codes in `cuda.h` is the only list.
fn descriptions() -> &'static [(u32, CString)] {
    static D: OnceLock<Vec<(u32, CString)>> = OnceLock::new();
    D.get_or_init(|| {
        RESULT_NAMES
            .iter()
            .map(|(v, n)| {
                let name = n.to_string_lossy();
                let text = match *v {
                    CUDA_SUCCESS => "no error".to_string(),
                    _ => name
                        .trim_start_matches("CUDA_ERROR_")
                        .to_ascii_lowercase()
                        .replace('_', " "),
                };
                (*v, CString::new(text).unwrap_or_default())
            })
            .collect()
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuGetErrorName(error: CUresult, pStr: *mut *const c_char) -> CUresult {
    match name_of(error) {
        Some(n) => status(put(pStr, n.as_ptr())),
        None => {
            let _ = put(pStr, std::ptr::null());
            CUDA_ERROR_INVALID_VALUE
        }
    }
}

#[no_mangle]
pub unsafe extern "C" fn cuGetErrorString(error: CUresult, pStr: *mut *const c_char) -> CUresult {
    match descriptions().iter().find(|(v, _)| *v == error) {
        Some((_, s)) => status(put(pStr, s.as_ptr())),
        None => {
            let _ = put(pStr, std::ptr::null());
            CUDA_ERROR_INVALID_VALUE
        }
    }
}

#[no_mangle]
pub unsafe extern "C" fn cuDriverGetVersion(driverVersion: *mut c_int) -> CUresult {
    status(put(driverVersion, DRIVER_VERSION))
}

#[no_mangle]
pub unsafe extern "C" fn cuInit(Flags: c_uint) -> CUresult {
    // "Flags: Initialization flag for CUDA; currently must be 0."
    if Flags != 0 {
        return CUDA_ERROR_INVALID_VALUE;
    }
    crate::state::init();
    CUDA_SUCCESS
}
