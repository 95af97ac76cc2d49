//! Semantic analysis of PTX: name resolution, type and state-space rules, `.target`/`.version`
//! gates, and lowering of the AST to the typed [`ir::Module`].
//!
//! ```
//! let file = diag::SourceFile::new("k.ptx", ".version 7.0\n.target sm_61\n.address_size 64\n\
//!     .visible .entry k() { .reg .b32 %r<2>; add.s32 %r0, %r1, 1; ret; }\n");
//! let (module, diags) = check::check_source(&file);
//! assert!(diags.is_empty(), "{}", diag::render(&file, &diags));
//! assert_eq!(module.unwrap().functions[0].insts().len(), 2);
//! ```
//!
//! The checker reports every problem of a file in one run (one diagnostic per problem) and
//! returns a module only when there is no error.
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::indexing_slicing
    )
)]

mod address;
mod anonymous;
pub use anonymous::ANONYMOUS_ENTRY;
mod call_operands;
mod consteval;
mod ctx;
mod cvt;
mod decl;
mod directives;
mod func;
mod imm;
mod indexed;
mod init;
mod inst;
mod operand;
mod scope;
mod selector;
mod sreg_decl;
mod structs;
mod vector;

use diag::{Diagnostic, SourceFile};
use syntax::ast;

/// Checks a parsed module and lowers it to IR. The IR is `None` when any error was reported
/// (warnings alone keep it).
pub fn check_module(file: &SourceFile, ast: &ast::Module) -> (Option<ir::Module>, Vec<Diagnostic>) {
    let mut cx = ctx::Checker::new(file);
    cx.check(ast);
    cx.finish()
}

/// Parses and checks a source file (what `ptxvm check` and the executor use). Parse errors
/// and check errors come back together, parse errors first.
pub fn check_source(file: &SourceFile) -> (Option<ir::Module>, Vec<Diagnostic>) {
    let (mut ast, mut diags) = syntax::parse_module(file);
    let parse_failed = diag::has_errors(&diags);
    // The syntax tree is ours: each function body is freed once it is checked, which keeps the
    // peak memory (and the page faults of fresh memory) near the larger of tree and IR
    // rather than their sum.
    let bodies = ctx::detach_bodies(&mut ast);
    let mut cx = ctx::Checker::new(file);
    cx.check_detached(&ast, bodies);
    let (module, more) = cx.finish();
    diags.extend(more);
    if parse_failed {
        return (None, diags);
    }
    (module, diags)
}
