//! The rows issue 12 added, and the five NVIDIA lines it quotes, checked against words computed
//! here independently of the table: line-by-line transcriptions of Mesa 22.3.6's Fermi emitter
//! (`src/nouveau/codegen/nv50_ir_emit_nvc0.cpp`, the function each helper is named after;
//! the word is `code[0] << 32 | code[1]`), and asfermi's templates (`spec/asfermi-wiki/`).

mod mesa;

use fermi::isa::{assemble_text, decode, disassemble_word, ROWS};
use mesa::{check, emit_predicate, no_labels, word};

/// A source of `emitForm_A`.
#[derive(Clone, Copy)]
enum S {
    Reg(u32),
    /// `c[bank][offset]`.
    Const(u32, u32),
}

/// `emitForm_A` with up to three sources, including its rule for a constant third source:
/// `s1 = 49` when `src(2)` is in the constant file, the constant sets `0x8000` (third source)
/// or `0x4000` (second source) in `code[1]`, the bank at `code[1]` bit 10.
fn emit_form_a(opc: u64, dst: u32, srcs: &[S]) -> (u32, u32) {
    let mut c0 = opc as u32;
    let mut c1 = (opc >> 32) as u32;
    c0 |= emit_predicate(None);
    c0 |= dst << 14;
    let s1 = if matches!(srcs.get(2), Some(S::Const(..))) {
        49
    } else {
        26
    };
    for (s, src) in srcs.iter().enumerate() {
        match *src {
            S::Const(bank, offset) => {
                c1 |= if s == 2 { 0x8000 } else { 0x4000 };
                c1 |= bank << 10;
                // setAddress16
                c0 |= (offset & 0x003f) << 26;
                c1 |= (offset & 0xffc0) >> 6;
            }
            S::Reg(r) => {
                let pos = match s {
                    0 => 20,
                    1 => s1,
                    _ => 49,
                };
                if pos >= 32 {
                    c1 |= r << (pos - 32);
                } else {
                    c0 |= r << pos;
                }
            }
        }
    }
    (c0, c1)
}

/// `emitNegAbs12`.
fn neg_abs12(c0: &mut u32, neg: [bool; 2], abs: [bool; 2]) {
    if abs[1] {
        *c0 |= 1 << 6;
    }
    if abs[0] {
        *c0 |= 1 << 7;
    }
    if neg[1] {
        *c0 |= 1 << 8;
    }
    if neg[0] {
        *c0 |= 1 << 9;
    }
}

/// `emitIMAD` (unsigned types, no `.HI`, no saturation): `addOp` = neg(src2) | neg product << 1.
fn emit_imad(cc: bool, neg_product: bool, neg_add: bool, dst: u32, srcs: &[S]) -> u64 {
    let (mut c0, mut c1) = emit_form_a(0x20000000_00000003, dst, srcs);
    c0 |= (u32::from(neg_add) | u32::from(neg_product) << 1) << 8;
    if cc {
        c1 |= 1 << 16;
    }
    word(c0, c1)
}

/// `emitFMAD`, 8-byte non-immediate form, round to nearest: `neg1` (the product) bit 9, the
/// addend's negation bit 8.
fn emit_fmad(neg_product: bool, neg_add: bool, dst: u32, srcs: &[S]) -> u64 {
    let (mut c0, c1) = emit_form_a(0x30000000_00000000, dst, srcs);
    if neg_add {
        c0 |= 1 << 8;
    }
    if neg_product {
        c0 |= 1 << 9;
    }
    word(c0, c1)
}

/// `emitDMAD`, round to nearest.
fn emit_dmad(neg_product: bool, neg_add: bool, dst: u32, srcs: &[S]) -> u64 {
    let (mut c0, c1) = emit_form_a(0x20000000_00000001, dst, srcs);
    if neg_add {
        c0 |= 1 << 8;
    }
    if neg_product {
        c0 |= 1 << 9;
    }
    word(c0, c1)
}

