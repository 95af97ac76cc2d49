//! Self-consistency of the instruction table, and `match_form` against every combination each
//! syntax line admits.

use isa::{
    all_forms, forms_of, match_all, match_form, try_load, Form, ModValue, Opcode, OperandKind,
    SlotKind, Term, Type, VecRule,
};

/// Every modifier/type list a form admits, in the manual's order, with the type chosen for each
/// named type slot (to evaluate the form's exclusions independently of the matcher).
type Combo = (Vec<&'static str>, Vec<(&'static str, Type)>);

fn enumerate(form: &Form) -> Vec<Combo> {
    let mut combos: Vec<Combo> = vec![(vec![], vec![])];
    for slot in &form.slots {
        let mut next = Vec::new();
        for (spelled, types) in &combos {
            if slot.optional {
                next.push((spelled.clone(), types.clone()));
            }
            for s in slot.spellings() {
                let mut sp = spelled.clone();
                sp.push(s);
                let mut ty = types.clone();
                if let Some(t) = Type::from_suffix(s).filter(|_| slot.is_type()) {
                    ty.push((slot.name, t));
                }
                next.push((sp, ty));
            }
        }
        combos = next;
    }
    combos
}

fn excluded(form: &Form, spelled: &[&str], types: &[(&str, Type)]) -> bool {
    form.exclusions.iter().any(|e| {
        e.when.holds(spelled, |name| {
            types.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
        })
    })
}

type Shape = Vec<(OperandKind, VecRule, bool)>;

fn shape(form: &Form) -> Shape {
    form.operands
        .iter()
        .map(|o| (o.kind, o.vector, o.optional))
        .collect()
}

#[test]
fn table_files_parse() {
    let n = try_load().unwrap_or_else(|e| panic!("{e}"));
    assert!(n > 250, "only {n} forms");
}

#[test]
fn every_opcode_has_a_row_and_rows_are_sane() {
    for op in Opcode::ALL {
        assert!(!forms_of(*op).is_empty(), "no form for {}", op.name());
    }
    for f in all_forms() {
        assert!(
            f.syntax.starts_with(f.opcode.name()) || f.syntax.starts_with('v'),
            "{}",
            f.syntax
        );
        assert!(!f.spec.is_empty(), "{} has no spec reference", f.syntax);
        assert!(f.slots.len() <= isa::MAX_SPELLED, "{}", f.syntax);
        assert!(
            f.type_slots().count() <= isa::MAX_TYPE_SLOTS,
            "{}",
            f.syntax
        );
        for s in &f.slots {
            assert!(
                !s.spellings().is_empty(),
                "{}: empty slot {}",
                f.syntax,
                s.name
            );
            if let SlotKind::Mod { class, spellings } = &s.kind {
                for sp in spellings {
                    assert!(
                        class.decode(sp).is_some(),
                        "{}: {sp} not a {class:?}",
                        f.syntax
                    );
                }
            }
        }
        // Conditions name real type slots of the form and spellings of the opcode (a typo in
        // a table condition would otherwise silently never hold).
        let conds = f
            .cond_gates
            .iter()
            .map(|g| &g.when)
            .chain(f.exclusions.iter().map(|e| &e.when));
        for c in conds {
            for t in &c.terms {
                match t {
                    Term::SlotIs { slot, .. } | Term::SlotIsNot { slot, .. } => {
                        assert!(
                            f.type_slots().any(|s| s.name == *slot),
                            "{}: {slot}",
                            f.syntax
                        )
                    }
                    Term::AnyOf(_) | Term::NoneOf(_) | Term::WrittenBefore { .. } => {
                        let spellings: Vec<&&str> = match t {
                            Term::WrittenBefore { first, then } => {
                                first.iter().chain(then).collect()
                            }
                            Term::AnyOf(sp) | Term::NoneOf(sp) => sp.iter().collect(),
                            _ => Vec::new(),
                        };
                        for x in spellings {
                            let known = forms_of(f.opcode)
                                .iter()
                                .any(|g| g.slots.iter().any(|s| s.admits(x)));
                            assert!(known, "{}: condition spelling {x}", f.syntax);
                        }
                    }
                }
            }
        }
        // Optional operands come last (`{, b}` groups close the list).
        let first_opt = f.operands.iter().position(|o| o.optional);
        if let Some(i) = first_opt {
            let later_required = f.operands.iter().skip(i).any(|o| !o.optional);
            let opt_then_required_ok = f.opcode == Opcode::Bar || f.opcode == Opcode::Barrier;
            assert!(!later_required || opt_then_required_ok, "{}", f.syntax);
        }
        // Operand names are distinct.
        for (i, a) in f.operands.iter().enumerate() {
            for b in f.operands.iter().skip(i + 1) {
                assert_ne!(a.name, b.name, "{}", f.syntax);
            }
        }
    }
}

