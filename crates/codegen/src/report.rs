//! ptxas's `-v` resource report, in its sm_20-era format.

use fermi::cubin::Kernel;

/// Bytes of spill stores and loads in an entry's body (`STL`/`LDL` of register allocation's
/// spill code, not of `.local` variables or of the calling convention).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Spills {
    pub stores: u32,
    pub loads: u32,
}

/// The four lines ptxas prints for one entry compiled for sm_20. `cmem[0]` is the 0x20 bytes
/// of launch values in front of the parameters (docs/fermi-exec.md's launch ABI) plus the
/// parameters.
pub fn print_report(k: &Kernel, spills: Spills) -> String {
    format!(
        "ptxas info    : Compiling entry function '{name}' for 'sm_20'\n\
         ptxas info    : Function properties for {name}\n    \
         {frame} bytes stack frame, {stores} bytes spill stores, {loads} bytes spill loads\n\
         ptxas info    : Used {regs} registers, {smem} bytes smem, {cmem} bytes cmem[0]\n",
        name = k.name,
        frame = k.frame_size,
        stores = spills.stores,
        loads = spills.loads,
        regs = k.reg_count,
        smem = k.shared_size,
        cmem = 0x20 + k.param_size,
    )
}
