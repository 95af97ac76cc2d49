//! `cvt`: every scalar pair through `ops::cvt::cvt`, with the modifiers as spelled.

use crate::alu::Cx;
use crate::Fault;
use ir::{Flag, Type};
use ops::cvt::{CvtMode, CvtRounding, CvtType, F16Rules, IntRounding};

fn cvt_type(t: Type) -> Option<CvtType> {
    Some(match t {
        Type::U8 | Type::B8 => CvtType::U8,
        Type::U16 | Type::B16 => CvtType::U16,
        Type::U32 | Type::B32 => CvtType::U32,
        Type::U64 | Type::B64 => CvtType::U64,
        Type::S8 => CvtType::S8,
        Type::S16 => CvtType::S16,
        Type::S32 => CvtType::S32,
        Type::S64 => CvtType::S64,
        Type::F16 => CvtType::F16,
        Type::Bf16 => CvtType::Bf16,
        Type::F32 => CvtType::F32,
        Type::F64 => CvtType::F64,
        _ => return None,
    })
}

/// The narrow-pair form of a `cvt` (`ops::mx`), decoded from its types and modifiers.
fn mx_cvt(i: &ir::Inst, dty: Type, aty: Type) -> Option<ops::mx::MxCvt> {
    use ops::mx::{MxCvt, Narrow};
    let narrow = |t: Type| match t {
        Type::E2m1x2 => Some(Narrow::E2m1),
        Type::E2m3x2 => Some(Narrow::E2m3),
        Type::E3m2x2 => Some(Narrow::E3m2),
        _ => None,
    };
    let relu = i.mods.has(Flag::Relu);
    let up = i.mods.rounding == Some(isa::Rounding::Rp);
    let satfinite = i.mods.has(Flag::Satfinite);
    Some(match (dty, aty) {
        (d, Type::F32) if narrow(d).is_some() => MxCvt::PairFromF32 {
            f: narrow(d)?,
            relu,
        },
        (Type::F16x2, a) if narrow(a).is_some() => MxCvt::F16x2FromPair {
            f: narrow(a)?,
            relu,
        },
        (Type::Ue8m0x2, Type::F32) => MxCvt::Ue8m0x2FromF32 { up, satfinite },
        (Type::Ue8m0x2, Type::Bf16x2) => MxCvt::Ue8m0x2FromBf16x2 { up, satfinite },
        (Type::Bf16x2, Type::Ue8m0x2) => MxCvt::Bf16x2FromUe8m0x2,
        _ => return None,
    })
}

pub(crate) fn exec(cx: &mut Cx<'_, '_, '_>) -> Result<(), Fault> {
    let i = cx.i;
    let unsupported = || crate::fault::unsupported(i);
    let dty = i.type_slot(0).ok_or_else(unsupported)?;
    let aty = i.type_slot(1).ok_or_else(unsupported)?;
    if dty == Type::Tf32 && aty == Type::F32 && i.mods.rounding == Some(isa::Rounding::Rna) {
        let v = ops::cvt::cvt_rna_tf32_f32(cx.a(1)? as u32);
        return cx.put(0, u64::from(v));
    }
    if cx.has(Flag::Pack) {
        let (a, b) = (cx.a_as(1, Type::S32)?, cx.a_as(2, Type::S32)?);
        let c = match cx.op(3) {
            ir::Operand::Omitted => 0,
            _ => cx.a_as(3, Type::B32)?,
        };
        let v = ops::cvt::cvt_pack_sat(
            a as u32 as i32,
            b as u32 as i32,
            c as u32,
            dty.size_bits(),
            dty.is_signed(),
        );
        return cx.put_as(0, Type::B32, u64::from(v));
    }
    if let Some(k) = mx_cvt(i, dty, aty) {
        let a_holder = match aty {
            Type::E2m1x2 => Type::B8,
            Type::E2m3x2 | Type::E3m2x2 | Type::Ue8m0x2 => Type::B16,
            _ => Type::B32,
        };
        let a = cx.a_as(1, a_holder)? as u32;
        let b = match cx.op(2) {
            ir::Operand::Omitted => 0,
            _ => cx.a_as(2, Type::B32)? as u32,
        };
        let holder = match k.result_bits() {
            8 => Type::B8,
            16 => Type::B16,
            _ => Type::B32,
        };
        return cx.put_as(0, holder, u64::from(ops::mx::cvt(k, a, b)));
    }
    let fp8 = |t: Type| match t {
        Type::E4m3x2 => Some(ops::fp8::Fp8::E4m3),
        Type::E5m2x2 => Some(ops::fp8::Fp8::E5m2),
        _ => None,
    };
    let relu = cx.has(Flag::Relu);
    if let Some(f) = fp8(aty) {
        let v = ops::fp8::cvt_f16x2_x2(cx.a_as(1, Type::B16)? as u16, f, relu);
        return cx.put_as(0, Type::B32, u64::from(v));
    }
    if let Some(f) = fp8(dty) {
        let v = if aty == Type::F16x2 {
            ops::fp8::cvt_x2_f16x2(cx.a_as(1, Type::B32)? as u32, f, relu)
        } else {
            let (a, b) = (cx.a_as(1, Type::B32)? as u32, cx.a_as(2, Type::B32)? as u32);
            ops::fp8::cvt_x2_f32(f32::from_bits(a), f32::from_bits(b), f, relu)
        };
        return cx.put_as(0, Type::B16, u64::from(v));
    }
    if matches!(dty, Type::F16x2 | Type::Bf16x2) && aty == Type::F32 {
        let f = if dty == Type::F16x2 {
            ops::half::HalfFormat::F16
        } else {
            ops::half::HalfFormat::Bf16
        };
        let (a, b) = (cx.a(1)? as u32, cx.a(2)? as u32);
        let v =
            ops::half::cvt_rn_x2_f32(f32::from_bits(a), f32::from_bits(b), f, cx.has(Flag::Relu));
        return cx.put_as(0, Type::B32, u64::from(v));
    }
    let (Some(to), Some(from)) = (cvt_type(dty), cvt_type(aty)) else {
        return Err(unsupported());
    };
    use isa::Rounding as R;
    let rnd = match i.mods.rounding {
        None => None,
        Some(r) => Some(match r {
            R::Rni => CvtRounding::Int(IntRounding::Rni),
            R::Rzi => CvtRounding::Int(IntRounding::Rzi),
            R::Rmi => CvtRounding::Int(IntRounding::Rmi),
            R::Rpi => CvtRounding::Int(IntRounding::Rpi),
            R::Rz => CvtRounding::Float(ops::float::Rounding::Rz),
            R::Rm => CvtRounding::Float(ops::float::Rounding::Rm),
            R::Rp => CvtRounding::Float(ops::float::Rounding::Rp),
            R::Rn => CvtRounding::Float(ops::float::Rounding::Rn),
            R::Rna | R::Rs => return Err(unsupported()),
        }),
    };
    // ptx-isa-1.1 §6.5.1: a PTX 1.x `.f16` has no infinities or NaNs.
    let f16 = if cx.env.layout.module.version.major < 2 {
        F16Rules::Ptx11
    } else {
        F16Rules::Ieee
    };
    let mode = CvtMode {
        rnd,
        sat: cx.has(Flag::Sat),
        ftz: cx.has(Flag::Ftz),
        f16,
    };
    let a = cx.t.src(cx.env, cx.op(1), aty)?;
    let v = ops::cvt::cvt(a, from, to, mode);
    cx.put_as(0, dty, v)
}
