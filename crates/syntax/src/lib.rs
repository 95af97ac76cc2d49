//! The PTX front end's syntax layer: lexer, parser with error recovery, AST with spans, and the
//! canonical pretty-printer behind `ptxvm fmt`.
//!
//! The parser knows the grammar, not the instruction set: an instruction is
//! `[@[!]guard] opcode{.modifier}* operand, …;` and the checker gives it meaning.
//!
//! ```
//! use syntax::ast::{Operand, Statement};
//!
//! let file = diag::SourceFile::new(
//!     "k.ptx",
//!     ".version 8.4 .target sm_80 .entry k() { @%p1 add .s32 %r1, %r2, 0x10; }",
//! );
//! let (module, diags) = syntax::parse_module(&file);
//! assert!(diags.is_empty());
//! let Statement::Function(k) = &module.statements[2] else { unreachable!() };
//! let Statement::Instruction(add) = &k.body.as_ref().unwrap().statements[0] else {
//!     unreachable!()
//! };
//! assert_eq!(add.opcode.text(&file.text), "add");
//! assert_eq!(add.modifiers(&file.text).map(|m| m.1).collect::<Vec<_>>(), [".s32"]);
//! assert!(matches!(add.operands[0], Operand::Expr(_)));
//!
//! let text = syntax::print_module(&module, &file);
//! assert!(text.contains("\t@%p1 add.s32 %r1, %r2, 0x10;\n"));
//! let again = diag::SourceFile::new("fmt.ptx", text);
//! let (reparsed, _) = syntax::parse_module(&again);
//! assert!(syntax::same_module(&module, &file.text, &reparsed, &again.text));
//! ```
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
mod comments;
mod lexer;
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
    parser::parse_module(&file.text, false)
}

/// Parses the module level of a file and skips every function body: each function with a
/// body gets a [`ast::Block`] with no statements whose span covers the braces, for
/// [`BodyParser::parse`] to parse later. (A body whose end a byte scan cannot find, e.g.
/// one with an unterminated comment, is parsed in place instead.)
///
/// This lets a consumer parse, use and drop one body at a time, so a large file is never
/// held as a whole tree: the checker does this (`check::check_source`).
pub fn parse_module_deferred(file: &SourceFile) -> (ast::Module, Vec<Diagnostic>) {
    parser::parse_module(&file.text, true)
}

/// Parses the bodies skipped by [`parse_module_deferred`], one after another, keeping the
/// parser's working memory from one body to the next: growing it afresh for every body
/// copied each body's statements several times over.
#[derive(Default)]
pub struct BodyParser {
    stacks: parser::Stacks,
}

impl BodyParser {
    /// The statements of a skipped body, or `None` when they do not parse cleanly on their
    /// own (any diagnostic, or a block end other than the skip's): the caller should then
    /// parse the file with [`parse_module`] to get the real diagnostics.
    pub fn parse(&mut self, file: &SourceFile, body: &ast::Block) -> Option<Vec<ast::Statement>> {
        parser::parse_block_at(&file.text, body.span, &mut self.stacks)
    }
}

/// Canonical pretty-printing of a module parsed from `file` (the `ptxvm fmt` output). Meant
/// for modules that parsed without errors: statements dropped by error recovery are not
/// printed. Comments are not kept (see `docs/spec-notes.md`).
pub fn print_module(module: &ast::Module, file: &SourceFile) -> String {
    printer::print_module(module, &file.text)
}
