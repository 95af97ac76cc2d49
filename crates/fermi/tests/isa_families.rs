//! Unit tests per opcode family: words and texts copied from NVIDIA's listings, checked
//! through the typed layer (operands, modifiers, branch targets), plus the asfermi-only rows
//! against asfermi's opcode map.

use fermi::isa::{
    assemble_text, branch_target, decode, disassemble_word, encode, is_branch, listing_from_bytes,
    listing_to_bytes, parse, print, set_branch_target, CBank, Flags, Gpr, Imm20, Inst, Operand,
    Pred, Source, ROWS,
};

fn no_labels(_: &str) -> Option<u64> {
    None
}

fn r(n: u8) -> Operand {
    Operand::Reg(Gpr::new(n).unwrap(), Flags::default())
}

fn neg(o: Operand) -> Operand {
    match o {
        Operand::Reg(g, f) => Operand::Reg(g, Flags { neg: true, ..f }),
        other => other,
    }
}

fn p(n: u8) -> Operand {
    Operand::Pred(Pred::new(n).unwrap(), Flags::default())
}

fn not(o: Operand) -> Operand {
    match o {
        Operand::Pred(q, f) => Operand::Pred(q, Flags { not: true, ..f }),
        other => other,
    }
}

fn c(bank: u8, offset: u16) -> Operand {
    Operand::Const(CBank::new(bank, offset).unwrap(), Flags::default())
}

fn imm20(v: i64) -> Operand {
    Operand::Imm20(Imm20::new(v).unwrap(), Flags::default())
}

fn mem(base: u8, offset: i32) -> Operand {
    Operand::Mem {
        base: Gpr::new(base).unwrap(),
        offset,
    }
}

/// Both directions for one listing line; returns the decoded instruction.
fn line(addr: u64, word: u64, text: &str) -> Inst {
    assert_eq!(disassemble_word(word, addr), text, "{word:#018x}");
    assert_eq!(assemble_text(text, addr, &no_labels), Ok(word), "{text}");
    decode(word).unwrap()
}

fn mods(i: &Inst) -> Vec<&'static str> {
    i.modifiers().collect()
}

#[test]
fn integer_arithmetic() {
    let i = line(0x28, 0xc0301e0348004000, "IADD R0, -R3, c [0x0] [0x30];");
    assert_eq!(i.operands(), [r(0), neg(r(3)), c(0, 0x30)]);
    // The composite immediate is shown as its raw 20 bits (0xffc00 is -0x400).
    let i = line(0x30, 0x0030dc034800fff0, "IADD R3, R3, 0xffc00;");
    assert_eq!(i.operands()[2], imm20(-0x400));
    let i = line(0x50, 0xb0511ca350004000, "IMUL R4, R5, c [0x0] [0x2c];");
    assert_eq!(i.mnemonic(), "IMUL");
    assert!(mods(&i).is_empty());
    let i = line(
        0x80,
        0x2022dc032016c004,
        "IMAD.U32.U32 R11, R2, 0x108, R11;",
    );
    assert_eq!(mods(&i), [".U32.U32"]);
    assert_eq!(i.operands(), [r(11), r(2), imm20(0x108), r(11)]);
    let i = line(
        0xc8,
        0x80009c4340004000,
        "ISCADD R2, R0, c [0x0] [0x20], 0x2;",
    );
    assert_eq!(i.operands()[3], Operand::Imm(2));
    line(0xd8, 0x04b2dc033118c000, "ICMP.EQ.U32 R11, R11, 0x1, R12;");
    line(0x128, 0x2cc35c23081e0000, "IMNMX R13, R12, R11, !pt;");
    line(0x840, 0x140b9c0378000000, "FLO.U32 R46, R5;");
    line(0x11b0, 0x3c629c045400c000, "POPC R10, R6, 0xf;");
}

