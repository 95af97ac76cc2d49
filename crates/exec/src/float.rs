//! Floating-point instructions over a warp.
//!
//! The plain round-to-nearest forms run native IEEE operations in the lane loop (they are
//! bit-exact with the GPU except for NaN payloads, which are canonicalised). `.ftz`, `.sat` and
//! directed rounding take the per-lane path in [`crate::fround`].

use crate::fround;
use crate::lanes::{map1, map2, map3, write, LANES};
use crate::program::{FMode, FOp, FUnOp, Op};
use crate::warp::Warp;

/// The canonical NaN NVIDIA GPUs produce for f32 results.
pub const NAN32: u32 = 0x7fff_ffff;
/// The canonical f64 NaN.
pub const NAN64: u64 = 0x7fff_ffff_ffff_ffff;

#[inline(always)]
fn canon32(x: f32) -> u32 {
    if x.is_nan() {
        NAN32
    } else {
        x.to_bits()
    }
}
#[inline(always)]
fn canon64(x: f64) -> u64 {
    if x.is_nan() {
        NAN64
    } else {
        x.to_bits()
    }
}

/// min/max as the GPU computes them: a NaN operand is ignored, -0 < +0.
#[inline(always)]
pub fn fmin32(a: f32, b: f32) -> u32 {
    if a.is_nan() {
        return canon32(b);
    }
    if b.is_nan() {
        return a.to_bits();
    }
    if a == b {
        return a.to_bits() | b.to_bits(); // -0 wins
    }
    if a < b {
        a.to_bits()
    } else {
        b.to_bits()
    }
}
#[inline(always)]
pub fn fmax32(a: f32, b: f32) -> u32 {
    if a.is_nan() {
        return canon32(b);
    }
    if b.is_nan() {
        return a.to_bits();
    }
    if a == b {
        return a.to_bits() & b.to_bits(); // +0 wins
    }
    if a > b {
        a.to_bits()
    } else {
        b.to_bits()
    }
}
#[inline(always)]
pub fn fmin64(a: f64, b: f64) -> u64 {
    if a.is_nan() {
        return canon64(b);
    }
    if b.is_nan() {
        return a.to_bits();
    }
    if a == b {
        return a.to_bits() | b.to_bits();
    }
    if a < b {
        a.to_bits()
    } else {
        b.to_bits()
    }
}
#[inline(always)]
pub fn fmax64(a: f64, b: f64) -> u64 {
    if a.is_nan() {
        return canon64(b);
    }
    if b.is_nan() {
        return a.to_bits();
    }
    if a == b {
        return a.to_bits() & b.to_bits();
    }
    if a > b {
        a.to_bits()
    } else {
        b.to_bits()
    }
}

pub fn fun32(op: FUnOp, x: f32) -> u32 {
    match op {
        FUnOp::Neg => (-x).to_bits(),
        FUnOp::Abs => x.abs().to_bits(),
        FUnOp::Sqrt => canon32(x.sqrt()),
        FUnOp::Rcp => canon32(1.0 / x),
        FUnOp::Rsqrt => canon32(1.0 / x.sqrt()),
        FUnOp::Sin => canon32(x.sin()),
        FUnOp::Cos => canon32(x.cos()),
        FUnOp::Lg2 => canon32(x.log2()),
        FUnOp::Ex2 => canon32(x.exp2()),
    }
}

pub fn fun64(op: FUnOp, x: f64) -> u64 {
    match op {
        FUnOp::Neg => (-x).to_bits(),
        FUnOp::Abs => x.abs().to_bits(),
        FUnOp::Sqrt => canon64(x.sqrt()),
        FUnOp::Rcp => canon64(1.0 / x),
        FUnOp::Rsqrt => canon64(1.0 / x.sqrt()),
        FUnOp::Sin => canon64(x.sin()),
        FUnOp::Cos => canon64(x.cos()),
        FUnOp::Lg2 => canon64(x.log2()),
        FUnOp::Ex2 => canon64(x.exp2()),
    }
}

impl Warp {
    pub(crate) fn exec_float(&mut self, op: &Op, mask: u32, all: bool) {
        match *op {
            Op::F32 { op, mode, d, a, b } => {
                let (av, bv) = (self.row32(a), self.row32(b));
                let out = if mode == FMode::PLAIN {
                    let f = |x: u32, y: u32| {
                        let (x, y) = (f32::from_bits(x), f32::from_bits(y));
                        match op {
                            FOp::Add => canon32(x + y),
                            FOp::Sub => canon32(x - y),
                            FOp::Mul => canon32(x * y),
                            FOp::Div => canon32(x / y),
                            FOp::Min => fmin32(x, y),
                            FOp::Max => fmax32(x, y),
                        }
                    };
                    map2(&av, &bv, f)
                } else {
                    map2(&av, &bv, |x, y| fround::bin32(op, mode, x, y))
                };
                write(&mut self.r32[d.0 as usize], &out, mask, all);
            }
            Op::F64 { op, mode, d, a, b } => {
                let (av, bv) = (self.row64(a), self.row64(b));
                let out = map2(&av, &bv, |x, y| fround::bin64(op, mode, x, y));
                write(&mut self.r64[d.0 as usize], &out, mask, all);
            }
            Op::FUn32 { op, mode, d, a } => {
                let av = self.row32(a);
                let out = map1(&av, |x| fround::un32(op, mode, x));
                write(&mut self.r32[d.0 as usize], &out, mask, all);
            }
            Op::FUn64 { op, mode, d, a } => {
                let av = self.row64(a);
                let out = map1(&av, |x| fround::un64(op, mode, x));
                write(&mut self.r64[d.0 as usize], &out, mask, all);
            }
            Op::Fma32 { mode, d, a, b, c } => {
                let (av, bv, cv) = (self.row32(a), self.row32(b), self.row32(c));
                let out = map3(&av, &bv, &cv, |x, y, z| fround::fma32(mode, x, y, z));
                write(&mut self.r32[d.0 as usize], &out, mask, all);
            }
            Op::Fma64 { mode, d, a, b, c } => {
                let (av, bv, cv) = (self.row64(a), self.row64(b), self.row64(c));
                let out = map3(&av, &bv, &cv, |x, y, z| fround::fma64(mode, x, y, z));
                write(&mut self.r64[d.0 as usize], &out, mask, all);
            }
            _ => {}
        }
        let _ = LANES;
    }
}
