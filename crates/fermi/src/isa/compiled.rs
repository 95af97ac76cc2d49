//! What the rows imply, computed once: each row's fixed bits and mask, and the dispatch from
//! the opcode bits (0–3 and 58–63) to the rows that may match.

use std::sync::LazyLock;

use super::bits::{gather, get, mask, parse_template, scatter};
use super::rows::ROWS;
use super::schema::{Kind, Mod, Opd, Row, NONE};

/// The guard predicate (3 bits) and its negation bit.
pub const GUARD_LO: u8 = 10;
/// `.S` (cuobjdump's scheduling/join flag), bit 4, on every row.
pub const SCHED_BIT: u8 = 4;

pub struct RowInfo {
    pub row: &'static Row,
    pub fixed: u64,
    pub mask: u64,
    /// One per modifier group of the row, in order.
    pub mods: Vec<ModInfo>,
}

/// A modifier group prepared for the hot paths: adjacent bits become a shift and mask, and
/// the values that have a spelling become a bitmap.
pub struct ModInfo {
    /// Lowest bit and width when the group's bits are adjacent and in order.
    pub run: Option<(u8, u8)>,
    pub bits: &'static [u8],
    valid: [u64; 4],
}

impl ModInfo {
    fn new(m: &'static Mod) -> ModInfo {
        let adjacent = m.bits.iter().enumerate().all(|(i, &b)| {
            m.bits
                .first()
                .is_some_and(|&f| usize::from(b) == usize::from(f) + i)
        });
        let run = match m.bits.first() {
            Some(&lo) if adjacent => Some((lo, m.bits.len() as u8)),
            _ => None,
        };
        let mut valid = [0u64; 4];
        for &(v, _) in m.names {
            if let Some(w) = valid.get_mut(usize::from(v >> 6)) {
                *w |= 1 << (v & 63);
            }
        }
        ModInfo {
            run,
            bits: m.bits,
            valid,
        }
    }

    /// The group's value in `bits`.
    #[inline]
    pub fn get(&self, bits: u64) -> u64 {
        match self.run {
            Some((lo, w)) => get(bits, lo, w),
            None => gather(bits, self.bits),
        }
    }

    /// The group's value placed in its bits.
    #[inline]
    pub fn put(&self, v: u64) -> u64 {
        match self.run {
            Some((lo, w)) => (v & mask(0, w)) << lo,
            None => scatter(self.bits, v),
        }
    }

    /// Whether `v` has a spelling.
    #[inline]
    pub fn is_valid(&self, v: u64) -> bool {
        v < 256
            && self
                .valid
                .get((v >> 6) as usize)
                .is_some_and(|w| (w >> (v & 63)) & 1 == 1)
    }
}

pub struct Tables {
    pub rows: Vec<RowInfo>,
    /// For each 10-bit opcode key, the indices of candidate rows.
    pub dispatch: Vec<Vec<u16>>,
}

/// The bits an operand field occupies (value plus decorations).
pub fn operand_mask(o: &Opd) -> u64 {
    let value = match o.kind {
        Kind::Reg => mask(o.at, 6),
        Kind::Pred => mask(o.at, 3),
        Kind::Comp => mask(26, 22),
        Kind::Imm { width, .. } => mask(o.at, width),
        Kind::Mem { width } => mask(20, 6) | mask(26, width),
        Kind::Cmem => mask(20, 6) | mask(26, 20),
        Kind::Sreg => mask(26, 8),
        Kind::Target { width } | Kind::AbsTarget { width } => mask(26, width),
        Kind::Text(_) => 0,
    };
    [o.neg, o.not, o.abs, o.cc]
        .iter()
        .filter(|&&b| b != NONE)
        .fold(value, |m, &b| m | (1u64 << b))
}

/// Every bit any field of the row (or the guard and `.S`) occupies.
pub fn field_mask(row: &Row) -> u64 {
    let mods = row
        .mods
        .iter()
        .flat_map(|m| m.bits.iter())
        .fold(0u64, |m, &b| m | (1u64 << b));
    let ops = row.operands.iter().fold(0, |m, o| m | operand_mask(o));
    let guard = if row.guarded { mask(GUARD_LO, 4) } else { 0 };
    mods | ops | guard | (1 << SCHED_BIT)
}

pub fn key(bits: u64) -> usize {
    ((bits & 0xf) | ((bits >> 58) << 4)) as usize
}

const KEY_MASK: u64 = 0xf | (0x3f << 58);

pub static TABLES: LazyLock<Tables> = LazyLock::new(|| {
    let rows: Vec<RowInfo> = ROWS
        .iter()
        .map(|row| {
            // A malformed template is caught by the table tests; here it just never matches.
            let t = parse_template(row.template).unwrap_or(u64::MAX);
            let m = !field_mask(row);
            RowInfo {
                row,
                fixed: t & m,
                mask: m,
                mods: row.mods.iter().map(ModInfo::new).collect(),
            }
        })
        .collect();
    let mut dispatch = vec![Vec::new(); 1024];
    for (k, slot) in dispatch.iter_mut().enumerate() {
        let kbits = (k as u64 & 0xf) | ((k as u64 >> 4) << 58);
        for (i, r) in rows.iter().enumerate() {
            let m = r.mask & KEY_MASK;
            if kbits & m == r.fixed & m {
                slot.push(i as u16);
            }
        }
    }
    Tables { rows, dispatch }
});
