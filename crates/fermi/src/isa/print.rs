//! Inst → cuobjdump text.

use std::fmt::Write;

use super::schema::{Kind, Mod, Opd, NONE};
use super::sreg::print_sreg;
use super::types::{Flags, Gpr, Inst, Operand, Pred, MAX_OPERANDS};
use super::Dialect;

/// `0x1f` / `-0x30`, as cuobjdump prints signed immediates.
pub fn hex(v: i64) -> String {
    if v < 0 {
        format!("-0x{:x}", v.unsigned_abs())
    } else {
        format!("0x{v:x}")
    }
}

pub fn print_gpr(g: Gpr) -> String {
    if g == Gpr::RZ {
        "RZ".to_string()
    } else {
        format!("R{}", g.index())
    }
}

pub fn print_pred(p: Pred) -> String {
    if p == Pred::PT {
        "pt".to_string()
    } else {
        format!("P{}", p.index())
    }
}

/// The spelling of a modifier value in a dialect.
pub fn spelling(m: &Mod, v: u8, dialect: Dialect) -> &'static str {
    let legacy = match dialect {
        Dialect::Legacy => m.legacy.iter().find(|(k, _)| *k == v),
        Dialect::Current => None,
    };
    legacy
        .or_else(|| m.names.iter().find(|(k, _)| *k == v))
        .map_or("", |(_, n)| *n)
}

fn decorate(o: &Opd, f: Flags, body: String) -> String {
    let _ = o;
    let mut s = String::new();
    if f.neg {
        s.push('-');
    }
    if f.not {
        s.push('~');
    }
    if f.abs {
        s.push('|');
        s.push_str(&body);
        s.push('|');
    } else {
        s.push_str(&body);
    }
    if f.cc {
        s.push_str(".CC");
    }
    s
}

fn print_address(base: Gpr, offset: i64) -> String {
    if base == Gpr::RZ {
        hex(offset)
    } else if offset == 0 {
        print_gpr(base)
    } else {
        format!("{}+{}", print_gpr(base), hex(offset))
    }
}

/// Prints one operand of `o`'s shape.
pub fn print_operand(o: &Opd, v: &Operand, addr: u64) -> String {
    match *v {
        Operand::None => String::new(),
        Operand::Reg(g, f) => decorate(o, f, print_gpr(g)),
        Operand::Pred(p, f) => {
            let bang = if f.not { "!" } else { "" };
            format!("{bang}{}", print_pred(p))
        }
        Operand::Const(c, f) => decorate(o, f, format!("c [0x{:x}] [0x{:x}]", c.bank, c.offset)),
        // cuobjdump shows the raw 20-bit field; a `-` in front is the operand's negate bit.
        Operand::Imm20(i, f) => decorate(o, f, format!("0x{:x}", i.value() & 0xfffff)),
        Operand::Imm(i) => {
            // An unsigned field prints its bit pattern; a signed one its value.
            match o.kind {
                Kind::Imm { signed: false, .. } => format!("0x{:x}", i as u32),
                Kind::Named { names, .. } => names
                    .iter()
                    .find(|(v, _)| i32::from(*v) == i)
                    .map_or_else(|| format!("0x{i:x}"), |(_, n)| (*n).to_string()),
                _ => hex(i.into()),
            }
        }
        Operand::Mem { base, offset } => format!("[{}]", print_address(base, offset.into())),
        // An indexed constant always shows its offset (NVIDIA: `BRX c [0x10] [R4+0x0]`).
        Operand::CMem { bank, base, offset } if base != Gpr::RZ => {
            format!("c [0x{bank:x}] [{}+0x{offset:x}]", print_gpr(base))
        }
        Operand::CMem { bank, base, offset } => {
            format!("c [0x{bank:x}] [{}]", print_address(base, offset.into()))
        }
        Operand::Sreg(n) => print_sreg(n),
        Operand::Target(rel) => hex((addr as i64).wrapping_add(8).wrapping_add(rel.into())),
        Operand::AbsTarget(a) => format!("0x{a:x}"),
        Operand::Text => match o.kind {
            Kind::Text(t) => t.to_string(),
            _ => String::new(),
        },
    }
}

