//! `BRX` through the compiler's constant bank `c[0x10]` (a switch's jump table) and reads of
//! the module bank `c[0xe]`, on hand-assembled kernels written to a cubin and read back (so
//! the cubin reader's `.nv.constant16.<kernel>` / `.nv.constant14` sections are exercised).
//! Expected values are the `switch` worked out per thread in the test.

mod common;
use common::*;
use fermi::cubin::write_cubin;
use fermi_exec::{run_cubin, Options};

fn cubin(lines: &[&str], table: &[i32], globals: &[u32]) -> Vec<u8> {
    let mut m = kernel_module(assemble(lines), &[4]);
    m.kernels[0].constants = vec![(16, table.iter().flat_map(|v| v.to_le_bytes()).collect())];
    m.constants = vec![(14, globals.iter().flat_map(|v| v.to_le_bytes()).collect())];
    write_cubin(&m).unwrap()
}

/// `switch (tid & index_mask)` over four cases; case 2 is `tid + 0x100`, the others constants;
/// every case reconverges at the `SSY` point and stores `out[tid]`.
const SWITCH: &[&str] = &[
    "MOV R2, c [0x0] [0x20];",        // 0x00
    "S2R R3, SR_Tid_X;",              // 0x08
    "LOP.AND R4, R3, c [0xe] [0x0];", // 0x10: the index mask, from bank c[0xe]
    "SHL R4, R4, 0x2;",               // 0x18
    "SSY 0x70;",                      // 0x20
    "BRX c [0x10] [R4+0x0];",         // 0x28, next = 0x30
    "MOV32I R5, 0xa0;",               // 0x30 case 0
    "NOP.S CC.T;",                    // 0x38
    "MOV32I R5, 0xa1;",               // 0x40 case 1
    "NOP.S CC.T;",                    // 0x48
    "IADD R5, R3, 0x100;",            // 0x50 case 2
    "NOP.S CC.T;",                    // 0x58
    "MOV32I R5, 0xa3;",               // 0x60 case 3
    "NOP.S CC.T;",                    // 0x68
    "ISCADD R6, R3, R2, 0x2;",        // 0x70 join
    "ST [R6], R5;",                   // 0x78
    "EXIT;",                          // 0x80
];

/// Offsets of the cases from the instruction after `BRX`.
const TABLE: [i32; 4] = [0x0, 0x10, 0x20, 0x30];

fn want(tid: u32, case: u32) -> u32 {
    match case {
        0 => 0xa0,
        1 => 0xa1,
        2 => tid + 0x100,
        _ => 0xa3,
    }
}

#[test]
fn a_jump_table_in_c10_switches_every_lane_and_reconverges() {
    let n = 80; // two full warps and a partial one
    let b = cubin(SWITCH, &TABLE, &[3]);
    let r = run_cubin(
        &b,
        &spec("k", 2, n, vec![u32s(&vec![0; n as usize])]),
        &Options::default(),
    )
    .unwrap();
    let got = words(&r, 0);
    for tid in 0..n {
        assert_eq!(got[tid as usize], want(tid, tid & 3), "tid {tid}");
    }
}

#[test]
fn a_uniform_index_and_a_permuted_table() {
    // Index mask 0: every lane takes entry 0, here pointing at case 2.
    let b = cubin(SWITCH, &[0x20, 0x0, 0x10, 0x30], &[0]);
    let r = run_cubin(
        &b,
        &spec("k", 1, 32, vec![u32s(&[0; 32])]),
        &Options::default(),
    )
    .unwrap();
    let got = words(&r, 0);
    for tid in 0..32 {
        assert_eq!(got[tid as usize], want(tid, 2));
    }
}

#[test]
fn an_index_past_the_table_faults_in_the_constant_bank() {
    // Mask 7 indexes entries 4..7 of a 4-entry table.
    let b = cubin(SWITCH, &TABLE, &[7]);
    let e = run_cubin(
        &b,
        &spec("k", 1, 32, vec![u32s(&[0; 32])]),
        &Options::default(),
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("out-of-bounds 4-byte access to constant bank c[0x10] address 0x10"),
        "{e}"
    );
    assert!(e.contains("BRX"), "{e}");
    // A table entry pointing outside the code leaves it.
    let b = cubin(SWITCH, &[0x1000, 0, 0, 0], &[0]);
    let e = run_cubin(&b, &spec("k", 1, 1, vec![u32s(&[0])]), &Options::default())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("execution left the kernel's code at address 0x1030"),
        "{e}"
    );
}

#[test]
fn bra_through_a_constant_bank_is_relative_to_the_next_instruction() {
    // SWITCH with the indirect BRA form (bit 14, `c[bank][Rn+off]`) in BRX's place, and a CC
    // test on it: lanes whose `tid - 40` is negative (CC.LT after the subtraction) take the
    // table's branch, the others fall through into case 0.
    let lines = [
        "MOV R2, c [0x0] [0x20];",        // 0x00
        "S2R R3, SR_Tid_X;",              // 0x08
        "LOP.AND R4, R3, c [0xe] [0x0];", // 0x10
        "SHL R4, R4, 0x2;",               // 0x18
        "IADD32I RZ.CC, R3, -0x28;",      // 0x20
        "SSY 0x78;",                      // 0x28
        "BRA CC.LT, c [0x10] [R4+0x0];",  // 0x30, next = 0x38
        "MOV32I R5, 0xa0;",               // 0x38 case 0
        "NOP.S CC.T;",                    // 0x40
        "MOV32I R5, 0xa1;",               // 0x48 case 1
        "NOP.S CC.T;",                    // 0x50
        "IADD R5, R3, 0x100;",            // 0x58 case 2
        "NOP.S CC.T;",                    // 0x60
        "MOV32I R5, 0xa3;",               // 0x68 case 3
        "NOP.S CC.T;",                    // 0x70
        "ISCADD R6, R3, R2, 0x2;",        // 0x78 join
        "ST [R6], R5;",                   // 0x80
        "EXIT;",                          // 0x88
    ];
    let n = 64;
    let b = cubin(&lines, &TABLE, &[3]);
    let r = run_cubin(
        &b,
        &spec("k", 1, n, vec![u32s(&vec![0; n as usize])]),
        &Options::default(),
    )
    .unwrap();
    let got = words(&r, 0);
    for tid in 0..n {
        let case = if tid < 40 { tid & 3 } else { 0 };
        assert_eq!(got[tid as usize], want(tid, case), "tid {tid}");
    }
}
