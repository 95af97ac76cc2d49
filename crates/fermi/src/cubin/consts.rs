//! The numbers that make an ELF file a CUDA cubin. Names follow NVIDIA's (as printed by
//! `cuobjdump -elf` and used in the CUDA driver's public headers); see `docs/cubin.md`.

/// `e_machine` of CUDA ELF files.
pub const EM_CUDA: u16 = 190;
/// `EI_OSABI` of CUDA ELF files.
pub const ELFOSABI_CUDA: u8 = 0x33;
/// `EI_ABIVERSION` written for sm_20 cubins: 4, as in the cubins NVIDIA's CUDA 4.1 built
/// (`/work/shared/fermi/mgpu-sources/*.cubin`).
pub const ELFABIVERSION_CUDA: u8 = 4;

/// Low byte of `e_flags`: the real SM (0x14 = sm_20).
pub const EF_CUDA_SM_MASK: u32 = 0xff;
/// Textures and samplers in one unified space (set by every CUDA ≥ 4 compiler).
pub const EF_CUDA_TEXMODE_UNIFIED: u32 = 0x100;
/// Generic addresses are 64 bits wide.
pub const EF_CUDA_64BIT_ADDRESS: u32 = 0x400;
/// Bits 16..23 of `e_flags`: the virtual architecture the code was compiled from.
pub const EF_CUDA_VIRTUAL_SM_SHIFT: u32 = 16;

/// `st_other` bit marking a kernel entry point.
pub const STO_CUDA_ENTRY: u8 = 0x10;

/// `sh_type` of `.nv.info` sections.
pub const SHT_CUDA_INFO: u32 = 0x7000_0000;
/// The text section's `sh_flags` bits 20..26 hold the number of named barriers.
pub const SHF_BARRIERS_SHIFT: u32 = 20;
pub const SHF_BARRIERS_MASK: u64 = 0x7f;
/// The text section's `sh_info` bits 24..31 hold the register count.
pub const SH_INFO_REGCOUNT_SHIFT: u32 = 24;

/// Where the parameter block starts in constant bank 0 on sm_20.
pub const PARAM_BASE_SM20: u32 = 0x20;
/// Largest parameter block sm_20 accepts (CUDA's 4 KiB kernel argument limit).
pub const MAX_PARAM_BYTES: u32 = 4096;
/// Size of one constant bank.
pub const CONSTANT_BANK_BYTES: u32 = 0x1_0000;

/// `.nv.info` record formats (first byte of each record).
pub const EIFMT_NVAL: u8 = 0x01;
pub const EIFMT_BVAL: u8 = 0x02;
pub const EIFMT_HVAL: u8 = 0x03;
pub const EIFMT_SVAL: u8 = 0x04;

/// `.nv.info` attribute codes (second byte of each record) that ptxvm writes or reads.
pub const EIATTR_MAX_THREADS: u8 = 0x05;
pub const EIATTR_PARAM_CBANK: u8 = 0x0a;
pub const EIATTR_CBANK_PARAM_OFFSETS: u8 = 0x0c;
pub const EIATTR_SYNC_STACK: u8 = 0x0d;
pub const EIATTR_FRAME_SIZE: u8 = 0x11;
pub const EIATTR_MIN_STACK_SIZE: u8 = 0x12;
pub const EIATTR_KPARAM_INFO: u8 = 0x17;
pub const EIATTR_CBANK_PARAM_SIZE: u8 = 0x19;
pub const EIATTR_MAXREG_COUNT: u8 = 0x1b;

/// `EIATTR_KPARAM_INFO` flags word: bits 12..16 the constant bank (0x1f: "the parameter
/// bank", i.e. CBANK space) and bits 18..31 the parameter's size in bytes.
pub const KPARAM_CBANK_BITS: u32 = 0x1f << 12;
pub const KPARAM_SIZE_SHIFT: u32 = 18;
pub const KPARAM_SIZE_MAX: u32 = 0x3fff;
/// The first word of `EIATTR_KPARAM_INFO` in CUDA 4.1's sm_20 cubins (ptxas 12.9 writes 0).
pub const KPARAM_INDEX_SM20: u32 = 0xffff_ffff;

/// Relocation types (`r_type`) ptxvm writes and reads, numbered as NVIDIA's `R_CUDA_*` list
/// (nvdisasm's relocator table; docs/cubin.md, "Module globals and relocations").
/// `R_CUDA_32` / `R_CUDA_64`: a 32- or 64-bit address in data (`.rela.nv.global.init`).
pub const R_CUDA_32: u32 = 1;
pub const R_CUDA_64: u32 = 2;
pub const R_CUDA_ABS32_26: u32 = 5;
pub const R_CUDA_ABS32_LO_26: u32 = 10;
pub const R_CUDA_ABS32_HI_26: u32 = 11;
/// Sections of module-scope `.global` variables: initialized bytes, and zero-filled NOBITS.
pub const GLOBAL_INIT_SECTION: &str = ".nv.global.init";
/// The relocations of `.nv.global.init` (addresses in initializers).
pub const GLOBAL_INIT_RELA_SECTION: &str = ".rela.nv.global.init";
pub const GLOBAL_ZERO_SECTION: &str = ".nv.global";
