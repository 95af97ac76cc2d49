//! Condition codes other than `CC.T`: `IADD RZ.CC, a, -b` sets the flags, then `BRA CC.xx`,
//! `EXIT CC.xx`, `BRK CC.xx` and `RET CC.xx` test them per lane. The expected outcome of each
//! test is the comparison of `a` and `b` it stands for (envytools' names: `l` less, `a`
//! unsigned above, `o` overflow, …), computed here with Rust's own comparisons and checked
//! arithmetic, not with the flag formulas.

mod common;
use common::*;
use fermi::cubin::Module;
use fermi_exec::{run_module, Options};

/// A 32-bit kernel `k` with buffer parameters `out` (one word per thread) and `in` (two
/// words per thread), instruction `i` at address `8 * i`.
fn module(lines: &[String]) -> Module {
    kernel_module(assemble(lines), &[4, 4])
}

/// Operand values whose differences hit every flag: zero, sign, carry, signed overflow.
const VALS: [u32; 8] = [
    0,
    1,
    2,
    0x7fff_ffff,
    0x8000_0000,
    0x8000_0001,
    0xffff_fffe,
    u32::MAX,
];

/// Every pair `(a, b)` of `VALS`, one per thread.
fn pairs() -> Vec<(u32, u32)> {
    VALS.iter()
        .flat_map(|&a| VALS.iter().map(move |&b| (a, b)))
        .collect()
}