#[test]
fn compare_and_select() {
    let i = line(
        0x188,
        0x4ce1dc03188e0000,
        "ISETP.LT.U32.AND P0, pt, R14, R19, pt;",
    );
    assert_eq!(mods(&i), [".LT", ".U32", ".AND"]);
    assert_eq!(i.operands(), [p(0), p(7), r(14), r(19), p(7)]);
    line(
        0xd0,
        0xfcb2dc03110e0000,
        "ISET.EQ.U32.AND R11, R11, RZ, pt;",
    );
    let i = line(0x278, 0xfff7dc042010ffff, "SEL R31, RZ, 0xfffff, !P0;");
    assert_eq!(i.operands()[3], not(p(0)));
    assert_eq!(i.operands()[2], imm20(-1));
    line(0x608, 0x4011dc040c240000, "PSETP.OR.OR P0, pt, P2, P0, P1;");
    line(0x280, 0x00229c2449c00000, "VOTE.ANY R10, pt, P2;");
}

#[test]
fn logic_shift_and_bitfield() {
    line(0x38, 0x7c001c036800c000, "LOP.AND R0, R0, 0x1f;");
    line(0x8e0, 0x6dc41c0360000000, "SHL.W R16, R28, R27;");
    line(0x60, 0x7c011c235800c000, "SHR.W R4, R0, 0x1f;");
    line(0x158, 0x44001c0370000000, "BFE.U32 R0, R0, R17;");
    line(0x170, 0x0c001c03287ec008, "BFI R0, R0, 0x203, RZ;");
    line(0x5c8, 0x08001c04247ec10d, "PRMT R0, R0, 0x4342, RZ;");
}

#[test]
fn moves_and_special_registers() {
    let i = line(0xb0, 0x08009df21bf3c2f7, "MOV32I.S R2, -0x30f423e;");
    assert!(i.sched);
    assert_eq!(i.operands()[1], Operand::Imm(-0x30f423e));
    let i = line(0x8, 0x94009c042c000000, "S2R R2, SR_CTAid_X;");
    assert_eq!(i.operands()[1], Operand::Sreg(0x25));
    line(0xa0, 0x00001df440000000, "NOP.S CC.T;");
    line(0xc0, 0xffffdc0450ee0000, "BAR.RED.POPC RZ, RZ;");
}

#[test]
fn float_and_double() {
    // Float immediates are the top 20 bits of the IEEE single (0xbf800 = -1.0).
    let i = line(
        0x30,
        0x0041dc00268eefe0,
        "FSETP.NEU.AND P0, pt, R4, 0xbf800, pt;",
    );
    assert_eq!(i.operands()[3], imm20(0xbf800 - 0x100000));
    line(0x148, 0xc030dc0058004000, "FMUL R3, R3, c [0x0] [0x30];");
    line(0x260, 0x08429c0120140000, "DFMA R10, R4, R2, R10;");
    line(0x11d8, 0x18229c0148000000, "DADD R10, R2, R6;");
    line(0x168, 0x08411c0150000000, "DMUL R4, R4, R2;");
    let i = line(0xb38, 0x55235f841c000000, "I2I.S32.S32 R13, -R21;");
    assert_eq!(mods(&i), [".S32", ".S32"]);
    line(0x178, 0x11211c0418000000, "I2F.F32.U32 R4, R4;");
}

#[test]
fn memory() {
    let i = line(0xf8, 0x00f0dc8583fffff0, "LD R3, [R15+-0x400];");
    assert_eq!(i.operands(), [r(3), mem(15, -0x400)]);
    line(0x288, 0x01009ca5c1000000, "LDS.64 R2, [R16];");
    let i = line(0x50, 0x03f10085c9000108, "@P0 STS [0x4200], R4;");
    assert_eq!(i.operands()[0], mem(63, 0x4200));
    let i = line(0x148, 0xc3f11c8614000000, "LDC R4, c [0x0] [0x30];");
    assert_eq!(
        i.operands()[1],
        Operand::CMem {
            bank: 0,
            base: Gpr::RZ,
            offset: 0x30
        }
    );
    line(0xdf8, 0x20119ea5c0000000, "LDL.LU.64 R6, [R1+0x8];");
    line(0x130, 0x40159ca5c8000000, "STL.64 [R1+0x10], R22;");
    line(0x28, 0x00221ca588000000, "LDU.64 R8, [R2];");
    line(0xc90, 0x0000e40510000000, "@!P1 RED.ADD [R0], R3;");
    line(
        0x148,
        0xfd129c8690004000,
        "TLD.LZ.T R10, R17, 0x0, 1D, 0x1;",
    );
}

