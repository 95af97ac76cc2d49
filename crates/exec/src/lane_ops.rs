//! Rare instructions evaluated lane by lane through `ops` (bit-field, permute, dot-product,
//! funnel shift, ...). The decoded [`LaneOp`] carries its modifiers, so the per-lane match is
//! on an enum, never on text.

use ops::int::{self as oi, ClampWrap, Dp2aMode, Sign};

/// An integer instruction type for the generic ops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntTy {
    U16,
    S16,
    U32,
    S32,
    U64,
    S64,
}

impl IntTy {
    pub fn of(t: ir::Type) -> Option<IntTy> {
        use ir::Type as T;
        Some(match t {
            T::U16 | T::B16 => IntTy::U16,
            T::S16 => IntTy::S16,
            T::U32 | T::B32 => IntTy::U32,
            T::S32 => IntTy::S32,
            T::U64 | T::B64 => IntTy::U64,
            T::S64 => IntTy::S64,
            _ => return None,
        })
    }
}

/// Which scalar video operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VideoKind {
    Add,
    Sub,
    Absdiff,
    Min,
    Max,
    Shl(ClampWrap),
    Shr(ClampWrap),
    Set(ops::video::VCmp),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LaneOp {
    Sad(IntTy),
    Bfe(IntTy),
    Bfi(IntTy),
    Bfind(IntTy, bool),
    Fns,
    Prmt(ops::prmt::PrmtMode),
    Dp4a(Sign, Sign),
    Dp2a(Sign, Sign, Dp2aMode),
    Szext(bool, ClampWrap),
    Bmsk(ClampWrap),
    Lop3(u8),
    Shf(bool, ops::logic::ShfMode),
    MadHiSatS32,
    /// Scalar video instructions (ptx-video.md §9.7.18.1).
    Video(VideoKind, ops::video::VideoScalar),
    /// `vmad` (ptx-video.md §9.7.18.1.3).
    Vmad(ops::video::VmadMode),
    /// `vset2`/`vset4`.
    Vset2(ops::video::Simd2Mode, ops::video::VCmp),
    Vset4(ops::video::Simd4Mode, ops::video::VCmp),
    /// `isspacep.space p, a`: whether generic address `a` lies in the space's window.
    Isspacep(crate::program::Space),
    /// `slct.dtype.s32 d, a, b, c`: `c >= 0 ? a : b`.
    SlctS32,
    /// `slct.dtype.f32 d, a, b, c` (`.ftz` flushes c).
    SlctF32(bool),
    /// PTX 1.1 `div.wide`/`rem.wide` (true for `rem`): `a` is the 2n-bit register.
    DivWide(IntTy, bool),
    /// PTX 1.1 `sad.f32`/`sad.f64` (true for `.f64`).
    SadF(bool),
    /// `copysign.type d, a, b`: `b` with the sign of `a` (true for `.f64`).
    Copysign(bool),
    /// `testp.op.type p, a` (true for `.f64`).
    Testp(ops::float::TestpOp, bool),
    /// Half-precision arithmetic; `x2` for the packed `.f16x2`/`.bf16x2` forms.
    Half {
        op: HalfOp,
        f: ops::half::HalfFormat,
        x2: bool,
    },
    /// `tanh.approx.f32`.
    TanhF32,
    /// `cvt.rna.tf32.f32`.
    CvtRnaTf32,
    /// `mad24.hi.sat.s32`.
    Mad24HiSatS32,
    /// The packed `.u16x2`/`.s16x2` forms of `add`, `min`, `max` (and `.relu`).
    Pair(PairOp),
    /// `min.relu.s32`, `max.relu.s32`.
    MinReluS32,
    MaxReluS32,
    /// `min`/`max` `.f32` with `.NaN` or `.xorsign.abs`.
    MinMaxF32 {
        max: bool,
        ftz: bool,
        nan: bool,
        xorsign_abs: bool,
    },
    /// `cvt.rn{.relu}.{f16x2,bf16x2}.f32 d, a, b`.
    CvtX2(ops::half::HalfFormat, bool),
    /// `add/sub/mul/fma{.rnd}{.ftz}.f32x2`.
    F32x2 {
        op: ops::float::PairOp,
        rnd: ops::float::Rounding,
        ftz: bool,
    },
    /// `cvt.pack.sat.{u16,s16,u8,s8}.s32{.b32} d, a, b{, c}`.
    CvtPackSat {
        bits: u32,
        signed: bool,
    },
    /// `cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f32 d, a, b`.
    CvtFp8F32(ops::fp8::Fp8, bool),
    /// `cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f16x2 d, a`.
    CvtFp8F16x2(ops::fp8::Fp8, bool),
    /// `cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2} d, a`.
    CvtF16x2Fp8(ops::fp8::Fp8, bool),
    /// `cvt` to or from `.e2m1x2`/`.e2m3x2`/`.e3m2x2`/`.ue8m0x2` (sm_100a).
    Mx(ops::mx::MxCvt),
    /// ptx-isa-1.1 `mad.f32`/`mad.f64` without a rounding modifier (not fused).
    MadF32 {
        ftz: bool,
        sat: bool,
    },
    MadF64,
}

