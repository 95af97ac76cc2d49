//! Floating point with `.ftz`, `.sat`, directed rounding and the approximate forms: the
//! per-lane slow path, delegating to the `ops` crate (the one definition of float semantics).

use crate::program::{Approx, FMode, FOp, FUnOp, Rounding};
use ops::float::{self as of, Rounding as R};
use ops::transcend::{self as ot, Precision};

fn rnd(r: Rounding) -> R {
    match r {
        Rounding::Rn => R::Rn,
        Rounding::Rz => R::Rz,
        Rounding::Rm => R::Rm,
        Rounding::Rp => R::Rp,
    }
}

fn prec(m: FMode) -> Precision {
    match m.approx {
        Approx::Approx => Precision::Approx,
        _ => Precision::Rounded(rnd(m.rnd)),
    }
}

pub fn bin32(op: FOp, m: FMode, a: u32, b: u32) -> u32 {
    let (x, y) = (f32::from_bits(a), f32::from_bits(b));
    let r = rnd(m.rnd);
    let v = match op {
        FOp::Add => of::add_f32(x, y, r, m.ftz, m.sat),
        FOp::Sub => of::sub_f32(x, y, r, m.ftz, m.sat),
        FOp::Mul => of::mul_f32(x, y, r, m.ftz, m.sat),
        FOp::Div => {
            let kind = match m.approx {
                Approx::Approx => of::DivKind::Approx,
                Approx::Full => of::DivKind::Full,
                Approx::Ieee => of::DivKind::Rounded(r),
            };
            of::div_f32(x, y, kind, m.ftz, m.sat)
        }
        FOp::Min => of::min_f32(x, y, m.ftz),
        FOp::Max => of::max_f32(x, y, m.ftz),
    };
    v.to_bits()
}

pub fn fma32(m: FMode, a: u32, b: u32, c: u32) -> u32 {
    let (x, y, z) = (f32::from_bits(a), f32::from_bits(b), f32::from_bits(c));
    of::fma_f32(x, y, z, rnd(m.rnd), m.ftz, m.sat).to_bits()
}

pub fn un32(op: FUnOp, m: FMode, a: u32) -> u32 {
    let x = f32::from_bits(a);
    let v = match op {
        FUnOp::Neg => of::neg_f32(x, m.ftz),
        FUnOp::Abs => of::abs_f32(x, m.ftz),
        FUnOp::Sqrt => ot::sqrt_f32(x, prec(m), m.ftz),
        FUnOp::Rcp => ot::rcp_f32(x, prec(m), m.ftz),
        FUnOp::Rsqrt => ot::rsqrt_f32(x, m.ftz),
        FUnOp::Sin => ot::sin_f32(x, m.ftz),
        FUnOp::Cos => ot::cos_f32(x, m.ftz),
        FUnOp::Lg2 => ot::lg2_f32(x, m.ftz),
        FUnOp::Ex2 => ot::ex2_f32(x, m.ftz),
    };
    let v = if m.sat { of::saturate_f32(v) } else { v };
    v.to_bits()
}

fn sat64(m: FMode, v: f64) -> u64 {
    (if m.sat { of::saturate_f64(v) } else { v }).to_bits()
}

pub fn bin64(op: FOp, m: FMode, a: u64, b: u64) -> u64 {
    let (x, y) = (f64::from_bits(a), f64::from_bits(b));
    let r = rnd(m.rnd);
    let v = match op {
        FOp::Add => of::add_f64(x, y, r),
        FOp::Sub => of::sub_f64(x, y, r),
        FOp::Mul => of::mul_f64(x, y, r),
        FOp::Div => of::div_f64(x, y, r),
        FOp::Min => of::min_f64(x, y),
        FOp::Max => of::max_f64(x, y),
    };
    sat64(m, v)
}

pub fn fma64(m: FMode, a: u64, b: u64, c: u64) -> u64 {
    let (x, y, z) = (f64::from_bits(a), f64::from_bits(b), f64::from_bits(c));
    sat64(m, of::fma_f64(x, y, z, rnd(m.rnd)))
}

pub fn un64(op: FUnOp, m: FMode, a: u64) -> u64 {
    let x = f64::from_bits(a);
    let v = match op {
        FUnOp::Neg => of::neg_f64(x),
        FUnOp::Abs => of::abs_f64(x),
        FUnOp::Sqrt => ot::sqrt_f64(x, rnd(m.rnd)),
        // `.approx` on f64 exists only as `rcp.approx.ftz.f64` (PTX 1.x's bare `rcp.f64` reaches
        // here as `.rn`, the checker spells the default out).
        FUnOp::Rcp if m.approx == Approx::Approx => ot::rcp_approx_ftz_f64(x),
        FUnOp::Rcp => ot::rcp_f64(x, prec(m)),
        FUnOp::Rsqrt => ot::rsqrt_f64(x, m.ftz),
        // Only f32 forms of these exist in PTX; evaluate in f32 if a module maps f64 to them.
        FUnOp::Sin => ot::sin_f32(x as f32, m.ftz) as f64,
        FUnOp::Cos => ot::cos_f32(x as f32, m.ftz) as f64,
        FUnOp::Lg2 => ot::lg2_f32(x as f32, m.ftz) as f64,
        FUnOp::Ex2 => ot::ex2_f32(x as f32, m.ftz) as f64,
    };
    sat64(m, v)
}
