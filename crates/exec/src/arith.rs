//! Per-lane scalar semantics the lane loops are instantiated with.
//!
//! `with_int32!`/`with_int64!` turn a decoded [`IntOp`] into a closure ONCE per warp-instruction
//! (one match arm per op), so each arm's lane loop is monomorphic and tight.

use crate::program::IntOp;

#[inline(always)]
pub fn sext(v: u32, bits: u32) -> u32 {
    let s = 32 - bits;
    (((v << s) as i32) >> s) as u32
}

// Division and remainder come from `ops` (its division-by-zero and overflow rules are the
// project's reference, docs/spec-notes.md).
#[inline(always)]
pub fn div_u32(a: u32, b: u32) -> u32 {
    ops::int::div(a, b)
}
#[inline(always)]
pub fn div_s32(a: u32, b: u32) -> u32 {
    ops::int::div(a as i32, b as i32) as u32
}
#[inline(always)]
pub fn rem_u32(a: u32, b: u32) -> u32 {
    ops::int::rem(a, b)
}
#[inline(always)]
pub fn rem_s32(a: u32, b: u32) -> u32 {
    ops::int::rem(a as i32, b as i32) as u32
}
#[inline(always)]
pub fn div_u64(a: u64, b: u64) -> u64 {
    ops::int::div(a, b)
}
#[inline(always)]
pub fn div_s64(a: u64, b: u64) -> u64 {
    ops::int::div(a as i64, b as i64) as u64
}
#[inline(always)]
pub fn rem_u64(a: u64, b: u64) -> u64 {
    ops::int::rem(a, b)
}
#[inline(always)]
pub fn rem_s64(a: u64, b: u64) -> u64 {
    ops::int::rem(a as i64, b as i64) as u64
}

#[inline(always)]
pub fn shl32(a: u32, b: u32) -> u32 {
    ops::logic::shl_b32(a, b)
}
#[inline(always)]
pub fn shr_u32(a: u32, b: u32) -> u32 {
    ops::logic::shr_u32(a, b)
}
#[inline(always)]
pub fn shr_s32(a: u32, b: u32) -> u32 {
    ops::logic::shr_s32(a as i32, b) as u32
}
#[inline(always)]
pub fn shl64(a: u64, b: u64) -> u64 {
    ops::logic::shl_b64(a, b.min(64) as u32)
}
#[inline(always)]
pub fn shr_u64(a: u64, b: u64) -> u64 {
    ops::logic::shr_u64(a, b.min(64) as u32)
}
#[inline(always)]
pub fn shr_s64(a: u64, b: u64) -> u64 {
    ops::logic::shr_s64(a as i64, b.min(64) as u32) as u64
}

/// A 16-bit integer op, through `ops` at the instruction's 16-bit type (operands are the low
/// halves of the registers; the result is zero-extended).
#[inline]
pub fn int16(op: IntOp, a: u32, b: u32) -> u32 {
    use ops::int as oi;
    use ops::logic as ol;
    let (ua, ub) = (a as u16, b as u16);
    let (sa, sb) = (ua as i16, ub as i16);
    let r: u16 = match op {
        IntOp::Add => oi::add(ua, ub),
        IntOp::Sub => oi::sub(ua, ub),
        IntOp::MulLo => oi::mul_lo(ua, ub),
        IntOp::MulHiU => oi::mul_hi(ua, ub),
        IntOp::MulHiS => oi::mul_hi(sa, sb) as u16,
        IntOp::DivU => oi::div(ua, ub),
        IntOp::DivS => oi::div(sa, sb) as u16,
        IntOp::RemU => oi::rem(ua, ub),
        IntOp::RemS => oi::rem(sa, sb) as u16,
        IntOp::MinU => oi::min(ua, ub),
        IntOp::MinS => oi::min(sa, sb) as u16,
        IntOp::MaxU => oi::max(ua, ub),
        IntOp::MaxS => oi::max(sa, sb) as u16,
        IntOp::And => ol::and(ua, ub),
        IntOp::Or => ol::or(ua, ub),
        IntOp::Xor => ol::xor(ua, ub),
        // The shift amount is a whole `.u32` register.
        IntOp::Shl => ol::shl_b16(ua, b),
        IntOp::ShrU => ol::shr_u16(ua, b),
        IntOp::ShrS => ol::shr_s16(sa, b) as u16,
        // `.sat` and the 24-bit multiplies exist only for 32-bit types (the table admits no
        // 16-bit form); computed at 32 bits should one ever be lowered.
        IntOp::AddSatS
        | IntOp::SubSatS
        | IntOp::Mul24LoU
        | IntOp::Mul24LoS
        | IntOp::Mul24HiU
        | IntOp::Mul24HiS => int64(op, u64::from(a), u64::from(b)) as u16,
    };
    u32::from(r)
}

