//! The PTX front end's syntax layer: lexer, parser with error recovery, AST with spans, and the
//! canonical pretty-printer behind `ptxvm fmt`.
//!
//! The parser knows the grammar, not the instruction set: an instruction is
//! `[@[!]guard] opcode{.modifier}* operand, …;` and the checker gives it meaning.
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::indexing_slicing
    )
)]

pub mod ast;
pub mod lexer;
mod parser;
mod printer;
mod same;

pub use same::same_module;

pub use parser::MAX_NESTING;

use diag::{Diagnostic, SourceFile};

/// Parses a whole file. Never panics: every problem is a diagnostic, the parser recovers at
/// the next `;` or `}` and keeps going, so all errors of the file are reported in one run.
/// The returned module holds every statement that parsed.
pub fn parse_module(file: &SourceFile) -> (ast::Module, Vec<Diagnostic>) {
    parser::parse_module(&file.text)
}

/// Canonical pretty-printing of a module parsed from `file` (the `ptxvm fmt` output).
pub fn print_module(module: &ast::Module, file: &SourceFile) -> String {
    printer::print_module(module, &file.text)
}
