//! Lowering of calls, barriers, carry-chain arithmetic and unary float instructions.

use super::operand::{Emit, LResult};
use super::{Lowerer, VarLoc};
use crate::program::*;
use ir::{Operand as O, Param as IrParam};

impl Lowerer<'_> {
    pub(crate) fn carry(
        &mut self,
        e: &mut Emit<'_>,
        i: &ir::Inst,
        op: CarryOp,
        cc_in: bool,
        cc_out: bool,
    ) -> LResult<()> {
        let ops = &i.operands;
        let o = |k: usize| ops.get(k).unwrap_or(&O::Omitted);
        let ty = i.ty().ok_or("missing type")?;
        let has_c = matches!(op, CarryOp::MadLo | CarryOp::MadHiU | CarryOp::MadHiS);
        if ty.size_bits() == 64 {
            let (a, b) = (self.s64(e, o(1))?, self.s64(e, o(2))?);
            let c = if has_c {
                self.s64(e, o(3))?
            } else {
                S64::Imm(0)
            };
            let d = self.dst64(e, o(0))?;
            e.push(Op::Carry64 {
                op,
                cc_in,
                cc_out,
                d,
                a,
                b,
                c,
            });
        } else {
            let (a, b) = (self.s32(e, o(1))?, self.s32(e, o(2))?);
            let c = if has_c {
                self.s32(e, o(3))?
            } else {
                S32::Imm(0)
            };
            let d = self.dst32(e, o(0))?;
            e.push(Op::Carry32 {
                op,
                cc_in,
                cc_out,
                d,
                a,
                b,
                c,
            });
        }
        Ok(())
    }

    pub(crate) fn float_un(&mut self, e: &mut Emit<'_>, i: &ir::Inst, op: FUnOp) -> LResult<()> {
        let ops = &i.operands;
        let ty = i.ty().ok_or("missing type")?;
        let mode = FMode {
            rnd: match i.mods.rounding {
                Some(isa::Rounding::Rz) => Rounding::Rz,
                Some(isa::Rounding::Rm) => Rounding::Rm,
                Some(isa::Rounding::Rp) => Rounding::Rp,
                _ => Rounding::Rn,
            },
            ftz: i.mods.has(ir::Flag::Ftz),
            sat: i.mods.has(ir::Flag::Sat),
            approx: if i.mods.has(ir::Flag::Approx) || i.mods.rounding.is_none() {
                Approx::Approx
            } else {
                Approx::Ieee
            },
        };
        let a = ops.get(1).ok_or("missing operand")?;
        let d = ops.first().ok_or("missing destination")?;
        match ty {
            ir::Type::F32 => {
                let a = self.s32(e, a)?;
                let d = self.dst32(e, d)?;
                e.push(Op::FUn32 { op, mode, d, a });
            }
            ir::Type::F64 => {
                let a = self.s64(e, a)?;
                let d = self.dst64(e, d)?;
                e.push(Op::FUn64 { op, mode, d, a });
            }
            t => return Err(format!("type {} is not supported", t.suffix())),
        }
        Ok(())
    }

    pub(crate) fn bar(&mut self, e: &mut Emit<'_>, i: &ir::Inst) -> LResult<()> {
        let ops = &i.operands;
        let has = |f| i.mods.has(f);
        let is_red = has(ir::Flag::Red);
        let kind = if has(ir::Flag::Arrive) {
            BarKind::Arrive
        } else if is_red {
            match (has(ir::Flag::Popc), i.mods.bool_op, i.mods.atom_op) {
                (true, _, _) => BarKind::RedPopc,
                (_, Some(isa::BoolOp::Or), _) | (_, _, Some(isa::AtomOp::Or)) => BarKind::RedOr,
                _ => BarKind::RedAnd,
            }
        } else {
            BarKind::Sync
        };
        if has(ir::Flag::Warp) {
            // bar.warp.sync: warps execute in lock step here; only the membermask is checked.
            let member = self.s32(e, ops.first().ok_or("missing membermask")?)?;
            e.push(Op::WarpSync { member });
            return Ok(());
        }
        let first = if is_red { 1 } else { 0 };
        let id = match ops.get(first) {
            Some(x) => self.s32(e, x)?,
            None => S32::Imm(0),
        };
        let count = match ops.get(first + 1) {
            Some(O::Omitted) | None => None,
            Some(x) => Some(self.s32(e, x)?),
        };
        let (red_src, red_dst) = if is_red {
            let src = self.pred(e, ops.get(first + 2).ok_or("missing predicate")?)?;
            let d = self.dst(e, ops.first().ok_or("missing destination")?)?;
            (Some(src), d)
        } else {
            (None, None)
        };
        e.push(Op::Bar {
            kind,
            id,
            count,
            red_src,
            red_dst,
        });
        Ok(())
    }

    /// One call argument or result: the caller's operand bound to the callee's parameter.
    fn call_arg(
        &self,
        e: &mut Emit<'_>,
        o: &O,
        callee: &IrParam,
        callee_fi: usize,
    ) -> LResult<CallArg> {
        match (o, callee) {
            (O::VarAddr { var, offset }, IrParam::Var(cv)) => {
                let caller_off = match self.vars.get(var.index()).copied() {
                    Some(VarLoc::Frame(x)) => (x as i64 + offset) as u32,
                    _ => {
                        return Err(
                            "a .param argument must be a .param variable of the caller".into()
                        )
                    }
                };
                let callee_off = match self.vars.get(cv.index()).copied() {
                    Some(VarLoc::Frame(x)) => x,
                    _ => return Err("callee parameter has no frame slot".into()),
                };
                let size = self.m.var(*cv).map_or(0, |v| v.size as u32);
                Ok(CallArg::Param {
                    caller_off,
                    callee_off,
                    size,
                })
            }
            (_, IrParam::Reg(cr)) => {
                let callee = self.slot(callee_fi, *cr)?.reg;
                let caller = self.arg_reg(e, o, matches!(callee, Reg::R64(_)))?;
                Ok(CallArg::Reg { caller, callee })
            }
            (O::Reg(_) | O::Imm(_), IrParam::Var(cv)) => {
                // A register or constant bound to a .param parameter: its bytes are stored
                // into (or, for a result, loaded from) the callee's parameter slot.
                let off = match self.vars.get(cv.index()).copied() {
                    Some(VarLoc::Frame(x)) => x,
                    _ => return Err("callee parameter has no frame slot".into()),
                };
                let size = self.m.var(*cv).map_or(0, |v| v.size as u32);
                if !matches!(size, 1 | 2 | 4 | 8) {
                    return Err(format!(
                        "a register cannot be bound to a {size}-byte .param parameter"
                    ));
                }
                let reg = self.arg_reg(e, o, size == 8)?;
                Ok(CallArg::RegParam { reg, off, size })
            }
            _ => Err(format!("unsupported call argument {o:?}")),
        }
    }

    /// The register holding a call operand; an immediate is first materialised into a scratch
    /// register (64-bit when `wide`).
    fn arg_reg(&self, e: &mut Emit<'_>, o: &O, wide: bool) -> LResult<Reg> {
        if let O::Reg(r) = o {
            return self.reg(e, *r);
        }
        Ok(match self.src(e, o, wide)? {
            Src::Reg(r) => r,
            imm => self
                .copy_to_scratch(e, imm, wide)
                .ok_or("a call argument cannot be a predicate constant")?,
        })
    }

    fn bind(
        &self,
        e: &mut Emit<'_>,
        f: ir::FuncId,
        params: &[O],
        rets: &[O],
    ) -> LResult<(Vec<CallArg>, Vec<CallArg>)> {
        let callee = self.m.function(f).ok_or("unknown callee")?;
        if callee.body.is_none() {
            return Err(format!(
                "function `{}` has no body in this module",
                callee.name
            ));
        }
        let mut args = Vec::new();
        for (a, p) in params.iter().zip(callee.params.iter()) {
            args.push(self.call_arg(e, a, p, f.index())?);
        }
        let mut rs = Vec::new();
        for (a, p) in rets.iter().zip(callee.rets.iter()) {
            rs.push(self.call_arg(e, a, p, f.index())?);
        }
        Ok((args, rs))
    }

    pub(crate) fn call(&mut self, e: &mut Emit<'_>, i: &ir::Inst) -> LResult<()> {
        let mut func = None;
        let mut fptr = None;
        let mut flist: Option<&[ir::FuncId]> = None;
        let mut rets: &[O] = &[];
        let mut params: &[O] = &[];
        for (k, fo) in i.form.operands.iter().enumerate() {
            let Some(op) = i.operands.get(k) else {
                continue;
            };
            match (fo.name, op) {
                ("fname", O::Func(f)) => func = Some(*f),
                ("fptr", O::Reg(r)) => fptr = Some(self.reg(e, *r)?),
                ("ret", O::List(l)) => rets = l,
                ("params", O::List(l)) => params = l,
                (_, O::CallTargets(fs)) => flist = Some(fs),
                _ => {}
            }
        }
        let caller_frame = self.frames.get(e.fi).copied().unwrap_or(0);
        if let Some(fptr) = fptr {
            // Every defined .func with the call's parameter and result counts may be the
            // target; with an flist, only those it lists (PTX ISA §9.7.12.5: "the fptr
            // register holds the address of a function listed").
            let mut targets = Vec::new();
            for (fi, f) in self.m.functions.iter().enumerate() {
                let unlisted = flist.is_some_and(|l| !l.contains(&ir::FuncId(fi as u32)));
                if unlisted
                    || f.kind != ir::FuncKind::Func
                    || f.body.is_none()
                    || f.params.len() != params.len()
                    || f.rets.len() != rets.len()
                {
                    continue;
                }
                if let Ok((a, r)) = self.bind(e, ir::FuncId(fi as u32), params, rets) {
                    targets.push((fi as u32, a, r));
                }
            }
            e.push(Op::CallIndirect {
                fptr,
                caller_frame,
                targets,
                listed: flist.is_some(),
            });
            return Ok(());
        }
        let f = func.ok_or("call without a target")?;
        let (args, rs) = self.bind(e, f, params, rets)?;
        e.push(Op::Call {
            func: f.0,
            caller_frame,
            args,
            rets: rs,
        });
        Ok(())
    }
}