#[test]
fn video() {
    line(
        0x5b0,
        0x15d75c04e2306000,
        "VSHR.UD.U32.U8.W.ACC R29, R29, 0x5, R24;",
    );
    line(
        0x158,
        0x34c35ce4cb16e406,
        "VMNMX.MX.MAX R13, R12, R13, R11;",
    );
}

#[test]
fn branches_are_relative_and_print_absolute() {
    let i = line(0x68, 0x20001de740000005, "BRA 0x1b8;");
    assert!(is_branch(&i));
    assert_eq!(branch_target(&i, 0x68), Some(0x1b8));
    // A backward branch: the offset is negative.
    let i = line(0x490, 0x600005e74003fff6, "@P1 BRA 0x230;");
    assert_eq!(branch_target(&i, 0x490), Some(0x230));
    line(0x18, 0x800081e740000000, "@P0 BRA.U 0x40;");
    // SSY and PBK have no guard: bits 10-13 are zero, which would otherwise read @P0.
    let i = line(0x18, 0xc00000076000001d, "SSY 0x790;");
    assert_eq!(branch_target(&i, 0x18), Some(0x790));
    line(0x60, 0x200000076800000a, "PBK 0x2f0;");
    let i = decode(0x00f0dc8583fffff0).unwrap();
    assert!(!is_branch(&i));
    assert_eq!(branch_target(&i, 0), None);
}

#[test]
fn labels_resolve_and_targets_relocate() {
    let labels = |name: &str| (name == "loop").then_some(0x230u64);
    let w = assemble_text("@P1 BRA loop;", 0x490, &labels).unwrap();
    assert_eq!(w, 0x600005e74003fff6);
    let mut i = parse("BRA 0x1b8", 0x68, &no_labels).unwrap();
    assert!(set_branch_target(&mut i, 0x68, 0x1c0));
    assert_eq!(print(&i, 0x68), "BRA 0x1c0");
    assert!(!set_branch_target(&mut i, 0, 1 << 40));
}

#[test]
fn listing_words_and_cubin_bytes() {
    // cuobjdump prints the first 32-bit word of the instruction first; each word is
    // little-endian in memory.
    let w = 0x94009c042c000000u64;
    let b = listing_to_bytes(w);
    assert_eq!(b, [0x04, 0x9c, 0x00, 0x94, 0x00, 0x00, 0x00, 0x2c]);
    assert_eq!(listing_from_bytes(b), w);
}

#[test]
fn asfermi_spellings_are_accepted() {
    let w = assemble_text("IADD R5, R3, R2;", 0, &no_labels).unwrap();
    // Upper-case PT, decimal immediates, no trailing semicolon, LD.32 for the default type.
    assert_eq!(
        assemble_text("ISETP.LT.U32.AND P0, PT, R14, R19, PT", 0, &no_labels),
        Ok(0x4ce1dc03188e0000)
    );
    assert_eq!(assemble_text("IADD R5, R3, R2", 0, &no_labels), Ok(w));
    assert_eq!(
        assemble_text("LOP.AND R0, R0, 31;", 0, &no_labels),
        Ok(0x7c001c036800c000)
    );
    assert_eq!(
        assemble_text("LD.32 R3, [R15-0x400];", 0, &no_labels),
        Ok(0x00f0dc8583fffff0)
    );
    // Where the operand has a negate bit, a leading `-` is that bit (as cuobjdump prints
    // it); the immediate itself stays positive.
    let w = assemble_text("IADD R3, R3, -0x400;", 0, &no_labels).unwrap();
    let Operand::Imm20(v, f) = decode(w).unwrap().operands()[2] else {
        panic!("not an immediate")
    };
    assert_eq!((v.value(), f.neg), (0x400, true));
    // Without a negate bit, a negative immediate is sign-extended into 20 bits.
    let w = assemble_text("ISETP.EQ.AND P1, pt, R11, -0x1, pt;", 0, &no_labels).unwrap();
    assert_eq!(w, 0xfcb3dc23190effff);
}

