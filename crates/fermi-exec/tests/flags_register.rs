//! P2R/R2P and the `$flags` word envytools describes: `P0`–`P6` at bits 0–6, the condition
//! code's zero, sign, carry and overflow flags at bits 12–15. Expected words are computed in
//! the test from each thread's index.

mod common;
use common::*;
use fermi::cubin::Module;
use fermi_exec::{run_module, Options, RunError};

fn module(lines: &[&str]) -> Module {
    kernel_module(assemble(lines), &[4])
}

fn run(lines: &[&str], threads: u32) -> Result<Vec<u32>, RunError> {
    let s = spec("k", 1, threads, vec![u32s(&vec![0xdead; threads as usize])]);
    Ok(words(
        &run_module(&module(lines), &s, &Options::default())?,
        0,
    ))
}

#[test]
fn r2p_sets_predicates_and_flags_that_p2r_and_branches_read() {
    let code = [
        "S2R R0, SR_Tid_X;",
        "MOV R2, c [0x0] [0x20];",
        "ISCADD R2, R0, R2, 0x2;",
        "SHL R7, R0, 0x9;",        // tid bits 3-6 at 12-15
        "LOP.OR R7, R7, R0;",      // and bits 0-6 at 0-6
        "R2P PR, R7, 0xf07f;",     // P0-P6 = tid bits 0-6; Z, S, C, O = tid bits 3-6
        "P2R R4, PR, RZ, 0xf07f;", // read everything back
        "@P2 IADD32I R4, R4, 0x10000;",
        "EXIT CC.EQ;", // Z and not S: tid bit 3 set, bit 4 clear
        "ST [R2], R4;",
        "EXIT;",
    ];
    let out = run(&code, 128).unwrap_or_else(|e| panic!("{e}"));
    for t in 0..128u32 {
        let want = if t & 8 != 0 && t & 16 == 0 {
            0xdead
        } else {
            (t & 0x7f) | (t >> 3 & 0xf) << 12 | if t & 4 != 0 { 0x10000 } else { 0 }
        };
        assert_eq!(out[t as usize], want, "thread {t}");
    }
}

#[test]
fn p2r_masks_and_keeps_the_source_outside_the_mask() {
    // P2R R4, PR, R5, 0x3: P0, P1 from ISETP; R5 has bits only outside the mask.
    let code = [
        "S2R R0, SR_Tid_X;",
        "MOV R2, c [0x0] [0x20];",
        "ISCADD R2, R0, R2, 0x2;",
        "LOP.AND R3, R0, 0x3;",
        "ISETP.EQ.U32.AND P0, pt, R3, 0x1, pt;",
        "ISETP.EQ.U32.AND P1, pt, R3, 0x2, pt;",
        "MOV32I R5, 0xabc00;",
        "P2R R4, PR, R5, 0x3;",
        "ST [R2], R4;",
        "EXIT;",
    ];
    let out = run(&code, 8).unwrap_or_else(|e| panic!("{e}"));
    for t in 0..8u32 {
        let p = match t & 3 {
            1 => 1,
            2 => 2,
            _ => 0,
        };
        assert_eq!(out[t as usize], 0xabc00 | p, "thread {t}");
    }
    // Source bits under the mask: the form no source settles faults.
    let mut bad = code;
    bad[6] = "MOV32I R5, 0x1;";
    let e = run(&bad, 8).unwrap_err().to_string();
    assert!(e.contains("P2R with source bits under the mask"), "{e}");
    // .HIGH, whose meaning is unknown, faults.
    bad = code;
    bad[7] = "P2R.HIGH R4, PR, R5, 0x3;";
    let e = run(&bad, 8).unwrap_err().to_string();
    assert!(e.contains("P2R with modifier .HIGH"), "{e}");
}
