//! Every form the checker accepts and the executor runs translates for sm_20, or is refused
//! for a listed reason. The instances are the executor's coverage instances
//! (`tests/support/instances.rs`: modifier and type spellings sampled over each row's slots,
//! operands of the kinds and types the row names, negations, selectors and immediates).
//!
//! The coverage test (`coverage.rs`) asks only that every *opcode* has a rule or a reason; this
//! one asks it of every spelled form, so a rule that covers `cvt` but not one of its rounding
//! and saturation combinations fails here.
//!
//! - A form whose gate admits sm_20 (ptxas for sm_20 takes it) must translate, unless
//!   [`REFUSED`] lists it with the reason.
//! - A form gated above sm_20 may be refused, but only with a reason that names the target it
//!   needs or what sm_20 lacks, never "no selection rule yet".
//! - Every translation's words disassemble and re-assemble to themselves.

#[path = "../../../tests/support/instances.rs"]
mod instances;

use instances::{instance_budget, instance_texts};

/// Instances checked per row and variant: translation is quick, so far more than the
/// executor's coverage test samples (every combination of most rows).
const PER_ROW: usize = 2048;
use isa::Form;
use std::collections::BTreeMap;
use std::fmt::Write;

/// Forms sm_20 admits that the translator refuses: (opcode, a text the instruction line or the
/// refusal contains, the reason). Each is a decision recorded in docs/spec-notes.md; keep it
/// short: nothing here may be a rule not yet written.
const REFUSED: &[(&str, &str, &str)] = &[
    (
        "tex",
        "a texture object",
        "a texture handle in a register: sm_20's TEX/TLD name their texture by an immediate unit (bindless textures are sm_30's)",
    ),
    (
        "txq",
        "a texture object",
        "a texture handle in a register: sm_20's TXQ names its texture by an immediate unit",
    ),
    (
        "txq",
        ".channel_order",
        "no Fermi TXQ query is known to return a texture's format (docs/spec-notes.md, round s24)",
    ),
];

/// Forms the executor does not run (its own coverage test lists them); nothing to translate.
const NOT_RUN: &[(&str, &[&str])] = &[
    ("wgmma", &[""]),
    ("tcgen05", &[""]),
    ("cp", &[".tensor"]),
    ("cp", &[".prefetch"]),
    ("cp", &[".reduce"]),
    ("cp", &[".cp_mask"]),
    ("cp", &[".multicast::cluster"]),
    ("cp", &[".L2::cache_hint"]),
    ("cp", &[".shared::cluster.shared::cta"]),
    ("mbarrier", &[".shared::cluster"]),
    ("wmma", &[".satfinite"]),
];

/// Whether the row's gate (or its second gate) admits sm_20: ptxas for sm_20 takes the form
/// when no spelled modifier gates it higher.
fn admits_sm20(form: &Form) -> bool {
    std::iter::once(&form.gate)
        .chain(form.alt_gate.as_ref())
        .any(|g| {
            // sm_20 needs PTX ISA 2.0 (PTX ISA §12, the target's version table): a form
            // removed by then (`max_ptx`, the first version without it) is no sm_20 form.
            let v2 = isa::PtxVersion { major: 2, minor: 0 };
            g.arch.is_none()
                && g.min_sm <= 20
                && g.max_sm.is_none_or(|m| m >= 20)
                && g.max_ptx.is_none_or(|v| v > v2)
        })
}

/// Rows sm_20 admits of which no instance translates: (row key text, reason). Empty: every
/// such row has at least one instance that translates.
const NONE_TRANSLATED: &[(&str, &str)] = &[
    (
        "txq: txq.tquery.b32 d, [a];",
        "every instance names the texture by a register (a texture object, refused: REFUSED); txq on a .texref name is tested by txq_queries.rs",
    ),
    (
        "tex: tex.geom{.v4}.dtype.btype d, a, c;",
        "the PTX 1.x spelling without brackets (data.isa: removed in PTX 1.5, sm_20 needs 2.0), yet its Gate has no max_ptx, so admits_sm20 cannot tell",
    ),
];

/// Instances that translate, at least (about 45,000 now): a sampling or gating change that
/// silently drops most instances must fail, not pass with less checked.
const MIN_TRANSLATED: usize = 40_000;

fn listed(list: &[(&str, &[&str])], form: &Form, line: &str) -> bool {
    list.iter()
        .any(|(op, texts)| *op == form.opcode.name() && texts.iter().all(|t| line.contains(t)))
}

#[derive(Default)]
struct RowResult {
    translated: usize,
    /// Refusals of forms sm_20 admits: message → one example line.
    refused_sm20: BTreeMap<String, String>,
    /// Refusals of newer forms without a reason.
    refused_newer: BTreeMap<String, String>,
    newer_refused_with_reason: usize,
    /// Translations whose words do not survive disassembly and reassembly.
    round_trip: BTreeMap<String, String>,
    /// Some instance is one the executor does not run ([`NOT_RUN`]): nothing to translate.
    not_run: bool,
}

