//! A cubin written for small kernels reads back to the same module, and its bytes have the
//! layout NVIDIA's tools expect, checked with an ELF header parse written here from the ELF
//! specification (independent of the `object` crate the writer uses) and, when present,
//! binutils' `readelf -S`.

use fermi::cubin::{read_cubin, write_cubin, AddressSize, Arch, CubinError, Kernel, Module, Param};

/// Words copied from `sort_isa_count.isa` (NVIDIA's listing), so the code is real sm_20 code.
const CODE: [u64; 4] = [
    0x00005de428004404, // MOV R1, c [0x1] [0x100];
    0x94009c042c000000, // S2R R2, SR_CTAid_X;
    0x84001c042c000000, // S2R R0, SR_Tid_X;
    0x00001de780000000, // EXIT;
];

fn sample_module(address_size: AddressSize) -> Module {
    Module {
        arch: Arch::Sm20,
        address_size,
        kernels: vec![
            Kernel {
                name: "scale".into(),
                code: CODE.to_vec(),
                params: vec![
                    Param { offset: 0, size: 8 },
                    Param { offset: 8, size: 4 },
                    Param {
                        offset: 16,
                        size: 8,
                    },
                ],
                param_size: 24,
                shared_size: 1024,
                local_size: 0,
                reg_count: 12,
                bar_count: 1,
                frame_size: 0,
                min_stack_size: 0,
                max_threads: None,
                sync_stack: None,
                constants: vec![],
                relocs: Default::default(),
            },
            Kernel {
                name: "tiny".into(),
                code: vec![0x00001de780000000],
                params: vec![],
                param_size: 0,
                shared_size: 0,
                local_size: 48,
                reg_count: 2,
                bar_count: 0,
                frame_size: 48,
                min_stack_size: 16,
                max_threads: Some([256, 1, 1]),
                sync_stack: Some([0x0002_0018, 1]),
                constants: vec![],
                relocs: Default::default(),
            },
        ],
        constant2: (0u8..40).collect(),
        constants: vec![],
        globals: Default::default(),
    }
}

#[test]
fn other_constant_banks_round_trip_as_their_own_sections() {
    let mut m = sample_module(AddressSize::Bits32);
    // A jump table in the compiler's bank c[0x10] of one kernel, global addresses in c[0xe].
    m.kernels[0].constants = vec![(16, vec![0x10, 0, 0, 0, 0x28, 0, 0, 0])];
    m.kernels[1].constants = vec![(16, vec![7; 12]), (3, vec![1, 2, 3, 4])];
    m.constants = vec![(14, vec![0, 0, 0, 0x10])];
    let b = write_cubin(&m).unwrap();
    let names: Vec<String> = parse_sections(&b).into_iter().map(|s| s.name).collect();
    for n in [
        ".nv.constant16.scale",
        ".nv.constant16.tiny",
        ".nv.constant3.tiny",
        ".nv.constant14",
    ] {
        assert!(names.iter().any(|x| x == n), "{n} missing from {names:?}");
    }
    assert_eq!(read_cubin(&b).unwrap(), m);
}

#[test]
fn constant_banks_the_reader_could_not_give_back_are_refused() {
    let mut m = sample_module(AddressSize::Bits32);
    m.constants = vec![(2, vec![0; 4])];
    assert!(write_cubin(&m).is_err());
    m.constants = vec![(14, vec![]), (14, vec![])];
    assert!(write_cubin(&m).is_err());
    m.constants = vec![(32, vec![])];
    assert!(write_cubin(&m).is_err());
    m.constants = vec![];
    m.kernels[0].constants = vec![(0, vec![0; 4])];
    assert!(write_cubin(&m).is_err());
    m.kernels[0].constants = vec![(16, vec![0; 0x1_0001])];
    assert!(write_cubin(&m).is_err());
}

/// Little-endian integer of `n` bytes at `off`.
fn le(bytes: &[u8], off: usize, n: usize) -> u64 {
    bytes[off..off + n]
        .iter()
        .rev()
        .fold(0u64, |acc, &b| (acc << 8) | u64::from(b))
}

struct Shdr {
    name: String,
    sh_type: u32,
    flags: u64,
    offset: u64,
    size: u64,
    link: u32,
    info: u32,
}

