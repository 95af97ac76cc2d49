//! Inst → word. Starts from the row's fixed bits and writes each field.

use super::bits::{parse_template, put, scatter, to_listing};
use super::compiled::{field_mask, Code, OpInfo, RowInfo, GUARD_LO, SCHED_BIT, TABLES};
use super::rows::ROWS;
use super::schema::{Row, NONE};
use super::types::{Flags, Inst, Operand};

fn flag(bit: u8, on: bool) -> u64 {
    if bit != NONE && on {
        1u64 << bit
    } else {
        0
    }
}

/// `m` if `on`, else 0, without a branch.
#[inline]
fn when(m: u64, on: bool) -> u64 {
    m & u64::from(on).wrapping_neg()
}

fn flags(d: &OpInfo, f: Flags) -> u64 {
    when(d.neg(), f.neg) | when(d.not(), f.not) | when(d.abs(), f.abs) | when(d.cc(), f.cc)
}

/// The compiled form of a row of `ROWS` (found by its position in the slice).
fn row_info(row: &'static Row) -> Option<&'static RowInfo> {
    let base = ROWS.as_ptr() as usize;
    let index = (row as *const Row as usize).wrapping_sub(base) / std::mem::size_of::<Row>();
    TABLES.rows.get(index).filter(|r| std::ptr::eq(r.row, row))
}

/// Writes one operand's bits. A value of the wrong shape for the field writes nothing.
#[inline]
fn encode_operand(d: &OpInfo, v: &Operand) -> u64 {
    let (at, width) = (d.at, d.width);
    match (d.code, *v) {
        (Code::Reg, Operand::Reg(g, f)) => put(0, at, 6, g.index().into()) | flags(d, f),
        (Code::Pred, Operand::Pred(p, f)) => put(0, at, 3, p.index().into()) | flags(d, f),
        (Code::Comp, Operand::Reg(g, f)) => put(0, 26, 6, g.index().into()) | flags(d, f),
        (Code::Comp, Operand::Const(c, f)) => {
            put(0, 26, 16, c.offset.into()) | put(0, 42, 4, c.bank.into()) | (1 << 46) | flags(d, f)
        }
        (Code::Comp, Operand::Imm20(i, f)) => {
            put(0, 26, 20, i.value() as u64) | (3 << 46) | flags(d, f)
        }
        (Code::Imm, Operand::Imm(i)) => put(0, at, width, i64::from(i) as u64),
        (Code::Mem, Operand::Mem { base, offset }) => {
            put(0, 20, 6, base.index().into()) | put(0, 26, width, offset as i64 as u64)
        }
        (Code::Cmem, Operand::CMem { bank, base, offset }) => {
            put(0, 20, 6, base.index().into())
                | put(0, 26, 16, offset.into())
                | put(0, 42, 4, bank.into())
        }
        (Code::Sreg, Operand::Sreg(n)) => put(0, 26, 8, n.into()),
        (Code::Target, Operand::Target(rel)) => put(0, 26, width, i64::from(rel) as u64),
        (Code::AbsTarget, Operand::AbsTarget(a)) => put(0, 26, width, a.into()),
        _ => 0,
    }
}

/// Encodes to the listing word (as cuobjdump prints it). Fields hold only values that fit
/// (the newtypes and the parser guarantee it), so encoding cannot fail.
pub fn encode(inst: &Inst) -> u64 {
    let row = inst.row;
    let info = row_info(row);
    let (fixed, fixed_mask) = match info {
        Some(i) => (i.fixed, i.mask),
        // A row built outside the table: derive its fixed bits now.
        None => {
            let m = !field_mask(row);
            (parse_template(row.template).unwrap_or(0) & m, m)
        }
    };
    let mut bits = 0;
    if row.guarded {
        bits |= put(0, GUARD_LO, 3, inst.guard.pred.index().into());
        bits |= flag(GUARD_LO + 3, inst.guard.not);
    }
    bits |= flag(SCHED_BIT, inst.sched);
    match info {
        Some(i) => {
            for (m, &v) in i.mods.iter().zip(inst.mods.iter()).take(i.nmods) {
                bits |= m.put(v.into());
            }
            for (d, v) in i.ops.iter().zip(inst.operands.iter()).take(i.nops) {
                bits |= encode_operand(d, v);
            }
        }
        None => {
            for (m, &v) in row.mods.iter().zip(inst.mods.iter()) {
                bits |= scatter(m.bits, v.into());
            }
            for (o, v) in row.operands.iter().zip(inst.operands.iter()) {
                bits |= encode_operand(&OpInfo::new(o), v);
            }
        }
    }
    // Keep the fixed bits authoritative even if a field value was out of its range.
    to_listing((bits & !fixed_mask) | fixed)
}
