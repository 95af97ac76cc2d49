//! The one device: `cuDeviceGet*` and its attributes, answered as an sm_86-class GPU (a
//! GeForce RTX 3060's figures) so that clients choose code paths such a GPU supports.

use super::CUdevice;
use crate::consts::*;
use crate::ffi::{put, put_c_string, status};
use crate::state;
use crate::CUresult;
use std::ffi::{c_char, c_int};

/// What `cuDeviceGetName` reports.
pub const DEVICE_NAME: &str = "ptxvm (CPU, sm_86)";

/// Multiprocessors reported (an RTX 3060 has 28).
const SM_COUNT: i32 = 28;

/// The value of a device attribute, or `None` for a number past every attribute.
pub fn attribute(attr: u32) -> Option<i32> {
    Some(match attr {
        CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK => 1024,
        CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X | CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y => 1024,
        CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z => 64,
        CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X => i32::MAX,
        CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y | CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z => 65535,
        CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK => 48 * 1024,
        CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY => 64 * 1024,
        CU_DEVICE_ATTRIBUTE_WARP_SIZE => 32,
        CU_DEVICE_ATTRIBUTE_MAX_PITCH => i32::MAX,
        CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK => 65536,
        CU_DEVICE_ATTRIBUTE_CLOCK_RATE => 1_777_000,
        CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT => 512,
        CU_DEVICE_ATTRIBUTE_GPU_OVERLAP => 1,
        CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT => SM_COUNT,
        CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT => 0,
        CU_DEVICE_ATTRIBUTE_INTEGRATED => 0,
        // Mapped host memory has a device copy kept equal around each operation
        // (api::mirror); pageable memory is not reachable from kernels.
        CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY => 1,
        CU_DEVICE_ATTRIBUTE_COMPUTE_MODE => 0,
        CU_DEVICE_ATTRIBUTE_SURFACE_ALIGNMENT => 512,
        CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS => 1,
        CU_DEVICE_ATTRIBUTE_ECC_ENABLED => 0,
        CU_DEVICE_ATTRIBUTE_PCI_BUS_ID | CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID => 0,
        CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID => 0,
        CU_DEVICE_ATTRIBUTE_TCC_DRIVER => 0,
        CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE => 7_501_000,
        CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH => 192,
        CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE => 3 << 20,
        CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR => 1536,
        CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT => 2,
        CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING => 1,
        CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR => 8,
        CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR => 6,
        CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED => 1,
        CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED => 1,
        CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED => 1,
        CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR => 100 * 1024,
        CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR => 65536,
        CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY => {
            i32::from(crate::state::WINDOW_RESERVED.load(std::sync::atomic::Ordering::Relaxed))
        }
        CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD => 0,
        CU_DEVICE_ATTRIBUTE_SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO => 64,
        CU_DEVICE_ATTRIBUTE_COMPUTE_PREEMPTION_SUPPORTED => 1,
        CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN => 99 * 1024,
        CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR => 16,
        CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK => 1024,
        CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE => 0,
        CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE => 0,
        a if a < CU_DEVICE_ATTRIBUTE_MAX => 0,
        _ => return None,
    })
}

fn check_device(dev: CUdevice) -> Result<(), CUresult> {
    state::with(|_| Ok(()))?;
    if dev == 0 {
        Ok(())
    } else {
        Err(CUDA_ERROR_INVALID_DEVICE)
    }
}

#[no_mangle]
pub unsafe extern "C" fn cuDeviceGet(device: *mut CUdevice, ordinal: c_int) -> CUresult {
    status((|| {
        state::with(|_| Ok(()))?;
        if ordinal != 0 {
            return Err(CUDA_ERROR_INVALID_DEVICE);
        }
        put(device, 0)
    })())
}

#[no_mangle]
pub unsafe extern "C" fn cuDeviceGetCount(count: *mut c_int) -> CUresult {
    status(state::with(|_| Ok(())).and_then(|()| put(count, 1)))
}

#[no_mangle]
pub unsafe extern "C" fn cuDeviceGetName(name: *mut c_char, len: c_int, dev: CUdevice) -> CUresult {
    status((|| {
        check_device(dev)?;
        let cap = usize::try_from(len).map_err(|_| CUDA_ERROR_INVALID_VALUE)?;
        put_c_string(name, cap, DEVICE_NAME)
    })())
}

#[no_mangle]
pub unsafe extern "C" fn cuDeviceGetAttribute(
    pi: *mut c_int,
    attrib: c_int,
    dev: CUdevice,
) -> CUresult {
    status((|| {
        check_device(dev)?;
        let v = u32::try_from(attrib)
            .ok()
            .and_then(attribute)
            .ok_or(CUDA_ERROR_INVALID_VALUE)?;
        put(pi, v)
    })())
}

#[no_mangle]
pub unsafe extern "C" fn cuDeviceTotalMem_v2(bytes: *mut usize, dev: CUdevice) -> CUresult {
    status((|| {
        check_device(dev)?;
        let total = state::with(|d| Ok(d.dev.memory().limit()))?;
        put(bytes, total as usize)
    })())
}

/// A fixed UUID, so a program that keys caches by device sees the same device every run.
const UUID: [u8; 16] = *b"ptxvm-cpu-sm_86\0";

#[no_mangle]
pub unsafe extern "C" fn cuDeviceGetUuid(uuid: *mut [u8; 16], dev: CUdevice) -> CUresult {
    status(check_device(dev).and_then(|()| put(uuid, UUID)))
}

#[no_mangle]
pub unsafe extern "C" fn cuDeviceGetUuid_v2(uuid: *mut [u8; 16], dev: CUdevice) -> CUresult {
    cuDeviceGetUuid(uuid, dev)
}

#[no_mangle]
pub unsafe extern "C" fn cuDeviceComputeCapability(
    major: *mut c_int,
    minor: *mut c_int,
    dev: CUdevice,
) -> CUresult {
    status((|| {
        check_device(dev)?;
        put(major, 8)?;
        put(minor, 6)
    })())
}

#[no_mangle]
pub unsafe extern "C" fn cuDeviceGetPCIBusId(
    pciBusId: *mut c_char,
    len: c_int,
    dev: CUdevice,
) -> CUresult {
    status((|| {
        check_device(dev)?;
        let cap = usize::try_from(len).map_err(|_| CUDA_ERROR_INVALID_VALUE)?;
        put_c_string(pciBusId, cap, "0000:00:00.0")
    })())
}

#[no_mangle]
pub unsafe extern "C" fn cuDeviceCanAccessPeer(
    canAccessPeer: *mut c_int,
    dev: CUdevice,
    peerDev: CUdevice,
) -> CUresult {
    status((|| {
        check_device(dev)?;
        check_device(peerDev)?;
        put(canAccessPeer, 0)
    })())
}