/// `emitSET` of an integer comparison with a predicate result and no second result:
/// `lo = 3 | 0x20` (signed), `hi` by the boolean operation, the predicate source at 49,
/// `code[1] += 0x08000000`, result at 17, `pt` at 14, `.X` (flagsSrc) bit 6, condition at 55.
fn emit_set_isetp(x: bool, cond: u32, pdst: u32, a: u32, b: u32, psrc: u32) -> u64 {
    let (mut c0, mut c1) = emit_form_a(0x10000000_00000023, 0, &[S::Reg(a), S::Reg(b)]);
    c1 |= psrc << 17;
    c1 += 0x08000000;
    c0 &= !0xfc000;
    c0 |= pdst << 17;
    c0 |= 0x1c000;
    if x {
        c0 |= 1 << 6;
    }
    c1 |= cond << 23;
    word(c0, c1)
}

/// `emitSET` with a register result: float source types set `.BF` (`lo |= 0x20`); F64 `lo = 1`.
fn emit_set_reg(f64: bool, cond: u32, dst: u32, a: u32, b: u32, psrc: u32) -> u64 {
    let lo = if f64 { 0x1 } else { 0x0 } | 0x20;
    let (c0, mut c1) = emit_form_a(0x10000000_00000000 | lo, dst, &[S::Reg(a), S::Reg(b)]);
    c1 |= psrc << 17;
    c1 |= cond << 23;
    word(c0, c1)
}

/// `emitMINMAX` of a float type (no `.FTZ`): MIN `0x080e…`, MAX `0x081e…`, F64 `| 1`.
fn emit_minmax(max: bool, f64: bool, dst: u32, a: u32, b: u32, neg: [bool; 2]) -> u64 {
    let mut op: u64 = if max {
        0x081e0000_00000000
    } else {
        0x080e0000_00000000
    };
    if f64 {
        op |= 1;
    }
    let (mut c0, c1) = emit_form_a(op, dst, &[S::Reg(a), S::Reg(b)]);
    neg_abs12(&mut c0, neg, [false; 2]);
    word(c0, c1)
}

/// `emitPreOp`, 8-byte form (`emitForm_B`: the source at 26).
fn emit_pre_op(ex2: bool, abs: bool, neg: bool, dst: u32, src: u32) -> u64 {
    let mut c0 = emit_predicate(None) | dst << 14 | src << 26;
    if ex2 {
        c0 |= 0x20;
    }
    if abs {
        c0 |= 1 << 6;
    }
    if neg {
        c0 |= 1 << 8;
    }
    word(c0, 0x60000000)
}

/// `emitISAD`.
fn emit_isad(signed: bool, dst: u32, a: u32, b: u32, c: u32) -> u64 {
    let (mut c0, c1) = emit_form_a(0x38000000_00000003, dst, &[S::Reg(a), S::Reg(b), S::Reg(c)]);
    if signed {
        c0 |= 1 << 5;
    }
    word(c0, c1)
}

/// `emitTEX` for OP_TEX, "p mode", a non-array, non-shadow target of `dim` dimensions.
fn emit_tex(level_zero: bool, dst: u32, src0: u32, src1: u32, r: u32, dim: u32, mask: u32) -> u64 {
    let mut c0: u32 = 0x00000006 | 0x100;
    let mut c1: u32 = 0x80000000;
    if level_zero {
        c1 |= 0x02000000;
    }
    c0 |= dst << 14 | src0 << 20;
    c0 |= emit_predicate(None);
    c1 |= mask << 14;
    c1 |= r;
    c1 |= (dim - 1) << 20;
    c0 |= src1 << 26;
    word(c0, c1)
}

/// `emitTXQ` (`code[0] = 0x86`, i.e. "t mode").
fn emit_txq(query: u32, dst: u32, src0: u32, src1: u32, r: u32, mask: u32) -> u64 {
    let c1 = 0xc0000000 | query << 22 | mask << 14 | r;
    let c0 = 0x00000086 | dst << 14 | src0 << 20 | src1 << 26 | emit_predicate(None);
    word(c0, c1)
}

