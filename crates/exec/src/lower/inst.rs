//! Instruction selection: one checked IR instruction → one or more decoded instructions.

use super::operand::{Emit, LResult};
use super::{scalar_of, Lowerer};
use crate::error::LoadError;
use crate::program::*;
use ir::{Flag, Opcode as Oc, Operand as O, Type as T};
use isa::{MulMode, Rounding as IR};

pub(crate) fn width_of(t: T) -> Width {
    match t.size_bits() {
        8 => Width::W8,
        16 => Width::W16,
        _ => Width::W32,
    }
}

fn rnd_of(r: Option<IR>) -> Rounding {
    match r {
        Some(IR::Rz | IR::Rzi) => Rounding::Rz,
        Some(IR::Rm | IR::Rmi) => Rounding::Rm,
        Some(IR::Rp | IR::Rpi) => Rounding::Rp,
        _ => Rounding::Rn,
    }
}

fn fmode(i: &ir::Inst) -> FMode {
    FMode {
        rnd: rnd_of(i.mods.rounding),
        ftz: i.mods.has(Flag::Ftz),
        sat: i.mods.has(Flag::Sat),
        approx: if i.mods.has(Flag::Approx) {
            Approx::Approx
        } else if i.mods.has(Flag::Full) {
            Approx::Full
        } else {
            Approx::Ieee
        },
    }
}

fn cmp_of(c: isa::CmpOp) -> (CmpOp, Option<CmpTy>) {
    use isa::CmpOp as C;
    match c {
        C::Eq => (CmpOp::Eq, None),
        C::Ne => (CmpOp::Ne, None),
        C::Lt => (CmpOp::Lt, None),
        C::Le => (CmpOp::Le, None),
        C::Gt => (CmpOp::Gt, None),
        C::Ge => (CmpOp::Ge, None),
        C::Lo => (CmpOp::Lt, Some(CmpTy::U)),
        C::Ls => (CmpOp::Le, Some(CmpTy::U)),
        C::Hi => (CmpOp::Gt, Some(CmpTy::U)),
        C::Hs => (CmpOp::Ge, Some(CmpTy::U)),
        C::Equ => (CmpOp::Equ, None),
        C::Neu => (CmpOp::Neu, None),
        C::Ltu => (CmpOp::Ltu, None),
        C::Leu => (CmpOp::Leu, None),
        C::Gtu => (CmpOp::Gtu, None),
        C::Geu => (CmpOp::Geu, None),
        C::Num => (CmpOp::Num, None),
        C::Nan => (CmpOp::Nan, None),
    }
}

fn cmp_ty(t: T) -> CmpTy {
    if t.is_float() {
        CmpTy::F
    } else if t.is_signed() {
        CmpTy::S
    } else {
        CmpTy::U
    }
}

/// The float comparison kinds: `.ftz`, and the half-precision formats (packed or not).
fn float_cmp_ty(cty: CmpTy, t: T, i: &ir::Inst) -> CmpTy {
    use ops::half::HalfFormat as H;
    let ftz = i.mods.has(Flag::Ftz);
    match (cty, t) {
        (CmpTy::F, T::F16) => CmpTy::Half(H::F16, ftz),
        (CmpTy::F, T::Bf16) => CmpTy::Half(H::Bf16, ftz),
        (CmpTy::F, T::F16x2) => CmpTy::Half2(H::F16, ftz),
        (CmpTy::F, T::Bf16x2) => CmpTy::Half2(H::Bf16, ftz),
        (CmpTy::F, _) if ftz => CmpTy::Fftz,
        (c, _) => c,
    }
}

/// The modifiers of a `cvt` as `ops::cvt` takes them: the rounding as spelled (absent when
/// absent: `ops` applies the defaults), and PTX 1.x's `.f16` format (ptx-isa-1.1 §6.5.1).
fn cvt_mode(i: &ir::Inst, version: ir::PtxVersion) -> ops::cvt::CvtMode {
    use ops::cvt::{CvtRounding as C, IntRounding as I};
    use ops::float::Rounding as F;
    ops::cvt::CvtMode {
        rnd: i.mods.rounding.and_then(|r| {
            Some(match r {
                IR::Rni => C::Int(I::Rni),
                IR::Rzi => C::Int(I::Rzi),
                IR::Rmi => C::Int(I::Rmi),
                IR::Rpi => C::Int(I::Rpi),
                IR::Rn => C::Float(F::Rn),
                IR::Rz => C::Float(F::Rz),
                IR::Rm => C::Float(F::Rm),
                IR::Rp => C::Float(F::Rp),
                // `.rna` (tf32) and `.rs` take other paths.
                IR::Rna | IR::Rs => return None,
            })
        }),
        sat: i.mods.has(Flag::Sat),
        ftz: i.mods.has(Flag::Ftz),
        f16: if version < ir::PtxVersion::new(2, 0) {
            ops::cvt::F16Rules::Ptx11
        } else {
            ops::cvt::F16Rules::Ieee
        },
    }
}

