//! The implemented driver-API functions, one module per area. Each is an exported
//! `extern "C"` function with the C signature of `include/cuda.h` (handles are passed as
//! 64-bit integers, which the x86-64 SysV ABI passes exactly like pointers).

pub mod context;
pub mod device;
pub mod errors;
pub mod launch;
pub mod library;
pub mod memory;
pub mod mirror;
pub mod module;
pub mod pointer;
pub mod proc_address;
pub mod stream;

pub use context::*;
pub use device::*;
pub use errors::*;
pub use launch::*;
pub use library::*;
pub use memory::*;
pub use mirror::*;
pub use module::*;
pub use pointer::*;
pub use proc_address::*;
pub use stream::*;

/// `CUdevice`.
pub type CUdevice = std::ffi::c_int;
/// `CUdeviceptr`.
pub type CUdeviceptr = u64;
/// Every opaque handle type (`CUcontext`, `CUmodule`, `CUstream`, ...).
pub type Handle = u64;
