//! Floating-point instructions over a warp.
//!
//! Every lane computes through `ops::float` (the one definition of float semantics). The plain
//! round-to-nearest forms call it with constant modifiers from a monomorphic lane loop, so the
//! compiler reduces them to the native IEEE operation plus the NaN canonicalisation;
//! `.ftz`, `.sat`, directed rounding and approximations take [`crate::fround`].

use crate::fround;
use crate::lanes::{map1, map2, map3, write};
use crate::program::{FMode, FOp, Op};
use crate::warp::Warp;
use ops::float::{self as of, Rounding as R};

impl Warp {
    pub(crate) fn exec_float(&mut self, op: &Op, mask: u32, all: bool) {
        match *op {
            Op::F32 { op, mode, d, a, b } => {
                let (av, bv) = (self.row32(a), self.row32(b));
                let out = if mode == FMode::PLAIN {
                    let f = |x: u32, y: u32| {
                        let (x, y) = (f32::from_bits(x), f32::from_bits(y));
                        match op {
                            FOp::Add => of::add_f32(x, y, R::Rn, false, false),
                            FOp::Sub => of::sub_f32(x, y, R::Rn, false, false),
                            FOp::Mul => of::mul_f32(x, y, R::Rn, false, false),
                            FOp::Div => {
                                of::div_f32(x, y, of::DivKind::Rounded(R::Rn), false, false)
                            }
                            FOp::Min => of::min_f32(x, y, false),
                            FOp::Max => of::max_f32(x, y, false),
                        }
                        .to_bits()
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
    }
}
