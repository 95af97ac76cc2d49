//! THE Fermi instruction table. One row per instruction form; encoder, decoder, printer and
//! text parser all read these rows. Templates are written least significant bit first like
//! the asfermi spec page (`spec/asfermi-integer-opcodes.md`), grouped as
//! `op(0-3) mod(4-9) guard(10-13) reg0(14-19) reg1(20-25) composite(26-45) sel(46-47)
//! mod2(48-57) op(58-63)`. Bits under a field are ignored; all other bits are fixed.

use super::mods::*;
use super::schema::*;

const L: Source = Source::Listings;

const fn row(
    name: &'static str,
    template: &'static str,
    mods: &'static [Mod],
    operands: &'static [Opd],
) -> Row {
    Row {
        name,
        template,
        mods,
        operands,
        guarded: true,
        po: false,
        source: L,
    }
}

const fn po(r: Row) -> Row {
    Row { po: true, ..r }
}

const fn unguarded(r: Row) -> Row {
    Row {
        guarded: false,
        ..r
    }
}

const fn spec_page(r: Row) -> Row {
    Row {
        source: Source::SpecPage,
        ..r
    }
}

const fn derived(r: Row, why: &'static str) -> Row {
    Row {
        source: Source::Derived(why),
        ..r
    }
}

const fn asfermi(r: Row, why: &'static str) -> Row {
    Row {
        source: Source::AsfermiOnly(why),
        ..r
    }
}

const fn envydis(r: Row, entry: &'static str) -> Row {
    Row {
        source: Source::Envydis(entry),
        ..r
    }
}

/// A listed row whose `.CC` destination bit (48, or 58 in the 32-bit-immediate form) rests on
/// envydis (`gf100.c`: `acout30` / `acout3a` on `logop`, `minmax`, `set`, `shl`, `shr`); the
/// listings never set it. The row keeps its listing source.
const fn envydis_cc(r: Row) -> Row {
    r
}

const fn mesa(r: Row, function: &'static str) -> Row {
    Row {
        source: Source::Mesa(function),
        ..r
    }
}

/// Destination register with `.CC` at bit 48.
const D48: Opd = reg(14).cc(48);
const D: Opd = reg(14);
const A: Opd = reg(20);
const C: Opd = comp();
/// The constant of the fourth-operand-constant forms (selector fixed at 2).
const K: Opd = cbank();
/// The third register source (bits 49–54).
const R3: Opd = reg(49);
/// The trailing predicate source with `!` at bit 52.
const P3: Opd = pred(49).not(52);
/// A branch's condition code (bits 5–9), left out of the text when `CC.T`.
const CC: Opd = named(5, 5, CC_NAMES).omit(CC_T);
/// BAR's result register, result predicate and predicate source, left out when `RZ`, `pt`,
/// `pt` (Mesa `emitBAR`: 63 << 14, 7 << 53, 7 << 49).
const BAR_RD: Opd = reg(14).omit(63);
const BAR_PD: Opd = pred(53).omit(7);
const BAR_PC: Opd = pred(49).not(52).omit(7);
/// ATOM's result register (Mesa `emitATOM`: `defId(def(0), 32 + 11)`).
const ATOM_RD: Opd = reg(43);
/// CAS's second source register (bits 49–54; RZ for the other operations).
const ATOM_R2: Opd = reg(49).omit(63);
/// CCTL's result register (Mesa `emitCCTL`: `defId(i, 0, 14)`), left out when `RZ`.
const CCTL_RD: Opd = reg(14).omit(63);

