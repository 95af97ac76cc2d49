//! The writer against NVIDIA's own sm_20 cubins (CUDA 4.1, `nvcc -arch=compute_20 -code=sm_20`,
//! 32-bit; copies of `/work/shared/fermi/mgpu-sources/*.cubin` in `container-data/`): read each, write the same kernels back, and
//! compare with NVIDIA's bytes parsed here by hand (ELF32 header fields, `.nv.info.<kernel>`
//! records in order, `.nv.info` records per kernel).

use std::path::Path;

use fermi::cubin::{cubin_e_flags, read_cubin, write_cubin, AddressSize, Arch};

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/container-data");
const CUBINS: &[&str] = &[
    "ballotscan.cubin",
    "maxindex.cubin",
    "mgpuscan-mgpuscan.cubin",
];

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// A minimal ELF32 reader, independent of `object` and of fermi's reader: section name →
/// contents.
fn sections32(b: &[u8]) -> Vec<(String, Vec<u8>)> {
    assert_eq!(b[4], 1, "ELFCLASS32");
    let shoff = u32_at(b, 0x20) as usize;
    let shentsize = u16_at(b, 0x2e) as usize;
    let shnum = u16_at(b, 0x30) as usize;
    let shstrndx = u16_at(b, 0x32) as usize;
    let sh = |i: usize| shoff + i * shentsize;
    let strtab = u32_at(b, sh(shstrndx) + 0x10) as usize;
    (0..shnum)
        .map(|i| {
            let h = sh(i);
            let name_at = strtab + u32_at(b, h) as usize;
            let end = name_at + b[name_at..].iter().position(|&c| c == 0).unwrap();
            let name = String::from_utf8(b[name_at..end].to_vec()).unwrap();
            let (ty, off, size) = (
                u32_at(b, h + 4),
                u32_at(b, h + 0x10) as usize,
                u32_at(b, h + 0x14) as usize,
            );
            let data = if ty == 8 {
                Vec::new()
            } else {
                b[off..off + size].to_vec()
            };
            (name, data)
        })
        .collect()
}

/// What each symbol (by index) names: its own name, or for a section symbol the name of the
/// section it stands for (`st_shndx`).
fn symbol_names(b: &[u8]) -> Vec<String> {
    let secs = sections32(b);
    let find = |n: &str| secs.iter().find(|(name, _)| name == n).unwrap().1.clone();
    let (symtab, strtab) = (find(".symtab"), find(".strtab"));
    symtab
        .chunks(16)
        .map(|s| {
            let at = u32_at(s, 0) as usize;
            let end = at + strtab[at..].iter().position(|&c| c == 0).unwrap();
            let name = String::from_utf8(strtab[at..end].to_vec()).unwrap();
            let shndx = usize::from(u16_at(s, 14));
            if name.is_empty() && s[12] & 0xf == 3 {
                secs.get(shndx).map_or(name, |(n, _)| n.clone())
            } else {
                name
            }
        })
        .collect()
}

/// `.nv.info` records: (format, attribute, value or payload).
fn records(data: &[u8]) -> Vec<(u8, u8, Vec<u8>)> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < data.len() {
        let (fmt, attr, v) = (data[at], data[at + 1], u16_at(data, at + 2));
        if fmt == 4 {
            let len = usize::from(v);
            out.push((fmt, attr, data[at + 4..at + 4 + len].to_vec()));
            at += 4 + len;
        } else {
            out.push((fmt, attr, v.to_le_bytes().to_vec()));
            at += 4;
        }
    }
    out
}

#[test]
fn header_is_what_cuda_4_1_wrote() {
    for name in CUBINS {
        let theirs = std::fs::read(Path::new(DIR).join(name)).unwrap();
        let ours = write_cubin(&read_cubin(&theirs).unwrap()).unwrap();
        // e_ident class, data, OS/ABI, ABI version; e_type, e_machine; e_flags.
        assert_eq!(ours[4..9], theirs[4..9], "{name}: e_ident");
        assert_eq!(theirs[4..9], [1, 1, 1, 0x33, 4]);
        assert_eq!(
            ours[0x10..0x14],
            theirs[0x10..0x14],
            "{name}: e_type, e_machine"
        );
        assert_eq!(
            u32_at(&ours, 0x24),
            u32_at(&theirs, 0x24),
            "{name}: e_flags"
        );
        assert_eq!(u32_at(&theirs, 0x24), 0x140114);
    }
    // The 64-bit flavour differs by EF_CUDA_64BIT_ADDRESS (0x400) only.
    assert_eq!(cubin_e_flags(Arch::Sm20, AddressSize::Bits64), 0x140514);
}

