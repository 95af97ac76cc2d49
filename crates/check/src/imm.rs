//! Converting constant values to the bit pattern of an operand type.

use crate::consteval::Value;
use isa::{BasicType, Type};

/// The bits of `v` as an operand of type `ty`, zero-extended to 64 bits, or why it cannot be.
///
/// - Integers must fit the type's size as either a signed or an unsigned number (so `-1` and
///   `0xffff` both fit `.u16`/`.s16`/`.b16`); the bits are the two's-complement pattern.
/// - Integer constants for floating-point operands are converted to the nearest value
///   (ptx-isa-1.1 uses `setp.eq.f32 p, y, 0;` in §7.7.6 Table 46).
/// - `0fXXXXXXXX` / `0dXXXXXXXXXXXXXXXX` literals give their exact bits to float operands and
///   to bit-size operands of the same size (`mov.b32 r, 0f3f800000`, ptx-isa-1.1 §6.4.5).
/// - Decimal floats round to nearest-even in the target precision (PTX ISA 8.x §4.5.2: float
///   constants are double precision, converted on use).
pub(crate) fn imm_bits(v: Value, ty: Type) -> Result<u64, String> {
    let size = ty.size_bits();
    match (v, ty.basic()) {
        // LLVM and NVIDIA's own libraries write "true" as `-1` (`mov.pred %p1, -1;`); ptxas
        // 12.9 takes any integer there, zero being false and every other value true.
        (Value::Int { bits, .. }, BasicType::Pred) => Ok(u64::from(bits != 0)),
        (Value::Float { .. }, BasicType::Pred) => {
            Err("floating-point immediate for a predicate operand".to_string())
        }
        // ptxas rejects `add.u16x2 d, a, 1`: packed operands are registers only.
        _ if ty.is_packed() => Err(format!(
            "immediate operands are not allowed for {}",
            ty.suffix()
        )),
        (
            Value::Int { bits, unsigned },
            BasicType::Signed | BasicType::Unsigned | BasicType::Bits,
        ) => int_fits(bits, unsigned, size, ty),
        (Value::Int { bits, unsigned }, BasicType::Float) => {
            let x = if unsigned {
                bits as f64
            } else {
                bits as i64 as f64
            };
            float_bits(x, None, ty)
        }
        (Value::Float { value, exact32 }, BasicType::Float) => float_bits(value, exact32, ty),
        (Value::Float { value, exact32 }, BasicType::Bits) => match size {
            32 => Ok(u64::from(
                exact32.unwrap_or_else(|| (value as f32).to_bits()),
            )),
            64 => Ok(value.to_bits()),
            _ => Err(format!(
                "floating-point immediate for a {} operand",
                ty.suffix()
            )),
        },
        (Value::Float { .. }, _) => Err(format!(
            "floating-point immediate where an integer is expected ({})",
            ty.suffix()
        )),
    }
}

/// An integer immediate that [`imm_bits`] refused because it does not fit its operand,
/// truncated to the operand's size as ptxas does (`add.cc.u32 d, 0xffffffffffffffffU, 1`):
/// `None` for every other refusal. The checker takes the truncated bits with a warning.
pub(crate) fn truncated_int_bits(v: Value, ty: Type) -> Option<u64> {
    match (v, ty.basic()) {
        (Value::Int { bits, .. }, BasicType::Signed | BasicType::Unsigned | BasicType::Bits)
            if !ty.is_packed() && ty.size_bits() < 64 =>
        {
            Some(bits & ((1u64 << ty.size_bits()) - 1))
        }
        _ => None,
    }
}

fn int_fits(bits: u64, unsigned: bool, size: u32, ty: Type) -> Result<u64, String> {
    if size >= 64 {
        return if size == 64 {
            Ok(bits)
        } else {
            Err(format!(
                "immediate operands of {} are not supported",
                ty.suffix()
            ))
        };
    }
    let mask = (1u64 << size) - 1;
    let fits = if unsigned {
        bits <= mask
    } else {
        let v = bits as i64;
        v >= -(1i64 << (size - 1)) && v <= mask as i64
    };
    if fits {
        Ok(bits & mask)
    } else {
        let shown = if unsigned {
            bits.to_string()
        } else {
            (bits as i64).to_string()
        };
        Err(format!("immediate {shown} does not fit in {}", ty.suffix()))
    }
}

fn float_bits(x: f64, exact32: Option<u32>, ty: Type) -> Result<u64, String> {
    match ty {
        Type::F32 => Ok(u64::from(exact32.unwrap_or_else(|| (x as f32).to_bits()))),
        Type::F64 => Ok(x.to_bits()),
        Type::F16 => Ok(u64::from(round_to_small_float(x, 5, 10))),
        Type::Bf16 => Ok(u64::from(round_to_small_float(x, 8, 7))),
        _ => Err(format!(
            "floating-point immediates of {} are not supported; write the bits with a .b{} type",
            ty.suffix(),
            ty.size_bits()
        )),
    }
}

