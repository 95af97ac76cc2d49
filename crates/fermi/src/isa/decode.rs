//! Word → Inst. Finds the row by opcode and fixed bits, then reads each field; every word
//! either decodes to an instruction that re-encodes to the same word or gives a `DecodeError`.

use super::bits::{from_listing, get, sext};
use super::compiled::{key, RowInfo, GUARD_LO, SCHED_BIT, TABLES};
use super::schema::{Kind, Opd, NONE};
use super::types::{
    CBank, DecodeError, Flags, Gpr, Guard, Imm20, Inst, Operand, Pred, MAX_MODS, MAX_OPERANDS,
};

fn bit(bits: u64, b: u8) -> bool {
    b != NONE && (bits >> b) & 1 == 1
}

fn flags(o: &Opd, bits: u64) -> Flags {
    Flags {
        neg: bit(bits, o.neg),
        not: bit(bits, o.not),
        abs: bit(bits, o.abs),
        cc: bit(bits, o.cc),
    }
}

fn gpr(bits: u64, at: u8) -> Gpr {
    Gpr::new(get(bits, at, 6) as u8).unwrap_or(Gpr::RZ)
}

fn pred(bits: u64, at: u8) -> Pred {
    Pred::new(get(bits, at, 3) as u8).unwrap_or(Pred::PT)
}

/// Reads one operand; `None` if its bits hold an encoding the table does not describe.
pub fn decode_operand(o: &Opd, bits: u64) -> Option<Operand> {
    let f = flags(o, bits);
    Some(match o.kind {
        Kind::Reg => Operand::Reg(gpr(bits, o.at), f),
        Kind::Pred => Operand::Pred(pred(bits, o.at), f),
        Kind::Comp => match get(bits, 46, 2) {
            0 if get(bits, 32, 14) == 0 => Operand::Reg(gpr(bits, 26), f),
            1 => Operand::Const(
                CBank::new(get(bits, 42, 4) as u8, get(bits, 26, 16) as u16)?,
                f,
            ),
            3 => Operand::Imm20(Imm20::new(sext(get(bits, 26, 20), 20))?, f),
            _ => return None,
        },
        Kind::Imm { width, signed } => {
            let v = get(bits, o.at, width);
            Operand::Imm(if signed { sext(v, width) } else { v as i64 })
        }
        Kind::Mem { width } => Operand::Mem {
            base: gpr(bits, 20),
            offset: sext(get(bits, 26, width), width) as i32,
        },
        Kind::Cmem => Operand::CMem {
            bank: get(bits, 42, 4) as u8,
            base: gpr(bits, 20),
            offset: get(bits, 26, 16) as u16,
        },
        Kind::Sreg => Operand::Sreg(get(bits, 26, 8) as u8),
        Kind::Target { width } => Operand::Target(sext(get(bits, 26, width), width)),
        Kind::AbsTarget { width } => Operand::AbsTarget(get(bits, 26, width)),
        Kind::Text(_) => Operand::Text,
    })
}

fn decode_row(info: &RowInfo, bits: u64) -> Result<Inst, DecodeError> {
    let row = info.row;
    let mut mods = [0u8; MAX_MODS];
    for ((slot, m), info) in mods.iter_mut().zip(row.mods.iter()).zip(info.mods.iter()) {
        let v = info.get(bits);
        if !info.is_valid(v) {
            return Err(DecodeError::BadModifier {
                mnemonic: row.name,
                what: m.what,
                value: v as u8,
            });
        }
        *slot = v as u8;
    }
    let mut operands = [Operand::None; MAX_OPERANDS];
    for (i, (slot, o)) in operands.iter_mut().zip(row.operands.iter()).enumerate() {
        *slot = decode_operand(o, bits).ok_or(DecodeError::BadOperand {
            mnemonic: row.name,
            index: i as u8,
        })?;
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
    for &i in tables.dispatch.get(key(bits)).map_or(&[][..], |v| &v[..]) {
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
