//! Operand lowering: registers to slots, special registers and variable addresses to
//! immediates or scratch registers, address operands to [`Addr`].

use super::{Lowerer, Slot, VarLoc};
use crate::program::*;
use ir::Operand as O;

/// Accumulates the decoded instructions one IR instruction expands to.
pub(crate) struct Emit<'o> {
    pub out: &'o mut Vec<Inst>,
    pub line: u32,
    pub guard: Option<(Pred, bool)>,
    pub fi: usize,
    /// Next free scratch register of each bank.
    pub next32: usize,
    pub next64: usize,
}

impl Emit<'_> {
    /// Setup instructions (operand materialisation) are unguarded: they only write scratch.
    pub fn setup(&mut self, op: Op) {
        self.out.push(Inst {
            guard: None,
            op,
            line: self.line,
            weight: 0,
        });
    }
    /// A further step of the same PTX instruction (guarded like it, not counted again).
    pub fn push_more(&mut self, op: Op) {
        self.out.push(Inst {
            guard: self.guard,
            op,
            line: self.line,
            weight: 0,
        });
    }
    pub fn push(&mut self, op: Op) {
        self.out.push(Inst {
            guard: self.guard,
            op,
            line: self.line,
            weight: 1,
        });
    }
}

pub(crate) type LResult<T> = Result<T, String>;

pub(crate) fn sreg_of(reg: ir::SpecialReg, index: u8) -> LResult<Option<Sreg>> {
    use ir::SpecialReg as S;
    Ok(Some(match reg {
        S::Tid => Sreg::Tid(index),
        S::Ntid => Sreg::Ntid(index),
        S::Ctaid => Sreg::Ctaid(index),
        S::Nctaid => Sreg::Nctaid(index),
        S::Gridid => Sreg::Gridid,
        S::Clock => Sreg::Clock,
        S::Clock64 => Sreg::Clock64,
        S::Laneid => Sreg::Laneid,
        S::Warpid => Sreg::Warpid,
        S::Nwarpid => Sreg::Nwarpid,
        S::Smid => Sreg::Smid,
        S::Nsmid => Sreg::Nsmid,
        S::LanemaskEq => Sreg::LanemaskEq,
        S::LanemaskLt => Sreg::LanemaskLt,
        S::LanemaskLe => Sreg::LanemaskLe,
        S::LanemaskGt => Sreg::LanemaskGt,
        S::LanemaskGe => Sreg::LanemaskGe,
        S::WarpSz => return Ok(None),
        other => {
            return Err(format!(
                "special register {other:?} is not supported by the executor"
            ))
        }
    }))
}

