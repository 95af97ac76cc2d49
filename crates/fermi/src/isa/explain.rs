//! Which bits of a word mean what: the decoded row's fields with their bit positions, for a
//! `sass explain`-style view and for debugging the table.

use super::bits::from_listing;
use super::compiled::{operand_mask, GUARD_LO, SCHED_BIT};
use super::decode::decode;
use super::print::{print_operand, print_pred, spelling};
use super::types::{DecodeError, Guard};
use super::Dialect;

/// One field of an instruction word.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// What the field is (`opcode`, `guard`, `comparison`, `operand 2`, …).
    pub what: String,
    /// The bits it occupies (spec numbering: bit 0 is the first printed half's lowest bit).
    pub mask: u64,
    /// Its meaning in the instruction's text (a modifier spelling, an operand, …).
    pub text: String,
}

/// The fields of a listing word at address `addr`, opcode first.
pub fn explain(word: u64, addr: u64) -> Result<Vec<Field>, DecodeError> {
    let inst = decode(word)?;
    let row = inst.row;
    let bits = from_listing(word);
    let mut fields = Vec::new();
    let mut used = 1u64 << SCHED_BIT;
    if row.guarded {
        used |= 0xf << GUARD_LO;
    }
    for m in row.mods {
        used |= m.bits.iter().fold(0u64, |a, &b| a | 1 << b);
    }
    for o in row.operands {
        used |= operand_mask(o);
    }
    fields.push(Field {
        what: "opcode and fixed bits".into(),
        mask: !used,
        text: format!("{} (fixed bits {:#018x})", row.name, bits & !used),
    });
    if row.guarded {
        let g = if inst.guard == Guard::ALWAYS {
            "always".to_string()
        } else {
            let bang = if inst.guard.not { "!" } else { "" };
            format!("@{bang}{}", print_pred(inst.guard.pred))
        };
        fields.push(Field {
            what: "guard".into(),
            mask: 0xf << GUARD_LO,
            text: g,
        });
    }
    fields.push(Field {
        what: ".S".into(),
        mask: 1 << SCHED_BIT,
        text: if inst.sched { ".S" } else { "-" }.into(),
    });
    for (m, &v) in row.mods.iter().zip(inst.mods.iter()) {
        let s = spelling(m, v, Dialect::Current);
        fields.push(Field {
            what: m.what.into(),
            mask: m.bits.iter().fold(0u64, |a, &b| a | 1 << b),
            text: format!("{v} = {}", if s.is_empty() { "(default)" } else { s }),
        });
    }
    for (i, (o, v)) in row.operands.iter().zip(inst.operands.iter()).enumerate() {
        fields.push(Field {
            what: format!("operand {i}"),
            mask: operand_mask(o),
            text: print_operand(o, v, addr),
        });
    }
    Ok(fields)
}
