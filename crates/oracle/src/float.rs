//! Floating-point arithmetic, comparison and the half-precision forms, through `ops`.

use crate::alu::Cx;
use crate::value::extend;
use crate::Fault;
use ir::{Flag, Opcode as Oc, Type};
use ops::float::{self as of, DivKind, Rounding};
use ops::half::{self as oh, HalfFormat, HalfMode, MinMaxMode};
use ops::transcend::{self as ot, Precision};

pub(crate) fn rounding(i: &ir::Inst) -> Option<Rounding> {
    use isa::Rounding as R;
    Some(match i.mods.rounding? {
        R::Rn | R::Rni => Rounding::Rn,
        R::Rz | R::Rzi => Rounding::Rz,
        R::Rm | R::Rmi => Rounding::Rm,
        R::Rp | R::Rpi => Rounding::Rp,
        R::Rna | R::Rs => return None,
    })
}

fn half_format(t: Type) -> Option<(HalfFormat, bool)> {
    Some(match t {
        Type::F16 => (HalfFormat::F16, false),
        Type::F16x2 => (HalfFormat::F16, true),
        Type::Bf16 => (HalfFormat::Bf16, false),
        Type::Bf16x2 => (HalfFormat::Bf16, true),
        _ => return None,
    })
}

/// Float instructions; `Ok(false)` when `i` is not one.
pub(crate) fn exec(cx: &mut Cx<'_, '_, '_>) -> Result<bool, Fault> {
    let i = cx.i;
    let ty = i.ty().unwrap_or(Type::B32);
    let ftz = cx.has(Flag::Ftz);
    let sat = cx.has(Flag::Sat);
    let rnd = rounding(i);
    let unsupported = || crate::fault::unsupported(i);
    if let Some((f, x2)) = half_format(ty) {
        let arith = matches!(
            i.op,
            Oc::Add | Oc::Sub | Oc::Mul | Oc::Fma | Oc::Neg | Oc::Abs | Oc::Min | Oc::Max | Oc::Ex2
        );
        if !arith {
            return Ok(false);
        }
        return half(cx, f, x2).map(|_| true);
    }
    if i.op == Oc::Tanh && ty == Type::F32 {
        let a = f32::from_bits(cx.a(1)? as u32);
        cx.put(0, u64::from(oh::tanh_f32(a).to_bits()))?;
        return Ok(true);
    }
    let v: u64 = match ty {
        Type::F32x2 => {
            let op = match i.op {
                Oc::Add => of::PairOp::Add,
                Oc::Sub => of::PairOp::Sub,
                Oc::Mul => of::PairOp::Mul,
                Oc::Fma => of::PairOp::Fma,
                _ => return Ok(false),
            };
            let g = |k: usize| -> Result<u64, Fault> {
                match cx.op(k) {
                    ir::Operand::Omitted => Ok(0),
                    _ => cx.a_as(k, Type::B64),
                }
            };
            of::f32x2(op, g(1)?, g(2)?, g(3)?, rnd.unwrap_or_default(), ftz)
        }
        Type::F32 => {
            let g = |k: usize| -> Result<f32, Fault> { Ok(f32::from_bits(cx.a(k)? as u32)) };
            let r = rnd.unwrap_or_default();
            let x = match i.op {
                Oc::Add => of::add_f32(g(1)?, g(2)?, r, ftz, sat),
                Oc::Sub => of::sub_f32(g(1)?, g(2)?, r, ftz, sat),
                Oc::Mul => of::mul_f32(g(1)?, g(2)?, r, ftz, sat),
                Oc::Fma => of::fma_f32(g(1)?, g(2)?, g(3)?, r, ftz, sat),
                Oc::Mad if rnd.is_some() => of::fma_f32(g(1)?, g(2)?, g(3)?, r, ftz, sat),
                Oc::Mad => of::mad_f32(g(1)?, g(2)?, g(3)?, ftz, sat),
                Oc::Div => {
                    let kind = if cx.has(Flag::Approx) {
                        DivKind::Approx
                    } else if cx.has(Flag::Full) {
                        DivKind::Full
                    } else {
                        DivKind::Rounded(r)
                    };
                    of::div_f32(g(1)?, g(2)?, kind, ftz, sat)
                }
                Oc::Abs => of::abs_f32(g(1)?, ftz),
                Oc::Neg => of::neg_f32(g(1)?, ftz),
                Oc::Min | Oc::Max if cx.has(Flag::Relu) => return Err(unsupported()),
                Oc::Min | Oc::Max => of::min_max_f32(
                    g(1)?,
                    g(2)?,
                    i.op == Oc::Max,
                    ftz,
                    cx.has(Flag::NaN),
                    cx.has(Flag::Xorsign),
                ),
                Oc::Rcp => ot::rcp_f32(g(1)?, precision(i, rnd), ftz),
                Oc::Sqrt => ot::sqrt_f32(g(1)?, precision(i, rnd), ftz),
                Oc::Rsqrt => ot::rsqrt_f32(g(1)?, ftz),
                Oc::Sin => ot::sin_f32(g(1)?, ftz),
                Oc::Cos => ot::cos_f32(g(1)?, ftz),
                Oc::Lg2 => ot::lg2_f32(g(1)?, ftz),
                Oc::Ex2 => ot::ex2_f32(g(1)?, ftz),
                Oc::Copysign => of::copysign_f32(g(1)?, g(2)?),
                Oc::Sad => of::sad_f32(g(1)?, g(2)?, g(3)?),
                Oc::Testp => {
                    let op = testp_op(i).ok_or_else(unsupported)?;
                    cx.put(0, u64::from(of::testp_f32(op, g(1)?)))?;
                    return Ok(true);
                }
                _ => return Ok(false),
            };
            u64::from(x.to_bits())
        }
        Type::F64 => {
            let g = |k: usize| -> Result<f64, Fault> { Ok(f64::from_bits(cx.a(k)?)) };
            let r = rnd.unwrap_or_default();
            let x = match i.op {
                Oc::Add => of::add_f64(g(1)?, g(2)?, r),
                Oc::Sub => of::sub_f64(g(1)?, g(2)?, r),
                Oc::Mul => of::mul_f64(g(1)?, g(2)?, r),
                Oc::Fma => of::fma_f64(g(1)?, g(2)?, g(3)?, r),
                Oc::Mad if rnd.is_some() => of::fma_f64(g(1)?, g(2)?, g(3)?, r),
                Oc::Mad => of::mad_f64(g(1)?, g(2)?, g(3)?),
                Oc::Div => of::div_f64(g(1)?, g(2)?, r),
                Oc::Abs => of::abs_f64(g(1)?),
                Oc::Neg => of::neg_f64(g(1)?),
                Oc::Min | Oc::Max if cx.has(Flag::NaN) || cx.has(Flag::Xorsign) => {
                    return Err(unsupported())
                }
                Oc::Min => of::min_f64(g(1)?, g(2)?),
                Oc::Max => of::max_f64(g(1)?, g(2)?),
                Oc::Rcp if cx.has(Flag::Approx) => ot::rcp_approx_ftz_f64(g(1)?),
                Oc::Rcp => ot::rcp_f64(g(1)?, precision(i, rnd)),
                Oc::Sqrt => ot::sqrt_f64(g(1)?, r),
                Oc::Rsqrt => ot::rsqrt_f64(g(1)?, ftz),
                Oc::Copysign => of::copysign_f64(g(1)?, g(2)?),
                Oc::Sad => of::sad_f64(g(1)?, g(2)?, g(3)?),
                Oc::Testp => {
                    let op = testp_op(i).ok_or_else(unsupported)?;
                    cx.put(0, u64::from(of::testp_f64(op, g(1)?)))?;
                    return Ok(true);
                }
                _ => return Ok(false),
            };
            x.to_bits()
        }
        _ => return Ok(false),
    };
    cx.put(0, v)?;
    Ok(true)
}