// ---- the five lines of issue 12, "Why" item 1 ----

/// NVIDIA's text for words its compiler emitted; each must assemble to the word the layout
/// gives and print back as NVIDIA wrote it.
#[test]
fn nvidia_lines_assemble_to_nvidias_words() {
    check(
        "ISETP.LT.X.AND P2, pt, R3, R5, pt",
        emit_set_isetp(true, 1, 2, 3, 5, 7),
    );
    check(
        "IMAD.U32.U32 R2.CC, R3, R4, c [0x0] [0x38]",
        emit_imad(
            true,
            false,
            false,
            2,
            &[S::Reg(3), S::Reg(4), S::Const(0, 0x38)],
        ),
    );
    check(
        "FFMA R13, R3, -R5, R13",
        emit_fmad(true, false, 13, &[S::Reg(3), S::Reg(5), S::Reg(13)]),
    );
    check(
        "FFMA R6, R3, -c [0x0] [0x34], R4",
        emit_fmad(true, false, 6, &[S::Reg(3), S::Const(0, 0x34), S::Reg(4)]),
    );
    // BRX: asfermi's BRX opcode (0x44 in the high byte) with the indirect-branch layout of
    // Mesa's `emitFlow` (`code[0] |= 0x4000`, index register at 20, `setAddress16`, bank at
    // `code[1]` bit 10 with no selector: bank 0x10 sets bit 14 of `code[1]`) and `CC.T`
    // (`code[0] |= 0x1e0`) as for every guarded flow instruction.
    let brx = word(
        0x7 | 0x4000 | 0x1e0 | emit_predicate(None) | 4 << 20,
        0x44000000 | 0x10 << 10,
    );
    check("BRX c [0x10] [R4+0x0]", brx);
    // BPT: Mesa's OP_BRKPT `code[1] = 0xd0000000`, `code[0] = 7`; `.DRAIN` is operation 0 and
    // the unguarded text means guard `pt` (0x1c00), as for every guarded row.
    check(
        "BPT.DRAIN 0x0",
        word(0x7 | emit_predicate(None), 0xd0000000),
    );
}

/// The spellings earlier ptxvm (and asfermi) used for these forms are still accepted.
#[test]
fn the_old_spellings_are_accepted() {
    let asm = |t: &str| assemble_text(t, 0, &no_labels).unwrap_or_else(|e| panic!("{t}: {e}"));
    // The product's negation on the first factor means the same bit.
    assert_eq!(asm("FFMA R13, -R3, R5, R13"), asm("FFMA R13, R3, -R5, R13"));
    assert_eq!(asm("DFMA R2, -R4, R6, R8"), asm("DFMA R2, R4, -R6, R8"));
    assert_eq!(asm("FMUL R1, -R2, R3"), asm("FMUL R1, R2, -R3"));
    // Both factors negated: a positive product.
    assert_eq!(asm("FFMA R13, -R3, -R5, R13"), asm("FFMA R13, R3, R5, R13"));
    // An indexed constant with no offset.
    assert_eq!(asm("BRX c [0x10] [R4]"), asm("BRX c [0x10] [R4+0x0]"));
}

// ---- the constant in the fourth operand position ----

#[test]
fn constant_third_sources() {
    let c = S::Const(3, 0x1234);
    check(
        "IMAD.U32.U32 R1, -R2, R3, c [0x3] [0x1234]",
        emit_imad(false, true, false, 1, &[S::Reg(2), S::Reg(3), c]),
    );
    // Both negations: cuobjdump's `.PO` (the spec page's IMAD note).
    check(
        "IMAD.U32.U32.PO R1, R2, R3, c [0x3] [0x1234]",
        emit_imad(false, true, true, 1, &[S::Reg(2), S::Reg(3), c]),
    );
    check(
        "FFMA R1, R2, -R3, -c [0x3] [0x1234]",
        emit_fmad(true, true, 1, &[S::Reg(2), S::Reg(3), c]),
    );
    check(
        "DFMA R2, R4, R6, c [0x3] [0x1234]",
        emit_dmad(false, false, 2, &[S::Reg(4), S::Reg(6), c]),
    );
    // The second source constant is still the composite form (selector 1).
    check(
        "DFMA R2, R4, -c [0x3] [0x1234], R6",
        emit_dmad(true, false, 2, &[S::Reg(4), c, S::Reg(6)]),
    );
}

