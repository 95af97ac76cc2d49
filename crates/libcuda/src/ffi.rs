//! Reading and writing through the raw pointers of the C ABI.
//!
//! Each helper checks for null (the API's `CUDA_ERROR_INVALID_VALUE`); beyond that the
//! caller's pointer is trusted to point to what the driver API documents, as a real driver
//! trusts it.

use crate::consts::CUDA_ERROR_INVALID_VALUE;
use crate::CUresult;
use std::ffi::{c_char, CStr};

/// Store `v` through the out-parameter `p`.
pub fn put<T>(p: *mut T, v: T) -> Result<(), CUresult> {
    if p.is_null() {
        return Err(CUDA_ERROR_INVALID_VALUE);
    }
    // SAFETY: non-null, and the API contract makes `p` point to a writable `T`; an
    // unaligned pointer is tolerated because C callers may pass packed fields.
    unsafe { p.write_unaligned(v) };
    Ok(())
}

/// Load a `T` from `p`.
pub fn get<T: Copy>(p: *const T) -> Result<T, CUresult> {
    if p.is_null() {
        return Err(CUDA_ERROR_INVALID_VALUE);
    }
    // SAFETY: non-null, and the API contract makes `p` point to a readable `T`.
    Ok(unsafe { p.read_unaligned() })
}

/// `len` bytes at host address `p` (the source of a copy to the device).
pub fn host_bytes<'a>(p: *const u8, len: usize) -> Result<&'a [u8], CUresult> {
    if len == 0 {
        return Ok(&[]);
    }
    if p.is_null() {
        return Err(CUDA_ERROR_INVALID_VALUE);
    }
    // SAFETY: the API contract makes `p` point to `len` readable host bytes that stay alive
    // for the call; `len` has been checked against a device allocation by the caller, so it
    // is no larger than what the program asked to copy.
    Ok(unsafe { std::slice::from_raw_parts(p, len) })
}

/// `len` writable bytes at host address `p` (the destination of a copy from the device).
pub fn host_bytes_mut<'a>(p: *mut u8, len: usize) -> Result<&'a mut [u8], CUresult> {
    if len == 0 {
        return Ok(&mut []);
    }
    if p.is_null() {
        return Err(CUDA_ERROR_INVALID_VALUE);
    }
    // SAFETY: as for `host_bytes`; the memory is the caller's and not aliased by any Rust
    // reference of this crate.
    Ok(unsafe { std::slice::from_raw_parts_mut(p, len) })
}

/// A NUL-terminated C string argument.
pub fn c_str<'a>(p: *const c_char) -> Result<&'a CStr, CUresult> {
    if p.is_null() {
        return Err(CUDA_ERROR_INVALID_VALUE);
    }
    // SAFETY: the API contract makes `p` a NUL-terminated string alive for the call.
    Ok(unsafe { CStr::from_ptr(p) })
}

/// Element `i` of the C array `p`.
pub fn index<T: Copy>(p: *const T, i: usize) -> Result<T, CUresult> {
    if p.is_null() {
        return Err(CUDA_ERROR_INVALID_VALUE);
    }
    // SAFETY: the caller passes an `i` below the array length the API contract gives
    // (a count argument or a terminator it has not passed yet).
    get(unsafe { p.add(i) })
}

/// Copy `text` (NUL-terminated, truncated to fit) into the caller's `cap`-byte buffer.
pub fn put_c_string(p: *mut c_char, cap: usize, text: &str) -> Result<(), CUresult> {
    if cap == 0 {
        return Ok(());
    }
    let buf = host_bytes_mut(p.cast::<u8>(), cap)?;
    let n = text.len().min(cap - 1);
    buf[..n].copy_from_slice(&text.as_bytes()[..n]);
    buf[n] = 0;
    Ok(())
}

/// Collapse a `Result` into the status code the C caller sees.
pub fn status(r: Result<(), CUresult>) -> CUresult {
    match r {
        Ok(()) => crate::consts::CUDA_SUCCESS,
        Err(e) => e,
    }
}
