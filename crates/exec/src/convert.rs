//! `cvt` between every pair of scalar types (PTX §6.5, §7.7.4 `cvt`).

use crate::program::Scalar;

/// IEEE binary16 bits → f32 (exact).
pub fn f16_to_f32(h: u16) -> f32 {
    let sign = ((h as u32) & 0x8000) << 16;
    let exp = ((h >> 10) & 0x1f) as u32;
    let man = (h & 0x3ff) as u32;
    match exp {
        0 => {
            let v = man as f32 * f32::from_bits(0x3380_0000); // 2^-24
            f32::from_bits(v.to_bits() | sign)
        }
        31 => f32::from_bits(sign | 0x7f80_0000 | man << 13),
        _ => f32::from_bits(sign | (exp + 112) << 23 | man << 13),
    }
}

fn cvt_type(t: Scalar) -> ops::cvt::CvtType {
    use ops::cvt::CvtType as C;
    match t {
        Scalar::U8 => C::U8,
        Scalar::U16 => C::U16,
        Scalar::U32 => C::U32,
        Scalar::U64 => C::U64,
        Scalar::S8 => C::S8,
        Scalar::S16 => C::S16,
        Scalar::S32 => C::S32,
        Scalar::S64 => C::S64,
        Scalar::F16 => C::F16,
        Scalar::Bf16 => C::Bf16,
        Scalar::F32 => C::F32,
        Scalar::F64 => C::F64,
    }
}

/// Convert the bits `v` of type `aty` to the bits of type `dty` (`ops::cvt`, §6.5 rules).
#[inline]
pub fn cvt(v: u64, aty: Scalar, dty: Scalar, mode: ops::cvt::CvtMode) -> u64 {
    ops::cvt::cvt(v, cvt_type(aty), cvt_type(dty), mode)
}