impl Lowerer<'_> {
    /// Instructions evaluated per lane through `ops` ([`crate::lane_ops`]).
    pub(crate) fn lane_op(&mut self, e: &mut Emit<'_>, i: &ir::Inst) -> LResult<()> {
        use crate::lane_ops::{IntTy, LaneOp};
        use ir::Opcode as Oc;
        use ops::int::{ClampWrap, Dp2aMode, Sign};
        let ops_ = &i.operands;
        let ty = i.ty().unwrap_or(ir::Type::U64);
        let sign = |t: Option<ir::Type>| {
            if t.is_some_and(|t| t.is_signed()) {
                Sign::Signed
            } else {
                Sign::Unsigned
            }
        };
        let cw = if i.mods.clamp == Some(isa::ClampMode::Clamp) {
            ClampWrap::Clamp
        } else {
            ClampWrap::Wrap
        };
        let ty = if i.op == Oc::Isspacep {
            ir::Type::U64
        } else {
            ty
        };
        let it = || IntTy::of(ty).ok_or_else(|| format!("type {} is not supported", ty.suffix()));
        let relu = i.mods.has(ir::Flag::Relu);
        let f = match i.op {
            Oc::Add | Oc::Min | Oc::Max if matches!(ty, ir::Type::U16x2 | ir::Type::S16x2) => {
                use crate::lane_ops::PairOp as P;
                LaneOp::Pair(match (i.op, ty == ir::Type::S16x2, relu) {
                    (Oc::Add, false, _) => P::AddU,
                    (Oc::Add, true, _) => P::AddS,
                    (Oc::Min, false, _) => P::MinU,
                    (Oc::Max, false, _) => P::MaxU,
                    (Oc::Min, true, false) => P::MinS,
                    (Oc::Max, true, false) => P::MaxS,
                    (Oc::Min, true, true) => P::MinReluS,
                    _ => P::MaxReluS,
                })
            }
            Oc::Mad if ty == ir::Type::F32 => LaneOp::MadF32 {
                ftz: i.mods.has(ir::Flag::Ftz),
                sat: i.mods.has(ir::Flag::Sat),
            },
            Oc::Mad if ty == ir::Type::F64 => LaneOp::MadF64,
            Oc::Min | Oc::Max if ty == ir::Type::F32 => LaneOp::MinMaxF32 {
                max: i.op == Oc::Max,
                ftz: i.mods.has(ir::Flag::Ftz),
                nan: i.mods.has(ir::Flag::NaN),
                xorsign_abs: i.mods.has(ir::Flag::Xorsign),
            },
            Oc::Min if relu => LaneOp::MinReluS32,
            Oc::Max if relu => LaneOp::MaxReluS32,
            Oc::Div | Oc::Rem if i.mods.mul_mode == Some(isa::MulMode::Wide) => {
                LaneOp::DivWide(it()?, i.op == Oc::Rem)
            }
            Oc::Sad if ty.is_float() => LaneOp::SadF(ty == ir::Type::F64),
            Oc::Sad => LaneOp::Sad(it()?),
            Oc::Bfe => LaneOp::Bfe(it()?),
            Oc::Bfi => LaneOp::Bfi(it()?),
            Oc::Bfind => LaneOp::Bfind(it()?, i.mods.has(ir::Flag::ShiftAmt)),
            Oc::Fns => LaneOp::Fns,
            Oc::Prmt => LaneOp::Prmt(match i.mods.prmt_mode {
                None => ops::prmt::PrmtMode::Default,
                Some(isa::PrmtMode::F4e) => ops::prmt::PrmtMode::F4e,
                Some(isa::PrmtMode::B4e) => ops::prmt::PrmtMode::B4e,
                Some(isa::PrmtMode::Rc8) => ops::prmt::PrmtMode::Rc8,
                Some(isa::PrmtMode::Ecl) => ops::prmt::PrmtMode::Ecl,
                Some(isa::PrmtMode::Ecr) => ops::prmt::PrmtMode::Ecr,
                Some(isa::PrmtMode::Rc16) => ops::prmt::PrmtMode::Rc16,
            }),
            Oc::Dp4a => LaneOp::Dp4a(sign(i.type_slot(0)), sign(i.type_slot(1))),
            Oc::Dp2a => LaneOp::Dp2a(
                sign(i.type_slot(0)),
                sign(i.type_slot(1)),
                if i.mods.mul_mode == Some(isa::MulMode::Hi) {
                    Dp2aMode::Hi
                } else {
                    Dp2aMode::Lo
                },
            ),
            Oc::Szext => LaneOp::Szext(ty.is_signed(), cw),
            Oc::Bmsk => LaneOp::Bmsk(cw),
            Oc::Lop3 => {
                let lut = ops_
                    .get(4)
                    .and_then(|o| o.as_imm())
                    .or_else(|| ops_.get(3).and_then(|o| o.as_imm()));
                LaneOp::Lop3(lut.ok_or("lop3 needs an immediate lookup table")? as u8)
            }
            Oc::Shf => LaneOp::Shf(
                i.mods.shf_dir == Some(isa::ShfDir::L),
                if cw == ClampWrap::Clamp {
                    ops::logic::ShfMode::Clamp
                } else {
                    ops::logic::ShfMode::Wrap
                },
            ),
            Oc::Mad if ty == ir::Type::S32 => LaneOp::MadHiSatS32,
            Oc::Mad24 => LaneOp::Mad24HiSatS32,
            Oc::Tanh => LaneOp::TanhF32,
            Oc::Add | Oc::Sub | Oc::Mul | Oc::Fma if ty == ir::Type::F32x2 => LaneOp::F32x2 {
                op: match i.op {
                    Oc::Add => ops::float::PairOp::Add,
                    Oc::Sub => ops::float::PairOp::Sub,
                    Oc::Mul => ops::float::PairOp::Mul,
                    _ => ops::float::PairOp::Fma,
                },
                rnd: match i.mods.rounding {
                    Some(isa::Rounding::Rz) => ops::float::Rounding::Rz,
                    Some(isa::Rounding::Rm) => ops::float::Rounding::Rm,
                    Some(isa::Rounding::Rp) => ops::float::Rounding::Rp,
                    _ => ops::float::Rounding::Rn,
                },
                ftz: i.mods.has(ir::Flag::Ftz),
            },
            Oc::Cvt if i.mods.has(ir::Flag::Pack) => LaneOp::CvtPackSat {
                bits: ty.size_bits(),
                signed: ty.is_signed(),
            },
            // The narrow pairs of sm_100a (ops::mx).
            Oc::Cvt if mx_cvt(i).is_some() => LaneOp::Mx(mx_cvt(i).ok_or("mx")?),
            // fp8 pairs (ops::fp8): to an f16 pair, from an f16 pair, from two f32.
            Oc::Cvt if fp8_of(i.type_slot(1)).is_some() => {
                LaneOp::CvtF16x2Fp8(fp8_of(i.type_slot(1)).ok_or("fp8")?, relu)
            }
            Oc::Cvt if fp8_of(Some(ty)).is_some() => {
                let f = fp8_of(Some(ty)).ok_or("fp8")?;
                if i.type_slot(1) == Some(ir::Type::F16x2) {
                    LaneOp::CvtFp8F16x2(f, relu)
                } else {
                    LaneOp::CvtFp8F32(f, relu)
                }
            }
            Oc::Cvt if ty == ir::Type::F16x2 => LaneOp::CvtX2(ops::half::HalfFormat::F16, relu),
            Oc::Cvt if ty == ir::Type::Bf16x2 => LaneOp::CvtX2(ops::half::HalfFormat::Bf16, relu),
            Oc::Cvt => LaneOp::CvtRnaTf32,
            _ if half_format(ty).is_some() => half_lane_op(i, ty)?,
            Oc::Isspacep => LaneOp::Isspacep(match i.mods.space {
                Some(ir::Space::Shared | ir::Space::SharedCta | ir::Space::SharedCluster) => {
                    Space::Shared
                }
                Some(ir::Space::Local) => Space::Local,
                Some(ir::Space::Const) => Space::Const,
                Some(ir::Space::Global) => Space::Global,
                Some(ir::Space::Param | ir::Space::ParamEntry) => Space::Param,
                s => return Err(format!("isspacep for {s:?} is not supported")),
            }),
            Oc::Slct if i.type_slot(1) == Some(ir::Type::F32) => {
                LaneOp::SlctF32(i.mods.has(ir::Flag::Ftz))
            }
            Oc::Slct => LaneOp::SlctS32,
            Oc::Copysign => LaneOp::Copysign(ty == ir::Type::F64),
            Oc::Testp => {
                use isa::TestpOp as T;
                use ops::float::TestpOp as O;
                LaneOp::Testp(
                    match i.mods.testp.ok_or("testp needs a property")? {
                        T::Finite => O::Finite,
                        T::Infinite => O::Infinite,
                        T::Number => O::Number,
                        T::NotANumber => O::NotANumber,
                        T::Normal => O::Normal,
                        T::Subnormal => O::Subnormal,
                    },
                    ty == ir::Type::F64,
                )
            }
            other => {
                return Err(format!(
                    "instruction `{}` is not supported by the executor",
                    other.name()
                ))
            }
        };
        let d = self
            .dst(e, ops_.first().ok_or("missing destination")?)?
            .ok_or("missing destination")?;
        let mut srcs = [Src::Imm(0); 4];
        let n = if i.op == Oc::Lop3 { 3 } else { 4 };
        for (k, o) in ops_.iter().skip(1).take(n).enumerate() {
            if matches!(o, O::Omitted) {
                continue;
            }
            srcs[k] = self.src(e, o, ty.size_bits() == 64)?;
        }
        e.push(Op::Lane { f, d, srcs });
        Ok(())
    }
}

