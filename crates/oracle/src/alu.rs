//! Integer, carry-chain, bit, logic, comparison and selection instructions, each computed by
//! its `ops` function at the instruction's type.

use crate::thread::{Env, Thread};
use crate::value::{bits_of, extend};
use crate::Fault;
use ir::{Flag, Inst, Opcode as Oc, Operand, Type};
use isa::MulMode;
use ops::int::{self as oi, Int};

/// One instruction's view of its thread: operand reads at their table types, writes.
pub(crate) struct Cx<'t, 'a, 'm> {
    pub t: &'t mut Thread,
    pub env: &'t Env<'a, 'm>,
    pub i: &'t Inst,
}

impl Cx<'_, '_, '_> {
    /// The type operand `k` has in this instruction (the table's type reference resolved).
    pub fn ty(&self, k: usize) -> Type {
        self.i
            .form
            .operands
            .get(k)
            .and_then(|o| isa::resolve_type_ref(o.ty, &self.i.types, &self.i.mods))
            .unwrap_or(Type::B32)
    }
    pub fn op(&self, k: usize) -> &Operand {
        self.i.operands.get(k).unwrap_or(&Operand::Omitted)
    }
    /// Source operand `k` at its own type.
    pub fn a(&self, k: usize) -> Result<u64, Fault> {
        self.t.src(self.env, self.op(k), self.ty(k))
    }
    /// Source operand `k` read as `ty`.
    pub fn a_as(&self, k: usize, ty: Type) -> Result<u64, Fault> {
        self.t.src(self.env, self.op(k), ty)
    }
    /// Write destination operand `k` with a value of its type.
    pub fn put(&mut self, k: usize, v: u64) -> Result<(), Fault> {
        let ty = self.ty(k);
        let op = self.i.operands.get(k).unwrap_or(&Operand::Omitted);
        self.t.dst(self.env, op, ty, v)
    }
    pub fn put_as(&mut self, k: usize, ty: Type, v: u64) -> Result<(), Fault> {
        let op = self.i.operands.get(k).unwrap_or(&Operand::Omitted);
        self.t.dst(self.env, op, ty, v)
    }
    pub fn has(&self, f: Flag) -> bool {
        self.i.mods.has(f)
    }
}

/// Run `$body` with `$t` the Rust integer type of PTX integer type `$ty`.
macro_rules! by_int {
    ($ty:expr, $t:ident => $body:expr, else $other:expr) => {
        match $ty {
            Type::U16 | Type::B16 => {
                type $t = u16;
                $body
            }
            Type::S16 => {
                type $t = i16;
                $body
            }
            Type::U32 | Type::B32 => {
                type $t = u32;
                $body
            }
            Type::S32 => {
                type $t = i32;
                $body
            }
            Type::U64 | Type::B64 => {
                type $t = u64;
                $body
            }
            Type::S64 => {
                type $t = i64;
                $body
            }
            _ => $other,
        }
    };
}
pub(crate) use by_int;

fn f<T: Int>(bits: u64) -> T {
    T::from_bits(bits)
}

