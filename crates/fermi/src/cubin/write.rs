//! Module → cubin bytes, through `object`'s single-phase ELF writer.

use super::consts::*;
use super::nvinfo::{encode_hval, encode_sval_words};
use super::{AddressSize, CubinError, Kernel, Module};
// Instruction words are numbered as cuobjdump prints them; in memory the halves are swapped.
use crate::isa::listing_to_bytes;
use object::elf;
use object::write::elf::{FileHeader, ProgramHeader, SectionHeader, Sym, Writer};
use object::Endianness;

/// Section indices before ours: null, `.shstrtab`, `.strtab`, `.symtab` (object's writer
/// assigns them in the order their headers are written).
const SYMTAB_INDEX: u32 = 3;
const FIRST_OWN_SECTION: u32 = 4;

/// The section contents ptxvm decides on; the writer only places them.
struct Planned {
    name: String,
    sh_type: u32,
    sh_flags: u64,
    sh_link: u32,
    sh_info: u32,
    align: u64,
    /// `None` for `SHT_NOBITS` (size in `nobits_size`).
    data: Option<Vec<u8>>,
    nobits_size: u64,
    /// File offset, once written.
    offset: u64,
    /// `sh_entsize` (relocation sections only).
    entsize: u64,
}

impl Planned {
    fn is_alloc_progbits(&self) -> bool {
        self.data.is_some() && self.sh_flags & elf::SHF_ALLOC.0 != 0
    }
}

fn too_big(what: &str, kernel: &Kernel) -> CubinError {
    CubinError::Unrepresentable(format!("{what} of kernel `{}` is too large", kernel.name))
}

fn check_kernel(k: &Kernel) -> Result<(), CubinError> {
    if k.name.is_empty() || k.name.contains('\0') {
        return Err(CubinError::Unrepresentable(format!(
            "kernel name {:?} is empty or contains NUL",
            k.name
        )));
    }
    if k.param_size > MAX_PARAM_BYTES {
        return Err(too_big("parameter block", k));
    }
    for (i, p) in k.params.iter().enumerate() {
        let end = p.offset.checked_add(p.size);
        if p.size == 0 || p.size > KPARAM_SIZE_MAX || end.is_none_or(|e| e > k.param_size) {
            return Err(CubinError::Unrepresentable(format!(
                "parameter {i} of kernel `{}` (offset {}, size {}) lies outside its {}-byte \
                 parameter block",
                k.name, p.offset, p.size, k.param_size
            )));
        }
    }
    if k.code.len() > (u32::MAX / 8) as usize {
        return Err(too_big("code", k));
    }
    Ok(())
}

