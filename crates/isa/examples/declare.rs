//! Dev tool for `tests/spec-examples`: reads one PTX instruction per line on stdin (optionally
//! with a guard `@p`/`@!p`), matches it against the table and prints what a minimal kernel must
//! declare for it, using the operand types the table gives:
//!
//! ```text
//! gate <sm> <ptx> [max_ptx]      then one line per name:
//! reg <type> <name> | vreg <n> <type> <name> | label <name> | tex <name> | func <name>
//! ```
//! or `ERR <message>`. Run: `cargo run -p ptxvm-isa --example declare < lines.txt`.

use std::collections::BTreeMap;
use std::io::BufRead;

use isa::{match_all, Match, OperandKind, Type, VecRule};

fn split_top(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for c in s.chars() {
        match c {
            '{' | '[' | '(' => depth += 1,
            '}' | ']' | ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(cur.trim().to_string());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

/// A user name to declare: not a number, not a special register.
fn is_name(s: &str) -> bool {
    let mut c = s.chars();
    matches!(c.next(), Some(ch) if ch.is_ascii_alphabetic() || ch == '_' || ch == '$' || ch == '%')
        && isa::lookup_special_reg(s).is_none()
}

fn base_name(s: &str) -> &str {
    let s = s.trim().trim_start_matches(['!', '-']);
    let end = s
        .char_indices()
        .find(|&(i, c)| {
            !(c.is_ascii_alphanumeric() || c == '_' || c == '$' || (i == 0 && c == '%'))
        })
        .map_or(s.len(), |(i, _)| i);
    s.get(..end).unwrap_or("")
}

fn declare(line: &str, addr: Type) -> Result<(String, BTreeMap<String, String>), String> {
    let mut decls = BTreeMap::new();
    let mut rest = line.trim().trim_end_matches(';').trim();
    if let Some(g) = rest.strip_prefix('@') {
        let end = g
            .find(char::is_whitespace)
            .ok_or("guard without instruction")?;
        let p = base_name(g.get(..end).unwrap_or(""));
        decls.insert(p.to_string(), "reg .pred".to_string());
        rest = g.get(end..).unwrap_or("").trim();
    }
    let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
    let (head, ops) = (
        rest.get(..end).unwrap_or(""),
        rest.get(end..).unwrap_or("").trim(),
    );
    let (op, mods_s) = head.split_once('.').map_or((head, ""), |(a, b)| (a, b));
    let mut mods: Vec<String> = Vec::new();
    let mut cur = String::new();
    for part in mods_s.split('.') {
        if part.is_empty() {
            continue;
        }
        if part.starts_with(':') || cur.ends_with(':') {
            cur.push('.');
            cur.push_str(part);
        } else {
            if !cur.is_empty() {
                mods.push(cur.clone());
            }
            cur = format!(".{part}");
        }
    }
    if !cur.is_empty() {
        mods.push(cur);
    }
    let mods: Vec<&str> = mods.iter().map(String::as_str).collect();
    let operands = if ops.is_empty() {
        Vec::new()
    } else {
        split_top(ops)
    };
    let candidates: Vec<Match> = match_all(op, &mods).collect();
    if candidates.is_empty() {
        return Err(match isa::match_form(op, &mods) {
            Err(e) => e.message,
            Ok(_) => "no form".into(),
        });
    }
    // Pick the form whose operand count and shapes fit.
    let shape_fits = |m: &Match, o: &[String]| -> Option<Vec<usize>> {
        let f = m.form;
        let total = f.operands.len();
        let n = o.len();
        if n > total || n < f.required_operands() {
            return None;
        }
        let mut drop = total - n;
        let mut idx: Vec<usize> = Vec::new();
        for (i, fo) in f.operands.iter().enumerate().rev() {
            if drop > 0 && fo.optional {
                drop -= 1;
                continue;
            }
            idx.push(i);
        }
        idx.reverse();
        for (text, &i) in o.iter().zip(&idx) {
            let fo = f.operands.get(i)?;
            let t = text.trim();
            let is_addr = t.starts_with('[');
            let is_paren = t.starts_with('(');
            let wants_addr = matches!(fo.kind, OperandKind::Addr | OperandKind::TexAddr);
            if is_addr != wants_addr || is_paren != (fo.kind == OperandKind::ParamList) {
                return None;
            }
            if t.starts_with('{') && fo.vector == VecRule::Scalar {
                return None;
            }
        }
        Some(idx)
    };
    let (m, idx) = candidates
        .iter()
        .find_map(|m| shape_fits(m, &operands).map(|i| (*m, i)))
        .ok_or_else(|| format!("no form of `{}` takes these operands", head))?;
    for (text, &i) in operands.iter().zip(&idx) {
        let fo = &m.form.operands[i];
        let ty = m.operand_type(i);
        let tsuf = ty.map(|t| t.suffix()).unwrap_or(".b32");
        let t = text.trim();
        match fo.kind {
            OperandKind::Addr => {
                let inner = t.trim_start_matches('[').trim_end_matches(']');
                let b = base_name(inner);
                if is_name(b) {
                    decls
                        .entry(b.to_string())
                        .or_insert(format!("reg {}", addr.suffix()));
                }
            }
            OperandKind::TexAddr => {
                let inner = t.trim_start_matches('[').trim_end_matches(']');
                let parts = split_top(inner);
                if let Some(tex) = parts.first() {
                    decls.insert(base_name(tex).to_string(), "tex".into());
                }
                if let Some(c) = parts.get(1) {
                    let ct = m.operand_type(i).map(|t| t.suffix()).unwrap_or(".f32");
                    for e in split_top(c.trim_start_matches('{').trim_end_matches('}')) {
                        let b = base_name(&e);
                        if is_name(b) {
                            decls.entry(b.to_string()).or_insert(format!("reg {ct}"));
                        }
                    }
                }
            }
            OperandKind::Label => {
                decls.insert(base_name(t).to_string(), "label".into());
            }
            OperandKind::Func | OperandKind::Proto | OperandKind::ParamList => {
                for e in split_top(t.trim_start_matches('(').trim_end_matches(')')) {
                    let b = base_name(&e);
                    if is_name(b) {
                        let kind = if fo.kind == OperandKind::ParamList {
                            "param"
                        } else {
                            "func"
                        };
                        decls.entry(b.to_string()).or_insert(kind.into());
                    }
                }
            }
            // ptx-isa-1.1's `tex` names the texture directly (§7.7.5 Table 44 example).
            OperandKind::SrcSym if m.form.opcode == isa::Opcode::Tex => {
                decls.insert(base_name(t).to_string(), "tex".into());
            }
            _ => {
                if t.starts_with('{') {
                    for e in split_top(t.trim_start_matches('{').trim_end_matches('}')) {
                        let b = base_name(&e);
                        if is_name(b) {
                            decls.entry(b.to_string()).or_insert(format!("reg {tsuf}"));
                        }
                    }
                } else if fo.kind == OperandKind::DstPair || t.contains('|') {
                    let mut parts = t.split('|');
                    if let Some(a) = parts.next() {
                        decls
                            .entry(base_name(a).to_string())
                            .or_insert(format!("reg {tsuf}"));
                    }
                    if let Some(b) = parts.next() {
                        decls
                            .entry(base_name(b).to_string())
                            .or_insert("reg .pred".into());
                    }
                } else {
                    let b = base_name(t);
                    if is_name(b) {
                        let lanes = match (fo.vector, m.mods.vec) {
                            (VecRule::FromVecMod, Some(v)) => v.lanes(),
                            (VecRule::Fixed(n), _) => u32::from(n),
                            _ => 1,
                        };
                        let d = if lanes > 1 {
                            format!("vreg {lanes} {tsuf}")
                        } else if t.contains('[') {
                            format!("var {tsuf}")
                        } else {
                            format!("reg {tsuf}")
                        };
                        decls.entry(b.to_string()).or_insert(d);
                    }
                }
            }
        }
    }
    let g = m.gate();
    let gate = format!(
        "{} {} {}",
        g.min_sm,
        g.min_ptx,
        g.max_ptx
            .map(|v| v.to_string())
            .unwrap_or_else(|| "-".into())
    );
    Ok((gate, decls))
}

fn main() {
    let addr = match std::env::args().nth(1).as_deref() {
        Some("32") => Type::U32,
        _ => Type::U64,
    };
    for line in std::io::stdin().lock().lines().map_while(Result::ok) {
        match declare(&line, addr) {
            Ok((gate, decls)) => {
                let mut out = format!("gate {gate}");
                for (name, d) in decls {
                    out.push_str(&format!("\t{d} {name}"));
                }
                println!("{out}");
            }
            Err(e) => println!("ERR {e}"),
        }
    }
}
