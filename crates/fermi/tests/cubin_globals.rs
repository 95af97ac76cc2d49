//! Module `.global` data (`.nv.global.init`, `.nv.global`, one object symbol per variable)
//! and code relocations (`.rela.text.<k>`, NVIDIA's `R_CUDA_ABS32_*_26` types) survive a
//! write/read round trip, and a relocation patches `MOV32I`'s immediate.

use fermi::cubin::{
    read_cubin, write_cubin, AddressSize, DataReloc, GlobalData, GlobalVar, Kernel, Module, Reloc,
    RelocKind,
};

fn asm(t: &str) -> u64 {
    fermi::isa::assemble_text(t, 0, &|_| None).unwrap_or_else(|e| panic!("{t}: {e}"))
}

fn module(size: AddressSize) -> Module {
    let reloc = |offset, kind, symbol: &str, addend| Reloc {
        offset,
        kind,
        symbol: symbol.into(),
        addend,
    };
    Module {
        address_size: size,
        kernels: vec![Kernel {
            name: "k".into(),
            code: vec![
                asm("MOV32I R2, 0x0;"),
                asm("MOV32I R3, 0x0;"),
                asm("MOV32I R4, 0x0;"),
                asm("EXIT;"),
            ],
            relocs: vec![
                reloc(0, RelocKind::Abs32LoAt26, "table", 8),
                reloc(8, RelocKind::Abs32HiAt26, "table", 8),
                reloc(16, RelocKind::Abs32At26, "count", -4),
            ],
            ..Default::default()
        }],
        globals: GlobalData {
            init: (1u8..=16).collect(),
            zero_size: 12,
            vars: vec![
                GlobalVar {
                    name: "table".into(),
                    initialized: true,
                    offset: 0,
                    size: 16,
                },
                GlobalVar {
                    name: "count".into(),
                    initialized: false,
                    offset: 8,
                    size: 4,
                },
            ],
            // `table`'s second half holds `&count + 4`, its first word `&table` (32 bits).
            relocs: vec![
                DataReloc {
                    offset: 8,
                    symbol: "count".into(),
                    addend: 4,
                    wide: true,
                },
                DataReloc {
                    offset: 0,
                    symbol: "table".into(),
                    addend: 0,
                    wide: false,
                },
            ],
        },
        ..Default::default()
    }
}

#[test]
fn globals_and_relocations_round_trip_in_both_elf_classes() {
    for size in [AddressSize::Bits64, AddressSize::Bits32] {
        let m = module(size);
        let bytes = write_cubin(&m).expect("writes");
        let back = read_cubin(&bytes).expect("reads");
        assert_eq!(back, m, "{size:?}");
    }
}

#[test]
fn a_relocation_to_an_unknown_symbol_is_refused() {
    let mut m = module(AddressSize::Bits64);
    m.kernels[0].relocs[0].symbol = "nowhere".into();
    assert!(write_cubin(&m).is_err());
    let mut m = module(AddressSize::Bits64);
    m.kernels[0].relocs[0].offset = 4 * 8;
    assert!(write_cubin(&m).is_err());
}

#[test]
fn relocations_set_mov32i_immediates() {
    let addr: u64 = 0x1234_5678_9abc_def0;
    let w = asm("MOV32I R2, 0x0;");
    let lo = RelocKind::Abs32LoAt26.apply(w, addr);
    let hi = RelocKind::Abs32HiAt26.apply(w, addr);
    assert_eq!(lo, asm("MOV32I R2, 0x9abcdef0;"));
    assert_eq!(hi, asm("MOV32I R2, 0x12345678;"));
    assert_eq!(
        RelocKind::Abs32At26.apply(asm("MOV32I R7, 0x55;"), 0x40),
        asm("MOV32I R7, 0x40;")
    );
}

#[test]
fn readelf_lists_the_relocations_and_symbols_when_present() {
    let bytes = write_cubin(&module(AddressSize::Bits64)).unwrap();
    let dir = std::env::temp_dir().join(format!("ptxvm-cubin-globals-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("globals.cubin");
    std::fs::write(&path, &bytes).unwrap();
    let out = std::process::Command::new("readelf")
        .args(["-r", "-s", "-W"])
        .arg(&path)
        .output();
    let _ = std::fs::remove_dir_all(&dir);
    // binutils is optional on CI; the round trip above does not depend on it.
    let Ok(out) = out else { return };
    let text = String::from_utf8_lossy(&out.stdout);
    // r_info = symbol << 32 | type: types 10 (LO_26), 11 (HI_26), 5 (ABS32_26); the
    // variables' symbols follow the section symbols and the kernel's.
    for want in [
        "Relocation section '.rela.text.k'",
        "contains 3 entries",
        " table + 8",
        " count - 4",
        "16 OBJECT  GLOBAL DEFAULT",
        "4 OBJECT  GLOBAL DEFAULT",
        "Relocation section '.rela.nv.global.init'",
        "contains 2 entries",
        " count + 4",
    ] {
        assert!(text.contains(want), "readelf lacks {want:?}:\n{text}");
    }
}
