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
mod call_targets;
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
mod reg_offset;
mod scope;
mod selector;
mod sreg_decl;
mod stream;
pub use stream::{check_source_streamed, Streamed};
mod structs;
mod tensor_map;
mod tensor_memory;
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

/// Parses and checks a source file and lowers it to IR (what `ptxvm run` uses). Parse errors
/// and check errors come back together, parse errors first.
pub fn check_source(file: &SourceFile) -> (Option<ir::Module>, Vec<Diagnostic>) {
    check_streamed(file, Keep::Ir).unwrap_or_else(|| check_whole(file, Keep::Ir))
}

/// Parses and checks a source file for its diagnostics alone (what `ptxvm check` uses): the
/// same checks as [`check_source`], but each function body's IR is dropped once it is checked,
/// so memory holds the module level and one body, not the IR of every body.
pub fn diagnose_source(file: &SourceFile) -> Vec<Diagnostic> {
    check_streamed(file, Keep::Diagnostics)
        .unwrap_or_else(|| check_whole(file, Keep::Diagnostics))
        .1
}

/// What a check keeps: the module's IR and the diagnostics, or the diagnostics alone.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Keep {
    Ir,
    Diagnostics,
}

fn checker(file: &SourceFile, keep: Keep) -> ctx::Checker<'_> {
    let mut cx = ctx::Checker::new(file);
    cx.keep_ir = keep == Keep::Ir;
    cx
}

/// The fast path for a file that parses cleanly: the module level is parsed with function
/// bodies skipped, then each body is parsed, checked and dropped in turn, so the syntax tree
/// of one body at a time is in memory (and in cache) instead of the whole file's. `None` at
/// the first parse diagnostic: [`check_whole`] then reports them all, in order.
fn check_streamed(file: &SourceFile, keep: Keep) -> Option<(Option<ir::Module>, Vec<Diagnostic>)> {
    let (ast, diags) = syntax::parse_module_deferred(file);
    if !diags.is_empty() {
        return None;
    }
    let mut cx = checker(file, keep);
    let mut parsed = vec![false; ast.statements.len()];
    let mut parser = syntax::BodyParser::default();
    let complete = cx.check_with_bodies(&ast, |i, f| {
        if let Some(p) = parsed.get_mut(i) {
            *p = true;
        }
        deferred_body(&mut parser, file, f)
    });
    // Bodies the checker skipped (a redefined function's) may still hold parse errors.
    let rest_parse = ast
        .statements
        .iter()
        .zip(&parsed)
        .all(|(s, &done)| match s {
            ast::Statement::Function(f) if !done => !matches!(
                deferred_body(&mut parser, file, f),
                ctx::BodySource::Unparsable
            ),
            _ => true,
        });
    (complete && rest_parse).then(|| cx.finish())
}

/// `f`'s body, parsed now if `parse_module_deferred` skipped it.
fn deferred_body(
    parser: &mut syntax::BodyParser,
    file: &SourceFile,
    f: &ast::Function,
) -> ctx::BodySource {
    match &f.body {
        Some(b) if b.statements.is_empty() => match parser.parse(file, b) {
            Some(stmts) => ctx::BodySource::Owned(stmts),
            None => ctx::BodySource::Unparsable,
        },
        _ => ctx::BodySource::Tree,
    }
}

/// Parses the whole file, then checks it.
fn check_whole(file: &SourceFile, keep: Keep) -> (Option<ir::Module>, Vec<Diagnostic>) {
    let (mut ast, mut diags) = syntax::parse_module(file);
    let parse_failed = diag::has_errors(&diags);
    // The syntax tree is ours: each function body is freed once it is checked, which keeps the
    // peak memory (and the page faults of fresh memory) near the larger of tree and IR
    // rather than their sum.
    let bodies = ctx::detach_bodies(&mut ast);
    let mut cx = checker(file, keep);
    cx.check_detached(&ast, bodies);
    let (module, more) = cx.finish();
    diags.extend(more);
    if parse_failed {
        return (None, diags);
    }
    (module, diags)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ptx_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                ptx_files(&p, out);
            } else if p.extension().is_some_and(|x| x == "ptx")
                || p.to_string_lossy().contains("fuzz/corpus")
            {
                out.push(p);
            }
        }
    }

    /// The streamed path (bodies parsed and checked one at a time) must give exactly what
    /// parsing the whole file and then checking it gives, on every PTX file in the repository
    /// and every local fuzz corpus input (broken ones included: they take the fallback); so
    /// must the diagnostics-only check.
    #[test]
    fn streamed_and_whole_file_checks_agree() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut files = Vec::new();
        for dir in ["tests", "examples", "crates", "fuzz/corpus"] {
            ptx_files(&root.join(dir), &mut files);
        }
        // The fuzz corpora are not in git: a fresh clone has only the repository's own files.
        assert!(files.len() > 200, "found only {} files", files.len());
        // Of the repository's `.ptx` files (the fuzz inputs are mostly broken), how many there
        // are and how many took the streamed path.
        let (mut ptx, mut streamed) = (0, 0);
        for path in &files {
            let Ok(bytes) = std::fs::read(path) else {
                continue;
            };
            let text = String::from_utf8_lossy(&bytes).into_owned();
            let file = SourceFile::new(path.display().to_string(), text);
            let is_ptx = path.extension().is_some_and(|x| x == "ptx");
            ptx += usize::from(is_ptx);
            let whole = check_whole(&file, Keep::Ir);
            if let Some(fast) = check_streamed(&file, Keep::Ir) {
                streamed += usize::from(is_ptx);
                assert_eq!(fast, whole, "{}", path.display());
            }
            assert_eq!(check_source(&file), whole, "{}", path.display());
            // Dropping the IR must not change what is reported.
            assert_eq!(diagnose_source(&file), whole.1, "{}", path.display());
        }
        assert!(
            streamed * 2 > ptx,
            "only {streamed} of {ptx} .ptx files took the streamed path"
        );
    }
}
