//! Word → Inst. Finds the one row the word may be by its routing key (opcode bits plus the bits
//! that tell apart rows sharing them) and runs that row's decoder: it checks the fixed bits and
//! that every field holds an encoding the table describes, and reads each field. Every word
//! either decodes to an instruction that re-encodes to the same word or gives a `DecodeError`.
//!
//! The field code is written once (`decode_with`) and instantiated per row with the row's
//! compiled layout as a constant (`decode_at`), so positions, widths and operand shapes are
//! folded in and each operand is built straight into the result.

use super::bits::{from_listing, get, sext};
use super::compiled::{
    at, key, per_row, per_row_entry, route_key, row_info, Code, ModInfo, OpInfo, RowInfo, DISPATCH,
    GUARD_LO, MAX_ROWS, ROUTE, ROUTES, SCHED_BIT, SEVERAL,
};
use super::rows::ROWS;
use super::schema::Row;
use super::types::{CBank, DecodeError, Flags, Gpr, Guard, Imm20, Inst, Operand, Pred};

#[inline(always)]
fn flags(d: &OpInfo, bits: u64) -> Flags {
    Flags {
        neg: bits & d.neg() != 0,
        not: bits & d.not() != 0,
        abs: bits & d.abs() != 0,
        cc: bits & d.cc() != 0,
    }
}

#[inline(always)]
fn gpr(bits: u64, at: u8) -> Gpr {
    Gpr::from_field(bits >> (at & 63))
}

#[inline(always)]
fn pred(bits: u64, at: u8) -> Pred {
    Pred::from_field(bits >> (at & 63))
}

/// Reads one operand. The row's checks (`RowInfo::check`) have already rejected the
/// encodings the table does not describe.
#[inline(always)]
fn decode_operand(d: &OpInfo, bits: u64) -> Operand {
    let (at, width) = (d.at, d.width);
    match d.code {
        Code::Reg => Operand::Reg(gpr(bits, at), flags(d, bits)),
        Code::Pred => Operand::Pred(pred(bits, at), flags(d, bits)),
        Code::Comp => match get(bits, 46, 2) {
            0 => Operand::Reg(gpr(bits, 26), flags(d, bits)),
            1 => {
                let c = CBank {
                    bank: get(bits, 42, 4) as u8,
                    offset: get(bits, 26, 16) as u16,
                };
                Operand::Const(c, flags(d, bits))
            }
            _ => Operand::Imm20(Imm20::from_field(bits >> 26), flags(d, bits)),
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
            bank: get(bits, 42, 5) as u8,
            base: gpr(bits, 20),
            offset: get(bits, 26, 16) as u16,
        },
        Code::SplitPred => Operand::Pred(
            Pred::from_field(get(bits, 8, 2) | get(bits, 58, 1) << 2),
            Flags::default(),
        ),
        Code::Const => Operand::Const(
            CBank {
                bank: get(bits, 42, 4) as u8,
                offset: get(bits, 26, 16) as u16,
            },
            flags(d, bits),
        ),
        Code::Sreg => Operand::Sreg(get(bits, 26, 8) as u8),
        Code::Target => Operand::Target(sext(get(bits, 26, width), width) as i32),
        Code::AbsTarget => Operand::AbsTarget(get(bits, 26, width) as u32),
        Code::Text => Operand::Text,
        Code::AtomMem => Operand::Mem {
            base: gpr(bits, 20),
            offset: sext(get(bits, 26, 17) | get(bits, 55, 3) << 17, 20) as i32,
        },
        Code::MemWords => Operand::Mem {
            base: gpr(bits, 20),
            offset: (sext(get(bits, at, width), width) as i32).wrapping_mul(4),
        },
    }
}

/// Operand `k` of a row with operands `ops` (`None` past them).
#[inline(always)]
fn operand_at(ops: &[OpInfo], k: usize, bits: u64) -> Operand {
    match ops.get(k) {
        Some(d) => decode_operand(d, bits),
        None => Operand::None,
    }
}

/// Modifier group `k`'s value in a row with groups `mods` (0 past them).
#[inline(always)]
fn mod_at(mods: &[ModInfo], k: usize, bits: u64) -> u8 {
    match mods.get(k) {
        Some(m) => m.get(bits) as u8,
        None => 0,
    }
}

/// Decodes `bits` as `row`, whose layout is `info`, or says why they are not that row's.
#[inline(always)]
fn decode_with(row: &'static Row, info: &RowInfo, bits: u64) -> Result<Inst, DecodeError> {
    if bits & info.mask != info.fixed {
        return Err(DecodeError::UnknownOpcode);
    }
    // Every bit is either fixed or read into a field whose value the encoder writes back
    // unchanged (the table tests check the coverage, the property tests the round trip).
    info.check(bits)?;
    let guard = if info.guarded {
        Guard {
            pred: pred(bits, GUARD_LO),
            not: (bits >> (GUARD_LO + 3)) & 1 == 1,
        }
    } else {
        Guard::ALWAYS
    };
    let (mods, ops) = (info.mods(), info.ops());
    // Spelled out (not a loop over a local array) so each field is written once, in place.
    Ok(Inst {
        row,
        guard,
        sched: (bits >> SCHED_BIT) & 1 == 1,
        mods: [
            mod_at(mods, 0, bits),
            mod_at(mods, 1, bits),
            mod_at(mods, 2, bits),
            mod_at(mods, 3, bits),
            mod_at(mods, 4, bits),
            mod_at(mods, 5, bits),
        ],
        operands: [
            operand_at(ops, 0, bits),
            operand_at(ops, 1, bits),
            operand_at(ops, 2, bits),
            operand_at(ops, 3, bits),
            operand_at(ops, 4, bits),
            operand_at(ops, 5, bits),
        ],
    })
}

