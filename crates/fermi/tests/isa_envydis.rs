//! P2R, R2P, VABSDIFF and VSET, the rows whose layout rests on envytools' Fermi disassembler
//! (`envydis/gf100.c`): the words are built here from envydis' table entries
//! (`0x3000000000000004` / `0x3400000000000004` under the mask `0xfc00000000000007`, `DST` at
//! 14, `SRC1` at 20, the composite `is2` at 26–47, `high5` at bit 5, guard at 10–13), and each
//! must decode to the text, print it, and assemble back to the same word. The text is that of
//! later cuobjdump (`P2R R0, PR, RZ, 0x7f`); no sm_20 listing shows either instruction.

use fermi::isa::{assemble_text, decode, disassemble_word, Source, ROWS};

const P2R: u64 = 0x3000_0000_0000_0004;
const R2P: u64 = 0x3400_0000_0000_0004;
const PT_GUARD: u64 = 7 << 10;

fn at(bit: u32, v: u64) -> u64 {
    v << bit
}

/// `is2` as a 20-bit immediate (selector 3) or a register (selector 0).
fn imm(v: u64) -> u64 {
    at(26, v) | at(46, 3)
}

/// envydis writes a word as one little-endian 64-bit value (bit 0 = bit 0 of the first 32-bit
/// half); cuobjdump prints the first half in the high 32 bits.
fn check(text: &str, bits: u64) {
    let word = bits.rotate_left(32);
    let inst = decode(word).unwrap_or_else(|e| panic!("{word:#018x}: {e}"));
    assert_eq!(
        disassemble_word(word, 0),
        format!("{text};"),
        "{word:#018x}"
    );
    let back = assemble_text(&format!("{text};"), 0, &|_| None).unwrap();
    assert_eq!(back, word, "{text}");
    assert!(matches!(inst.row.source, Source::Envydis(_)));
}

#[test]
fn p2r_and_r2p_words_from_envydis_entries() {
    check(
        "P2R R0, PR, RZ, 0x7f",
        P2R | PT_GUARD | at(20, 63) | imm(0x7f),
    );
    check(
        "P2R R5, PR, R3, 0xf07f",
        P2R | PT_GUARD | at(14, 5) | at(20, 3) | imm(0xf07f),
    );
    check(
        "@!P2 P2R.HIGH R5, PR, R3, R9",
        P2R | at(10, 2 | 8) | at(5, 1) | at(14, 5) | at(20, 3) | at(26, 9),
    );
    check("R2P PR, R4, 0x7f", R2P | PT_GUARD | at(20, 4) | imm(0x7f));
    check(
        "@P1 R2P PR, R4, c [0x2] [0x10]",
        R2P | at(10, 1) | at(20, 4) | at(26, 0x10) | at(42, 2) | at(46, 1),
    );
    // Another opcode in the same group (0xe: not P2R/R2P) does not decode as either.
    let other = decode(0x3800_0000_0000_1c04u64.rotate_left(32)).map(|i| i.mnemonic().to_string());
    assert!(!matches!(other.as_deref(), Ok("P2R" | "R2P")));
    assert_eq!(
        ROWS.iter()
            .filter(|r| matches!(r.source, Source::Envydis(_)))
            .count(),
        5
    );
}

