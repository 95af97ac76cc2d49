//! Streams and events. Work runs synchronously in the call that submits it, so every
//! stream is idle whenever the program can ask, and recording an event completes it: the
//! results a program can observe are those of a GPU that happened to finish each piece of
//! work at once. Elapsed times are host wall-clock times between the recordings.

use super::Handle;
use crate::consts::*;
use crate::ffi::{put, status};
use crate::state::{self, Event, Stream};
use crate::CUresult;
use std::ffi::{c_int, c_uint};
use std::time::Instant;

fn create_stream(ph: *mut Handle, flags: c_uint, priority: c_int) -> CUresult {
    status(state::with(|d| {
        let ctx = d.current_ctx()?;
        if ph.is_null() || flags > CU_STREAM_NON_BLOCKING {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        let h = d.handle();
        // Priorities are clamped to the range cuCtxGetStreamPriorityRange reports.
        let priority = priority.clamp(-5, 0);
        d.streams.insert(
            h,
            Stream {
                ctx,
                flags,
                priority,
            },
        );
        put(ph, h)
    }))
}

#[no_mangle]
pub unsafe extern "C" fn cuStreamCreate(phStream: *mut Handle, Flags: c_uint) -> CUresult {
    create_stream(phStream, Flags, 0)
}

#[no_mangle]
pub unsafe extern "C" fn cuStreamCreateWithPriority(
    phStream: *mut Handle,
    flags: c_uint,
    priority: c_int,
) -> CUresult {
    create_stream(phStream, flags, priority)
}

#[no_mangle]
pub unsafe extern "C" fn cuStreamDestroy_v2(hStream: Handle) -> CUresult {
    status(state::with(|d| {
        d.streams
            .remove(&hStream)
            .map(|_| ())
            .ok_or(CUDA_ERROR_INVALID_HANDLE)
    }))
}

fn stream_ok(hStream: Handle) -> CUresult {
    status(state::with(|d| {
        d.current_ctx()?;
        d.check_stream(hStream)
    }))
}

#[no_mangle]
pub unsafe extern "C" fn cuStreamSynchronize(hStream: Handle) -> CUresult {
    stream_ok(hStream)
}

/// Always complete (`CUDA_SUCCESS`, never `CUDA_ERROR_NOT_READY`).
#[no_mangle]
pub unsafe extern "C" fn cuStreamQuery(hStream: Handle) -> CUresult {
    stream_ok(hStream)
}

/// The event is complete once recorded, so the wait is already satisfied.
#[no_mangle]
pub unsafe extern "C" fn cuStreamWaitEvent(
    hStream: Handle,
    hEvent: Handle,
    Flags: c_uint,
) -> CUresult {
    status(state::with(|d| {
        d.current_ctx()?;
        d.check_stream(hStream)?;
        if !d.events.contains_key(&hEvent) {
            return Err(CUDA_ERROR_INVALID_HANDLE);
        }
        if Flags > 1 {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        Ok(())
    }))
}

#[no_mangle]
pub unsafe extern "C" fn cuStreamGetFlags(hStream: Handle, flags: *mut c_uint) -> CUresult {
    status(state::with(|d| {
        d.check_stream(hStream)?;
        put(flags, d.streams.get(&hStream).map_or(0, |s| s.flags))
    }))
}

#[no_mangle]
pub unsafe extern "C" fn cuStreamGetPriority(hStream: Handle, priority: *mut c_int) -> CUresult {
    status(state::with(|d| {
        d.check_stream(hStream)?;
        put(priority, d.streams.get(&hStream).map_or(0, |s| s.priority))
    }))
}

#[no_mangle]
pub unsafe extern "C" fn cuStreamGetCtx(hStream: Handle, pctx: *mut Handle) -> CUresult {
    status(state::with(|d| {
        d.check_stream(hStream)?;
        let ctx = match d.streams.get(&hStream) {
            Some(s) => s.ctx,
            None => d.current_ctx()?,
        };
        put(pctx, ctx)
    }))
}

#[no_mangle]
pub unsafe extern "C" fn cuEventCreate(phEvent: *mut Handle, Flags: c_uint) -> CUresult {
    status(state::with(|d| {
        d.current_ctx()?;
        if phEvent.is_null() || Flags > 0xF {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        let h = d.handle();
        d.events.insert(
            h,
            Event {
                flags: Flags,
                recorded: None,
            },
        );
        put(phEvent, h)
    }))
}

#[no_mangle]
pub unsafe extern "C" fn cuEventRecord(hEvent: Handle, hStream: Handle) -> CUresult {
    status(state::with(|d| {
        d.check_stream(hStream)?;
        let e = d.events.get_mut(&hEvent).ok_or(CUDA_ERROR_INVALID_HANDLE)?;
        e.recorded = Some(Instant::now());
        Ok(())
    }))
}

#[no_mangle]
pub unsafe extern "C" fn cuEventRecordWithFlags(
    hEvent: Handle,
    hStream: Handle,
    _flags: c_uint,
) -> CUresult {
    cuEventRecord(hEvent, hStream)
}

fn event_ok(hEvent: Handle) -> CUresult {
    status(state::with(|d| {
        d.events
            .get(&hEvent)
            .map(|_| ())
            .ok_or(CUDA_ERROR_INVALID_HANDLE)
    }))
}

#[no_mangle]
pub unsafe extern "C" fn cuEventSynchronize(hEvent: Handle) -> CUresult {
    event_ok(hEvent)
}

#[no_mangle]
pub unsafe extern "C" fn cuEventQuery(hEvent: Handle) -> CUresult {
    event_ok(hEvent)
}

#[no_mangle]
pub unsafe extern "C" fn cuEventDestroy_v2(hEvent: Handle) -> CUresult {
    status(state::with(|d| {
        d.events
            .remove(&hEvent)
            .map(|_| ())
            .ok_or(CUDA_ERROR_INVALID_HANDLE)
    }))
}

#[no_mangle]
pub unsafe extern "C" fn cuEventElapsedTime(
    pMilliseconds: *mut f32,
    hStart: Handle,
    hEnd: Handle,
) -> CUresult {
    status(state::with(|d| {
        let s = d.events.get(&hStart).ok_or(CUDA_ERROR_INVALID_HANDLE)?;
        let e = d.events.get(&hEnd).ok_or(CUDA_ERROR_INVALID_HANDLE)?;
        // "If either event was created with the CU_EVENT_DISABLE_TIMING flag, then this
        // function will return CUDA_ERROR_INVALID_HANDLE"; likewise for an event never
        // recorded.
        if (s.flags | e.flags) & CU_EVENT_DISABLE_TIMING != 0 {
            return Err(CUDA_ERROR_INVALID_HANDLE);
        }
        let (Some(t0), Some(t1)) = (s.recorded, e.recorded) else {
            return Err(CUDA_ERROR_INVALID_HANDLE);
        };
        let ms = if t1 >= t0 {
            (t1 - t0).as_secs_f64() * 1e3
        } else {
            -((t0 - t1).as_secs_f64() * 1e3)
        };
        put(pMilliseconds, ms as f32)
    }))
}

#[no_mangle]
pub unsafe extern "C" fn cuEventElapsedTime_v2(
    pMilliseconds: *mut f32,
    hStart: Handle,
    hEnd: Handle,
) -> CUresult {
    cuEventElapsedTime(pMilliseconds, hStart, hEnd)
}

/// A host function queued on a stream runs at once, after the work before it (which is
/// done). It runs without the driver lock held, so it may itself call the driver.
#[no_mangle]
pub unsafe extern "C" fn cuLaunchHostFunc(
    hStream: Handle,
    fn_: Option<unsafe extern "C" fn(*mut std::ffi::c_void)>,
    userData: *mut std::ffi::c_void,
) -> CUresult {
    let Some(f) = fn_ else {
        return CUDA_ERROR_INVALID_VALUE;
    };
    let r = stream_ok(hStream);
    if r != CUDA_SUCCESS {
        return r;
    }
    // SAFETY: the program passed `f` to be called with `userData`; that is all we do.
    unsafe { f(userData) };
    CUDA_SUCCESS
}

/// A stream callback runs at once with the stream's status (always success: errors are
/// returned by the calls that cause them).
#[no_mangle]
pub unsafe extern "C" fn cuStreamAddCallback(
    hStream: Handle,
    callback: Option<unsafe extern "C" fn(Handle, CUresult, *mut std::ffi::c_void)>,
    userData: *mut std::ffi::c_void,
    flags: c_uint,
) -> CUresult {
    // "flags: Reserved for future use, must be 0".
    let Some(f) = callback.filter(|_| flags == 0) else {
        return CUDA_ERROR_INVALID_VALUE;
    };
    let r = stream_ok(hStream);
    if r != CUDA_SUCCESS {
        return r;
    }
    // SAFETY: the program passed `f` to be called with these arguments; that is all we do.
    unsafe { f(hStream, CUDA_SUCCESS, userData) };
    CUDA_SUCCESS
}

/// There is no profiler to start or stop; accepted so profiling hooks in programs are
/// harmless.
#[no_mangle]
pub unsafe extern "C" fn cuProfilerStart() -> CUresult {
    CUDA_SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn cuProfilerStop() -> CUresult {
    CUDA_SUCCESS
}
