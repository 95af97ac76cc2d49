//! A module whose cubin needs more sections than ELF's 16-bit `e_shnum` holds (from
//! SHN_LORESERVE = 0xff00 up) is written with the gABI's extended section numbering —
//! `e_shnum = 0` and the count in section 0's `sh_size`; symbols of sections from 0xff00 up
//! say SHN_XINDEX (0xffff) with their index in a `SHT_SYMTAB_SHNDX` section — and reads back,
//! also through the disassembler `ptxvm disasm` runs. The header is parsed here from the ELF
//! specification, independent of the `object` crate the writer uses.

use fermi::cubin::{read_cubin, write_cubin, AddressSize, Arch, Kernel, Module, Param};

const EXIT: u64 = 0x00001de780000000; // EXIT; (NVIDIA's word)
const SHN_LORESERVE: u64 = 0xff00;
const SHN_XINDEX: u64 = 0xffff;
const SHT_SYMTAB: u64 = 2;
const SHT_SYMTAB_SHNDX: u64 = 18;

/// Three sections per kernel (code, parameter bank, `.nv.info`): 22,000 kernels need 66,000+.
const KERNELS: usize = 22_000;

fn module(address_size: AddressSize) -> Module {
    let kernels = (0..KERNELS)
        .map(|i| Kernel {
            name: format!("k{i}"),
            code: vec![EXIT; 1 + i % 3],
            params: vec![Param { offset: 0, size: 4 }],
            param_size: 4,
            shared_size: 0,
            local_size: 0,
            reg_count: 2,
            bar_count: 0,
            frame_size: 0,
            min_stack_size: 0,
            max_threads: None,
            sync_stack: None,
            constants: vec![],
            relocs: Default::default(),
        })
        .collect();
    Module {
        arch: Arch::Sm20,
        address_size,
        kernels,
        constant2: vec![],
        constants: vec![],
        globals: Default::default(),
    }
}

fn le(b: &[u8], at: u64, n: usize) -> u64 {
    let at = at as usize;
    b[at..at + n]
        .iter()
        .rev()
        .fold(0, |acc, &x| acc << 8 | u64::from(x))
}

/// One section header: (name offset, type, offset, size, link).
fn section(b: &[u8], is64: bool, shoff: u64, i: u64) -> (u64, u64, u64, u64, u64) {
    if is64 {
        let o = shoff + i * 64;
        (
            le(b, o, 4),
            le(b, o + 4, 4),
            le(b, o + 24, 8),
            le(b, o + 32, 8),
            le(b, o + 40, 4),
        )
    } else {
        let o = shoff + i * 40;
        (
            le(b, o, 4),
            le(b, o + 4, 4),
            le(b, o + 16, 4),
            le(b, o + 20, 4),
            le(b, o + 24, 4),
        )
    }
}

fn c_string(b: &[u8], at: u64) -> String {
    let at = at as usize;
    let end = at + b[at..].iter().position(|&c| c == 0).unwrap();
    String::from_utf8(b[at..end].to_vec()).unwrap()
}

