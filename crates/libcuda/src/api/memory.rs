//! Device memory (`cuMemAlloc`, `cuMemFree`, `cuMemGetInfo`), page-locked host memory
//! (`cuMemAllocHost`, `cuMemHostAlloc`, `cuMemFreeHost`), copies and memsets. Device memory
//! is the executor's global memory; the `Async` forms run at once (work is synchronous).

use super::{CUdeviceptr, Handle};
use crate::consts::*;
use crate::ffi::{host_bytes, host_bytes_mut, put, status};
use crate::state::{self, Driver, HostAlloc};
use crate::CUresult;
use std::ffi::{c_uint, c_void};

/// `[addr, addr + len)` must lie in one device allocation (program allocations and module
/// variables alike).
fn check_device(d: &Driver, addr: CUdeviceptr, len: usize) -> Result<(), CUresult> {
    if len == 0 || d.dev.memory().find(addr, len as u64).is_some() {
        Ok(())
    } else {
        Err(CUDA_ERROR_INVALID_VALUE)
    }
}

fn copy_htod(d: &Driver, dst: CUdeviceptr, src: *const c_void, n: usize) -> Result<(), CUresult> {
    check_device(d, dst, n)?;
    let bytes = host_bytes(src.cast(), n)?;
    d.dev
        .write(exec::DevicePtr(dst), bytes)
        .map_err(|_| CUDA_ERROR_INVALID_VALUE)
}

fn copy_dtoh(d: &Driver, dst: *mut c_void, src: CUdeviceptr, n: usize) -> Result<(), CUresult> {
    check_device(d, src, n)?;
    let out = host_bytes_mut(dst.cast(), n)?;
    let bytes = d
        .dev
        .read(exec::DevicePtr(src), n as u64)
        .map_err(|_| CUDA_ERROR_INVALID_VALUE)?;
    out.copy_from_slice(&bytes);
    Ok(())
}

fn copy_dtod(d: &Driver, dst: CUdeviceptr, src: CUdeviceptr, n: usize) -> Result<(), CUresult> {
    check_device(d, src, n)?;
    check_device(d, dst, n)?;
    if n == 0 {
        return Ok(());
    }
    let bytes = d
        .dev
        .read(exec::DevicePtr(src), n as u64)
        .map_err(|_| CUDA_ERROR_INVALID_VALUE)?;
    d.dev
        .write(exec::DevicePtr(dst), &bytes)
        .map_err(|_| CUDA_ERROR_INVALID_VALUE)
}

/// `cuMemcpy`: with unified addressing the pointers say which side they are on.
fn copy_any(d: &Driver, dst: u64, src: u64, n: usize) -> Result<(), CUresult> {
    let on_device = |p: u64| d.dev.memory().find(p, n as u64).is_some();
    match (on_device(dst), on_device(src)) {
        (true, true) => copy_dtod(d, dst, src, n),
        (true, false) if !Driver::is_device_address(src) => {
            copy_htod(d, dst, src as usize as *const c_void, n)
        }
        (false, true) if !Driver::is_device_address(dst) => {
            copy_dtoh(d, dst as usize as *mut c_void, src, n)
        }
        (false, false) if !Driver::is_device_address(dst) && !Driver::is_device_address(src) => {
            let from = host_bytes(src as usize as *const u8, n)?.to_vec();
            host_bytes_mut(dst as usize as *mut u8, n)?.copy_from_slice(&from);
            Ok(())
        }
        _ => Err(CUDA_ERROR_INVALID_VALUE),
    }
}

fn memset(d: &Driver, dst: CUdeviceptr, pattern: &[u8], count: usize) -> Result<(), CUresult> {
    let n = count
        .checked_mul(pattern.len())
        .ok_or(CUDA_ERROR_INVALID_VALUE)?;
    if !dst.is_multiple_of(pattern.len() as u64) {
        return Err(CUDA_ERROR_INVALID_VALUE);
    }
    check_device(d, dst, n)?;
    let bytes: Vec<u8> = pattern.iter().copied().cycle().take(n).collect();
    d.dev
        .write(exec::DevicePtr(dst), &bytes)
        .map_err(|_| CUDA_ERROR_INVALID_VALUE)
}

/// Run `f` with the driver after checking the current context and the stream argument
/// (mirrored host memory made current around it).
fn on_stream(stream: Handle, f: impl FnOnce(&mut Driver) -> Result<(), CUresult>) -> CUresult {
    status(state::with(|d| {
        d.current_ctx()?;
        d.check_stream(stream)?;
        super::mirror::synced(d, f)
    }))
}

