//! Contexts: the primary context (`cuDevicePrimaryCtx*`), explicit ones (`cuCtxCreate*`),
//! and each thread's context stack. Every context shares the one device's memory; a
//! destroyed context frees the allocations, modules and streams it owned.

use super::{CUdevice, Handle};
use crate::consts::*;
use crate::ffi::{put, status};
use crate::state::{self, Context, Driver, CTX_STACK};
use crate::CUresult;
use std::ffi::{c_int, c_uint, c_void};

fn check_device(dev: CUdevice) -> Result<(), CUresult> {
    if dev == 0 {
        Ok(())
    } else {
        Err(CUDA_ERROR_INVALID_DEVICE)
    }
}

/// The primary context's handle, created on first use.
fn primary(d: &mut Driver) -> u64 {
    if let Some((h, _)) = d.primary {
        return h;
    }
    let h = d.handle();
    let flags = d.primary_flags;
    d.contexts.insert(
        h,
        Context {
            device: 0,
            flags,
            primary: true,
        },
    );
    d.primary = Some((h, 0));
    h
}

fn create(pctx: *mut Handle, flags: c_uint, dev: CUdevice) -> CUresult {
    status(state::with(|d| {
        check_device(dev)?;
        if pctx.is_null() {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        let h = d.handle();
        d.contexts.insert(
            h,
            Context {
                device: dev,
                flags,
                primary: false,
            },
        );
        put(pctx, h)?;
        // "The context is created with a usage count of 1 and ... made current to the
        // calling thread."
        CTX_STACK.with(|s| s.borrow_mut().push(h));
        Ok(())
    }))
}

#[no_mangle]
pub unsafe extern "C" fn cuCtxCreate_v2(
    pctx: *mut Handle,
    flags: c_uint,
    dev: CUdevice,
) -> CUresult {
    create(pctx, flags, dev)
}

#[no_mangle]
pub unsafe extern "C" fn cuCtxCreate_v3(
    pctx: *mut Handle,
    _paramsArray: *mut c_void,
    numParams: c_int,
    flags: c_uint,
    dev: CUdevice,
) -> CUresult {
    // Execution affinity (SM count limits) has no meaning on the CPU; refuse rather than
    // silently ignore a limit the program asked for.
    if numParams != 0 {
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    create(pctx, flags, dev)
}

#[no_mangle]
pub unsafe extern "C" fn cuCtxCreate_v4(
    pctx: *mut Handle,
    ctxCreateParams: *mut c_void,
    flags: c_uint,
    dev: CUdevice,
) -> CUresult {
    if !ctxCreateParams.is_null() {
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    create(pctx, flags, dev)
}

#[no_mangle]
pub unsafe extern "C" fn cuCtxDestroy_v2(ctx: Handle) -> CUresult {
    status(state::with(|d| {
        match d.contexts.get(&ctx) {
            None => return Err(CUDA_ERROR_INVALID_CONTEXT),
            // The primary context is released, never destroyed.
            Some(c) if c.primary => return Err(CUDA_ERROR_INVALID_CONTEXT),
            Some(_) => {}
        }
        d.contexts.remove(&ctx);
        d.drop_context_objects(ctx);
        // "If the context is current to the calling thread then it is also popped."
        CTX_STACK.with(|s| {
            let mut s = s.borrow_mut();
            if s.last() == Some(&ctx) {
                s.pop();
            }
        });
        Ok(())
    }))
}

#[no_mangle]
pub unsafe extern "C" fn cuCtxGetCurrent(pctx: *mut Handle) -> CUresult {
    status(state::with(|_| {
        let top = CTX_STACK.with(|s| s.borrow().last().copied());
        put(pctx, top.unwrap_or(0))
    }))
}

#[no_mangle]
pub unsafe extern "C" fn cuCtxSetCurrent(ctx: Handle) -> CUresult {
    status(state::with(|d| {
        if ctx != 0 && !d.contexts.contains_key(&ctx) {
            return Err(CUDA_ERROR_INVALID_CONTEXT);
        }
        CTX_STACK.with(|s| {
            let mut s = s.borrow_mut();
            s.pop();
            if ctx != 0 {
                s.push(ctx);
            }
        });
        Ok(())
    }))
}

#[no_mangle]
pub unsafe extern "C" fn cuCtxPushCurrent_v2(ctx: Handle) -> CUresult {
    status(state::with(|d| {
        if !d.contexts.contains_key(&ctx) {
            return Err(CUDA_ERROR_INVALID_CONTEXT);
        }
        CTX_STACK.with(|s| s.borrow_mut().push(ctx));
        Ok(())
    }))
}

#[no_mangle]
pub unsafe extern "C" fn cuCtxPopCurrent_v2(pctx: *mut Handle) -> CUresult {
    status(state::with(|_| {
        let top = CTX_STACK.with(|s| s.borrow_mut().pop());
        match top {
            Some(c) => {
                if !pctx.is_null() {
                    put(pctx, c)?;
                }
                Ok(())
            }
            None => Err(CUDA_ERROR_INVALID_CONTEXT),
        }
    }))
}

/// Work is done when the call that submitted it returns: synchronising only checks that
/// there is a context.
#[no_mangle]
pub unsafe extern "C" fn cuCtxSynchronize() -> CUresult {
    status(state::with(|d| d.current_ctx().map(|_| ())))
}

#[no_mangle]
pub unsafe extern "C" fn cuCtxSynchronize_v2(ctx: Handle) -> CUresult {
    status(state::with(|d| {
        if ctx == 0 {
            d.current_ctx().map(|_| ())
        } else if d.contexts.contains_key(&ctx) {
            Ok(())
        } else {
            Err(CUDA_ERROR_INVALID_CONTEXT)
        }
    }))
}

#[no_mangle]
pub unsafe extern "C" fn cuCtxGetDevice(device: *mut CUdevice) -> CUresult {
    status(state::with(|d| {
        let c = d.current_ctx()?;
        put(device, d.contexts.get(&c).map_or(0, |c| c.device))
    }))
}

#[no_mangle]
pub unsafe extern "C" fn cuCtxGetDevice_v2(device: *mut CUdevice, ctx: Handle) -> CUresult {
    if ctx == 0 {
        return cuCtxGetDevice(device);
    }
    status(state::with(|d| {
        let c = d.contexts.get(&ctx).ok_or(CUDA_ERROR_INVALID_CONTEXT)?;
        put(device, c.device)
    }))
}

#[no_mangle]
pub unsafe extern "C" fn cuCtxGetFlags(flags: *mut c_uint) -> CUresult {
    status(state::with(|d| {
        let c = d.current_ctx()?;
        put(flags, d.contexts.get(&c).map_or(0, |c| c.flags))
    }))
}

#[no_mangle]
pub unsafe extern "C" fn cuCtxGetApiVersion(ctx: Handle, version: *mut c_uint) -> CUresult {
    status(state::with(|d| {
        let c = if ctx == 0 { d.current_ctx()? } else { ctx };
        if !d.contexts.contains_key(&c) {
            return Err(CUDA_ERROR_INVALID_CONTEXT);
        }
        put(version, 13000)
    }))
}

#[no_mangle]
pub unsafe extern "C" fn cuCtxGetLimit(pvalue: *mut usize, limit: c_int) -> CUresult {
    status(state::with(|d| {
        d.current_ctx()?;
        let v = match u32::try_from(limit).unwrap_or(u32::MAX) {
            CU_LIMIT_STACK_SIZE => 1024,
            CU_LIMIT_PRINTF_FIFO_SIZE => 1 << 20,
            CU_LIMIT_MALLOC_HEAP_SIZE => 8 << 20,
            CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH => 2,
            CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT => 2048,
            CU_LIMIT_MAX_L2_FETCH_GRANULARITY => 64,
            CU_LIMIT_PERSISTING_L2_CACHE_SIZE => 0,
            _ => return Err(CUDA_ERROR_UNSUPPORTED_LIMIT),
        };
        put(pvalue, v)
    }))
}

/// Limits are accepted and not enforced (the executor's own bounds apply).
#[no_mangle]
pub unsafe extern "C" fn cuCtxSetLimit(limit: c_int, _value: usize) -> CUresult {
    status(state::with(|d| {
        d.current_ctx()?;
        if u32::try_from(limit).is_ok_and(|l| l <= CU_LIMIT_PERSISTING_L2_CACHE_SIZE) {
            Ok(())
        } else {
            Err(CUDA_ERROR_UNSUPPORTED_LIMIT)
        }
    }))
}

#[no_mangle]
pub unsafe extern "C" fn cuCtxGetStreamPriorityRange(
    leastPriority: *mut c_int,
    greatestPriority: *mut c_int,
) -> CUresult {
    status(state::with(|d| {
        d.current_ctx()?;
        if !leastPriority.is_null() {
            put(leastPriority, 0)?;
        }
        if !greatestPriority.is_null() {
            put(greatestPriority, -5)?;
        }
        Ok(())
    }))
}

#[no_mangle]
pub unsafe extern "C" fn cuCtxGetCacheConfig(pconfig: *mut c_int) -> CUresult {
    status(state::with(|d| {
        d.current_ctx()?;
        put(pconfig, 0)
    }))
}

/// A cache preference has no effect on the CPU; accepted.
#[no_mangle]
pub unsafe extern "C" fn cuCtxSetCacheConfig(_config: c_int) -> CUresult {
    status(state::with(|d| d.current_ctx().map(|_| ())))
}

#[no_mangle]
pub unsafe extern "C" fn cuDevicePrimaryCtxRetain(pctx: *mut Handle, dev: CUdevice) -> CUresult {
    status(state::with(|d| {
        check_device(dev)?;
        if pctx.is_null() {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        let h = primary(d);
        if let Some((_, n)) = d.primary.as_mut() {
            *n += 1;
        }
        put(pctx, h)
    }))
}

#[no_mangle]
pub unsafe extern "C" fn cuDevicePrimaryCtxRelease_v2(dev: CUdevice) -> CUresult {
    status(state::with(|d| {
        check_device(dev)?;
        match d.primary.as_mut() {
            Some((_, n)) if *n > 0 => {
                *n -= 1;
                Ok(())
            }
            _ => Err(CUDA_ERROR_INVALID_CONTEXT),
        }
    }))
}

#[no_mangle]
pub unsafe extern "C" fn cuDevicePrimaryCtxReset_v2(dev: CUdevice) -> CUresult {
    status(state::with(|d| {
        check_device(dev)?;
        if let Some((h, _)) = d.primary {
            d.drop_context_objects(h);
        }
        Ok(())
    }))
}

#[no_mangle]
pub unsafe extern "C" fn cuDevicePrimaryCtxGetState(
    dev: CUdevice,
    flags: *mut c_uint,
    active: *mut c_int,
) -> CUresult {
    status(state::with(|d| {
        check_device(dev)?;
        put(flags, d.primary_flags)?;
        put(active, c_int::from(d.primary.is_some_and(|(_, n)| n > 0)))
    }))
}

#[no_mangle]
pub unsafe extern "C" fn cuDevicePrimaryCtxSetFlags_v2(dev: CUdevice, flags: c_uint) -> CUresult {
    status(state::with(|d| {
        check_device(dev)?;
        d.primary_flags = flags;
        if let Some((h, _)) = d.primary {
            if let Some(c) = d.contexts.get_mut(&h) {
                c.flags = flags;
            }
        }
        Ok(())
    }))
}