#[rustfmt::skip]
pub static ROWS: &[Row] = &[
    // ---- integer ----
    po(row("IADD", "1100 000000 1110 000000 000000 00000000000000000000 00 0000000000 010010", &[SAT5, X], &[D48, A.neg(9), C.neg(8)])),
    spec_page(row("IADD32I", "0100 000000 1110 000000 000000 00000000000000000000 00 0000000000 010000", &[SAT5, X], &[reg(14).cc(58), A, simm(26, 32)])),
    row("IMUL", "1100 010100 1110 000000 000000 00000000000000000000 00 0000000000 001010", &[MUL_TYPES, HI], &[D48, A, C]),
    spec_page(row("IMUL32I", "0100 010100 1110 000000 000000 00000000000000000000 00 0000000000 001000", &[MUL_TYPES, HI], &[reg(14).cc(58), A, simm(26, 32)])),
    po(row("IMAD", "1100 010100 1110 000000 000000 00000000000000000000 00 0000000000 000100", &[MUL_TYPES, HI, SAT56], &[D48, A.neg(9), C, R3.neg(8)])),
    po(mesa(row("IMAD", "1100 010100 1110 000000 000000 00000000000000000000 01 0000000000 000100", &[MUL_TYPES, HI, SAT56], &[D48, A.neg(9), R3, K.neg(8)]), CONST4)),
    po(row("ISCADD", "1100 000000 1110 000000 000000 00000000000000000000 00 0000000000 000010", &[], &[D48, A.neg(56), C.neg(55), uimm(5, 5)])),
    row("ISETP", "1100 010000 1110 111000 000000 00000000000000000000 00 0111000000 011000", &[ICMP_OP, U32, X, LOGIC], &[pred(17), pred(14), A, C, P3]),
    row("ICMP", "1100 010000 1110 000000 000000 00000000000000000000 00 0000000000 001100", &[ICMP_OP, U32], &[D, A, C, R3]),
    envydis_cc(row("ISET", "1100 010000 1110 000000 000000 00000000000000000000 00 0111000000 001000", &[ICMP_OP, U32, X, LOGIC], &[D48, A, C, P3])),
    envydis_cc(row("IMNMX", "1100 010000 1110 000000 000000 00000000000000000000 00 0111000000 010000", &[U32], &[D48, A, C, P3])),
    envydis_cc(row("LOP", "1100 000000 1110 000000 000000 00000000000000000000 00 0000000000 010110", &[LOP_OP], &[D48, A.not(9), C.not(8)])),
    envydis_cc(row("LOP32I", "0100 000000 1110 000000 000000 00000000000000000000 00 0000000000 011100", &[LOP_OP], &[reg(14).cc(58), A.not(9), simm(26, 32)])),
    envydis_cc(row("SHL", "1100 000001 1110 000000 000000 00000000000000000000 00 0000000000 000110", &[WRAP], &[D48, A, C])),
    envydis_cc(row("SHR", "1100 010000 1110 000000 000000 00000000000000000000 00 0000000000 011010", &[U32, WRAP], &[D48, A, C])),
    row("BFE", "1100 010000 1110 000000 000000 00000000000000000000 00 0000000000 001110", &[U32], &[D, A, C]),
    row("BFI", "1100 000000 1110 000000 000000 00000000000000000000 00 0000000000 010100", &[], &[D, A, C, R3]),
    row("SEL", "0010 000000 1110 000000 000000 00000000000000000000 00 0000000000 000100", &[], &[D, A, C, P3]),
    row("POPC", "0010 000000 1110 000000 000000 00000000000000000000 00 0000000000 101010", &[], &[D, A.not(9), C.not(8)]),
    row("FLO", "1100 010000 1110 000000 000000 00000000000000000000 00 0000000000 011110", &[U32], &[D, C.not(8)]),
    row("PRMT", "0010 000000 1110 000000 000000 00000000000000000000 00 0000000000 100100", &[PRMT_MODE], &[D, A, C, R3]),
    // ---- moves, special registers, predicates ----
    row("MOV", "0010 000000 1110 000000 000000 00000000000000000000 00 0000000000 010100", &[], &[D, C, uimm(5, 4).omit(0xf)]),
    row("MOV32I", "0100 011110 1110 000000 000000 00000000000000000000 00 0000000000 011000", &[], &[D, simm(26, 32)]),
    row("S2R", "0010 000000 1110 000000 000000 00000000000000000000 00 0000000000 110100", &[], &[D, sreg()]),
    row("VOTE", "0010 000000 1110 000000 000000 00000000000000000000 00 0000000000 010010", &[VOTE_MODE], &[D, pred(54).not(57), pred(20).not(23)]),
    row("PSETP", "0010 000000 1110 111000 000000 00000000000000000000 00 0000000000 110000", &[LOGIC1, LOGIC], &[pred(17), pred(14), P3, pred(26).not(29), pred(20).not(23)]),
    row("PSET", "0010 000000 1110 000000 000000 00000000000000000000 00 0000000000 010000", &[LOGIC1, LOGIC], &[D, P3, pred(26).not(29), pred(20).not(23)]),
    row("BAR", "0010 000000 1110 000000 000000 00000000000000000000 00 0000000000 001010", &[BAR_OP], &[BAR_RD, BAR_PD, A, reg(26), BAR_PC]),
    mesa(row("BAR", "0010 000000 1110 000000 000000 00000000000000000000 01 0000000000 001010", &[BAR_OP], &[BAR_RD, BAR_PD, uimm(20, 6), reg(26), BAR_PC]), "emitBAR"),
    mesa(row("BAR", "0010 000000 1110 000000 000000 00000000000000000000 10 0000000000 001010", &[BAR_OP], &[BAR_RD, BAR_PD, A, uimm(26, 12), BAR_PC]), "emitBAR"),
    mesa(row("BAR", "0010 000000 1110 000000 000000 00000000000000000000 11 0000000000 001010", &[BAR_OP], &[BAR_RD, BAR_PD, uimm(20, 6), uimm(26, 12), BAR_PC]), "emitBAR"),
    // ---- float ----
    row("FADD", "0000 000000 1110 000000 000000 00000000000000000000 00 0000000000 001010", &[FTZ, FRND, SAT49], &[D, A.neg(9).abs(7), C.f32().neg(8).abs(6)]),
    row("FMUL", "0000 000000 1110 000000 000000 00000000000000000000 00 0000000000 011010", &[FTZ6, FRND, SAT5], &[D, A, C.f32().neg(57)]),
    row("FFMA", "0000 000000 1110 000000 000000 00000000000000000000 00 0000000000 001100", &[FTZ6, FRND, SAT5], &[D, A, C.f32().neg(9), R3.neg(8)]),
    mesa(row("FFMA", "0000 000000 1110 000000 000000 00000000000000000000 01 0000000000 001100", &[FTZ6, FRND, SAT5], &[D, A, R3.neg(9), K.neg(8)]), CONST4),
    row("FSETP", "0000 000000 1110 000000 000000 00000000000000000000 00 0111000000 000100", &[FCMP_OP, FTZ59, LOGIC], &[pred(17), pred(14), A.neg(9).abs(7), C.f32().neg(8).abs(6), P3]),
    row("DADD", "1000 000000 1110 000000 000000 00000000000000000000 00 0000000000 010010", &[FRND], &[D, A.neg(9).abs(7), C.f64().neg(8).abs(6)]),
    row("DMUL", "1000 000000 1110 000000 000000 00000000000000000000 00 0000000000 001010", &[FRND], &[D, A, C.f64().neg(57)]),
    row("DFMA", "1000 000000 1110 000000 000000 00000000000000000000 00 0000000000 000100", &[FRND], &[D, A, C.f64().neg(9), R3.neg(8)]),
    mesa(row("DFMA", "1000 000000 1110 000000 000000 00000000000000000000 01 0000000000 000100", &[FRND], &[D, A, R3.neg(9), K.neg(8)]), CONST4),
    row("I2F", "0010 000000 1110 000000 000000 00000000000000000000 00 0000000000 011000", &[CVT_DST_FLT, CVT_SRC_INT, CVT_RND], &[D, C.neg(8).abs(6)]),
    row("I2I", "0010 000000 1110 000000 000000 00000000000000000000 00 0000000000 111000", &[CVT_DST_INT, CVT_SRC_INT, SAT5], &[D, C.neg(8).abs(6)]),
    // ---- memory ----
    row("LD", "1010 000000 1110 000000 000000 00000000000000000000 00 0000000000 000001", &[E64, CACHE, MEM_TYPE], &[D, mem(32)]),
    row("LDU", "1010 000000 1110 000000 000000 00000000000000000000 00 0000000000 010001", &[CACHE, MEM_TYPE], &[D, mem(32)]),
    row("LDL", "1010 000000 1110 000000 000000 00000000000000000000 00 0000000000 000011", &[LCACHE, MEM_TYPE], &[D, mem(24)]),
    row("LDS", "1010 000000 1110 000000 000000 00000000000000000000 00 0000000010 000011", &[MEM_TYPE], &[D, mem(24)]),
    row("ST", "1010 000000 1110 000000 000000 00000000000000000000 00 0000000000 001001", &[E64, STCACHE, MEM_TYPE], &[mem(32), D]),
    row("STL", "1010 000000 1110 000000 000000 00000000000000000000 00 0000000000 010011", &[LCACHE, MEM_TYPE], &[mem(24), D]),
    row("STS", "1010 000000 1110 000000 000000 00000000000000000000 00 0000000010 010011", &[MEM_TYPE], &[mem(24), D]),
    row("LDC", "0110 000000 1110 000000 000000 00000000000000000000 00 0000000000 101000", &[LDC_MODE, MEM_TYPE], &[D, cmem()]),
    row("RED", "1010 000000 1110 000000 000000 00000000000000000000 00 0000000000 001000", &[E64, RED_OP, ATOM_U32], &[mem(32), D]),
    mesa(row("RED", "1010 000001 1110 000000 000000 00000000000000000000 00 0000000000 011000", &[E64, ATOM_OP_S32, ATOM_S32], &[mem(32), D]), "emitATOM"),
    mesa(row("RED", "1010 000001 1110 000000 000000 00000000000000000000 00 0000000000 001000", &[E64, ATOM_OP_ADD, ATOM_U64], &[mem(32), D]), "emitATOM"),
    mesa(row("RED", "1010 000001 1110 000000 000000 00000000000000000000 00 0000000000 010100", &[E64, ATOM_OP_ADD, ATOM_F32], &[mem(32), D]), "emitATOM"),
    mesa(row("ATOM", "1010 000000 1110 000000 000000 00000000000000000000 00 0000000000 001010", &[E64, ATOM_OP, ATOM_U32], &[ATOM_RD, atom_mem(), D, ATOM_R2]), "emitATOM"),
    mesa(row("ATOM", "1010 000001 1110 000000 000000 00000000000000000000 00 0000000000 011010", &[E64, ATOM_OP_S32, ATOM_S32], &[ATOM_RD, atom_mem(), D, ATOM_R2]), "emitATOM"),
    mesa(row("ATOM", "1010 000001 1110 000000 000000 00000000000000000000 00 0000000000 001010", &[E64, ATOM_OP_U64, ATOM_U64], &[ATOM_RD, atom_mem(), D, ATOM_R2]), "emitATOM"),
    mesa(row("ATOM", "1010 000001 1110 000000 000000 00000000000000000000 00 0000000000 010110", &[E64, ATOM_OP_ADD, ATOM_F32], &[ATOM_RD, atom_mem(), D, ATOM_R2]), "emitATOM"),
    mesa(row("LDSLK", "1010 000000 1110 000000 000000 00000000000000000000 00 0000000000 100011", &[MEM_TYPE], &[pred(50), D, mem(24)]), "emitLOAD (NV50_IR_SUBOP_LOAD_LOCKED)"),
    mesa(row("STSUL", "1010 000000 1110 000000 000000 00000000000000000000 00 0000000000 110011", &[MEM_TYPE], &[mem(24), D]), "emitSTORE (NV50_IR_SUBOP_STORE_UNLOCKED)"),
    mesa(row("CCTL", "1010 000000 1110 000000 000000 00000000000000000000 00 0000000000 011001", &[E64, CCTL_OP], &[CCTL_RD, mem_words(28, 30)]), "emitCCTL"),
    mesa(row("CCTLL", "1010 000000 1110 000000 000000 00000000000000000000 00 0000000000 001011", &[CCTL_OP], &[CCTL_RD, mem(24)]), "emitCCTL"),
    row("TLD", "0110 000000 1110 000000 000000 00000000000000000000 00 0000000000 001001", &[TLD_LOD, TEX_AOFFI, TEX_MS, TEX_DC, TEX_NODEP, TEX_MODE], &[D, A, reg(26).omit(63), uimm(32, 8), named(51, 3, TEX_DIMS), uimm(46, 4)]),
    // ---- video ----
    po(row("VADD", "0010 000000 1110 000000 000000 00000000000000000000 01 0000000000 000011", &[VIDEO_UD, VIDEO_TYPES, SAT9, VIDEO_OP], &[D48, A.neg(8), reg(26).neg(7), R3])),
    derived(row("VADD", "0010 000000 1110 000000 000000 00000000000000000000 00 0000000000 000011", &[VIDEO_UD, VIDEO_TYPES_IMM, SAT9, VIDEO_OP], &[D48, A.neg(8), uimm(26, 16), R3]), VIDEO_IMM),
    row("VSHL", "0010 000000 1110 000000 000000 00000000000000000000 01 0000000000 010111", &[VIDEO_UD, VIDEO_TYPES, WRAP, VIDEO_OP], &[D48, A, reg(26), R3]),
    derived(row("VSHL", "0010 000000 1110 000000 000000 00000000000000000000 00 0000000000 010111", &[VIDEO_UD, VIDEO_TYPES_IMM, WRAP, VIDEO_OP], &[D48, A, uimm(26, 16), R3]), VIDEO_IMM),
    derived(row("VSHR", "0010 000000 1110 000000 000000 00000000000000000000 01 0000000000 000111", &[VIDEO_UD, VIDEO_TYPES, WRAP, VIDEO_OP], &[D48, A, reg(26), R3]), VIDEO_REG),
    row("VSHR", "0010 000000 1110 000000 000000 00000000000000000000 00 0000000000 000111", &[VIDEO_UD, VIDEO_TYPES_IMM, WRAP, VIDEO_OP], &[D48, A, uimm(26, 16), R3]),
    row("VMNMX", "0010 000000 1110 000000 000000 00000000000000000000 01 0000000000 010011", &[VIDEO_UD, VIDEO_TYPES, VIDEO_MX, VIDEO_OP], &[D48, A, reg(26), R3]),
    derived(row("VMNMX", "0010 000000 1110 000000 000000 00000000000000000000 00 0000000000 010011", &[VIDEO_UD, VIDEO_TYPES_IMM, VIDEO_MX, VIDEO_OP], &[D48, A, uimm(26, 16), R3]), VIDEO_IMM),
    envydis(row("VABSDIFF", "0010 000000 1110 000000 000000 00000000000000000000 01 0000000000 001011", &[VIDEO_UD, VIDEO_TYPES, SAT9, VIDEO_OP], &[D48, A, reg(26), R3]), VABSDIFF_ENVYDIS),
    envydis(row("VSET", "0010 000000 1110 000000 000000 00000000000000000000 01 0000000000 011011", &[VIDEO_TYPES, VSET_CMP, VIDEO_OP], &[D48, A, reg(26), R3]), VSET_ENVYDIS),
    // ---- control flow ----
    // The indirect form first: when neither parses, the relative form (later) explains.
    mesa(row("BRA", "1110 000000 1110 100000 000000 00000000000000000000 00 0000000000 000010", &[UNIFORM], &[CC, cmem()]), "emitFlow (indirect OP_BRA)"),
    row("BRA", "1110 000000 1110 000000 000000 00000000000000000000 00 0000000000 000010", &[UNIFORM], &[CC, target(24)]),
    row("EXIT", "1110 000000 1110 000000 000000 00000000000000000000 00 0000000000 000001", &[], &[CC]),
    row("BRK", "1110 000000 1110 000000 000000 00000000000000000000 00 0000000000 010101", &[], &[CC]),
    unguarded(row("SSY", "1110 000000 0000 000000 000000 00000000000000000000 00 0000000000 000110", &[], &[target(24)])),
    unguarded(row("PBK", "1110 000000 0000 000000 000000 00000000000000000000 00 0000000000 010110", &[], &[target(24)])),
    row("NOP", "0010 000000 1110 000000 000000 00000000000000000000 00 0000000000 000010", &[], &[named(5, 5, CC_NAMES)]),
    envydis(row("PMEVENT", "0010 000000 1110 000000 000000 00000000000000000000 00 0010000000 000010", &[], &[CC, uimm(26, 16)]), PMEVENT_ENVYDIS),
    // ---- not in the listings: asfermi's opcodes, same field layout as their listed siblings ----
    asfermi(row("JMP", "1110 000000 1110 000000 000000 00000000000000000000 00 0000000000 000000", &[UNIFORM], &[CC, abs_target(32)]), JMP_PAGE),
    asfermi(unguarded(row("CAL", "1110 000000 0000 001000 000000 00000000000000000000 00 0000000000 001010", &[NOINC16], &[target(24)])), CAL_PAGE),
    asfermi(unguarded(row("JCAL", "1110 000000 0000 001000 000000 00000000000000000000 00 0000000000 001000", &[NOINC16], &[abs_target(32)])), JCAL_PAGE),
    asfermi(unguarded(row("PRET", "1110 000000 0000 000000 000000 00000000000000000000 00 0000000000 011110", &[], &[target(24)])), UNSEEN),
    asfermi(unguarded(row("PCNT", "1110 000000 0000 000000 000000 00000000000000000000 00 0000000000 001110", &[], &[target(24)])), UNSEEN),
    asfermi(unguarded(row("PLONGJMP", "1110 000000 0000 000000 000000 00000000000000000000 00 0000000000 011010", &[], &[target(24)])), UNSEEN),
    asfermi(row("RET", "1110 000000 1110 000000 000000 00000000000000000000 00 0000000000 001001", &[], &[CC]), UNSEEN),
    asfermi(row("CONT", "1110 000000 1110 000000 000000 00000000000000000000 00 0000000000 001101", &[], &[CC]), UNSEEN),
    asfermi(row("LONGJMP", "1110 011110 1110 000000 000000 00000000000000000000 00 0000000000 010001", &[], &[]), UNSEEN),
    asfermi(row("BRX", "1110 011110 1110 000000 000000 00000000000000000000 00 0000000000 100010", &[], &[A, simm(26, 24)]), UNSEEN),
    derived(row("BRX", "1110 000000 1110 100000 000000 00000000000000000000 00 0000000000 100010", &[], &[CC, cmem()]), BRX_CONST),
    asfermi(row("BPT", "1110 000000 1110 000000 000000 00000000000000000000 00 0000000000 001011", &[BPT_OP], &[uimm(26, 20)]), UNSEEN),
    asfermi(row("FADD32I", "0100 000000 1110 000000 000000 00000000000000000000 00 0000000000 010100", &[FTZ], &[D, A.neg(9).abs(7), simm(26, 32).f32()]), UNSEEN),
    asfermi(row("FMUL32I", "0100 000000 1110 000000 000000 00000000000000000000 00 0000000000 001100", &[FTZ6, SAT5], &[D, A, simm(26, 32).f32()]), UNSEEN),
    asfermi(row("MUFU", "0000 000000 1110 000000 000000 00000000000000000000 00 0000000000 010011", &[MUFU_OP, SAT5], &[D, A.neg(9).abs(7)]), UNSEEN),
    asfermi(row("FCMP", "0000 000000 1110 000000 000000 00000000000000000000 00 0000000000 011100", &[FCMP_OP, FTZ], &[D, A, C.f32(), R3]), UNSEEN),
    asfermi(row("DSETP", "1000 000000 1110 000000 000000 00000000000000000000 00 0111000000 011000", &[FCMP_OP, LOGIC], &[pred(17), pred(14), A.neg(9).abs(7), C.f64().neg(8).abs(6), P3]), UNSEEN),
    asfermi(row("F2F", "0010 000000 1110 000000 000000 00000000000000000000 00 0000000000 001000", &[FTZ55, CVT_DST_FLT, CVT_SRC_FLT, F2F_RND, SAT5], &[D, C.neg(8).abs(6)]), UNSEEN),
    asfermi(row("F2I", "0010 000000 1110 000000 000000 00000000000000000000 00 0000000000 101000", &[FTZ55, CVT_DST_INT, CVT_SRC_FLT, CVT_IRND], &[D, C.neg(8).abs(6)]), UNSEEN),
    mesa(row("FMNMX", "0000 000000 1110 000000 000000 00000000000000000000 00 0111000000 010000", &[FTZ], &[D, A.neg(9).abs(7), C.f32().neg(8).abs(6), P3]), "emitMINMAX (F32; MIN/MAX is the predicate source pt/!pt)"),
    mesa(row("DMNMX", "1000 000000 1110 000000 000000 00000000000000000000 00 0111000000 010000", &[], &[D, A.neg(9).abs(7), C.f64().neg(8).abs(6), P3]), "emitMINMAX (F64)"),
    mesa(row("FSET", "0000 000000 1110 000000 000000 00000000000000000000 00 0111000000 001000", &[BF5, FCMP_OP, FTZ59, LOGIC], &[D, A.neg(9).abs(7), C.f32().neg(8).abs(6), P3]), "emitSET (F32 source, register destination)"),
    mesa(row("DSET", "1000 000000 1110 000000 000000 00000000000000000000 00 0111000000 001000", &[BF5, FCMP_OP, LOGIC], &[D, A.neg(9).abs(7), C.f64().neg(8).abs(6), P3]), "emitSET (F64 source, register destination)"),
    mesa(row("RRO", "0000 000000 1110 000000 000000 00000000000000000000 00 0000000000 000110", &[RRO_OP], &[D, C.f32().neg(8).abs(6)]), "emitPreOp (OP_PRESIN / OP_PREEX2)"),
    mesa(row("ISAD", "1100 000000 1110 000000 000000 00000000000000000000 00 0000000000 011100", &[U32], &[D, A, C, R3]), "emitISAD"),
    mesa(row("TEX", "0110 000000 1110 000000 000000 00000000000000000000 00 0000000000 000001", &[TEX_LZ, TEX_AOFFI, TEX_DC, TEX_NODEP, TEX_MODE], &[D, A, reg(26).omit(63), uimm(32, 8), named(51, 3, TEX_DIMS), uimm(46, 4)]), "emitTEX (OP_TEX)"),
    mesa(row("TXQ", "0110 000000 1110 000000 000000 00000000000000000000 00 0000000000 000011", &[TEX_NODEP, TEX_MODE], &[D, A, reg(26).omit(63), uimm(32, 8), named(54, 3, TXQ_QUERY), uimm(46, 4)]), "emitTXQ"),
    asfermi(row("B2R", "0010 000000 1110 000000 000000 00000000000000000000 00 0000000000 011100", &[B2R_OP], &[D, uimm(20, 6)]), "OpcodeExecution.md, B2R template; not in the listings"),
    asfermi(row("LEPC", "0010 000000 1110 000000 000000 00000000000000000000 00 0000000000 100010", &[], &[D]), "OpcodeMiscellaneous.md, LEPC template; LEPC_Test.md reads back 0x00001c0444000000 for `LEPC R0`"),
    asfermi(row("LDLK", "1010 000100 1110 000000 000000 00000000000000000000 00 0000000000 000101", &[MEM_TYPE], &[split_pred(), D, mem(32)]), "OpcodeDataMovement.md, LDLK template (predicate split p_0 at 8-9, p_1 at 58)"),
    asfermi(row("STUL", "1010 000100 1110 000000 000000 00000000000000000000 00 0000000000 010111", &[MEM_TYPE], &[mem(32), D]), "OpcodeDataMovement.md, STUL template"),
    envydis(row("P2R", "0010 000000 1110 000000 000000 00000000000000000000 00 0000000000 001100", &[P2R_HIGH], &[D, text("PR"), A, C]), P2R_ENVYDIS),
    envydis(row("R2P", "0010 000000 1110 000000 000000 00000000000000000000 00 0000000000 101100", &[P2R_HIGH], &[text("PR"), A, C]), R2P_ENVYDIS),
    asfermi(row("MEMBAR", "1010 000000 1110 000000 000000 00000000000000000000 00 0000000000 000111", &[MEMBAR_LEVEL], &[]), UNSEEN),
];

