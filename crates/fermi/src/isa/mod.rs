//! The Fermi (sm_20/sm_21) instruction table and the four directions derived from it:
//! `encode`, `decode`, `print` (cuobjdump text) and `parse` (cuobjdump/asfermi text of one
//! instruction).
//!
//! Words are 64-bit numbers *as cuobjdump prints them* (`/*0x94001c042c000000*/`); use
//! [`listing_to_bytes`]/[`listing_from_bytes`] for the byte order inside a cubin.

mod bits;
mod compiled;
mod decode;
mod encode;
mod explain;
mod memo;
pub mod mods;
mod parse;
mod print;
pub mod rows;
pub mod schema;
mod sreg;
mod types;

use std::ops::Range;

pub use bits::{listing_from_bytes, listing_to_bytes};

/// A listing word's bits in instruction order (bit 0 is the lowest bit of the first 32-bit word
/// in memory), the numbering of the table's templates and of [`Field::mask`].
pub const fn listing_to_bits(word: u64) -> u64 {
    bits::from_listing(word)
}
pub use decode::decode;
pub use encode::encode;
pub use explain::{explain, Field};
pub use memo::TextAssembler;
pub use rows::ROWS;
pub use schema::{Kind, Mod, Opd, Row, Source};
pub use sreg::SREGS;
pub use types::{CBank, DecodeError, Flags, Gpr, Guard, Imm20, Inst, Operand, Pred};

/// An error assembling one instruction's text. `span` is a byte range within the text given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AsmError {
    pub span: Range<usize>,
    pub message: String,
}

impl std::fmt::Display for AsmError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for AsmError {}

/// Which cuobjdump's spelling to print and accept. The listings come from two versions:
/// the older one printed no `.W` on shifts whatever bit 9 held.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Dialect {
    #[default]
    Current,
    Legacy,
}

/// The cuobjdump text of `inst` at byte address `addr`, without the trailing `;`.
pub fn print(inst: &Inst, addr: u64) -> String {
    print::print_with(inst, addr, Dialect::Current)
}

/// Like [`print()`] in a chosen dialect.
pub fn print_with(inst: &Inst, addr: u64, dialect: Dialect) -> String {
    print::print_with(inst, addr, dialect)
}

/// Parses one instruction's text at byte address `addr` (branch targets are absolute
/// addresses or label names resolved by `labels`).
pub fn parse(
    text: &str,
    addr: u64,
    labels: &dyn Fn(&str) -> Option<u64>,
) -> Result<Inst, AsmError> {
    parse::parse_with(text, addr, labels, Dialect::Current)
}

/// Like [`parse`] in a chosen dialect.
pub fn parse_with(
    text: &str,
    addr: u64,
    labels: &dyn Fn(&str) -> Option<u64>,
    dialect: Dialect,
) -> Result<Inst, AsmError> {
    parse::parse_with(text, addr, labels, dialect)
}

/// Builds an instruction from its mnemonic with modifiers as printed (`"ISETP.LT.U32.AND"`)
/// and typed operands in print order; checks the modifiers, operand shapes and ranges.
pub fn build(opcode: &str, guard: Guard, operands: &[Operand]) -> Result<Inst, AsmError> {
    parse::build(opcode, guard, operands)
}

/// The marker printed for a word that does not decode.
pub const INVALID: &str = "INVALID";

/// The cuobjdump text of one 64-bit word at byte address `addr`, exactly as `cuobjdump -sass`
/// prints it after the word column, including the trailing `;` (e.g. `@P0 BRA 0xa8;`).
/// A word that does not decode yields `INVALID 0x…;`, never a panic.
pub fn disassemble_word(word: u64, addr: u64) -> String {
    disassemble_word_with(word, addr, Dialect::Current)
}

/// Like [`disassemble_word`] in a chosen dialect.
pub fn disassemble_word_with(word: u64, addr: u64, dialect: Dialect) -> String {
    match decode(word) {
        Ok(inst) => {
            let mut s = print::print_with(&inst, addr, dialect);
            s.push(';');
            s
        }
        Err(_) => format!("{INVALID} 0x{word:016x};"),
    }
}

/// Assembles one instruction's text (as cuobjdump prints it; trailing `;` optional) at byte
/// address `addr`. `labels` resolves a label name used as a branch target to its address.
/// `INVALID 0x…` (what the disassembler prints for an undecodable word) assembles to that word.
pub fn assemble_text(
    text: &str,
    addr: u64,
    labels: &dyn Fn(&str) -> Option<u64>,
) -> Result<u64, AsmError> {
    assemble_text_with(text, addr, labels, Dialect::Current)
}

/// Like [`assemble_text`] in a chosen dialect.
pub fn assemble_text_with(
    text: &str,
    addr: u64,
    labels: &dyn Fn(&str) -> Option<u64>,
    dialect: Dialect,
) -> Result<u64, AsmError> {
    if let Some(raw) = raw_word(text) {
        return Ok(raw);
    }
    parse::parse_with(text, addr, labels, dialect).map(|i| encode(&i))
}

fn raw_word(text: &str) -> Option<u64> {
    let rest = text.trim().strip_prefix(INVALID)?.trim();
    let rest = rest.strip_suffix(';').unwrap_or(rest).trim();
    let hex = rest.strip_prefix("0x")?;
    if hex.len() != 16 {
        return None;
    }
    u64::from_str_radix(hex, 16).ok()
}

/// Whether `inst` transfers or records a code address (BRA, SSY, PBK, CAL, ...).
pub fn is_branch(inst: &Inst) -> bool {
    inst.operands()
        .iter()
        .any(|o| matches!(o, Operand::Target(_) | Operand::AbsTarget(_)))
}

/// The absolute target address of a branch-like instruction at `addr`.
pub fn branch_target(inst: &Inst, addr: u64) -> Option<u64> {
    inst.operands().iter().find_map(|o| match o {
        Operand::Target(rel) => {
            Some((addr as i64).wrapping_add(8).wrapping_add(i64::from(*rel)) as u64)
        }
        Operand::AbsTarget(a) => Some(u64::from(*a)),
        _ => None,
    })
}

/// Rewrites the target of a branch-like instruction at `addr` to `target` (for relocating
/// code). Returns `false` if `inst` has no target or the target does not fit its field.
pub fn set_branch_target(inst: &mut Inst, addr: u64, target: u64) -> bool {
    let rel = (target as i64).wrapping_sub(addr as i64).wrapping_sub(8);
    for (o, v) in inst.row.operands.iter().zip(inst.operands.iter_mut()) {
        match (o.kind, v) {
            (Kind::Target { width }, Operand::Target(r)) => {
                let lim = 1i64 << (width - 1);
                if rel < -lim || rel >= lim {
                    return false;
                }
                *r = rel as i32;
                return true;
            }
            (Kind::AbsTarget { width }, Operand::AbsTarget(a)) => {
                if target >> width.min(32) != 0 {
                    return false;
                }
                *a = target as u32;
                return true;
            }
            _ => {}
        }
    }
    false
}