/// The module's own sections, in section-index order starting at [`FIRST_OWN_SECTION`],
/// together with the kernel symbols' indices they refer to.
fn plan_sections(m: &Module) -> Vec<Planned> {
    // Indices are predictable, in CUDA 4.1's order: per kernel `.text.k`, `.nv.constant0.k`,
    // `.nv.info.k`, then optional `.nv.shared.k` / `.nv.local.k`; `.nv.constant2`; `.nv.info`
    // last.
    // Other constant banks (`.nv.constant16.k`, `.nv.constant14`) follow the kernel's
    // sections and `.nv.constant2` respectively.
    // `.rela.text.k` (relocations of the code) is the kernel's last section.
    let per_kernel = |k: &Kernel| {
        3 + u32::from(k.shared_size > 0)
            + u32::from(k.local_size > 0)
            + k.constants.len() as u32
            + u32::from(!k.relocs.is_empty())
    };
    let own_count: u32 = 1
        + m.kernels.iter().map(per_kernel).sum::<u32>()
        + u32::from(!m.constant2.is_empty())
        + m.constants.len() as u32
        + global_section_count(m)
        + u32::from(!m.globals.relocs.is_empty());
    // The variables' symbols follow the kernels'.
    let var_sym = |name: &str| {
        m.globals
            .vars
            .iter()
            .position(|v| v.name == name)
            .map(|i| 1 + own_count + m.kernels.len() as u32 + i as u32)
    };
    let is_64 = m.address_size == AddressSize::Bits64;
    // Symbols: null, one STT_SECTION per own section, then one per kernel.
    let kernel_sym = |i: usize| 1 + own_count + i as u32;
    let section_sym = |section_index: u32| 1 + (section_index - FIRST_OWN_SECTION);

    let mut global_info = Vec::new();
    let mut out = vec![];
    let mut next = FIRST_OWN_SECTION;
    for (i, k) in m.kernels.iter().enumerate() {
        let (text_idx, const_idx) = (next, next + 1);
        next += per_kernel(k);
        let sym = kernel_sym(i);
        encode_sval_words(
            &mut global_info,
            EIATTR_MIN_STACK_SIZE,
            &[sym, k.min_stack_size],
        );
        encode_sval_words(&mut global_info, EIATTR_FRAME_SIZE, &[sym, k.frame_size]);

        // The records in the order CUDA 4.1's nvcc wrote them for sm_20 (docs/cubin.md).
        let mut info = Vec::new();
        if !k.params.is_empty() {
            let offsets: Vec<u32> = k.params.iter().map(|p| p.offset).collect();
            encode_sval_words(&mut info, EIATTR_CBANK_PARAM_OFFSETS, &offsets);
        }
        encode_sval_words(
            &mut info,
            EIATTR_PARAM_CBANK,
            &[
                section_sym(const_idx),
                (k.param_size << 16) | PARAM_BASE_SM20,
            ],
        );
        encode_hval(&mut info, EIATTR_CBANK_PARAM_SIZE, k.param_size as u16);
        // nvcc lists the parameters last ordinal first.
        for (ordinal, p) in k.params.iter().enumerate().rev() {
            let flags = (p.size << KPARAM_SIZE_SHIFT) | KPARAM_CBANK_BITS;
            encode_sval_words(
                &mut info,
                EIATTR_KPARAM_INFO,
                &[
                    KPARAM_INDEX_SM20,
                    (ordinal as u32 & 0xffff) | (p.offset << 16),
                    flags,
                ],
            );
        }
        if let Some(xyz) = k.max_threads {
            encode_sval_words(&mut info, EIATTR_MAX_THREADS, &xyz);
        }
        if let Some(words) = k.sync_stack {
            encode_sval_words(&mut info, EIATTR_SYNC_STACK, &words);
        }
        let code: Vec<u8> = k.code.iter().flat_map(|&w| listing_to_bytes(w)).collect();
        out.push(Planned {
            name: format!(".text.{}", k.name),
            sh_type: elf::SHT_PROGBITS.0,
            sh_flags: (elf::SHF_ALLOC.0 | elf::SHF_EXECINSTR.0)
                | (u64::from(k.bar_count) & SHF_BARRIERS_MASK) << SHF_BARRIERS_SHIFT,
            sh_link: SYMTAB_INDEX,
            // CUDA 4.1 names the text section's own section symbol here.
            sh_info: (u32::from(k.reg_count) << SH_INFO_REGCOUNT_SHIFT) | section_sym(text_idx),
            align: 4,
            data: Some(code),
            nobits_size: 0,
            offset: 0,
            entsize: 0,
        });
        out.push(Planned {
            name: format!(".nv.constant0.{}", k.name),
            sh_type: elf::SHT_PROGBITS.0,
            sh_flags: elf::SHF_ALLOC.0,
            sh_link: 0,
            sh_info: text_idx,
            align: 4,
            data: Some(vec![
                0;
                (PARAM_BASE_SM20 + k.param_size.next_multiple_of(4))
                    as usize
            ]),
            nobits_size: 0,
            offset: 0,
            entsize: 0,
        });
        out.push(Planned {
            name: format!(".nv.info.{}", k.name),
            sh_type: elf::SHT_PROGBITS.0,
            sh_flags: elf::SHF_ALLOC.0,
            sh_link: 0,
            sh_info: text_idx,
            align: 1,
            data: Some(info),
            nobits_size: 0,
            offset: 0,
            entsize: 0,
        });
        for (prefix, size) in [("shared", k.shared_size), ("local", k.local_size)] {
            if size > 0 {
                out.push(Planned {
                    name: format!(".nv.{prefix}.{}", k.name),
                    sh_type: elf::SHT_NOBITS.0,
                    sh_flags: elf::SHF_ALLOC.0 | elf::SHF_WRITE.0,
                    sh_link: 0,
                    sh_info: text_idx,
                    align: 4,
                    data: None,
                    nobits_size: u64::from(size),
                    offset: 0,
                    entsize: 0,
                });
            }
        }
        for (bank, data) in &k.constants {
            out.push(constant_section(
                format!(".nv.constant{bank}.{}", k.name),
                text_idx,
                data,
            ));
        }
        if !k.relocs.is_empty() {
            let mut data = Vec::new();
            for r in &k.relocs {
                // `write_cubin` checked every symbol exists.
                let sym = var_sym(&r.symbol).unwrap_or(0);
                if is_64 {
                    data.extend_from_slice(&u64::from(r.offset).to_le_bytes());
                    let info = (u64::from(sym) << 32) | u64::from(r.kind.r_type());
                    data.extend_from_slice(&info.to_le_bytes());
                    data.extend_from_slice(&r.addend.to_le_bytes());
                } else {
                    data.extend_from_slice(&r.offset.to_le_bytes());
                    let info = (sym << 8) | (r.kind.r_type() & 0xff);
                    data.extend_from_slice(&info.to_le_bytes());
                    data.extend_from_slice(&(r.addend as i32).to_le_bytes());
                }
            }
            out.push(Planned {
                name: format!(".rela.text.{}", k.name),
                sh_type: elf::SHT_RELA.0,
                sh_flags: 0,
                sh_link: SYMTAB_INDEX,
                sh_info: text_idx,
                align: 8,
                data: Some(data),
                nobits_size: 0,
                offset: 0,
                entsize: if is_64 { 24 } else { 12 },
            });
        }
        debug_assert_eq!(text_idx + per_kernel(k), next);
    }
    if !m.constant2.is_empty() {
        out.push(Planned {
            name: ".nv.constant2".into(),
            sh_type: elf::SHT_PROGBITS.0,
            sh_flags: elf::SHF_ALLOC.0,
            sh_link: 0,
            sh_info: 0,
            align: 4,
            data: Some(m.constant2.clone()),
            nobits_size: 0,
            offset: 0,
            entsize: 0,
        });
    }
    for (bank, data) in &m.constants {
        out.push(constant_section(format!(".nv.constant{bank}"), 0, data));
    }
    let init_idx = FIRST_OWN_SECTION + out.len() as u32;
    if !m.globals.init.is_empty() {
        out.push(Planned {
            name: GLOBAL_INIT_SECTION.into(),
            sh_type: elf::SHT_PROGBITS.0,
            sh_flags: elf::SHF_ALLOC.0 | elf::SHF_WRITE.0,
            sh_link: 0,
            sh_info: 0,
            align: 8,
            data: Some(m.globals.init.clone()),
            nobits_size: 0,
            offset: 0,
            entsize: 0,
        });
    }
    if m.globals.zero_size > 0 {
        out.push(Planned {
            name: GLOBAL_ZERO_SECTION.into(),
            sh_type: elf::SHT_NOBITS.0,
            sh_flags: elf::SHF_ALLOC.0 | elf::SHF_WRITE.0,
            sh_link: 0,
            sh_info: 0,
            align: 8,
            data: None,
            nobits_size: u64::from(m.globals.zero_size),
            offset: 0,
            entsize: 0,
        });
    }
    out.push(Planned {
        name: ".nv.info".into(),
        sh_type: elf::SHT_PROGBITS.0,
        sh_flags: elf::SHF_ALLOC.0,
        sh_link: 0,
        sh_info: 0,
        align: 1,
        data: Some(global_info),
        nobits_size: 0,
        offset: 0,
        entsize: 0,
    });
    // Addresses in initializers, after everything else so no other index moves.
    if !m.globals.relocs.is_empty() {
        let mut data = Vec::new();
        for r in &m.globals.relocs {
            // `check_globals` checked every symbol exists.
            let sym = var_sym(&r.symbol).unwrap_or(0);
            let kind = if r.wide { R_CUDA_64 } else { R_CUDA_32 };
            if is_64 {
                data.extend_from_slice(&u64::from(r.offset).to_le_bytes());
                data.extend_from_slice(&((u64::from(sym) << 32) | u64::from(kind)).to_le_bytes());
                data.extend_from_slice(&r.addend.to_le_bytes());
            } else {
                data.extend_from_slice(&r.offset.to_le_bytes());
                data.extend_from_slice(&((sym << 8) | kind).to_le_bytes());
                data.extend_from_slice(&(r.addend as i32).to_le_bytes());
            }
        }
        out.push(Planned {
            name: GLOBAL_INIT_RELA_SECTION.into(),
            sh_type: elf::SHT_RELA.0,
            sh_flags: 0,
            sh_link: SYMTAB_INDEX,
            sh_info: init_idx,
            align: 8,
            data: Some(data),
            nobits_size: 0,
            offset: 0,
            entsize: if is_64 { 24 } else { 12 },
        });
    }
    debug_assert_eq!(out.len() as u32, own_count);
    out
}

