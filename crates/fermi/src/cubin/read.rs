//! Cubin bytes → [`Module`], never panicking: every table access goes through `object`'s
//! bounds-checked readers and every failure becomes a [`CubinError`].

use super::consts::*;
use super::nvinfo::{decode_records, payload_word, Record};
use super::{AddressSize, Arch, CubinError, Kernel, Module, Param};
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
    for (i, sym) in symbols.iter().enumerate() {
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
    })
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