/// The integer instructions; `Ok(false)` when `i` is not one of them.
pub(crate) fn exec(cx: &mut Cx<'_, '_, '_>) -> Result<bool, Fault> {
    let i = cx.i;
    let ty = i.ty().unwrap_or(Type::B32);
    let moves = matches!(i.op, Oc::Selp | Oc::Slct | Oc::Setp | Oc::Set | Oc::Mov);
    if !moves && (ty.is_float() || matches!(ty, Type::F16x2 | Type::Bf16x2 | Type::Tf32)) {
        return Ok(false);
    }
    let sat = cx.has(Flag::Sat);
    let unsupported = || crate::fault::unsupported(i);
    let v: u64 = match i.op {
        Oc::Add | Oc::Sub if i.mods.has(Flag::Cc) => return carry(cx).map(|_| true),
        Oc::Addc | Oc::Subc | Oc::Madc => return carry(cx).map(|_| true),
        Oc::Mad if i.mods.has(Flag::Cc) => return carry(cx).map(|_| true),
        Oc::Add | Oc::Min | Oc::Max if matches!(ty, Type::U16x2 | Type::S16x2) => {
            let (a, b) = (cx.a(1)? as u32, cx.a(2)? as u32);
            let relu = cx.has(Flag::Relu);
            u64::from(match (i.op, ty == Type::S16x2, relu) {
                (Oc::Add, false, _) => oi::add_u16x2(a, b),
                (Oc::Add, true, _) => oi::add_s16x2(a, b),
                (Oc::Min, false, _) => oi::min_u16x2(a, b),
                (Oc::Max, false, _) => oi::max_u16x2(a, b),
                (Oc::Min, true, false) => oi::min_s16x2(a, b),
                (Oc::Max, true, false) => oi::max_s16x2(a, b),
                (Oc::Min, true, true) => oi::min_relu_s16x2(a, b),
                (_, true, true) => oi::max_relu_s16x2(a, b),
                _ => return Err(unsupported()),
            })
        }
        Oc::Add if sat => oi::add_sat_s32(cx.a(1)? as i32, cx.a(2)? as i32) as u32 as u64,
        Oc::Sub if sat => oi::sub_sat_s32(cx.a(1)? as i32, cx.a(2)? as i32) as u32 as u64,
        Oc::Min if cx.has(Flag::Relu) => {
            oi::min_relu_s32(cx.a(1)? as i32, cx.a(2)? as i32) as u32 as u64
        }
        Oc::Max if cx.has(Flag::Relu) => {
            oi::max_relu_s32(cx.a(1)? as i32, cx.a(2)? as i32) as u32 as u64
        }
        Oc::Div | Oc::Rem if i.mods.mul_mode == Some(MulMode::Wide) => {
            // ptx-isa-1.1 `div.wide`/`rem.wide`: `a` has twice the width of the type.
            let (a, b) = (cx.a(1)?, cx.a(2)?);
            let rem = i.op == Oc::Rem;
            macro_rules! w {
                ($t:ty) => {{
                    let (a, b) = (f::<<$t as oi::Widen>::Wide>(a), f::<$t>(b));
                    if rem {
                        oi::rem_wide::<$t>(a, b)
                    } else {
                        oi::div_wide::<$t>(a, b)
                    }
                    .to_bits()
                }};
            }
            match ty {
                Type::U16 => w!(u16),
                Type::S16 => w!(i16),
                Type::U32 => w!(u32),
                Type::S32 => w!(i32),
                _ => return Err(unsupported()),
            }
        }
        Oc::Add | Oc::Sub | Oc::Div | Oc::Rem | Oc::Min | Oc::Max => {
            let (a, b) = (cx.a(1)?, cx.a(2)?);
            by_int!(ty, T => {
                let (a, b) = (f::<T>(a), f::<T>(b));
                match i.op {
                    Oc::Add => oi::add(a, b),
                    Oc::Sub => oi::sub(a, b),
                    Oc::Div => oi::div(a, b),
                    Oc::Rem => oi::rem(a, b),
                    Oc::Min => oi::min(a, b),
                    _ => oi::max(a, b),
                }.to_bits()
            }, else return Err(unsupported()))
        }
        Oc::Mul | Oc::Mad => mul_mad(cx, ty)?,
        Oc::Mul24 | Oc::Mad24 => {
            let (a, b) = (cx.a(1)? as u32, cx.a(2)? as u32);
            let c = if i.op == Oc::Mad24 {
                cx.a(3)? as u32
            } else {
                0
            };
            let hi = i.mods.mul_mode == Some(MulMode::Hi);
            let r = match (ty.is_signed(), hi, i.op == Oc::Mad24) {
                (false, false, false) => oi::mul24_lo_u32(a, b),
                (false, true, false) => oi::mul24_hi_u32(a, b),
                (true, false, false) => oi::mul24_lo_s32(a as i32, b as i32) as u32,
                (true, true, false) => oi::mul24_hi_s32(a as i32, b as i32) as u32,
                (false, false, true) => oi::mad24_lo_u32(a, b, c),
                (false, true, true) => oi::mad24_hi_u32(a, b, c),
                (true, false, true) => oi::mad24_lo_s32(a as i32, b as i32, c as i32) as u32,
                (true, true, true) if sat => {
                    oi::mad24_hi_sat_s32(a as i32, b as i32, c as i32) as u32
                }
                (true, true, true) => oi::mad24_hi_s32(a as i32, b as i32, c as i32) as u32,
            };
            u64::from(r)
        }
        Oc::Sad => {
            let (a, b, c) = (cx.a(1)?, cx.a(2)?, cx.a(3)?);
            by_int!(ty, T => oi::sad(f::<T>(a), f::<T>(b), f::<T>(c)).to_bits(),
                else return Err(unsupported()))
        }
        Oc::Abs | Oc::Neg => {
            let a = cx.a(1)?;
            by_int!(ty, T => if i.op == Oc::Abs { oi::abs(f::<T>(a)) } else { oi::neg(f::<T>(a)) }.to_bits(),
                else return Err(unsupported()))
        }
        Oc::Popc | Oc::Clz | Oc::Brev => {
            let a = cx.a(1)?;
            let wide = bits_of(ty) == 64;
            match (i.op, wide) {
                (Oc::Popc, false) => u64::from(oi::popc_b32(a as u32)),
                (Oc::Popc, true) => u64::from(oi::popc_b64(a)),
                (Oc::Clz, false) => u64::from(oi::clz_b32(a as u32)),
                (Oc::Clz, true) => u64::from(oi::clz_b64(a)),
                (_, false) => u64::from(oi::brev_b32(a as u32)),
                (_, true) => oi::brev_b64(a),
            }
        }
        Oc::Bfind => {
            let a = cx.a(1)?;
            let sh = cx.has(Flag::ShiftAmt);
            u64::from(
                by_int!(ty, T => if sh { oi::bfind_shiftamt(f::<T>(a)) } else { oi::bfind(f::<T>(a)) },
                else return Err(unsupported())),
            )
        }
        Oc::Fns => u64::from(oi::fns_b32(
            cx.a(1)? as u32,
            cx.a(2)? as u32,
            cx.a(3)? as u32 as i32,
        )),
        Oc::Bfe => {
            let (a, b, c) = (cx.a(1)?, cx.a(2)? as u32, cx.a(3)? as u32);
            by_int!(ty, T => oi::bfe(f::<T>(a), b, c).to_bits(), else return Err(unsupported()))
        }
        Oc::Bfi => {
            let (a, b, c, d) = (cx.a(1)?, cx.a(2)?, cx.a(3)? as u32, cx.a(4)? as u32);
            by_int!(ty, T => oi::bfi(f::<T>(a), f::<T>(b), c, d).to_bits(), else return Err(unsupported()))
        }
        Oc::Szext => {
            let (a, b) = (cx.a(1)? as u32, cx.a(2)? as u32);
            let m = clamp_mode(i);
            if ty.is_signed() {
                u64::from(oi::szext_s32(a as i32, b, m) as u32)
            } else {
                u64::from(oi::szext_u32(a, b, m))
            }
        }
        Oc::Bmsk => u64::from(oi::bmsk_b32(
            cx.a(1)? as u32,
            cx.a(2)? as u32,
            clamp_mode(i),
        )),
        Oc::Dp4a | Oc::Dp2a => {
            let sign = |t: Option<Type>| {
                if t.is_some_and(|t| t.is_signed()) {
                    oi::Sign::Signed
                } else {
                    oi::Sign::Unsigned
                }
            };
            let (sa, sb) = (sign(i.type_slot(0)), sign(i.type_slot(1)));
            let (a, b, c) = (cx.a(1)? as u32, cx.a(2)? as u32, cx.a(3)? as u32);
            u64::from(if i.op == Oc::Dp4a {
                oi::dp4a(a, b, c, sa, sb)
            } else {
                let mode = if i.mods.mul_mode == Some(MulMode::Hi) {
                    oi::Dp2aMode::Hi
                } else {
                    oi::Dp2aMode::Lo
                };
                oi::dp2a(a, b, c, sa, sb, mode)
            })
        }
        Oc::And | Oc::Or | Oc::Xor if ty == Type::Pred => {
            let (a, b) = (cx.a(1)? & 1, cx.a(2)? & 1);
            match i.op {
                Oc::And => ops::logic::and(a, b),
                Oc::Or => ops::logic::or(a, b),
                _ => ops::logic::xor(a, b),
            }
        }
        Oc::Not if ty == Type::Pred => (cx.a(1)? & 1) ^ 1,
        Oc::And | Oc::Or | Oc::Xor => {
            let (a, b) = (cx.a(1)?, cx.a(2)?);
            match i.op {
                Oc::And => ops::logic::and(a, b),
                Oc::Or => ops::logic::or(a, b),
                _ => ops::logic::xor(a, b),
            }
        }
        Oc::Not => ops::logic::not(cx.a(1)?),
        Oc::Cnot => ops::logic::cnot(cx.a(1)?),
        Oc::Lop3 => u64::from(ops::logic::lop3(
            cx.a(1)? as u32,
            cx.a(2)? as u32,
            cx.a(3)? as u32,
            cx.a(4)? as u8,
        )),
        Oc::Shf => {
            let (a, b, c) = (cx.a(1)? as u32, cx.a(2)? as u32, cx.a(3)? as u32);
            let m = match i.mods.clamp {
                Some(isa::ClampMode::Wrap) => ops::logic::ShfMode::Wrap,
                _ => ops::logic::ShfMode::Clamp,
            };
            u64::from(match i.mods.shf_dir {
                Some(isa::ShfDir::L) => ops::logic::shf_l(a, b, c, m),
                _ => ops::logic::shf_r(a, b, c, m),
            })
        }
        Oc::Shl | Oc::Shr => {
            let (a, b) = (cx.a(1)?, cx.a(2)? as u32);
            use ops::logic as l;
            match (i.op, bits_of(ty), ty.is_signed()) {
                (Oc::Shl, 16, _) => u64::from(l::shl_b16(a as u16, b)),
                (Oc::Shl, 32, _) => u64::from(l::shl_b32(a as u32, b)),
                (Oc::Shl, _, _) => l::shl_b64(a, b),
                (_, 16, false) => u64::from(l::shr_u16(a as u16, b)),
                (_, 32, false) => u64::from(l::shr_u32(a as u32, b)),
                (_, _, false) => l::shr_u64(a, b),
                (_, 16, true) => u64::from(l::shr_s16(a as i16, b) as u16),
                (_, 32, true) => u64::from(l::shr_s32(a as i32, b) as u32),
                (_, _, true) => l::shr_s64(a as i64, b) as u64,
            }
        }
        Oc::Prmt => {
            let mode = prmt_mode(i);
            u64::from(ops::prmt::prmt(
                cx.a(1)? as u32,
                cx.a(2)? as u32,
                cx.a(3)? as u32,
                mode,
            ))
        }
        Oc::Selp => ops::cmp::selp(cx.a(1)?, cx.a(2)?, cx.a(3)? & 1 == 1),
        Oc::Slct => {
            let (a, b) = (cx.a(1)?, cx.a(2)?);
            match i.type_slot(1) {
                Some(Type::F32) => {
                    ops::cmp::slct_f32(a, b, f32::from_bits(cx.a(3)? as u32), cx.has(Flag::Ftz))
                }
                _ => ops::cmp::slct_s32(a, b, cx.a(3)? as u32 as i32),
            }
        }
        Oc::Setp | Oc::Set => return crate::float::compare(cx).map(|_| true),
        Oc::Mov => return mov(cx).map(|_| true),
        _ => return Ok(false),
    };
    cx.put(0, v)?;
    Ok(true)
}

