//! The forms the cuobjdump listings lack, checked against Mesa's Fermi emitter.
//!
//! Each `emit_*` function below is a line-by-line transcription of the function of the same
//! name in Mesa 22.3.6 (Debian source package), `src/nouveau/codegen/nv50_ir_emit_nvc0.cpp`,
//! reduced to the operands the instruction has: it builds Mesa's `code[0]`/`code[1]` and the
//! expected word is `code[0] << 32 | code[1]` (the order cuobjdump prints). The table is not
//! consulted. Where a listing word exists for the same form, the transcription reproduces it
//! first: that is the evidence that the two sources agree.

use fermi::isa::{assemble_text, decode, disassemble_word, Source, ROWS};

mod mesa;

use mesa::{check, emit_predicate, no_labels, refused, word};

// ---- ATOM / RED ----

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Ty {
    U32,
    S32,
    U64,
    F32,
}

// NV50_IR_SUBOP_ATOM_* (nv50_ir.h).
const ADD: u32 = 0;
const MIN: u32 = 1;
const MAX: u32 = 2;
const INC: u32 = 3;
const DEC: u32 = 4;
const AND: u32 = 5;
const OR: u32 = 6;
const XOR: u32 = 7;
const CAS: u32 = 8;
const EXCH: u32 = 9;

/// `emitATOM`. `dst` is the result register (None: RED), `src1` the data register, `addr`
/// the address register and whether it is 64-bit (None: no register, RZ).
fn emit_atom(
    ty: Ty,
    sub_op: u32,
    dst: Option<u32>,
    src1: u32,
    offset: i32,
    addr: Option<(u32, bool)>,
) -> u64 {
    let has_dst = dst.is_some();
    let cas_or_exch = sub_op == EXCH || sub_op == CAS;
    let (mut c0, mut c1): (u32, u32) = match ty {
        Ty::U64 => match sub_op {
            ADD => (0x205, if has_dst { 0x507e0000 } else { 0x10000000 }),
            EXCH => (0x305, 0x507e0000),
            CAS => (0x325, 0x50000000),
            _ => panic!("invalid u64 red op"),
        },
        Ty::U32 => match sub_op {
            EXCH => (0x105, 0x507e0000),
            CAS => (0x125, 0x50000000),
            _ => (
                0x5 | (sub_op << 5),
                if has_dst { 0x507e0000 } else { 0x10000000 },
            ),
        },
        Ty::S32 => {
            assert!(sub_op <= 2);
            (
                0x205 | (sub_op << 5),
                if has_dst { 0x587e0000 } else { 0x18000000 },
            )
        }
        Ty::F32 => {
            assert_eq!(sub_op, ADD);
            (0x205, if has_dst { 0x687e0000 } else { 0x28000000 })
        }
    };
    c0 |= emit_predicate(None);
    c0 |= src1 << 14;
    if let Some(d) = dst {
        c1 |= d << 11;
    } else if cas_or_exch {
        c1 |= 63 << 11;
    }
    let off = offset as u32;
    if has_dst || cas_or_exch {
        c0 |= off << 26;
        c1 |= (off & 0x1ffc0) >> 6;
        c1 |= (off & 0xe0000) << 6;
    } else {
        // srcAddr32(src(0), 26, 0)
        c0 |= off << 26;
        c1 |= off >> 6;
    }
    match addr {
        Some((r, wide)) => {
            c0 |= r << 20;
            if wide {
                c1 |= 1 << 26;
            }
        }
        None => c0 |= 63 << 20,
    }
    if sub_op == CAS {
        c1 |= (src1 + 1) << 17;
    }
    word(c0, c1)
}

/// The text spelling of an operation (NVIDIA's names; Mesa's subop constants).
fn op_name(sub_op: u32) -> &'static str {
    [
        ".ADD", ".MIN", ".MAX", ".INC", ".DEC", ".AND", ".OR", ".XOR", ".CAS", ".EXCH",
    ][sub_op as usize]
}

fn ty_name(ty: Ty) -> &'static str {
    match ty {
        Ty::U32 => "",
        Ty::S32 => ".S32",
        Ty::U64 => ".U64",
        Ty::F32 => ".F32.FTZ.RN",
    }
}

/// The operations each type takes (Mesa `emitATOM`'s switch).
fn ops_of(ty: Ty, with_result: bool) -> Vec<u32> {
    match (ty, with_result) {
        (Ty::U32, true) => vec![ADD, MIN, MAX, INC, DEC, AND, OR, XOR, CAS, EXCH],
        (Ty::U32, false) => vec![ADD, MIN, MAX, INC, DEC, AND, OR, XOR],
        (Ty::S32, _) => vec![ADD, MIN, MAX],
        (Ty::U64, true) => vec![ADD, EXCH, CAS],
        (Ty::U64, false) | (Ty::F32, _) => vec![ADD],
    }
}

#[test]
fn red_listing_word_is_mesas_red() {
    // `@!P1 RED.ADD [R0], R3;` from the listings; Mesa with the guard @!P1.
    let guardless = emit_atom(Ty::U32, ADD, None, 3, 0, Some((0, false)));
    let guard = u64::from(emit_predicate(Some((1, true))) ^ emit_predicate(None)) << 32;
    assert_eq!(guardless ^ guard, 0x0000e40510000000);
    check("@!P1 RED.ADD [R0], R3", 0x0000e40510000000);
}

