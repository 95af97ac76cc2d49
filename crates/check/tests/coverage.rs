//! Every row of the instruction table has an accepting test line: an instruction in a file the
//! checker accepts (the spec examples, the corpus, `examples/`), or else a generated instance of
//! the row (every required modifier and type slot spelled, operands of the kinds and types the
//! row names) that the checker accepts. Rows that cannot be generated are listed in
//! `NOT_SUPPORTED` with the reason.

mod common;

use common::{load, ptx_files, repo_root};
use isa::{Form, OperandKind, Type, VecRule};
use std::collections::HashSet;
use std::fmt::Write;

/// Rows without an accepting line, with the reason. Keep this short: each entry is a gap.
const NOT_SUPPORTED: &[(&str, &str)] = &[];

/// Known `.target`s and the first PTX version accepting each (as the checker enforces).
const TARGETS: &[(u32, (u8, u8))] = &[
    (10, (1, 0)),
    (11, (1, 0)),
    (12, (1, 2)),
    (13, (1, 2)),
    (20, (2, 0)),
    (30, (3, 0)),
    (35, (3, 1)),
    (50, (4, 0)),
    (52, (4, 1)),
    (53, (4, 2)),
    (60, (5, 0)),
    (61, (5, 0)),
    (70, (6, 0)),
    (72, (6, 1)),
    (75, (6, 3)),
    (80, (7, 0)),
    (86, (7, 1)),
    (89, (7, 8)),
    (90, (7, 8)),
    (100, (8, 6)),
];

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

/// Register type used to declare an operand of type `t`.
fn reg_decl_type(t: Type) -> String {
    match t {
        Type::F16 | Type::Bf16 => ".b16".into(),
        Type::F16x2 | Type::Bf16x2 | Type::U16x2 | Type::S16x2 | Type::Tf32 => ".b32".into(),
        Type::U8 | Type::S8 | Type::B8 => ".b16".into(),
        t => t.suffix().into(),
    }
}

struct Gen {
    decls: String,
    module: String,
    n: usize,
}

impl Gen {
    fn reg(&mut self, t: Type) -> String {
        self.n += 1;
        let name = format!("%v{}", self.n);
        let _ = writeln!(self.decls, "\t.reg {} {name};", reg_decl_type(t));
        name
    }
}

/// Spellings for each slot, one combination per call of `pick` (odometer over slot choices;
/// optional slots first try "absent").
fn combinations(form: &'static Form, limit: usize) -> Vec<Vec<&'static str>> {
    let choices: Vec<Vec<Option<&'static str>>> = form
        .slots
        .iter()
        .map(|s| {
            let mut v: Vec<Option<&'static str>> = Vec::new();
            if s.optional {
                v.push(None);
            }
            v.extend(s.spellings().into_iter().map(Some));
            v
        })
        .collect();
    let mut out = Vec::new();
    let mut idx = vec![0usize; choices.len()];
    'outer: loop {
        let spelled: Vec<&'static str> = choices
            .iter()
            .zip(&idx)
            .filter_map(|(c, &i)| c.get(i).copied().flatten())
            .collect();
        out.push(spelled);
        if out.len() >= limit {
            break;
        }
        for k in (0..idx.len()).rev() {
            idx[k] += 1;
            if idx[k] < choices[k].len() {
                continue 'outer;
            }
            idx[k] = 0;
        }
        break;
    }
    out
}