fn translate_row(form: &'static Form) -> RowResult {
    let mut r = RowResult::default();
    for text in instance_texts(form).take(instance_budget(form, PER_ROW)) {
        // The instance's target is the first the row's gate (with the spelled
        // modifiers' gates) admits: sm_20 or lower exactly when ptxas for sm_20 takes it.
        let sm20 = text
            .lines()
            .find_map(|l| l.strip_prefix(".target sm_"))
            .and_then(|t| t.parse::<u32>().ok())
            .is_some_and(|sm| sm <= 20);
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
        let line = text
            .lines()
            .find(|l| l.starts_with('\t') && l.trim_start().starts_with(form.opcode.name()))
            .unwrap_or("")
            .trim()
            .to_string();
        if listed(NOT_RUN, form, &line) {
            r.not_run = true;
            continue;
        }
        match codegen::compile_module(&module, &file) {
            Ok(c) => {
                // The issue's "every emitted cubin re-disassembles and re-assembles to the
                // same words", over every form.
                if let Err(m) = fermi::verify::words_round_trip(&c.cubin) {
                    r.round_trip.entry(m.to_string()).or_insert(line);
                }
                r.translated += 1;
            }
            Err(errs) => {
                let msg = errs
                    .iter()
                    .find(|d| d.is_error())
                    .map(|d| d.message.clone())
                    .unwrap_or_default();
                // The message quotes the instruction; keep only the reason.
                let reason = msg
                    .split_once(" for sm_20: ")
                    .map_or(msg.as_str(), |(_, why)| why)
                    .to_string();
                if sm20 {
                    let allowed = REFUSED.iter().any(|(op, text, _)| {
                        *op == form.opcode.name() && (line.contains(text) || reason.contains(text))
                    });
                    if !allowed {
                        r.refused_sm20.entry(reason).or_insert(line);
                    }
                } else if reason.contains("yet") || !reason.contains("sm_") {
                    r.refused_newer.entry(reason).or_insert(line);
                } else {
                    r.newer_refused_with_reason += 1;
                }
            }
        }
    }
    r
}

#[test]
fn every_accepted_form_translates_or_is_refused_for_a_reason() {
    let mut sm20 = String::new();
    let mut newer = String::new();
    let mut untranslated_rows = String::new();
    let (mut translated, mut with_reason) = (0, 0);
    for form in isa::all_forms() {
        if codegen::coverage::refusal(form.opcode).is_some() {
            continue;
        }
        let r = translate_row(form);
        translated += r.translated;
        let excused = NONE_TRANSLATED.iter().any(|(t, _)| form.key().contains(t));
        if r.translated == 0 && admits_sm20(form) && !excused && !r.not_run {
            let _ = writeln!(untranslated_rows, "`{}`", form.key());
        }
        with_reason += r.newer_refused_with_reason;
        for (msg, example) in &r.refused_sm20 {
            let _ = writeln!(sm20, "`{}`: {msg}\n    e.g. {example}", form.key());
        }
        for (msg, example) in &r.round_trip {
            let _ = writeln!(
                sm20,
                "`{}`: words do not round-trip: {msg}\n    e.g. {example}",
                form.key()
            );
        }
        for (msg, example) in &r.refused_newer {
            let _ = writeln!(newer, "`{}`: {msg}\n    e.g. {example}", form.key());
        }
    }
    eprintln!(
        "{translated} instances translated, {with_reason} newer ones refused with the target they need"
    );
    assert!(
        translated > MIN_TRANSLATED,
        "only {translated} instances translated (expected more than {MIN_TRANSLATED})"
    );
    assert!(
        untranslated_rows.is_empty(),
        "rows sm_20 admits of which no instance translates:\n{untranslated_rows}"
    );
    assert!(
        sm20.is_empty() && newer.is_empty(),
        "forms sm_20 admits that do not translate:\n{sm20}\nnewer forms refused without a reason:\n{newer}"
    );
}

/// An opcode `coverage::refusal` refuses wholesale names a target above sm_20 in its reason;
/// a form of it that sm_20 admits would be an sm_20 form without a rule.
#[test]
fn opcodes_refused_wholesale_have_no_sm20_form() {
    let mut bad = String::new();
    let mut refused = 0;
    for form in isa::all_forms() {
        if codegen::coverage::refusal(form.opcode).is_none() {
            continue;
        }
        refused += 1;
        if admits_sm20(form) {
            let _ = writeln!(bad, "`{}`", form.key());
        }
    }
    assert!(
        refused > 0,
        "no opcode is refused wholesale: the check checks nothing"
    );
    assert!(
        bad.is_empty(),
        "forms sm_20 admits whose opcode is refused wholesale:\n{bad}"
    );
}