#[test]
fn atom_every_type_and_operation() {
    let mut n = 0;
    for ty in [Ty::U32, Ty::S32, Ty::U64, Ty::F32] {
        for op in ops_of(ty, true) {
            for (offset, addr, e) in [
                (0x10, Some((2, true)), ".E"),
                (-0x80000, Some((4, false)), ""),
                (0x7fffc, Some((6, true)), ".E"),
                (0x1234, None, ""),
            ] {
                let address = match addr {
                    Some((r, _)) if offset < 0 => format!("[R{r}+-{:#x}]", -offset),
                    Some((r, _)) => format!("[R{r}+{offset:#x}]"),
                    None => format!("[{offset:#x}]"),
                };
                let second = if op == CAS { ", R9" } else { "" };
                let text = format!(
                    "ATOM{e}{}{} R5, {address}, R8{second}",
                    op_name(op),
                    ty_name(ty)
                );
                check(&text, emit_atom(ty, op, Some(5), 8, offset, addr));
                n += 1;
            }
        }
    }
    assert_eq!(n, 4 * (10 + 3 + 3 + 1));
}

#[test]
fn exch_and_cas_without_a_result_are_atom_with_rz() {
    check(
        "ATOM.E.EXCH RZ, [R2+0x8], R3",
        emit_atom(Ty::U32, EXCH, None, 3, 8, Some((2, true))),
    );
    check(
        "ATOM.CAS.U64 RZ, [R2], R4, R5",
        emit_atom(Ty::U64, CAS, None, 4, 0, Some((2, false))),
    );
}

#[test]
fn red_every_type_and_operation() {
    let mut n = 0;
    for ty in [Ty::U32, Ty::S32, Ty::U64, Ty::F32] {
        for op in ops_of(ty, false) {
            // RED's offset is 32 bits wide (srcAddr32).
            for (offset, addr, e) in [
                (0x10, Some((2, true)), ".E"),
                (-0x1000_0000, Some((4, false)), ""),
                (0x7fff_fffc, None, ""),
            ] {
                let address = match addr {
                    Some((r, _)) if offset < 0 => format!("[R{r}+-{:#x}]", -offset),
                    Some((r, _)) => format!("[R{r}+{offset:#x}]"),
                    None => format!("[{offset:#x}]"),
                };
                let text = format!("RED{e}{}{} {address}, R7", op_name(op), ty_name(ty));
                check(&text, emit_atom(ty, op, None, 7, offset, addr));
                n += 1;
            }
        }
    }
    assert_eq!(n, 3 * (8 + 3 + 1 + 1));
}

#[test]
fn atom_spellings_accepted_and_combinations_refused() {
    // `.U32` may be written; it prints as the default.
    let w = assemble_text("ATOM.E.ADD.U32 R5, [R2], R8", 0, &no_labels).unwrap();
    assert_eq!(w, emit_atom(Ty::U32, ADD, Some(5), 8, 0, Some((2, true))));
    assert_eq!(disassemble_word(w, 0), "ATOM.E.ADD R5, [R2], R8;");
    refused("ATOM.E.AND.S32 R0, [R2], R3", "no form of ATOM");
    refused("ATOM.E.INC.U64 R0, [R2], R3", "no form of ATOM");
    refused("ATOM.E.MIN.F32.FTZ.RN R0, [R2], R3", "no form of ATOM");
    refused("ATOM.E.ADD.F32 R0, [R2], R3", "no form of ATOM");
    refused("RED.E.EXCH [R2], R3", "no form of RED");
    refused("RED.E.CAS [R2], R3", "no form of RED");
    refused("RED.MAX.U64 [R2], R3", "no form of RED");
    refused("ATOM.ADD R0, [R2+0x80000], R3", "does not fit 20 bits");
    refused("ATOM.ADD R0, [R2], R3, R4, R5", "takes 4 operand(s) (or 3)");
    refused("ATOM.ADD [R2], R3, R4", "expected a register");
}

#[test]
fn atom_words_mesa_never_emits_do_not_decode() {
    // S32 with AND, F32 with MIN, U64 with INC: a type row whose operation has no spelling.
    let s32 = emit_atom(Ty::S32, ADD, Some(1), 2, 0, Some((3, false)));
    let and = 5u64 << 37; // operation field bits 5-8 of code[0]
    assert!(decode(s32 | and).is_err());
    let f32 = emit_atom(Ty::F32, ADD, Some(1), 2, 0, Some((3, false)));
    assert!(decode(f32 | (1u64 << 37)).is_err());
    let u64_ = emit_atom(Ty::U64, ADD, Some(1), 2, 0, Some((3, false)));
    assert!(decode(u64_ | (3u64 << 37)).is_err());
    assert!(disassemble_word(s32 | and, 0).starts_with("INVALID"));
}

// ---- LD / ST with 64-bit addresses ----

/// `emitLoadStoreType`.
fn emit_load_store_type(ty: &str) -> u32 {
    match ty {
        "U8" => 0x00,
        "S8" => 0x20,
        "U16" => 0x40,
        "S16" => 0x60,
        "32" => 0x80,
        "64" => 0xa0,
        "128" => 0xc0,
        _ => panic!("invalid type"),
    }
}

/// `emitCachingMode`.
fn emit_caching_mode(c: &str) -> u32 {
    match c {
        "CA" | "WB" => 0x000,
        "CG" => 0x100,
        "CS" => 0x200,
        "CV" | "WT" => 0x300,
        _ => panic!("invalid caching mode"),
    }
}

