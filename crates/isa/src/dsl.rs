//! Reads the table files (`src/table/*.isa`), which are written like the manual's syntax blocks:
//!
//! ```text
//! ## ptx-integer-arithmetic.md §9.7.1.1 add          <- a group: spec reference
//! add.type       d, a, b;                             <- syntax lines, one form each
//! add{.sat}.s32  d, a, b;
//! .type = { .u16, .u32, .u64, .s16, .s32, .s64, .u16x2, .s16x2 };   <- variables
//! gate sm_10 ptx 1.0                                  <- gate of every form in the group
//! gate .u16x2|.s16x2 : sm_90 ptx 8.0                  <- gate when the spellings are present
//! gate or sm_90 ptx 7.8                               <- a second target/version that also accepts
//! gate ptx 8.6 arch sm_100f sm_103f                    <- only these targets (last on the line)
//! never .wide .u64|.s64 : .wide is for 16- and 32-bit types   <- excluded combination
//! never .sp|.kind::f16<.ws : …                         <- excluded order (`.ws` after `.sp`)
//! d : .u32                                            <- operand kind/type (default: the
//!                                                        first type slot; first operand = dst)
//! ```
//!
//! Variables may be chained (`.atype = .btype = { … };`), may span lines until `;`, and may name
//! their modifier class (`.op : AtomOp = { … };`); otherwise the class is inferred
//! ([`ModClass::INFERENCE_ORDER`]). `{.a, .b}` in a syntax line is an optional choice.

use crate::form::{
    CondGate, Condition, Exclusion, Form, Gate, Negate, Operand, OperandKind, PtxVersion, Selector,
    Slot, SlotKind, Term, TypeRef, VecRule,
};
use crate::mods::ModClass;
use crate::opcode::Opcode;
use crate::types::Type;

/// An error in a table file: the file, the line number and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableError {
    pub file: &'static str,
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for TableError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.message)
    }
}

struct Var {
    names: Vec<&'static str>,
    class: Option<ModClass>,
    spellings: Vec<&'static str>,
}

struct TypeLine {
    names: Vec<&'static str>,
    kind: Option<OperandKind>,
    ty: Option<TypeSpec>,
    /// `geomvec`: a coordinate vector sized by the `tex` geometry.
    geom: bool,
    /// `vec`: a vector of the width the instruction's `.v2/.v3/.v4` gives.
    vec: bool,
}

