//! The read-modify-write of `atom`/`red` (PTX ISA §9.7.13.5 `atom` pseudo-code): the new value
//! stored, given the old one. The caller makes the access atomic and returns the old value.

use crate::int::Int;

/// The operation of an `atom`/`red` on integers or bit types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomOp {
    And,
    Or,
    Xor,
    /// `cas`: `old == b ? c : old`.
    Cas,
    /// `exch`: `b`.
    Exch,
    Add,
    /// `inc`: `(old >= b) ? 0 : old + 1` (unsigned).
    Inc,
    /// `dec`: `((old == 0) || (old > b)) ? b : old - 1` (unsigned).
    Dec,
    Min,
    Max,
}

/// The value an integer `atom.op.T` stores: `T` gives the signedness of `min`/`max`.
#[inline]
pub fn atom_int<T: Int>(op: AtomOp, old: T, b: T, c: T) -> T {
    let (o, bb) = (old.to_bits(), b.to_bits());
    match op {
        AtomOp::And => T::from_bits(o & bb),
        AtomOp::Or => T::from_bits(o | bb),
        AtomOp::Xor => T::from_bits(o ^ bb),
        AtomOp::Cas => {
            if old == b {
                c
            } else {
                old
            }
        }
        AtomOp::Exch => b,
        AtomOp::Add => old.wrapping_add(b),
        AtomOp::Inc => {
            if o >= bb {
                T::ZERO
            } else {
                T::from_bits(o + 1)
            }
        }
        AtomOp::Dec => {
            if o == 0 || o > bb {
                b
            } else {
                T::from_bits(o - 1)
            }
        }
        AtomOp::Min => old.min(b),
        AtomOp::Max => old.max(b),
    }
}

/// `atom.add.f32`: "rounds to nearest even and flushes subnormal inputs and results to
/// sign-preserving zero" (PTX ISA §9.7.13.5).
#[inline]
pub fn atom_add_f32(old: f32, b: f32) -> f32 {
    crate::float::add_f32(old, b, crate::float::Rounding::Rn, true, false)
}

/// `atom.add.f64`: round to nearest even, subnormals kept.
#[inline]
pub fn atom_add_f64(old: f64, b: f64) -> f64 {
    crate::float::add_f64(old, b, crate::float::Rounding::Rn)
}

/// `atom.add.noftz.{f16,bf16}` (`x2`: the packed `.f16x2`/`.bf16x2` forms, each half on its
/// own): round to nearest even, subnormals kept (PTX ISA §9.7.13.5).
#[inline]
pub fn atom_add_h(old: u32, b: u32, f: crate::half::HalfFormat, x2: bool) -> u32 {
    use crate::half as h;
    let add = |x: u16, y: u16| h::add_h(x, y, f, h::HalfMode::default());
    if x2 {
        h::x2(old, b, 0, |x, y, _| add(x, y))
    } else {
        u32::from(add(old as u16, b as u16))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The spec's pseudo-code, transcribed over u64 values.
    fn spec_inc(old: u64, b: u64) -> u64 {
        if old >= b {
            0
        } else {
            old + 1
        }
    }
    fn spec_dec(old: u64, b: u64) -> u64 {
        if old == 0 || old > b {
            b
        } else {
            old - 1
        }
    }

    #[test]
    fn inc_and_dec_follow_the_pseudo_code_on_every_16_bit_pair() {
        for old in 0..=u16::MAX {
            for b in [0u16, 1, 2, 50, 0x7fff, 0x8000, u16::MAX] {
                let (o, bb) = (u64::from(old), u64::from(b));
                assert_eq!(u64::from(atom_int(AtomOp::Inc, old, b, 0)), spec_inc(o, bb));
                assert_eq!(u64::from(atom_int(AtomOp::Dec, old, b, 0)), spec_dec(o, bb));
            }
        }
    }

    #[test]
    fn dec_from_zero_wraps_to_the_limit() {
        assert_eq!(atom_int(AtomOp::Dec, 0u32, 50, 0), 50);
        assert_eq!(atom_int(AtomOp::Dec, 51u32, 50, 0), 50);
        assert_eq!(atom_int(AtomOp::Dec, 1u32, 50, 0), 0);
        // 6,000 decrements with limit 50 from 0 walk a cycle of 51 values: 6000 mod 51 = 33
        // steps past 0, i.e. 51 - 33 = 18.
        let mut v = 0u32;
        for _ in 0..6000 {
            v = atom_int(AtomOp::Dec, v, 50, 0);
        }
        assert_eq!(v, 18);
    }

    #[test]
    fn min_max_use_the_type_signedness_and_cas_compares() {
        assert_eq!(atom_int(AtomOp::Min, -1i32, 1, 0), -1);
        assert_eq!(atom_int(AtomOp::Min, u32::MAX, 1, 0), 1);
        assert_eq!(atom_int(AtomOp::Cas, 5u64, 5, 9), 9);
        assert_eq!(atom_int(AtomOp::Cas, 5u64, 6, 9), 5);
    }

    #[test]
    fn add_f32_flushes_subnormals() {
        let tiny = f32::from_bits(1);
        assert_eq!(atom_add_f32(tiny, 0.0).to_bits(), 0);
        assert_eq!(atom_add_f32(-tiny, -0.0).to_bits(), 0x8000_0000);
        assert_eq!(atom_add_f32(1.5, 2.25), 3.75);
    }
}
