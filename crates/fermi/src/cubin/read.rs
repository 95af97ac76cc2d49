//! Cubin bytes → [`Module`], never panicking: every table access goes through `object`'s
//! bounds-checked readers and every failure becomes a [`CubinError`].

use super::consts::*;
use super::nvinfo::{decode_records, payload_word, Record};
use super::{
    AddressSize, Arch, CubinError, DataReloc, GlobalData, GlobalVar, Kernel, Module, Param, Reloc,
    RelocKind,
};
use object::elf;
use object::read::elf::{FileHeader, SectionHeader, Sym};
use object::{Endianness, FileKind};
use std::collections::HashMap;

fn malformed(section: &str, reason: impl Into<String>) -> CubinError {
    CubinError::Malformed {
        section: section.to_string(),
        reason: reason.into(),
    }
}

fn not_elf(e: object::read::Error) -> CubinError {
    CubinError::NotElf(e.to_string())
}

/// Reads an sm_20/sm_21 cubin.
pub fn read_cubin(bytes: &[u8]) -> Result<Module, CubinError> {
    match FileKind::parse(bytes).map_err(not_elf)? {
        FileKind::Elf32 => read_elf::<elf::FileHeader32<Endianness>>(bytes),
        FileKind::Elf64 => read_elf::<elf::FileHeader64<Endianness>>(bytes),
        other => Err(CubinError::NotElf(format!("file kind is {other:?}"))),
    }
}

/// One section as we need it: name, header fields and contents.
struct Section<'a> {
    name: String,
    index: usize,
    flags: u64,
    info: u32,
    size: u64,
    data: &'a [u8],
}

fn read_elf<Elf: FileHeader<Endian = Endianness>>(bytes: &[u8]) -> Result<Module, CubinError> {
    let header = Elf::parse(bytes).map_err(not_elf)?;
    let endian = header.endian().map_err(not_elf)?;
    let machine = header.e_machine(endian).0;
    if machine != EM_CUDA {
        return Err(CubinError::NotCuda { machine });
    }
    let flags = header.e_flags(endian).0;
    let sm = flags & EF_CUDA_SM_MASK;
    let arch = Arch::from_sm(sm).ok_or(CubinError::UnsupportedArch { sm })?;
    let address_size = if flags & EF_CUDA_64BIT_ADDRESS != 0 {
        AddressSize::Bits64
    } else {
        AddressSize::Bits32
    };

    let table = header.sections(endian, bytes).map_err(not_elf)?;
    let mut sections = Vec::new();
    for (index, sh) in table.enumerate() {
        if index.0 == 0 {
            continue;
        }
        let name = table.section_name(endian, sh).map_err(not_elf)?;
        let name = String::from_utf8_lossy(name).into_owned();
        let data = if sh.sh_type(endian) == elf::SHT_NOBITS {
            &[][..]
        } else {
            sh.data(endian, bytes)
                .map_err(|e| malformed(&name, e.to_string()))?
        };
        sections.push(Section {
            name,
            index: index.0,
            flags: sh.sh_flags(endian).0,
            info: sh.sh_info(endian),
            size: sh.sh_size(endian).into(),
            data,
        });
    }

    // Symbol index → name, for `.nv.info` records that name a kernel by its symbol.
    let symbols = table
        .symbols(endian, bytes, elf::SHT_SYMTAB)
        .map_err(|e| malformed(".symtab", e.to_string()))?;
    let mut symbol_names: HashMap<u32, String> = HashMap::new();
    // Object symbols: index → (name, section index, value, size), for `.global` variables.
    let mut objects: Vec<(u32, String, usize, u64, u64)> = Vec::new();
    for (i, sym) in symbols.iter().enumerate() {
        if sym.st_type() == elf::STT_OBJECT {
            let name = sym
                .name(endian, symbols.strings())
                .map_err(|e| malformed(".symtab", e.to_string()))?;
            let section = symbols
                .symbol_section(endian, sym, object::SymbolIndex(i))
                .map_err(|e| malformed(".symtab", e.to_string()))?
                .map_or(0, |s| s.0);
            objects.push((
                u32::try_from(i).unwrap_or(u32::MAX),
                String::from_utf8_lossy(name).into_owned(),
                section,
                sym.st_value(endian).into(),
                sym.st_size(endian).into(),
            ));
        }
        if let Ok(name) = sym.name(endian, symbols.strings()) {
            if !name.is_empty() {
                let i = u32::try_from(i).unwrap_or(u32::MAX);
                symbol_names.insert(i, String::from_utf8_lossy(name).into_owned());
            }
        }
    }

    let index = SectionIndex::new(&sections);
    let mut kernels = Vec::new();
    for text in &sections {
        let Some(name) = text.name.strip_prefix(".text.") else {
            continue;
        };
        kernels.push(read_kernel(name, text, &index)?);
    }
    let is_64 = Elf::is_type_64_sized();
    let globals = read_globals(&sections, &objects, is_64)?;
    for k in &mut kernels {
        let name = format!(".rela.text.{}", k.name);
        if let Some(rela) = sections.iter().find(|s| s.name == name) {
            k.relocs = read_relocs(rela, is_64, &objects, k.code.len())?;
        }
    }

    if let Some(info) = sections.iter().find(|s| s.name == ".nv.info") {
        apply_global_info(info, &symbol_names, &mut kernels)?;
    }
    let constant2 = sections
        .iter()
        .find(|s| s.name == ".nv.constant2")
        .map(|s| s.data.to_vec())
        .unwrap_or_default();
    // Other module-scope banks (`.nv.constant14`, …); 0 and 2 have their own fields.
    let mut constants = Vec::new();
    for sec in &sections {
        let bank = sec
            .name
            .strip_prefix(".nv.constant")
            .and_then(super::constant_section_bank);
        if let Some((bank, None)) = bank {
            if bank != 0 && bank != 2 {
                check_bank_size(sec)?;
                constants.push((bank, sec.data.to_vec()));
            }
        }
    }
    Ok(Module {
        arch,
        address_size,
        kernels,
        constant2,
        constants,
        globals,
    })
}

