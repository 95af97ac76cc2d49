//! Everything the checker accepts, the executor loads: for every row of the instruction table,
//! generated instances (modifier and type spellings sampled over the row's slots, operands of
//! the kinds and types the row names, negations and selectors where the row allows them) that
//! `check` accepts must lower with `exec`, and launching them (one warp, zeroed registers) must
//! not panic. Rows (or spellings of rows) the executor
//! deliberately refuses are listed in `NOT_RUNNABLE` with the reason; keep it short: each entry
//! is a gap.

#[path = "../../../tests/support/instances.rs"]
mod instances;

use instances::{
    combinations, instance, instance_budget, instance_texts, variants, CHECKED_PER_ROW,
};
use isa::Form;
use std::collections::BTreeMap;
use std::fmt::Write;

/// Instances the executor refuses: (row key as [`Form::key`] prints it, text the refused
/// instruction line contains — `""` for every instance of the row —, reason).
const NOT_RUNNABLE: &[(&str, &str, &str)] = &[];

/// Forms the checker accepts and the executor does not run yet: (opcode, texts the
/// instruction line contains, all of them, reason). Each is a gap, listed in the README.
const NOT_RUNNABLE_FORMS: &[(&str, &[&str], &str)] = &[
    (
        "wgmma",
        &[""],
        "checked but not executed: no model of the sm_90a warpgroup tensor cores",
    ),
    (
        "tcgen05",
        &[""],
        "checked but not executed: no model of tcgen05 tensor memory",
    ),
    (
        "cp",
        &[".tensor"],
        "checked but not executed: no model of tensor maps (bulk tensor copies and prefetches)",
    ),
    ("cp", &[".prefetch"], "checked but not executed: bulk prefetches"),
    ("cp", &[".reduce"], "checked but not executed: bulk reductions"),
    ("cp", &[".cp_mask"], "checked but not executed: masked bulk copies"),
    (
        "cp",
        &[".multicast::cluster"],
        "checked but not executed: multicast bulk copies (clusters are one CTA)",
    ),
    (
        "cp",
        &[".L2::cache_hint"],
        "checked but not executed: bulk copies with a cache policy",
    ),
    (
        "cp",
        &[".shared::cluster.shared::cta"],
        "checked but not executed: copies between a cluster's shared memories",
    ),
    (
        "mbarrier",
        &[".shared::cluster"],
        "checked but not executed: mbarrier objects in .shared::cluster",
    ),
    ("wmma", &[".f16.f16.satfinite"], "floating-point wmma.mma .satfinite (PTX < 6.5, deprecated): what it computes is not specified"),
    ("wmma", &[".f32.f16.satfinite"], "floating-point wmma.mma .satfinite (PTX < 6.5, deprecated): what it computes is not specified"),
    ("wmma", &[".f16.f32.satfinite"], "floating-point wmma.mma .satfinite (PTX < 6.5, deprecated): what it computes is not specified"),
    ("wmma", &[".f32.f32.satfinite"], "floating-point wmma.mma .satfinite (PTX < 6.5, deprecated): what it computes is not specified"),
];

fn not_runnable(form: &Form, line: &str) -> bool {
    let key = form.key();
    NOT_RUNNABLE_FORMS
        .iter()
        .any(|(op, texts, _)| *op == form.opcode.name() && texts.iter().all(|t| line.contains(t)))
        || NOT_RUNNABLE
            .iter()
            .any(|(k, text, _)| *k == key && line.contains(text))
}

/// Per row: instances the checker accepted, and the refusals (message → one example).
#[derive(Default)]
struct RowResult {
    accepted: usize,
    refused: BTreeMap<String, String>,
}