/// The cuobjdump text of `inst` at byte address `addr`, without the trailing `;`.
pub fn print_with(inst: &Inst, addr: u64, dialect: Dialect) -> String {
    let row = inst.row;
    let mut s = String::with_capacity(48);
    if row.guarded && inst.guard != super::types::Guard::ALWAYS {
        let bang = if inst.guard.not { "!" } else { "" };
        let _ = write!(s, "@{bang}{} ", print_pred(inst.guard.pred));
    }
    s.push_str(row.name);
    // Sub-word selects (`:B1` in a source-type spelling) print on their operands.
    let mut sels = [""; MAX_OPERANDS];
    for (m, &v) in row.mods.iter().zip(inst.mods.iter()) {
        let sp = spelling(m, v, dialect);
        if !sp.contains(':') {
            s.push_str(sp);
            continue;
        }
        for (k, part) in sp.split('.').filter(|p| !p.is_empty()).enumerate() {
            let (ty, sel) = part.split_once(':').unwrap_or((part, ""));
            s.push('.');
            s.push_str(ty);
            if let Some(slot) = sels.get_mut(k + 1) {
                *slot = sel;
            }
        }
    }
    let po = is_po(inst);
    if po {
        s.push_str(".PO");
    }
    if inst.sched {
        s.push_str(".S");
    }
    let short = omits_operands(inst);
    let mut first = true;
    for ((o, v), sel) in row.operands.iter().zip(inst.operands.iter()).zip(sels) {
        if short && o.omit != NONE {
            continue;
        }
        s.push_str(if first { " " } else { ", " });
        first = false;
        let v = if po { without_neg(v) } else { *v };
        s.push_str(&print_operand(o, &v, addr));
        if !sel.is_empty() {
            s.push('.');
            s.push_str(sel);
        }
    }
    s
}

/// Whether operand `v` holds the value at which `o` may be left out of the text.
pub fn is_omitted_value(o: &Opd, v: &Operand) -> bool {
    let omit = o.omit;
    omit != NONE
        && match *v {
            Operand::Reg(g, f) => g.index() == omit && f == Flags::default(),
            Operand::Pred(p, f) => p.index() == omit && f == Flags::default(),
            Operand::Imm(i) => i == i32::from(omit),
            _ => false,
        }
}

/// Whether `inst` prints in its short form: its row has operands that may be left out and
/// every one of them holds its omitted value.
fn omits_operands(inst: &Inst) -> bool {
    let mut omittable = inst
        .row
        .operands
        .iter()
        .zip(inst.operands.iter())
        .filter(|(o, _)| o.omit != NONE)
        .peekable();
    omittable.peek().is_some() && omittable.all(|(o, v)| is_omitted_value(o, v))
}

/// Whether `inst` prints as `.PO`: its row allows it and both negatable operands are negated.
pub fn is_po(inst: &Inst) -> bool {
    let mut negs = inst
        .row
        .operands
        .iter()
        .zip(inst.operands.iter())
        .filter(|(o, _)| o.neg != NONE);
    inst.row.po && negs.clone().count() == 2 && negs.all(|(_, v)| neg_of(v))
}

fn neg_of(v: &Operand) -> bool {
    match v {
        Operand::Reg(_, f) | Operand::Const(_, f) | Operand::Imm20(_, f) => f.neg,
        _ => false,
    }
}

fn without_neg(v: &Operand) -> Operand {
    let clear = |f: Flags| Flags { neg: false, ..f };
    match *v {
        Operand::Reg(g, f) => Operand::Reg(g, clear(f)),
        Operand::Const(c, f) => Operand::Const(c, clear(f)),
        Operand::Imm20(i, f) => Operand::Imm20(i, clear(f)),
        other => other,
    }
}