/// Expands `$body` once per integer op with `$f` bound to that op's 32-bit lane function.
macro_rules! with_int32 {
    ($op:expr, $f:ident => $body:expr) => {{
        use $crate::arith as ar;
        use $crate::program::IntOp as I;
        match $op {
            I::Add => {
                let $f = |a: u32, b: u32| ops::int::add(a, b);
                $body
            }
            I::Sub => {
                let $f = |a: u32, b: u32| ops::int::sub(a, b);
                $body
            }
            I::MulLo => {
                let $f = |a: u32, b: u32| ops::int::mul_lo(a, b);
                $body
            }
            I::MulHiU => {
                let $f = |a: u32, b: u32| ops::int::mul_hi(a, b);
                $body
            }
            I::MulHiS => {
                let $f = |a: u32, b: u32| ops::int::mul_hi(a as i32, b as i32) as u32;
                $body
            }
            I::DivU => {
                let $f = ar::div_u32;
                $body
            }
            I::DivS => {
                let $f = ar::div_s32;
                $body
            }
            I::RemU => {
                let $f = ar::rem_u32;
                $body
            }
            I::RemS => {
                let $f = ar::rem_s32;
                $body
            }
            I::MinU => {
                let $f = |a: u32, b: u32| ops::int::min(a, b);
                $body
            }
            I::MinS => {
                let $f = |a: u32, b: u32| ops::int::min(a as i32, b as i32) as u32;
                $body
            }
            I::MaxU => {
                let $f = |a: u32, b: u32| ops::int::max(a, b);
                $body
            }
            I::MaxS => {
                let $f = |a: u32, b: u32| ops::int::max(a as i32, b as i32) as u32;
                $body
            }
            I::And => {
                let $f = |a: u32, b: u32| a & b;
                $body
            }
            I::Or => {
                let $f = |a: u32, b: u32| a | b;
                $body
            }
            I::Xor => {
                let $f = |a: u32, b: u32| a ^ b;
                $body
            }
            I::Shl => {
                let $f = ar::shl32;
                $body
            }
            I::ShrU => {
                let $f = ar::shr_u32;
                $body
            }
            I::ShrS => {
                let $f = ar::shr_s32;
                $body
            }
            I::AddSatS => {
                let $f = |a: u32, b: u32| ops::int::add_sat_s32(a as i32, b as i32) as u32;
                $body
            }
            I::SubSatS => {
                let $f = |a: u32, b: u32| ops::int::sub_sat_s32(a as i32, b as i32) as u32;
                $body
            }
            I::Mul24LoU => {
                let $f = |a: u32, b: u32| ops::int::mul24_lo_u32(a, b);
                $body
            }
            I::Mul24LoS => {
                let $f = |a: u32, b: u32| ops::int::mul24_lo_s32(a as i32, b as i32) as u32;
                $body
            }
            I::Mul24HiU => {
                let $f = |a: u32, b: u32| ops::int::mul24_hi_u32(a, b);
                $body
            }
            I::Mul24HiS => {
                let $f = |a: u32, b: u32| ops::int::mul24_hi_s32(a as i32, b as i32) as u32;
                $body
            }
        }
    }};
}
pub(crate) use with_int32;