/// The 16-bit float format of a half-precision type, and whether it is packed.
pub(crate) fn half_format(t: ir::Type) -> Option<(ops::half::HalfFormat, bool)> {
    use ops::half::HalfFormat as H;
    Some(match t {
        ir::Type::F16 => (H::F16, false),
        ir::Type::F16x2 => (H::F16, true),
        ir::Type::Bf16 => (H::Bf16, false),
        ir::Type::Bf16x2 => (H::Bf16, true),
        _ => return None,
    })
}

fn half_lane_op(i: &ir::Inst, ty: ir::Type) -> LResult<crate::lane_ops::LaneOp> {
    use crate::lane_ops::{HalfOp, LaneOp};
    use ir::{Flag, Opcode as Oc};
    let (f, x2) = half_format(ty).ok_or("not a half-precision type")?;
    let ftz = i.mods.has(Flag::Ftz);
    // `.rn` is the only rounding the half-precision forms admit.
    let m = ops::half::HalfMode {
        rnd: ops::float::Rounding::Rn,
        ftz,
        sat: i.mods.has(Flag::Sat),
        relu: i.mods.has(Flag::Relu),
    };
    let mm = ops::half::MinMaxMode {
        ftz,
        nan: i.mods.has(Flag::NaN),
        xorsign_abs: i.mods.has(Flag::Xorsign),
    };
    let op = match i.op {
        Oc::Add => HalfOp::Add(m),
        Oc::Sub => HalfOp::Sub(m),
        Oc::Mul => HalfOp::Mul(m),
        Oc::Fma => HalfOp::Fma(m),
        Oc::Neg => HalfOp::Neg { ftz },
        Oc::Abs => HalfOp::Abs { ftz },
        Oc::Min => HalfOp::Min(mm),
        Oc::Max => HalfOp::Max(mm),
        Oc::Ex2 => HalfOp::Ex2 { ftz },
        other => {
            return Err(format!(
                "instruction `{}` on {} is not supported by the executor",
                other.name(),
                ty.suffix()
            ))
        }
    };
    Ok(LaneOp::Half { op, f, x2 })
}

