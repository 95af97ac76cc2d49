//! Named and partial-CTA barriers (`BAR` with a barrier number and a thread count) and
//! `BAR.ARV`, PTX's `bar.sync a, b` / `bar.arrive a, b`: producers that arrive without waiting,
//! consumers that wait for them, and the faults when a barrier cannot complete or is misused.
//! Expected words are computed in the test from what the code does.

mod common;
use common::*;
use fermi::cubin::Module;
use fermi_exec::{run_module, Options, RunError};

fn module(lines: &[&str]) -> Module {
    kernel_module(assemble(lines), &[4])
}

fn run(lines: &[&str], threads: u32) -> Result<Vec<u32>, RunError> {
    let mut s = spec("k", 1, threads, vec![u32s(&vec![0xdead; threads as usize])]);
    s.shared_bytes = 1024;
    let r = run_module(&module(lines), &s, &Options::default())?;
    Ok(words(&r, 0))
}

/// Warps 0–1 produce: each thread spins 40 times, then stores `3 * tid + 1` to shared word
/// `tid` and arrives at barrier 1 (`BAR.ARV`) for 128 threads. Warps 2–3 consume: they wait
/// at barrier 1 (`BAR.RED.POPC` = `bar.sync 1, 128`) and read word `tid - 64`. Without the
/// barrier a consumer would read the zero that is there before its producer's store.
const PRODUCER_CONSUMER: &[&str] = &[
    "S2R R0, SR_Tid_X;",                      // 0x00
    "MOV R2, c [0x0] [0x20];",                // 0x08
    "ISCADD R2, R0, R2, 0x2;",                // 0x10
    "SHL R7, R0, 0x2;",                       // 0x18 shared offset of word tid
    "ISETP.GE.U32.AND P0, pt, R0, 0x40, pt;", // 0x20
    "@P0 BRA 0x78;",                          // 0x28 warps 2-3: consumers
    "MOV R5, RZ;",                            // 0x30 producer: spin
    "IADD R5, R5, 0x1;",                      // 0x38
    "ISETP.LT.U32.AND P1, pt, R5, 0x28, pt;", // 0x40
    "@P1 BRA 0x38;",                          // 0x48
    "ISCADD R6, R0, R0, 0x1;",                // 0x50 3 * tid
    "IADD R6, R6, 0x1;",                      // 0x58
    "STS [R7], R6;",                          // 0x60
    "BAR.ARV 0x1, 0x80;",                     // 0x68
    "EXIT;",                                  // 0x70
    "BAR.RED.POPC 0x1, 0x80;",                // 0x78 consumer
    "IADD R7, R7, -0x100;",                   // 0x80 word tid - 64
    "LDS R6, [R7];",                          // 0x88
    "ST [R2], R6;",                           // 0x90
    "EXIT;",                                  // 0x98
];

#[test]
fn consumers_wait_at_a_partial_barrier_for_arriving_producers() {
    let out = run(PRODUCER_CONSUMER, 128).unwrap_or_else(|e| panic!("{e}"));
    for t in 64..128u32 {
        assert_eq!(out[t as usize], 3 * (t - 64) + 1, "consumer {t}");
    }
    // Producers store nothing to the output.
    assert!(out[..64].iter().all(|&w| w == 0xdead));
    // The same consumers without their barrier read shared memory before the producers'
    // stores: the test can tell a barrier that does not wait.
    let mut code = PRODUCER_CONSUMER.to_vec();
    code[15] = "NOP CC.T;";
    let out = run(&code, 128).unwrap_or_else(|e| panic!("{e}"));
    assert!(out[64..].iter().all(|&w| w == 0), "{out:?}");
}

#[test]
fn a_barrier_that_cannot_complete_is_a_deadlock_fault() {
    // Warps 0–1 wait for 128 threads at barrier 2; warps 2–3 exit instead.
    let code = [
        "S2R R0, SR_Tid_X;",
        "ISETP.GE.U32.AND P0, pt, R0, 0x40, pt;",
        "@P0 EXIT;",
        "BAR.RED.POPC 0x2, 0x80;",
        "EXIT;",
    ];
    let e = run(&code, 128).unwrap_err();
    assert_eq!(e.exit_code(), 3);
    let e = e.to_string();
    assert!(
        e.contains("barrier deadlock: barrier 2 waits for 128 threads, 64 arrived"),
        "{e}"
    );
    assert!(e.contains("/*0018*/ `BAR.RED.POPC 0x2, 0x80;`"), "{e}");
    // The same code with a whole-CTA barrier (count 0) completes: exited threads do not
    // count.
    let mut code = code;
    code[3] = "BAR.RED.POPC 0x2, RZ;";
    assert!(run(&code, 128).is_ok());
}