/// Runs `body` after a prologue that loads `a` into R4, `b` into R5, the output address into
/// R2 and zero into R6; returns each thread's output word.
fn run(body: &[String]) -> Vec<u32> {
    let mut code: Vec<String> = [
        "S2R R0, SR_Tid_X;",
        "MOV R2, c [0x0] [0x20];",
        "ISCADD R2, R0, R2, 0x2;",
        "MOV R3, c [0x0] [0x24];",
        "ISCADD R3, R0, R3, 0x3;",
        "LD R4, [R3];",
        "LD R5, [R3+0x4];",
        "MOV R6, RZ;",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    code.extend_from_slice(body);
    let p = pairs();
    let input: Vec<u32> = p.iter().flat_map(|&(a, b)| [a, b]).collect();
    let n = p.len();
    let s = spec("k", 1, n as u32, vec![u32s(&vec![0xdead; n]), u32s(&input)]);
    let r = run_module(&module(&code), &s, &Options::default()).unwrap_or_else(|e| panic!("{e}"));
    words(&r, 0)
}

/// The comparison each condition stands for after `a + -b`, by its cuobjdump name.
fn expect(cond: &str, a: u32, b: u32) -> bool {
    let (sa, sb) = (a as i32, b as i32);
    let d = a.wrapping_sub(b);
    let overflow = sa.checked_sub(sb).is_none();
    match cond {
        "CC.F" => false,
        "CC.LT" => sa < sb,
        "CC.EQ" => a == b,
        "CC.LE" => sa <= sb,
        "CC.GT" => sa > sb,
        "CC.NE" => a != b,
        "CC.GE" => sa >= sb,
        // Integer results are never "unordered": NUM always, NAN never; the U forms are the
        // ordered ones.
        "CC.NUM" => true,
        "CC.NAN" => false,
        "CC.LTU" => sa < sb,
        "CC.EQU" => a == b,
        "CC.LEU" => sa <= sb,
        "CC.GTU" => sa > sb,
        "CC.NEU" => a != b,
        "CC.GEU" => sa >= sb,
        "CC.T" => true,
        "CC.OFF" => !overflow,
        "CC.LO" => a < b,
        "CC.SFF" => d >> 31 == 0,
        "CC.LS" => a <= b,
        "CC.HI" => a > b,
        "CC.SFT" => d >> 31 == 1,
        "CC.HS" => a >= b,
        "CC.OFT" => overflow,
        other => panic!("{other}"),
    }
}

const CONDS: [&str; 24] = [
    "CC.F", "CC.LT", "CC.EQ", "CC.LE", "CC.GT", "CC.NE", "CC.GE", "CC.NUM", "CC.NAN", "CC.LTU",
    "CC.EQU", "CC.LEU", "CC.GTU", "CC.NEU", "CC.GEU", "CC.T", "CC.OFF", "CC.LO", "CC.SFF", "CC.LS",
    "CC.HI", "CC.SFT", "CC.HS", "CC.OFT",
];

#[test]
fn bra_on_every_condition_after_a_subtraction() {
    // Per condition k, four instructions from `base`: SSY over the block, the divergent
    // conditional branch, the not-taken lanes' NOP.S, the taken lanes' OR of bit k.
    let mut body = vec!["IADD RZ.CC, R4, -R5;".to_string()];
    for (k, cond) in CONDS.iter().enumerate() {
        let base = 8 * (9 + 4 * k as u64);
        body.push(format!("SSY {:#x};", base + 32));
        body.push(format!("BRA {cond}, {:#x};", base + 24));
        body.push("NOP.S CC.T;".to_string());
        body.push(format!("LOP32I.OR.S R6, R6, {:#x};", 1u32 << k));
    }
    body.push("ST [R2], R6;".into());
    body.push("EXIT;".into());
    let out = run(&body);
    for (t, &(a, b)) in pairs().iter().enumerate() {
        for (k, cond) in CONDS.iter().enumerate() {
            assert_eq!(
                out[t] >> k & 1 == 1,
                expect(cond, a, b),
                "{cond} after {a:#x} - {b:#x}"
            );
        }
    }
}

#[test]
fn exit_on_a_condition_leaves_only_those_lanes() {
    // Lanes with a < b (signed) exit before storing; the others store 1.
    let body: Vec<String> = [
        "IADD RZ.CC, R4, -R5;",
        "EXIT CC.LT;",
        "MOV32I R6, 0x1;",
        "ST [R2], R6;",
        "EXIT;",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let out = run(&body);
    for (t, &(a, b)) in pairs().iter().enumerate() {
        let want = if (a as i32) < (b as i32) { 0xdead } else { 1 };
        assert_eq!(out[t], want, "{a:#x} - {b:#x}");
    }
}

#[test]
fn brk_and_ret_on_conditions() {
    // A loop counting R6 up to 3 whose BRK fires early where a > b unsigned (CC.HI, set once
    // before the loop; LOP does not write the flags), inside a call whose RET CC.EQ returns
    // before the loop where a == b.
    let body: Vec<String> = [
        "IADD RZ.CC, R4, -R5;", // 0x40
        "CAL 0x60;",            // 0x48
        "ST [R2], R6;",         // 0x50
        "EXIT;",                // 0x58
        "RET CC.EQ;",           // 0x60
        "PBK 0x90;",            // 0x68
        "IADD32I R6, R6, 0x1;", // 0x70
        "BRK CC.HI;",           // 0x78
        "ISETP.LT.U32.AND P0, pt, R6, 0x3, pt;",
        "@P0 BRA 0x70;", // 0x88
        "RET;",          // 0x90
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    // 0x88's successor: the BRK target 0x90 is the RET.
    let out = run(&body);
    for (t, &(a, b)) in pairs().iter().enumerate() {
        let want = if a == b {
            0
        } else if a > b {
            1
        } else {
            3
        };
        assert_eq!(out[t], want, "{a:#x} - {b:#x}");
    }
}

/// The flags word (Z, S, C, O as bits 0–3) a writer's operands give.
type FlagsOf = fn(u32, u32) -> u32;

/// Z, S, C, O of a result `d` with carry `c` and overflow `o`, as bits 0–3.
fn flags(d: u32, c: bool, o: bool) -> u32 {
    u32::from(d == 0) | (d >> 31) << 1 | u32::from(c) << 2 | u32::from(o) << 3
}

/// The flags other writers set, read back with `P2R … 0xf000` (Z, S, C, O at bits 12–15):
/// logic and min/max clear carry and overflow; shifts carry the last bit shifted out and
/// overflow when a shift by one changes the sign (envytools' Tesla pseudo-code, which its
/// Fermi page says the `$c` register follows).
#[test]
fn flags_of_logic_min_max_and_shift_writers() {
    let cases: [(&str, FlagsOf); 5] = [
        ("LOP.AND RZ.CC, R4, R5;", |a, b| flags(a & b, false, false)),
        ("LOP.XOR RZ.CC, R4, R5;", |a, b| flags(a ^ b, false, false)),
        ("IMNMX.U32 RZ.CC, R4, R5, pt;", |a, b| {
            flags(a.min(b), false, false)
        }),
        ("SHL RZ.CC, R4, 0x1;", |a, _| {
            let d = a << 1;
            flags(d, a >> 31 == 1, (a ^ d) >> 31 == 1)
        }),
        ("SHR.U32 RZ.CC, R4, 0x4;", |a, _| {
            flags(a >> 4, a >> 3 & 1 == 1, false)
        }),
    ];
    for (inst, want) in cases {
        let body: Vec<String> = [
            "IADD RZ.CC, RZ, 0x1;", // flags to a known state (all clear)
            inst,
            "P2R R6, PR, RZ, 0xf000;",
            "SHR.U32 R6, R6, 0xc;",
            "ST [R2], R6;",
            "EXIT;",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let out = run(&body);
        for (t, &(a, b)) in pairs().iter().enumerate() {
            assert_eq!(out[t], want(a, b), "{inst} {a:#x}, {b:#x}");
        }
    }
}