/// The decoder of row `I`, its layout a constant.
fn decode_at<const I: usize>(bits: u64) -> Result<Inst, DecodeError> {
    match ROWS.get(I) {
        Some(row) => decode_with(row, const { &row_info(I) }, bits),
        None => Err(DecodeError::UnknownOpcode),
    }
}

type DecodeFn = fn(u64) -> Result<Inst, DecodeError>;

static DECODERS: [[DecodeFn; 16]; 16] = per_row!(decode_at);
const _: () = assert!(MAX_ROWS == 16 * 16);

/// For each routing key, the decoder of the one row a word of that key may be
/// (`decode_at::<MAX_ROWS>`, which matches nothing, if none; `decode_candidates` if several):
/// one load from the word to the call.
static ROUTED: [DecodeFn; ROUTES] = routed();

const fn routed() -> [DecodeFn; ROUTES] {
    let mut out: [DecodeFn; ROUTES] = [decode_at::<MAX_ROWS>; ROUTES];
    let mut slots: &mut [DecodeFn] = &mut out;
    let mut route: &[u16] = &ROUTE;
    while let (Some((slot, slots_rest)), Some((&r, route_rest))) =
        (slots.split_first_mut(), route.split_first())
    {
        if r == SEVERAL {
            *slot = decode_candidates;
        } else if let Some(row) = at(&DECODERS, r as usize >> 4) {
            if let Some(&f) = at(row, r as usize & 15) {
                *slot = f;
            }
        }
        slots = slots_rest;
        route = route_rest;
    }
    out
}

/// Decodes a listing word (as cuobjdump prints it). Inlined: only the dispatch is here, the
/// row's decoder is called.
#[inline]
pub fn decode(word: u64) -> Result<Inst, DecodeError> {
    let bits = from_listing(word);
    match ROUTED.get(route_key(bits)) {
        Some(decode_row) => decode_row(bits),
        None => Err(DecodeError::UnknownOpcode),
    }
}

/// Tries each row that shares the word's opcode bits, in table order (for the routing keys
/// the `EXTRA` bits do not resolve).
fn decode_candidates(bits: u64) -> Result<Inst, DecodeError> {
    let mut err = DecodeError::UnknownOpcode;
    for &i in DISPATCH.get(key(bits)).into_iter().flatten() {
        let Some(decode_row) = per_row_entry(&DECODERS, usize::from(i)) else {
            break;
        };
        let r = decode_row(bits);
        match r {
            Ok(_) => return r,
            // The row's fixed bits beyond the opcode differ: not this row.
            Err(DecodeError::UnknownOpcode) => {}
            Err(e) => err = e,
        }
    }
    Err(err)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::compiled::compile_row;

    /// The same field code run on each row compiled at run time, every row tried in table
    /// order: what the build-time dispatch and per-row instantiations must agree with.
    fn decode_by_scan(infos: &[RowInfo], word: u64) -> Result<Inst, DecodeError> {
        let bits = from_listing(word);
        let mut err = DecodeError::UnknownOpcode;
        for (row, info) in ROWS.iter().zip(infos) {
            match decode_with(row, info, bits) {
                Ok(inst) => return Ok(inst),
                Err(DecodeError::UnknownOpcode) => {}
                Err(e) => err = e,
            }
        }
        Err(err)
    }

    /// Words near every row: its fixed bits with pseudo-random field bits, and fully random
    /// words (xorshift, fixed seed).
    fn sample_words() -> Vec<u64> {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut words = Vec::new();
        for row in ROWS {
            let info = compile_row(row);
            for _ in 0..200 {
                let bits = (next() & !info.mask) | info.fixed;
                words.push(crate::isa::bits::to_listing(bits));
            }
        }
        words.extend((0..20_000).map(|_| next()));
        words
    }

    #[test]
    fn per_row_decoders_agree_with_a_scan_of_the_rows() {
        let infos: Vec<RowInfo> = ROWS.iter().map(compile_row).collect();
        let mut decoded = 0;
        for w in sample_words() {
            let got = decode(w);
            assert_eq!(got, decode_by_scan(&infos, w), "word {w:#018x}");
            if let Ok(inst) = got {
                assert!(std::ptr::eq(
                    inst.row,
                    &ROWS[crate::isa::compiled::row_index(inst.row).unwrap()]
                ));
                decoded += 1;
            }
        }
        // Most words built on a row's fixed bits decode (only undefined modifier values and
        // composite selectors fail), so the comparison above is not all errors.
        assert!(decoded > ROWS.len() * 50, "{decoded}");
    }

    /// The fallback for routing keys several rows share (none today) agrees too.
    #[test]
    fn trying_every_candidate_agrees_with_a_scan_of_the_rows() {
        let infos: Vec<RowInfo> = ROWS.iter().map(compile_row).collect();
        for w in sample_words() {
            let bits = from_listing(w);
            assert_eq!(
                decode_candidates(bits),
                decode_by_scan(&infos, w),
                "word {w:#018x}"
            );
        }
    }
}