/// The video instructions' immediate form: the spec page's VADD template (mod3 bit 1 clear
/// selects a 16-bit immediate), seen in the listings for VSHR.
const VIDEO_IMM: &str = "immediate form: VADD template of the spec page, as listed for VSHR";
/// The video instructions' register form, as listed for VADD, VSHL and VMNMX.
const VIDEO_REG: &str = "register form: as listed for VADD, VSHL and VMNMX";

/// The three-source forms with the constant in the fourth operand position.
const CONST4: &str = "emitForm_A (constant third source: selector 2, register source at bit 49)";

/// JMP and JCAL as asfermi's page gives them (`OpcodeExecution.md`); the opcodes agree with
/// Mesa's `emitFlow`, whose absolute OP_BRA is `code[1] = 0` and absolute OP_CALL `0x10000000`.
const JMP_PAGE: &str =
    "OpcodeExecution.md, JMP template (.U at mod2 4); = Mesa emitFlow absolute OP_BRA";
const CAL_PAGE: &str = "OpcodeExecution.md, CAL template (.NOINC clears mod2 bit 3); opcode = Mesa emitFlow relative OP_CALL";
const JCAL_PAGE: &str = "OpcodeExecution.md, JCAL template (.NOINC clears mod2 bit 3); = Mesa emitFlow absolute OP_CALL";
/// BRX through a constant bank, the form NVIDIA's listings print as `BRX c [0x10] [R4+0x0]`.
const BRX_CONST: &str = "BRX's opcode with the constant-address bit 14 and c[bank][Rn+offset] \
    layout of the indirect BRA (asfermi BRA/SSY `mod2 5`, Mesa emitFlow `code[0] |= 0x4000`)";