/// `.nv.global.init` / `.nv.global` and the object symbols that name places in them.
fn read_globals(
    sections: &[Section<'_>],
    objects: &[(u32, String, usize, u64, u64)],
    is_64: bool,
) -> Result<GlobalData, CubinError> {
    let init = sections.iter().find(|s| s.name == GLOBAL_INIT_SECTION);
    let zero = sections.iter().find(|s| s.name == GLOBAL_ZERO_SECTION);
    let zero_size = match zero {
        Some(z) => u32::try_from(z.size)
            .map_err(|_| malformed(GLOBAL_ZERO_SECTION, "larger than 4 GiB"))?,
        None => 0,
    };
    let mut vars = Vec::new();
    for (_, name, section, value, size) in objects {
        let (initialized, limit, sec_name) = if init.is_some_and(|s| s.index == *section) {
            (
                true,
                init.map_or(0, |s| s.data.len() as u64),
                GLOBAL_INIT_SECTION,
            )
        } else if zero.is_some_and(|s| s.index == *section) {
            (false, u64::from(zero_size), GLOBAL_ZERO_SECTION)
        } else {
            continue;
        };
        if value.checked_add(*size).is_none_or(|end| end > limit) {
            return Err(malformed(
                sec_name,
                format!("variable `{name}` lies outside the section"),
            ));
        }
        vars.push(GlobalVar {
            name: name.clone(),
            initialized,
            offset: *value as u32,
            size: *size as u32,
        });
    }
    let init_len = init.map_or(0, |s| s.data.len());
    let relocs = match sections.iter().find(|s| s.name == GLOBAL_INIT_RELA_SECTION) {
        Some(rela) => read_data_relocs(rela, is_64, objects, init_len)?,
        None => Vec::new(),
    };
    Ok(GlobalData {
        init: init.map(|s| s.data.to_vec()).unwrap_or_default(),
        zero_size,
        vars,
        relocs,
    })
}

/// The entries of a `.rela.*` section: `Elf64_Rela` (24 bytes) or `Elf32_Rela` (12 bytes), as
/// (offset, symbol index, type, addend).
fn rela_entries(rela: &Section<'_>, is_64: bool) -> Result<Vec<(u64, u32, u32, i64)>, CubinError> {
    let entry = if is_64 { 24 } else { 12 };
    if !rela.data.len().is_multiple_of(entry) {
        return Err(malformed(
            &rela.name,
            "size is not a whole number of entries",
        ));
    }
    let word = |b: &[u8], at: usize| -> u64 {
        let mut w = [0u8; 8];
        let n = if is_64 { 8 } else { 4 };
        if let (Some(dst), Some(src)) = (w.get_mut(..n), b.get(at..at + n)) {
            dst.copy_from_slice(src);
        }
        u64::from_le_bytes(w)
    };
    Ok(rela
        .data
        .chunks_exact(entry)
        .map(|e| {
            let step = entry / 3;
            let (offset, info, addend) = (word(e, 0), word(e, step), word(e, 2 * step));
            if is_64 {
                (offset, (info >> 32) as u32, info as u32, addend as i64)
            } else {
                (
                    offset,
                    (info >> 8) as u32,
                    (info & 0xff) as u32,
                    i64::from(addend as u32 as i32),
                )
            }
        })
        .collect())
}

/// The global variable an object symbol index names.
fn object_name(
    rela: &Section<'_>,
    objects: &[(u32, String, usize, u64, u64)],
    sym: u32,
) -> Result<String, CubinError> {
    objects
        .iter()
        .find(|o| o.0 == sym)
        .map(|o| o.1.clone())
        .ok_or_else(|| malformed(&rela.name, format!("symbol {sym} is no global variable")))
}

/// A kernel's `.rela.text.<name>`: entries against object symbols, at instruction boundaries
/// inside the code.
fn read_relocs(
    rela: &Section<'_>,
    is_64: bool,
    objects: &[(u32, String, usize, u64, u64)],
    code_words: usize,
) -> Result<Vec<Reloc>, CubinError> {
    let mut out = Vec::new();
    for (offset, sym, r_type, addend) in rela_entries(rela, is_64)? {
        let kind = RelocKind::from_r_type(r_type).ok_or_else(|| {
            malformed(
                &rela.name,
                format!("relocation type {r_type} is not supported"),
            )
        })?;
        let symbol = object_name(rela, objects, sym)?;
        if !offset.is_multiple_of(8) || offset / 8 >= code_words as u64 {
            return Err(malformed(
                &rela.name,
                format!("relocation at byte {offset} lies outside the code"),
            ));
        }
        out.push(Reloc {
            offset: offset as u32,
            kind,
            symbol,
            addend,
        });
    }
    Ok(out)
}

/// `.rela.nv.global.init`: `R_CUDA_32`/`R_CUDA_64` entries against object symbols, inside
/// `.nv.global.init` (`init_len` bytes).
fn read_data_relocs(
    rela: &Section<'_>,
    is_64: bool,
    objects: &[(u32, String, usize, u64, u64)],
    init_len: usize,
) -> Result<Vec<DataReloc>, CubinError> {
    let mut out = Vec::new();
    for (offset, sym, r_type, addend) in rela_entries(rela, is_64)? {
        let wide = match r_type {
            R_CUDA_64 => true,
            R_CUDA_32 => false,
            _ => {
                return Err(malformed(
                    &rela.name,
                    format!("relocation type {r_type} is not supported in data"),
                ))
            }
        };
        let symbol = object_name(rela, objects, sym)?;
        let width = if wide { 8 } else { 4 };
        if offset
            .checked_add(width)
            .is_none_or(|end| end > init_len as u64)
        {
            return Err(malformed(
                &rela.name,
                format!("relocation at byte {offset} lies outside {GLOBAL_INIT_SECTION}"),
            ));
        }
        out.push(DataReloc {
            offset: offset as u32,
            symbol,
            addend,
            wide,
        });
    }
    Ok(out)
}

/// Sections by name, and each kernel's own constant banks, built once: looking them up by
/// searching every section for every kernel made reading a cubin of thousands of kernels
/// quadratic.
struct SectionIndex<'s, 'a> {
    by_name: HashMap<&'s str, Vec<&'s Section<'a>>>,
    /// Kernel name → its banks other than c[0x0] (`.nv.constant16.<name>`, …), in file order.
    kernel_banks: HashMap<&'s str, Vec<(u8, &'s Section<'a>)>>,
}

impl<'s, 'a> SectionIndex<'s, 'a> {
    fn new(sections: &'s [Section<'a>]) -> Self {
        let mut by_name: HashMap<&str, Vec<&Section<'a>>> = HashMap::new();
        let mut kernel_banks: HashMap<&str, Vec<(u8, &Section<'a>)>> = HashMap::new();
        for sec in sections {
            by_name.entry(sec.name.as_str()).or_default().push(sec);
            let bank = sec
                .name
                .strip_prefix(".nv.constant")
                .and_then(super::constant_section_bank);
            if let Some((bank, Some(k))) = bank {
                if bank != 0 {
                    kernel_banks.entry(k).or_default().push((bank, sec));
                }
            }
        }
        SectionIndex {
            by_name,
            kernel_banks,
        }
    }

    /// The sections named `name`, in file order.
    fn named(&self, name: &str) -> &[&'s Section<'a>] {
        self.by_name.get(name).map_or(&[], Vec::as_slice)
    }
}

fn read_kernel(
    name: &str,
    text: &Section<'_>,
    sections: &SectionIndex<'_, '_>,
) -> Result<Kernel, CubinError> {
    if !text.data.len().is_multiple_of(8) {
        return Err(malformed(
            &text.name,
            format!(
                "{} bytes is not a whole number of 8-byte instructions",
                text.data.len()
            ),
        ));
    }
    let code = text
        .data
        .chunks_exact(8)
        .map(|c| {
            let mut word = [0u8; 8];
            word.copy_from_slice(c);
            crate::isa::listing_from_bytes(word)
        })
        .collect();
    let nobits_size = |prefix: &str| -> Result<u32, CubinError> {
        let wanted = format!(".nv.{prefix}.{name}");
        match sections.named(&wanted).first() {
            Some(s) => u32::try_from(s.size).map_err(|_| malformed(&wanted, "size exceeds 4 GiB")),
            None => Ok(0),
        }
    };
    let mut kernel = Kernel {
        name: name.to_string(),
        code,
        reg_count: (text.info >> SH_INFO_REGCOUNT_SHIFT) as u8,
        bar_count: ((text.flags >> SHF_BARRIERS_SHIFT) & SHF_BARRIERS_MASK) as u8,
        shared_size: nobits_size("shared")?,
        local_size: nobits_size("local")?,
        ..Kernel::default()
    };
    // The kernel's own banks other than c[0x0] (`.nv.constant16.<name>`, …).
    for &(bank, sec) in sections
        .kernel_banks
        .get(name)
        .map_or(&[][..], Vec::as_slice)
    {
        check_bank_size(sec)?;
        kernel.constants.push((bank, sec.data.to_vec()));
    }
    let info_name = format!(".nv.info.{name}");
    // Only the section that names this text section in sh_info (or, lacking that, by name).
    let named = sections.named(&info_name);
    let info = named
        .iter()
        .find(|s| s.info as usize == text.index)
        .or_else(|| named.first());
    if let Some(info) = info {
        apply_kernel_info(info, &mut kernel)?;
    }
    Ok(kernel)
}

/// A constant bank holds at most 64 KiB.
fn check_bank_size(sec: &Section<'_>) -> Result<(), CubinError> {
    if sec.data.len() > CONSTANT_BANK_BYTES as usize {
        return Err(malformed(
            &sec.name,
            format!(
                "{} bytes exceed a constant bank's {CONSTANT_BANK_BYTES}",
                sec.data.len()
            ),
        ));
    }
    Ok(())
}

fn apply_kernel_info(info: &Section<'_>, kernel: &mut Kernel) -> Result<(), CubinError> {
    let records = decode_records(info.data).map_err(|r| malformed(&info.name, r))?;
    let mut params: Vec<(u32, Param)> = Vec::new();
    for record in records {
        match record {
            Record::Short {
                attr: EIATTR_CBANK_PARAM_SIZE,
                value,
                ..
            } => kernel.param_size = u32::from(value),
            Record::Sized {
                attr: EIATTR_MAX_THREADS,
                payload,
            } => {
                let word = |i| payload_word(&payload, i);
                let (Some(x), Some(y), Some(z)) = (word(0), word(1), word(2)) else {
                    return Err(malformed(
                        &info.name,
                        "EIATTR_MAX_THREADS payload is shorter than 12 bytes",
                    ));
                };
                kernel.max_threads = Some([x, y, z]);
            }
            Record::Sized {
                attr: EIATTR_SYNC_STACK,
                payload,
            } => {
                let (Some(a), Some(b)) = (payload_word(&payload, 0), payload_word(&payload, 1))
                else {
                    return Err(malformed(
                        &info.name,
                        "EIATTR_SYNC_STACK payload is shorter than 8 bytes",
                    ));
                };
                kernel.sync_stack = Some([a, b]);
            }
            Record::Sized {
                attr: EIATTR_KPARAM_INFO,
                payload,
            } => {
                let (Some(ord_off), Some(flags)) =
                    (payload_word(&payload, 1), payload_word(&payload, 2))
                else {
                    return Err(malformed(
                        &info.name,
                        "EIATTR_KPARAM_INFO payload is shorter than 12 bytes",
                    ));
                };
                let param = Param {
                    offset: ord_off >> 16,
                    size: flags >> KPARAM_SIZE_SHIFT,
                };
                params.push((ord_off & 0xffff, param));
            }
            _ => {}
        }
    }
    params.sort_by_key(|(ordinal, _)| *ordinal);
    for (expected, (ordinal, _)) in params.iter().enumerate() {
        if *ordinal as usize != expected {
            return Err(malformed(
                &info.name,
                format!(
                    "parameter ordinals are not 0..{} without gaps or repeats",
                    params.len()
                ),
            ));
        }
    }
    kernel.params = params.into_iter().map(|(_, p)| p).collect();
    Ok(())
}

fn apply_global_info(
    info: &Section<'_>,
    symbol_names: &HashMap<u32, String>,
    kernels: &mut [Kernel],
) -> Result<(), CubinError> {
    let records = decode_records(info.data).map_err(|r| malformed(&info.name, r))?;
    // The first kernel of each name, as a search in order would find it.
    let mut by_name: HashMap<String, usize> = HashMap::new();
    for (i, k) in kernels.iter().enumerate() {
        by_name.entry(k.name.clone()).or_insert(i);
    }
    for record in records {
        let Record::Sized { attr, payload } = record else {
            continue;
        };
        if attr != EIATTR_FRAME_SIZE && attr != EIATTR_MIN_STACK_SIZE {
            continue;
        }
        let (Some(sym), Some(value)) = (payload_word(&payload, 0), payload_word(&payload, 1))
        else {
            return Err(malformed(
                &info.name,
                format!("attribute 0x{attr:02x} payload is shorter than 8 bytes"),
            ));
        };
        let Some(kernel) = symbol_names
            .get(&sym)
            .and_then(|n| by_name.get(n))
            .and_then(|&i| kernels.get_mut(i))
        else {
            continue;
        };
        if attr == EIATTR_FRAME_SIZE {
            kernel.frame_size = value;
        } else {
            kernel.min_stack_size = value;
        }
    }
    Ok(())
}
