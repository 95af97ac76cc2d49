//! Register bit patterns and the typed views instructions take of them.

use ir::Type;

/// The mask of a type's bits within a 64-bit register value.
pub(crate) fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// Width in bits of a register or instruction type (predicates: 1).
pub(crate) fn bits_of(t: Type) -> u32 {
    t.size_bits().min(64)
}

/// Extend the low `from` bits of `v` to 64 bits, signed or not.
pub(crate) fn extend(v: u64, from: u32, signed: bool) -> u64 {
    if from >= 64 {
        return v;
    }
    let v = v & mask(from);
    if signed && from > 0 && v >> (from - 1) & 1 == 1 {
        v | !mask(from)
    } else {
        v
    }
}