/// Why the asfermi-only rows have no listing vector.
const UNSEEN: &str = "absent from the cuobjdump listings; opcode from asfermi, operand layout \
    that of its listed siblings; unverified against NVIDIA output";

/// P2R and R2P: envydis' `mov $r, [$r or] $flags mask` entries (opcode 0xc and 0xd of the
/// "moving and converting" group, type 4), `$flags` being `P0`–`P6` at bits 0–6 and the
/// condition code at 12–15. The text follows later cuobjdump (`P2R R0, PR, RZ, 0x7f`); no
/// sm_20 listing shows either. Bits 14–19 of R2P, which envydis does not read, are fixed 0.
const P2R_ENVYDIS: &str = "0x3000000000000004 & 0xfc00000000000007: mov DST, SRC1 or [high5] \
    flags mask is2";
const R2P_ENVYDIS: &str = "0x3400000000000004 & 0xfc00000000000007: mov [high5] flags, SRC1 \
    mask is2";

/// VABSDIFF and VSET (register destination): envydis' `vabsdiff` and `vset` entries of the
/// integer group (type 3), in the layout of their listed siblings VADD and VMNMX (opcode
/// bits 59–63; the same source types, destination type and secondary operation fields);
/// VSET's comparison is bits 7–9 (`tabvsetop`) and its result unsigned (bit 42 clear, as
/// VADD's `.UD`). No sm_20 listing shows either instruction.
const VABSDIFF_ENVYDIS: &str = "0xd000000000000004 & 0xf800000000000007: vabsdiff sat9 vdst \
    us32_2a DST acout30 vsrc1 us32_6 SRC1 vsrc2 us32_5 vs2 SRC3";
/// `pmevent`: NOP's word with bit 50 set and the event mask in bits 26–41 (envydis'
/// `pmoff = { 0x1a, 16 }`); asfermi's NOP template has the same 16-bit field at 26. No
/// listing shows NVIDIA's spelling; the mnemonic is PTX's.
const PMEVENT_ENVYDIS: &str = "0x4004000000000004 & 0xfc04000000000007: cc pmevent PM";
const VSET_ENVYDIS: &str = "0xd800000000000004 & 0xf800000000000007: vset vdst DST acout30 \
    vsetop vsrc1 us32_6 SRC1 vsrc2 us32_5 vs2 SRC3";

/// asfermi opcodes this table does not encode, and why.
pub static NOT_SUPPORTED: &[(&str, &str)] = &[];
