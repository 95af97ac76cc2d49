//! Comparisons of `setp`/`set`, producing one predicate bit per lane, computed by `ops::cmp`.

use crate::arith::sext;
use crate::lanes::{mask_of, Row32, Row64};
use crate::program::{CmpOp, CmpTy, Width};
use ops::cmp as oc;

/// The `ops` operator of a decoded comparison.
#[inline(always)]
fn op_of(op: CmpOp) -> oc::CmpOp {
    match op {
        CmpOp::Eq => oc::CmpOp::Eq,
        CmpOp::Ne => oc::CmpOp::Ne,
        CmpOp::Lt => oc::CmpOp::Lt,
        CmpOp::Le => oc::CmpOp::Le,
        CmpOp::Gt => oc::CmpOp::Gt,
        CmpOp::Ge => oc::CmpOp::Ge,
        CmpOp::Equ => oc::CmpOp::Equ,
        CmpOp::Neu => oc::CmpOp::Neu,
        CmpOp::Ltu => oc::CmpOp::Ltu,
        CmpOp::Leu => oc::CmpOp::Leu,
        CmpOp::Gtu => oc::CmpOp::Gtu,
        CmpOp::Geu => oc::CmpOp::Geu,
        CmpOp::Num => oc::CmpOp::Num,
        CmpOp::Nan => oc::CmpOp::Nan,
    }
}

/// One half-precision comparison (the exact widening to f64 keeps order and NaN-ness).
#[inline]
fn half(op: oc::CmpOp, f: ops::half::HalfFormat, ftz: bool, x: u16, y: u16) -> bool {
    use ops::half as h;
    let w = |v: u16| h::h_to_f64(if ftz { h::flush_h(v, f) } else { v }, f);
    oc::cmp_f64(op, w(x), w(y))
}

/// Runs `$body` with `$c` bound to the `ops` operator of `$op` as a constant, so that the
/// operator's `match` inside `ops::cmp` folds away and each lane loop is one comparison.
macro_rules! with_cmp {
    ($op:expr, $c:ident => $body:expr) => {
        match $op {
            CmpOp::Eq => {
                const $c: oc::CmpOp = oc::CmpOp::Eq;
                $body
            }
            CmpOp::Ne => {
                const $c: oc::CmpOp = oc::CmpOp::Ne;
                $body
            }
            CmpOp::Lt => {
                const $c: oc::CmpOp = oc::CmpOp::Lt;
                $body
            }
            CmpOp::Le => {
                const $c: oc::CmpOp = oc::CmpOp::Le;
                $body
            }
            CmpOp::Gt => {
                const $c: oc::CmpOp = oc::CmpOp::Gt;
                $body
            }
            CmpOp::Ge => {
                const $c: oc::CmpOp = oc::CmpOp::Ge;
                $body
            }
            other => {
                #[allow(non_snake_case)]
                let $c = op_of(other);
                $body
            }
        }
    };
}

pub fn setp32(op: CmpOp, ty: CmpTy, w: Width, a: &Row32, b: &Row32) -> u32 {
    let bits = w.bits();
    let m = w.mask();
    match ty {
        CmpTy::U if w == Width::W32 => {
            with_cmp!(op, OP => mask_of(a, b, |x, y| oc::cmp_unsigned(OP, u64::from(x), u64::from(y))))
        }
        CmpTy::S if w == Width::W32 => with_cmp!(op, OP => mask_of(a, b, |x, y| {
            oc::cmp_signed(OP, i64::from(x as i32), i64::from(y as i32))
        })),
        _ => setp32_general(op_of(op), ty, bits, m, a, b),
    }
}

/// The comparisons other than the common 32-bit integer ones.
fn setp32_general(o: oc::CmpOp, ty: CmpTy, bits: u32, m: u32, a: &Row32, b: &Row32) -> u32 {
    match ty {
        CmpTy::U => mask_of(a, b, |x, y| {
            oc::cmp_unsigned(o, u64::from(x & m), u64::from(y & m))
        }),
        CmpTy::S => mask_of(a, b, |x, y| {
            oc::cmp_signed(
                o,
                i64::from(sext(x, bits) as i32),
                i64::from(sext(y, bits) as i32),
            )
        }),
        CmpTy::F | CmpTy::Fftz => {
            let ftz = ty == CmpTy::Fftz;
            mask_of(a, b, |x, y| {
                oc::cmp_f32(o, f32::from_bits(x), f32::from_bits(y), ftz)
            })
        }
        CmpTy::Half(f, ftz) => mask_of(a, b, |x, y| half(o, f, ftz, x as u16, y as u16)),
        // The low halves; `setp32_high` gives the high ones.
        CmpTy::Half2(f, ftz) => mask_of(a, b, |x, y| half(o, f, ftz, x as u16, y as u16)),
    }
}

/// The comparison of the high halves of packed `.f16x2`/`.bf16x2` operands.
pub fn setp32_high(op: CmpOp, f: ops::half::HalfFormat, ftz: bool, a: &Row32, b: &Row32) -> u32 {
    let o = op_of(op);
    mask_of(a, b, |x, y| {
        half(o, f, ftz, (x >> 16) as u16, (y >> 16) as u16)
    })
}

pub fn setp64(op: CmpOp, ty: CmpTy, a: &Row64, b: &Row64) -> u32 {
    match ty {
        CmpTy::U => with_cmp!(op, OP => mask_of(a, b, |x, y| oc::cmp_unsigned(OP, x, y))),
        CmpTy::S => {
            with_cmp!(op, OP => mask_of(a, b, |x, y| oc::cmp_signed(OP, x as i64, y as i64)))
        }
        _ => {
            let o = op_of(op);
            mask_of(a, b, |x, y| {
                oc::cmp_f64(o, f64::from_bits(x), f64::from_bits(y))
            })
        }
    }
}
