//! `vmad` (§9.7.18.1.3): `(a*b) + c` with operand negation, plus-one mode and scaling.

use super::{part_select_sign_extend, PartSel, Sign};

/// The negation or plus-one mode of `vmad`. The syntax allows `-a`, `-b`, `-c` or `.po`, but
/// internally only one of them acts: `-a` xor `-b` negates the product, `-c` negates `c`, and
/// `.po` adds one; the pseudo-code's `if … else if` gives the product negation precedence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VmadNeg {
    /// `(a*b) + c`
    None,
    /// `-(a*b) + c` (exactly one of `a`, `b` negated).
    Product,
    /// `(a*b) - c`
    C,
    /// `.po`: `(a*b) + c + 1`.
    PlusOne,
}

/// The `.scale` of `vmad`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VmadScale {
    /// No scaling.
    None,
    /// `.shr7`
    Shr7,
    /// `.shr15`
    Shr15,
}

/// The modifiers of `vmad.dtype.atype.btype{.po}{.sat}{.scale}`. `.dtype` does not enter the
/// spec's pseudo-code (the final signedness follows from the operand types and negations), so
/// it is not stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VmadMode {
    /// `.atype`
    pub atype: Sign,
    /// `.btype`
    pub btype: Sign,
    /// `.asel` ([`PartSel::Word`] if absent).
    pub asel: PartSel,
    /// `.bsel` ([`PartSel::Word`] if absent).
    pub bsel: PartSel,
    /// Negation or `.po`.
    pub neg: VmadNeg,
    /// `.shr7`/`.shr15`.
    pub scale: VmadScale,
    /// `.sat`: clamp to the 32-bit range of the final signedness.
    pub sat: bool,
}

impl VmadMode {
    /// The given operand types with no selectors, negation, scaling or saturation.
    pub const fn new(atype: Sign, btype: Sign) -> VmadMode {
        VmadMode {
            atype,
            btype,
            asel: PartSel::Word,
            bsel: PartSel::Word,
            neg: VmadNeg::None,
            scale: VmadScale::None,
            sat: false,
        }
    }
}

/// `vmad` (§9.7.18.1.3), the pseudo-code transcribed: the 128-bit product (one's complement
/// plus `lsb` for a negated product), `c` one's-complemented and sign-extended from 32 bits
/// when negated, the scale shift (arithmetic when the final result is signed), the low 64
/// bits, then `.sat` to the signed or unsigned 32-bit range; the low 32 bits are `d`.
#[inline]
pub fn vmad(a: u32, b: u32, c: u32, m: VmadMode) -> u32 {
    let ta = i128::from(part_select_sign_extend(a, m.atype, m.asel));
    let tb = i128::from(part_select_sign_extend(b, m.btype, m.bsel));
    let signed_final = m.atype.is_signed()
        || m.btype.is_signed()
        || matches!(m.neg, VmadNeg::Product | VmadNeg::C);
    // |ta|, |tb| < 2^33, so the product is exact in i128.
    let mut tmp = ta * tb;
    let mut c = c;
    let lsb = match m.neg {
        VmadNeg::None => 0,
        VmadNeg::PlusOne => 1,
        VmadNeg::Product => {
            tmp = !tmp;
            1
        }
        VmadNeg::C => {
            c = !c;
            1
        }
    };
    let c128 = if signed_final {
        i128::from(c as i32)
    } else {
        i128::from(c)
    };
    let tmp = tmp.wrapping_add(c128).wrapping_add(lsb);
    let shift = match m.scale {
        VmadScale::None => 0,
        VmadScale::Shr7 => 7,
        VmadScale::Shr15 => 15,
    };
    let shifted = if signed_final {
        tmp >> shift
    } else {
        ((tmp as u128) >> shift) as i128
    };
    let result = shifted as u64;
    let result = if !m.sat {
        result
    } else if signed_final {
        (result as i64).clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as u64
    } else {
        result.min(u64::from(u32::MAX))
    };
    result as u32
}