/// VABSDIFF and VSET: envydis' entries (`0xd000000000000004` / `0xd800000000000004` under
/// `0xf800000000000007`) with `DST` at 14, `SRC1` at 20, `SRC2` at 26, `SRC3` at 49, the
/// register-source bit 47 of the listed VADD/VMNMX, the secondary operation at 55–57 (7:
/// none), VSET's comparison at 7–9 (`tabvsetop`: 1 lt … 6 ge) and VABSDIFF's `.SAT` at 9.
#[test]
fn vabsdiff_and_vset_words_from_envydis_entries() {
    const VABSDIFF: u64 = 0xd000_0000_0000_0004;
    const VSET: u64 = 0xd800_0000_0000_0004;
    let regs = |d: u64, a: u64, b: u64, c: u64| at(14, d) | at(20, a) | at(26, b) | at(49, c);
    // Both sources S32 (signed: bits 6 and 5; size code 6 at 44–46 and 32–34), signed
    // destination (bit 42 set).
    let s32 = at(6, 1) | at(44, 6) | at(5, 1) | at(32, 6);
    let reg_form = at(47, 1);
    let none = at(55, 7);
    check(
        "VABSDIFF R2, R3, R4, RZ",
        VABSDIFF | PT_GUARD | reg_form | s32 | at(42, 1) | none | regs(2, 3, 4, 63),
    );
    check(
        "VABSDIFF.UD.SAT.ACC R2, R3, R4, R5",
        VABSDIFF | PT_GUARD | reg_form | s32 | at(9, 1) | at(55, 4) | regs(2, 3, 4, 5),
    );
    for (k, cmp) in [
        (1, "LT"),
        (2, "EQ"),
        (3, "LE"),
        (4, "GT"),
        (5, "NE"),
        (6, "GE"),
    ] {
        check(
            &format!("VSET.{cmp} R7, R8, R9, RZ"),
            VSET | PT_GUARD | reg_form | s32 | at(7, k) | none | regs(7, 8, 9, 63),
        );
    }
    check(
        "@P3 VSET.GE.MIN R7, R8, R9, R10",
        VSET | at(10, 3) | reg_form | s32 | at(7, 6) | at(55, 5) | regs(7, 8, 9, 10),
    );
}

/// `.CC` on LOP, LOP32I, IMNMX, ISET, SHL and SHR: envydis' `acout30` (bit 48; `acout3a`, bit
/// 58, for LOP32I) on the listed forms. Each `.CC` text assembles to the listed form's word
/// with that one bit set, and decodes back to the text.
#[test]
fn cc_destinations_from_envydis_on_listed_rows() {
    for (plain, cc, bit) in [
        ("LOP.AND R2, R3, R4", "LOP.AND R2.CC, R3, R4", 48),
        ("LOP32I.OR R2, R3, 0x7", "LOP32I.OR R2.CC, R3, 0x7", 58),
        (
            "IMNMX.U32 R2, R3, R4, pt",
            "IMNMX.U32 R2.CC, R3, R4, pt",
            48,
        ),
        (
            "ISET.LT.AND R2, R3, R4, pt",
            "ISET.LT.AND R2.CC, R3, R4, pt",
            48,
        ),
        ("SHL.W R2, R3, 0x1", "SHL.W R2.CC, R3, 0x1", 48),
        ("SHR.U32 R2, R3, 0x1", "SHR.U32 R2.CC, R3, 0x1", 48),
    ] {
        let w = assemble_text(&format!("{plain};"), 0, &|_| None).unwrap();
        let bits = w.rotate_left(32) | 1 << bit;
        check_listed(cc, bits);
    }
}

fn check_listed(text: &str, bits: u64) {
    let word = bits.rotate_left(32);
    decode(word).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(disassemble_word(word, 0), format!("{text};"));
    assert_eq!(
        assemble_text(&format!("{text};"), 0, &|_| None).unwrap(),
        word
    );
}

/// PMEVENT: envydis' `pmevent` entry (`0x4004000000000004` under `0xfc04000000000007`: NOP's
/// word with bit 50 set), the event mask `PM` at 26–41, the condition code at 5–9 (`.T`,
/// 15, as NVIDIA's NOPs carry it, omitted in the text).
#[test]
fn pmevent_words_from_the_envydis_entry() {
    const PMEVENT: u64 = 0x4004_0000_0000_0004;
    check("PMEVENT 0x1", PMEVENT | PT_GUARD | at(5, 15) | at(26, 1));
    check(
        "@P3 PMEVENT 0xffff",
        PMEVENT | at(10, 3) | at(5, 15) | at(26, 0xffff),
    );
    // Without bit 50 the word is a NOP.
    let nop = decode((0x4000_0000_0000_0004 | PT_GUARD | at(5, 15)).rotate_left(32)).unwrap();
    assert_eq!(nop.mnemonic(), "NOP");
}