/// The 64-bit counterpart of [`with_int32`], through `ops`.
pub fn int64(op: IntOp, a: u64, b: u64) -> u64 {
    use ops::int as oi;
    let (sa, sb) = (a as i64, b as i64);
    match op {
        IntOp::Add => oi::add(a, b),
        IntOp::Sub => oi::sub(a, b),
        IntOp::MulLo => oi::mul_lo(a, b),
        IntOp::MulHiU => oi::mul_hi(a, b),
        IntOp::MulHiS => oi::mul_hi(sa, sb) as u64,
        IntOp::DivU => div_u64(a, b),
        IntOp::DivS => div_s64(a, b),
        IntOp::RemU => rem_u64(a, b),
        IntOp::RemS => rem_s64(a, b),
        IntOp::MinU => oi::min(a, b),
        IntOp::MinS => oi::min(sa, sb) as u64,
        IntOp::MaxU => oi::max(a, b),
        IntOp::MaxS => oi::max(sa, sb) as u64,
        IntOp::And => a & b,
        IntOp::Or => a | b,
        IntOp::Xor => a ^ b,
        IntOp::Shl => shl64(a, b),
        IntOp::ShrU => shr_u64(a, b),
        IntOp::ShrS => shr_s64(a, b),
        IntOp::AddSatS => oi::add_sat_s32(a as i32, b as i32) as u32 as u64,
        IntOp::SubSatS => oi::sub_sat_s32(a as i32, b as i32) as u32 as u64,
        IntOp::Mul24LoU => u64::from(oi::mul24_lo_u32(a as u32, b as u32)),
        IntOp::Mul24HiU => u64::from(oi::mul24_hi_u32(a as u32, b as u32)),
        IntOp::Mul24LoS => oi::mul24_lo_s32(a as i32, b as i32) as u32 as u64,
        IntOp::Mul24HiS => oi::mul24_hi_s32(a as i32, b as i32) as u32 as u64,
    }
}

/// Expands `$body` once per 64-bit op, for the common ones; the rest go through [`int64`].
macro_rules! with_int64 {
    ($op:expr, $f:ident => $body:expr) => {{
        use $crate::program::IntOp as I;
        match $op {
            I::Add => {
                let $f = |a: u64, b: u64| ops::int::add(a, b);
                $body
            }
            I::Sub => {
                let $f = |a: u64, b: u64| ops::int::sub(a, b);
                $body
            }
            I::MulLo => {
                let $f = |a: u64, b: u64| ops::int::mul_lo(a, b);
                $body
            }
            I::And => {
                let $f = |a: u64, b: u64| a & b;
                $body
            }
            I::Or => {
                let $f = |a: u64, b: u64| a | b;
                $body
            }
            I::Xor => {
                let $f = |a: u64, b: u64| a ^ b;
                $body
            }
            I::Shl => {
                let $f = $crate::arith::shl64;
                $body
            }
            I::ShrU => {
                let $f = $crate::arith::shr_u64;
                $body
            }
            op => {
                let $f = |a: u64, b: u64| $crate::arith::int64(op, a, b);
                $body
            }
        }
    }};
}
pub(crate) use with_int64;

/// 32-bit-bank unary integer ops at width `bits`, through `ops` (the caller masks the result
/// to the width). `popc clz brev` exist only as `.b32`/`.b64` (the table has no narrower form).
#[inline(always)]
pub fn un32(op: crate::program::UnOp, a: u32, bits: u32) -> u32 {
    use crate::program::UnOp as U;
    use ops::int as oi;
    let narrow = bits == 16;
    match op {
        U::Mov => a,
        U::Not => ops::logic::not(a),
        U::Cnot => ops::logic::cnot(u64::from(a & mask_bits(bits))) as u32,
        U::Neg if narrow => oi::neg(a as u16 as i16) as u16 as u32,
        U::Neg => oi::neg(a as i32) as u32,
        U::AbsS if narrow => oi::abs(a as u16 as i16) as u16 as u32,
        U::AbsS => oi::abs(a as i32) as u32,
        U::Popc => oi::popc_b32(a),
        U::Clz => oi::clz_b32(a),
        U::Brev => oi::brev_b32(a),
    }
}

/// The 64-bit counterpart of [`un32`].
#[inline(always)]
pub fn un64(op: crate::program::UnOp, a: u64) -> u64 {
    use crate::program::UnOp as U;
    use ops::int as oi;
    match op {
        U::Mov => a,
        U::Not => ops::logic::not(a),
        U::Cnot => ops::logic::cnot(a),
        U::Neg => oi::neg(a as i64) as u64,
        U::AbsS => oi::abs(a as i64) as u64,
        U::Popc => u64::from(oi::popc_b64(a)),
        U::Clz => u64::from(oi::clz_b64(a)),
        U::Brev => oi::brev_b64(a),
    }
}

#[inline(always)]
pub fn mask_bits(bits: u32) -> u32 {
    if bits >= 32 {
        u32::MAX
    } else {
        (1u32 << bits) - 1
    }
}