/// The `ops::mx` form of a `cvt` to or from a narrow pair (`.e2m1x2`, `.e2m3x2`, `.e3m2x2`,
/// `.ue8m0x2`).
pub(crate) fn mx_cvt(i: &ir::Inst) -> Option<ops::mx::MxCvt> {
    use ops::mx::{MxCvt, Narrow};
    let narrow = |t: Option<ir::Type>| match t {
        Some(ir::Type::E2m1x2) => Some(Narrow::E2m1),
        Some(ir::Type::E2m3x2) => Some(Narrow::E2m3),
        Some(ir::Type::E3m2x2) => Some(Narrow::E3m2),
        _ => None,
    };
    let (d, a) = (i.type_slot(0), i.type_slot(1));
    let relu = i.mods.has(ir::Flag::Relu);
    let up = i.mods.rounding == Some(isa::Rounding::Rp);
    let satfinite = i.mods.has(ir::Flag::Satfinite);
    Some(match (d, a) {
        (_, Some(ir::Type::F32)) if narrow(d).is_some() => MxCvt::PairFromF32 {
            f: narrow(d)?,
            relu,
        },
        (Some(ir::Type::F16x2), _) if narrow(a).is_some() => MxCvt::F16x2FromPair {
            f: narrow(a)?,
            relu,
        },
        (Some(ir::Type::Ue8m0x2), Some(ir::Type::F32)) => MxCvt::Ue8m0x2FromF32 { up, satfinite },
        (Some(ir::Type::Ue8m0x2), Some(ir::Type::Bf16x2)) => {
            MxCvt::Ue8m0x2FromBf16x2 { up, satfinite }
        }
        (Some(ir::Type::Bf16x2), Some(ir::Type::Ue8m0x2)) => MxCvt::Bf16x2FromUe8m0x2,
        _ => return None,
    })
}

/// The `ops::fp8` format of an fp8 pair type.
fn fp8_of(t: Option<ir::Type>) -> Option<ops::fp8::Fp8> {
    match t {
        Some(ir::Type::E4m3x2) => Some(ops::fp8::Fp8::E4m3),
        Some(ir::Type::E5m2x2) => Some(ops::fp8::Fp8::E5m2),
        _ => None,
    }
}