/// `emitLOAD` / `emitSTORE` for global memory: `reg` is the destination or the stored value.
fn emit_global(
    store: bool,
    ty: &str,
    cache: &str,
    reg: u32,
    base: u32,
    offset: i32,
    wide: bool,
) -> u64 {
    let mut c0: u32 = 0x5;
    let mut c1: u32 = if store { 0x90000000 } else { 0x80000000 };
    let off = offset as u32;
    c0 |= off << 26;
    c1 |= off >> 6;
    c0 |= reg << 14;
    c0 |= base << 20;
    if wide {
        c1 |= 1 << 26;
    }
    c0 |= emit_predicate(None);
    c0 |= emit_load_store_type(ty);
    c0 |= emit_caching_mode(cache);
    word(c0, c1)
}

#[test]
fn ld_st_listing_words_are_mesas() {
    assert_eq!(
        emit_global(false, "32", "CA", 3, 15, -0x400, false),
        0x00f0dc8583fffff0
    );
    check("LD R3, [R15+-0x400]", 0x00f0dc8583fffff0);
}

#[test]
fn ld_st_e_with_every_type_and_cache_operation() {
    let types = [
        ("U8", ".U8"),
        ("S8", ".S8"),
        ("U16", ".U16"),
        ("S16", ".S16"),
        ("32", ""),
        ("64", ".64"),
        ("128", ".128"),
    ];
    for (ty, ty_text) in types {
        for (cache, ld_text, st_text) in [
            ("CA", "", ""),
            ("CG", ".CG", ".CG"),
            ("CS", ".CS", ".CS"),
            ("CV", ".CV", ".WT"),
        ] {
            for e in [false, true] {
                let dot_e = if e { ".E" } else { "" };
                check(
                    &format!("LD{dot_e}{ld_text}{ty_text} R4, [R6+0x20]"),
                    emit_global(false, ty, cache, 4, 6, 0x20, e),
                );
                check(
                    &format!("ST{dot_e}{st_text}{ty_text} [R6+-0x20], R4"),
                    emit_global(true, ty, cache, 4, 6, -0x20, e),
                );
            }
        }
    }
    // The store spellings of the cache operations, and the load ones, both assemble.
    let wt = emit_global(true, "32", "WT", 1, 2, 0, true);
    assert_eq!(assemble_text("ST.E.CV [R2], R1", 0, &no_labels), Ok(wt));
    assert_eq!(
        assemble_text("ST.E.WB [R2], R1", 0, &no_labels),
        Ok(emit_global(true, "32", "WB", 1, 2, 0, true))
    );
    refused("LD.CG.E R1, [R2]", "misplaced modifier `.E`");
    refused("LD.WT R1, [R2]", "`.WT`");
}

// ---- LDSLK / STSUL ----

/// `emitLOAD` for shared memory with `NV50_IR_SUBOP_LOAD_LOCKED` on Fermi (before GK104):
/// `r` the loaded register (None: predicate only), `p` the lock predicate.
fn emit_ldslk(ty: &str, r: Option<u32>, p: u32, base: u32, offset: u32) -> u64 {
    let mut c0: u32 = 0x5;
    let mut c1: u32 = 0xc4000000;
    match r {
        Some(r) => c0 |= r << 14,
        None => c0 |= 63 << 14,
    }
    c1 |= p << 18; // defId(def(p), 32 + 18)
                   // setAddress24
    c0 |= (offset & 0x00003f) << 26;
    c1 |= (offset & 0xffffc0) >> 6;
    c0 |= base << 20;
    c0 |= emit_predicate(None);
    c0 |= emit_load_store_type(ty);
    c0 |= emit_caching_mode("CA");
    word(c0, c1)
}

/// `emitSTORE` for shared memory with `NV50_IR_SUBOP_STORE_UNLOCKED` on Fermi.
fn emit_stsul(ty: &str, src: u32, base: u32, offset: u32) -> u64 {
    let mut c0: u32 = 0x5;
    let mut c1: u32 = 0xcc000000;
    c0 |= (offset & 0x00003f) << 26;
    c1 |= (offset & 0xffffc0) >> 6;
    c0 |= src << 14;
    c0 |= base << 20;
    c0 |= emit_predicate(None);
    c0 |= emit_load_store_type(ty);
    c0 |= emit_caching_mode("CA");
    word(c0, c1)
}

/// The plain shared load/store of the listings, as Mesa emits them (opcode 0xc1 / 0xc9).
#[test]
fn lds_sts_listing_words_are_mesas() {
    // `LDS.64 R2, [R16];`
    let lds = emit_ldslk("64", Some(2), 0, 16, 0) ^ word(0, 0xc4000000 ^ 0xc1000000);
    assert_eq!(lds, 0x01009ca5c1000000);
    // `@P0 STS [0x4200], R4;`
    let sts = emit_stsul("32", 4, 63, 0x4200) ^ word(0, 0xcc000000 ^ 0xc9000000);
    let guard = u64::from(emit_predicate(Some((0, false))) ^ emit_predicate(None)) << 32;
    assert_eq!(sts ^ guard, 0x03f10085c9000108);
}