/// Which packed half-word integer operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PairOp {
    AddU,
    AddS,
    MinU,
    MaxU,
    MinS,
    MaxS,
    MinReluS,
    MaxReluS,
}

/// Which half-precision operation (with its modifiers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HalfOp {
    Add(ops::half::HalfMode),
    Sub(ops::half::HalfMode),
    Mul(ops::half::HalfMode),
    Fma(ops::half::HalfMode),
    Neg { ftz: bool },
    Abs { ftz: bool },
    Min(ops::half::MinMaxMode),
    Max(ops::half::MinMaxMode),
    Ex2 { ftz: bool },
}

/// One 16-bit lane of a [`HalfOp`].
fn eval_half(op: HalfOp, f: ops::half::HalfFormat, a: u16, b: u16, c: u16) -> u16 {
    use ops::half as h;
    match op {
        HalfOp::Add(m) => h::add_h(a, b, f, m),
        HalfOp::Sub(m) => h::sub_h(a, b, f, m),
        HalfOp::Mul(m) => h::mul_h(a, b, f, m),
        HalfOp::Fma(m) => h::fma_h(a, b, c, f, m),
        HalfOp::Neg { ftz } => h::neg_h(a, f, ftz),
        HalfOp::Abs { ftz } => h::abs_h(a, f, ftz),
        HalfOp::Min(m) => h::min_h(a, b, f, m),
        HalfOp::Max(m) => h::max_h(a, b, f, m),
        HalfOp::Ex2 { ftz } => h::ex2_h(a, f, ftz),
    }
}

macro_rules! by_ty {
    ($t:expr, $f:ident, $($arg:expr),*) => {
        match $t {
            IntTy::U16 => oi::$f($($arg as u16),*) as u64,
            IntTy::S16 => oi::$f($($arg as u16 as i16),*) as u16 as u64,
            IntTy::U32 => oi::$f($($arg as u32),*) as u64,
            IntTy::S32 => oi::$f($($arg as u32 as i32),*) as u32 as u64,
            IntTy::U64 => oi::$f($($arg),*) as u64,
            IntTy::S64 => oi::$f($($arg as i64),*) as u64,
        }
    };
}