// ---- the rows that rest on Mesa ----

#[test]
fn minmax_set_rro_isad() {
    check(
        "FMNMX R0, R1, R2, pt",
        emit_minmax(false, false, 0, 1, 2, [false; 2]),
    );
    check(
        "FMNMX R0, -R1, R2, !pt",
        emit_minmax(true, false, 0, 1, 2, [true, false]),
    );
    check(
        "DMNMX R4, R6, -R8, !pt",
        emit_minmax(true, true, 4, 6, 8, [false, true]),
    );
    // LT 1, GE 6.
    check(
        "FSET.BF.LT.AND R0, R1, R2, pt",
        emit_set_reg(false, 1, 0, 1, 2, 7),
    );
    check(
        "DSET.BF.GE.AND R0, R2, R4, P3",
        emit_set_reg(true, 6, 0, 2, 4, 3),
    );
    check("RRO.SINCOS R1, R2", emit_pre_op(false, false, false, 1, 2));
    check("RRO.EX2 R1, -|R2|", emit_pre_op(true, true, true, 1, 2));
    check("ISAD R1, R2, R3, R4", emit_isad(true, 1, 2, 3, 4));
    // ISET with `.X` (emitSET, integer source, register result: lo = 3 | 0x20, bit 6).
    let (mut c0, mut c1) = emit_form_a(0x10000000_00000023, 0, &[S::Reg(1), S::Reg(2)]);
    c1 |= 7 << 17 | 1 << 23;
    c0 |= 1 << 6;
    check("ISET.LT.X.AND R0, R1, R2, pt", word(c0, c1));
    check("ISAD.U32 R1, R2, R3, R4", emit_isad(false, 1, 2, 3, 4));
}

#[test]
fn texture_rows() {
    check(
        "TEX.P R0, R1, R2, 0x3, 2D, 0xf",
        emit_tex(false, 0, 1, 2, 3, 2, 0xf),
    );
    check(
        "TEX.LZ.P R4, R6, 0x0, 1D, 0x1",
        emit_tex(true, 4, 6, 63, 0, 1, 1),
    );
    check(
        "TXQ.T R0, R1, R2, 0x5, TEX_HEADER_DIMENSION, 0x3",
        emit_txq(0, 0, 1, 2, 5, 3),
    );
    check(
        "TXQ.T R0, R1, R2, 0x5, TEX_SAMPLER_LOD, 0x3",
        emit_txq(4, 0, 1, 2, 5, 3),
    );
}

// ---- the rows asfermi's pages settle ----

/// Least-significant-bit-first template → instruction bits → listing word.
fn template(t: &str) -> u64 {
    let digits: Vec<char> = t.chars().filter(|c| !c.is_whitespace()).collect();
    assert_eq!(digits.len(), 64, "{t}");
    let bits = digits
        .iter()
        .enumerate()
        .fold(0u64, |v, (i, c)| if *c == '1' { v | 1 << i } else { v });
    bits.rotate_left(32)
}