#[test]
fn misused_barriers_fault() {
    let with = |bar: &'static str| ["S2R R0, SR_Tid_X;", bar, "EXIT;"];
    let msg = |bar| run(&with(bar), 64).unwrap_err().to_string();
    let e = msg("BAR.RED.POPC 0x1, 0x30;");
    assert!(e.contains("thread count of 48"), "{e}");
    let e = msg("BAR.RED.POPC 0x1, 0x80;");
    assert!(e.contains("thread count of 128"), "{e}");
    let e = msg("BAR.RED.POPC 0x10, RZ;");
    assert!(e.contains("barrier 16 (there are 16)"), "{e}");
    // Lanes naming different barriers.
    let e = run(&["S2R R0, SR_Tid_X;", "BAR.RED.POPC R0, RZ;", "EXIT;"], 32)
        .unwrap_err()
        .to_string();
    assert!(e.contains("BAR operands differ between lanes"), "{e}");
}

/// Each thread of a 64-thread CTA counts, with `BAR.RED.POPC` at barrier 0, the threads whose
/// predicate "lane < k" holds, k = 5 + 12 * warp (the predicate is `tid < 44 * warp + 5`).
/// With a thread count of 32 (`bar.red.popc 0, 32`) each warp alone completes one use of the
/// barrier, so it must see its own warp's count; with the whole CTA (count 0) every thread
/// sees both warps' count.
fn popc_per_warp(count: &'static str) -> Vec<u32> {
    let bar = match count {
        "RZ" => "BAR.RED.POPC R5, pt, 0x0, RZ, P0;",
        _ => "BAR.RED.POPC R5, pt, 0x0, 0x20, P0;",
    };
    let code = [
        "S2R R0, SR_Tid_X;",
        "MOV R2, c [0x0] [0x20];",
        "ISCADD R2, R0, R2, 0x2;",
        "SHR.U32 R4, R0, 0x5;", // warp
        "IMUL R4, R4, 0x2c;",
        "IADD R4, R4, 0x5;",
        "ISETP.LT.U32.AND P0, pt, R0, R4, pt;",
        bar,
        "ST [R2], R5;",
        "EXIT;",
    ];
    run(&code, 64).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn a_counted_reduction_reduces_over_its_own_use_only() {
    let k = |warp: u32| 5 + 12 * warp;
    let held = |warp: u32| (0..32u32).filter(|&lane| lane < k(warp)).count() as u32;
    let out = popc_per_warp("0x20");
    for t in 0..64u32 {
        assert_eq!(out[t as usize], held(t / 32), "thread {t}");
    }
    let out = popc_per_warp("RZ");
    assert!(out.iter().all(|&w| w == held(0) + held(1)), "{out:?}");
}

/// The PTX executor's `arrivals_alone_complete_a_use_of_a_counted_barrier`
/// (crates/exec/tests/endtoend_bar_arrive_reuse.rs) in SASS: in a 128-thread CTA warps 0–1
/// store `3 * tid + 1` and `BAR.ARV 0x1, 0x40`; warps 2–3 `BAR.RED.POPC` at barrier 1 for 64
/// threads with "tid < 80" and store the count. The producers' 64 arrivals complete the first
/// use, the consumers the second: each consumer sees the consumers' count only.
#[test]
fn arrivals_alone_complete_a_use_of_a_counted_barrier() {
    let code = [
        "S2R R0, SR_Tid_X;",                      // 0x00
        "MOV R2, c [0x0] [0x20];",                // 0x08
        "ISCADD R2, R0, R2, 0x2;",                // 0x10
        "ISETP.GE.U32.AND P0, pt, R0, 0x40, pt;", // 0x18
        "@P0 BRA 0x50;",                          // 0x20
        "ISCADD R6, R0, R0, 0x1;",                // 0x28 3 * tid
        "IADD R6, R6, 0x1;",                      // 0x30
        "ST [R2], R6;",                           // 0x38
        "BAR.ARV 0x1, 0x40;",                     // 0x40
        "EXIT;",                                  // 0x48
        "ISETP.LT.U32.AND P1, pt, R0, 0x50, pt;", // 0x50 consumer
        "BAR.RED.POPC R5, pt, 0x1, 0x40, P1;",    // 0x58
        "ST [R2], R5;",                           // 0x60
        "EXIT;",                                  // 0x68
    ];
    let out = run(&code, 128).unwrap_or_else(|e| panic!("{e}"));
    let consumers_held = (64..128u32).filter(|&t| t < 80).count() as u32;
    for t in 0..128u32 {
        let want = if t < 64 { 3 * t + 1 } else { consumers_held };
        assert_eq!(out[t as usize], want, "thread {t}");
    }
}