fn clamp_mode(i: &Inst) -> oi::ClampWrap {
    match i.mods.clamp {
        Some(isa::ClampMode::Wrap) => oi::ClampWrap::Wrap,
        _ => oi::ClampWrap::Clamp,
    }
}

fn prmt_mode(i: &Inst) -> ops::prmt::PrmtMode {
    use ops::prmt::PrmtMode as P;
    match i.mods.prmt_mode {
        None => P::Default,
        Some(isa::PrmtMode::F4e) => P::F4e,
        Some(isa::PrmtMode::B4e) => P::B4e,
        Some(isa::PrmtMode::Rc8) => P::Rc8,
        Some(isa::PrmtMode::Ecl) => P::Ecl,
        Some(isa::PrmtMode::Ecr) => P::Ecr,
        Some(isa::PrmtMode::Rc16) => P::Rc16,
    }
}

/// `mul`/`mad` on integers: `.lo`, `.hi`, `.wide`, and `mad.hi.sat.s32`.
fn mul_mad(cx: &mut Cx<'_, '_, '_>, ty: Type) -> Result<u64, Fault> {
    let i = cx.i;
    let (a, b) = (cx.a(1)?, cx.a(2)?);
    let mad = i.op == Oc::Mad;
    let c = if mad { cx.a(3)? } else { 0 };
    let unsupported = || crate::fault::unsupported(i);
    Ok(match i.mods.mul_mode {
        Some(MulMode::Wide) => {
            macro_rules! wide {
                ($t:ty) => {{
                    let (a, b) = (f::<$t>(a), f::<$t>(b));
                    if mad {
                        oi::mad_wide(a, b, f::<<$t as oi::Widen>::Wide>(c)).to_bits()
                    } else {
                        oi::mul_wide(a, b).to_bits()
                    }
                }};
            }
            match ty {
                Type::U16 => wide!(u16),
                Type::S16 => wide!(i16),
                Type::U32 => wide!(u32),
                Type::S32 => wide!(i32),
                _ => return Err(unsupported()),
            }
        }
        Some(MulMode::Hi) if mad && cx.has(Flag::Sat) => {
            oi::mad_hi_sat_s32(a as i32, b as i32, c as i32) as u32 as u64
        }
        mode => {
            let hi = mode == Some(MulMode::Hi);
            by_int!(ty, T => {
                let (a, b, c) = (f::<T>(a), f::<T>(b), f::<T>(c));
                match (hi, mad) {
                    (false, false) => oi::mul_lo(a, b),
                    (true, false) => oi::mul_hi(a, b),
                    (false, true) => oi::mad_lo(a, b, c),
                    (true, true) => oi::mad_hi(a, b, c),
                }.to_bits()
            }, else return Err(unsupported()))
        }
    })
}

