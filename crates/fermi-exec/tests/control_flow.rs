//! The reconvergence stack on small kernels written for it: divergent `BRA` under `SSY`,
//! `CAL`/`RET` with lanes returning early, `PRET`, a `PBK`/`BRK` loop with `PCNT`/`CONT`,
//! `BRA.U`, `VOTE`. Each thread stores one word; the expected words are computed here from
//! what the code means.

mod common;
use common::*;
use fermi::cubin::Module;
use fermi_exec::{run_module, Options};

/// A 32-bit kernel `k` with one buffer parameter, instruction `i` at address `8 * i`.
fn module(lines: &[&str]) -> Module {
    kernel_module(assemble(lines), &[4])
}

/// Runs `lines` with `threads` threads (one CTA) and returns each thread's word.
fn run_threads(lines: &[&str], threads: u32) -> Vec<u32> {
    let s = spec("k", 1, threads, vec![u32s(&vec![0xdead; threads as usize])]);
    let r = run_module(&module(lines), &s, &Options::default()).unwrap_or_else(|e| panic!("{e}"));
    words(&r, 0)
}

/// Thread index in R0, the address of its word in R2.
const PROLOGUE: [&str; 3] = [
    "S2R R0, SR_Tid_X;",
    "MOV R2, c [0x0] [0x20];",
    "ISCADD R2, R0, R2, 0x2;",
];