/// One lane of a [`LaneOp`] over the sources `s`.
pub fn eval(op: LaneOp, s: &[u64; 4]) -> u64 {
    let [a, b, c, d] = *s;
    match op {
        LaneOp::Sad(t) => by_ty!(t, sad, a, b, c),
        LaneOp::Bfe(t) => match t {
            IntTy::U16 => oi::bfe(a as u16, b as u32, c as u32) as u64,
            IntTy::S16 => oi::bfe(a as u16 as i16, b as u32, c as u32) as u16 as u64,
            IntTy::U32 => oi::bfe(a as u32, b as u32, c as u32) as u64,
            IntTy::S32 => oi::bfe(a as u32 as i32, b as u32, c as u32) as u32 as u64,
            IntTy::U64 => oi::bfe(a, b as u32, c as u32),
            IntTy::S64 => oi::bfe(a as i64, b as u32, c as u32) as u64,
        },
        LaneOp::Bfi(t) => match t {
            IntTy::U16 | IntTy::S16 => oi::bfi(a as u16, b as u16, c as u32, d as u32) as u64,
            IntTy::U32 | IntTy::S32 => oi::bfi(a as u32, b as u32, c as u32, d as u32) as u64,
            IntTy::U64 | IntTy::S64 => oi::bfi(a, b, c as u32, d as u32),
        },
        LaneOp::Bfind(t, shiftamt) => {
            let f = |x: u64| -> u32 {
                match (t, shiftamt) {
                    (IntTy::S32, false) => oi::bfind(x as u32 as i32),
                    (IntTy::S32, true) => oi::bfind_shiftamt(x as u32 as i32),
                    (IntTy::U64, false) => oi::bfind(x),
                    (IntTy::U64, true) => oi::bfind_shiftamt(x),
                    (IntTy::S64, false) => oi::bfind(x as i64),
                    (IntTy::S64, true) => oi::bfind_shiftamt(x as i64),
                    (_, false) => oi::bfind(x as u32),
                    (_, true) => oi::bfind_shiftamt(x as u32),
                }
            };
            f(a) as u64
        }
        LaneOp::Fns => oi::fns_b32(a as u32, b as u32, c as u32 as i32) as u64,
        LaneOp::Prmt(m) => ops::prmt::prmt(a as u32, b as u32, c as u32, m) as u64,
        LaneOp::Dp4a(sa, sb) => oi::dp4a(a as u32, b as u32, c as u32, sa, sb) as u64,
        LaneOp::Dp2a(sa, sb, m) => oi::dp2a(a as u32, b as u32, c as u32, sa, sb, m) as u64,
        LaneOp::Szext(true, m) => oi::szext_s32(a as u32 as i32, b as u32, m) as u32 as u64,
        LaneOp::Szext(false, m) => oi::szext_u32(a as u32, b as u32, m) as u64,
        LaneOp::Bmsk(m) => oi::bmsk_b32(a as u32, b as u32, m) as u64,
        LaneOp::Lop3(lut) => ops::logic::lop3(a as u32, b as u32, c as u32, lut) as u64,
        LaneOp::Shf(true, m) => ops::logic::shf_l(a as u32, b as u32, c as u32, m) as u64,
        LaneOp::Shf(false, m) => ops::logic::shf_r(a as u32, b as u32, c as u32, m) as u64,
        LaneOp::MadHiSatS32 => {
            oi::mad_hi_sat_s32(a as u32 as i32, b as u32 as i32, c as u32 as i32) as u32 as u64
        }
        LaneOp::Video(k, m) => {
            use ops::video as v;
            let (a, b, c) = (a as u32, b as u32, c as u32);
            (match k {
                VideoKind::Add => v::vadd(a, b, c, m),
                VideoKind::Sub => v::vsub(a, b, c, m),
                VideoKind::Absdiff => v::vabsdiff(a, b, c, m),
                VideoKind::Min => v::vmin(a, b, c, m),
                VideoKind::Max => v::vmax(a, b, c, m),
                VideoKind::Shl(cw) => v::vshl(a, b, c, m, cw),
                VideoKind::Shr(cw) => v::vshr(a, b, c, m, cw),
                VideoKind::Set(cmp) => v::vset(a, b, c, m, cmp),
            }) as u64
        }
        LaneOp::Vmad(m) => ops::video::vmad(a as u32, b as u32, c as u32, m) as u64,
        LaneOp::Vset2(m, cmp) => ops::video::vset2(a as u32, b as u32, c as u32, m, cmp) as u64,
        LaneOp::Vset4(m, cmp) => ops::video::vset4(a as u32, b as u32, c as u32, m, cmp) as u64,
        LaneOp::DivWide(t, rem) => {
            use oi::{div_wide, rem_wide};
            match t {
                IntTy::U16 if rem => rem_wide::<u16>(a as u32, b as u16) as u64,
                IntTy::U16 => div_wide::<u16>(a as u32, b as u16) as u64,
                IntTy::S16 if rem => {
                    rem_wide::<i16>(a as u32 as i32, b as u16 as i16) as u16 as u64
                }
                IntTy::S16 => div_wide::<i16>(a as u32 as i32, b as u16 as i16) as u16 as u64,
                IntTy::U32 if rem => rem_wide::<u32>(a, b as u32) as u64,
                IntTy::U32 => div_wide::<u32>(a, b as u32) as u64,
                IntTy::S32 if rem => rem_wide::<i32>(a as i64, b as u32 as i32) as u32 as u64,
                IntTy::S32 => div_wide::<i32>(a as i64, b as u32 as i32) as u32 as u64,
                // The table admits .wide only on 16- and 32-bit types.
                IntTy::U64 | IntTy::S64 => 0,
            }
        }
        LaneOp::SadF(false) => ops::float::sad_f32(
            f32::from_bits(a as u32),
            f32::from_bits(b as u32),
            f32::from_bits(c as u32),
        )
        .to_bits() as u64,
        LaneOp::SadF(true) => {
            ops::float::sad_f64(f64::from_bits(a), f64::from_bits(b), f64::from_bits(c)).to_bits()
        }
        LaneOp::Copysign(false) => {
            ops::float::copysign_f32(f32::from_bits(a as u32), f32::from_bits(b as u32)).to_bits()
                as u64
        }
        LaneOp::Copysign(true) => {
            ops::float::copysign_f64(f64::from_bits(a), f64::from_bits(b)).to_bits()
        }
        LaneOp::Testp(op, false) => ops::float::testp_f32(op, f32::from_bits(a as u32)) as u64,
        LaneOp::Testp(op, true) => ops::float::testp_f64(op, f64::from_bits(a)) as u64,
        LaneOp::Isspacep(space) => {
            use crate::memory::{
                CONST_WINDOW, LOCAL_WINDOW, PARAM_WINDOW, SHARED_WINDOW, WINDOW_BYTES,
            };
            let inw = |w: u64| (w..w + WINDOW_BYTES).contains(&a);
            let r = match space {
                crate::program::Space::Shared => inw(SHARED_WINDOW),
                crate::program::Space::Local => inw(LOCAL_WINDOW),
                crate::program::Space::Const => inw(CONST_WINDOW),
                crate::program::Space::Param => inw(PARAM_WINDOW),
                _ => {
                    !(inw(SHARED_WINDOW)
                        || inw(LOCAL_WINDOW)
                        || inw(CONST_WINDOW)
                        || inw(PARAM_WINDOW))
                }
            };
            r as u64
        }
        LaneOp::Half { op, f, x2: false } => {
            u64::from(eval_half(op, f, a as u16, b as u16, c as u16))
        }
        LaneOp::Half { op, f, x2: true } => {
            u64::from(ops::half::x2(a as u32, b as u32, c as u32, |a, b, c| {
                eval_half(op, f, a, b, c)
            }))
        }
        LaneOp::TanhF32 => ops::half::tanh_f32(f32::from_bits(a as u32)).to_bits() as u64,
        LaneOp::CvtRnaTf32 => u64::from(ops::cvt::cvt_rna_tf32_f32(a as u32)),
        LaneOp::Mad24HiSatS32 => {
            oi::mad24_hi_sat_s32(a as u32 as i32, b as u32 as i32, c as u32 as i32) as u32 as u64
        }
        LaneOp::SlctS32 => ops::cmp::slct_s32(a, b, c as u32 as i32),
        LaneOp::Pair(p) => {
            let (a, b) = (a as u32, b as u32);
            u64::from(match p {
                PairOp::AddU => oi::add_u16x2(a, b),
                PairOp::AddS => oi::add_s16x2(a, b),
                PairOp::MinU => oi::min_u16x2(a, b),
                PairOp::MaxU => oi::max_u16x2(a, b),
                PairOp::MinS => oi::min_s16x2(a, b),
                PairOp::MaxS => oi::max_s16x2(a, b),
                PairOp::MinReluS => oi::min_relu_s16x2(a, b),
                PairOp::MaxReluS => oi::max_relu_s16x2(a, b),
            })
        }
        LaneOp::MadF32 { ftz, sat } => u64::from(
            ops::float::mad_f32(
                f32::from_bits(a as u32),
                f32::from_bits(b as u32),
                f32::from_bits(c as u32),
                ftz,
                sat,
            )
            .to_bits(),
        ),
        LaneOp::MadF64 => {
            ops::float::mad_f64(f64::from_bits(a), f64::from_bits(b), f64::from_bits(c)).to_bits()
        }
        LaneOp::MinMaxF32 {
            max,
            ftz,
            nan,
            xorsign_abs,
        } => u64::from(
            ops::float::min_max_f32(
                f32::from_bits(a as u32),
                f32::from_bits(b as u32),
                max,
                ftz,
                nan,
                xorsign_abs,
            )
            .to_bits(),
        ),
        LaneOp::CvtX2(f, relu) => u64::from(ops::half::cvt_rn_x2_f32(
            f32::from_bits(a as u32),
            f32::from_bits(b as u32),
            f,
            relu,
        )),
        LaneOp::F32x2 { op, rnd, ftz } => ops::float::f32x2(op, a, b, c, rnd, ftz),
        LaneOp::CvtPackSat { bits, signed } => u64::from(ops::cvt::cvt_pack_sat(
            a as u32 as i32,
            b as u32 as i32,
            c as u32,
            bits,
            signed,
        )),
        LaneOp::CvtFp8F32(f, relu) => u64::from(ops::fp8::cvt_x2_f32(
            f32::from_bits(a as u32),
            f32::from_bits(b as u32),
            f,
            relu,
        )),
        LaneOp::CvtFp8F16x2(f, relu) => u64::from(ops::fp8::cvt_x2_f16x2(a as u32, f, relu)),
        LaneOp::CvtF16x2Fp8(f, relu) => u64::from(ops::fp8::cvt_f16x2_x2(a as u16, f, relu)),
        LaneOp::Mx(k) => u64::from(ops::mx::cvt(k, a as u32, b as u32)),
        LaneOp::MinReluS32 => oi::min_relu_s32(a as u32 as i32, b as u32 as i32) as u32 as u64,
        LaneOp::MaxReluS32 => oi::max_relu_s32(a as u32 as i32, b as u32 as i32) as u32 as u64,
        LaneOp::SlctF32(ftz) => ops::cmp::slct_f32(a, b, f32::from_bits(c as u32), ftz),
    }
}
