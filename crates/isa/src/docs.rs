//! `docs/instructions.md`: the supported instructions, generated from the table.

use std::fmt::Write;

use crate::form::{Condition, Form, Gate, Term};
use crate::opcode::Opcode;
use crate::table::forms_of;

fn print_gate(g: &Gate) -> String {
    let mut parts = Vec::new();
    if g.min_sm > 10 {
        parts.push(format!("sm_{}", g.min_sm));
    }
    if g.min_ptx > crate::form::PtxVersion::new(1, 0) {
        parts.push(format!("PTX {}", g.min_ptx));
    }
    if let Some(sm) = g.max_sm {
        parts.push(format!("not on sm_{sm}+"));
    }
    if let Some(v) = g.max_ptx {
        parts.push(format!("not in PTX {v}+"));
    }
    if let Some(list) = g.arch {
        let names: Vec<String> = list.iter().map(|t| t.to_string()).collect();
        parts.push(format!("only {}", names.join(", ")));
    }
    if parts.is_empty() {
        "all".to_string()
    } else {
        parts.join(", ")
    }
}

fn print_types(types: &[crate::types::Type]) -> String {
    types
        .iter()
        .map(|t| t.suffix())
        .collect::<Vec<_>>()
        .join("|")
}

fn print_condition(c: &Condition) -> String {
    if c.terms.is_empty() {
        return "any modifiers".to_string();
    }
    c.terms
        .iter()
        .map(|t| match t {
            Term::AnyOf(a) => a.join("|"),
            Term::NoneOf(a) => format!("no {}", a.join("|")),
            Term::SlotIs { slot, types } => format!("{slot}={}", print_types(types)),
            Term::SlotIsNot { slot, types } => format!("{slot} not {}", print_types(types)),
            Term::WrittenBefore { first, then } => {
                format!("{} before {}", first.join("|"), then.join("|"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn print_form(out: &mut String, f: &Form) {
    let _ = writeln!(
        out,
        "| `{}` | {} | {} |",
        f.syntax.replace('|', "\\|"),
        match &f.alt_gate {
            Some(alt) => format!("{}, or {}", print_gate(&f.gate), print_gate(alt)),
            None => print_gate(&f.gate),
        },
        f.spec
    );
}

/// The Markdown page listing every opcode, its forms, gates and exclusions.
pub fn print_instructions_md() -> String {
    let mut out = String::new();
    out.push_str("# Supported PTX instructions\n\n");
    out.push_str(
        "Generated from `crates/isa/src/table/*.isa` by `cargo test -p ptxvm-isa` \
         (`PTXVM_BLESS=1` rewrites it). Each row is one form as the manual writes it; \
         gates are the lowest `.target`/`.version` that accept it.\n\n",
    );
    for op in Opcode::ALL {
        let forms = forms_of(*op);
        let _ = writeln!(out, "## `{}`\n", op.name());
        out.push_str("| form | gate | spec |\n|---|---|---|\n");
        let mut last: Option<&str> = None;
        for f in forms {
            // One line per syntax line; an opcode-variable line expands to several opcodes.
            if last == Some(f.syntax) {
                continue;
            }
            last = Some(f.syntax);
            print_form(&mut out, f);
        }
        let mut notes: Vec<String> = Vec::new();
        for f in forms {
            for g in &f.cond_gates {
                let mut line = format!(
                    "- with {}: {}",
                    print_condition(&g.when),
                    print_gate(&g.gate)
                );
                if let Some(r) = g.reason {
                    let _ = write!(line, " ({r})");
                }
                if !notes.contains(&line) {
                    notes.push(line);
                }
            }
            for e in &f.exclusions {
                let line = format!(
                    "- {}: never {}: {}",
                    f.spec,
                    print_condition(&e.when),
                    e.reason
                );
                if !notes.contains(&line) {
                    notes.push(line);
                }
            }
        }
        if !notes.is_empty() {
            out.push('\n');
            for n in notes {
                out.push_str(&n);
                out.push('\n');
            }
        }
        out.push('\n');
    }
    out.push_str("## Special registers\n\n| register | type | components | gate | spec |\n|---|---|---|---|---|\n");
    for r in crate::sreg::SPECIAL_REGS {
        // `%envreg` → `%envreg0 … %envreg31`; `%pm_64` → `%pm0_64 … %pm7_64`.
        let indexed = |i: u8| match r.name.split_once('_') {
            Some((p, s)) => format!("{p}{i}_{s}"),
            None => format!("{}{i}", r.name),
        };
        let name = match r.count {
            0 => r.name.to_string(),
            n => format!("{} … {}", indexed(0), indexed(n - 1)),
        };
        let _ = writeln!(
            out,
            "| `{name}` | `{}` | {} | {} | {} |",
            r.ty.suffix(),
            if r.vector { "`.x .y .z`" } else { "" },
            print_gate(&r.gate),
            r.spec
        );
    }
    out
}
