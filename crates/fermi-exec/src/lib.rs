//! The Fermi executor: runs a kernel of an NVIDIA sm_20 cubin on the CPU with the same launch
//! spec and buffers as `ptxvm run` on PTX, bit for bit.
//!
//! - Decoding is the `fermi` crate's (one table for every direction); semantics are the `ops`
//!   crate's (integer, carry, video, float with `.FTZ` and rounding, conversions, `.approx`
//!   functions for `MUFU`).
//! - The sm_20 launch ABI: parameters at `c[0x0][0x20]`, `%ntid`/`%nctaid` at
//!   `c[0x0][0x8..0x20]`, the shared window's generic address at `c[0x0][0x0]`, the stack top at
//!   `c[0x1][0x100]`; 32-bit addresses, or 64-bit pairs with `.E` in `-m64` cubins.
//! - A warp is 32 lanes run together per decoded instruction, with the reconvergence stack the
//!   compiler relies on (`SSY`/`.S`, `PBK`/`BRK`, `PCNT`/`CONT`, `CAL`/`RET`/`PRET`, `BRA.U`,
//!   divergent `BRA`, `EXIT`, `BAR`); breaking its discipline faults. CTAs run in parallel.
//!
//! docs/fermi-exec.md describes the model.
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::indexing_slicing
    )
)]

mod alu;
mod atom;
mod cc;
mod cta;
mod error;
mod fpu;
mod image;
mod launch;
mod mem;
mod memory;
mod stack;
mod step;
mod tex;
mod warp;

pub use error::{Fault, FaultKind, RunError, Space};
pub use launch::{
    run_cubin, run_module, Options, MAX_CTA_THREADS, MAX_LOCAL_BYTES, MAX_SHARED_BYTES, PARAM_BASE,
};