/// Section headers per the ELF spec (Elf32_Shdr / Elf64_Shdr field layout).
fn parse_sections(b: &[u8]) -> Vec<Shdr> {
    let is64 = b[4] == 2;
    let (shoff, shentsize, shnum, shstrndx) = if is64 {
        (
            le(b, 0x28, 8),
            le(b, 0x3a, 2),
            le(b, 0x3c, 2),
            le(b, 0x3e, 2),
        )
    } else {
        (
            le(b, 0x20, 4),
            le(b, 0x2e, 2),
            le(b, 0x30, 2),
            le(b, 0x32, 2),
        )
    };
    assert_eq!(shentsize, if is64 { 64 } else { 40 });
    let raw = |i: u64| {
        let o = (shoff + i * shentsize) as usize;
        if is64 {
            (
                le(b, o, 4),
                le(b, o + 4, 4) as u32,
                le(b, o + 8, 8),
                le(b, o + 24, 8),
                le(b, o + 32, 8),
                le(b, o + 40, 4) as u32,
                le(b, o + 44, 4) as u32,
            )
        } else {
            (
                le(b, o, 4),
                le(b, o + 4, 4) as u32,
                le(b, o + 8, 4),
                le(b, o + 16, 4),
                le(b, o + 20, 4),
                le(b, o + 24, 4) as u32,
                le(b, o + 28, 4) as u32,
            )
        }
    };
    let strtab_off = raw(shstrndx).3 as usize;
    (0..shnum)
        .map(|i| {
            let (name, sh_type, flags, offset, size, link, info) = raw(i);
            let start = strtab_off + name as usize;
            let end = start + b[start..].iter().position(|&c| c == 0).unwrap();
            Shdr {
                name: String::from_utf8(b[start..end].to_vec()).unwrap(),
                sh_type,
                flags,
                offset,
                size,
                link,
                info,
            }
        })
        .collect()
}

fn section<'a>(secs: &'a [Shdr], name: &str) -> &'a Shdr {
    secs.iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("no section {name}"))
}

#[test]
fn module_reads_back_identically_64_and_32_bit() {
    for size in [AddressSize::Bits64, AddressSize::Bits32] {
        let m = sample_module(size);
        let bytes = write_cubin(&m).unwrap();
        assert_eq!(read_cubin(&bytes).unwrap(), m);
    }
}

#[test]
fn elf_header_is_a_cuda_sm20_executable() {
    let b = write_cubin(&sample_module(AddressSize::Bits64)).unwrap();
    assert_eq!(&b[..4], b"\x7fELF");
    assert_eq!(b[4], 2, "ELFCLASS64 for 64-bit addresses");
    assert_eq!(b[5], 1, "little endian");
    assert_eq!(b[7], 0x33, "ELFOSABI_CUDA");
    assert_eq!(le(&b, 16, 2), 2, "ET_EXEC");
    assert_eq!(le(&b, 18, 2), 190, "EM_CUDA");
    // sm_20 real arch, compute_20 virtual arch, unified texture mode, 64-bit addresses.
    assert_eq!(le(&b, 0x30, 4), 0x14 | 0x100 | 0x400 | (0x14 << 16));

    let b32 = write_cubin(&sample_module(AddressSize::Bits32)).unwrap();
    assert_eq!(b32[4], 1, "ELFCLASS32 for 32-bit addresses");
    assert_eq!(le(&b32, 0x24, 4), 0x140114);

    let mut m21 = sample_module(AddressSize::Bits32);
    m21.arch = Arch::Sm21;
    let b21 = write_cubin(&m21).unwrap();
    assert_eq!(le(&b21, 0x24, 4), 0x140115);
    assert_eq!(read_cubin(&b21).unwrap().arch, Arch::Sm21);
}

