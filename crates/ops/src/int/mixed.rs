//! Products whose two operands have different signedness: Fermi's `IMUL`/`IMAD` take a
//! separate `.U32`/`.S32` for each source (`IMUL.S32.U32`), which PTX's `mul`/`mad` (one type
//! for both operands) cannot express.

use super::Sign;

/// The exact 64-bit product of two 32-bit operands, each read as `.u32` or `.s32` by its own
/// [`Sign`]. The true product of a `.s32` and a `.u32` lies in `(-2^63, 2^63)` and that of two
/// `.u32` in `[0, 2^64)`, so its low 64 bits identify it; those bits are returned.
#[inline]
pub fn mul_wide_mixed(a: u32, a_sign: Sign, b: u32, b_sign: Sign) -> u64 {
    let wide = |x: u32, s: Sign| -> i128 {
        if s.is_signed() {
            i128::from(x as i32)
        } else {
            i128::from(x)
        }
    };
    (wide(a, a_sign) * wide(b, b_sign)) as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::int::mul_wide;

    #[test]
    fn same_signedness_agrees_with_mul_wide() {
        let edge = [
            0u32,
            1,
            2,
            0x7fff_ffff,
            0x8000_0000,
            0xffff_fffe,
            0xffff_ffff,
            12345,
        ];
        for &a in &edge {
            for &b in &edge {
                assert_eq!(
                    mul_wide_mixed(a, Sign::Unsigned, b, Sign::Unsigned),
                    mul_wide(a, b)
                );
                assert_eq!(
                    mul_wide_mixed(a, Sign::Signed, b, Sign::Signed),
                    mul_wide(a as i32, b as i32) as u64
                );
            }
        }
    }

    #[test]
    fn mixed_signedness_reads_each_operand_by_its_own_type() {
        // -1 (.s32) times 0xffffffff (.u32) is -(2^32 - 1).
        assert_eq!(
            mul_wide_mixed(0xffff_ffff, Sign::Signed, 0xffff_ffff, Sign::Unsigned),
            (-(0xffff_ffffi64)) as u64
        );
        // 0x80000000 as .u32 is 2^31; times -2 (.s32) is -2^32.
        assert_eq!(
            mul_wide_mixed(0x8000_0000, Sign::Unsigned, 0xffff_fffe, Sign::Signed),
            (-(1i64 << 32)) as u64
        );
        assert_eq!(mul_wide_mixed(3, Sign::Unsigned, 5, Sign::Signed), 15);
    }
}