fn int_bin(op: Oc, t: T, mods: &ir::Mods) -> Option<IntOp> {
    let s = t.is_signed();
    Some(match op {
        Oc::Add if mods.has(Flag::Sat) => IntOp::AddSatS,
        Oc::Sub if mods.has(Flag::Sat) => IntOp::SubSatS,
        Oc::Add => IntOp::Add,
        Oc::Sub => IntOp::Sub,
        Oc::Mul => match mods.mul_mode {
            Some(MulMode::Hi) if s => IntOp::MulHiS,
            Some(MulMode::Hi) => IntOp::MulHiU,
            _ => IntOp::MulLo,
        },
        Oc::Mul24 => match (mods.mul_mode, s) {
            (Some(MulMode::Hi), true) => IntOp::Mul24HiS,
            (Some(MulMode::Hi), false) => IntOp::Mul24HiU,
            (_, true) => IntOp::Mul24LoS,
            (_, false) => IntOp::Mul24LoU,
        },
        Oc::Div if s => IntOp::DivS,
        Oc::Div => IntOp::DivU,
        Oc::Rem if s => IntOp::RemS,
        Oc::Rem => IntOp::RemU,
        Oc::Min if s => IntOp::MinS,
        Oc::Min => IntOp::MinU,
        Oc::Max if s => IntOp::MaxS,
        Oc::Max => IntOp::MaxU,
        Oc::And => IntOp::And,
        Oc::Or => IntOp::Or,
        Oc::Xor => IntOp::Xor,
        Oc::Shl => IntOp::Shl,
        Oc::Shr if s => IntOp::ShrS,
        Oc::Shr => IntOp::ShrU,
        _ => return None,
    })
}

/// Why an instruction the checker accepts is not run, for the forms listed in the README's
/// known limits as checked but not executed.
fn not_executed(i: &ir::Inst) -> Option<&'static str> {
    let m = &i.mods;
    Some(match i.op {
        Oc::Wgmma => "ptxvm does not model the Hopper warpgroup (sm_90a) tensor cores",
        Oc::Tcgen05 => "ptxvm does not model the Blackwell tcgen05 (sm_100a) tensor cores",
        Oc::Cp if m.has(ir::Flag::Tensor) => {
            "ptxvm does not model tensor maps (bulk tensor copies and prefetches)"
        }
        Oc::Cp if m.has(ir::Flag::Reduce) => "bulk reductions are not run",
        Oc::Cp if m.has(ir::Flag::Prefetch) => "bulk prefetches are not run",
        Oc::Cp if m.multicast.is_some() => {
            "ptxvm runs one-CTA clusters and does not model multicast copies"
        }
        Oc::Cp if m.has(ir::Flag::L2CacheHint) => "cache-policy operands are not run",
        Oc::Cp if m.has(ir::Flag::CpMask) => "masked bulk copies are not run",
        Oc::Cp
            if m.has(ir::Flag::Bulk)
                && m.src_space == Some(isa::SrcSpace::SharedCta)
                && m.space == Some(ir::Space::SharedCluster) =>
        {
            "copies between the shared memories of a cluster's CTAs are not run"
        }
        Oc::Mbarrier if m.space == Some(ir::Space::SharedCluster) => {
            "mbarrier objects in `.shared::cluster` are not run"
        }
        _ => return None,
    })
}