#[test]
fn ldslk_and_stsul() {
    check(
        "LDSLK P1, R2, [R3+0x10]",
        emit_ldslk("32", Some(2), 1, 3, 0x10),
    );
    check(
        "LDSLK.64 P6, R4, [R5+0x7ffff8]",
        emit_ldslk("64", Some(4), 6, 5, 0x7ffff8),
    );
    check(
        "LDSLK.U8 pt, RZ, [0x100]",
        emit_ldslk("U8", None, 7, 63, 0x100),
    );
    check("STSUL [R3+0x10], R2", emit_stsul("32", 2, 3, 0x10));
    check(
        "STSUL.S16 [R3+0x3bcde0], R2",
        emit_stsul("S16", 2, 3, 0x3bcde0),
    );
    check("STSUL.128 [R8], R4", emit_stsul("128", 4, 8, 0));
    refused("LDSLK R2, P1, [R3]", "expected a predicate");
    refused("LDSLK.E P1, R2, [R3]", "`.E`");
    refused("STSUL [R3+0x1000000], R2", "does not fit 24 bits");
}

// ---- CCTL / CCTLL ----

/// `emitCCTL`: `global` selects CCTL (word offset at 28) over CCTLL (setAddress24).
fn emit_cctl(
    global: bool,
    sub_op: u32,
    rd: Option<u32>,
    base: u32,
    offset: i32,
    wide: bool,
) -> u64 {
    let mut c0: u32 = 0x5 | (sub_op << 5);
    let mut c1: u32;
    let off = offset as u32;
    if global {
        c1 = 0x98000000;
        // srcAddr32(src(0), 28, 2)
        let words = off >> 2;
        c0 |= words << 28;
        c1 |= words >> 4;
    } else {
        c1 = 0xd0000000;
        c0 |= (off & 0x00003f) << 26;
        c1 |= (off & 0xffffc0) >> 6;
    }
    if wide {
        c1 |= 1 << 26;
    }
    c0 |= base << 20;
    c0 |= emit_predicate(None);
    c0 |= rd.unwrap_or(63) << 14;
    word(c0, c1)
}

// NV50_IR_SUBOP_CCTL_IV / _IVALL.
const IV: u32 = 5;
const IVALL: u32 = 6;

#[test]
fn cctl_and_cctll() {
    check(
        "CCTL.E.IV [R2+0x10]",
        emit_cctl(true, IV, None, 2, 0x10, true),
    );
    check(
        "CCTL.IVALL [R2+-0x8]",
        emit_cctl(true, IVALL, None, 2, -8, false),
    );
    check(
        "CCTL.E.IV R7, [R2+0x1ffffffc]",
        emit_cctl(true, IV, Some(7), 2, 0x1fff_fffc, true),
    );
    check(
        "CCTL.IV [-0x20000000]",
        emit_cctl(true, IV, None, 63, -0x2000_0000, false),
    );
    check(
        "CCTLL.IV [R1+0x20]",
        emit_cctl(false, IV, None, 1, 0x20, false),
    );
    check(
        "CCTLL.IVALL R3, [R1+-0x10]",
        emit_cctl(false, IVALL, Some(3), 1, -0x10, false),
    );
    refused("CCTL.E.IV [R2+0x6]", "multiple of 4");
    refused("CCTL.E.IV [R2+0x100000000]", "does not fit");
    refused("CCTL.E [R2]", "needs a cache operation");
    refused("CCTL.E.WB [R2]", "`.WB`");
    refused("CCTLL.E.IV [R2]", "`.E`");
    // Operations Mesa does not define do not decode.
    assert!(decode(emit_cctl(true, IV, None, 2, 0, false) ^ (u64::from(IV ^ 1) << 37)).is_err());
}

// ---- BAR ----

#[derive(Clone, Copy)]
enum BarSrc {
    Reg(u32),
    Imm(u32),
}

// NV50_IR_SUBOP_BAR_*.
#[derive(Clone, Copy)]
enum BarOp {
    Sync,
    Arrive,
    RedAnd,
    RedOr,
    RedPopc,
}

/// `emitBAR`: `pc` the predicate source (with its `!`), `rd`/`pd` the results.
fn emit_bar(
    op: BarOp,
    id: BarSrc,
    count: BarSrc,
    pc: Option<(u32, bool)>,
    rd: Option<u32>,
    pd: Option<u32>,
) -> u64 {
    let mut c0: u32 = match op {
        BarOp::Arrive => 0x84,
        BarOp::RedAnd => 0x24,
        BarOp::RedOr => 0x44,
        BarOp::RedPopc | BarOp::Sync => 0x04,
    };
    let mut c1: u32 = 0x50000000;
    c0 |= 63 << 14;
    c1 |= 7 << 21;
    c0 |= emit_predicate(None);
    match id {
        BarSrc::Reg(r) => c0 |= r << 20,
        BarSrc::Imm(i) => {
            c0 |= i << 20;
            c1 |= 0x8000;
        }
    }
    match count {
        BarSrc::Reg(r) => c0 |= r << 26,
        BarSrc::Imm(i) => {
            assert!(i <= 0xfff);
            c0 |= i << 26;
            c1 |= i >> 6;
            c1 |= 0x4000;
        }
    }
    match pc {
        Some((p, not)) => {
            c1 |= p << 17;
            if not {
                c1 |= 1 << 20;
            }
        }
        None => c1 |= 7 << 17,
    }
    if let Some(r) = rd {
        c0 &= !(63 << 14);
        c0 |= r << 14;
    }
    if let Some(p) = pd {
        c1 &= !(7 << 21);
        c1 |= p << 21;
    }
    word(c0, c1)
}