impl Lowerer<'_> {
    pub(crate) fn slot(&self, fi: usize, r: ir::RegId) -> LResult<Slot> {
        self.regs
            .get(fi)
            .and_then(|v| v.get(r.index()))
            .copied()
            .ok_or_else(|| format!("register {} out of range", r.0))
    }

    pub(crate) fn reg(&self, e: &Emit<'_>, r: ir::RegId) -> LResult<Reg> {
        Ok(self.slot(e.fi, r)?.reg)
    }

    pub(crate) fn scratch32(&self, e: &mut Emit<'_>) -> R32 {
        let r = self
            .scratch32
            .get(e.next32 % self.scratch32.len().max(1))
            .copied()
            .unwrap_or(R32(0));
        e.next32 += 1;
        r
    }
    pub(crate) fn scratch64(&self, e: &mut Emit<'_>) -> R64 {
        let r = self
            .scratch64
            .get(e.next64 % self.scratch64.len().max(1))
            .copied()
            .unwrap_or(R64(0));
        e.next64 += 1;
        r
    }
    /// A 32-bit source as a register: an immediate is moved into a scratch register first.
    pub(crate) fn reg32_of(&self, e: &mut Emit<'_>, s: S32) -> R32 {
        match s {
            S32::Reg(r) => r,
            S32::Imm(_) => {
                let t = self.scratch32(e);
                e.setup(Op::Un32 {
                    op: UnOp::Mov,
                    w: Width::W32,
                    d: t,
                    a: s,
                });
                t
            }
        }
    }
    /// The 64-bit counterpart of [`Self::reg32_of`].
    pub(crate) fn reg64_of(&self, e: &mut Emit<'_>, s: S64) -> R64 {
        match s {
            S64::Reg(r) => r,
            S64::Imm(_) => {
                let t = self.scratch64(e);
                e.setup(Op::Un64 {
                    op: UnOp::Mov,
                    d: t,
                    a: s,
                });
                t
            }
        }
    }
    /// Copies a 32- or 64-bit source (register or immediate; an immediate goes to the 64-bit
    /// bank when `wide`) into a fresh scratch register by a setup `mov`, so later writes to the
    /// source cannot change it. `None` for a predicate register (its scratch is per-lane-slot).
    pub(crate) fn copy_to_scratch(&self, e: &mut Emit<'_>, src: Src, wide: bool) -> Option<Reg> {
        Some(match src {
            Src::Reg(Reg::Pred(_)) => return None,
            Src::Reg(Reg::R32(x)) => Reg::R32(self.mov_to_scratch32(e, S32::Reg(x))),
            Src::Reg(Reg::R64(x)) => Reg::R64(self.mov_to_scratch64(e, S64::Reg(x))),
            Src::Imm(v) if wide => Reg::R64(self.mov_to_scratch64(e, S64::Imm(v))),
            Src::Imm(v) => Reg::R32(self.mov_to_scratch32(e, S32::Imm(v as u32))),
        })
    }

    pub(crate) fn mov_to_scratch32(&self, e: &mut Emit<'_>, a: S32) -> R32 {
        let d = self.scratch32(e);
        e.setup(Op::Un32 {
            op: UnOp::Mov,
            w: Width::W32,
            d,
            a,
        });
        d
    }

    fn mov_to_scratch64(&self, e: &mut Emit<'_>, a: S64) -> R64 {
        let d = self.scratch64(e);
        e.setup(Op::Un64 {
            op: UnOp::Mov,
            d,
            a,
        });
        d
    }

    pub(crate) fn scratch_pred(&self, k: usize) -> Pred {
        self.scratch_pred.get(k).copied().unwrap_or(Pred(0))
    }

    /// A source operand as an immediate or a register (any bank); special registers and
    /// frame-relative addresses are materialised into scratch registers of the given width.
    pub(crate) fn src(&self, e: &mut Emit<'_>, o: &O, wide: bool) -> LResult<Src> {
        match o {
            O::Reg(r) => Ok(Src::Reg(self.reg(e, *r)?)),
            O::Imm(v) => Ok(Src::Imm(*v)),
            O::NotPred(r) => {
                let p = match self.reg(e, *r)? {
                    Reg::Pred(p) => p,
                    _ => return Err("`!` applies to predicates only".into()),
                };
                let s = self.scratch_pred(3);
                e.setup(Op::PredOp {
                    op: PredLogic::Not,
                    d: s,
                    a: PredSrc::Reg(p, false),
                    b: PredSrc::Imm(false),
                });
                Ok(Src::Reg(Reg::Pred(s)))
            }
            O::Special { reg, index } => match sreg_of(*reg, *index)? {
                None => Ok(Src::Imm(32)),
                Some(sreg) => {
                    let d = if wide {
                        Reg::R64(self.scratch64(e))
                    } else {
                        Reg::R32(self.scratch32(e))
                    };
                    e.setup(Op::Sreg { d, sreg });
                    Ok(Src::Reg(d))
                }
            },
            O::VarAddr { var, offset } => {
                match self.vars.get(var.index()).copied().unwrap_or(VarLoc::None) {
                    VarLoc::Frame(off) => {
                        let d = if wide {
                            Reg::R64(self.scratch64(e))
                        } else {
                            Reg::R32(self.scratch32(e))
                        };
                        e.setup(Op::FrameAddr {
                            d,
                            off: (off as i64 + offset) as u32,
                        });
                        Ok(Src::Reg(d))
                    }
                    _ => Ok(Src::Imm(
                        self.var_value(*var, false).wrapping_add(*offset as u64),
                    )),
                }
            }
            O::Func(f) => Ok(Src::Imm(ir::func_addr(*f))),
            other => Err(format!("unsupported operand {other:?}")),
        }
    }

    pub(crate) fn s32(&self, e: &mut Emit<'_>, o: &O) -> LResult<S32> {
        match self.src(e, o, false)? {
            Src::Imm(v) => Ok(S32::Imm(v as u32)),
            Src::Reg(Reg::R32(r)) => Ok(S32::Reg(r)),
            Src::Reg(Reg::R64(r)) => {
                // A 64-bit register where a 32-bit value is read: its low half.
                let d = self.scratch32(e);
                e.setup(Op::Unpack64 {
                    lo: Some(d),
                    hi: None,
                    a: r,
                });
                Ok(S32::Reg(d))
            }
            Src::Reg(Reg::Pred(p)) => {
                let d = self.scratch32(e);
                e.setup(Op::Selp32 {
                    d,
                    a: S32::Imm(1),
                    b: S32::Imm(0),
                    p,
                });
                Ok(S32::Reg(d))
            }
        }
    }

    pub(crate) fn s64(&self, e: &mut Emit<'_>, o: &O) -> LResult<S64> {
        match self.src(e, o, true)? {
            Src::Imm(v) => Ok(S64::Imm(v)),
            Src::Reg(Reg::R64(r)) => Ok(S64::Reg(r)),
            Src::Reg(Reg::R32(r)) => {
                let d = self.scratch64(e);
                e.setup(Op::Pack64 {
                    d,
                    lo: S32::Reg(r),
                    hi: S32::Imm(0),
                });
                Ok(S64::Reg(d))
            }
            Src::Reg(Reg::Pred(_)) => Err("a predicate cannot be a 64-bit operand".into()),
        }
    }

    pub(crate) fn pred(&self, e: &mut Emit<'_>, o: &O) -> LResult<(Pred, bool)> {
        let (r, neg) = match o {
            O::Reg(r) => (*r, false),
            O::NotPred(r) => (*r, true),
            O::Imm(v) => {
                // A predicate immediate (0 or 1, the checker's conversion of any constant).
                let s = self.scratch_pred(4);
                e.setup(Op::PredOp {
                    op: PredLogic::Mov,
                    d: s,
                    a: PredSrc::Imm(*v != 0),
                    b: PredSrc::Imm(false),
                });
                return Ok((s, false));
            }
            _ => return Err(format!("expected a predicate, found {o:?}")),
        };
        match self.reg(e, r)? {
            Reg::Pred(p) => Ok((p, neg)),
            _ => Err("expected a predicate register".into()),
        }
    }

    pub(crate) fn psrc(&self, e: &mut Emit<'_>, o: &O) -> LResult<PredSrc> {
        match o {
            O::Imm(v) => Ok(PredSrc::Imm(*v != 0)),
            _ => {
                let (p, n) = self.pred(e, o)?;
                Ok(PredSrc::Reg(p, n))
            }
        }
    }

    /// A destination register (`None` for the sink `_`).
    pub(crate) fn dst(&self, e: &Emit<'_>, o: &O) -> LResult<Option<Reg>> {
        match o {
            O::Reg(r) => Ok(Some(self.reg(e, *r)?)),
            O::Sink | O::Omitted => Ok(None),
            O::PredPair(p, _) => Ok(Some(self.reg(e, *p)?)),
            other => Err(format!("unsupported destination {other:?}")),
        }
    }

    pub(crate) fn dst32(&self, e: &Emit<'_>, o: &O) -> LResult<R32> {
        match self.dst(e, o)? {
            Some(Reg::R32(r)) => Ok(r),
            _ => Err("expected a 8/16/32-bit destination register".into()),
        }
    }
    pub(crate) fn dst64(&self, e: &Emit<'_>, o: &O) -> LResult<R64> {
        match self.dst(e, o)? {
            Some(Reg::R64(r)) => Ok(r),
            _ => Err("expected a 64-bit destination register".into()),
        }
    }

    /// An address operand and the space it resolves to.
    pub(crate) fn addr(
        &self,
        e: &Emit<'_>,
        o: &O,
        space: Option<ir::Space>,
    ) -> LResult<(Space, Addr)> {
        let O::Address(a) = o else {
            return Err(format!("expected an address, found {o:?}"));
        };
        let is_entry = self
            .m
            .functions
            .get(e.fi)
            .is_some_and(|f| f.kind == ir::FuncKind::Entry);
        let inst_space = match space {
            None => Space::Generic,
            Some(ir::Space::Global) => Space::Global,
            Some(ir::Space::Shared | ir::Space::SharedCta | ir::Space::SharedCluster) => {
                Space::Shared
            }
            Some(ir::Space::Local) => Space::Local,
            Some(ir::Space::Const) => Space::Const,
            Some(ir::Space::Param | ir::Space::ParamEntry | ir::Space::ParamFunc) => {
                if is_entry {
                    Space::Param
                } else {
                    Space::Local
                }
            }
            Some(s) => {
                return Err(format!(
                    "state space {s:?} is not supported by the executor"
                ))
            }
        };
        match a.base {
            ir::AddrBase::Reg(r) => {
                let base = match self.reg(e, r)? {
                    Reg::R32(r) => AddrBase::R32(r),
                    Reg::R64(r) => AddrBase::R64(r),
                    Reg::Pred(_) => return Err("a predicate cannot hold an address".into()),
                };
                Ok((
                    inst_space,
                    Addr {
                        base,
                        offset: a.offset,
                        frame_relative: false,
                    },
                ))
            }
            ir::AddrBase::Absolute => Ok((
                inst_space,
                Addr {
                    base: AddrBase::None,
                    offset: a.offset,
                    frame_relative: false,
                },
            )),
            ir::AddrBase::Var(v) => {
                let loc = self.vars.get(v.index()).copied().unwrap_or(VarLoc::None);
                let (space, off, frame) = match loc {
                    VarLoc::Global(x) => (Space::Global, x as i64, false),
                    VarLoc::Const(x) => (Space::Const, x as i64, false),
                    VarLoc::Shared(x) => (Space::Shared, x as i64, false),
                    VarLoc::Local(x) => (Space::Local, x as i64, false),
                    VarLoc::Frame(x) => (Space::Local, x as i64, true),
                    VarLoc::KernelParam(x) => (Space::Param, x as i64, false),
                    VarLoc::Tex(_) | VarLoc::None => {
                        return Err("this variable cannot be accessed as memory".into())
                    }
                };
                Ok((
                    space,
                    Addr {
                        base: AddrBase::None,
                        offset: off + a.offset,
                        frame_relative: frame,
                    },
                ))
            }
        }
    }
}
