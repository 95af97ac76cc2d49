//! The disassembler driver: cubins and listings → cuobjdump-style listings.

use crate::cubin::{read_cubin, CubinError};
use crate::isa::Dialect;

/// Disassembles every kernel of an sm_20/sm_21 cubin: a `code for` line, then per kernel a
/// `Function : name` header, one line per instruction and the dotted footer, as cuobjdump.
/// Words that do not decode print as the instruction table's `INVALID 0x…;` marker.
pub fn disassemble_cubin(bytes: &[u8]) -> Result<String, CubinError> {
    disassemble_cubin_with(bytes, Dialect::Current)
}

/// [`disassemble_cubin`] in a chosen cuobjdump spelling.
pub fn disassemble_cubin_with(bytes: &[u8], dialect: Dialect) -> Result<String, CubinError> {
    Ok(crate::listing::print_module_listing_with(
        &read_cubin(bytes)?,
        dialect,
    ))
}

/// Re-disassembles a cuobjdump-style listing: each `/*ADDR*/ /*0xWORD*/ …` line is printed
/// again from its address and word (the text after the word is ignored); every other line
/// (headers, blank lines, anything else) is copied unchanged.
pub fn disassemble_listing(text: &str) -> String {
    disassemble_listing_with(text, Dialect::Current)
}

/// [`disassemble_listing`] in a chosen cuobjdump spelling.
pub fn disassemble_listing_with(text: &str, dialect: Dialect) -> String {
    crate::listing::redisassemble(text, dialect)
}