fn instance(form: &'static Form, mods: &[&'static str]) -> Option<String> {
    let m = form.try_match(mods)?;
    let gate = m.gate();
    let (sm, tver) = TARGETS
        .iter()
        .copied()
        .find(|(sm, _)| *sm >= gate.min_sm && gate.max_sm.is_none_or(|max| *sm < max))?;
    let want = (gate.min_ptx.major, gate.min_ptx.minor).max(tver);
    let version = if gate.max_ptx.is_none() {
        want.max((2, 3))
    } else {
        want
    };
    if let Some(max) = gate.max_ptx {
        if version >= (max.major, max.minor) {
            return None;
        }
    }
    let wide_addr = version >= (2, 3);
    let addr_ty = if wide_addr { Type::B64 } else { Type::B32 };
    let mut g = Gen {
        decls: String::new(),
        module: String::new(),
        n: 0,
    };
    let has = |name: &str| form.operands.iter().any(|o| o.name == name);
    let indirect = form.operands.iter().any(|o| o.kind == OperandKind::Proto);
    let mut ops = Vec::new();
    for (i, role) in form.operands.iter().enumerate() {
        let ty = m.operand_type(i).unwrap_or(Type::B32);
        let lanes = match role.vector {
            VecRule::Scalar => None,
            VecRule::FromVecMod => m.mods.vec.map(|v| v.lanes()),
            VecRule::Fixed(n) => Some(u32::from(n)),
            VecRule::FromGeom => Some(match m.mods.geom {
                Some(isa::Geom::D1) => 1,
                Some(isa::Geom::D2 | isa::Geom::A1d | isa::Geom::D2ms) => 2,
                _ => 4,
            }),
            #[allow(unreachable_patterns)]
            _ => None,
        };
        let text = match role.kind {
            OperandKind::Imm => "1".to_string(),
            OperandKind::Addr => format!("[{}]", g.reg(addr_ty)),
            OperandKind::TexAddr => {
                let ct = m
                    .types
                    .iter()
                    .rev()
                    .flatten()
                    .next()
                    .copied()
                    .unwrap_or(Type::F32);
                let n = match m.mods.geom {
                    Some(isa::Geom::D1) => 1,
                    Some(isa::Geom::D2 | isa::Geom::A1d | isa::Geom::D2ms) => 2,
                    _ => 4,
                };
                let coords: Vec<String> = (0..n).map(|_| g.reg(ct)).collect();
                if !g.module.contains(".texref") {
                    g.module.push_str(".global .texref tex0;\n");
                }
                format!("[tex0, {{{}}}]", coords.join(", "))
            }
            OperandKind::Label => "L_end".to_string(),
            OperandKind::TargetList => {
                let _ = writeln!(g.decls, "tl0: .branchtargets L_end;");
                "tl0".to_string()
            }
            OperandKind::Func if indirect => g.reg(addr_ty),
            OperandKind::Func => {
                let ret = if has("ret") { "(.param .b32 r) " } else { "" };
                let par = if has("params") {
                    "(.param .b32 a)"
                } else {
                    "()"
                };
                let _ = writeln!(g.module, ".func {ret}callee {par}\n{{\n\tret;\n}}");
                "callee".to_string()
            }
            OperandKind::ParamList => {
                g.n += 1;
                let name = format!("pv{}", g.n);
                let _ = writeln!(g.decls, "\t.param .b32 {name};");
                format!("({name})")
            }
            OperandKind::Proto => {
                let ret = if has("ret") { "(.param .b32 _) " } else { "" };
                let par = if has("params") {
                    "(.param .b32 _)"
                } else {
                    "()"
                };
                let _ = writeln!(g.decls, "proto0: .callprototype {ret}_ {par};");
                "proto0".to_string()
            }
            OperandKind::DstPair => {
                let d = g.reg(ty);
                let q = g.reg(Type::Pred);
                format!("{d}|{q}")
            }
            _ => match lanes {
                Some(n) => {
                    let regs: Vec<String> = (0..n).map(|_| g.reg(ty)).collect();
                    format!("{{{}}}", regs.join(", "))
                }
                None => {
                    let r = g.reg(ty);
                    match role.selector {
                        isa::Selector::RequiredByteHalf => format!("{r}.b0"),
                        _ => r,
                    }
                }
            },
        };
        ops.push(text);
    }
    let mut head = form.opcode.name().to_string();
    for s in mods {
        head.push_str(s);
    }
    let addr = if wide_addr { ".address_size 64\n" } else { "" };
    let entry = if version >= (2, 0) {
        ".visible .entry"
    } else {
        ".entry"
    };
    Some(format!(
        ".version {}.{}\n.target sm_{sm}\n{addr}{}{entry} k()\n{{\n{}\t{head} {};\nL_end:\n\tret;\n}}\n",
        version.0,
        version.1,
        g.module,
        g.decls,
        ops.join(", ")
    ))
}

/// Tries generated instances of a row until the checker accepts one.
fn generated_instance_accepted(form: &'static Form) -> Result<(), String> {
    let mut last = String::from("no spelling of the row matches it");
    for mods in combinations(form, 256) {
        let Some(text) = instance(form, &mods) else {
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