#[test]
fn kernel_records_are_nvidias_in_nvidias_order() {
    for name in CUBINS {
        let theirs = std::fs::read(Path::new(DIR).join(name)).unwrap();
        let module = read_cubin(&theirs).unwrap();
        let ours = write_cubin(&module).unwrap();
        let (their_secs, our_secs) = (sections32(&theirs), sections32(&ours));
        let (their_syms, our_syms) = (symbol_names(&theirs), symbol_names(&ours));
        let mut kernels = 0;
        for (sec, their_data) in their_secs
            .iter()
            .filter(|(n, _)| n.starts_with(".nv.info."))
        {
            let our_data = &our_secs.iter().find(|(n, _)| n == sec).unwrap().1;
            let (t, o) = (records(their_data), records(our_data));
            let attrs = |r: &[(u8, u8, Vec<u8>)]| r.iter().map(|x| (x.0, x.1)).collect::<Vec<_>>();
            assert_eq!(attrs(&o), attrs(&t), "{name} {sec}: record kinds and order");
            for ((_, attr, op), (_, _, tp)) in o.iter().zip(&t) {
                if *attr == 0x0a {
                    // EIATTR_PARAM_CBANK: the symbol of the kernel's .nv.constant0 section
                    // (its index is each writer's own), then base and size.
                    assert_eq!(op[4..], tp[4..], "{name} {sec}: PARAM_CBANK");
                    let kernel = sec.trim_start_matches(".nv.info.");
                    let want = format!(".nv.constant0.{kernel}");
                    assert_eq!(their_syms[u32_at(tp, 0) as usize], want);
                    assert_eq!(our_syms[u32_at(op, 0) as usize], want);
                } else {
                    assert_eq!(op, tp, "{name} {sec}: attribute 0x{attr:02x}");
                }
            }
            // What the records mean, from NVIDIA's bytes: CBANK_PARAM_OFFSETS, PARAM_CBANK,
            // CBANK_PARAM_SIZE, one KPARAM_INFO per parameter (0xffffffff first word), then
            // SYNC_STACK last.
            assert_eq!(t[0].1, 0x0c);
            let nparams = t[0].2.len() / 4;
            assert_eq!(t.iter().filter(|r| r.1 == 0x17).count(), nparams);
            assert!(t
                .iter()
                .filter(|r| r.1 == 0x17)
                .all(|r| u32_at(&r.2, 0) == u32::MAX));
            assert_eq!(t.last().unwrap().1, 0x0d, "{name} {sec}: SYNC_STACK last");
            kernels += 1;
        }
        assert_eq!(kernels, module.kernels.len());

        // `.nv.info`: MIN_STACK_SIZE and FRAME_SIZE for every kernel, by symbol name.
        let global = |secs: &[(String, Vec<u8>)], syms: &[String]| {
            let data = &secs.iter().find(|(n, _)| n == ".nv.info").unwrap().1;
            let mut v: Vec<(u8, String, u32)> = records(data)
                .into_iter()
                .map(|(_, attr, p)| (attr, syms[u32_at(&p, 0) as usize].clone(), u32_at(&p, 4)))
                .collect();
            v.sort();
            v
        };
        let theirs_global = global(&their_secs, &their_syms);
        assert_eq!(
            global(&our_secs, &our_syms),
            theirs_global,
            "{name}: .nv.info"
        );
        assert_eq!(theirs_global.len(), 2 * module.kernels.len());
        assert!(theirs_global
            .iter()
            .all(|(a, _, _)| *a == 0x11 || *a == 0x12));

        // Everything else round-trips too: the same module, the same disassembly.
        assert_eq!(read_cubin(&ours).unwrap(), module, "{name}");
        assert_eq!(
            fermi::disasm::disassemble_cubin(&ours).unwrap(),
            fermi::disasm::disassemble_cubin(&theirs).unwrap()
        );
    }
}

/// Each section header as something comparable across writers: name, type, flags, link,
/// alignment, and what `sh_info` designates (a section by name; for a text section the
/// register count and the section its symbol stands for).
fn section_shapes(b: &[u8]) -> Vec<(String, u32, u32, u32, u32, String)> {
    let secs = sections32(b);
    let syms = symbol_names(b);
    let shoff = u32_at(b, 0x20) as usize;
    let shentsize = u16_at(b, 0x2e) as usize;
    (0..secs.len())
        .map(|i| {
            let h = shoff + i * shentsize;
            let (ty, flags, link, info, align) = (
                u32_at(b, h + 4),
                u32_at(b, h + 8),
                u32_at(b, h + 0x18),
                u32_at(b, h + 0x1c),
                u32_at(b, h + 0x20),
            );
            let name = secs[i].0.clone();
            let what = if name.starts_with(".text.") {
                format!(
                    "regs {} sym {}",
                    info >> 24,
                    syms[(info & 0xff_ffff) as usize]
                )
            } else if name.starts_with(".nv.") && info != 0 {
                secs[info as usize].0.clone()
            } else {
                String::new()
            };
            (name, ty, flags, link, align, what)
        })
        .collect()
}

#[test]
fn sections_are_laid_out_as_nvidia_did() {
    for name in CUBINS {
        let theirs = std::fs::read(Path::new(DIR).join(name)).unwrap();
        let ours = write_cubin(&read_cubin(&theirs).unwrap()).unwrap();
        let (t, o) = (section_shapes(&theirs), section_shapes(&ours));
        // `.shstrtab`, `.strtab`, `.symtab` headers: the symbol table's sh_info (first global)
        // and alignments are each writer's own; compare from the first own section on.
        assert_eq!(
            t[..4].iter().map(|s| &s.0).collect::<Vec<_>>(),
            o[..4].iter().map(|s| &s.0).collect::<Vec<_>>()
        );
        assert_eq!(o[4..], t[4..], "{name}");
    }
}
