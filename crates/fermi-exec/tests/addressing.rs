//! The sm_20 launch ABI and address spaces on small kernels: 64-bit `.E` addresses built
//! with a carry chain, the shared window's generic address from `c[0x0][0x0]`, the stack
//! pointer from `c[0x1][0x100]` and local memory below it, `%ntid`/`%nctaid` from bank 0.

mod common;
use common::*;
use fermi::cubin::{AddressSize, Kernel, Module, Param};
use fermi_exec::{run_module, Options};

fn module(lines: &[&str], size: AddressSize, params: Vec<Param>, shared: u32) -> Module {
    let code = assemble(lines);
    let param_size = params.iter().map(|p| p.offset + p.size).max().unwrap_or(0);
    Module {
        address_size: size,
        kernels: vec![Kernel {
            name: "k".into(),
            code,
            params,
            param_size,
            shared_size: shared,
            ..Default::default()
        }],
        ..Default::default()
    }
}

#[test]
fn wide_addresses_with_a_carry_chain() {
    // out[tid] = in[tid] + 1 through 64-bit pointers (-m64 code).
    let m = module(
        &[
            "MOV R1, c [0x1] [0x100];",
            "S2R R0, SR_Tid_X;",
            "SHL R6, R0, 0x2;",
            "IADD R2.CC, R6, c [0x0] [0x20];",
            "IADD.X R3, RZ, c [0x0] [0x24];",
            "LD.E R4, [R2];",
            "IADD R4, R4, 0x1;",
            "ST.E [R2], R4;",
            "EXIT;",
        ],
        AddressSize::Bits64,
        vec![Param { offset: 0, size: 8 }],
        0,
    );
    let data: Vec<u32> = xorshift(3, 40);
    let s = spec("k", 1, 40, vec![u32s(&data)]);
    let r = run_module(&m, &s, &Options::default()).unwrap();
    let want: Vec<u32> = data.iter().map(|x| x.wrapping_add(1)).collect();
    assert_eq!(words(&r, 0), want);
}

#[test]
fn generic_shared_and_local_addresses() {
    // Each thread stores tid*3 to shared[tid] (STS), pushes tid+5 on its stack (STL below
    // R1), then reads shared[(tid+1) % n] through the generic window (LD) after a barrier and
    // its stack slot back (LDL): out[tid] = 3*((tid+1) % n) + (tid+5).
    let m = module(
        &[
            "MOV R1, c [0x1] [0x100];",                        // 0x00
            "S2R R0, SR_Tid_X;",                               // 0x08
            "IMUL R4, R0, 0x3;",                               // 0x10
            "SHL R5, R0, 0x2;",                                // 0x18
            "STS [R5], R4;",                                   // 0x20
            "IADD R6, R0, 0x5;",                               // 0x28
            "STL [R1+-0x4], R6;",                              // 0x30
            "BAR.RED.POPC RZ, RZ;",                            // 0x38
            "IADD R7, R0, 0x1;",                               // 0x40
            "ISETP.GE.U32.AND P0, pt, R7, c [0x0] [0x8], pt;", // 0x48 tid+1 >= ntid.x
            "@P0 MOV R7, RZ;",                                 // 0x50
            "ISCADD R7, R7, c [0x0] [0x0], 0x2;", // 0x58 generic address of shared[...]
            "LD R8, [R7];",                       // 0x60
            "LDL R9, [R1+-0x4];",                 // 0x68
            "IADD R8, R8, R9;",                   // 0x70
            "ISCADD R10, R0, c [0x0] [0x20], 0x2;", // 0x78
            "ST [R10], R8;",                      // 0x80
            "EXIT;",
        ],
        AddressSize::Bits32,
        vec![Param { offset: 0, size: 4 }],
        0x400,
    );
    let n = 70u32;
    let s = spec("k", 1, n, vec![u32s(&vec![0; n as usize])]);
    let r = run_module(&m, &s, &Options::default()).unwrap();
    let want: Vec<u32> = (0..n).map(|t| 3 * ((t + 1) % n) + t + 5).collect();
    assert_eq!(words(&r, 0), want);
}

#[test]
fn launch_dimensions_come_from_bank_zero_and_special_registers() {
    // out[global id] = ntid.x * 1000 + nctaid.x * 100 + ctaid.x, global id from S2R.
    let m = module(
        &[
            "S2R R0, SR_Tid_X;",
            "S2R R1, SR_CTAid_X;",
            "MOV R2, c [0x0] [0x8];",
            "MOV R3, c [0x0] [0x14];",
            "IMAD R4, R1, R2, R0;", // global id
            "IMUL R5, R2, 0x3e8;",
            "IMAD R5, R3, 0x64, R5;",
            "IADD R5, R5, R1;",
            "ISCADD R4, R4, c [0x0] [0x20], 0x2;",
            "ST [R4], R5;",
            "EXIT;",
        ],
        AddressSize::Bits32,
        vec![Param { offset: 0, size: 4 }],
        0,
    );
    let s = spec("k", 3, 10, vec![u32s(&[0; 30])]);
    let r = run_module(&m, &s, &Options::default()).unwrap();
    let want: Vec<u32> = (0..30).map(|g| 10 * 1000 + 3 * 100 + g / 10).collect();
    assert_eq!(words(&r, 0), want);
}

#[test]
fn oversized_local_memory_is_a_launch_error() {
    let mut m = module(&["EXIT;"], AddressSize::Bits32, vec![], 0);
    m.kernels[0].local_size = u32::MAX;
    m.kernels[0].min_stack_size = u32::MAX;
    let s = spec("k", 1, 1, vec![]);
    match run_module(&m, &s, &Options::default()) {
        Err(fermi_exec::RunError::Launch(msg)) => assert!(msg.contains("local memory"), "{msg}"),
        other => panic!("{other:?}"),
    }
}