fn precision(i: &ir::Inst, rnd: Option<Rounding>) -> Precision {
    match rnd {
        Some(r) if !i.mods.has(Flag::Approx) => Precision::Rounded(r),
        _ => Precision::Approx,
    }
}

fn testp_op(i: &ir::Inst) -> Option<of::TestpOp> {
    use isa::TestpOp as T;
    use of::TestpOp as O;
    Some(match i.mods.testp? {
        T::Finite => O::Finite,
        T::Infinite => O::Infinite,
        T::Number => O::Number,
        T::NotANumber => O::NotANumber,
        T::Normal => O::Normal,
        T::Subnormal => O::Subnormal,
    })
}

/// Half-precision arithmetic (`.f16 .bf16` and their packed pairs).
fn half(cx: &mut Cx<'_, '_, '_>, f: HalfFormat, x2: bool) -> Result<(), Fault> {
    let i = cx.i;
    let ftz = cx.has(Flag::Ftz);
    let m = HalfMode {
        rnd: rounding(i).unwrap_or_default(),
        ftz,
        sat: cx.has(Flag::Sat),
        relu: cx.has(Flag::Relu),
    };
    let mm = MinMaxMode {
        ftz,
        nan: cx.has(Flag::NaN),
        xorsign_abs: cx.has(Flag::Xorsign),
    };
    let op: fn(u16, u16, u16, HalfFormat, HalfMode, MinMaxMode) -> u16 = match i.op {
        Oc::Add => |a, b, _, f, m, _| oh::add_h(a, b, f, m),
        Oc::Sub => |a, b, _, f, m, _| oh::sub_h(a, b, f, m),
        Oc::Mul => |a, b, _, f, m, _| oh::mul_h(a, b, f, m),
        Oc::Fma => |a, b, c, f, m, _| oh::fma_h(a, b, c, f, m),
        Oc::Neg => |a, _, _, f, m, _| oh::neg_h(a, f, m.ftz),
        Oc::Abs => |a, _, _, f, m, _| oh::abs_h(a, f, m.ftz),
        Oc::Min => |a, b, _, f, _, mm| oh::min_h(a, b, f, mm),
        Oc::Max => |a, b, _, f, _, mm| oh::max_h(a, b, f, mm),
        Oc::Ex2 => |a, _, _, f, m, _| oh::ex2_h(a, f, m.ftz),
        _ => return Err(crate::fault::unsupported(i)),
    };
    let n = i.form.operands.len();
    let get = |k: usize| -> Result<u64, Fault> {
        if k < n {
            cx.a(k)
        } else {
            Ok(0)
        }
    };
    let (a, b, c) = (get(1)?, get(2)?, get(3)?);
    let v = if x2 {
        u64::from(oh::x2(a as u32, b as u32, c as u32, |a, b, c| {
            op(a, b, c, f, m, mm)
        }))
    } else {
        u64::from(op(a as u16, b as u16, c as u16, f, m, mm))
    };
    cx.put(0, v)
}