#[test]
fn every_listed_combination_matches_and_none_is_ambiguous() {
    let mut accepted = 0usize;
    let mut refused = 0usize;
    for form in all_forms() {
        let op = form.opcode.name();
        let combos = enumerate(form);
        assert!(
            combos.len() < 250_000,
            "{}: {} combinations",
            form.syntax,
            combos.len()
        );
        for (spelled, types) in combos {
            let ex = excluded(form, &spelled, &types);
            let own = form.try_match(&spelled);
            assert_eq!(own.is_some(), !ex, "{} with {spelled:?}", form.syntax);
            let Some(m) = own else {
                refused += 1;
                continue;
            };
            accepted += 1;
            // The decoded types are the ones spelled, slot by slot.
            for (i, (_, t)) in types.iter().enumerate() {
                assert_eq!(m.types[i], Some(*t), "{} {spelled:?}", form.syntax);
            }
            // Every modifier spelled is decoded into its class.
            for slot in form.mod_slots() {
                if let SlotKind::Mod { class, spellings } = &slot.kind {
                    if let Some(sp) = spelled.iter().find(|s| spellings.contains(s)) {
                        let v: ModValue = class.decode(sp).unwrap();
                        assert!(m.mods.is_set(v), "{} {spelled:?}: {sp}", form.syntax);
                    }
                }
            }
            // match_form finds a form; another form that also matches either differs in operand
            // shape (the checker picks by operands) or gives every operand the same type (the
            // manual's own overlap, `add.type` beside `add{.sat}.s32`, is harmless).
            let via_api = match_form(op, &spelled)
                .unwrap_or_else(|e| panic!("{} {spelled:?}: {e}", form.syntax));
            assert_eq!(via_api.opcode(), form.opcode);
            for other in match_all(op, &spelled) {
                if std::ptr::eq(other.form, form) {
                    continue;
                }
                if shape(other.form) != shape(form) {
                    continue;
                }
                for i in 0..form.operands.len() {
                    assert_eq!(
                        other.operand_type(i),
                        m.operand_type(i),
                        "ambiguous: `{}` and `{}` both take {op}{} with different operand {i}",
                        form.syntax,
                        other.form.syntax,
                        spelled.concat()
                    );
                }
            }
        }
    }
    assert!(accepted > 25_000, "accepted {accepted}");
    assert!(refused > 100, "refused {refused}");
}

#[test]
fn docs_page_is_current() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/instructions.md");
    let fresh = isa::print_instructions_md();
    if std::env::var_os("PTXVM_BLESS").is_some() {
        std::fs::write(path, &fresh).unwrap();
        return;
    }
    let on_disk = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        on_disk == fresh,
        "docs/instructions.md is stale: run `PTXVM_BLESS=1 cargo test -p ptxvm-isa --test table`"
    );
}

#[test]
fn row_keys_are_unique() {
    let mut seen = std::collections::HashSet::new();
    for f in all_forms() {
        assert!(seen.insert(f.key()), "duplicate row {}", f.key());
        assert!(f.key().starts_with(f.opcode.name()));
    }
}
