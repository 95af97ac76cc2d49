//! The typed instruction: newtypes for constrained values, operands, and decode errors.

use super::schema::Row;

/// A general-purpose register R0..R62, or `RZ` (63).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Gpr(u8);

impl Gpr {
    pub const RZ: Gpr = Gpr(63);
    /// `None` unless `n <= 63` (63 is `RZ`).
    pub const fn new(n: u8) -> Option<Gpr> {
        if n <= 63 {
            Some(Gpr(n))
        } else {
            None
        }
    }
    pub const fn index(self) -> u8 {
        self.0
    }
    /// The register named by the low 6 bits of `v` (a decoded field: always in range).
    #[inline]
    pub(crate) const fn from_field(v: u64) -> Gpr {
        Gpr((v & 63) as u8)
    }
}

/// A predicate register P0..P6, or `pt` (7, always true).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pred(u8);

impl Pred {
    pub const PT: Pred = Pred(7);
    /// `None` unless `n <= 7` (7 is `pt`).
    pub const fn new(n: u8) -> Option<Pred> {
        if n <= 7 {
            Some(Pred(n))
        } else {
            None
        }
    }
    pub const fn index(self) -> u8 {
        self.0
    }
    /// The predicate named by the low 3 bits of `v` (a decoded field: always in range).
    #[inline]
    pub(crate) const fn from_field(v: u64) -> Pred {
        Pred((v & 7) as u8)
    }
}

/// A 20-bit sign-extended immediate (the composite operand's immediate form).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Imm20(i32);

impl Imm20 {
    pub const MIN: i64 = -(1 << 19);
    pub const MAX: i64 = (1 << 19) - 1;
    /// `None` unless `v` fits 20 bits sign-extended.
    pub const fn new(v: i64) -> Option<Imm20> {
        if v >= Self::MIN && v <= Self::MAX {
            Some(Imm20(v as i32))
        } else {
            None
        }
    }
    pub const fn value(self) -> i32 {
        self.0
    }
    /// The low 20 bits of `v` sign-extended (a decoded field: always in range).
    #[inline]
    pub(crate) const fn from_field(v: u64) -> Imm20 {
        Imm20(((v << 44) as i64 >> 44) as i32)
    }
}

/// A constant-bank operand `c [bank] [offset]`: bank 0..15, byte offset 0..0xffff.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CBank {
    pub bank: u8,
    pub offset: u16,
}

impl CBank {
    pub const fn new(bank: u8, offset: u16) -> Option<CBank> {
        if bank < 16 {
            Some(CBank { bank, offset })
        } else {
            None
        }
    }
}

/// Decorations an operand field may carry (only those its row has bits for are meaningful).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Flags {
    pub neg: bool,
    pub not: bool,
    pub abs: bool,
    pub cc: bool,
}

/// An operand value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Operand {
    #[default]
    None,
    Reg(Gpr, Flags),
    Pred(Pred, Flags),
    Const(CBank, Flags),
    /// 20-bit composite immediate (raw bits for float instructions, printed in hex).
    Imm20(Imm20, Flags),
    /// Any other immediate field (at most 32 bits), sign-extended where the field is signed;
    /// an unsigned 32-bit field keeps its bit pattern.
    Imm(i32),
    /// `[base+offset]`.
    Mem {
        base: Gpr,
        offset: i32,
    },
    /// `c [bank] [base+offset]`.
    CMem {
        bank: u8,
        base: Gpr,
        offset: u16,
    },
    /// Special register number (`SR_Tid_X` is 0x21).
    Sreg(u8),
    /// Branch target as a byte offset from the next instruction (printed absolute).
    Target(i32),
    /// Absolute code address (JMP, JCAL).
    AbsTarget(u32),
    /// Fixed text with no bits.
    Text,
}

/// The guard predicate `@P0` / `@!P0`; `pt` not negated means "always" and is not printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Guard {
    pub pred: Pred,
    pub not: bool,
}

impl Guard {
    pub const ALWAYS: Guard = Guard {
        pred: Pred::PT,
        not: false,
    };
}

/// The most modifier groups / operands any row has.
pub const MAX_MODS: usize = 6;
pub const MAX_OPERANDS: usize = 6;

/// One decoded instruction: its table row, guard, `.S` flag, the raw value of each modifier
/// group of the row (in the row's order) and its operands (in print order).
#[derive(Clone, Copy, Debug)]
pub struct Inst {
    pub row: &'static Row,
    pub guard: Guard,
    pub sched: bool,
    pub mods: [u8; MAX_MODS],
    pub operands: [Operand; MAX_OPERANDS],
}

impl PartialEq for Inst {
    fn eq(&self, other: &Inst) -> bool {
        std::ptr::eq(self.row, other.row)
            && self.guard == other.guard
            && self.sched == other.sched
            && self.mods == other.mods
            && self.operands == other.operands
    }
}
impl Eq for Inst {}

impl Inst {
    /// The mnemonic (`IADD`).
    pub fn mnemonic(&self) -> &'static str {
        self.row.name
    }
    /// The spelled modifiers in print order (empty spellings skipped; `.S` last if set).
    /// Video source types keep their selects in the table's internal form (`.U8.U8:B1`:
    /// the second source is `.B1`), which `build` also accepts.
    pub fn modifiers(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.row
            .mods
            .iter()
            .zip(self.mods.iter())
            .filter_map(|(m, &v)| m.names.iter().find(|(k, _)| *k == v).map(|(_, n)| *n))
            .filter(|n| !n.is_empty())
            .chain(self.sched.then_some(".S"))
    }
    /// The operands in print order.
    pub fn operands(&self) -> &[Operand] {
        self.operands
            .get(..self.row.operands.len())
            .unwrap_or(&self.operands)
    }
}

/// Why a word does not decode. Every word either decodes or yields one of these.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecodeError {
    /// No row has this opcode (bits 0–3 and 58–63) and fixed-bit pattern.
    UnknownOpcode,
    /// The opcode is known but a modifier field holds a value with no spelling.
    BadModifier {
        mnemonic: &'static str,
        what: &'static str,
        value: u8,
    },
    /// An operand field holds an encoding this table does not describe (e.g. composite
    /// selector 2, or stray bits under a register composite).
    BadOperand { mnemonic: &'static str, index: u8 },
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DecodeError::UnknownOpcode => write!(f, "unknown opcode"),
            DecodeError::BadModifier {
                mnemonic,
                what,
                value,
            } => write!(f, "{mnemonic}: {what} field holds undefined value {value}"),
            DecodeError::BadOperand { mnemonic, index } => {
                write!(f, "{mnemonic}: operand {index} has an undefined encoding")
            }
        }
    }
}

impl std::error::Error for DecodeError {}