fn cmp_op(c: isa::CmpOp) -> ops::cmp::CmpOp {
    use isa::CmpOp as I;
    use ops::cmp::CmpOp as O;
    match c {
        I::Eq => O::Eq,
        I::Ne => O::Ne,
        I::Lt => O::Lt,
        I::Le => O::Le,
        I::Gt => O::Gt,
        I::Ge => O::Ge,
        I::Lo => O::Lo,
        I::Ls => O::Ls,
        I::Hi => O::Hi,
        I::Hs => O::Hs,
        I::Equ => O::Equ,
        I::Neu => O::Neu,
        I::Ltu => O::Ltu,
        I::Leu => O::Leu,
        I::Gtu => O::Gtu,
        I::Geu => O::Geu,
        I::Num => O::Num,
        I::Nan => O::Nan,
    }
}

/// One comparison of `a` and `b` as values of `t`.
fn compare_one(op: ops::cmp::CmpOp, t: Type, a: u64, b: u64, ftz: bool) -> Option<bool> {
    use ops::cmp as c;
    let bits = crate::value::bits_of(t);
    Some(match t {
        Type::F32 => c::cmp_f32(op, f32::from_bits(a as u32), f32::from_bits(b as u32), ftz),
        Type::F64 => c::cmp_f64(op, f64::from_bits(a), f64::from_bits(b)),
        Type::F16 | Type::Bf16 => {
            let f = half_format(t)?.0;
            let h = |x: u64| {
                let x = x as u16;
                oh::h_to_f64(if ftz { oh::flush_h(x, f) } else { x }, f)
            };
            c::cmp_f64(op, h(a), h(b))
        }
        t if t.is_signed() => c::cmp_signed(
            op,
            extend(a, bits, true) as i64,
            extend(b, bits, true) as i64,
        ),
        _ => c::cmp_unsigned(op, a, b),
    })
}

