//! The cubin container: the ELF file NVIDIA's driver loads for sm_20/sm_21 kernels.
//!
//! [`Module`] is the whole content we model (kernels with their code, parameter layout and
//! resource sizes, plus the module's `c[0x2]` constant data); [`write_cubin`] lays it out as
//! NVIDIA's tools do and [`read_cubin`] reads such files back, rejecting anything malformed
//! with a [`CubinError`] instead of panicking. The layout and its sources are in
//! `docs/cubin.md`.

mod consts;
mod nvinfo;
mod read;
mod write;

pub use consts::*;
pub use read::read_cubin;
pub use write::{cubin_e_flags, write_cubin};

use std::fmt;

/// The real architecture a cubin's code is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Arch {
    #[default]
    Sm20,
    Sm21,
}

impl Arch {
    /// The `sm_NN` number, which is also the low byte of `e_flags`.
    pub fn sm(self) -> u8 {
        match self {
            Arch::Sm20 => 20,
            Arch::Sm21 => 21,
        }
    }
    pub fn from_sm(sm: u32) -> Option<Arch> {
        match sm {
            20 => Some(Arch::Sm20),
            21 => Some(Arch::Sm21),
            _ => None,
        }
    }
    /// `sm_20` / `sm_21`, as cuobjdump's `code for` header and asfermi's `!Arch` spell it.
    pub fn name(self) -> &'static str {
        match self {
            Arch::Sm20 => "sm_20",
            Arch::Sm21 => "sm_21",
        }
    }
    pub fn parse(name: &str) -> Option<Arch> {
        match name {
            "sm_20" => Some(Arch::Sm20),
            "sm_21" => Some(Arch::Sm21),
            _ => None,
        }
    }
}

/// Width of generic addresses (`!Machine 32|64`): selects ELFCLASS32/64 and
/// `EF_CUDA_64BIT_ADDRESS`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum AddressSize {
    Bits32,
    #[default]
    Bits64,
}

/// One kernel parameter: `offset` is relative to the start of the parameter block (which the
/// driver places at `c[0x0][0x20]` on sm_20), as `EIATTR_KPARAM_INFO` records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Param {
    pub offset: u32,
    pub size: u32,
}

/// One kernel (`.text.<name>` and its companion sections).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Kernel {
    pub name: String,
    /// Instruction words; the word at index `i` is at byte address `8 * i`.
    pub code: Vec<u64>,
    /// In declaration order (ordinal 0 first).
    pub params: Vec<Param>,
    /// Bytes of the parameter block (`EIATTR_CBANK_PARAM_SIZE`).
    pub param_size: u32,
    /// Bytes of `.shared` memory per CTA (`.nv.shared.<name>`).
    pub shared_size: u32,
    /// Bytes of local memory per thread (`.nv.local.<name>`).
    pub local_size: u32,
    /// Registers per thread (high byte of the text section's `sh_info`).
    pub reg_count: u8,
    /// Named barriers used (bits 20..26 of the text section's `sh_flags`).
    pub bar_count: u8,
    /// `EIATTR_FRAME_SIZE`.
    pub frame_size: u32,
    /// `EIATTR_MIN_STACK_SIZE`.
    pub min_stack_size: u32,
    /// `EIATTR_MAX_THREADS` (x, y, z), written by nvcc for `__launch_bounds__` kernels.
    pub max_threads: Option<[u32; 3]>,
    /// `EIATTR_SYNC_STACK`'s two words as NVIDIA's compiler computed them (the reconvergence
    /// stack the kernel needs; kept as read, since nothing here derives them from the code).
    pub sync_stack: Option<[u32; 2]>,
    /// The kernel's own constant banks other than `c[0x0]` (`.nv.constant<N>.<name>`, e.g.
    /// bank 16 = `c[0x10]`, the compiler's constants such as `BRX` jump tables), by bank.
    pub constants: Vec<(u8, Vec<u8>)>,
    /// Relocations against the kernel's code (`.rela.text.<name>`), applied by the loader.
    pub relocs: Vec<Reloc>,
}

/// How a relocation patches an instruction: NVIDIA's `R_CUDA_*` numbering (docs/cubin.md,
/// "Module globals and relocations"). Each writes 32 bits at bit 26 of the instruction's
/// in-memory 64-bit word, where `MOV32I` keeps its immediate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RelocKind {
    /// `R_CUDA_ABS32_26` (5): the symbol's address (+ addend), 32 bits.
    Abs32At26,
    /// `R_CUDA_ABS32_LO_26` (10): the low 32 bits of the 64-bit address.
    Abs32LoAt26,
    /// `R_CUDA_ABS32_HI_26` (11): the high 32 bits of the 64-bit address.
    Abs32HiAt26,
}

