//! Comparisons of `setp`, producing one predicate bit per lane.

use crate::arith::sext;
use crate::lanes::{mask_of, Row32, Row64};
use crate::program::{CmpOp, CmpTy, Width};

/// Ordered float comparison per PTX §7.3.1.2: `eq..ge` are false when either operand is NaN,
/// the `u` forms true; `num`/`nan` test orderedness.
#[inline(always)]
pub fn fcmp<T: PartialOrd + Copy>(op: CmpOp, a: T, b: T, nan: bool) -> bool {
    match op {
        CmpOp::Eq => a == b,
        CmpOp::Ne => !nan && a != b,
        CmpOp::Lt => a < b,
        CmpOp::Le => a <= b,
        CmpOp::Gt => a > b,
        CmpOp::Ge => a >= b,
        CmpOp::Equ => nan || a == b,
        CmpOp::Neu => nan || a != b,
        CmpOp::Ltu => nan || a < b,
        CmpOp::Leu => nan || a <= b,
        CmpOp::Gtu => nan || a > b,
        CmpOp::Geu => nan || a >= b,
        CmpOp::Num => !nan,
        CmpOp::Nan => nan,
    }
}

#[inline(always)]
fn icmp<T: PartialOrd + Copy>(op: CmpOp, a: T, b: T) -> bool {
    // The checker only admits eq..ge (and their unsigned spellings lo/ls/hi/hs) for integers.
    match op {
        CmpOp::Eq | CmpOp::Equ => a == b,
        CmpOp::Ne | CmpOp::Neu => a != b,
        CmpOp::Lt | CmpOp::Ltu => a < b,
        CmpOp::Le | CmpOp::Leu => a <= b,
        CmpOp::Gt | CmpOp::Gtu => a > b,
        CmpOp::Ge | CmpOp::Geu => a >= b,
        CmpOp::Num => true,
        CmpOp::Nan => false,
    }
}

pub fn setp32(op: CmpOp, ty: CmpTy, w: Width, a: &Row32, b: &Row32) -> u32 {
    let bits = w.bits();
    let m = w.mask();
    match (ty, op) {
        (CmpTy::U, CmpOp::Lt) if w == Width::W32 => mask_of(a, b, |x, y| x < y),
        (CmpTy::U, CmpOp::Ne) if w == Width::W32 => mask_of(a, b, |x, y| x != y),
        (CmpTy::S, CmpOp::Lt) if w == Width::W32 => mask_of(a, b, |x, y| (x as i32) < y as i32),
        (CmpTy::S, CmpOp::Ge) if w == Width::W32 => mask_of(a, b, |x, y| (x as i32) >= y as i32),
        (CmpTy::U, _) => mask_of(a, b, |x, y| icmp(op, x & m, y & m)),
        (CmpTy::S, _) => mask_of(a, b, |x, y| {
            icmp(op, sext(x, bits) as i32, sext(y, bits) as i32)
        }),
        (CmpTy::F, _) if w == Width::W16 => mask_of(a, b, |x, y| {
            let (x, y) = (
                crate::convert::f16_to_f32(x as u16),
                crate::convert::f16_to_f32(y as u16),
            );
            fcmp(op, x, y, x.is_nan() || y.is_nan())
        }),
        (CmpTy::F, _) => mask_of(a, b, |x, y| {
            let (x, y) = (f32::from_bits(x), f32::from_bits(y));
            fcmp(op, x, y, x.is_nan() || y.is_nan())
        }),
        (CmpTy::Fftz, _) => mask_of(a, b, |x, y| {
            let (x, y) = (
                ops::float::flush_f32(f32::from_bits(x)),
                ops::float::flush_f32(f32::from_bits(y)),
            );
            fcmp(op, x, y, x.is_nan() || y.is_nan())
        }),
    }
}

pub fn setp64(op: CmpOp, ty: CmpTy, a: &Row64, b: &Row64) -> u32 {
    match ty {
        CmpTy::U => mask_of(a, b, |x, y| icmp(op, x, y)),
        CmpTy::S => mask_of(a, b, |x, y| icmp(op, x as i64, y as i64)),
        CmpTy::F | CmpTy::Fftz => mask_of(a, b, |x, y| {
            let (x, y) = (f64::from_bits(x), f64::from_bits(y));
            fcmp(op, x, y, x.is_nan() || y.is_nan())
        }),
    }
}