/// `setp` and `set`, every type (packed half pairs give two results).
pub(crate) fn compare(cx: &mut Cx<'_, '_, '_>) -> Result<(), Fault> {
    let i = cx.i;
    let unsupported = || crate::fault::unsupported(i);
    let op = cmp_op(i.mods.cmp.ok_or_else(unsupported)?);
    let ftz = cx.has(Flag::Ftz);
    let (sty, dty) = if i.op == Oc::Set {
        (
            i.type_slot(1).ok_or_else(unsupported)?,
            i.ty().ok_or_else(unsupported)?,
        )
    } else {
        let t = i.ty().ok_or_else(unsupported)?;
        (t, t)
    };
    let (a, b) = (cx.a(1)?, cx.a(2)?);
    let comb = match i.mods.bool_op {
        None => None,
        Some(bop) => {
            let bop = match bop {
                isa::BoolOp::And => ops::cmp::BoolOp::And,
                isa::BoolOp::Or => ops::cmp::BoolOp::Or,
                isa::BoolOp::Xor => ops::cmp::BoolOp::Xor,
            };
            Some((bop, cx.a_as(3, Type::Pred)? & 1 == 1))
        }
    };
    let (lanes, ety) = match sty {
        Type::F16x2 => (2, Type::F16),
        Type::Bf16x2 => (2, Type::Bf16),
        t => (1, t),
    };
    let mut res = [(false, false); 2];
    for (k, r) in res.iter_mut().enumerate().take(lanes) {
        let sh = 16 * k as u32;
        let (x, y) = if lanes == 2 {
            ((a >> sh) & 0xffff, (b >> sh) & 0xffff)
        } else {
            (a, b)
        };
        let t = compare_one(op, ety, x, y, ftz).ok_or_else(unsupported)?;
        *r = ops::cmp::setp(t, comb);
    }
    if i.op == Oc::Setp {
        if lanes == 2 {
            // `setp.f16x2 p|q`: p from the low halves, q from the high halves.
            let (p, q) = match cx.op(0) {
                ir::Operand::PredPair(p, q) => (*p, *q),
                _ => return Err(unsupported()),
            };
            cx.t.set_reg(cx.env, p, Type::Pred, u64::from(res[0].0));
            if let Some(q) = q {
                cx.t.set_reg(cx.env, q, Type::Pred, u64::from(res[1].0));
            }
            return Ok(());
        }
        let (p, q) = match cx.op(0) {
            ir::Operand::PredPair(p, q) => (*p, *q),
            ir::Operand::Reg(p) => (*p, None),
            _ => return Err(unsupported()),
        };
        cx.t.set_reg(cx.env, p, Type::Pred, u64::from(res[0].0));
        if let Some(q) = q {
            cx.t.set_reg(cx.env, q, Type::Pred, u64::from(res[0].1));
        }
        return Ok(());
    }
    // `set`: the destination encodes the (combined) result.
    let v = match dty {
        Type::F32 => u64::from(ops::cmp::set_bits(res[0].0, true)),
        Type::U32 | Type::S32 | Type::B32 if lanes == 1 => {
            u64::from(ops::cmp::set_bits(res[0].0, false))
        }
        Type::U32 | Type::S32 => u64::from(ops::cmp::set_bits_half2(
            res[0].0,
            res[1].0,
            ops::cmp::SET_HALF_TRUE_INT,
        )),
        Type::F16x2 => u64::from(ops::cmp::set_bits_half2(
            res[0].0,
            res[1].0,
            ops::cmp::SET_HALF_TRUE_F16,
        )),
        Type::Bf16x2 => u64::from(ops::cmp::set_bits_half2(
            res[0].0,
            res[1].0,
            ops::cmp::SET_HALF_TRUE_BF16,
        )),
        _ => return Err(unsupported()),
    };
    cx.put(0, v)
}