#[test]
fn bar_listing_word_is_mesas_sync() {
    use BarSrc::Reg;
    // `BAR.RED.POPC RZ, RZ;` (the listings' __syncthreads) is Mesa's bar.sync and its
    // .red.popc without results.
    let sync = emit_bar(BarOp::Sync, Reg(63), Reg(63), None, None, None);
    assert_eq!(sync, 0xffffdc0450ee0000);
    assert_eq!(
        emit_bar(BarOp::RedPopc, Reg(63), Reg(63), None, None, None),
        sync
    );
    check("BAR.RED.POPC RZ, RZ", sync);
    assert_eq!(assemble_text("BAR.SYNC RZ, RZ", 0, &no_labels), Ok(sync));
}

#[test]
fn bar_operations_operand_forms_and_results() {
    use BarSrc::{Imm, Reg};
    check(
        "BAR.RED.POPC 0x0, 0x0",
        emit_bar(BarOp::Sync, Imm(0), Imm(0), None, None, None),
    );
    check(
        "BAR.ARV 0x1, 0x40",
        emit_bar(BarOp::Arrive, Imm(1), Imm(0x40), None, None, None),
    );
    check(
        "BAR.ARV R2, 0xfff",
        emit_bar(BarOp::Arrive, Reg(2), Imm(0xfff), None, None, None),
    );
    check(
        "BAR.ARV 0xf, R3",
        emit_bar(BarOp::Arrive, Imm(15), Reg(3), None, None, None),
    );
    check(
        "BAR.RED.AND RZ, P1, 0x0, R3, !P2",
        emit_bar(
            BarOp::RedAnd,
            Imm(0),
            Reg(3),
            Some((2, true)),
            None,
            Some(1),
        ),
    );
    check(
        "BAR.RED.OR RZ, P0, R4, 0x80, P3",
        emit_bar(
            BarOp::RedOr,
            Reg(4),
            Imm(0x80),
            Some((3, false)),
            None,
            Some(0),
        ),
    );
    check(
        "BAR.RED.POPC R5, pt, 0x2, 0x100, P0",
        emit_bar(
            BarOp::RedPopc,
            Imm(2),
            Imm(0x100),
            Some((0, false)),
            Some(5),
            None,
        ),
    );
    check(
        "BAR.RED.POPC R5, pt, RZ, RZ, pt",
        emit_bar(BarOp::RedPopc, Reg(63), Reg(63), None, Some(5), None),
    );
    // A negated pt is not the default: all five operands print.
    check(
        "BAR.RED.POPC RZ, pt, RZ, RZ, !pt",
        emit_bar(
            BarOp::RedPopc,
            Reg(63),
            Reg(63),
            Some((7, true)),
            None,
            None,
        ),
    );
    refused("BAR.RED.POPC 0x0, 0x1000", "does not fit 12 bits");
    refused("BAR.ARV 0x40, 0x0", "does not fit 6 bits");
    refused("BAR.RED R1, R2", "barrier operation");
    refused("BAR.ARV.RED.POPC R1, R2", "misplaced modifier");
    refused("BAR.RED.POPC R0, R1, R2", "takes 5 operand(s) (or 2)");
}

// ---- branches and other flow with condition codes ----

/// `emitCondCode(cc, 5)` values (Mesa's `CC_*` → hardware), and cuobjdump's names.
const CONDITIONS: &[(u32, &str)] = &[
    (0x1, "CC.LT"),
    (0x9, "CC.LTU"),
    (0x2, "CC.EQ"),
    (0xa, "CC.EQU"),
    (0x3, "CC.LE"),
    (0xb, "CC.LEU"),
    (0x4, "CC.GT"),
    (0xc, "CC.GTU"),
    (0x5, "CC.NE"),
    (0xd, "CC.NEU"),
    (0x6, "CC.GE"),
    (0xe, "CC.GEU"),
    (0xf, "CC.T"),
    (0x0, "CC.F"),
    (0x14, "CC.HI"),  // CC_A
    (0x13, "CC.LS"),  // CC_NA
    (0x15, "CC.SFT"), // CC_S
    (0x12, "CC.SFF"), // CC_NS
    (0x16, "CC.HS"),  // CC_C
    (0x11, "CC.LO"),  // CC_NC
    (0x17, "CC.OFT"), // CC_O
    (0x10, "CC.OFF"), // CC_NO
];

/// `emitFlow` for a relative BRA (`op` 0x40000000), EXIT (0x80000000), RET (0x90000000),
/// BREAK (0xa8000000) or CONT (0xb0000000): without a flags source the condition field holds
/// 0x1e0 (`CC_TR` at bit 5); with one, the condition at bit 5 as `emitTEXBAR` places it.
fn emit_flow(op: u32, cc: Option<u32>, guard: Option<(u32, bool)>, uniform: bool, rel: i32) -> u64 {
    let mut c0: u32 = 0x7;
    let mut c1: u32 = op;
    c0 |= emit_predicate(guard);
    match cc {
        None => c0 |= 0x1e0,
        Some(v) => c0 |= v << 5,
    }
    if uniform {
        c0 |= 1 << 15;
    }
    if op == 0x40000000 {
        c0 |= ((rel & 0x3f) as u32) << 26;
        c1 |= ((rel >> 6) as u32) & 0x3ffff;
    }
    word(c0, c1)
}