/// Rounds a double to nearest-even in a binary format with `ebits` exponent and `mbits`
/// mantissa bits (`.f16`: 5/10, `.bf16`: 8/7), with subnormals, overflow to infinity and a
/// quiet NaN.
pub(crate) fn round_to_small_float(x: f64, ebits: u32, mbits: u32) -> u32 {
    let sign = u32::from(x.is_sign_negative()) << (ebits + mbits);
    let exp_all = (1u32 << ebits) - 1;
    if x.is_nan() {
        return sign | (exp_all << mbits) | (1 << (mbits - 1));
    }
    let a = x.abs();
    if a == 0.0 {
        return sign;
    }
    let inf = sign | (exp_all << mbits);
    if a.is_infinite() {
        return inf;
    }
    let bias = (1i32 << (ebits - 1)) - 1;
    let emin = 1 - bias;
    let mb = mbits as i32;
    let e = ((a.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    if e < emin {
        // Subnormal: units of 2^(emin - mbits). Scaling by a power of two is exact.
        let m = (a * 2f64.powi(mb - emin)).round_ties_even() as u32;
        return sign | m;
    }
    let mut e = e;
    let mut m = (a * 2f64.powi(mb - e)).round_ties_even() as u64;
    if m == 1u64 << (mbits + 1) {
        e += 1;
        m = 1u64 << mbits;
    }
    if e > bias {
        return inf;
    }
    let frac = (m - (1u64 << mbits)) as u32;
    sign | (((e + bias) as u32) << mbits) | frac
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(v: i64) -> Value {
        Value::Int {
            bits: v as u64,
            unsigned: false,
        }
    }

    #[test]
    fn integer_ranges_are_signed_or_unsigned() {
        assert_eq!(imm_bits(int(-1), Type::U16), Ok(0xffff));
        assert_eq!(imm_bits(int(0xffff), Type::S16), Ok(0xffff));
        assert_eq!(imm_bits(int(-32768), Type::S16), Ok(0x8000));
        assert!(imm_bits(int(70000), Type::S16).is_err());
        assert!(imm_bits(int(-32769), Type::B16).is_err());
        assert_eq!(imm_bits(int(-1), Type::S64), Ok(u64::MAX));
        assert_eq!(
            imm_bits(Value::int(u64::MAX, true), Type::U32),
            Err("immediate 18446744073709551615 does not fit in .u32".to_string())
        );
    }

    #[test]
    fn floats_round_to_operand_precision() {
        let f = |x: f64| Value::Float {
            value: x,
            exact32: None,
        };
        assert_eq!(imm_bits(f(0.1), Type::F32), Ok(u64::from(0.1f32.to_bits())));
        assert_eq!(imm_bits(f(0.1), Type::F64), Ok(0.1f64.to_bits()));
        assert_eq!(imm_bits(int(2), Type::F32), Ok(u64::from(2.0f32.to_bits())));
        let nan = Value::Float {
            value: f64::NAN,
            exact32: Some(0x7fc0_0001),
        };
        assert_eq!(imm_bits(nan, Type::F32), Ok(0x7fc0_0001));
        assert_eq!(imm_bits(nan, Type::B32), Ok(0x7fc0_0001));
        assert!(imm_bits(f(1.0), Type::S32).is_err());
        assert!(imm_bits(f(1.0), Type::F16x2).is_err());
        assert!(imm_bits(int(1), Type::U16x2).is_err());
    }

    #[test]
    fn predicates() {
        assert_eq!(imm_bits(int(1), Type::Pred), Ok(1));
        assert_eq!(imm_bits(int(0), Type::Pred), Ok(0));
        // `-1` is "true" (LLVM's and NVIDIA's spelling); ptxas takes any nonzero value as true.
        assert_eq!(imm_bits(int(-1), Type::Pred), Ok(1));
        assert_eq!(imm_bits(int(2), Type::Pred), Ok(1));
    }
}

#[cfg(test)]
mod half_tests {
    use super::round_to_small_float;

    /// Reference: decode every f16 bit pattern independently (sign, exponent, mantissa per
    /// IEEE 754 binary16) and check that each finite value rounds to itself, and that
    /// midpoints between neighbours round to the one with the even mantissa.
    #[test]
    fn every_f16_value_and_midpoint() {
        let decode = |h: u32| -> f64 {
            let s = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
            let e = ((h >> 10) & 0x1f) as i32;
            let m = f64::from(h & 0x3ff);
            if e == 0 {
                s * m * 2f64.powi(-24)
            } else {
                s * (1.0 + m / 1024.0) * 2f64.powi(e - 15)
            }
        };
        for h in 0u32..0x7c00 {
            assert_eq!(round_to_small_float(decode(h), 5, 10), h, "{h:#x}");
            let mid = (decode(h) + decode(h + 1)) / 2.0;
            let even = if h % 2 == 0 { h } else { h + 1 };
            assert_eq!(round_to_small_float(mid, 5, 10), even, "mid {h:#x}");
        }
        assert_eq!(round_to_small_float(65520.0, 5, 10), 0x7c00);
        assert_eq!(round_to_small_float(65519.99, 5, 10), 0x7bff);
        assert_eq!(round_to_small_float(-0.0, 5, 10), 0x8000);
        assert_eq!(round_to_small_float(f64::NAN, 5, 10) & 0x7e00, 0x7e00);
    }

    #[test]
    fn bf16_is_upper_half_of_f32_when_exact() {
        for x in [1.0f32, -2.5, 3.140625, 1.0e-38, 6.0e37] {
            let b = x.to_bits();
            if b & 0xffff == 0 {
                assert_eq!(round_to_small_float(f64::from(x), 8, 7), b >> 16);
            }
        }
        assert_eq!(round_to_small_float(1.0 + 1.0 / 256.0, 8, 7), 0x3f80); // tie → even
        assert_eq!(round_to_small_float(1.0 + 3.0 / 256.0, 8, 7), 0x3f82); // tie → even (up)
    }
}