/// `add.cc addc sub.cc subc mad.cc madc` (ptx-extended-precision.md): the carry flag is the
/// thread's `CC.CF`.
fn carry(cx: &mut Cx<'_, '_, '_>) -> Result<(), Fault> {
    use ops::carry as c;
    let i = cx.i;
    let ty = i.ty().unwrap_or(Type::U32);
    let cc_out = i.mods.has(Flag::Cc);
    let cf = cx.t.carry;
    let (a, b) = (cx.a(1)?, cx.a(2)?);
    let wide = bits_of(ty) == 64;
    let (d, co) = match (i.op, wide) {
        (Oc::Add, false) => {
            let (d, co) = c::add_cc_u32(a as u32, b as u32);
            (u64::from(d), co)
        }
        (Oc::Add, true) => c::add_cc_u64(a, b),
        (Oc::Addc, false) => {
            let (d, co) = c::addc_u32(a as u32, b as u32, cf);
            (u64::from(d), co)
        }
        (Oc::Addc, true) => c::addc_u64(a, b, cf),
        (Oc::Sub, false) => {
            let (d, co) = c::sub_cc_u32(a as u32, b as u32);
            (u64::from(d), co)
        }
        (Oc::Sub, true) => c::sub_cc_u64(a, b),
        (Oc::Subc, false) => {
            let (d, co) = c::subc_u32(a as u32, b as u32, cf);
            (u64::from(d), co)
        }
        (Oc::Subc, true) => c::subc_u64(a, b, cf),
        (Oc::Mad | Oc::Madc, _) => {
            let cv = cx.a(3)?;
            let hi = i.mods.mul_mode == Some(MulMode::Hi);
            let madc = i.op == Oc::Madc;
            macro_rules! m {
                ($t:ty) => {{
                    let (a, b, cv) = (f::<$t>(a), f::<$t>(b), f::<$t>(cv));
                    let (d, co) = match (madc, hi) {
                        (false, false) => c::mad_lo_cc(a, b, cv),
                        (false, true) => c::mad_hi_cc(a, b, cv),
                        (true, false) => c::madc_lo(a, b, cv, cf),
                        (true, true) => c::madc_hi(a, b, cv, cf),
                    };
                    (d.to_bits(), co)
                }};
            }
            match ty {
                Type::U32 => m!(u32),
                Type::S32 => m!(i32),
                Type::U64 => m!(u64),
                Type::S64 => m!(i64),
                _ => return Err(crate::fault::unsupported(i)),
            }
        }
        _ => return Err(crate::fault::unsupported(i)),
    };
    cx.put(0, d)?;
    if cc_out {
        cx.t.carry = co;
    }
    Ok(())
}

