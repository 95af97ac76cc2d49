//! `libcuda.so.1` on the CPU: the CUDA driver API over ptxvm's executor.
//!
//! `include/cuda.h` is the one list of the API: `build.rs` reads it and generates an exported
//! stub (returning `CUDA_ERROR_NOT_SUPPORTED`) for every declared function this crate does not
//! implement, the `cuGetProcAddress` table and the enumerators as constants. The implemented
//! functions live in [`api`], one module per area; all driver state is in [`state`], behind
//! one lock, so every call is thread-safe. Work runs synchronously inside the call that
//! submits it, so a stream is always idle and an event is complete as soon as it is recorded.
//!
//! This is the only crate of the workspace with `unsafe` code: the C ABI hands it raw
//! pointers. Every `unsafe` block states why it is sound; most rest on the driver API's
//! contract that a pointer argument points to the memory the documentation describes.

#![allow(unsafe_code)]
#![allow(non_snake_case)]
#![allow(clippy::missing_safety_doc)]
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod api;
pub mod consts;
mod ffi;
pub mod state;
mod stub;

/// A driver API status code (`CUresult`).
pub type CUresult = u32;

mod exports {
    use super::CUresult;
    #[allow(unused_imports)]
    use crate::api::*;
    include!(concat!(env!("OUT_DIR"), "/exports.rs"));
}

pub use exports::{per_thread_address, symbol_address, PROCS};