fn exec_row(form: &'static Form) -> RowResult {
    let mut r = RowResult::default();
    // Each source operand that may be an immediate is also tried as one (predicate immediates,
    // vector elements, float and integer literals), on the plain variant.
    for text in instance_texts(form).take(instance_budget(form, CHECKED_PER_ROW)) {
        let file = diag::SourceFile::new("generated.ptx", text.clone());
        let (module, diags) = check::check_source(&file);
        let Some(module) = module.filter(|_| !diags.iter().any(|d| d.is_error())) else {
            continue;
        };
        let matched = module
            .functions
            .iter()
            .find(|f| f.name == "k")
            .and_then(|f| f.insts().first())
            .is_some_and(|i| std::ptr::eq(i.form, form));
        if !matched {
            continue;
        }
        r.accepted += 1;
        let line = text
            .lines()
            .find(|l| l.starts_with('\t') && l.trim_start().starts_with(form.opcode.name()))
            .unwrap_or("")
            .trim();
        if not_runnable(form, line) {
            continue;
        }
        let mut dev = exec::Device::new();
        match dev.load(&module, &file) {
            Err(e) => {
                r.refused
                    .entry(e.message.clone())
                    .or_insert_with(|| line.to_string());
            }
            // Registers start at zero, so memory forms fault (address 0): any result but a
            // panic is fine here; the semantics are tested elsewhere.
            Ok(loaded) => {
                let cfg = exec::LaunchConfig {
                    block: [32, 1, 1],
                    ..exec::LaunchConfig::default()
                };
                let opts = exec::RunOptions {
                    threads: 1,
                    max_steps: 10_000,
                    ..exec::RunOptions::default()
                };
                let _ = dev.launch(&loaded, "k", &cfg, &[], &opts);
            }
        }
    }
    r
}

#[test]
fn every_accepted_instance_is_runnable() {
    let mut report = String::new();
    let mut rows_with_instances = 0;
    let mut instances = 0;
    for form in isa::all_forms() {
        let r = exec_row(form);
        if r.accepted > 0 {
            rows_with_instances += 1;
        }
        instances += r.accepted;
        for (msg, example) in &r.refused {
            let _ = writeln!(report, "`{}`: {msg}\n    e.g. {example}", form.key());
        }
    }
    assert!(
        report.is_empty(),
        "instances the checker accepts but the executor refuses:\n{report}"
    );
    // Entries whose instances all load now are stale: say so (without failing, so a change
    // elsewhere that makes a form runnable does not break this test) for the list's owner.
    for (key, text, _) in NOT_RUNNABLE {
        let Some(form) = isa::all_forms().iter().find(|f| f.key() == *key) else {
            continue;
        };
        if still_refused(form, text) == Some(false) {
            eprintln!("NOT_RUNNABLE entry `{key}` / `{text}` is stale: its instances all load");
        }
    }
    eprintln!(
        "{rows_with_instances} of {} rows had accepted instances; {instances} instances loaded \
         or were listed in NOT_RUNNABLE",
        isa::all_forms().len()
    );
    // The generator must reach most rows, or this test proves little.
    assert!(
        rows_with_instances * 10 >= isa::all_forms().len() * 9,
        "only {rows_with_instances} of {} rows had an accepted instance ({instances} instances)",
        isa::all_forms().len()
    );
}

/// Whether some accepted instance of `form` whose line contains `text` is refused (`None`
/// when no such instance was generated).
fn still_refused(form: &'static Form, text: &str) -> Option<bool> {
    let mut seen = None;
    for mods in combinations(form).into_iter().take(CHECKED_PER_ROW) {
        for variant in 0..variants(form) {
            let Some(src) = instance(form, &mods, variant) else {
                continue;
            };
            let line = src
                .lines()
                .find(|l| l.starts_with('\t') && l.trim_start().starts_with(form.opcode.name()))
                .unwrap_or("");
            if !line.contains(text) {
                continue;
            }
            let file = diag::SourceFile::new("generated.ptx", src.clone());
            let (Some(module), diags) = check::check_source(&file) else {
                continue;
            };
            if diags.iter().any(|d| d.is_error()) {
                continue;
            }
            let refused = exec::Device::new().load(&module, &file).is_err();
            if refused {
                return Some(true);
            }
            seen = Some(false);
        }
    }
    seen
}

#[test]
fn not_runnable_entries_name_table_rows() {
    for (key, _, reason) in NOT_RUNNABLE {
        assert!(
            isa::all_forms().iter().any(|f| f.key() == *key),
            "NOT_RUNNABLE lists `{key}`, which is not a table row"
        );
        assert!(!reason.is_empty(), "`{key}` needs a reason");
    }
}