/// How many of `.nv.global.init` / `.nv.global` the module has.
fn global_section_count(m: &Module) -> u32 {
    u32::from(!m.globals.init.is_empty()) + u32::from(m.globals.zero_size > 0)
}

/// Refuses variables and relocations the reader could not give back: unnamed or repeated
/// variables, variables outside their section, relocations naming no variable or lying
/// outside the code.
fn check_globals(m: &Module) -> Result<(), CubinError> {
    let bad = |why: String| Err(CubinError::Unrepresentable(why));
    let mut names = std::collections::HashSet::new();
    for v in &m.globals.vars {
        if v.name.is_empty() || v.name.contains('\0') || !names.insert(v.name.as_str()) {
            return bad(format!(
                "global variable name {:?} is empty, has NUL or repeats",
                v.name
            ));
        }
        let limit = if v.initialized {
            m.globals.init.len() as u64
        } else {
            u64::from(m.globals.zero_size)
        };
        if u64::from(v.offset) + u64::from(v.size) > limit {
            return bad(format!(
                "global variable `{}` lies outside its section",
                v.name
            ));
        }
    }
    for r in &m.globals.relocs {
        let width = if r.wide { 8 } else { 4 };
        if !names.contains(r.symbol.as_str()) {
            return bad(format!(
                "`.nv.global.init` relocates against `{}`, which is no global variable",
                r.symbol
            ));
        }
        if u64::from(r.offset) + width > m.globals.init.len() as u64 {
            return bad(format!(
                "a `.nv.global.init` relocation at byte {} lies outside the section",
                r.offset
            ));
        }
        if m.address_size == AddressSize::Bits32 && i32::try_from(r.addend).is_err() {
            return bad("a `.nv.global.init` relocation addend exceeds 32 bits".into());
        }
    }
    for k in &m.kernels {
        for r in &k.relocs {
            if !names.contains(r.symbol.as_str()) {
                return bad(format!(
                    "kernel `{}` relocates against `{}`, which is no global variable",
                    k.name, r.symbol
                ));
            }
            if !r.offset.is_multiple_of(8) || u64::from(r.offset) / 8 >= k.code.len() as u64 {
                return bad(format!(
                    "kernel `{}` has a relocation at byte {} outside its code",
                    k.name, r.offset
                ));
            }
            if m.address_size == AddressSize::Bits32 && i32::try_from(r.addend).is_err() {
                return bad(format!(
                    "kernel `{}`: a relocation addend exceeds 32 bits",
                    k.name
                ));
            }
        }
    }
    Ok(())
}