#[test]
fn branch_listing_words_are_mesas() {
    // `@P1 BRA 0x230;` at 0x490 and `BRA.U` forms of the listings.
    assert_eq!(
        emit_flow(0x40000000, None, Some((1, false)), false, 0x230 - 0x498),
        0x600005e74003fff6
    );
    assert_eq!(
        emit_flow(0x40000000, None, Some((0, false)), true, 0x100 - 0xd0),
        0xc00081e740000000
    );
    assert_eq!(
        emit_flow(0x80000000, None, None, false, 0),
        0x00001de780000000
    );
}

#[test]
fn flow_with_every_condition_code() {
    for &(v, name) in CONDITIONS {
        // The target prints as an address: the next instruction (8) plus the offset.
        let (bra, bra_u) = if v == 0xf {
            ("@!P2 BRA 0x48".to_string(), "BRA.U 0x1008".to_string())
        } else {
            (
                format!("@!P2 BRA {name}, 0x48"),
                format!("BRA.U {name}, 0x1008"),
            )
        };
        check(
            &bra,
            emit_flow(0x40000000, Some(v), Some((2, true)), false, 0x40),
        );
        check(&bra_u, emit_flow(0x40000000, Some(v), None, true, 0x1000));
        for (op, mnemonic) in [
            (0x80000000u32, "EXIT"),
            (0x90000000, "RET"),
            (0xa8000000, "BRK"),
            (0xb0000000, "CONT"),
        ] {
            let w = emit_flow(op, Some(v), None, false, 0);
            let want = if v == 0xf {
                mnemonic.to_string()
            } else {
                format!("{mnemonic} {name}")
            };
            check(&want, w);
        }
    }
    // CC.T may be written; it prints as nothing.
    assert_eq!(
        assemble_text("BRA CC.T, 0x48", 0, &no_labels),
        Ok(emit_flow(0x40000000, None, None, false, 0x40))
    );
    refused("BRA CC.XX, 0x48", "expected one of CC.F");
    refused("BRA 0x48, CC.LT", "does not fit 5 bits");
    refused("BRA 0x20, 0x48", "does not fit 5 bits");
    // Condition values 0x18-0x1f have no name: they print as numbers and assemble back.
    for v in 0x18..0x20 {
        check(
            &format!("BRA {v:#x}, 0x48"),
            emit_flow(0x40000000, Some(v), None, false, 0x40),
        );
    }
}

#[test]
fn nop_takes_every_condition_code() {
    for &(v, name) in CONDITIONS {
        // `emitNOP`: code[0] = 0x1e4 (condition CC.T), code[1] = 0x40000000.
        let c0 = (0x1e4 & !(0x1f << 5)) | (v << 5) | emit_predicate(None);
        check(&format!("NOP {name}"), word(c0, 0x40000000));
    }
}

// ---- MOV with a write mask ----

#[derive(Clone, Copy)]
enum MovSrc {
    Reg(u32),
    Const(u32, u32),
}

/// `emitMOV` (8-byte encoding, register or constant source) through `emitForm_B`.
fn emit_mov(lanes: u32, dst: u32, src: MovSrc) -> u64 {
    let opc: u64 = 0x28000000_00000004 | (u64::from(lanes) << 5);
    let mut c0 = opc as u32;
    let mut c1 = (opc >> 32) as u32;
    c0 |= emit_predicate(None);
    c0 |= dst << 14;
    match src {
        MovSrc::Const(bank, offset) => {
            c1 |= 0x4000 | (bank << 10);
            c0 |= (offset & 0x003f) << 26;
            c1 |= (offset & 0xffc0) >> 6;
        }
        MovSrc::Reg(r) => c0 |= r << 26,
    }
    word(c0, c1)
}

#[test]
fn mov_write_mask() {
    // `MOV R1, c [0x1] [0x100];` of the listings: all four lanes.
    assert_eq!(
        emit_mov(0xf, 1, MovSrc::Const(1, 0x100)),
        0x00005de428004404
    );
    check("MOV R1, c [0x1] [0x100]", 0x00005de428004404);
    for lanes in 0..0xf {
        check(
            &format!("MOV R2, R3, {lanes:#x}"),
            emit_mov(lanes, 2, MovSrc::Reg(3)),
        );
        check(
            &format!("MOV R2, c [0x2] [0x44], {lanes:#x}"),
            emit_mov(lanes, 2, MovSrc::Const(2, 0x44)),
        );
    }
    // 0xf may be written; it prints as nothing.
    assert_eq!(
        assemble_text("MOV R2, R3, 0xf", 0, &no_labels),
        Ok(emit_mov(0xf, 2, MovSrc::Reg(3)))
    );
    refused("MOV R2, R3, 0x10", "does not fit 4 bits");
}

// ---- TLD ----

