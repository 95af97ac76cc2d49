//! Memory both the host and kernels use: managed memory (`cuMemAllocManaged`) and
//! host-registered memory (`cuMemHostRegister`, `cuMemHostGetDevicePointer`).
//!
//! Kernels run on the executor's device memory, so each such range has a device copy that
//! is made equal to the host's before, and copied back after, every operation that touches
//! device memory (launches, copies, memsets). Work is synchronous, so the host never sees
//! the two differ. A managed allocation is mapped for the host at its device address (the
//! device window is this process's reservation), so one pointer serves both; a registered
//! range keeps its host address and gets a device address of its own.

use super::{CUdeviceptr, Handle};
use crate::consts::*;
use crate::ffi::{put, status};
use crate::state::{self, Driver, WINDOW_RESERVED};
use crate::CUresult;
use std::ffi::{c_uint, c_void};

/// A host range and its device copy.
#[derive(Clone, Copy, Debug)]
pub struct Mirror {
    pub host: usize,
    pub device: u64,
    pub len: usize,
    pub managed: bool,
}

const PAGE: u64 = 4096;

/// Copy every mirrored host range to its device copy.
pub fn host_to_device(d: &Driver) {
    for m in &d.mirrors {
        // SAFETY: a managed range is mapped read-write by `cuMemAllocManaged` until
        // `cuMemFree`; a registered range is the caller's memory, which the API requires to
        // stay valid until `cuMemHostUnregister`.
        let bytes = unsafe { std::slice::from_raw_parts(m.host as *const u8, m.len) };
        let _ = d.dev.write(exec::DevicePtr(m.device), bytes);
    }
}

/// Copy every device copy back to its host range.
pub fn device_to_host(d: &Driver) {
    for m in &d.mirrors {
        if let Ok(bytes) = d.dev.read(exec::DevicePtr(m.device), m.len as u64) {
            // SAFETY: as in `host_to_device`; no Rust reference to this memory exists.
            let host = unsafe { std::slice::from_raw_parts_mut(m.host as *mut u8, m.len) };
            host.copy_from_slice(&bytes);
        }
    }
}

/// Run `f` (an operation on device memory) with the mirrored ranges made current around it.
pub fn synced<R>(d: &mut Driver, f: impl FnOnce(&mut Driver) -> R) -> R {
    if d.mirrors.is_empty() {
        return f(d);
    }
    host_to_device(d);
    let r = f(d);
    device_to_host(d);
    r
}

/// The mirror a device address lies in.
pub fn mirror_at(d: &Driver, dev: u64) -> Option<Mirror> {
    d.mirrors
        .iter()
        .copied()
        .find(|m| dev >= m.device && dev < m.device + m.len as u64)
}

/// Map the pages of `[base, base + len)` for the host, read-write, where not mapped yet.
fn map_host_pages(d: &mut Driver, base: u64, len: u64) -> Result<(), CUresult> {
    let first = base / PAGE * PAGE;
    let end = (base + len).div_ceil(PAGE) * PAGE;
    let mut page = first;
    while page < end {
        if !d.host_pages.contains(&page) {
            // SAFETY: `page` lies in the device window this process reserved (PROT_NONE,
            // never handed to the allocator), so MAP_FIXED replaces only that reservation.
            let p = unsafe {
                libc::mmap(
                    page as *mut c_void,
                    PAGE as usize,
                    libc::PROT_READ | libc::PROT_WRITE,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_FIXED,
                    -1,
                    0,
                )
            };
            if p == libc::MAP_FAILED {
                return Err(CUDA_ERROR_OUT_OF_MEMORY);
            }
            d.host_pages.insert(page);
        }
        page += PAGE;
    }
    Ok(())
}

#[no_mangle]
pub unsafe extern "C" fn cuMemAllocManaged(
    dptr: *mut CUdeviceptr,
    bytesize: usize,
    flags: c_uint,
) -> CUresult {
    status(state::with(|d| {
        let ctx = d.current_ctx()?;
        if dptr.is_null() || bytesize == 0 || !(1..=2).contains(&flags) {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        if !WINDOW_RESERVED.load(std::sync::atomic::Ordering::Relaxed) {
            return Err(CUDA_ERROR_NOT_SUPPORTED);
        }
        let p = d
            .dev
            .alloc(bytesize as u64)
            .map_err(|_| CUDA_ERROR_OUT_OF_MEMORY)?;
        if let Err(e) = map_host_pages(d, p.0, bytesize as u64) {
            d.dev.memory_mut().take(p.0);
            return Err(e);
        }
        // Fresh pages and fresh device memory are both zero.
        // SAFETY: the range was just mapped read-write above.
        unsafe { std::ptr::write_bytes(p.0 as usize as *mut u8, 0, bytesize) };
        d.device_allocs.insert(p.0, (bytesize as u64, ctx));
        d.mirrors.push(Mirror {
            host: p.0 as usize,
            device: p.0,
            len: bytesize,
            managed: true,
        });
        put(dptr, p.0)
    }))
}

/// Forget the mirror of a freed managed allocation (its host pages stay mapped and may be
/// reused by a later managed allocation in the same pages).
pub fn drop_managed(d: &mut Driver, base: u64) {
    d.mirrors.retain(|m| !(m.managed && m.device == base));
}

#[no_mangle]
pub unsafe extern "C" fn cuMemHostRegister_v2(
    p: *mut c_void,
    bytesize: usize,
    Flags: c_uint,
) -> CUresult {
    status(state::with(|d| {
        let ctx = d.current_ctx()?;
        if p.is_null() || bytesize == 0 || Flags > 0xF {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        let host = p as usize;
        if d.mirrors
            .iter()
            .any(|m| !m.managed && host < m.host + m.len && m.host < host + bytesize)
        {
            return Err(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
        }
        let dev = d
            .dev
            .alloc(bytesize as u64)
            .map_err(|_| CUDA_ERROR_OUT_OF_MEMORY)?;
        d.device_allocs.insert(dev.0, (bytesize as u64, ctx));
        d.mirrors.push(Mirror {
            host,
            device: dev.0,
            len: bytesize,
            managed: false,
        });
        Ok(())
    }))
}

#[no_mangle]
pub unsafe extern "C" fn cuMemHostUnregister(p: *mut c_void) -> CUresult {
    status(state::with(|d| {
        let i = d
            .mirrors
            .iter()
            .position(|m| !m.managed && m.host == p as usize)
            .ok_or(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED)?;
        let m = d.mirrors.remove(i);
        d.device_allocs.remove(&m.device);
        d.dev.memory_mut().take(m.device);
        Ok(())
    }))
}

#[no_mangle]
pub unsafe extern "C" fn cuMemHostGetDevicePointer_v2(
    pdptr: *mut CUdeviceptr,
    p: *mut c_void,
    Flags: c_uint,
) -> CUresult {
    status(state::with(|d| {
        if Flags != 0 {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        let host = p as usize;
        let m = d
            .mirrors
            .iter()
            .find(|m| host >= m.host && host < m.host + m.len)
            .ok_or(CUDA_ERROR_INVALID_VALUE)?;
        put(pdptr, m.device + (host - m.host) as u64)
    }))
}

/// `cuMemPrefetchAsync`-style hints have nothing to move: accepted.
#[no_mangle]
pub unsafe extern "C" fn cuStreamAttachMemAsync(
    hStream: Handle,
    _dptr: CUdeviceptr,
    _length: usize,
    _flags: c_uint,
) -> CUresult {
    status(state::with(|d| d.check_stream(hStream)))
}