fn constant_section(name: String, sh_info: u32, data: &[u8]) -> Planned {
    Planned {
        name,
        sh_type: elf::SHT_PROGBITS.0,
        sh_flags: elf::SHF_ALLOC.0,
        sh_link: 0,
        sh_info,
        align: 4,
        data: Some(data.to_vec()),
        nobits_size: 0,
        offset: 0,
        entsize: 0,
    }
}

/// Refuses a constant bank the reader could not give back: a number outside 0–31, one of
/// the banks with a field of their own (`reserved`), a repeat, or more than 64 KiB.
fn check_banks(banks: &[(u8, Vec<u8>)], reserved: &[u8], whose: &str) -> Result<(), CubinError> {
    for (i, (bank, data)) in banks.iter().enumerate() {
        let why = if *bank >= super::CONSTANT_BANKS || reserved.contains(bank) {
            "cannot be written in this field"
        } else if banks.iter().take(i).any(|(b, _)| b == bank) {
            "is given twice"
        } else if data.len() > CONSTANT_BANK_BYTES as usize {
            "holds more than 64 KiB"
        } else {
            continue;
        };
        return Err(CubinError::Unrepresentable(format!(
            "{whose}: constant bank {bank} {why}"
        )));
    }
    Ok(())
}

/// `e_flags` for a module: real and virtual SM, unified texture mode, address width.
pub fn cubin_e_flags(arch: super::Arch, address_size: AddressSize) -> u32 {
    let sm = u32::from(arch.sm());
    // sm_21 code is compiled from the compute_20 virtual architecture.
    let virtual_sm = 20u32;
    let mut flags = sm | EF_CUDA_TEXMODE_UNIFIED | (virtual_sm << EF_CUDA_VIRTUAL_SM_SHIFT);
    if address_size == AddressSize::Bits64 {
        flags |= EF_CUDA_64BIT_ADDRESS;
    }
    flags
}

