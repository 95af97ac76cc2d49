//! What the rows imply, computed once: each row's fixed bits and mask, and the dispatch from
//! the opcode bits (0–3 and 58–63) to the rows that may match.

use std::sync::LazyLock;

use super::bits::{gather, get, mask, parse_template, scatter};
use super::rows::ROWS;
use super::schema::{Kind, Mod, Opd, Row, NONE};
use super::types::{MAX_MODS, MAX_OPERANDS};

/// The guard predicate (3 bits) and its negation bit.
pub const GUARD_LO: u8 = 10;
/// `.S` (cuobjdump's scheduling/join flag), bit 4, on every row.
pub const SCHED_BIT: u8 = 4;

pub struct RowInfo {
    pub row: &'static Row,
    pub fixed: u64,
    pub mask: u64,
    /// The modifier groups of the row, in order (the first `nmods` entries).
    pub nmods: usize,
    pub mods: [ModInfo; MAX_MODS],
    /// The operands of the row, in order (the first `nops` entries).
    pub nops: usize,
    pub ops: [OpInfo; MAX_OPERANDS],
}

/// An operand's shape without its text, small enough to copy on the hot paths.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Code {
    #[default]
    Reg,
    Pred,
    Comp,
    Imm,
    Mem,
    Cmem,
    Sreg,
    Target,
    AbsTarget,
    Text,
}

/// An operand prepared for the hot paths: its shape, position and width, and its decoration
/// bit positions (64 when the operand lacks one, which `bit_mask` turns into 0), so the hot
/// paths need no "has this bit?" branches. Kept small so the whole table stays in L1.
#[derive(Clone, Copy, Debug, Default)]
pub struct OpInfo {
    pub code: Code,
    pub at: u8,
    pub width: u8,
    pub signed: bool,
    neg: u8,
    not: u8,
    abs: u8,
    cc: u8,
}

/// The single-bit mask of position `p`, 0 for `p >= 64`.
#[inline]
fn bit_mask(p: u8) -> u64 {
    1u64.checked_shl(u32::from(p)).unwrap_or(0)
}

impl OpInfo {
    pub fn new(o: &Opd) -> OpInfo {
        let p = |b: u8| if b == NONE { 64 } else { b };
        let (code, width, signed) = match o.kind {
            Kind::Reg => (Code::Reg, 6, false),
            Kind::Pred => (Code::Pred, 3, false),
            Kind::Comp => (Code::Comp, 22, false),
            Kind::Imm { width, signed } => (Code::Imm, width, signed),
            Kind::Mem { width } => (Code::Mem, width, true),
            Kind::Cmem => (Code::Cmem, 16, false),
            Kind::Sreg => (Code::Sreg, 8, false),
            Kind::Target { width } => (Code::Target, width, true),
            Kind::AbsTarget { width } => (Code::AbsTarget, width, false),
            Kind::Text(_) => (Code::Text, 0, false),
        };
        OpInfo {
            code,
            at: o.at,
            width,
            signed,
            neg: p(o.neg),
            not: p(o.not),
            abs: p(o.abs),
            cc: p(o.cc),
        }
    }
    #[inline]
    pub fn neg(&self) -> u64 {
        bit_mask(self.neg)
    }
    #[inline]
    pub fn not(&self) -> u64 {
        bit_mask(self.not)
    }
    #[inline]
    pub fn abs(&self) -> u64 {
        bit_mask(self.abs)
    }
    #[inline]
    pub fn cc(&self) -> u64 {
        bit_mask(self.cc)
    }
}

/// A modifier group prepared for the hot paths: adjacent bits become a shift and mask, and
/// (for groups of up to 6 bits) the values that have a spelling become a bitmap.
#[derive(Clone, Copy, Debug, Default)]
pub struct ModInfo {
    /// Whether the group's bits are adjacent and in order (then `lo`/`width` describe them).
    run: bool,
    lo: u8,
    width: u8,
    valid: u64,
    src: Option<&'static Mod>,
}

impl ModInfo {
    fn new(m: &'static Mod) -> ModInfo {
        let first = m.bits.first().copied().unwrap_or(0);
        let run = m
            .bits
            .iter()
            .enumerate()
            .all(|(i, &b)| usize::from(b) == usize::from(first) + i);
        let mut valid = 0u64;
        for &(v, _) in m.names {
            if v < 64 {
                valid |= 1 << v;
            }
        }
        ModInfo {
            run,
            lo: first,
            width: m.bits.len() as u8,
            valid,
            src: Some(m),
        }
    }

    fn bits(&self) -> &'static [u8] {
        self.src.map_or(&[], |m| m.bits)
    }

    /// The group's value in `bits`.
    #[inline]
    pub fn get(&self, bits: u64) -> u64 {
        if self.run {
            get(bits, self.lo, self.width)
        } else {
            gather(bits, self.bits())
        }
    }

    /// The group's value placed in its bits.
    #[inline]
    pub fn put(&self, v: u64) -> u64 {
        if self.run {
            (v & mask(0, self.width)) << self.lo
        } else {
            scatter(self.bits(), v)
        }
    }

    /// Whether `v` has a spelling.
    #[inline]
    pub fn is_valid(&self, v: u64) -> bool {
        if self.width <= 6 {
            (self.valid >> (v & 63)) & 1 == 1 && v < 64
        } else {
            self.src
                .is_some_and(|m| m.names.iter().any(|&(k, _)| u64::from(k) == v))
        }
    }
}

pub struct Tables {
    pub rows: Vec<RowInfo>,
    /// For each 10-bit opcode key, the range of `candidates` holding its rows.
    pub dispatch: Vec<(u32, u32)>,
    pub candidates: Vec<u16>,
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
            let mut mods = [ModInfo::default(); MAX_MODS];
            for (slot, m) in mods.iter_mut().zip(row.mods) {
                *slot = ModInfo::new(m);
            }
            let mut ops = [OpInfo::default(); MAX_OPERANDS];
            for (slot, o) in ops.iter_mut().zip(row.operands) {
                *slot = OpInfo::new(o);
            }
            RowInfo {
                row,
                fixed: t & m,
                mask: m,
                nmods: row.mods.len().min(MAX_MODS),
                mods,
                nops: row.operands.len().min(MAX_OPERANDS),
                ops,
            }
        })
        .collect();
    let mut dispatch = Vec::with_capacity(1024);
    let mut candidates = Vec::new();
    for k in 0..1024u64 {
        let kbits = (k & 0xf) | ((k >> 4) << 58);
        let start = candidates.len() as u32;
        for (i, r) in rows.iter().enumerate() {
            let m = r.mask & KEY_MASK;
            if kbits & m == r.fixed & m {
                candidates.push(i as u16);
            }
        }
        dispatch.push((start, candidates.len() as u32));
    }
    Tables {
        rows,
        dispatch,
        candidates,
    }
});