#[test]
fn asfermi_pages_settle_jmp_jcal_ldlk_stul_b2r_lepc() {
    // Templates copied from the pages (their field runs re-joined), then fields set with the
    // page's positions (listing word: bit k of the instruction is bit (k + 32) % 64).
    let b = |k: u32| 1u64 << ((k + 32) % 64);
    // A value whose lowest bit is instruction bit `at`.
    let at = |at: u32, v: u64| (v << at).rotate_left(32);
    // JMP (OpcodeExecution.md); the page's template shows CC.T (mod 011110), as printed
    // without `CC.T`. Target 0x1000 at 26.. : bit 38.
    let jmp = template("1110 011110 1110 000000 000000 000000000000000000000000 00000000 000000");
    check("JMP 0x1000", jmp | at(26, 0x1000));
    check("JMP.U 0xfffffff8", jmp | b(15) | at(26, 0xffff_fff8));
    // Mesa agrees on the opcode: emitFlow's absolute OP_BRA is `code[1] = 0`.
    assert_eq!(jmp as u32 & 0xfc00_0000, 0);
    // JCAL: default (push) has mod2 bit 3 set, i.e. bit 16; `.NOINC` clears it.
    let jcal = template("1110 000000 0000 001000 000000 000000000000000000000000 00000000 001000");
    check("JCAL 0x40", jcal | at(26, 0x40));
    check("JCAL.NOINC 0x40", (jcal & !b(16)) | at(26, 0x40));
    assert_eq!(
        jcal as u32 & 0xfc00_0000,
        0x10000000,
        "Mesa's absolute OP_CALL"
    );
    // LDLK: mod 0001 (bits 4-7, a 32-bit access), p_0 at 8-9, p_1 at 58.
    let ldlk = template("1010 0001 00 1110 000000 000000 00000000000000000000000000000000 0 00101");
    let p5 = b(8) | b(58); // 5 = 0b101
    check(
        "LDLK P5, R2, [R3+0x10]",
        ldlk | p5 | at(14, 2) | at(20, 3) | at(26, 0x10),
    );
    check(
        "LDLK.S16 P2, R2, [R3+-0x4]",
        (ldlk & !b(7)) | b(5) | b(6) | b(9) | at(14, 2) | at(20, 3) | at(26, 0xffff_fffc),
    );
    // STUL.
    let stul = template("1010 000100 1110 000000 000000 00000000000000000000000000000000 010111");
    check(
        "STUL [R3+0x10], R2",
        stul | at(14, 2) | at(20, 3) | at(26, 0x10),
    );
    // B2R: `.XLU` is mod 0:1 = 10, the field's top bit (bit 9); `.ALU` bit 8.
    let b2r = template("0010 000000 1110 000000 000000 00000000000000000000000000000000 011100");
    check("B2R.XLU R3, 0x5", b2r | b(9) | at(14, 3) | at(20, 5));
    check("B2R.ALU R3, 0x5", b2r | b(8) | at(14, 3) | at(20, 5));
    check("B2R R3, 0x3f", b2r | at(14, 3) | at(20, 0x3f));
    // LEPC: the page's test reads back 0x00001c0444000000 for `LEPC R0`.
    check("LEPC R0", 0x00001c0444000000);
    let lepc = template("0010 000000 1110 000000 000000 00000000000000000000000000000000 100010");
    assert_eq!(lepc, 0x00001c0444000000);
    check(
        "@!P1 LEPC R9",
        (lepc & !at(10, 0xf)) | at(10, 1 | 8) | at(14, 9),
    );
}

/// Every row of these mnemonics decodes only from its own words (a spot check of the
/// dispatch on the new opcodes).
#[test]
fn new_rows_are_in_the_table() {
    for name in [
        "FMNMX", "DMNMX", "FSET", "DSET", "RRO", "ISAD", "TEX", "TXQ", "B2R", "LEPC", "LDLK",
        "STUL", "JMP", "JCAL", "BPT", "BRX",
    ] {
        assert!(ROWS.iter().any(|r| r.name == name), "{name}");
    }
    let w = emit_isad(true, 1, 2, 3, 4);
    assert_eq!(decode(w).unwrap().mnemonic(), "ISAD");
    assert_eq!(disassemble_word(w, 0), "ISAD R1, R2, R3, R4;");
}