/// Opcode map of the rows the listings lack: (mnemonic, low nibble, high byte of the second
/// word), as asfermi gives them. JMP, JCAL, B2R, LEPC, LDLK and STUL are read off the templates
/// of asfermi's opcode pages (`OpcodeExecution.md`, `OpcodeMiscellaneous.md`,
/// `OpcodeDataMovement.md`): bits 58-63 least significant first, e.g. JCAL `001000` is bit 60,
/// 0x10 in the high byte.
const OPCODE_MAP: &[(&str, u64, u64)] = &[
    ("JMP", 0x7, 0x00),
    ("CAL", 0x7, 0x50),
    ("JCAL", 0x7, 0x10),
    ("PRET", 0x7, 0x78),
    ("PCNT", 0x7, 0x70),
    ("PLONGJMP", 0x7, 0x58),
    ("RET", 0x7, 0x90),
    ("CONT", 0x7, 0xb0),
    ("LONGJMP", 0x7, 0x88),
    ("BRX", 0x7, 0x44),
    ("BPT", 0x7, 0xd0),
    ("FADD32I", 0x2, 0x28),
    ("FMUL32I", 0x2, 0x30),
    ("MUFU", 0x0, 0xc8),
    ("FCMP", 0x0, 0x38),
    ("DSETP", 0x1, 0x18),
    ("F2F", 0x4, 0x10),
    ("F2I", 0x4, 0x14),
    ("MEMBAR", 0x5, 0xe0),
    ("B2R", 0x4, 0x38),
    ("LEPC", 0x4, 0x44),
    ("LDLK", 0x5, 0xa0),
    ("STUL", 0x5, 0xe8),
];

#[test]
fn asfermi_only_rows_match_the_opcode_map_and_round_trip() {
    let texts = [
        "JMP 0x1000",
        "CAL 0x100",
        "JCAL 0x2000",
        "PRET 0x100",
        "PCNT 0x100",
        "PLONGJMP 0x100",
        "@P0 RET",
        "CONT",
        "LONGJMP",
        "BRX R2, 0x10",
        "BPT.TRAP 0x1",
        "FADD32I R1, -R2, 0x3f800000",
        "FMUL32I.FTZ R1, R2, 0x3f800000",
        "MUFU.RCP R1, |R2|",
        "FCMP.LT R1, R2, R3, R4",
        "DSETP.GT.AND P0, pt, R2, R4, pt",
        "F2F.F32.F64.RZ R1, R2",
        "F2I.S32.F32.TRUNC R1, -R2",
        "MEMBAR.GL",
        "B2R.ALU R3, 0x3f",
        "LEPC R0",
        "LDLK.U16 P3, R1, [R2+0x10]",
        "STUL.S8 [R2], R1",
    ];
    for (t, (name, lo, hi)) in texts.iter().zip(OPCODE_MAP) {
        let inst = parse(t, 0x40, &no_labels).unwrap_or_else(|e| panic!("{t}: {e}"));
        assert_eq!(inst.mnemonic(), *name);
        assert!(matches!(inst.row.source, Source::AsfermiOnly(_)));
        let w = encode(&inst);
        // Listing order: the low nibble is bits 32-35, the high byte bits 24-31 (bits 24-25
        // belong to fields for some rows; compare the opcode's 6 bits).
        assert_eq!((w >> 32) & 0xf, *lo, "{t}: {w:#018x}");
        assert_eq!((w >> 26) & 0x3f, hi >> 2, "{t}: {w:#018x}");
        assert_eq!(disassemble_word(w, 0x40), format!("{t};"));
    }
    let unlisted = ROWS
        .iter()
        .filter(|r| matches!(r.source, Source::AsfermiOnly(_)))
        .count();
    assert_eq!(unlisted, OPCODE_MAP.len());
}

#[test]
fn float_literals_become_the_high_bits() {
    let asm = |t: &str| assemble_text(t, 0, &no_labels);
    // 1.0f = 0x3f800000: the composite holds its top 20 bits.
    assert_eq!(asm("FADD R0, R1, 1.0"), asm("FADD R0, R1, 0x3f800"));
    assert_eq!(
        asm("FSETP.NEU.AND P0, pt, R4, -1.0, pt"),
        asm("FSETP.NEU.AND P0, pt, R4, -0x3f800, pt")
    );
    // 1.0 as a double = 0x3ff0000000000000: top 20 bits 0x3ff00.
    assert_eq!(asm("DADD R0, R2, 1.0"), asm("DADD R0, R2, 0x3ff00"));
    // A 32-bit immediate holds the whole single.
    assert_eq!(
        asm("FADD32I R1, R2, 1.5"),
        asm("FADD32I R1, R2, 0x3fc00000")
    );
    let e = asm("FADD R0, R1, 0.1").unwrap_err();
    assert!(e.message.contains("high bits"), "{}", e.message);
    // A 32-bit field takes the nearest single (0.1f = 0x3dcccccd).
    assert_eq!(
        asm("FADD32I R1, R2, 0.1"),
        asm("FADD32I R1, R2, 0x3dcccccd")
    );
    // Integer instructions take no float literal.
    assert!(asm("IADD R0, R1, 1.0").is_err());
}

