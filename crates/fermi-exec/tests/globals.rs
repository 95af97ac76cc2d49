//! The loader's handling of module `.global` variables: `.nv.global.init` bytes and the
//! zero-filled `.nv.global` placed in device memory, and the code's `R_CUDA_ABS32_*_26`
//! relocations given the variables' addresses before the kernel runs (through a written
//! and re-read cubin, as `ptxvm run k.cubin` sees it).

mod common;
use common::*;
use fermi::cubin::{
    write_cubin, AddressSize, GlobalData, GlobalVar, Kernel, Module, Param, Reloc, RelocKind,
};
use fermi_exec::{run_cubin, Options};

const TABLE: [u32; 4] = [0x11, 0x2222, 0x33_3333, 0x4444_4444];

fn module(size: AddressSize, lines: &[&str], relocs: Vec<(u32, RelocKind, &str, i64)>) -> Module {
    let code = assemble(lines);
    let psize = if size == AddressSize::Bits64 { 8 } else { 4 };
    Module {
        address_size: size,
        kernels: vec![Kernel {
            name: "k".into(),
            code,
            params: vec![Param {
                offset: 0,
                size: psize,
            }],
            param_size: psize,
            relocs: relocs
                .into_iter()
                .map(|(offset, kind, symbol, addend)| Reloc {
                    offset,
                    kind,
                    symbol: symbol.into(),
                    addend,
                })
                .collect(),
            ..Default::default()
        }],
        globals: GlobalData {
            // 8 bytes of another variable first, so `table` is not at the section's start.
            init: [0xdead_beef_u32, 7]
                .iter()
                .chain(&TABLE)
                .flat_map(|v| v.to_le_bytes())
                .collect(),
            zero_size: 16,
            vars: vec![
                GlobalVar {
                    name: "other".into(),
                    initialized: true,
                    offset: 0,
                    size: 8,
                },
                GlobalVar {
                    name: "table".into(),
                    initialized: true,
                    offset: 8,
                    size: 16,
                },
                GlobalVar {
                    name: "zeros".into(),
                    initialized: false,
                    offset: 0,
                    size: 16,
                },
            ],
            relocs: Vec::new(),
        },
        ..Default::default()
    }
}

#[test]
fn sixty_four_bit_addresses_from_lo_hi_relocations() {
    // out[t] = table[t] + zeros[t + 1]: the table's bytes come from `.nv.global.init`, the
    // zeros from `.nv.global`, addressed with an addend.
    let m = module(
        AddressSize::Bits64,
        &[
            "MOV32I R2, 0x0;", // 0x00 table, low word
            "MOV32I R3, 0x0;", // 0x08 table, high word
            "MOV32I R8, 0x0;", // 0x10 zeros + 4, low word
            "MOV32I R9, 0x0;", // 0x18 zeros + 4, high word
            "S2R R0, SR_Tid_X;",
            "SHL R6, R0, 0x2;",
            "IADD R2.CC, R2, R6;",
            "IADD.X R3, R3, RZ;",
            "LD.E R4, [R2];",
            "IADD R8.CC, R8, R6;",
            "IADD.X R9, R9, RZ;",
            "LD.E R5, [R8];",
            "IADD R4, R4, R5;",
            "IADD R10.CC, R6, c [0x0] [0x20];",
            "IADD.X R11, RZ, c [0x0] [0x24];",
            "ST.E [R10], R4;",
            "EXIT;",
        ],
        vec![
            (0x00, RelocKind::Abs32LoAt26, "table", 0),
            (0x08, RelocKind::Abs32HiAt26, "table", 0),
            (0x10, RelocKind::Abs32LoAt26, "zeros", 4),
            (0x18, RelocKind::Abs32HiAt26, "zeros", 4),
        ],
    );
    let bytes = write_cubin(&m).expect("writes");
    let s = spec("k", 1, 3, vec![u32s(&[0; 3])]);
    let r = run_cubin(&bytes, &s, &Options::default()).unwrap();
    assert_eq!(words(&r, 0), TABLE[..3].to_vec());
}

#[test]
fn thirty_two_bit_addresses_from_abs32_relocations() {
    // out[t] = table[t - 1 + 1] with the address `table - 4` (a negative addend) plus 4t + 4.
    let m = module(
        AddressSize::Bits32,
        &[
            "MOV32I R2, 0x0;", // table - 4
            "S2R R0, SR_Tid_X;",
            "SHL R6, R0, 0x2;",
            "IADD R2, R2, R6;",
            "LD R4, [R2+0x4];",
            "IADD R10, R6, c [0x0] [0x20];",
            "ST [R10], R4;",
            "EXIT;",
        ],
        vec![(0x00, RelocKind::Abs32At26, "table", -4)],
    );
    let bytes = write_cubin(&m).expect("writes");
    let s = spec("k", 1, 4, vec![u32s(&[0; 4])]);
    let r = run_cubin(&bytes, &s, &Options::default()).unwrap();
    assert_eq!(words(&r, 0), TABLE.to_vec());
}