#[derive(Clone, Copy)]
enum TypeSpec {
    Var(&'static str),
    WideIfWide(&'static str),
    Wide(&'static str),
    Half(&'static str),
    Quarter(&'static str),
    Fixed(Type),
    S32UnlessBothU32,
    Any,
}

#[derive(Default)]
struct Group {
    spec: &'static str,
    syntax: Vec<(usize, &'static str)>,
    vars: Vec<Var>,
    gate: Option<Gate>,
    alt_gate: Option<Gate>,
    cond_gates: Vec<CondGate>,
    exclusions: Vec<Exclusion>,
    types: Vec<TypeLine>,
}

/// Parses one table file into forms.
pub fn parse_table(file: &'static str, text: &'static str) -> Result<Vec<Form>, TableError> {
    let err = |line: usize, message: String| TableError {
        file,
        line,
        message,
    };
    let mut forms = Vec::new();
    let mut group: Option<Group> = None;
    let mut lines = text.lines().enumerate().peekable();
    while let Some((n, raw)) = lines.next() {
        let n = n + 1;
        let line = strip_comment(raw).trim();
        if let Some(spec) = raw.trim().strip_prefix("## ") {
            if let Some(g) = group.take() {
                finish_group(file, g, &mut forms)?;
            }
            group = Some(Group {
                spec: spec.trim(),
                ..Group::default()
            });
            continue;
        }
        if line.is_empty() {
            continue;
        }
        let Some(g) = group.as_mut() else {
            return Err(err(
                n,
                "text before the first `## spec` group header".into(),
            ));
        };
        if let Some(rest) = line.strip_prefix("gate or ") {
            g.alt_gate = Some(parse_gate(rest).map_err(|m| err(n, m))?);
        } else if let Some(rest) = line.strip_prefix("gate ") {
            let (cond, body) = split_condition(rest).map_err(|m| err(n, m))?;
            let (body, reason) = match body.split_once(" because ") {
                Some((b, r)) => (b, Some(r.trim())),
                None => (body, None),
            };
            let gate = parse_gate(body).map_err(|m| err(n, m))?;
            match (cond, reason) {
                (None, None) => g.gate = Some(gate),
                // A reason is reported with the gate, which a form-wide gate cannot carry:
                // keep it as a gate whose (empty) condition always holds.
                (c, reason) => g.cond_gates.push(CondGate {
                    when: c.unwrap_or_else(|| Condition::new(Vec::new())),
                    gate,
                    reason,
                }),
            }
        } else if let Some(rest) = line.strip_prefix("never ") {
            let (cond, reason) = split_condition(rest).map_err(|m| err(n, m))?;
            let Some(when) = cond else {
                return Err(err(n, "`never` needs `condition : reason`".into()));
            };
            g.exclusions.push(Exclusion {
                when,
                reason: reason.trim(),
            });
        } else if line.contains('=') {
            // Variables may span lines until the closing `;`.
            let mut def = line.to_string();
            while !def.ends_with(';') {
                let Some((_, more)) = lines.next() else {
                    return Err(err(n, "variable definition without `;`".into()));
                };
                def.push(' ');
                def.push_str(strip_comment(more).trim());
            }
            g.vars.push(parse_var(&def).map_err(|m| err(n, m))?);
        } else if line.ends_with(';') {
            g.syntax.push((n, line));
        } else if line.contains(':') {
            g.types.push(parse_type_line(line).map_err(|m| err(n, m))?);
        } else {
            return Err(err(n, format!("cannot read `{line}`")));
        }
    }
    if let Some(g) = group.take() {
        finish_group(file, g, &mut forms)?;
    }
    Ok(forms)
}

fn strip_comment(s: &'static str) -> &'static str {
    match s.find("//") {
        Some(i) => s.get(..i).unwrap_or(s),
        None => s,
    }
}

/// `".cc .u64|.s64 : rest"` → (condition, rest); no ` : ` → (None, whole). Terms:
/// `.a|.b` any present, `!.a|.b` none present, `.slot=.t1|.t2` the type slot holds one of,
/// `.a|.b<.c` one of `.a|.b` written before `.c`.
fn split_condition(s: &'static str) -> Result<(Option<Condition>, &'static str), String> {
    let Some(i) = s.find(" : ") else {
        return Ok((None, s));
    };
    let (c, rest) = (s.get(..i).unwrap_or(""), s.get(i + 3..).unwrap_or(""));
    let mut terms = Vec::new();
    for t in c.split_whitespace() {
        let (negated, t) = match t.strip_prefix('!') {
            Some(rest) => (true, rest),
            None => (false, t),
        };
        terms.push(if let Some((first, then)) = t.split_once('<') {
            if negated {
                return Err(format!("`!{t}`: an order term cannot be negated"));
            }
            Term::WrittenBefore {
                first: first.split('|').collect(),
                then: then.split('|').collect(),
            }
        } else if let Some((slot, types)) = t.split_once('=') {
            let types = types
                .split('|')
                .map(|x| Type::from_suffix(x).ok_or(format!("`{x}` is not a type")))
                .collect::<Result<_, _>>()?;
            if negated {
                Term::SlotIsNot { slot, types }
            } else {
                Term::SlotIs { slot, types }
            }
        } else if negated {
            Term::NoneOf(t.split('|').collect())
        } else {
            Term::AnyOf(t.split('|').collect())
        });
    }
    Ok((Some(Condition::new(terms)), rest))
}

fn parse_gate(s: &str) -> Result<Gate, String> {
    let mut gate = Gate::NONE;
    let mut words = s.split_whitespace();
    while let Some(w) = words.next() {
        if let Some(sm) = w.strip_prefix("sm_") {
            gate.min_sm = sm.parse().map_err(|_| format!("bad sm `{w}`"))?;
        } else if w == "ptx" {
            let v = words.next().ok_or("`ptx` needs a version")?;
            gate.min_ptx = parse_version(v)?;
        } else if w == "arch" {
            let mut list = Vec::new();
            for t in words.by_ref() {
                let body = t
                    .strip_prefix("sm_")
                    .ok_or(format!("bad arch target `{t}`"))?;
                let (digits, family) = match body.strip_suffix('f') {
                    Some(d) => (d, true),
                    None => (
                        body.strip_suffix('a')
                            .ok_or(format!("`{t}` needs a or f"))?,
                        false,
                    ),
                };
                let sm = digits
                    .parse()
                    .map_err(|_| format!("bad arch target `{t}`"))?;
                list.push(crate::form::ArchTarget { sm, family });
            }
            if list.is_empty() {
                return Err("`arch` needs at least one sm_NNa or sm_NNf".into());
            }
            gate.arch = Some(Box::leak(list.into_boxed_slice()));
        } else if w == "removed" {
            let v = words.next().ok_or("`removed` needs sm_NN or ptx X.Y")?;
            if v == "ptx" {
                let ver = words.next().ok_or("`removed ptx` needs a version")?;
                gate.max_ptx = Some(parse_version(ver)?);
            } else {
                let sm = v
                    .strip_prefix("sm_")
                    .ok_or("`removed` needs sm_NN or ptx X.Y")?;
                gate.max_sm = Some(sm.parse().map_err(|_| format!("bad sm `{v}`"))?);
            }
        } else {
            return Err(format!("unknown gate word `{w}`"));
        }
    }
    Ok(gate)
}

fn parse_version(v: &str) -> Result<PtxVersion, String> {
    let (a, b) = v.split_once('.').ok_or(format!("bad version `{v}`"))?;
    Ok(PtxVersion::new(
        a.parse().map_err(|_| format!("bad version `{v}`"))?,
        b.parse().map_err(|_| format!("bad version `{v}`"))?,
    ))
}

fn parse_var(def: &str) -> Result<Var, String> {
    let def: &'static str = Box::leak(def.to_string().into_boxed_str());
    let open = def.find('{').ok_or("variable without `{`")?;
    let close = def.rfind('}').ok_or("variable without `}`")?;
    let head = def.get(..open).unwrap_or("");
    let body = def.get(open + 1..close).unwrap_or("");
    let mut names = Vec::new();
    let mut class = None;
    for part in head.split('=').map(str::trim).filter(|p| !p.is_empty()) {
        let (name, cls) = match part.split_once(" : ") {
            Some((n, c)) => (n.trim(), Some(c.trim())),
            None => (part, None),
        };
        names.push(name);
        if let Some(c) = cls {
            class = Some(ModClass::from_name(c).ok_or(format!("unknown class `{c}`"))?);
        }
    }
    let spellings: Vec<&'static str> = body
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    let opcode_list = names.iter().all(|n| !n.starts_with('.'));
    if let Some(bad) = spellings.iter().find(|s| s.starts_with('.') == opcode_list) {
        return Err(format!("`{bad}`: modifiers start with `.`, opcodes do not"));
    }
    Ok(Var {
        names,
        class,
        spellings,
    })
}

fn parse_type_line(line: &'static str) -> Result<TypeLine, String> {
    let (lhs, rhs) = line.split_once(':').ok_or("type line needs `:`")?;
    let names = lhs.split(',').map(str::trim).collect();
    let mut kind = None;
    let mut ty = None;
    let mut geom = false;
    let mut vec = false;
    let mut words = rhs.split_whitespace();
    while let Some(w) = words.next() {
        let k = match w {
            "dst" => Some(OperandKind::Dst),
            "src" => Some(OperandKind::Src),
            "reg" => Some(OperandKind::SrcReg),
            "imm" => Some(OperandKind::Imm),
            "sym" => Some(OperandKind::SrcSym),
            "label" => Some(OperandKind::Label),
            "targets" => Some(OperandKind::TargetList),
            "func" => Some(OperandKind::Func),
            "proto" => Some(OperandKind::Proto),
            _ => None,
        };
        if k.is_some() {
            kind = k;
            continue;
        }
        ty = Some(match w {
            "wideif" => TypeSpec::WideIfWide(words.next().ok_or("`wideif` needs a variable")?),
            "wide" => TypeSpec::Wide(words.next().ok_or("`wide` needs a variable")?),
            "half" => TypeSpec::Half(words.next().ok_or("`half` needs a variable")?),
            "quarter" => TypeSpec::Quarter(words.next().ok_or("`quarter` needs a variable")?),
            "geomvec" => {
                geom = true;
                continue;
            }
            "vec" => {
                vec = true;
                continue;
            }
            "dp4a-c" => TypeSpec::S32UnlessBothU32,
            "any" => TypeSpec::Any,
            _ => match Type::from_suffix(w) {
                Some(t) => TypeSpec::Fixed(t),
                None if w.starts_with('.') => TypeSpec::Var(w),
                None => return Err(format!("unknown operand kind or type `{w}`")),
            },
        });
    }
    Ok(TypeLine {
        names,
        kind,
        ty,
        geom,
        vec,
    })
}

fn finish_group(file: &'static str, g: Group, out: &mut Vec<Form>) -> Result<(), TableError> {
    for &(n, syntax) in &g.syntax {
        let forms = parse_forms(&g, syntax).map_err(|message| TableError {
            file,
            line: n,
            message,
        })?;
        out.extend(forms);
    }
    Ok(())
}

fn find_var<'g>(g: &'g Group, name: &str) -> Option<&'g Var> {
    g.vars.iter().find(|v| v.names.contains(&name))
}

fn infer_class(spellings: &[&str]) -> Option<ModClass> {
    ModClass::INFERENCE_ORDER
        .iter()
        .copied()
        .find(|c| spellings.iter().all(|s| c.decode(s).is_some()))
}

fn make_slot(
    name: &'static str,
    optional: bool,
    spellings: Vec<&'static str>,
    class: Option<ModClass>,
) -> Result<Slot, String> {
    let mut ids = crate::spell::SpellSet::default();
    for s in &spellings {
        ids.insert(crate::spell::spelling_id(s).ok_or(format!("`{s}` has no spelling id"))?);
    }
    let types: Option<Vec<Type>> = spellings.iter().map(|s| Type::from_suffix(s)).collect();
    let kind = match (types, class) {
        (Some(types), None) => SlotKind::Type { types },
        (_, class) => {
            let class = match class {
                Some(c) => c,
                None => infer_class(&spellings)
                    .ok_or(format!("no modifier class admits all of {spellings:?}"))?,
            };
            if let Some(bad) = spellings.iter().find(|s| class.decode(s).is_none()) {
                return Err(format!("`{bad}` is not a {}", class.name()));
            }
            SlotKind::Mod { class, spellings }
        }
    };
    Ok(Slot {
        name,
        optional,
        kind,
        ids,
    })
}

/// One syntax line gives one form, or one per opcode when it starts with an opcode variable
/// (`vop.dtype…` with `vop = { vadd, vsub, … };`).
fn parse_forms(g: &Group, syntax: &'static str) -> Result<Vec<Form>, String> {
    let body = syntax.trim_end_matches(';').trim();
    let split = body.find(|c: char| c.is_whitespace()).unwrap_or(body.len());
    let (head, ops) = (
        body.get(..split).unwrap_or(""),
        body.get(split..).unwrap_or("").trim(),
    );
    let name_end = head.find(['.', '{']).unwrap_or(head.len());
    let name = head.get(..name_end).unwrap_or("");
    let names = match find_var(g, name) {
        Some(v) => v.spellings.clone(),
        None => vec![name],
    };
    let mut out = Vec::new();
    for name in names {
        let opcode = Opcode::from_name(name).ok_or(format!("unknown opcode `{name}`"))?;
        let slots = parse_slots(g, head.get(name_end..).unwrap_or(""))?;
        let operands = parse_operands(g, opcode, &slots, ops)?;
        out.push(Form {
            syntax,
            opcode,
            slots,
            operands,
            gate: g.gate.unwrap_or(Gate::NONE),
            alt_gate: g.alt_gate,
            cond_gates: g.cond_gates.clone(),
            exclusions: g.exclusions.clone(),
            spec: g.spec,
        });
    }
    Ok(out)
}

fn parse_slots(g: &Group, mut s: &'static str) -> Result<Vec<Slot>, String> {
    let mut slots = Vec::new();
    while !s.is_empty() {
        if let Some(rest) = s.strip_prefix('{') {
            let close = rest.find('}').ok_or("unclosed `{` in modifiers")?;
            let inner = rest.get(..close).unwrap_or("");
            s = rest.get(close + 1..).unwrap_or("");
            let parts: Vec<&'static str> = inner.split(',').map(str::trim).collect();
            if parts.len() > 1 {
                slots.push(make_slot(inner, true, parts, None)?);
            } else if inner.matches('.').count() > 1 {
                // `{.xorsign.abs}`: each part optional; the table pairs them with `never` lines.
                let mut rest = inner;
                while let Some(r) = rest.strip_prefix('.') {
                    let end = r.find('.').map_or(rest.len(), |e| e + 1);
                    slots.push(var_or_literal(g, rest.get(..end).unwrap_or(""), true)?);
                    rest = rest.get(end..).unwrap_or("");
                }
            } else {
                slots.push(var_or_literal(g, inner, true)?);
            }
        } else if let Some(rest) = s.strip_prefix('.') {
            let end = rest.find(['.', '{']).unwrap_or(rest.len());
            let word = s.get(..end + 1).unwrap_or("");
            s = rest.get(end..).unwrap_or("");
            slots.push(var_or_literal(g, word, false)?);
        } else {
            return Err(format!("cannot read modifiers at `{s}`"));
        }
    }
    Ok(slots)
}

fn var_or_literal(g: &Group, word: &'static str, optional: bool) -> Result<Slot, String> {
    match find_var(g, word) {
        Some(v) => make_slot(word, optional, v.spellings.clone(), v.class),
        None => make_slot(word, optional, vec![word], None),
    }
}

/// Whether the opcode's first operand is a destination.
fn has_destination(op: Opcode) -> bool {
    !matches!(
        op,
        Opcode::St
            | Opcode::Red
            | Opcode::Bar
            | Opcode::Barrier
            | Opcode::Membar
            | Opcode::Fence
            | Opcode::Bra
            | Opcode::Brx
            | Opcode::Call
            | Opcode::Ret
            | Opcode::Exit
            | Opcode::Trap
            | Opcode::Brkpt
            | Opcode::Pmevent
            | Opcode::Prefetch
            | Opcode::Prefetchu
            | Opcode::Nanosleep
            | Opcode::Cp
            | Opcode::Stmatrix
    )
}

/// Splits an operand list at top-level commas; `{, b}` groups become optional operands.
fn split_operands(ops: &'static str) -> Result<Vec<(&'static str, bool)>, String> {
    let mut out = Vec::new();
    let bytes = ops.as_bytes();
    let mut depth = 0i32;
    let mut start = 0usize;
    let mut i = 0usize;
    let push = |out: &mut Vec<(&'static str, bool)>, a: usize, b: usize, opt: bool| {
        let t = ops.get(a..b).unwrap_or("").trim();
        if !t.is_empty() {
            out.push((t, opt));
        }
    };
    while let Some(&c) = bytes.get(i) {
        match c {
            b'{' if depth == 0
                && ops
                    .get(i + 1..)
                    .is_some_and(|r| r.trim_start().starts_with(',')) =>
            {
                // An optional group `{, b, c}`: everything up to the matching `}` is optional.
                push(&mut out, start, i, false);
                let close = ops
                    .get(i..)
                    .and_then(|r| r.find('}'))
                    .ok_or("unclosed `{,`")?
                    + i;
                let inner = ops.get(i + 1..close).unwrap_or("");
                for part in inner.split(',').map(str::trim).filter(|p| !p.is_empty()) {
                    out.push((part, true));
                }
                i = close + 1;
                start = i;
                continue;
            }
            b'{' | b'[' | b'(' => depth += 1,
            b'}' | b']' | b')' => depth -= 1,
            b',' if depth == 0 => {
                push(&mut out, start, i, false);
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    push(&mut out, start, ops.len(), false);
    Ok(out)
}

fn parse_operands(
    g: &Group,
    opcode: Opcode,
    slots: &[Slot],
    ops: &'static str,
) -> Result<Vec<Operand>, String> {
    // A group's type line names a variable (`.type`); a form of the group that spells a literal
    // type instead (`add{.sat}.s32` beside `add.type`) has one type slot, which stands for it.
    let type_slot_index = |var: &str| -> Option<u8> {
        let mut types = slots.iter().filter(|s| s.is_type());
        let by_name = types.clone().position(|s| s.name == var);
        let only = (types.clone().count() == 1 && types.next().is_some()).then_some(0);
        by_name.or(only).and_then(|p| u8::try_from(p).ok())
    };
    let has_types = slots.iter().any(|s| s.is_type());
    let has_vec = slots
        .iter()
        .any(|s| s.spellings().iter().any(|x| x.starts_with(".v")));
    let simd = match opcode.name().chars().last() {
        Some('2') => 2,
        Some('4') => 4,
        _ => 1,
    };
    let mut out = Vec::new();
    for (pos, (text, optional)) in split_operands(ops)?.into_iter().enumerate() {
        let mut t = text;
        let mut negate = Negate::None;
        for (p, n) in [
            ("{!}", Negate::Not),
            ("!", Negate::Not),
            ("{-}", Negate::Minus),
            ("-", Negate::Minus),
        ] {
            if let Some(r) = t.strip_prefix(p) {
                negate = n;
                t = r;
                break;
            }
        }
        let mut selector = Selector::None;
        let (core, kind, vector, name) = if let Some(inner) = t.strip_prefix('[') {
            let inner = inner.trim_end_matches(']');
            // `[a, c]`: the operand is named for its coordinates `c`, which type lines describe
            // (the texture `a` is untyped).
            let (k, named) = match inner.split_once(',') {
                Some((_, coords)) => (OperandKind::TexAddr, coords.trim()),
                None => (OperandKind::Addr, inner.trim()),
            };
            (t, k, VecRule::Scalar, named)
        } else if let Some(inner) = t.strip_prefix('(') {
            (
                t,
                OperandKind::ParamList,
                VecRule::Scalar,
                inner.trim_end_matches(')').trim(),
            )
        } else if let Some(inner) = t.strip_prefix('{').filter(|_| t.ends_with('}')) {
            let inner = inner.trim_end_matches('}');
            let n = u8::try_from(inner.split(',').count()).map_err(|_| "vector too long")?;
            let k = if pos == 0 && has_destination(opcode) {
                OperandKind::Dst
            } else {
                OperandKind::Src
            };
            (
                t,
                k,
                VecRule::Fixed(n),
                inner.split(',').next().unwrap_or("").trim(),
            )
        } else {
            // name, name|name, name[|name], name{.sel}, name.sel
            let end = t.find(['{', '.', '|', '[']).unwrap_or(t.len());
            let name = t.get(..end).unwrap_or("");
            let rest = t.get(end..).unwrap_or("");
            let pair = rest.starts_with('|') || rest.starts_with("[|");
            if rest.starts_with("{.") {
                selector = match (rest.contains("mask"), simd) {
                    (true, 2) => Selector::OptionalMask2,
                    (true, _) => Selector::OptionalMask4,
                    (false, 2) => Selector::OptionalHalves,
                    (false, 4) => Selector::OptionalBytes,
                    (false, _) => Selector::OptionalByteHalf,
                };
            } else if rest.starts_with('.') {
                selector = Selector::RequiredByteHalf;
            }
            let k = if pair {
                OperandKind::DstPair
            } else if pos == 0 && has_destination(opcode) {
                OperandKind::Dst
            } else {
                OperandKind::Src
            };
            let v = if k == OperandKind::Dst && has_vec {
                VecRule::FromVecMod
            } else {
                VecRule::Scalar
            };
            (t, k, v, name)
        };
        let _ = core;
        let line = g.types.iter().find(|l| l.names.contains(&name));
        let kind = line.and_then(|l| l.kind).unwrap_or(kind);
        let default_ty = match kind {
            OperandKind::DstPair => TypeRef::Fixed(Type::Pred),
            _ if negate == Negate::Not => TypeRef::Fixed(Type::Pred),
            OperandKind::Dst
            | OperandKind::Src
            | OperandKind::SrcReg
            | OperandKind::Imm
            | OperandKind::SrcSym
                if has_types =>
            {
                TypeRef::Slot(0)
            }
            _ => TypeRef::Any,
        };
        let ty = match line.and_then(|l| l.ty) {
            None => default_ty,
            Some(TypeSpec::Fixed(t)) => TypeRef::Fixed(t),
            Some(TypeSpec::Any) => TypeRef::Any,
            Some(TypeSpec::S32UnlessBothU32) => TypeRef::S32UnlessBothU32,
            Some(TypeSpec::Var(v)) => {
                TypeRef::Slot(type_slot_index(v).ok_or(format!("no type slot `{v}`"))?)
            }
            Some(TypeSpec::Wide(v)) => {
                TypeRef::Wide(type_slot_index(v).ok_or(format!("no type slot `{v}`"))?)
            }
            Some(TypeSpec::Half(v)) => {
                TypeRef::Half(type_slot_index(v).ok_or(format!("no type slot `{v}`"))?)
            }
            Some(TypeSpec::Quarter(v)) => {
                TypeRef::Quarter(type_slot_index(v).ok_or(format!("no type slot `{v}`"))?)
            }
            Some(TypeSpec::WideIfWide(v)) => {
                TypeRef::WideIfWide(type_slot_index(v).ok_or(format!("no type slot `{v}`"))?)
            }
        };
        // The stored value of `st`/`red`-like forms is a vector when `.v2/.v4` is spelled.
        let vector = if line.is_some_and(|l| l.geom) {
            VecRule::FromGeom
        } else if line.is_some_and(|l| l.vec)
            || (kind == OperandKind::Src && has_vec && opcode == Opcode::St && pos == 1)
        {
            VecRule::FromVecMod
        } else {
            vector
        };
        out.push(Operand {
            name,
            kind,
            ty,
            optional,
            negate,
            selector,
            vector,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &'static str) -> TableError {
        parse_table("t.isa", text).unwrap_err()
    }

    #[test]
    fn a_group_reads_like_the_manual() {
        let forms = parse_table(
            "t.isa",
            "## spec §x\nadd.type d, a, b;\nadd{.sat}.s32 d, a, b;\n.type = { .u16,\n  .u32 };\ngate .u32 : sm_20 ptx 2.0\n",
        )
        .unwrap();
        assert_eq!(forms.len(), 2);
        assert_eq!(forms[0].slots.len(), 1);
        assert!(forms[0].slots[0].admits(".u16") && !forms[0].slots[0].admits(".s32"));
        assert!(forms[1].slots[0].optional && !forms[1].slots[1].optional);
        assert_eq!(forms[0].cond_gates[0].gate.min_sm, 20);
        assert_eq!(forms[0].operands.len(), 3);
        assert_eq!(forms[0].operands[0].kind, OperandKind::Dst);
        assert_eq!(forms[0].operands[1].kind, OperandKind::Src);
    }

    #[test]
    fn mistakes_in_a_table_name_file_and_line() {
        let e = err("## s\nfrob.u32 d, a;\n");
        assert_eq!((e.file, e.line), ("t.isa", 2));
        assert!(e.message.contains("unknown opcode `frob`"), "{}", e.message);
        let e = err("add.u32 d, a;\n");
        assert!(e.message.contains("before the first"));
        let e = err("## s\nadd.x d, a;\n.x : Nope = { .u32 };\n");
        assert!(e.message.contains("unknown class `Nope`"), "{}", e.message);
        let e = err("## s\nadd.u32 d, a;\ngate sm_x\n");
        assert_eq!(e.line, 3);
        let e = err("## s\nadd.u32 d, a;\ngate fast\n");
        assert!(e.message.contains("unknown gate word"));
        let e = err("## s\nadd.m.u32 d, a;\n.m = { .rn, .eq };\n");
        assert!(e.message.contains("no modifier class"), "{}", e.message);
        let e = err("## s\nadd.u32 d, a;\nnever .sat\n");
        assert!(
            e.message.contains("needs `condition : reason`"),
            "{}",
            e.message
        );
        let e = err("## s\nadd.u32 d, a;\nd : wibble\n");
        assert!(
            e.message.contains("unknown operand kind or type"),
            "{}",
            e.message
        );
        let e = err("## s\nadd.u32 d, a;\n.t = { .u32\n");
        assert!(e.message.contains("without `;`"), "{}", e.message);
    }
}