/// `emitTEX` for `OP_TXF` (TLD): `t_mode` (else p mode), `live_only`, `level_zero`, the
/// target (`dim` 1–3, cube, array), `ms` (2D_MS target), `offsets` (`useOffsets == 1`),
/// `shadow`, texture `r`, write `mask`, sources `src0` and `src1` (None: RZ).
#[allow(clippy::too_many_arguments)]
fn emit_tld(
    t_mode: bool,
    live_only: bool,
    level_zero: bool,
    (dim, cube, array): (u32, bool, bool),
    ms: bool,
    offsets: bool,
    shadow: bool,
    r: u32,
    mask: u32,
    def: u32,
    src0: u32,
    src1: Option<u32>,
) -> u64 {
    let mut c0: u32 = 0x00000006;
    c0 |= if t_mode { 0x080 } else { 0x100 };
    if live_only {
        c0 |= 1 << 9;
    }
    let mut c1: u32 = 0x90000000;
    if !level_zero {
        c1 |= 0x02000000;
    }
    c0 |= def << 14;
    c0 |= src0 << 20;
    c0 |= emit_predicate(None);
    c1 |= mask << 14;
    c1 |= r;
    c1 |= (dim - 1) << 20;
    if cube {
        c1 += 2 << 20;
    }
    if array {
        c1 |= 1 << 19;
    }
    if shadow {
        c1 |= 1 << 24;
    }
    if ms {
        c1 |= 1 << 23;
    }
    if offsets {
        c1 |= 1 << 22;
    }
    c0 |= src1.unwrap_or(63) << 26;
    word(c0, c1)
}

#[test]
fn tld_listing_word_is_mesas() {
    let w = emit_tld(
        true,
        false,
        true,
        (1, false, false),
        false,
        false,
        false,
        0,
        1,
        10,
        17,
        None,
    );
    assert_eq!(w, 0xfd129c8690004000);
    check("TLD.LZ.T R10, R17, 0x0, 1D, 0x1", w);
}

#[test]
fn tld_targets_modes_and_flags() {
    let targets = [
        ((1, false, false), "1D"),
        ((1, false, true), "ARRAY_1D"),
        ((2, false, false), "2D"),
        ((2, false, true), "ARRAY_2D"),
        ((3, false, false), "3D"),
        ((2, true, false), "CUBE"),
        ((2, true, true), "ARRAY_CUBE"),
    ];
    for (target, name) in targets {
        for (t_mode, mode) in [(true, ".T"), (false, ".P")] {
            check(
                &format!("TLD.LZ{mode} R0, R2, 0x3, {name}, 0xf"),
                emit_tld(
                    t_mode, false, true, target, false, false, false, 3, 0xf, 0, 2, None,
                ),
            );
            check(
                &format!("TLD.LL{mode} R4, R6, R8, 0xff, {name}, 0x5"),
                emit_tld(
                    t_mode,
                    false,
                    false,
                    target,
                    false,
                    false,
                    false,
                    0xff,
                    5,
                    4,
                    6,
                    Some(8),
                ),
            );
        }
    }
    let two_d = (2, false, false);
    check(
        "TLD.LZ.NODEP.T R0, R2, 0x0, 2D, 0x1",
        emit_tld(
            true, true, true, two_d, false, false, false, 0, 1, 0, 2, None,
        ),
    );
    check(
        "TLD.LZ.MS.P R0, R2, R3, 0x1, 2D, 0xf",
        emit_tld(
            false,
            false,
            true,
            two_d,
            true,
            false,
            false,
            1,
            0xf,
            0,
            2,
            Some(3),
        ),
    );
    check(
        "TLD.LL.AOFFI.T R0, R2, R3, 0x1, 2D, 0x3",
        emit_tld(
            true,
            false,
            false,
            two_d,
            false,
            true,
            false,
            1,
            3,
            0,
            2,
            Some(3),
        ),
    );
    check(
        "TLD.LZ.AOFFI.MS.DC.NODEP.P R0, R2, R3, 0x1, ARRAY_2D, 0x3",
        emit_tld(
            false,
            true,
            true,
            (2, false, true),
            true,
            true,
            true,
            1,
            3,
            0,
            2,
            Some(3),
        ),
    );
    refused("TLD.T R0, R2, 0x0, 1D, 0x1", "level of detail");
    refused("TLD.LZ R0, R2, 0x0, 1D, 0x1", "texture mode");
    refused("TLD.LZ.T R0, R2, 0x0, 4D, 0x1", "expected one of 1D");
    refused("TLD.LZ.T.NODEP R0, R2, 0x0, 1D, 0x1", "misplaced modifier");
    refused("TLD.LZ.T R0, R2, 0x100, 1D, 0x1", "does not fit 8 bits");
    // Neither t nor p mode: no decoding.
    let w = emit_tld(
        true,
        false,
        true,
        (1, false, false),
        false,
        false,
        false,
        0,
        1,
        0,
        2,
        None,
    );
    assert!(decode(w & !(0x80u64 << 32)).is_err());
    // An array 3D target has no name: it prints as its number and assembles back.
    check("TLD.LZ.T R0, R2, 0x0, 0x5, 0x1", w | (5u64 << 19));
}

/// Every row that rests on Mesa is exercised above by mnemonic.
#[test]
fn mesa_rows_are_covered_here() {
    // The rows added for issue 12 are exercised in isa_mesa_more.rs.
    let covered = [
        "BRA", "BAR", "RED", "ATOM", "LDSLK", "STSUL", "CCTL", "CCTLL", "IMAD", "FFMA", "DFMA",
        "FMNMX", "DMNMX", "FSET", "DSET", "RRO", "ISAD", "TEX", "TXQ",
    ];
    for row in ROWS {
        if let Source::Mesa(f) = row.source {
            assert!(
                covered.contains(&row.name),
                "{} ({f}) has no test here",
                row.name
            );
            assert!(f.starts_with("emit"), "{}: {f}", row.name);
        }
    }
}

