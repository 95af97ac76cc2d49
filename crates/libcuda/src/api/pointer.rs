//! `cuPointerGetAttribute(s)`: what a unified address is (device allocation, module
//! variable or page-locked host allocation of this driver).

use super::CUdeviceptr;
use crate::consts::*;
use crate::ffi::{index, put, status};
use crate::state::{self, Driver};
use crate::CUresult;
use std::ffi::{c_int, c_uint, c_void};

/// What `ptr` is: (memory type, owning context, range start, range length).
fn classify(d: &Driver, ptr: CUdeviceptr) -> Option<(u32, u64, u64, u64)> {
    if let Some(m) = d.mirrors.iter().find(|m| {
        !m.managed && usize::try_from(ptr).is_ok_and(|p| p >= m.host && p < m.host + m.len)
    }) {
        let ctx = d.device_allocs.get(&m.device).map_or(0, |&(_, c)| c);
        return Some((CU_MEMORYTYPE_HOST, ctx, m.host as u64, m.len as u64));
    }
    if let Some((base, len)) = d.device_range(ptr, 0) {
        let ctx = d.device_allocs.get(&base).map_or(0, |&(_, c)| c);
        return Some((CU_MEMORYTYPE_DEVICE, ctx, base, len));
    }
    if let Some(a) = d.dev.memory().find(ptr, 0) {
        let ctx = d.modules.values().next().map_or(0, |m| m.ctx);
        return Some((CU_MEMORYTYPE_DEVICE, ctx, a.base, a.len));
    }
    let (base, len, _) = d.host_range(usize::try_from(ptr).ok()?)?;
    let ctx = d.primary.map_or(0, |(h, _)| h);
    Some((CU_MEMORYTYPE_HOST, ctx, base as u64, len as u64))
}

/// Write attribute `attr` of `ptr` to `data`.
fn attribute(d: &Driver, attr: u32, data: *mut c_void, ptr: CUdeviceptr) -> Result<(), CUresult> {
    let (ty, ctx, base, len) = classify(d, ptr).ok_or(CUDA_ERROR_INVALID_VALUE)?;
    let managed = super::mirror::mirror_at(d, ptr).is_some_and(|m| m.managed);
    match attr {
        CU_POINTER_ATTRIBUTE_CONTEXT => put(data.cast::<u64>(), ctx),
        CU_POINTER_ATTRIBUTE_MEMORY_TYPE => put(data.cast::<c_uint>(), ty),
        CU_POINTER_ATTRIBUTE_DEVICE_POINTER if ty == CU_MEMORYTYPE_DEVICE => {
            put(data.cast::<u64>(), ptr)
        }
        CU_POINTER_ATTRIBUTE_HOST_POINTER if ty == CU_MEMORYTYPE_HOST => {
            put(data.cast::<u64>(), ptr)
        }
        CU_POINTER_ATTRIBUTE_BUFFER_ID => put(data.cast::<u64>(), base),
        CU_POINTER_ATTRIBUTE_IS_MANAGED => put(data.cast::<c_uint>(), c_uint::from(managed)),
        CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL => put(data.cast::<c_int>(), 0),
        CU_POINTER_ATTRIBUTE_RANGE_START_ADDR => put(data.cast::<u64>(), base),
        CU_POINTER_ATTRIBUTE_RANGE_SIZE => put(data.cast::<usize>(), len as usize),
        CU_POINTER_ATTRIBUTE_MAPPED => put(data.cast::<c_uint>(), 1),
        CU_POINTER_ATTRIBUTE_SYNC_MEMOPS => put(data.cast::<c_uint>(), 1),
        _ => Err(CUDA_ERROR_INVALID_VALUE),
    }
}

#[no_mangle]
pub unsafe extern "C" fn cuPointerGetAttribute(
    data: *mut c_void,
    attribute_: c_int,
    ptr: CUdeviceptr,
) -> CUresult {
    status(state::with(|d| {
        let attr = u32::try_from(attribute_).map_err(|_| CUDA_ERROR_INVALID_VALUE)?;
        attribute(d, attr, data, ptr)
    }))
}

/// Unlike the single form, an address the driver does not know is not an error: its
/// memory type reads as 0 and the other attributes are left zeroed.
#[no_mangle]
pub unsafe extern "C" fn cuPointerGetAttributes(
    numAttributes: c_uint,
    attributes: *mut c_int,
    data: *mut *mut c_void,
    ptr: CUdeviceptr,
) -> CUresult {
    status(state::with(|d| {
        let known = classify(d, ptr).is_some();
        for i in 0..numAttributes as usize {
            let attr = u32::try_from(index(attributes.cast_const(), i)?).unwrap_or(u32::MAX);
            let out = index(data.cast_const(), i)?;
            if out.is_null() {
                continue;
            }
            if known {
                if attribute(d, attr, out, ptr).is_err() {
                    put(out.cast::<u64>(), 0)?;
                }
            } else if attr == CU_POINTER_ATTRIBUTE_CONTEXT
                || attr == CU_POINTER_ATTRIBUTE_DEVICE_POINTER
                || attr == CU_POINTER_ATTRIBUTE_HOST_POINTER
                || attr == CU_POINTER_ATTRIBUTE_RANGE_START_ADDR
                || attr == CU_POINTER_ATTRIBUTE_RANGE_SIZE
                || attr == CU_POINTER_ATTRIBUTE_BUFFER_ID
            {
                put(out.cast::<u64>(), 0)?;
            } else {
                put(out.cast::<c_uint>(), 0)?;
            }
        }
        Ok(())
    }))
}
