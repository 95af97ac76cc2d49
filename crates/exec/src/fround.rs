//! Floating-point with `.ftz`, `.sat` and directed rounding (`.rz/.rm/.rp`).
//!
//! A directed result is obtained from the round-to-nearest result and the sign of the exact
//! error (TwoSum for add, the exact fma residual for mul/div/sqrt), then stepped by one ulp.

use crate::float::{fmax32, fmax64, fmin32, fmin64, fun32, fun64, NAN32, NAN64};
use crate::program::{FMode, FOp, FUnOp, Rounding};

fn flush32(x: f32) -> f32 {
    if x.is_subnormal() {
        0.0f32.copysign(x)
    } else {
        x
    }
}

/// Round the exact value `s + e` (`s` the f64 nearest, `e` its error or only its sign) to f32.
fn round32(s: f64, e: f64, r: Rounding) -> f32 {
    let y = s as f32;
    if r == Rounding::Rn || y.is_nan() {
        return y;
    }
    let yd = y as f64;
    // Position of y relative to the exact value.
    let above = yd > s || (yd == s && e < 0.0);
    let below = yd < s || (yd == s && e > 0.0);
    let exact_neg = s < 0.0 || (s == 0.0 && e < 0.0);
    match r {
        Rounding::Rm if above => y.next_down(),
        Rounding::Rp if below => y.next_up(),
        Rounding::Rz if !exact_neg && above => y.next_down(),
        Rounding::Rz if exact_neg && below => y.next_up(),
        _ => y,
    }
}

fn round64(s: f64, e: f64, r: Rounding) -> f64 {
    if r == Rounding::Rn || s.is_nan() || e == 0.0 {
        return s;
    }
    let above = e < 0.0;
    let below = e > 0.0;
    let exact_neg = s < 0.0;
    match r {
        Rounding::Rm if above => s.next_down(),
        Rounding::Rp if below => s.next_up(),
        Rounding::Rz if !exact_neg && above => s.next_down(),
        Rounding::Rz if exact_neg && below => s.next_up(),
        _ => s,
    }
}

/// The sum `a + b` and the sign-carrying error of the f64 addition (an overflow to infinity
/// has an error of opposite sign: the exact sum is finite).
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    if s.is_infinite() && a.is_finite() && b.is_finite() {
        return (s, -s.signum());
    }
    let bb = s - a;
    let e = (a - (s - bb)) + (b - bb);
    (s, if e.is_nan() { 0.0 } else { e })
}

fn finish32(y: f32, mode: FMode) -> u32 {
    let mut y = y;
    if mode.ftz {
        y = flush32(y);
    }
    if mode.sat {
        y = if y.is_nan() { 0.0 } else { y.clamp(0.0, 1.0) };
    }
    if y.is_nan() {
        NAN32
    } else {
        y.to_bits()
    }
}

pub fn bin32(op: FOp, mode: FMode, a: u32, b: u32) -> u32 {
    let (mut x, mut y) = (f32::from_bits(a), f32::from_bits(b));
    if mode.ftz {
        x = flush32(x);
        y = flush32(y);
    }
    let (xd, yd) = (x as f64, y as f64);
    let r = match op {
        FOp::Add => {
            let (s, e) = two_sum(xd, yd);
            round32(s, e, mode.rnd)
        }
        FOp::Sub => {
            let (s, e) = two_sum(xd, -yd);
            round32(s, e, mode.rnd)
        }
        FOp::Mul => round32(xd * yd, 0.0, mode.rnd),
        FOp::Div => {
            if mode.rnd == Rounding::Rn {
                x / y
            } else {
                let q = xd / yd;
                let rem = (-q).mul_add(yd, xd);
                round32(q, rem * yd.signum(), mode.rnd)
            }
        }
        FOp::Min => f32::from_bits(fmin32(x, y)),
        FOp::Max => f32::from_bits(fmax32(x, y)),
    };
    finish32(r, mode)
}

pub fn fma32(mode: FMode, a: u32, b: u32, c: u32) -> u32 {
    let (mut x, mut y, mut z) = (f32::from_bits(a), f32::from_bits(b), f32::from_bits(c));
    if mode.ftz {
        x = flush32(x);
        y = flush32(y);
        z = flush32(z);
    }
    let r = if mode.rnd == Rounding::Rn {
        x.mul_add(y, z)
    } else {
        let p = x as f64 * y as f64;
        let (s, e) = two_sum(p, z as f64);
        round32(s, e, mode.rnd)
    };
    finish32(r, mode)
}

pub fn un32(op: FUnOp, mode: FMode, a: u32) -> u32 {
    let mut x = f32::from_bits(a);
    if mode.ftz {
        x = flush32(x);
    }
    let r = match op {
        FUnOp::Sqrt if mode.rnd != Rounding::Rn => {
            let s = (x as f64).sqrt();
            let rem = (-s).mul_add(s, x as f64);
            round32(s, rem, mode.rnd)
        }
        FUnOp::Rcp if mode.rnd != Rounding::Rn => {
            let q = 1.0 / x as f64;
            let rem = (-q).mul_add(x as f64, 1.0);
            round32(q, rem * (x as f64).signum(), mode.rnd)
        }
        FUnOp::Neg | FUnOp::Abs if !mode.ftz && !mode.sat => return fun32(op, x),
        _ => f32::from_bits(fun32(op, x)),
    };
    finish32(r, mode)
}

fn finish64(y: f64, mode: FMode) -> u64 {
    let mut y = y;
    if mode.ftz && y.is_subnormal() {
        y = 0.0f64.copysign(y);
    }
    if mode.sat {
        y = if y.is_nan() { 0.0 } else { y.clamp(0.0, 1.0) };
    }
    if y.is_nan() {
        NAN64
    } else {
        y.to_bits()
    }
}

pub fn bin64(op: FOp, mode: FMode, a: u64, b: u64) -> u64 {
    let (x, y) = (f64::from_bits(a), f64::from_bits(b));
    let r = match op {
        FOp::Add => {
            let (s, e) = two_sum(x, y);
            round64(s, e, mode.rnd)
        }
        FOp::Sub => {
            let (s, e) = two_sum(x, -y);
            round64(s, e, mode.rnd)
        }
        FOp::Mul => {
            let p = x * y;
            let e = if p.is_finite() { x.mul_add(y, -p) } else { 0.0 };
            round64(p, e, mode.rnd)
        }
        FOp::Div => {
            let q = x / y;
            let e = if q.is_finite() {
                (-q).mul_add(y, x) * y.signum()
            } else {
                0.0
            };
            round64(q, e, mode.rnd)
        }
        FOp::Min => f64::from_bits(fmin64(x, y)),
        FOp::Max => f64::from_bits(fmax64(x, y)),
    };
    finish64(r, mode)
}

pub fn fma64(mode: FMode, a: u64, b: u64, c: u64) -> u64 {
    let (x, y, z) = (f64::from_bits(a), f64::from_bits(b), f64::from_bits(c));
    finish64(x.mul_add(y, z), mode)
}

pub fn un64(op: FUnOp, mode: FMode, a: u64) -> u64 {
    let x = f64::from_bits(a);
    let r = match op {
        FUnOp::Sqrt if mode.rnd != Rounding::Rn => {
            let s = x.sqrt();
            round64(s, (-s).mul_add(s, x), mode.rnd)
        }
        FUnOp::Neg | FUnOp::Abs => return fun64(op, x),
        _ => f64::from_bits(fun64(op, x)),
    };
    finish64(r, mode)
}