// ---- LDC addressing modes ----

// NV50_IR_SUBOP_LDC_*.
const LDC_IL: u32 = 1;
const LDC_IS: u32 = 2;
const LDC_ISL: u32 = 3;

/// `emitLOAD` for the constant space with an address register.
fn emit_ldc(sub_op: u32, ty: &str, dst: u32, bank: u32, base: u32, offset: u32) -> u64 {
    let mut c0: u32 = 0x00000006 | (sub_op << 8);
    let mut c1: u32 = 0x14000000 | (bank << 10);
    c0 |= dst << 14;
    // setAddress16
    c0 |= (offset & 0x003f) << 26;
    c1 |= (offset & 0xffc0) >> 6;
    c0 |= base << 20;
    c0 |= emit_predicate(None);
    c0 |= emit_load_store_type(ty);
    c0 |= emit_caching_mode("CA");
    word(c0, c1)
}

#[test]
fn ldc_listing_word_and_addressing_modes() {
    assert_eq!(emit_ldc(0, "32", 4, 0, 63, 0x30), 0xc3f11c8614000000);
    check("LDC R4, c [0x0] [0x30]", 0xc3f11c8614000000);
    for (sub_op, name) in [(LDC_IL, ".IL"), (LDC_IS, ".IS"), (LDC_ISL, ".ISL")] {
        check(
            &format!("LDC{name}.64 R4, c [0x2] [R6+0x1234]"),
            emit_ldc(sub_op, "64", 4, 2, 6, 0x1234),
        );
    }
    refused("LDC.64.IL R4, c [0x2] [R6]", "misplaced modifier `.IL`");
}

// ---- opcodes both sources cover ----

/// `emitVOTE` with a register result, no predicate result, a predicate source.
fn emit_vote(sub_op: u32, dst: u32, src: u32, not: bool) -> u64 {
    let mut c0: u32 = 0x00000004 | (sub_op << 5);
    let mut c1: u32 = 0x48000000;
    c0 |= emit_predicate(None);
    c0 |= dst << 14;
    c1 |= 7 << 22;
    if not {
        c0 |= 1 << 23;
    }
    c0 |= src << 20;
    word(c0, c1)
}

#[test]
fn vote_listing_word_is_mesas() {
    // `VOTE.ANY R45, pt, P1;` (NV50_IR_SUBOP_VOTE_ANY = 1).
    assert_eq!(emit_vote(1, 45, 1, false), 0x001b5c2449c00000);
    check("VOTE.ALL R3, pt, !P2", emit_vote(0, 3, 2, true));
}

#[test]
fn membar_row_is_mesas() {
    // `emitMEMBAR`: CTA 0x05, GL 0x25, SYS 0x45; `code[1]` 0xe0000000.
    for (c0, text) in [
        (0x05, "MEMBAR.CTA"),
        (0x25, "MEMBAR.GL"),
        (0x45, "MEMBAR.SYS"),
    ] {
        check(text, word(c0 | emit_predicate(None), 0xe0000000));
    }
}

/// `emitFlow` for an indirect relative BRA through the constant space: `code[0] |= 0x4000`,
/// `setAddress16`, the bank at `code[1]` bits 10-13, the index register at 20.
fn emit_bra_indirect(cc: Option<u32>, bank: u32, base: u32, offset: u32) -> u64 {
    let mut c0: u32 = 0x7;
    let mut c1: u32 = 0x40000000;
    c0 |= 0x4000;
    c0 |= emit_predicate(None);
    match cc {
        None => c0 |= 0x1e0,
        Some(v) => c0 |= v << 5,
    }
    c0 |= (offset & 0x003f) << 26;
    c1 |= (offset & 0xffc0) >> 6;
    c1 |= bank << 10;
    c0 |= base << 20;
    word(c0, c1)
}

#[test]
fn bra_through_a_constant() {
    check("BRA c [0x1] [R2+0x10]", emit_bra_indirect(None, 1, 2, 0x10));
    check(
        "BRA CC.NE, c [0xf] [0xfffc]",
        emit_bra_indirect(Some(5), 15, 63, 0xfffc),
    );
    let inst = decode(emit_bra_indirect(None, 1, 2, 0x10)).unwrap();
    assert!(!fermi::isa::is_branch(&inst), "no static target");
}

#[test]
fn explain_shows_atoms_split_offset_and_omitted_operands() {
    use fermi::isa::explain;
    let w = emit_atom(Ty::U32, ADD, Some(5), 8, -0x80000, Some((4, true)));
    let fields = explain(w, 0).unwrap();
    let all = fields.iter().fold(0u64, |a, f| {
        assert_eq!(a & f.mask, 0, "{} overlaps", f.what);
        a | f.mask
    });
    assert_eq!(all, u64::MAX);
    // Operand 1 is the address: base 20-25, offset 26-42 and 55-57.
    let addr = fields.iter().find(|f| f.what == "operand 1").unwrap();
    let want = (0x3f << 20) | (((1u64 << 17) - 1) << 26) | (0x7 << 55);
    assert_eq!((addr.mask, addr.text.as_str()), (want, "[R4+-0x80000]"));
    // CAS's second register is RZ here, left out of the text but still a field.
    let r2 = fields.iter().find(|f| f.what == "operand 3").unwrap();
    assert_eq!((r2.mask, r2.text.as_str()), (0x3f << 49, "RZ"));
}