fn in_ctx(f: impl FnOnce(&mut Driver) -> Result<(), CUresult>) -> CUresult {
    status(state::with(|d| {
        d.current_ctx()?;
        super::mirror::synced(d, f)
    }))
}

#[no_mangle]
pub unsafe extern "C" fn cuMemAlloc_v2(dptr: *mut CUdeviceptr, bytesize: usize) -> CUresult {
    in_ctx(|d| {
        if dptr.is_null() || bytesize == 0 {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        let ctx = d.current_ctx()?;
        let p = d
            .dev
            .alloc(bytesize as u64)
            .map_err(|_| CUDA_ERROR_OUT_OF_MEMORY)?;
        d.device_allocs.insert(p.0, (bytesize as u64, ctx));
        put(dptr, p.0)
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuMemFree_v2(dptr: CUdeviceptr) -> CUresult {
    in_ctx(|d| {
        if dptr == 0 {
            return Ok(());
        }
        // A registered range's device copy is freed by cuMemHostUnregister only.
        if super::mirror::mirror_at(d, dptr).is_some_and(|m| !m.managed) {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        if d.device_allocs.remove(&dptr).is_none() {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        super::mirror::drop_managed(d, dptr);
        d.dev.memory_mut().take(dptr);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuMemGetInfo_v2(free: *mut usize, total: *mut usize) -> CUresult {
    in_ctx(|d| {
        let m = d.dev.memory();
        put(free, m.available() as usize)?;
        put(total, m.limit() as usize)
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuMemGetAddressRange_v2(
    pbase: *mut CUdeviceptr,
    psize: *mut usize,
    dptr: CUdeviceptr,
) -> CUresult {
    in_ctx(|d| {
        let (base, len) = d.device_range(dptr, 0).ok_or(CUDA_ERROR_NOT_FOUND)?;
        if !pbase.is_null() {
            put(pbase, base)?;
        }
        if !psize.is_null() {
            put(psize, len as usize)?;
        }
        Ok(())
    })
}

fn host_alloc(pp: *mut *mut c_void, bytesize: usize, flags: c_uint) -> CUresult {
    in_ctx(|d| {
        if pp.is_null() {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        // SAFETY: calloc of a positive size; the result is checked for null below and
        // freed only by cuMemFreeHost through the table.
        let p = unsafe { libc::calloc(bytesize.max(1), 1) }.cast::<u8>();
        if p.is_null() {
            return Err(CUDA_ERROR_OUT_OF_MEMORY);
        }
        d.host_allocs.insert(
            p as usize,
            HostAlloc {
                len: bytesize,
                flags,
                ptr: p,
            },
        );
        // A mapped allocation gets a device copy (cuMemHostGetDevicePointer).
        if flags & CU_MEMHOSTALLOC_DEVICEMAP_FLAG != 0 {
            let ctx = d.current_ctx()?;
            let dev = d
                .dev
                .alloc(bytesize.max(1) as u64)
                .map_err(|_| CUDA_ERROR_OUT_OF_MEMORY)?;
            d.device_allocs.insert(dev.0, (bytesize.max(1) as u64, ctx));
            d.mirrors.push(super::mirror::Mirror {
                host: p as usize,
                device: dev.0,
                len: bytesize,
                managed: false,
            });
        }
        put(pp, p.cast())
    })
}

/// `CU_MEMHOSTALLOC_DEVICEMAP` (a macro in cuda.h, not an enumerator).
const CU_MEMHOSTALLOC_DEVICEMAP_FLAG: c_uint = 0x02;

#[no_mangle]
pub unsafe extern "C" fn cuMemAllocHost_v2(pp: *mut *mut c_void, bytesize: usize) -> CUresult {
    host_alloc(pp, bytesize, 0)
}

#[no_mangle]
pub unsafe extern "C" fn cuMemHostAlloc(
    pp: *mut *mut c_void,
    bytesize: usize,
    Flags: c_uint,
) -> CUresult {
    host_alloc(pp, bytesize, Flags)
}

#[no_mangle]
pub unsafe extern "C" fn cuMemFreeHost(p: *mut c_void) -> CUresult {
    in_ctx(|d| {
        let a = d
            .host_allocs
            .remove(&(p as usize))
            .ok_or(CUDA_ERROR_INVALID_VALUE)?;
        if let Some(i) = d.mirrors.iter().position(|m| m.host == p as usize) {
            let m = d.mirrors.remove(i);
            d.device_allocs.remove(&m.device);
            d.dev.memory_mut().take(m.device);
        }
        // SAFETY: `a.ptr` came from calloc in `host_alloc` and was removed from the table,
        // so it is freed exactly once.
        unsafe { libc::free(a.ptr.cast()) };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuMemHostGetFlags(pFlags: *mut c_uint, p: *mut c_void) -> CUresult {
    in_ctx(|d| {
        let (_, _, flags) = d.host_range(p as usize).ok_or(CUDA_ERROR_INVALID_VALUE)?;
        put(pFlags, flags)
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuMemcpy(
    dst: CUdeviceptr,
    src: CUdeviceptr,
    ByteCount: usize,
) -> CUresult {
    in_ctx(|d| copy_any(d, dst, src, ByteCount))
}

#[no_mangle]
pub unsafe extern "C" fn cuMemcpyAsync(
    dst: CUdeviceptr,
    src: CUdeviceptr,
    ByteCount: usize,
    hStream: Handle,
) -> CUresult {
    on_stream(hStream, |d| copy_any(d, dst, src, ByteCount))
}

#[no_mangle]
pub unsafe extern "C" fn cuMemcpyHtoD_v2(
    dstDevice: CUdeviceptr,
    srcHost: *const c_void,
    ByteCount: usize,
) -> CUresult {
    in_ctx(|d| copy_htod(d, dstDevice, srcHost, ByteCount))
}

#[no_mangle]
pub unsafe extern "C" fn cuMemcpyDtoH_v2(
    dstHost: *mut c_void,
    srcDevice: CUdeviceptr,
    ByteCount: usize,
) -> CUresult {
    in_ctx(|d| copy_dtoh(d, dstHost, srcDevice, ByteCount))
}

#[no_mangle]
pub unsafe extern "C" fn cuMemcpyDtoD_v2(
    dstDevice: CUdeviceptr,
    srcDevice: CUdeviceptr,
    ByteCount: usize,
) -> CUresult {
    in_ctx(|d| copy_dtod(d, dstDevice, srcDevice, ByteCount))
}

#[no_mangle]
pub unsafe extern "C" fn cuMemcpyHtoDAsync_v2(
    dstDevice: CUdeviceptr,
    srcHost: *const c_void,
    ByteCount: usize,
    hStream: Handle,
) -> CUresult {
    on_stream(hStream, |d| copy_htod(d, dstDevice, srcHost, ByteCount))
}

#[no_mangle]
pub unsafe extern "C" fn cuMemcpyDtoHAsync_v2(
    dstHost: *mut c_void,
    srcDevice: CUdeviceptr,
    ByteCount: usize,
    hStream: Handle,
) -> CUresult {
    on_stream(hStream, |d| copy_dtoh(d, dstHost, srcDevice, ByteCount))
}

#[no_mangle]
pub unsafe extern "C" fn cuMemcpyDtoDAsync_v2(
    dstDevice: CUdeviceptr,
    srcDevice: CUdeviceptr,
    ByteCount: usize,
    hStream: Handle,
) -> CUresult {
    on_stream(hStream, |d| copy_dtod(d, dstDevice, srcDevice, ByteCount))
}

#[no_mangle]
pub unsafe extern "C" fn cuMemsetD8_v2(dstDevice: CUdeviceptr, uc: u8, N: usize) -> CUresult {
    in_ctx(|d| memset(d, dstDevice, &[uc], N))
}

#[no_mangle]
pub unsafe extern "C" fn cuMemsetD16_v2(dstDevice: CUdeviceptr, us: u16, N: usize) -> CUresult {
    in_ctx(|d| memset(d, dstDevice, &us.to_le_bytes(), N))
}

#[no_mangle]
pub unsafe extern "C" fn cuMemsetD32_v2(dstDevice: CUdeviceptr, ui: u32, N: usize) -> CUresult {
    in_ctx(|d| memset(d, dstDevice, &ui.to_le_bytes(), N))
}

#[no_mangle]
pub unsafe extern "C" fn cuMemsetD8Async(
    dstDevice: CUdeviceptr,
    uc: u8,
    N: usize,
    hStream: Handle,
) -> CUresult {
    on_stream(hStream, |d| memset(d, dstDevice, &[uc], N))
}

#[no_mangle]
pub unsafe extern "C" fn cuMemsetD16Async(
    dstDevice: CUdeviceptr,
    us: u16,
    N: usize,
    hStream: Handle,
) -> CUresult {
    on_stream(hStream, |d| memset(d, dstDevice, &us.to_le_bytes(), N))
}

#[no_mangle]
pub unsafe extern "C" fn cuMemsetD32Async(
    dstDevice: CUdeviceptr,
    ui: u32,
    N: usize,
    hStream: Handle,
) -> CUresult {
    on_stream(hStream, |d| memset(d, dstDevice, &ui.to_le_bytes(), N))
}
