//! Inst → word. Starts from the row's fixed bits and writes each field.
//!
//! The field code is written once (`encode_with`) and instantiated per row with the row's
//! compiled layout as a constant (`encode_at`); a row built outside the table is compiled on
//! the spot.

use super::bits::{put, to_listing};
use super::compiled::{
    compile_row, per_row, per_row_entry, row_index, row_info, Code, OpInfo, RowInfo, GUARD_LO,
    SCHED_BIT,
};
use super::types::{Flags, Inst, Operand};

/// `m` if `on`, else 0, without a branch.
#[inline(always)]
fn when(m: u64, on: bool) -> u64 {
    m & u64::from(on).wrapping_neg()
}

#[inline(always)]
fn flags(d: &OpInfo, f: Flags) -> u64 {
    when(d.neg(), f.neg) | when(d.not(), f.not) | when(d.abs(), f.abs) | when(d.cc(), f.cc)
}

/// Writes one operand's bits. A value of the wrong shape for the field writes nothing.
#[inline(always)]
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
                | put(0, 42, 5, bank.into())
        }
        (Code::SplitPred, Operand::Pred(p, _)) => {
            let n = u64::from(p.index());
            put(0, 8, 2, n) | put(0, 58, 1, n >> 2)
        }
        (Code::Const, Operand::Const(c, f)) => {
            put(0, 26, 16, c.offset.into()) | put(0, 42, 4, c.bank.into()) | flags(d, f)
        }
        (Code::Sreg, Operand::Sreg(n)) => put(0, 26, 8, n.into()),
        (Code::Target, Operand::Target(rel)) => put(0, 26, width, i64::from(rel) as u64),
        (Code::AbsTarget, Operand::AbsTarget(a)) => put(0, 26, width, a.into()),
        (Code::AtomMem, Operand::Mem { base, offset }) => {
            let off = offset as i64 as u64;
            put(0, 20, 6, base.index().into()) | put(0, 26, 17, off) | put(0, 55, 3, off >> 17)
        }
        (Code::MemWords, Operand::Mem { base, offset }) => {
            put(0, 20, 6, base.index().into()) | put(0, at, width, (offset >> 2) as i64 as u64)
        }
        _ => 0,
    }
}

/// Encodes `inst` with the layout `info` (its row's).
#[inline(always)]
fn encode_with(info: &RowInfo, inst: &Inst) -> u64 {
    let mut bits = 0;
    if info.guarded {
        bits |= put(0, GUARD_LO, 3, inst.guard.pred.index().into());
        bits |= when(1 << (GUARD_LO + 3), inst.guard.not);
    }
    bits |= when(1 << SCHED_BIT, inst.sched);
    for (m, &v) in info.mods().iter().zip(inst.mods.iter()) {
        bits |= m.put(v.into());
    }
    for (d, v) in info.ops().iter().zip(inst.operands.iter()) {
        bits |= encode_operand(d, v);
    }
    // Keep the fixed bits authoritative even if a field value was out of its range.
    to_listing((bits & !info.mask) | info.fixed)
}

/// The encoder of row `I`, its layout a constant.
fn encode_at<const I: usize>(inst: &Inst) -> u64 {
    encode_with(const { &row_info(I) }, inst)
}

type EncodeFn = fn(&Inst) -> u64;

static ENCODERS: [[EncodeFn; 16]; 16] = per_row!(encode_at);

/// Encodes to the listing word (as cuobjdump prints it). Fields hold only values that fit
/// (the newtypes and the parser guarantee it), so encoding cannot fail. Inlined: only the
/// dispatch is here, the row's encoder is called.
#[inline]
pub fn encode(inst: &Inst) -> u64 {
    match row_index(inst.row).and_then(|i| per_row_entry(&ENCODERS, i)) {
        Some(encode_row) => encode_row(inst),
        // A row built outside the table: compile it now.
        None => encode_with(&compile_row(inst.row), inst),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::bits::to_listing;
    use crate::isa::decode;
    use crate::isa::rows::ROWS;

    /// Each row's build-time encoder against the same field code on the row compiled at run
    /// time, over words built on every row's fixed bits.
    #[test]
    fn per_row_encoders_agree_with_the_row_compiled_at_run_time() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut checked = 0;
        for row in ROWS {
            let info = compile_row(row);
            for _ in 0..200 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let word = to_listing((x & !info.mask) | info.fixed);
                if let Ok(inst) = decode(word) {
                    // The decoded row, which may be another form sharing these fixed bits
                    // (IMAD's selector-2 form among IMAD's words).
                    let decoded = compile_row(inst.row);
                    assert_eq!(encode(&inst), encode_with(&decoded, &inst), "{}", row.name);
                    assert_eq!(encode(&inst), word, "{}", row.name);
                    checked += 1;
                }
            }
        }
        assert!(checked > ROWS.len() * 50, "{checked}");
    }
}