#[test]
fn sections_carry_code_params_and_resources() {
    let b = write_cubin(&sample_module(AddressSize::Bits64)).unwrap();
    let secs = parse_sections(&b);
    let names: Vec<&str> = secs.iter().map(|s| s.name.as_str()).collect();
    for wanted in [
        ".shstrtab",
        ".strtab",
        ".symtab",
        ".nv.info",
        ".nv.info.scale",
        ".text.scale",
        ".nv.constant0.scale",
        ".nv.shared.scale",
        ".nv.info.tiny",
        ".text.tiny",
        ".nv.constant0.tiny",
        ".nv.local.tiny",
        ".nv.constant2",
    ] {
        assert!(names.contains(&wanted), "missing {wanted} in {names:?}");
    }
    assert!(!names.contains(&".nv.shared.tiny"));

    let text = section(&secs, ".text.scale");
    assert_eq!(text.sh_type, 1, "SHT_PROGBITS");
    assert_eq!(text.flags & 0x6, 0x6, "SHF_ALLOC | SHF_EXECINSTR");
    assert_eq!((text.flags >> 20) & 0x7f, 1, "barrier count");
    assert_eq!(text.info >> 24, 12, "register count");
    // In memory each instruction is its low 32-bit half then its high half; cuobjdump prints
    // the low half first, so the printed number is `lo << 32 | hi`.
    let code: Vec<u64> = (0..CODE.len())
        .map(|i| {
            let at = text.offset as usize + 8 * i;
            (le(&b, at, 4) << 32) | le(&b, at + 4, 4)
        })
        .collect();
    assert_eq!(code, CODE);

    // The low bits of sh_info name the text section's own STT_SECTION symbol (CUDA 4.1's
    // sm_20 cubins do so); the kernel is a global STT_FUNC with STO_CUDA_ENTRY, named after
    // the kernel, whose st_shndx is the text section.
    let symtab = section(&secs, ".symtab");
    let strtab = &secs[symtab.link as usize];
    let text_index = secs.iter().position(|s| s.name == ".text.scale").unwrap() as u64;
    let own = symtab.offset as usize + 24 * (text.info & 0xff_ffff) as usize;
    assert_eq!(b[own + 4] & 0xf, 3, "STT_SECTION");
    assert_eq!(le(&b, own + 6, 2), text_index, "st_shndx");
    let sym = (0..symtab.size as usize / 24)
        .map(|i| symtab.offset as usize + 24 * i)
        .find(|&sym| {
            let name_off = strtab.offset as usize + le(&b, sym, 4) as usize;
            &b[name_off..name_off + 6] == b"scale\0"
        })
        .expect("a symbol named scale");
    assert_eq!(b[sym + 4], (1 << 4) | 2, "STB_GLOBAL, STT_FUNC");
    assert_eq!(b[sym + 5], 0x10, "STO_CUDA_ENTRY");
    assert_eq!(le(&b, sym + 6, 2), text_index, "st_shndx");
    assert_eq!(le(&b, sym + 16, 8), 8 * CODE.len() as u64, "st_size");

    // Constant bank 0: 0x20 bytes the driver fills, then the 24-byte parameter block.
    let c0 = section(&secs, ".nv.constant0.scale");
    assert_eq!(c0.size, 0x20 + 24);
    assert_eq!(secs[c0.info as usize].name, ".text.scale");
    assert_eq!(section(&secs, ".nv.shared.scale").sh_type, 8, "SHT_NOBITS");
    assert_eq!(section(&secs, ".nv.shared.scale").size, 1024);
    assert_eq!(section(&secs, ".nv.local.tiny").size, 48);

    // .nv.info.scale, decoded by hand: [fmt][attr][u16] records.
    let info = section(&secs, ".nv.info.scale");
    // SHT_PROGBITS, SHF_ALLOC, as CUDA 4.1 wrote it (ptxas 12.9: SHT_CUDA_INFO 0x70000000).
    assert_eq!((info.sh_type, info.flags), (1, 2));
    let mut at = info.offset as usize;
    let end = at + info.size as usize;
    let mut kparams = Vec::new();
    let (mut cbank_param_size, mut param_cbank) = (None, None);
    while at < end {
        let (fmt, attr, v) = (b[at], b[at + 1], le(&b, at + 2, 2));
        if fmt == 4 {
            let p = at + 4;
            match attr {
                0x17 => kparams.push((le(&b, p + 4, 2), le(&b, p + 6, 2), le(&b, p + 8, 4))),
                0x0a => param_cbank = Some(le(&b, p + 4, 4)),
                _ => {}
            }
            at += 4 + v as usize;
        } else {
            if attr == 0x19 {
                cbank_param_size = Some(v);
            }
            at += 4;
        }
    }
    assert_eq!(cbank_param_size, Some(24));
    assert_eq!(
        param_cbank,
        Some((24 << 16) | 0x20),
        "size 24 at c[0x0][0x20]"
    );
    kparams.sort();
    // (ordinal, offset, flags: size << 18 | cbank 0x1f << 12)
    assert_eq!(
        kparams,
        vec![
            (0, 0, (8 << 18) | 0x1f000),
            (1, 8, (4 << 18) | 0x1f000),
            (2, 16, (8 << 18) | 0x1f000)
        ]
    );
    let c2 = section(&secs, ".nv.constant2");
    let c2_bytes = &b[c2.offset as usize..(c2.offset + c2.size) as usize];
    assert_eq!(c2_bytes, (0u8..40).collect::<Vec<_>>().as_slice());
}

