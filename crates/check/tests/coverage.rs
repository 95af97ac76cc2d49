//! Every row of the instruction table has an accepting test line: an instruction in a file the
//! checker accepts (the spec examples, the corpus, `examples/`), or else a generated instance of
//! the row (every required modifier and type slot spelled, operands of the kinds and types the
//! row names) that the checker accepts. Rows that cannot be generated are listed in
//! `NOT_SUPPORTED` with the reason.

mod common;

#[path = "../../../tests/support/instances.rs"]
mod instances;

use common::{load, ptx_files, repo_root};
use instances::{combinations, instance};
use isa::Form;
use std::collections::HashSet;
use std::fmt::Write;

/// Rows without an accepting line, with the reason. Keep this short: each entry is a gap.
const NOT_SUPPORTED: &[(&str, &str)] = &[];

fn form_key(f: &Form) -> usize {
    f as *const Form as usize
}

fn covered_by_files() -> HashSet<usize> {
    let mut covered = HashSet::new();
    let root = repo_root();
    for dir in ["tests/spec-examples", "tests/corpus", "examples"] {
        for path in ptx_files(&root.join(dir)) {
            let file = load(&path);
            if let (Some(m), _) = check::check_source(&file) {
                for f in &m.functions {
                    for i in f.insts() {
                        covered.insert(form_key(i.form));
                    }
                }
            }
        }
    }
    covered
}

/// Tries generated instances of a row until the checker accepts one.
fn generated_instance_accepted(form: &'static Form) -> Result<(), String> {
    let mut last = String::from("no spelling of the row matches it");
    for mods in combinations(form).into_iter().take(256) {
        let Some(text) = instance(form, &mods, 0) else {
            continue;
        };
        let file = diag::SourceFile::new("generated.ptx", text.clone());
        let (module, diags) = check::check_source(&file);
        let matched_this_row = module
            .as_ref()
            .and_then(|m| m.functions.iter().find(|f| f.name == "k"))
            .and_then(|f| f.insts().first())
            .is_some_and(|i| std::ptr::eq(i.form, form));
        if matched_this_row {
            return Ok(());
        }
        last = format!("{text}{}", diag::render(&file, &diags));
    }
    Err(last)
}

#[test]
fn every_table_row_has_an_accepting_line() {
    let covered = covered_by_files();
    let mut missing = String::new();
    let mut from_files = 0;
    let mut generated = 0;
    for form in isa::all_forms() {
        if NOT_SUPPORTED.iter().any(|(s, _)| *s == form.syntax) {
            continue;
        }
        if covered.contains(&form_key(form)) {
            from_files += 1;
            continue;
        }
        match generated_instance_accepted(form) {
            Ok(()) => generated += 1,
            Err(why) => {
                let _ = writeln!(missing, "== `{}` ({})\n{why}", form.syntax, form.spec);
            }
        }
    }
    assert!(
        missing.is_empty(),
        "rows without an accepting line ({from_files} from files, {generated} generated):\n{missing}"
    );
    assert!(from_files > 0 && generated > 0);
}

#[test]
fn not_supported_rows_exist_in_the_table() {
    for (syntax, _) in NOT_SUPPORTED {
        assert!(
            isa::all_forms().iter().any(|f| f.syntax == *syntax),
            "NOT_SUPPORTED lists `{syntax}`, which is not a table row"
        );
    }
}
