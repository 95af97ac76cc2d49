//! cuobjdump's `-sass` listing format: reading its instruction lines and printing them with
//! the same columns (`\t/*0008*/     /*0x94001c042c000000*/ \tS2R R0, SR_CTAid_X;`).

use crate::cubin::{Arch, Module};
use crate::isa::Dialect;
use std::fmt::Write;

/// One `/*ADDR*/ /*0xWORD*/ TEXT` line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ListingLine<'a> {
    pub addr: u64,
    pub word: u64,
    /// What follows the word column, trimmed (may be empty).
    pub text: &'a str,
    /// Byte offset of `text` within the line.
    pub text_offset: usize,
}

/// `/*HEX*/` at the start of `s` (after whitespace): the number and the rest.
fn hex_comment<'a>(s: &'a str, prefix: &str) -> Option<(u64, &'a str)> {
    let s = s.trim_start().strip_prefix("/*")?;
    let s = s.strip_prefix(prefix)?;
    let close = s.find("*/")?;
    let digits = s.get(..close)?;
    if digits.is_empty() || digits.len() > 16 {
        return None;
    }
    let value = u64::from_str_radix(digits, 16).ok()?;
    Some((value, s.get(close + 2..)?))
}

/// Parses an instruction line of a cuobjdump listing; `None` for any other line.
pub fn parse_listing_line(line: &str) -> Option<ListingLine<'_>> {
    let (addr, rest) = hex_comment(line, "")?;
    let (word, rest) = hex_comment(rest, "0x")?;
    let text = rest.trim();
    let text_offset = if text.is_empty() {
        line.len()
    } else {
        line.len() - rest.trim_start().len()
    };
    Some(ListingLine {
        addr,
        word,
        text,
        text_offset,
    })
}

/// One instruction line as cuobjdump prints it, with the text re-derived from the word.
pub fn print_listing_line(addr: u64, word: u64) -> String {
    print_listing_line_with(addr, word, Dialect::Current)
}

/// [`print_listing_line`] in a chosen cuobjdump spelling.
pub fn print_listing_line_with(addr: u64, word: u64, dialect: Dialect) -> String {
    format!(
        "\t/*{addr:04x}*/     /*0x{word:016x}*/ \t{}\n",
        crate::isa::disassemble_word_with(word, addr, dialect)
    )
}

/// The `code for sm_NN` line that opens a cubin's listing (preceded by a blank line).
pub fn print_arch_header(arch: Arch) -> String {
    format!("\n\tcode for {}\n", arch.name())
}

/// `\t\tFunction : name`.
pub fn print_function_header(name: &str) -> String {
    format!("\t\tFunction : {name}\n")
}

/// The dotted line that closes a function (6 dots longer than its `Function : name` header),
/// followed by cuobjdump's two blank lines.
pub fn print_function_footer(name: &str) -> String {
    let dots = ".".repeat("Function : ".len() + name.len() + 6);
    format!("\t\t{dots}\n\n\n")
}

/// A listing of every kernel in a module, as `cuobjdump -sass` prints a cubin.
pub fn print_module_listing(module: &Module) -> String {
    print_module_listing_with(module, Dialect::Current)
}

/// [`print_module_listing`] in a chosen cuobjdump spelling.
pub fn print_module_listing_with(module: &Module, dialect: Dialect) -> String {
    let mut out = print_arch_header(module.arch);
    for k in &module.kernels {
        out.push_str(&print_function_header(&k.name));
        for (i, &word) in k.code.iter().enumerate() {
            out.push_str(&print_listing_line_with(i as u64 * 8, word, dialect));
        }
        out.push_str(&print_function_footer(&k.name));
    }
    out
}

/// Re-disassembles every instruction line of a listing, keeping all other lines as they are.
pub(crate) fn redisassemble(text: &str, dialect: Dialect) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        match parse_listing_line(line) {
            Some(l) => out.push_str(&print_listing_line_with(l.addr, l.word, dialect)),
            None => {
                let _ = writeln!(out, "{line}");
            }
        }
    }
    out
}
