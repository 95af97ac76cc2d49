//! Word → Inst. Finds the row by opcode and fixed bits, then reads each field; every word
//! either decodes to an instruction that re-encodes to the same word or gives a `DecodeError`.

use super::bits::{from_listing, get, sext};
use super::compiled::{key, Code, OpInfo, RowInfo, GUARD_LO, SCHED_BIT, TABLES};
use super::schema::NONE;
use super::types::{
    CBank, DecodeError, Flags, Gpr, Guard, Imm20, Inst, Operand, Pred, MAX_MODS, MAX_OPERANDS,
};

fn bit(bits: u64, b: u8) -> bool {
    b != NONE && (bits >> b) & 1 == 1
}

fn flags(d: &OpInfo, bits: u64) -> Flags {
    Flags {
        neg: bits & d.neg() != 0,
        not: bits & d.not() != 0,
        abs: bits & d.abs() != 0,
        cc: bits & d.cc() != 0,
    }
}

fn gpr(bits: u64, at: u8) -> Gpr {
    Gpr::new(get(bits, at, 6) as u8).unwrap_or(Gpr::RZ)
}

fn pred(bits: u64, at: u8) -> Pred {
    Pred::new(get(bits, at, 3) as u8).unwrap_or(Pred::PT)
}

/// Reads one operand into `out`; false if its bits hold an encoding the table does not
/// describe.
#[inline]
fn decode_operand(d: &OpInfo, bits: u64, out: &mut Operand) -> bool {
    let f = flags(d, bits);
    let (at, width) = (d.at, d.width);
    *out = match d.code {
        Code::Reg => Operand::Reg(gpr(bits, at), f),
        Code::Pred => Operand::Pred(pred(bits, at), f),
        Code::Comp => match get(bits, 46, 2) {
            0 if get(bits, 32, 14) == 0 => Operand::Reg(gpr(bits, 26), f),
            1 => match CBank::new(get(bits, 42, 4) as u8, get(bits, 26, 16) as u16) {
                Some(c) => Operand::Const(c, f),
                None => return false,
            },
            3 => match Imm20::new(sext(get(bits, 26, 20), 20)) {
                Some(i) => Operand::Imm20(i, f),
                None => return false,
            },
            _ => return false,
        },
        Code::Imm => {
            let v = get(bits, at, width);
            Operand::Imm(if d.signed {
                sext(v, width) as i32
            } else {
                v as i32
            })
        }
        Code::Mem => Operand::Mem {
            base: gpr(bits, 20),
            offset: sext(get(bits, 26, width), width) as i32,
        },
        Code::Cmem => Operand::CMem {
            bank: get(bits, 42, 4) as u8,
            base: gpr(bits, 20),
            offset: get(bits, 26, 16) as u16,
        },
        Code::Sreg => Operand::Sreg(get(bits, 26, 8) as u8),
        Code::Target => Operand::Target(sext(get(bits, 26, width), width) as i32),
        Code::AbsTarget => Operand::AbsTarget(get(bits, 26, width) as u32),
        Code::Text => Operand::Text,
    };
    true
}

#[inline(always)]
fn decode_row(info: &RowInfo, bits: u64) -> Result<Inst, DecodeError> {
    let row = info.row;
    let mut mods = [0u8; MAX_MODS];
    let infos = info.mods.get(..info.nmods).unwrap_or(&[]);
    for (i, (slot, m)) in mods.iter_mut().zip(infos).enumerate() {
        let v = m.get(bits);
        if !m.is_valid(v) {
            return Err(DecodeError::BadModifier {
                mnemonic: row.name,
                what: row.mods.get(i).map_or("modifier", |m| m.what),
                value: v as u8,
            });
        }
        *slot = v as u8;
    }
    let mut operands = [Operand::None; MAX_OPERANDS];
    let ops = info.ops.get(..info.nops).unwrap_or(&[]);
    for (i, (slot, d)) in operands.iter_mut().zip(ops).enumerate() {
        if !decode_operand(d, bits, slot) {
            return Err(DecodeError::BadOperand {
                mnemonic: row.name,
                index: i as u8,
            });
        }
    }
    let guard = if row.guarded {
        Guard {
            pred: pred(bits, GUARD_LO),
            not: bit(bits, GUARD_LO + 3),
        }
    } else {
        Guard::ALWAYS
    };
    Ok(Inst {
        row,
        guard,
        sched: bit(bits, SCHED_BIT),
        mods,
        operands,
    })
}

/// Decodes a listing word (as cuobjdump prints it).
pub fn decode(word: u64) -> Result<Inst, DecodeError> {
    let bits = from_listing(word);
    let tables = &*TABLES;
    let mut err = DecodeError::UnknownOpcode;
    let (start, end) = tables.dispatch.get(key(bits)).copied().unwrap_or((0, 0));
    let candidates = tables
        .candidates
        .get(start as usize..end as usize)
        .unwrap_or(&[]);
    for &i in candidates {
        let Some(info) = tables.rows.get(usize::from(i)) else {
            continue;
        };
        if bits & info.mask != info.fixed {
            continue;
        }
        // Every bit is either fixed or read into a field whose value the encoder writes back
        // unchanged (the table tests check the coverage, the property tests the round trip).
        match decode_row(info, bits) {
            Ok(inst) => return Ok(inst),
            Err(e) => err = e,
        }
    }
    Err(err)
}