fn check_layout(b: &[u8], is64: bool) {
    let (shoff, shnum_field, shstrndx) = if is64 {
        (le(b, 0x28, 8), le(b, 0x3c, 2), le(b, 0x3e, 2))
    } else {
        (le(b, 0x20, 4), le(b, 0x30, 2), le(b, 0x32, 2))
    };
    assert_eq!(shnum_field, 0, "e_shnum must be 0 under extended numbering");
    let (_, _, _, count, link0) = section(b, is64, shoff, 0);
    // null, .shstrtab, .strtab, .symtab, 3 per kernel, .nv.info, .symtab_shndx
    let want = 4 + 3 * KERNELS as u64 + 1 + 1;
    assert_eq!(count, want, "section 0's sh_size holds the section count");
    assert!(count >= SHN_LORESERVE);
    // `.shstrtab` is section 1, below SHN_LORESERVE: e_shstrndx names it directly.
    assert_eq!(shstrndx, 1);
    assert_eq!(link0, 0);
    let names_at = section(b, is64, shoff, shstrndx).2;
    let name = |i: u64| c_string(b, names_at + section(b, is64, shoff, i).0);
    assert_eq!(name(count - 1), ".symtab_shndx");
    // The last kernel's code section lies above 0xff00.
    let last_text = 4 + 3 * (KERNELS as u64 - 1);
    assert!(last_text > SHN_LORESERVE);
    assert_eq!(name(last_text), format!(".text.k{}", KERNELS - 1));

    // Its symbol: st_shndx = SHN_XINDEX, the index in `.symtab_shndx`.
    let (_, symtab_type, symtab_off, symtab_size, strtab) = section(b, is64, shoff, 3);
    assert_eq!(symtab_type, SHT_SYMTAB);
    let (_, shndx_type, shndx_off, shndx_size, shndx_link) = section(b, is64, shoff, count - 1);
    assert_eq!(shndx_type, SHT_SYMTAB_SHNDX);
    assert_eq!(
        shndx_link, 3,
        "the SHT_SYMTAB_SHNDX section links to .symtab"
    );
    let sym_size = if is64 { 24 } else { 16 };
    let nsyms = symtab_size / sym_size;
    assert_eq!(shndx_size, nsyms * 4, "one word per symbol");
    let strings_at = section(b, is64, shoff, strtab).2;
    let sym = |i: u64| {
        let o = symtab_off + i * sym_size;
        let (st_name, st_shndx) = if is64 {
            (le(b, o, 4), le(b, o + 6, 2))
        } else {
            (le(b, o, 4), le(b, o + 14, 2))
        };
        (c_string(b, strings_at + st_name), st_shndx)
    };
    let last = (0..nsyms)
        .find(|&i| sym(i).0 == format!("k{}", KERNELS - 1))
        .expect("the last kernel's symbol");
    assert_eq!(sym(last).1, SHN_XINDEX);
    assert_eq!(le(b, shndx_off + 4 * last, 4), last_text);
    // A symbol below the reserved range keeps its index in st_shndx.
    let first = (0..nsyms).find(|&i| sym(i).0 == "k0").unwrap();
    assert_eq!(sym(first).1, 4);
}

#[test]
fn a_module_over_65280_sections_uses_extended_numbering_and_reads_back() {
    for (size, is64) in [(AddressSize::Bits64, true), (AddressSize::Bits32, false)] {
        let m = module(size);
        let bytes = write_cubin(&m).expect("extended section numbering is written");
        check_layout(&bytes, is64);
        assert_eq!(read_cubin(&bytes).expect("and read back"), m);
    }
}

#[test]
fn the_disassembler_reads_a_cubin_with_extended_numbering() {
    let bytes = write_cubin(&module(AddressSize::Bits64)).unwrap();
    let text = fermi::disasm::disassemble_cubin(&bytes).expect("disassembles");
    let last = format!("k{}", KERNELS - 1);
    assert!(text.contains(&last), "the last kernel is listed");
    assert_eq!(
        text.matches("EXIT").count(),
        (0..KERNELS).map(|i| 1 + i % 3).sum::<usize>(),
        "every kernel's code is listed"
    );
}

#[test]
fn readelf_reads_it_when_present() {
    let bytes = write_cubin(&module(AddressSize::Bits64)).unwrap();
    let dir = std::env::temp_dir().join(format!("ptxvm-many-sections-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("many.cubin");
    std::fs::write(&path, &bytes).unwrap();
    let out = std::process::Command::new("readelf")
        .arg("-h")
        .arg(&path)
        .output();
    let _ = std::fs::remove_dir_all(&dir);
    // binutils is optional on CI; the layout checks above do not depend on it.
    let Ok(out) = out else { return };
    let text = String::from_utf8_lossy(&out.stdout);
    let want = format!(
        "Number of section headers:         0 ({})",
        4 + 3 * KERNELS + 2
    );
    assert!(text.contains(&want), "readelf -h says:\n{text}");
}