#[test]
fn instructions_build_from_typed_operands() {
    use fermi::isa::{build, Guard};
    let always = Guard::ALWAYS;
    let i = build(
        "ISETP.LT.U32.AND",
        always,
        &[p(0), p(7), r(14), r(19), p(7)],
    )
    .unwrap();
    assert_eq!(encode(&i), 0x4ce1dc03188e0000);
    let g = Guard {
        pred: Pred::new(1).unwrap(),
        not: false,
    };
    let i = build("BRA", g, &[Operand::Target(0x230 - 0x498)]).unwrap();
    assert_eq!(encode(&i), 0x600005e74003fff6);
    // Wrong shapes, ranges, modifiers and guards are refused.
    assert!(build("IADD", always, &[r(1), r(2)]).is_err());
    assert!(build("IADD", always, &[r(1), p(2), r(3)]).is_err());
    assert!(build("ISCADD", always, &[r(1), r(2), r(3), Operand::Imm(32)]).is_err());
    assert!(build("ISETP.AND", always, &[p(0), p(7), r(14), r(19), p(7)]).is_err());
    assert!(build("SSY", g, &[Operand::Target(0)]).is_err());
    assert!(build("MOV", always, &[not(p(1)), r(2)]).is_err());
}

#[test]
fn legacy_dialect_omits_the_wrap_modifier() {
    use fermi::isa::{assemble_text_with, disassemble_word_with, Dialect};
    // The same word in two listing files: sort_isa_count.isa (older cuobjdump) and
    // sort_isa_sort_128_8_index_simple.isa.
    let w = 0x09c71c036000c000;
    assert_eq!(disassemble_word(w, 0), "SHL.W R28, R28, 0x2;");
    assert_eq!(
        disassemble_word_with(w, 0, Dialect::Legacy),
        "SHL R28, R28, 0x2;"
    );
    assert_eq!(
        assemble_text_with("SHL R28, R28, 0x2;", 0, &no_labels, Dialect::Legacy),
        Ok(w)
    );
    // In the current dialect the unmarked form is the clamping one (bit 9 set).
    let clamp = assemble_text("SHL R28, R28, 0x2;", 0, &no_labels).unwrap();
    assert_eq!(clamp.rotate_left(32) ^ w.rotate_left(32), 1 << 9);
}

#[test]
fn explain_lists_every_bit_once() {
    use fermi::isa::explain;
    let fields = explain(0x4ce1dc03188e0000, 0x188).unwrap();
    let all = fields.iter().fold(0u64, |a, f| {
        assert_eq!(a & f.mask, 0, "{} overlaps", f.what);
        a | f.mask
    });
    assert_eq!(all, u64::MAX);
    let cmp = fields.iter().find(|f| f.what == "comparison").unwrap();
    assert_eq!(cmp.mask, 0b111 << 55);
    assert_eq!(cmp.text, "1 = .LT");
    let op = fields.iter().find(|f| f.what == "operand 2").unwrap();
    assert_eq!((op.mask, op.text.as_str()), (0x3f << 20, "R14"));
    assert!(explain(0xffff_ffff_ffff_ffff, 0).is_err());
}

