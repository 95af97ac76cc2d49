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
    if b >= 32 {
        0
    } else {
        a << b
    }
}
#[inline(always)]
pub fn shr_u32(a: u32, b: u32) -> u32 {
    if b >= 32 {
        0
    } else {
        a >> b
    }
}
#[inline(always)]
pub fn shr_s32(a: u32, b: u32) -> u32 {
    ((a as i32) >> b.min(31)) as u32
}
#[inline(always)]
pub fn shl64(a: u64, b: u64) -> u64 {
    if b >= 64 {
        0
    } else {
        a << b
    }
}
#[inline(always)]
pub fn shr_u64(a: u64, b: u64) -> u64 {
    if b >= 64 {
        0
    } else {
        a >> b
    }
}
#[inline(always)]
pub fn shr_s64(a: u64, b: u64) -> u64 {
    ((a as i64) >> b.min(63)) as u64
}

#[inline(always)]
pub fn mul24(a: u32, b: u32, signed: bool, hi: bool) -> u32 {
    let p: i64 = if signed {
        (sext(a & 0xff_ffff, 24) as i32 as i64) * (sext(b & 0xff_ffff, 24) as i32 as i64)
    } else {
        ((a & 0xff_ffff) as i64) * ((b & 0xff_ffff) as i64)
    };
    if hi {
        (p >> 16) as u32
    } else {
        p as u32
    }
}

/// Expands `$body` once per integer op with `$f` bound to that op's 32-bit lane function.
macro_rules! with_int32 {
    ($op:expr, $f:ident => $body:expr) => {{
        use $crate::arith as ar;
        use $crate::program::IntOp as I;
        match $op {
            I::Add => {
                let $f = |a: u32, b: u32| a.wrapping_add(b);
                $body
            }
            I::Sub => {
                let $f = |a: u32, b: u32| a.wrapping_sub(b);
                $body
            }
            I::MulLo => {
                let $f = |a: u32, b: u32| a.wrapping_mul(b);
                $body
            }
            I::MulHiU => {
                let $f = |a: u32, b: u32| ((a as u64 * b as u64) >> 32) as u32;
                $body
            }
            I::MulHiS => {
                let $f = |a: u32, b: u32| ((a as i32 as i64 * b as i32 as i64) >> 32) as u32;
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
                let $f = |a: u32, b: u32| a.min(b);
                $body
            }
            I::MinS => {
                let $f = |a: u32, b: u32| (a as i32).min(b as i32) as u32;
                $body
            }
            I::MaxU => {
                let $f = |a: u32, b: u32| a.max(b);
                $body
            }
            I::MaxS => {
                let $f = |a: u32, b: u32| (a as i32).max(b as i32) as u32;
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
                let $f = |a: u32, b: u32| (a as i32).saturating_add(b as i32) as u32;
                $body
            }
            I::SubSatS => {
                let $f = |a: u32, b: u32| (a as i32).saturating_sub(b as i32) as u32;
                $body
            }
            I::Mul24LoU => {
                let $f = |a: u32, b: u32| ar::mul24(a, b, false, false);
                $body
            }
            I::Mul24LoS => {
                let $f = |a: u32, b: u32| ar::mul24(a, b, true, false);
                $body
            }
            I::Mul24HiU => {
                let $f = |a: u32, b: u32| ar::mul24(a, b, false, true);
                $body
            }
            I::Mul24HiS => {
                let $f = |a: u32, b: u32| ar::mul24(a, b, true, true);
                $body
            }
        }
    }};
}
pub(crate) use with_int32;

/// The 64-bit counterpart of [`with_int32`].
pub fn int64(op: IntOp, a: u64, b: u64) -> u64 {
    match op {
        IntOp::Add => a.wrapping_add(b),
        IntOp::Sub => a.wrapping_sub(b),
        IntOp::MulLo => a.wrapping_mul(b),
        IntOp::MulHiU => ((a as u128 * b as u128) >> 64) as u64,
        IntOp::MulHiS => ((a as i64 as i128 * b as i64 as i128) >> 64) as u64,
        IntOp::DivU => div_u64(a, b),
        IntOp::DivS => div_s64(a, b),
        IntOp::RemU => rem_u64(a, b),
        IntOp::RemS => rem_s64(a, b),
        IntOp::MinU => a.min(b),
        IntOp::MinS => (a as i64).min(b as i64) as u64,
        IntOp::MaxU => a.max(b),
        IntOp::MaxS => (a as i64).max(b as i64) as u64,
        IntOp::And => a & b,
        IntOp::Or => a | b,
        IntOp::Xor => a ^ b,
        IntOp::Shl => shl64(a, b),
        IntOp::ShrU => shr_u64(a, b),
        IntOp::ShrS => shr_s64(a, b),
        IntOp::AddSatS => (a as i64).saturating_add(b as i64) as u64,
        IntOp::SubSatS => (a as i64).saturating_sub(b as i64) as u64,
        // 24-bit multiplies exist only for 32-bit types; the loader never emits these here.
        IntOp::Mul24LoU | IntOp::Mul24HiU => mul24(a as u32, b as u32, false, false) as u64,
        IntOp::Mul24LoS | IntOp::Mul24HiS => mul24(a as u32, b as u32, true, false) as u64,
    }
}

/// Expands `$body` once per 64-bit op, for the common ones; the rest go through [`int64`].
macro_rules! with_int64 {
    ($op:expr, $f:ident => $body:expr) => {{
        use $crate::program::IntOp as I;
        match $op {
            I::Add => {
                let $f = |a: u64, b: u64| a.wrapping_add(b);
                $body
            }
            I::Sub => {
                let $f = |a: u64, b: u64| a.wrapping_sub(b);
                $body
            }
            I::MulLo => {
                let $f = |a: u64, b: u64| a.wrapping_mul(b);
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

/// 32-bit unary integer ops.
#[inline(always)]
pub fn un32(op: crate::program::UnOp, a: u32, bits: u32) -> u32 {
    use crate::program::UnOp as U;
    match op {
        U::Mov => a,
        U::Not => !a,
        U::Cnot => (a & mask_bits(bits) == 0) as u32,
        U::Neg => a.wrapping_neg(),
        U::AbsS => (sext(a, bits) as i32).wrapping_abs() as u32,
        U::Popc => (a & mask_bits(bits)).count_ones(),
        U::Clz => (a & mask_bits(bits)).leading_zeros() - (32 - bits),
        U::Brev => (a & mask_bits(bits)).reverse_bits() >> (32 - bits),
    }
}

#[inline(always)]
pub fn un64(op: crate::program::UnOp, a: u64) -> u64 {
    use crate::program::UnOp as U;
    match op {
        U::Mov => a,
        U::Not => !a,
        U::Cnot => (a == 0) as u64,
        U::Neg => a.wrapping_neg(),
        U::AbsS => (a as i64).wrapping_abs() as u64,
        U::Popc => a.count_ones() as u64,
        U::Clz => a.leading_zeros() as u64,
        U::Brev => a.reverse_bits(),
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
