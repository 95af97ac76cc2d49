//! The reference PTX interpreter: the oracle the executor is checked against.
//!
//! It runs one thread at a time, straight from the checked [`ir::Module`], and computes every
//! value by calling `ops`. It shares no code with the executor's lowering or lane kernels (it
//! does not depend on `exec` at all): slow and obvious by design, the way Cranelift's
//! interpreter is for its native code. A differential test (`tests/differential.rs`) runs every
//! instruction form on both and compares every destination bit.
//!
//! The machine model, kept deliberately simple:
//! - Each thread runs until it exits or reaches a point that needs other threads: a barrier or
//!   a warp collective (`vote`, `shfl`, `match`, `redux`, `activemask`, `bar.warp.sync`). When
//!   no thread can run, waiting collectives and barriers are completed (see `sched`), and a
//!   state where none can be completed is a deadlock fault.
//! - Threads run in ascending thread order, CTAs in ascending CTA order, so memory operations
//!   of one instruction across the threads of a warp happen in lane order, as on the executor.
//! - Generic addresses use a window per state space given by [`Windows`]: the window layout is
//!   a property of the simulated machine, so the caller states it (the differential test passes
//!   the executor's), rather than this crate copying another crate's constants.

mod alu;
mod cvt;
mod fault;
mod float;
mod layout;
mod matrix;
mod mbarrier;
mod memops;
mod memory;
mod sched;
mod tex;
mod thread;
mod value;
mod video;
mod warp;
mod wmma;

pub use fault::Fault;
pub use memory::Memory;
pub use tex::Texture;

/// Where each state space appears in the generic address space.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Windows {
    pub constant: u64,
    pub local: u64,
    pub shared: u64,
    pub param: u64,
    /// Size of each window in bytes.
    pub size: u64,
    /// The address of function 0 (`mov.u64 %rd, f;`); function `i` is at `functions + 16 i`.
    pub functions: u64,
}

/// One launch.
#[derive(Clone, Debug)]
pub struct Launch {
    pub grid: [u32; 3],
    pub block: [u32; 3],
    /// Dynamic `extern .shared` bytes.
    pub dynamic_shared: u32,
    pub windows: Windows,
    /// Most instructions one thread may execute before the launch faults.
    pub max_steps: u64,
    /// Where module-scope `.global` variables are placed (must not overlap the caller's
    /// allocations in [`Memory`]).
    pub globals_base: u64,
    /// Textures by unit (`None` = unbound); see [`ir::Module::texture_slot`] for which unit a
    /// `.tex`/`.texref` variable names.
    pub textures: Vec<Option<Texture>>,
}

/// Run `kernel` of `module` over the whole grid. `params` are the kernel's parameters, one
/// little-endian byte string each; `mem` is global memory, which the kernel reads and writes.
pub fn launch(
    module: &ir::Module,
    kernel: &str,
    params: &[Vec<u8>],
    cfg: &Launch,
    mem: &mut Memory,
) -> Result<(), Fault> {
    let layout = layout::Layout::new(module, kernel, params, cfg, mem)?;
    let ctas = cfg
        .grid
        .iter()
        .try_fold(1u64, |n, &d| n.checked_mul(u64::from(d)))
        .ok_or_else(|| Fault::Launch("grid too large".into()))?;
    for linear in 0..ctas {
        let gx = u64::from(cfg.grid[0]);
        let gy = u64::from(cfg.grid[1]);
        let ctaid = [
            (linear % gx) as u32,
            (linear / gx % gy) as u32,
            (linear / (gx * gy)) as u32,
        ];
        sched::run_cta(&layout, cfg, ctaid, mem)?;
    }
    Ok(())
}