#[test]
fn newtypes_refuse_out_of_range_values() {
    assert_eq!(Gpr::new(62).map(Gpr::index), Some(62));
    assert_eq!(Gpr::new(63), Some(Gpr::RZ));
    assert_eq!(Gpr::new(64), None);
    assert_eq!(Pred::new(7), Some(Pred::PT));
    assert_eq!(Pred::new(8), None);
    // 20 bits sign-extended: -2^19 ..= 2^19 - 1.
    assert_eq!(Imm20::new(-(1 << 19)).map(Imm20::value), Some(-(1 << 19)));
    assert_eq!(
        Imm20::new((1 << 19) - 1).map(Imm20::value),
        Some((1 << 19) - 1)
    );
    assert_eq!(Imm20::new(1 << 19), None);
    assert_eq!(Imm20::new(-(1 << 19) - 1), None);
    assert_eq!(CBank::new(15, 0xffff).map(|c| c.bank), Some(15));
    assert_eq!(CBank::new(16, 0), None);
}

#[test]
fn po_replaces_two_minus_signs() {
    // Spec page, IADD: "when the negative operator is used on both reg1 and reg3, a .PO
    // modifier would appear in the cubin instead".
    let both = assemble_text("IADD.PO R0, R1, R2", 0, &no_labels).unwrap();
    let plain = assemble_text("IADD R0, R1, R2", 0, &no_labels).unwrap();
    assert_eq!(both.rotate_left(32) ^ plain.rotate_left(32), 3 << 8);
    assert_eq!(disassemble_word(both, 0), "IADD.PO R0, R1, R2;");
    // Spelled with two minus signs it is the same word.
    assert_eq!(assemble_text("IADD R0, -R1, -R2", 0, &no_labels), Ok(both));
    assert!(assemble_text("IADD.PO R0, -R1, R2", 0, &no_labels).is_err());
    // IMAD: reg1 and reg3.
    let w = assemble_text("IMAD.PO R0, R1, R2, R3", 0, &no_labels).unwrap();
    assert_eq!(disassemble_word(w, 0), "IMAD.PO R0, R1, R2, R3;");
    // Float instructions have no .PO.
    assert!(assemble_text("FADD.PO R0, R1, R2", 0, &no_labels).is_err());
    assert_eq!(
        disassemble_word(
            assemble_text("FADD R0, -R1, -R2", 0, &no_labels).unwrap(),
            0
        ),
        "FADD R0, -R1, -R2;"
    );
}

#[test]
fn video_sub_word_selects_print_on_their_operands() {
    // Spec page, VADD: "mod3 2:4" (bits 44-46) is the first source's size and select
    // (1-3 = 8-bit .B1-.B3, 5 = 16-bit .H1); "composite 7:9" (bits 32-34) the second's.
    let base = assemble_text("VADD.UD.U8.U8.ACC R0, R1, R2, R3", 0, &no_labels).unwrap();
    let b1 = assemble_text("VADD.UD.U8.U8.ACC R0, R1.B1, R2, R3", 0, &no_labels).unwrap();
    assert_eq!(b1.rotate_left(32) ^ base.rotate_left(32), 1 << 44);
    let b3 = assemble_text("VADD.UD.U8.U8.ACC R0, R1, R2.B3, R3", 0, &no_labels).unwrap();
    assert_eq!(b3.rotate_left(32) ^ base.rotate_left(32), 3 << 32);
    let h1 = assemble_text("VADD.UD.U16.S16.ACC R0, R1.H1, R2.H1, R3", 0, &no_labels).unwrap();
    assert_eq!(
        disassemble_word(h1, 0),
        "VADD.UD.U16.S16.ACC R0, R1.H1, R2.H1, R3;"
    );
    assert_eq!(
        disassemble_word(b1, 0),
        "VADD.UD.U8.U8.ACC R0, R1.B1, R2, R3;"
    );
    // A select must agree with its source's size, and needs the types written.
    assert!(assemble_text("VADD.UD.U32.U32.ACC R0, R1.B1, R2, R3", 0, &no_labels).is_err());
    assert!(assemble_text("VADD.UD.U8.U8.ACC R0, R1.H1, R2, R3", 0, &no_labels).is_err());
    assert!(assemble_text("VADD.ACC R0, R1.B1, R2, R3", 0, &no_labels).is_err());
    // The immediate form takes a select on its register source only.
    let w = assemble_text("VSHR.UD.U8.U8.ACC R0, R1.B2, 0x5, R3", 0, &no_labels).unwrap();
    assert_eq!(
        disassemble_word(w, 0),
        "VSHR.UD.U8.U8.ACC R0, R1.B2, 0x5, R3;"
    );
}