/// The prologue, then `body` from address 0x18.
fn with_prologue(body: &[&'static str]) -> Vec<&'static str> {
    PROLOGUE.iter().chain(body).copied().collect()
}

#[test]
fn divergent_if_else_reconverges_at_the_ssy_target() {
    let code = with_prologue(&[
        "LOP.AND R3, R0, 0x1;",                 // 0x18
        "ISETP.NE.U32.AND P0, pt, R3, RZ, pt;", // 0x20
        "SSY 0x50;",                            // 0x28
        "@P0 BRA 0x48;",                        // 0x30
        "MOV32I R4, 0x64;",                     // 0x38 even lanes
        "NOP.S CC.T;",                          // 0x40
        "MOV32I.S R4, 0xc8;",                   // 0x48 odd lanes
        "IADD R4, R4, R0;",                     // 0x50 everyone
        "ST [R2], R4;",
        "EXIT;",
    ]);
    let out = run_threads(&code, 45);
    for (t, &o) in out.iter().enumerate() {
        let want = if t % 2 == 1 { 200 } else { 100 } + t as u32;
        assert_eq!(o, want, "thread {t}");
    }
}

#[test]
fn early_exit_inside_an_ssy_region_with_predicated_nop_s() {
    // Threads >= 5 leave the region early with @P0 NOP.S; the rest add 1000 first.
    let code = with_prologue(&[
        "ISETP.GE.U32.AND P0, pt, R0, 0x5, pt;", // 0x18
        "MOV R4, R0;",                           // 0x20
        "SSY 0x40;",                             // 0x28
        "@P0 NOP.S CC.T;",                       // 0x30
        "IADD.S R4, R4, 0x3e8;",                 // 0x38
        "ST [R2], R4;",                          // 0x40
        "EXIT;",
    ]);
    let out = run_threads(&code, 40);
    for (t, &o) in out.iter().enumerate() {
        let want = if t >= 5 { t as u32 } else { t as u32 + 1000 };
        assert_eq!(o, want, "thread {t}");
    }
}

#[test]
fn calls_with_lanes_returning_early() {
    let code = with_prologue(&[
        "MOV R4, R0;",                          // 0x18
        "CAL 0x40;",                            // 0x20
        "CAL 0x40;",                            // 0x28
        "ST [R2], R4;",                         // 0x30
        "EXIT;",                                // 0x38
        "LOP.AND R3, R0, 0x1;",                 // 0x40 the function
        "ISETP.NE.U32.AND P0, pt, R3, RZ, pt;", // 0x48
        "@P0 RET;",                             // 0x50 odd lanes return at once
        "IADD R4, R4, 0x10;",                   // 0x58
        "RET;",                                 // 0x60
    ]);
    let out = run_threads(&code, 33);
    for (t, &o) in out.iter().enumerate() {
        let want = t as u32 + if t % 2 == 1 { 0 } else { 0x20 };
        assert_eq!(o, want, "thread {t}");
    }
}

#[test]
fn pret_sets_where_ret_goes() {
    let code = with_prologue(&[
        "MOV32I R4, 0x7;",  // 0x18
        "PRET 0x30;",       // 0x20
        "RET;",             // 0x28
        "IADD R4, R4, R0;", // 0x30
        "ST [R2], R4;",     // 0x38
        "EXIT;",
    ]);
    let out = run_threads(&code, 8);
    for (t, &o) in out.iter().enumerate() {
        assert_eq!(o, 7 + t as u32, "thread {t}");
    }
}

#[test]
fn break_and_continue_loop() {
    // sum = 0; for (i = 0; ; i++) { if (i >= tid) break; if (i & 1) continue; sum += i; }
    let code = with_prologue(&[
        "MOV R4, RZ;",                          // 0x18 sum
        "MOV R5, RZ;",                          // 0x20 i
        "PBK 0x80;",                            // 0x28
        "ISETP.GE.U32.AND P0, pt, R5, R0, pt;", // 0x30 loop head
        "@P0 BRK;",                             // 0x38
        "PCNT 0x70;",                           // 0x40
        "LOP.AND R3, R5, 0x1;",                 // 0x48
        "ISETP.NE.U32.AND P1, pt, R3, RZ, pt;", // 0x50
        "@P1 CONT;",                            // 0x58
        "IADD R4, R4, R5;",                     // 0x60
        "CONT;",                                // 0x68
        "IADD R5, R5, 0x1;",                    // 0x70
        "BRA 0x30;",                            // 0x78
        "ST [R2], R4;",                         // 0x80
        "EXIT;",
    ]);
    let out = run_threads(&code, 64);
    for (t, &o) in out.iter().enumerate() {
        let want: u32 = (0..t as u32).filter(|i| i % 2 == 0).sum();
        assert_eq!(o, want, "thread {t}");
    }
}

#[test]
fn uniform_branch_is_taken_only_when_every_lane_agrees() {
    // Warp 0 (threads 0-31) all have tid < 40: taken. Warp 1 (32-47) is split: not taken.
    let code = with_prologue(&[
        "MOV32I R4, 0x1;",                        // 0x18
        "ISETP.LT.U32.AND P0, pt, R0, 0x28, pt;", // 0x20
        "@P0 BRA.U 0x38;",                        // 0x28
        "MOV32I R4, 0x2;",                        // 0x30 skipped by a taken branch
        "ST [R2], R4;",                           // 0x38
        "EXIT;",
    ]);
    let out = run_threads(&code, 48);
    for (t, &o) in out.iter().enumerate() {
        assert_eq!(o, if t < 32 { 1 } else { 2 }, "thread {t}");
    }
}

#[test]
fn votes() {
    // R4 = ballot(tid odd); P1 = all(tid < 40); P2 = any(tid == 3); P3 = uniform(tid < 40).
    let code = with_prologue(&[
        "LOP.AND R3, R0, 0x1;",                   // 0x18
        "ISETP.NE.U32.AND P0, pt, R3, RZ, pt;",   // 0x20
        "VOTE.ANY R4, pt, P0;",                   // 0x28
        "ISETP.LT.U32.AND P0, pt, R0, 0x28, pt;", // 0x30
        "VOTE.ALL RZ, P1, P0;",                   // 0x38
        "VOTE.EQ RZ, P3, P0;",                    // 0x40
        "ISETP.EQ.U32.AND P0, pt, R0, 0x3, pt;",  // 0x48
        "VOTE.ANY RZ, P2, P0;",                   // 0x50
        "@P1 IADD R4, R4, 0x1;",                  // 0x58 adds to bit 0 (even lanes are 0)
        "@P2 LOP.OR R4, R4, 0x4;",                // 0x60
        "@P3 LOP.OR R4, R4, 0x8;",                // 0x68
        "ST [R2], R4;",
        "EXIT;",
    ]);
    let out = run_threads(&code, 64);
    for (t, &o) in out.iter().enumerate() {
        // Odd lanes vote: the ballot is 0xaaaaaaaa in both warps. Warp 0 (threads 0-31) is
        // all below 40 (ALL, EQ true) and holds thread 3 (ANY true); in warp 1 (32-63) some
        // threads are below 40 and some not (ALL, EQ false), and none is thread 3.
        let want = if t < 32 {
            0xaaaa_aaab | 4 | 8
        } else {
            0xaaaa_aaaa
        };
        assert_eq!(o, want, "thread {t}");
    }
}

#[test]
fn barrier_reductions() {
    // 70 threads (warps of 32, 32 and 6). POPC of "tid odd" is 35; AND of "tid < 69" is
    // false (thread 69); OR of "tid >= 69" is true.
    let code = with_prologue(&[
        "LOP.AND R3, R0, 0x1;",                   // 0x18
        "ISETP.NE.U32.AND P0, pt, R3, RZ, pt;",   // 0x20
        "BAR.RED.POPC R4, pt, RZ, RZ, P0;",       // 0x28
        "ISETP.LT.U32.AND P0, pt, R0, 0x45, pt;", // 0x30
        "BAR.RED.AND RZ, P1, RZ, RZ, P0;",        // 0x38
        "BAR.RED.OR RZ, P2, RZ, RZ, !P0;",        // 0x40
        "@P1 IADD R4, R4, 0x100;",                // 0x48
        "@P2 IADD R4, R4, 0x1000;",               // 0x50
        "ST [R2], R4;",
        "EXIT;",
    ]);
    let out = run_threads(&code, 70);
    assert_eq!(out, vec![35 + 0x1000; 70]);
    // With every thread below 69 the AND holds and the OR does not.
    let out = run_threads(&code, 69);
    assert_eq!(out, vec![34 + 0x100; 69]);
}
