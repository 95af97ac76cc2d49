//! The Fermi instruction table and the four directions derived from it.

use std::ops::Range;

/// An error assembling one instruction's text. `span` is a byte range within the text given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AsmError {
    pub span: Range<usize>,
    pub message: String,
}

/// The cuobjdump text of one 64-bit word at byte address `addr`, exactly as `cuobjdump -sass`
/// prints it after the word column, including the trailing `;` (e.g. `@P0 BRA 0xa8;`).
/// A word that does not decode yields an `INVALID 0x…` style marker, never a panic.
pub fn disassemble_word(word: u64, addr: u64) -> String {
    let _ = addr;
    format!("INVALID 0x{word:016x};")
}

/// Assembles one instruction's text (as cuobjdump prints it; trailing `;` optional) at byte
/// address `addr`. `labels` resolves a label name used as a branch target to its address.
pub fn assemble_text(
    text: &str,
    addr: u64,
    labels: &dyn Fn(&str) -> Option<u64>,
) -> Result<u64, AsmError> {
    let _ = (addr, labels);
    Err(AsmError {
        span: 0..text.len(),
        message: "the Fermi assembler is not built yet".into(),
    })
}