impl RelocKind {
    /// The ELF `r_type` number.
    pub fn r_type(self) -> u32 {
        match self {
            RelocKind::Abs32At26 => R_CUDA_ABS32_26,
            RelocKind::Abs32LoAt26 => R_CUDA_ABS32_LO_26,
            RelocKind::Abs32HiAt26 => R_CUDA_ABS32_HI_26,
        }
    }
    pub fn from_r_type(t: u32) -> Option<RelocKind> {
        match t {
            R_CUDA_ABS32_26 => Some(RelocKind::Abs32At26),
            R_CUDA_ABS32_LO_26 => Some(RelocKind::Abs32LoAt26),
            R_CUDA_ABS32_HI_26 => Some(RelocKind::Abs32HiAt26),
            _ => None,
        }
    }
    /// The listing word `word` with this relocation's field set for the target address
    /// `value` (symbol address plus addend).
    pub fn apply(self, word: u64, value: u64) -> u64 {
        let field = match self {
            RelocKind::Abs32At26 | RelocKind::Abs32LoAt26 => value & 0xffff_ffff,
            RelocKind::Abs32HiAt26 => value >> 32,
        };
        let mem = u64::from_le_bytes(crate::isa::listing_to_bytes(word));
        let mask = 0xffff_ffffu64 << 26;
        let mem = (mem & !mask) | (field << 26);
        crate::isa::listing_from_bytes(mem.to_le_bytes())
    }
}

/// One relocation of a kernel's code: the instruction at byte `offset` of `.text.<name>`
/// gets `symbol`'s address plus `addend` in the field `kind` names.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Reloc {
    pub offset: u32,
    pub kind: RelocKind,
    pub symbol: String,
    pub addend: i64,
}

/// A module-scope `.global` variable: a symbol in `.nv.global.init` (initialized) or
/// `.nv.global` (zero-filled, NOBITS).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GlobalVar {
    pub name: String,
    pub initialized: bool,
    /// Byte offset in its section.
    pub offset: u32,
    pub size: u32,
}

/// The module's `.global` data, as NVIDIA's sm_20 toolchain lays it out.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct GlobalData {
    /// `.nv.global.init`: the initialized variables' bytes.
    pub init: Vec<u8>,
    /// Bytes of `.nv.global` (zero at load).
    pub zero_size: u32,
    pub vars: Vec<GlobalVar>,
    /// Addresses in `.nv.global.init` (`.global .u64 p = g;`), in `.rela.nv.global.init`.
    pub relocs: Vec<DataReloc>,
}

/// A relocation of `.nv.global.init`'s bytes: at `offset`, the address of the global variable
/// `symbol` plus `addend`, 8 bytes (`R_CUDA_64`) or its low 4 (`R_CUDA_32`), little-endian.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DataReloc {
    pub offset: u32,
    pub symbol: String,
    pub addend: i64,
    pub wide: bool,
}

impl Kernel {
    /// The first byte after the last parameter (0 without parameters).
    pub fn params_end(&self) -> u32 {
        self.params
            .iter()
            .map(|p| p.offset.saturating_add(p.size))
            .max()
            .unwrap_or(0)
    }
}

/// Everything one cubin holds, as far as ptxvm models it.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Module {
    pub arch: Arch,
    pub address_size: AddressSize,
    pub kernels: Vec<Kernel>,
    /// Module-scope constant data, bank `c[0x2]` (`.nv.constant2`).
    pub constant2: Vec<u8>,
    /// Module-scope constant banks other than `c[0x2]` (`.nv.constant<N>`, e.g. bank 14 =
    /// `c[0xe]`, the addresses of `__device__` globals), by bank.
    pub constants: Vec<(u8, Vec<u8>)>,
    /// Module-scope `.global` variables (`.nv.global.init`, `.nv.global`).
    pub globals: GlobalData,
}

/// The banks a constant operand can name (its bank field has 5 bits).
pub const CONSTANT_BANKS: u8 = 32;

/// The bank number of a `.nv.constant<N>` section name's rest `rest` (`"16"` or `"16.k"`),
/// and the kernel name after it, if any.
pub fn constant_section_bank(rest: &str) -> Option<(u8, Option<&str>)> {
    let (num, kernel) = match rest.split_once('.') {
        Some((n, k)) => (n, Some(k)),
        None => (rest, None),
    };
    if num.is_empty() || num.len() > 2 || !num.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let bank: u8 = num.parse().ok()?;
    (bank < CONSTANT_BANKS).then_some((bank, kernel))
}

/// Why bytes are not a cubin we can read, or a module cannot be written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CubinError {
    /// Not a well-formed ELF file (bad magic, truncated headers, tables out of bounds).
    NotElf(String),
    /// An ELF file, but not for `EM_CUDA`.
    NotCuda { machine: u16 },
    /// A CUDA ELF for an architecture other than sm_20/sm_21.
    UnsupportedArch { sm: u32 },
    /// A section or attribute is present but malformed.
    Malformed { section: String, reason: String },
    /// The module cannot be represented in a cubin (e.g. a size does not fit its field).
    Unrepresentable(String),
}

impl fmt::Display for CubinError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CubinError::NotElf(why) => write!(f, "not an ELF file: {why}"),
            CubinError::NotCuda { machine } => write!(
                f,
                "not a CUDA cubin: e_machine is {machine}, expected EM_CUDA ({})",
                EM_CUDA
            ),
            CubinError::UnsupportedArch { sm } => {
                write!(
                    f,
                    "cubin is for sm_{sm}; only sm_20 and sm_21 are supported"
                )
            }
            CubinError::Malformed { section, reason } => {
                write!(f, "malformed section `{section}`: {reason}")
            }
            CubinError::Unrepresentable(why) => write!(f, "cannot write cubin: {why}"),
        }
    }
}

impl std::error::Error for CubinError {}