/// `mov`: registers, immediates, special registers, addresses, and the packing forms
/// (`mov.b32 d, {a, b}` and `mov.b64 {lo, hi}, a`).
fn mov(cx: &mut Cx<'_, '_, '_>) -> Result<(), Fault> {
    let i = cx.i;
    let ty = i.ty().unwrap_or(Type::B32);
    let total = bits_of(ty);
    match (cx.op(0).clone(), cx.op(1).clone()) {
        (Operand::Vector(ds), src) if i.mods.vec.is_none() => {
            // Unpack: element k gets bits k*w.. of the source.
            let a = cx.t.src(cx.env, &src, ty)?;
            let w = total / ds.len().max(1) as u32;
            let ety = Type::bits_of_size(w).unwrap_or(Type::B32);
            for (k, d) in ds.iter().enumerate() {
                let v = (u128::from(a) >> (w * k as u32)) as u64;
                cx.t.dst(cx.env, d, ety, v)?;
            }
            Ok(())
        }
        (d, Operand::Vector(ss)) if i.mods.vec.is_none() => {
            let w = total / ss.len().max(1) as u32;
            let ety = Type::bits_of_size(w).unwrap_or(Type::B32);
            let mut v: u128 = 0;
            for (k, s) in ss.iter().enumerate() {
                v |= u128::from(cx.t.src(cx.env, s, ety)?) << (w * k as u32);
            }
            cx.t.dst(cx.env, &d, ty, v as u64)
        }
        (Operand::Vector(ds), Operand::Vector(ss)) => {
            // Whole-vector move: element by element (sources read before any write).
            let vals: Vec<u64> = ss
                .iter()
                .map(|s| cx.t.src(cx.env, s, ty))
                .collect::<Result<_, _>>()?;
            for (d, v) in ds.iter().zip(vals) {
                cx.t.dst(cx.env, d, ty, v)?;
            }
            Ok(())
        }
        (d, s) => {
            let v = cx.t.src(cx.env, &s, ty)?;
            let v = extend(v, total, false);
            cx.t.dst(cx.env, &d, ty, v)
        }
    }
}