impl Lowerer<'_> {
    pub(crate) fn lower_inst(
        &mut self,
        fi: usize,
        i: &ir::Inst,
        out: &mut Vec<Inst>,
    ) -> Result<(), LoadError> {
        let line = self.src.line_col(i.span.start).0 as u32;
        let guard = match i.guard {
            Some(g) => match self.slot(fi, g.reg).map(|s| s.reg) {
                Ok(Reg::Pred(p)) => Some((p, g.negated)),
                _ => return Err(self.err(i.span, "guard is not a predicate register")),
            },
            None => None,
        };
        let mut e = Emit {
            out,
            line,
            guard,
            fi,
            next32: 0,
            next64: 0,
        };
        if let Some(why) = not_executed(i) {
            // The checker accepts these as ptxas does; nothing runs them (README, Known limits).
            let written = self.src.text.get(i.span.range()).unwrap_or("");
            let head = written.split_whitespace().next().unwrap_or(i.op.name());
            let head = head.trim_end_matches(';');
            return Err(self.err(
                i.span,
                format!("`{head}` is checked but not executed: {why}"),
            ));
        }
        self.select(&mut e, i).map_err(|m| {
            self.err(
                i.span,
                format!(
                    "cannot execute `{}`: {m}",
                    i.form.syntax.trim_end_matches(';')
                ),
            )
        })
    }

    /// The membermask operand at `k` of a `.sync` warp instruction (`None` for the forms
    /// without `.sync`, which have no operand there).
    fn membermask(&mut self, e: &mut Emit<'_>, i: &ir::Inst, k: usize) -> LResult<Option<S32>> {
        match i.operands.get(k) {
            Some(O::Omitted) | None => Ok(None),
            Some(m) => Ok(Some(self.s32(e, m)?)),
        }
    }

    fn select(&mut self, e: &mut Emit<'_>, i: &ir::Inst) -> LResult<()> {
        let ops = &i.operands;
        let o = |k: usize| ops.get(k).unwrap_or(&O::Omitted);
        let ty = i.ty().unwrap_or(T::B32);
        match i.op {
            Oc::Mov if i.mods.vec.is_some() => self.mov_whole_vector(e, i)?,
            Oc::Add | Oc::Sub | Oc::Mul | Oc::Fma if ty == T::F32x2 => self.lane_op(e, i)?,
            Oc::Add
            | Oc::Sub
            | Oc::Mul
            | Oc::Fma
            | Oc::Neg
            | Oc::Abs
            | Oc::Min
            | Oc::Max
            | Oc::Ex2
                if super::control::half_format(ty).is_some() =>
            {
                self.lane_op(e, i)?
            }
            Oc::Tanh => self.lane_op(e, i)?,
            // Packed half-word integers and `.relu`: lane by lane through `ops`.
            Oc::Add | Oc::Min | Oc::Max
                if matches!(ty, T::U16x2 | T::S16x2)
                    || i.mods.has(Flag::Relu) && !ty.is_float() =>
            {
                self.lane_op(e, i)?
            }
            Oc::Mov if ty.size_bits() == 128 => self.mov128(e, i)?,
            Oc::Mad24 if i.mods.has(Flag::Sat) => self.lane_op(e, i)?,
            Oc::Min | Oc::Max
                if ty == T::F32 && (i.mods.has(Flag::NaN) || i.mods.has(Flag::Xorsign)) =>
            {
                self.lane_op(e, i)?
            }
            Oc::Add | Oc::Sub | Oc::Mul | Oc::Div | Oc::Min | Oc::Max if ty.is_float() => {
                let fop = match i.op {
                    Oc::Add => FOp::Add,
                    Oc::Sub => FOp::Sub,
                    Oc::Mul => FOp::Mul,
                    Oc::Div => FOp::Div,
                    Oc::Min => FOp::Min,
                    _ => FOp::Max,
                };
                let mode = fmode(i);
                match ty {
                    T::F32 => {
                        let (a, b) = (self.s32(e, o(1))?, self.s32(e, o(2))?);
                        let d = self.dst32(e, o(0))?;
                        e.push(Op::F32 {
                            op: fop,
                            mode,
                            d,
                            a,
                            b,
                        });
                    }
                    T::F64 => {
                        let (a, b) = (self.s64(e, o(1))?, self.s64(e, o(2))?);
                        let d = self.dst64(e, o(0))?;
                        e.push(Op::F64 {
                            op: fop,
                            mode,
                            d,
                            a,
                            b,
                        });
                    }
                    _ => return Err(format!("type {} is not supported", ty.suffix())),
                }
            }
            Oc::Add | Oc::Sub if i.mods.has(Flag::Cc) => {
                let op = if i.op == Oc::Add {
                    CarryOp::Add
                } else {
                    CarryOp::Sub
                };
                self.carry(e, i, op, false, true)?;
            }
            Oc::Addc | Oc::Subc => {
                let op = if i.op == Oc::Addc {
                    CarryOp::Add
                } else {
                    CarryOp::Sub
                };
                self.carry(e, i, op, true, i.mods.has(Flag::Cc))?;
            }
            Oc::Mad | Oc::Madc if i.mods.has(Flag::Cc) || i.op == Oc::Madc => {
                let op = match i.mods.mul_mode {
                    Some(MulMode::Hi) if ty.is_signed() => CarryOp::MadHiS,
                    Some(MulMode::Hi) => CarryOp::MadHiU,
                    _ => CarryOp::MadLo,
                };
                self.carry(e, i, op, i.op == Oc::Madc, i.mods.has(Flag::Cc))?;
            }
            Oc::Mul | Oc::Mad if i.mods.mul_mode == Some(MulMode::Wide) => {
                let signed = ty.is_signed();
                let (a, b) = (self.s32(e, o(1))?, self.s32(e, o(2))?);
                if ty.size_bits() == 16 {
                    let c = if i.op == Oc::Mad {
                        Some(self.s32(e, o(3))?)
                    } else {
                        None
                    };
                    let d = self.dst32(e, o(0))?;
                    e.push(Op::MulWide16 { signed, d, a, b, c });
                } else {
                    let c = if i.op == Oc::Mad {
                        Some(self.s64(e, o(3))?)
                    } else {
                        None
                    };
                    let d = self.dst64(e, o(0))?;
                    e.push(Op::MulWide32 { signed, d, a, b, c });
                }
            }
            Oc::Mad if i.mods.has(Flag::Sat) && !ty.is_float() => self.lane_op(e, i)?,
            Oc::Mad | Oc::Mad24 if (ty.is_integer() || ty.is_bits()) && !i.mods.has(Flag::Sat) => {
                let mul = match (i.op, i.mods.mul_mode, ty.is_signed()) {
                    (Oc::Mad24, Some(MulMode::Hi), true) => IntOp::Mul24HiS,
                    (Oc::Mad24, Some(MulMode::Hi), false) => IntOp::Mul24HiU,
                    (Oc::Mad24, _, true) => IntOp::Mul24LoS,
                    (Oc::Mad24, _, false) => IntOp::Mul24LoU,
                    (_, Some(MulMode::Hi), true) => IntOp::MulHiS,
                    (_, Some(MulMode::Hi), false) => IntOp::MulHiU,
                    _ => IntOp::MulLo,
                };
                if ty.size_bits() == 64 {
                    let (a, b, c) = (self.s64(e, o(1))?, self.s64(e, o(2))?, self.s64(e, o(3))?);
                    let d = self.dst64(e, o(0))?;
                    e.push(Op::Mad64 { mul, d, a, b, c });
                } else {
                    let (a, b, c) = (self.s32(e, o(1))?, self.s32(e, o(2))?, self.s32(e, o(3))?);
                    let d = self.dst32(e, o(0))?;
                    e.push(Op::Mad32 {
                        mul,
                        w: width_of(ty),
                        d,
                        a,
                        b,
                        c,
                    });
                }
            }
            // ptx-isa-1.1 `mad.f32`/`mad.f64` without a rounding modifier: the product is
            // rounded, then the sum (ops::float::mad_f32), unlike the fused `mad.rnd`/`fma`.
            Oc::Mad if i.mods.rounding.is_none() && matches!(ty, T::F32 | T::F64) => {
                self.lane_op(e, i)?
            }
            Oc::Mad | Oc::Fma => {
                let mode = fmode(i);
                match ty {
                    T::F32 => {
                        let (a, b, c) =
                            (self.s32(e, o(1))?, self.s32(e, o(2))?, self.s32(e, o(3))?);
                        let d = self.dst32(e, o(0))?;
                        e.push(Op::Fma32 { mode, d, a, b, c });
                    }
                    T::F64 => {
                        let (a, b, c) =
                            (self.s64(e, o(1))?, self.s64(e, o(2))?, self.s64(e, o(3))?);
                        let d = self.dst64(e, o(0))?;
                        e.push(Op::Fma64 { mode, d, a, b, c });
                    }
                    _ => return Err(format!("type {} is not supported", ty.suffix())),
                }
            }
            Oc::And | Oc::Or | Oc::Xor if ty == T::Pred => {
                let (a, b) = (self.psrc(e, o(1))?, self.psrc(e, o(2))?);
                let Some(Reg::Pred(d)) = self.dst(e, o(0))? else {
                    return Err("expected a predicate destination".into());
                };
                let op = match i.op {
                    Oc::And => PredLogic::And,
                    Oc::Or => PredLogic::Or,
                    _ => PredLogic::Xor,
                };
                e.push(Op::PredOp { op, d, a, b });
            }
            Oc::Not | Oc::Mov if ty == T::Pred => {
                let a = self.psrc(e, o(1))?;
                let Some(Reg::Pred(d)) = self.dst(e, o(0))? else {
                    return Err("expected a predicate destination".into());
                };
                let op = if i.op == Oc::Not {
                    PredLogic::Not
                } else {
                    PredLogic::Mov
                };
                e.push(Op::PredOp {
                    op,
                    d,
                    a,
                    b: PredSrc::Imm(false),
                });
            }
            // PTX 1.1 `div.wide`/`rem.wide`: `a` is twice as wide as `b` and `d`.
            Oc::Div | Oc::Rem if i.mods.mul_mode == Some(isa::MulMode::Wide) => {
                self.lane_op(e, i)?
            }
            Oc::Add
            | Oc::Sub
            | Oc::Mul
            | Oc::Mul24
            | Oc::Div
            | Oc::Rem
            | Oc::Min
            | Oc::Max
            | Oc::And
            | Oc::Or
            | Oc::Xor
            | Oc::Shl
            | Oc::Shr => {
                let op = int_bin(i.op, ty, &i.mods).ok_or("unsupported integer operation")?;
                if ty.size_bits() == 64 {
                    let a = self.s64(e, o(1))?;
                    let b = self.s64(e, o(2))?;
                    let d = self.dst64(e, o(0))?;
                    e.push(Op::Int64 { op, d, a, b });
                } else {
                    let w = width_of(ty);
                    let (a, b) = (self.s32(e, o(1))?, self.s32(e, o(2))?);
                    let d = self.dst32(e, o(0))?;
                    match (a, b) {
                        (S32::Reg(a), S32::Reg(b)) => e.push(Op::IntRR { op, w, d, a, b }),
                        (S32::Reg(a), S32::Imm(b)) => e.push(Op::IntRI { op, w, d, a, b }),
                        (S32::Imm(a), S32::Reg(b)) => e.push(Op::IntIR { op, w, d, a, b }),
                        (S32::Imm(a), S32::Imm(b)) => {
                            let a = self.mov_to_scratch32(e, S32::Imm(a));
                            e.push(Op::IntRI { op, w, d, a, b });
                        }
                    }
                }
            }
            Oc::Abs | Oc::Neg if ty.is_float() => {
                let op = if i.op == Oc::Abs {
                    FUnOp::Abs
                } else {
                    FUnOp::Neg
                };
                self.float_un(e, i, op)?;
            }
            Oc::Rcp | Oc::Sqrt | Oc::Rsqrt | Oc::Sin | Oc::Cos | Oc::Lg2 | Oc::Ex2 => {
                let op = match i.op {
                    Oc::Rcp => FUnOp::Rcp,
                    Oc::Sqrt => FUnOp::Sqrt,
                    Oc::Rsqrt => FUnOp::Rsqrt,
                    Oc::Sin => FUnOp::Sin,
                    Oc::Cos => FUnOp::Cos,
                    Oc::Lg2 => FUnOp::Lg2,
                    _ => FUnOp::Ex2,
                };
                self.float_un(e, i, op)?;
            }
            Oc::Abs | Oc::Neg | Oc::Not | Oc::Cnot | Oc::Popc | Oc::Clz | Oc::Brev | Oc::Mov
                if matches!(
                    o(1),
                    O::Reg(_) | O::Imm(_) | O::Special { .. } | O::VarAddr { .. } | O::Func(_)
                ) && matches!(o(0), O::Reg(_)) =>
            {
                let op = match i.op {
                    Oc::Abs => UnOp::AbsS,
                    Oc::Neg => UnOp::Neg,
                    Oc::Not => UnOp::Not,
                    Oc::Cnot => UnOp::Cnot,
                    Oc::Popc => UnOp::Popc,
                    Oc::Clz => UnOp::Clz,
                    Oc::Brev => UnOp::Brev,
                    _ => UnOp::Mov,
                };
                let d = self.dst(e, o(0))?.ok_or("missing destination")?;
                let counts = matches!(op, UnOp::Popc | UnOp::Clz);
                if ty.size_bits() == 64 {
                    let a = self.s64(e, o(1))?;
                    match d {
                        Reg::R64(d) => e.push(Op::Un64 { op, d, a }),
                        Reg::R32(d) if counts => {
                            let s = self.scratch64(e);
                            e.push(Op::Un64 { op, d: s, a });
                            e.push(Op::Unpack64 {
                                lo: Some(d),
                                hi: None,
                                a: s,
                            });
                        }
                        _ => return Err("destination register has the wrong size".into()),
                    }
                } else {
                    let w = width_of(ty);
                    match d {
                        Reg::R32(d) => {
                            let a = self.s32(e, o(1))?;
                            e.push(Op::Un32 { op, w, d, a });
                        }
                        Reg::R64(d) => {
                            // mov.u32 into a 64-bit register (bit-size compatible moves).
                            let a = self.s64(e, o(1))?;
                            e.push(Op::Un64 { op, d, a });
                        }
                        Reg::Pred(_) => return Err("unexpected predicate".into()),
                    }
                }
            }
            Oc::Mov => self.mov_vector(e, i)?,
            Oc::Setp => {
                let (cmp, forced) = cmp_of(i.mods.cmp.ok_or("missing comparison")?);
                let cty = float_cmp_ty(forced.unwrap_or_else(|| cmp_ty(ty)), ty, i);
                let O::PredPair(pr, q) = o(0) else {
                    return Err("setp needs a predicate destination".into());
                };
                let Reg::Pred(p) = self.reg(e, *pr)? else {
                    return Err("setp destination is not a predicate".into());
                };
                let q = match q {
                    Some(q) => match self.reg(e, *q)? {
                        Reg::Pred(q) => Some(q),
                        _ => return Err("setp destination is not a predicate".into()),
                    },
                    None => None,
                };
                let comb = match i.mods.bool_op {
                    Some(b) => {
                        let (c, neg) = self.pred(e, o(3))?;
                        let op = match b {
                            isa::BoolOp::And => BoolOp::And,
                            isa::BoolOp::Or => BoolOp::Or,
                            isa::BoolOp::Xor => BoolOp::Xor,
                        };
                        Some((op, c, neg))
                    }
                    None => None,
                };
                if ty.size_bits() == 64 {
                    let (a, b) = (self.s64(e, o(1))?, self.s64(e, o(2))?);
                    e.push(Op::Setp64 {
                        cmp,
                        ty: cty,
                        p,
                        q,
                        a,
                        b,
                        comb,
                    });
                } else {
                    let (a, b) = (self.s32(e, o(1))?, self.s32(e, o(2))?);
                    e.push(Op::Setp32 {
                        cmp,
                        ty: cty,
                        w: width_of(ty),
                        p,
                        q,
                        a,
                        b,
                        comb,
                    });
                }
            }
            Oc::Set => {
                // set = setp into a scratch predicate, then select 1.0f/0xffffffff or 0.
                let sty = i.type_slot(1).ok_or("missing source type")?;
                let (cmp, forced) = cmp_of(i.mods.cmp.ok_or("missing comparison")?);
                let cty = float_cmp_ty(forced.unwrap_or_else(|| cmp_ty(sty)), sty, i);
                let comb = match i.mods.bool_op {
                    Some(b) => {
                        let (c, neg) = self.pred(e, o(3))?;
                        let op = match b {
                            isa::BoolOp::And => BoolOp::And,
                            isa::BoolOp::Or => BoolOp::Or,
                            isa::BoolOp::Xor => BoolOp::Xor,
                        };
                        Some((op, c, neg))
                    }
                    None => None,
                };
                let p = self.scratch_pred(0);
                if let CmpTy::Half2(..) = cty {
                    // Packed halves: p from the low halves, q from the high halves, then
                    // d = (p ? low mask : 0) | (q ? high mask : 0).
                    let q = self.scratch_pred(1);
                    let (a, b) = (self.s32(e, o(1))?, self.s32(e, o(2))?);
                    e.setup(Op::Setp32 {
                        cmp,
                        ty: cty,
                        w: width_of(sty),
                        p,
                        q: Some(q),
                        a,
                        b,
                        comb,
                    });
                    let one = match ty {
                        T::F16x2 => ops::cmp::SET_HALF_TRUE_F16,
                        T::Bf16x2 => ops::cmp::SET_HALF_TRUE_BF16,
                        _ => ops::cmp::SET_HALF_TRUE_INT,
                    };
                    let t = self.scratch32(e);
                    e.push(Op::Selp32 {
                        d: t,
                        a: S32::Imm(ops::cmp::set_bits_half2(false, true, one)),
                        b: S32::Imm(0),
                        p: q,
                    });
                    let d = self.dst32(e, o(0))?;
                    e.push(Op::Selp32 {
                        d,
                        a: S32::Imm(ops::cmp::set_bits_half2(true, false, one)),
                        b: S32::Imm(0),
                        p,
                    });
                    e.push(Op::IntRR {
                        op: IntOp::Or,
                        w: Width::W32,
                        d,
                        a: d,
                        b: t,
                    });
                    return Ok(());
                }
                if sty.size_bits() == 64 {
                    let (a, b) = (self.s64(e, o(1))?, self.s64(e, o(2))?);
                    e.setup(Op::Setp64 {
                        cmp,
                        ty: cty,
                        p,
                        q: None,
                        a,
                        b,
                        comb,
                    });
                } else {
                    let (a, b) = (self.s32(e, o(1))?, self.s32(e, o(2))?);
                    e.setup(Op::Setp32 {
                        cmp,
                        ty: cty,
                        w: width_of(sty),
                        p,
                        q: None,
                        a,
                        b,
                        comb,
                    });
                }
                let one = if ty == T::F32 {
                    1.0f32.to_bits()
                } else {
                    u32::MAX
                };
                let d = self.dst32(e, o(0))?;
                e.push(Op::Selp32 {
                    d,
                    a: S32::Imm(one),
                    b: S32::Imm(0),
                    p,
                });
            }
            Oc::Selp => {
                let (p, neg) = self.pred(e, o(3))?;
                let p = if neg {
                    let s = self.scratch_pred(2);
                    e.setup(Op::PredOp {
                        op: PredLogic::Not,
                        d: s,
                        a: PredSrc::Reg(p, false),
                        b: PredSrc::Imm(false),
                    });
                    s
                } else {
                    p
                };
                if ty.size_bits() == 64 {
                    let (a, b) = (self.s64(e, o(1))?, self.s64(e, o(2))?);
                    let d = self.dst64(e, o(0))?;
                    e.push(Op::Selp64 { d, a, b, p });
                } else {
                    let (a, b) = (self.s32(e, o(1))?, self.s32(e, o(2))?);
                    let d = self.dst32(e, o(0))?;
                    e.push(Op::Selp32 { d, a, b, p });
                }
            }
            Oc::Cvt
                if i.mods.has(ir::Flag::Pack)
                    || matches!(
                        ty,
                        T::Tf32
                            | T::F16x2
                            | T::Bf16x2
                            | T::E4m3x2
                            | T::E5m2x2
                            | T::E2m1x2
                            | T::E2m3x2
                            | T::E3m2x2
                            | T::Ue8m0x2
                    ) =>
            {
                self.lane_op(e, i)?
            }
            Oc::Cvt => {
                // `.bf16` is a cvt type only (no loads or stores of it exist).
                let cvt_scalar = |t: T| {
                    if t == T::Bf16 {
                        Some(Scalar::Bf16)
                    } else {
                        scalar_of(t)
                    }
                };
                let dty = cvt_scalar(ty).ok_or("unsupported destination type")?;
                let aty =
                    cvt_scalar(i.type_slot(1).unwrap_or(ty)).ok_or("unsupported source type")?;
                let a = self.src(e, o(1), aty.bytes() == 8)?;
                let d = self.dst(e, o(0))?.ok_or("missing destination")?;
                e.push(Op::Cvt {
                    d,
                    dty,
                    a,
                    aty,
                    mode: cvt_mode(i, self.m.version),
                });
            }
            Oc::Cvta => {
                let to = i.mods.has(Flag::To);
                let space = match i.mods.space {
                    Some(ir::Space::Shared | ir::Space::SharedCta | ir::Space::SharedCluster) => {
                        Space::Shared
                    }
                    Some(ir::Space::Local) => Space::Local,
                    Some(ir::Space::Const) => Space::Const,
                    Some(ir::Space::Global) => Space::Global,
                    // Kernel parameters have a generic window; `.func` parameters live in the
                    // thread's frame, which `cvta.param` cannot name.
                    Some(ir::Space::Param | ir::Space::ParamEntry) => {
                        if let O::VarAddr { var, .. } = o(1) {
                            if !matches!(
                                self.vars.get(var.index()),
                                Some(super::VarLoc::KernelParam(_))
                            ) {
                                return Err(
                                    "cvta.param of a variable that is not a kernel parameter \
                                     is not supported"
                                        .into(),
                                );
                            }
                        }
                        Space::Param
                    }
                    s => return Err(format!("cvta for {s:?} is not supported")),
                };
                let d = self.dst(e, o(0))?.ok_or("missing destination")?;
                let a = self.src(e, o(1), matches!(d, Reg::R64(_)))?;
                e.push(Op::Cvta { to, space, d, a });
            }
            Oc::Ld | Oc::Ldu => self.load(e, i)?,
            Oc::St => self.store(e, i)?,
            Oc::Atom | Oc::Red => self.atom(e, i)?,
            Oc::Bra => {
                let O::Label(t) = o(0) else {
                    return Err("bra needs a label".into());
                };
                e.push(Op::Bra { target: t.0 });
            }
            Oc::Brx => {
                let O::TargetList(ts) = o(1) else {
                    return Err("brx.idx needs a .branchtargets list".into());
                };
                let index = self.s32(e, o(0))?;
                let index = self.reg32_of(e, index);
                e.push(Op::BrxIdx {
                    index,
                    targets: ts.iter().map(|t| t.0).collect(),
                });
            }
            Oc::Call => self.call(e, i)?,
            Oc::Ret => e.push(Op::Ret),
            Oc::Exit => e.push(Op::Exit),
            Oc::Trap => e.push(Op::Trap),
            Oc::Brkpt => e.push(Op::Brkpt),
            Oc::Membar | Oc::Fence | Oc::Prefetch | Oc::Prefetchu | Oc::Nanosleep | Oc::Pmevent => {
                e.push(Op::Nop)
            }
            Oc::Bar | Oc::Barrier => self.bar(e, i)?,
            Oc::Vote => {
                let mode = match i.mods.vote_mode {
                    Some(isa::VoteMode::All) => VoteMode::All,
                    Some(isa::VoteMode::Any) => VoteMode::Any,
                    Some(isa::VoteMode::Uni) => VoteMode::Uni,
                    _ => VoteMode::Ballot,
                };
                let (a, neg) = match o(1) {
                    O::Imm(v) => {
                        let s = self.scratch_pred(1);
                        e.setup(Op::PredOp {
                            op: PredLogic::Mov,
                            d: s,
                            a: PredSrc::Imm(*v != 0),
                            b: PredSrc::Imm(false),
                        });
                        (s, false)
                    }
                    other => self.pred(e, other)?,
                };
                let d = self.dst(e, o(0))?.ok_or("missing destination")?;
                let member = self.membermask(e, i, 2)?;
                e.push(Op::Vote {
                    mode,
                    a,
                    neg,
                    d,
                    member,
                });
            }
            Oc::Shfl => {
                let mode = match i.mods.shfl_mode {
                    Some(isa::ShflMode::Up) => ShflMode::Up,
                    Some(isa::ShflMode::Down) => ShflMode::Down,
                    Some(isa::ShflMode::Bfly) => ShflMode::Bfly,
                    _ => ShflMode::Idx,
                };
                let O::PredPair(dr, pr) = o(0) else {
                    return Err("shfl needs a destination".into());
                };
                let Reg::R32(d) = self.reg(e, *dr)? else {
                    return Err("shfl destination must be 32-bit".into());
                };
                let p = match pr {
                    Some(p) => match self.reg(e, *p)? {
                        Reg::Pred(p) => Some(p),
                        _ => None,
                    },
                    None => None,
                };
                let (a, b, c) = (self.s32(e, o(1))?, self.s32(e, o(2))?, self.s32(e, o(3))?);
                let member = self.membermask(e, i, 4)?;
                e.push(Op::Shfl {
                    mode,
                    d,
                    p,
                    a,
                    b,
                    c,
                    member,
                });
            }
            Oc::Activemask => {
                let d = self.dst32(e, o(0))?;
                e.push(Op::Activemask { d });
            }
            Oc::Redux => {
                let s = ty.is_signed();
                let (abs, nan) = (i.mods.has(ir::Flag::Abs), i.mods.has(ir::Flag::NaN));
                let op = match (i.mods.atom_op, s) {
                    (Some(isa::AtomOp::Min), _) if ty == ir::Type::F32 => {
                        ReduxOp::MinF32 { abs, nan }
                    }
                    (Some(isa::AtomOp::Max), _) if ty == ir::Type::F32 => {
                        ReduxOp::MaxF32 { abs, nan }
                    }
                    (Some(isa::AtomOp::Add), _) => ReduxOp::Add,
                    (Some(isa::AtomOp::Min), true) => ReduxOp::MinS,
                    (Some(isa::AtomOp::Min), false) => ReduxOp::MinU,
                    (Some(isa::AtomOp::Max), true) => ReduxOp::MaxS,
                    (Some(isa::AtomOp::Max), false) => ReduxOp::MaxU,
                    (Some(isa::AtomOp::And), _) => ReduxOp::And,
                    (Some(isa::AtomOp::Or), _) => ReduxOp::Or,
                    (Some(isa::AtomOp::Xor), _) => ReduxOp::Xor,
                    _ => return Err("unsupported redux operation".into()),
                };
                let d = self.dst32(e, o(0))?;
                let a = match self.s32(e, o(1))? {
                    S32::Reg(r) => r,
                    imm => self.mov_to_scratch32(e, imm),
                };
                let member = self.membermask(e, i, 2)?.ok_or("missing membermask")?;
                e.push(Op::Redux { op, d, a, member });
            }
            Oc::Match => {
                let (d, p) = match o(0) {
                    O::PredPair(d, p) => (*d, *p),
                    O::Reg(d) => (*d, None),
                    _ => return Err("match needs a destination register".into()),
                };
                let Reg::R32(d) = self.reg(e, d)? else {
                    return Err("match destination must be 32-bit".into());
                };
                let p = match p {
                    Some(p) => match self.reg(e, p)? {
                        Reg::Pred(p) => Some(p),
                        _ => return Err("match predicate must be a predicate".into()),
                    },
                    None => None,
                };
                let a = self.src(e, o(1), ty.size_bits() == 64)?;
                let member = self.membermask(e, i, 2)?.ok_or("missing membermask")?;
                // `.any`/`.all` are fixed spellings of two table rows.
                let all = i.form.syntax.starts_with("match.all");
                e.push(Op::Match {
                    all,
                    d,
                    p,
                    a,
                    member,
                });
            }
            Oc::Tex => self.tex(e, i)?,
            Oc::Txq => self.txq(e, i)?,
            Oc::Mbarrier => self.mbarrier(e, i)?,
            Oc::Cp if i.mods.has(ir::Flag::Bulk) => self.bulk_copy(e, i)?,
            Oc::Mma | Oc::Ldmatrix | Oc::Stmatrix | Oc::Movmatrix | Oc::Cp | Oc::Elect => {
                self.matrix(e, i)?
            }
            Oc::Wmma => self.wmma(e, i)?,
            Oc::Sad
            | Oc::Bfe
            | Oc::Bfi
            | Oc::Bfind
            | Oc::Fns
            | Oc::Prmt
            | Oc::Dp4a
            | Oc::Dp2a
            | Oc::Szext
            | Oc::Bmsk
            | Oc::Lop3
            | Oc::Shf
            | Oc::Slct
            | Oc::Copysign
            | Oc::Testp
            | Oc::Isspacep => self.lane_op(e, i)?,
            Oc::Vadd4
            | Oc::Vsub4
            | Oc::Vavrg4
            | Oc::Vabsdiff4
            | Oc::Vmin4
            | Oc::Vmax4
            | Oc::Vadd2
            | Oc::Vsub2
            | Oc::Vavrg2
            | Oc::Vabsdiff2
            | Oc::Vmin2
            | Oc::Vmax2 => self.simd_video(e, i)?,
            Oc::Vadd
            | Oc::Vsub
            | Oc::Vabsdiff
            | Oc::Vmin
            | Oc::Vmax
            | Oc::Vshl
            | Oc::Vshr
            | Oc::Vset
            | Oc::Vset2
            | Oc::Vset4 => self.scalar_video(e, i)?,
            Oc::Vmad => self.vmad(e, i)?,
            other => {
                return Err(format!(
                    "instruction `{}` is not supported by the executor",
                    other.name()
                ))
            }
        }
        Ok(())
    }
}

impl LoadError {
    /// The message of a load error, for tests and the CLI.
    pub fn message(&self) -> &str {
        &self.message
    }
}