#[test]
fn readelf_lists_the_sections() {
    for size in [AddressSize::Bits64, AddressSize::Bits32] {
        let b = write_cubin(&sample_module(size)).unwrap();
        let path = std::env::temp_dir().join(format!(
            "ptxvm-cubin-test-{}-{size:?}.cubin",
            std::process::id()
        ));
        std::fs::write(&path, &b).unwrap();
        let out = std::process::Command::new("readelf")
            .arg("-hSlW")
            .arg(&path)
            .output();
        let _ = std::fs::remove_file(&path);
        let Ok(out) = out else {
            eprintln!("note: readelf not found; skipping the binutils cross-check");
            return;
        };
        let text = String::from_utf8_lossy(&out.stdout);
        let errors = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "readelf failed: {errors}");
        for wanted in [
            ".text.scale",
            ".nv.constant0.scale",
            ".nv.info.scale",
            ".nv.shared.scale",
            ".nv.local.tiny",
            ".nv.info",
            ".nv.constant2",
            "NVIDIA CUDA",
            "PHDR",
            "LOAD",
        ] {
            assert!(
                text.contains(wanted),
                "readelf -hSl lacks {wanted}:\n{text}"
            );
        }
        // readelf objects to nothing but the register count NVIDIA also keeps in the text
        // sections' sh_info.
        for line in errors.lines() {
            assert!(
                line.contains("Unexpected value") && line.contains("info field"),
                "{errors}"
            );
        }
    }
}

#[test]
fn writer_rejects_unrepresentable_modules() {
    let mut m = sample_module(AddressSize::Bits64);
    m.kernels[0].params.push(Param {
        offset: 20,
        size: 8,
    });
    assert!(matches!(
        write_cubin(&m),
        Err(CubinError::Unrepresentable(_))
    ));
    let mut m = sample_module(AddressSize::Bits64);
    m.kernels[1].name = "scale".into();
    assert!(matches!(
        write_cubin(&m),
        Err(CubinError::Unrepresentable(_))
    ));
    let mut m = sample_module(AddressSize::Bits64);
    m.kernels[0].name = String::new();
    assert!(matches!(
        write_cubin(&m),
        Err(CubinError::Unrepresentable(_))
    ));
}

#[test]
fn reader_classifies_bad_input() {
    assert!(matches!(read_cubin(b""), Err(CubinError::NotElf(_))));
    assert!(matches!(
        read_cubin(b"hello world, not an elf"),
        Err(CubinError::NotElf(_))
    ));
    let good = write_cubin(&sample_module(AddressSize::Bits64)).unwrap();

    let mut x86 = good.clone();
    x86[18] = 62; // EM_X86_64
    x86[19] = 0;
    assert_eq!(read_cubin(&x86), Err(CubinError::NotCuda { machine: 62 }));

    let mut sm30 = good.clone();
    sm30[0x30] = 30;
    assert_eq!(
        read_cubin(&sm30),
        Err(CubinError::UnsupportedArch { sm: 30 })
    );

    // Every truncation is an error or a (smaller) module, never a panic.
    for len in 0..good.len() {
        let _ = read_cubin(&good[..len]);
    }
}

#[test]
fn reader_reports_a_truncated_attribute_record() {
    let mut b = write_cubin(&sample_module(AddressSize::Bits64)).unwrap();
    let secs = parse_sections(&b);
    let info = section(&secs, ".nv.info.scale");
    // Claim a huge payload for the first (SVAL) record.
    let at = info.offset as usize;
    assert_eq!(b[at], 4);
    b[at + 2] = 0xff;
    b[at + 3] = 0xff;
    match read_cubin(&b) {
        Err(CubinError::Malformed { section, .. }) => assert_eq!(section, ".nv.info.scale"),
        other => panic!("expected Malformed, got {other:?}"),
    }
}

/// Thousands of kernels (the translator's output for a large PTX file) write and read back
/// with each kernel's own sections, symbol and stack records; a name given twice is refused.
#[test]
fn many_kernels_round_trip_and_keep_their_own_sections() {
    let template = sample_module(AddressSize::Bits64).kernels;
    let mut m = sample_module(AddressSize::Bits64);
    m.kernels = (0..3000)
        .map(|i| {
            let mut k = template[i % 2].clone();
            k.name = format!("k{i}");
            k.code.push(0x4000_0000_0000_1de4 | (i as u64) << 26); // a distinct NOP-class word
            k.constants = vec![(16, (i as u32).to_le_bytes().to_vec())];
            k
        })
        .collect();
    let back = read_cubin(&write_cubin(&m).unwrap()).unwrap();
    assert_eq!(back.kernels.len(), 3000);
    for (i, k) in back.kernels.iter().enumerate() {
        let want = &m.kernels[i];
        assert_eq!(k.name, want.name);
        assert_eq!(k.code, want.code, "{}", k.name);
        assert_eq!(k.constants, want.constants, "{}", k.name);
        assert_eq!(
            (k.frame_size, k.min_stack_size),
            (want.frame_size, want.min_stack_size),
            "{}",
            k.name
        );
    }
    m.kernels[2999].name = "k17".into();
    assert!(matches!(write_cubin(&m), Err(CubinError::Unrepresentable(e)) if e.contains("`k17`")));
}