/// Lays `module` out as an sm_20/sm_21 cubin (see `docs/cubin.md`).
pub fn write_cubin(module: &Module) -> Result<Vec<u8>, CubinError> {
    for k in &module.kernels {
        check_kernel(k)?;
    }
    let mut names = std::collections::HashSet::new();
    for k in &module.kernels {
        if !names.insert(k.name.as_str()) {
            return Err(CubinError::Unrepresentable(format!(
                "two kernels are named `{}`",
                k.name
            )));
        }
    }
    check_banks(&module.constants, &[0, 2], "module")?;
    for k in &module.kernels {
        check_banks(&k.constants, &[0], &format!("kernel `{}`", k.name))?;
    }
    if module.constant2.len() > CONSTANT_BANK_BYTES as usize {
        return Err(CubinError::Unrepresentable(
            "constant bank 2 data exceeds 64 KiB".into(),
        ));
    }
    check_globals(module)?;
    let planned = plan_sections(module);
    let is_64 = module.address_size == AddressSize::Bits64;
    let err = |e: object::write::Error| CubinError::Unrepresentable(e.to_string());

    let mut buffer = Vec::new();
    let mut w = Writer::new_single_phase(Endianness::Little, is_64, &mut buffer);
    let header = FileHeader {
        os_abi: elf::OsAbi(ELFOSABI_CUDA),
        abi_version: ELFABIVERSION_CUDA,
        e_type: elf::ET_EXEC,
        e_machine: elf::Machine(EM_CUDA),
        e_entry: 0,
        e_flags: elf::FileFlags(cubin_e_flags(module.arch, module.address_size)),
    };
    w.write_file_header(&header).map_err(err)?;
    let has_nobits = planned.iter().any(|p| p.data.is_none());
    // As ptxas: PT_PHDR, the code/constant load, the NOBITS load, and a load covering the
    // program header table itself (binutils insists PT_PHDR lie inside a PT_LOAD).
    let phnum = 3 + u32::from(has_nobits);
    let (phoff, phsize) = w.write_program_headers_placeholder(phnum);

    // Non-allocated sections first, so the allocated ones form one contiguous load segment.
    let mut planned = planned;
    let (mut load_start, mut load_end) = (None::<u64>, 0u64);
    for alloc_pass in [false, true] {
        for p in planned
            .iter_mut()
            .filter(|p| p.is_alloc_progbits() == alloc_pass)
        {
            p.offset = w.write_align(p.align);
            if let Some(data) = &p.data {
                w.write(data);
                if alloc_pass {
                    load_start.get_or_insert(p.offset);
                    load_end = p.offset + data.len() as u64;
                }
            }
        }
    }

    let name_ids: Vec<_> = planned
        .iter()
        .map(|p| w.add_section_name(p.name.as_bytes()))
        .collect();
    let kernel_names: Vec<_> = module
        .kernels
        .iter()
        .map(|k| w.add_string(k.name.as_bytes()))
        .collect();

    let var_names: Vec<_> = module
        .globals
        .vars
        .iter()
        .map(|v| w.add_string(v.name.as_bytes()))
        .collect();

    w.write_null_symbol();
    for i in 0..planned.len() {
        w.write_symbol(&Sym {
            section: Some(FIRST_OWN_SECTION + i as u32),
            st_name: 0,
            st_info: elf::SymbolInfo::new(elf::STB_LOCAL, elf::STT_SECTION),
            st_other: elf::SymbolOther(0),
            st_shndx: elf::SymbolSection(0),
            st_value: 0,
            st_size: 0,
        });
    }
    // One lookup table instead of a search per kernel: a search made writing a module of
    // thousands of kernels quadratic.
    let text_sections: std::collections::HashMap<&str, u32> = planned
        .iter()
        .enumerate()
        .filter_map(|(pos, p)| {
            p.name
                .strip_prefix(".text.")
                .map(|name| (name, FIRST_OWN_SECTION + pos as u32))
        })
        .collect();
    for (ki, k) in module.kernels.iter().enumerate() {
        let text_index = text_sections.get(k.name.as_str()).copied().unwrap_or(0);
        let st_name = w.string_offset(kernel_names.get(ki).copied());
        w.write_symbol(&Sym {
            section: Some(text_index),
            st_name,
            st_info: elf::SymbolInfo::new(elf::STB_GLOBAL, elf::STT_FUNC),
            st_other: elf::SymbolOther(STO_CUDA_ENTRY),
            st_shndx: elf::SymbolSection(0),
            st_value: 0,
            st_size: k.code.len() as u64 * 8,
        });
    }
    let global_section = |name: &str| {
        planned
            .iter()
            .position(|p| p.name == name)
            .map_or(0, |pos| FIRST_OWN_SECTION + pos as u32)
    };
    for (vi, v) in module.globals.vars.iter().enumerate() {
        let section = global_section(if v.initialized {
            GLOBAL_INIT_SECTION
        } else {
            GLOBAL_ZERO_SECTION
        });
        let st_name = w.string_offset(var_names.get(vi).copied());
        w.write_symbol(&Sym {
            section: Some(section),
            st_name,
            st_info: elf::SymbolInfo::new(elf::STB_GLOBAL, elf::STT_OBJECT),
            st_other: elf::SymbolOther(0),
            st_shndx: elf::SymbolSection(0),
            st_value: u64::from(v.offset),
            st_size: u64::from(v.size),
        });
    }
    // Section indices from SHN_LORESERVE up do not fit a symbol's 16-bit `st_shndx`: those
    // symbols say SHN_XINDEX and the index goes in `.symtab_shndx` (written only then).
    let has_shndx = w.write_symtab_shndx() != 0;
    w.write_strtab().map_err(err)?;
    w.write_shstrtab().map_err(err)?;

    let shoff = w.write_null_section_header();
    w.write_shstrtab_section_header();
    w.write_strtab_section_header();
    w.write_symtab_section_header(1 + planned.len() as u32);
    for (i, p) in planned.iter().enumerate() {
        let sh_name = w.section_name_offset(name_ids.get(i).copied());
        w.write_section_header(&SectionHeader {
            sh_name,
            sh_type: elf::SectionType(p.sh_type),
            sh_flags: elf::SectionFlags(p.sh_flags),
            sh_addr: 0,
            sh_offset: p.offset,
            sh_size: p.data.as_ref().map_or(p.nobits_size, |d| d.len() as u64),
            sh_link: p.sh_link,
            sh_info: p.sh_info,
            sh_addralign: p.align,
            sh_entsize: p.entsize,
        });
    }
    // Last, so it moves no other section's index.
    w.write_symtab_shndx_section_header();
    let shnum = u64::from(FIRST_OWN_SECTION) + planned.len() as u64 + u64::from(has_shndx);

    let load = |p_type, flags: u32, p_offset, p_filesz, p_memsz| ProgramHeader {
        p_type,
        p_flags: elf::ProgramFlags(flags),
        p_offset,
        p_vaddr: 0,
        p_paddr: 0,
        p_filesz,
        p_memsz,
        p_align: 8,
    };
    let (rx, rw) = (elf::PF_R.0 | elf::PF_X.0, elf::PF_R.0 | elf::PF_W.0);
    let load_start = load_start.unwrap_or(0);
    let code_size = load_end.saturating_sub(load_start);
    let mut phdrs = vec![
        load(elf::PT_PHDR, rx, phoff, phsize, phsize),
        load(elf::PT_LOAD, rx, load_start, code_size, code_size),
    ];
    if has_nobits {
        let memsz: u64 = planned
            .iter()
            .filter(|p| p.data.is_none())
            .map(|p| p.nobits_size)
            .sum();
        phdrs.push(load(elf::PT_LOAD, rw, 0, 0, memsz));
    }
    phdrs.push(load(elf::PT_LOAD, rx, phoff, phsize, phsize));
    let layout = HeaderLayout {
        is_64,
        e_flags: cubin_e_flags(module.arch, module.address_size),
        phoff,
        shoff,
        shnum,
        // `.shstrtab` is section 1 (object's writer order), never an extended index.
        shstrndx: 1,
    };
    drop(w);
    if !is_64 && buffer.len() as u64 > u64::from(u32::MAX) {
        return Err(CubinError::Unrepresentable(format!(
            "a 32-bit cubin of {} bytes exceeds 4 GiB",
            buffer.len()
        )));
    }
    let head = elf_headers(&layout, &phdrs);
    if let Some(start) = buffer.get_mut(..head.len()) {
        start.copy_from_slice(&head);
    }
    patch_extended_counts(&mut buffer, &layout);
    Ok(buffer)
}

