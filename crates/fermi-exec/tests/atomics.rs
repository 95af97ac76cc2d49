//! `ATOM`/`RED` on global and shared memory. Expected values are worked out here from the
//! PTX ISA's `atom` pseudo-code (§9.7.13.5) in plain Rust, not from the executor's `ops` calls.

mod common;
use common::*;
use fermi::cubin::Module;
use fermi_exec::{run_module, Options};

fn module(lines: &[String], shared: u32) -> Module {
    let mut m = kernel_module(assemble(lines), &[4]);
    m.kernels[0].shared_size = shared;
    m
}

fn lines(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// One thread: the buffer holds `old` (64 bits) at word 0; `inst` runs with `R2` = the
/// buffer, `R4:R5` = `b`, `R6:R7` = `c`, and its result in `R8:R9` is stored at word 2.
/// Returns (memory after, value returned).
fn one(old: u64, b: u64, c: u64, inst: &str) -> (u64, u64) {
    let l = [
        "MOV R2, c [0x0] [0x20];".to_string(),
        format!("MOV32I R4, {:#x};", b as u32),
        format!("MOV32I R5, {:#x};", (b >> 32) as u32),
        format!("MOV32I R6, {:#x};", c as u32),
        format!("MOV32I R7, {:#x};", (c >> 32) as u32),
        "MOV32I R8, 0xdeadbeef;".to_string(),
        "MOV32I R9, 0xdeadbeef;".to_string(),
        inst.to_string(),
        "ST.64 [R2+0x8], R8;".to_string(),
        "EXIT;".to_string(),
    ];
    let buf = u32s(&[old as u32, (old >> 32) as u32, 0, 0]);
    let r = run_module(
        &module(&l, 0),
        &spec("k", 1, 1, vec![buf]),
        &Options::default(),
    )
    .unwrap_or_else(|e| panic!("{inst}: {e}"));
    let w = words(&r, 0);
    (
        u64::from(w[0]) | u64::from(w[1]) << 32,
        u64::from(w[2]) | u64::from(w[3]) << 32,
    )
}

/// 32-bit forms: the high word of memory must stay as it was, and the returned value is
/// the old low word.
fn one32(old: u32, b: u32, c: u32, inst: &str) -> (u32, u32) {
    let hi = 0x5555_0000u64 << 32;
    let (mem, ret) = one(hi | u64::from(old), u64::from(b), u64::from(c), inst);
    assert_eq!(mem >> 32, hi >> 32, "{inst}: the next word changed");
    (mem as u32, ret as u32)
}

#[test]
fn atom_u32_every_operation() {
    let (old, b, c) = (0x8000_0005u32, 0x0000_0f0fu32, 0x1234u32);
    let cases: &[(&str, u32)] = &[
        ("ADD", old.wrapping_add(b)),
        ("MIN", b), // unsigned: 0xf0f < 0x80000005
        ("MAX", old),
        ("INC", 0), // old >= b: wraps to 0
        ("DEC", b), // old > b: reloads b
        ("AND", old & b),
        ("OR", old | b),
        ("XOR", old ^ b),
        ("EXCH", b),
        ("CAS", old), // old != b: unchanged
    ];
    for (op, want) in cases {
        let text = format!("ATOM.{op} R8, [R2], R4, R6;");
        let text = if *op == "CAS" {
            text
        } else {
            format!("ATOM.{op} R8, [R2], R4;")
        };
        assert_eq!(one32(old, b, c, &text), (*want, old), "{text}");
    }
    // INC below the limit counts up; DEC above zero and within the limit counts down.
    assert_eq!(one32(3, 10, 0, "ATOM.INC R8, [R2], R4;"), (4, 3));
    assert_eq!(one32(3, 10, 0, "ATOM.DEC R8, [R2], R4;"), (2, 3));
    assert_eq!(one32(0, 10, 0, "ATOM.DEC R8, [R2], R4;"), (10, 0));
    // CAS whose compare value matches stores the third operand.
    assert_eq!(one32(77, 77, 99, "ATOM.CAS R8, [R2], R4, R6;"), (99, 77));
    // Explicit .U32 spelling.
    assert_eq!(one32(1, 2, 0, "ATOM.ADD.U32 R8, [R2], R4;"), (3, 1));
}

#[test]
fn atom_s32_min_max_are_signed() {
    let neg5 = (-5i32) as u32;
    assert_eq!(
        one32(neg5, 3, 0, "ATOM.MIN.S32 R8, [R2], R4;"),
        (neg5, neg5)
    );
    assert_eq!(one32(neg5, 3, 0, "ATOM.MAX.S32 R8, [R2], R4;"), (3, neg5));
    assert_eq!(
        one32(neg5, 3, 0, "ATOM.ADD.S32 R8, [R2], R4;"),
        ((-2i32) as u32, neg5)
    );
}

#[test]
fn atom_u64_add_exch_cas() {
    let old = 0x0000_0001_ffff_fff0u64;
    let b = 0x0000_0002_0000_0020u64;
    assert_eq!(
        one(old, b, 0, "ATOM.ADD.U64 R8, [R2], R4;"),
        (0x0000_0004_0000_0010, old)
    );
    assert_eq!(one(old, b, 0, "ATOM.EXCH.U64 R8, [R2], R4;"), (b, old));
    let c = 0xaaaa_bbbb_cccc_ddddu64;
    assert_eq!(one(old, old, c, "ATOM.CAS.U64 R8, [R2], R4, R6;"), (c, old));
    assert_eq!(one(old, b, c, "ATOM.CAS.U64 R8, [R2], R4, R6;"), (old, old));
}

#[test]
fn atom_f32_add_rounds_to_nearest_and_flushes_subnormals() {
    let f = |x: f32| x.to_bits();
    assert_eq!(
        one32(f(1.5), f(2.25), 0, "ATOM.ADD.F32.FTZ.RN R8, [R2], R4;"),
        (f(3.75), f(1.5))
    );
    // 1 + 2^-24 is a tie between 1 and 1 + 2^-23: nearest even is 1.
    assert_eq!(
        one32(
            f(1.0),
            f(2f32.powi(-24)),
            0,
            "ATOM.ADD.F32.FTZ.RN R8, [R2], R4;"
        )
        .0,
        f(1.0)
    );
    // A subnormal input counts as zero of its sign: -0 + tiny = -0 + 0 = +0.
    let tiny = f32::from_bits(1);
    assert_eq!(
        one32(f(-0.0), f(tiny), 0, "ATOM.ADD.F32.FTZ.RN R8, [R2], R4;").0,
        f(0.0)
    );
    // A subnormal result is flushed to zero of its sign: 2^-126 - 1.5 * 2^-126 (both
    // normal) = -2^-127 → -0.
    assert_eq!(
        one32(
            f(2f32.powi(-126)),
            f(-1.5 * 2f32.powi(-126)),
            0,
            "ATOM.ADD.F32.FTZ.RN R8, [R2], R4;"
        )
        .0,
        f(-0.0)
    );
}

#[test]
fn red_changes_memory_and_writes_no_register() {
    let (old, b) = (0x0f0f_00ffu32, 0x00ff_0f0fu32);
    for (op, want) in [
        ("ADD", old.wrapping_add(b)),
        ("MIN", b),
        ("MAX", old),
        ("AND", old & b),
        ("OR", old | b),
        ("XOR", old ^ b),
    ] {
        let text = format!("RED.{op} [R2], R4;");
        assert_eq!(one32(old, b, 0, &text), (want, 0xdead_beef), "{text}");
    }
    assert_eq!(one32(1, 5, 0, "RED.INC [R2], R4;"), (2, 0xdead_beef));
    assert_eq!(
        one32((-7i32) as u32, 2, 0, "RED.MIN.S32 [R2], R4;"),
        ((-7i32) as u32, 0xdead_beef)
    );
    assert_eq!(
        one(u64::from(u32::MAX), 1, 0, "RED.ADD.U64 [R2], R4;"),
        (1 << 32, 0xdead_beef_dead_beef)
    );
    let f = |x: f32| x.to_bits();
    assert_eq!(
        one32(f(0.5), f(0.25), 0, "RED.ADD.F32.FTZ.RN [R2], R4;"),
        (f(0.75), 0xdead_beef)
    );
}

/// `n` threads of `grid` CTAs each add `tid + 1` to word 0 and store the value they got
/// back at word `1 + global thread index`.
fn contended_add(grid: u32, block: u32, shared: bool) -> Vec<u32> {
    let mut l = lines(&[
        "MOV R2, c [0x0] [0x20];",
        "S2R R3, SR_Tid_X;",
        "S2R R10, SR_CTAid_X;",
        "IMAD R11, R10, c [0x0] [0x8], R3;", // global thread index
        "IADD R4, R3, 0x1;",
    ]);
    if shared {
        // Every thread adds into shared word 0 (generic address from c[0x0][0x0]); after
        // the barrier thread 0 copies the total to global word 0.
        l.extend(lines(&[
            "MOV R12, c [0x0] [0x0];",
            "ATOM.ADD R8, [R12], R4;",
            "BAR.RED.POPC RZ, RZ;",
            "ISETP.NE.AND P0, pt, R3, RZ, pt;",
            "@!P0 LDS R13, [RZ];",
            "@!P0 ST [R2], R13;",
        ]));
    } else {
        l.push("ATOM.ADD R8, [R2], R4;".into());
    }
    l.extend(lines(&[
        "ISCADD R13, R11, R2, 0x2;",
        "ST [R13+0x4], R8;",
        "EXIT;",
    ]));
    let n = (grid * block) as usize;
    let buf = u32s(&vec![0; n + 1]);
    let r = run_module(
        &module(&l, if shared { 4 } else { 0 }),
        &spec("k", grid, block, vec![buf]),
        &Options::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    words(&r, 0)
}

/// Each thread's returned value is the total before its own addition: sorted by that
/// value, the additions form one chain from 0 to the final total.
fn check_chain(got: &[u32], total: u32, incs: impl Iterator<Item = u32>) {
    let mut pairs: Vec<(u32, u32)> = got.iter().copied().zip(incs).collect();
    pairs.sort();
    let mut acc = 0u32;
    for (old, inc) in pairs {
        assert_eq!(old, acc, "a returned value is not a running total");
        acc += inc;
    }
    assert_eq!(acc, total);
}

#[test]
fn contended_global_atom_add_across_ctas() {
    let (grid, block) = (6, 96);
    let w = contended_add(grid, block, false);
    let incs = || (0..grid).flat_map(|_| 1..=block);
    let total: u32 = incs().sum();
    assert_eq!(w[0], total);
    check_chain(&w[1..], total, incs());
}

#[test]
fn contended_shared_atom_add_across_warps() {
    let (grid, block) = (1, 128);
    let w = contended_add(grid, block, true);
    let total: u32 = (1..=block).sum();
    assert_eq!(w[0], total);
    check_chain(&w[1..], total, 1..=block);
}

fn fault(text: &[&str]) -> String {
    let l = lines(text);
    let buf = u32s(&[0; 4]);
    match run_module(
        &module(&l, 0),
        &spec("k", 1, 1, vec![buf]),
        &Options::default(),
    ) {
        Ok(_) => panic!("no fault"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn atomics_fault_on_misaligned_out_of_bounds_and_local_addresses() {
    let e = fault(&[
        "MOV R2, c [0x0] [0x20];",
        "ATOM.ADD R8, [R2+0x2], R4;",
        "EXIT;",
    ]);
    assert!(e.contains("misaligned 4-byte access to global"), "{e}");
    let e = fault(&[
        "MOV R2, c [0x0] [0x20];",
        "RED.ADD [R2+0x100], R4;",
        "EXIT;",
    ]);
    assert!(e.contains("out-of-bounds 4-byte access to global"), "{e}");
    let e = fault(&[
        "MOV R2, c [0x0] [0x20];",
        "ATOM.ADD.U64 R8, [R2+0x4], R4;",
        "EXIT;",
    ]);
    assert!(e.contains("misaligned 8-byte access"), "{e}");
    let e = fault(&["MOV32I R2, 0x2000000;", "ATOM.ADD R8, [R2], R4;", "EXIT;"]);
    assert!(e.contains("local"), "{e}");
}

/// The loop sm_20 code uses for a shared atomic (there is no shared `ATOM` on sm_20):
/// `LDSLK` takes the word's lock (its predicate says whether it got it), `STSUL` stores and
/// releases it, lanes without the lock retry. 64 threads in two warps each add `tid + 1`.
#[test]
fn locked_shared_read_modify_write_loop() {
    let l = lines(&[
        "MOV R2, c [0x0] [0x20];",
        "S2R R3, SR_Tid_X;",
        "IADD R4, R3, 0x1;",
        "SSY 0x48;",
        "LDSLK P0, R5, [RZ+0x4];", // 0x20
        "@P0 IADD R5, R5, R4;",
        "@P0 STSUL [RZ+0x4], R5;",
        "@!P0 BRA 0x20;",
        "NOP.S CC.T;",
        "BAR.RED.POPC RZ, RZ;", // 0x48
        "ISETP.NE.AND P1, pt, R3, RZ, pt;",
        "@!P1 LDS R6, [RZ+0x4];",
        "@!P1 ST [R2], R6;",
        "EXIT;",
    ]);
    let r = run_module(
        &module(&l, 8),
        &spec("k", 1, 64, vec![u32s(&[0])]),
        &Options::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(words(&r, 0)[0], (1..=64).sum::<u32>());
}

/// A lock never released: the other lanes spin until the step budget ends the run.
#[test]
fn a_shared_lock_never_released_spins_into_the_step_budget() {
    let l = lines(&["LDSLK P0, R5, [RZ];", "@!P0 BRA 0x0;", "EXIT;"]);
    let opts = Options {
        max_steps: 10_000,
        ..Options::default()
    };
    let e = match run_module(&module(&l, 4), &spec("k", 1, 2, vec![u32s(&[0])]), &opts) {
        Ok(_) => panic!("no fault"),
        Err(e) => e.to_string(),
    };
    assert!(e.contains("step budget"), "{e}");
}

/// `LDLK`/`STUL`, the same protocol on a global word across CTAs running in parallel:
/// 8 CTAs of 64 threads each take the lock on word 0, read the counter, store the value they
/// saw to their slot `1 + global id`, and store the counter plus one with `STUL`. Mutual
/// exclusion means the values seen are exactly 0..512, each once, and the counter ends at 512.
#[test]
fn locked_global_read_modify_write_loop_across_ctas() {
    let l = lines(&[
        "MOV R2, c [0x0] [0x20];", // 0x00
        "S2R R3, SR_Tid_X;",       // 0x08
        "S2R R4, SR_CTAid_X;",     // 0x10
        "ISCADD R3, R4, R3, 0x6;", // 0x18 global id = ctaid * 64 + tid
        "ISCADD R6, R3, R2, 0x2;", // 0x20 its slot - 4
        "SSY 0x68;",               // 0x28
        "LDLK P0, R5, [R2];",      // 0x30
        "@P0 ST [R6+0x4], R5;",    // 0x38
        "@P0 IADD R5, R5, 0x1;",   // 0x40
        "@P0 STUL [R2], R5;",      // 0x48
        "@!P0 BRA 0x30;",          // 0x50
        "NOP.S CC.T;",             // 0x58
        "NOP CC.T;",               // 0x60
        "EXIT;",                   // 0x68
    ]);
    let n = 8 * 64;
    let mut buf = vec![0xdead; n + 1];
    buf[0] = 0;
    let r = run_module(
        &module(&l, 0),
        &spec("k", 8, 64, vec![u32s(&buf)]),
        &Options::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let got = words(&r, 0);
    assert_eq!(got[0], n as u32);
    let mut seen = got[1..].to_vec();
    seen.sort_unstable();
    assert_eq!(seen, (0..n as u32).collect::<Vec<_>>());
}

#[test]
fn global_locks_fault_off_global_memory() {
    // A shared-window address (generic 0x01000000).
    let e = fault(&["MOV32I R2, 0x1000000;", "LDLK P0, R5, [R2];", "EXIT;"]);
    assert!(
        e.contains("LDLK on the non-global address 0x1000000"),
        "{e}"
    );
    let e = fault(&["MOV R2, c [0x0] [0x20];", "STUL [R2+0x2], R5;", "EXIT;"]);
    assert!(e.contains("misaligned 4-byte access to global"), "{e}");
}