/// What the ELF file header says about the table layout.
struct HeaderLayout {
    is_64: bool,
    e_flags: u32,
    phoff: u64,
    shoff: u64,
    shnum: u64,
    shstrndx: u64,
}

/// The ELF file header and program headers, little-endian. Written here rather than by
/// `object`'s single-phase writer, which refuses a section count from SHN_LORESERVE
/// (0xff00) up: the gABI's extended numbering then puts `e_shnum = 0` in the header and the
/// count in section 0's `sh_size`, and an `e_shstrndx` from SHN_LORESERVE up as
/// SHN_XINDEX with the index in section 0's `sh_link` ([`patch_extended_counts`]).
fn elf_headers(l: &HeaderLayout, phdrs: &[ProgramHeader]) -> Vec<u8> {
    let mut h = Vec::with_capacity(64 + 56 * phdrs.len());
    let addr = |h: &mut Vec<u8>, v: u64| {
        if l.is_64 {
            h.extend_from_slice(&v.to_le_bytes());
        } else {
            h.extend_from_slice(&(v as u32).to_le_bytes());
        }
    };
    let class = if l.is_64 {
        elf::ELFCLASS64.0
    } else {
        elf::ELFCLASS32.0
    };
    h.extend_from_slice(&elf::ELFMAG);
    h.extend_from_slice(&[class, elf::ELFDATA2LSB.0, elf::EV_CURRENT.0]);
    h.extend_from_slice(&[ELFOSABI_CUDA, ELFABIVERSION_CUDA, 0, 0, 0, 0, 0, 0, 0]);
    h.extend_from_slice(&elf::ET_EXEC.0.to_le_bytes());
    h.extend_from_slice(&EM_CUDA.to_le_bytes());
    h.extend_from_slice(&u32::from(elf::EV_CURRENT.0).to_le_bytes());
    addr(&mut h, 0); // e_entry
    addr(&mut h, l.phoff);
    addr(&mut h, l.shoff);
    h.extend_from_slice(&l.e_flags.to_le_bytes());
    let (ehsize, phentsize, shentsize): (u16, u16, u16) =
        if l.is_64 { (64, 56, 64) } else { (52, 32, 40) };
    let shnum = u16::try_from(l.shnum)
        .ok()
        .filter(|&n| n < elf::SHN_LORESERVE)
        .unwrap_or(0);
    let shstrndx = u16::try_from(l.shstrndx)
        .ok()
        .filter(|&n| n < elf::SHN_LORESERVE)
        .unwrap_or(elf::SHN_XINDEX.0);
    for v in [
        ehsize,
        phentsize,
        phdrs.len() as u16,
        shentsize,
        shnum,
        shstrndx,
    ] {
        h.extend_from_slice(&v.to_le_bytes());
    }
    debug_assert_eq!(h.len(), usize::from(ehsize));
    for p in phdrs {
        let (offset, filesz, memsz) = (p.p_offset, p.p_filesz, p.p_memsz);
        h.extend_from_slice(&p.p_type.0.to_le_bytes());
        if l.is_64 {
            h.extend_from_slice(&p.p_flags.0.to_le_bytes());
        }
        for v in [offset, p.p_vaddr, p.p_paddr, filesz, memsz] {
            addr(&mut h, v);
        }
        if !l.is_64 {
            h.extend_from_slice(&p.p_flags.0.to_le_bytes());
        }
        addr(&mut h, p.p_align);
    }
    h
}

/// Section 0's `sh_size` and `sh_link` under extended numbering (see [`elf_headers`]); the
/// writer wrote section 0 before the count was known.
fn patch_extended_counts(buffer: &mut [u8], l: &HeaderLayout) {
    let at = |field_64: u64, field_32: u64| {
        usize::try_from(l.shoff + if l.is_64 { field_64 } else { field_32 }).ok()
    };
    let mut put = |at: Option<usize>, bytes: &[u8]| {
        if let Some(dst) = at.and_then(|a| buffer.get_mut(a..a + bytes.len())) {
            dst.copy_from_slice(bytes);
        }
    };
    if l.shnum >= u64::from(elf::SHN_LORESERVE) {
        if l.is_64 {
            put(at(32, 20), &l.shnum.to_le_bytes());
        } else {
            put(at(32, 20), &(l.shnum as u32).to_le_bytes());
        }
    }
    if l.shstrndx >= u64::from(elf::SHN_LORESERVE) {
        put(at(40, 24), &(l.shstrndx as u32).to_le_bytes());
    }
}
