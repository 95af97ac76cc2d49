//! One thread's state and its operand reads and writes.

use crate::layout::Layout;
use crate::value::{bits_of, extend, mask};
use crate::{Fault, Launch};
use ir::{FuncId, Operand, RegId, SpecialReg, Type, VarId};
use std::collections::HashMap;

/// One activation of a function.
pub(crate) struct Frame {
    pub func: FuncId,
    pub regs: Vec<u64>,
    pub pc: usize,
    /// `.param` variables of this activation (the callee's parameters, the caller's argument
    /// and return buffers declared in the body).
    pub params: HashMap<VarId, Vec<u8>>,
    /// Where the caller wants the return values: (callee return param, caller destination).
    pub ret_to: Vec<(ir::Param, RetDst)>,
    /// Where this activation's `.local` variables start in the thread's local memory.
    pub local_base: u64,
}

/// Most local memory one thread may use (module `.local` variables and every activation's).
pub(crate) const LOCAL_LIMIT: usize = 1 << 20;

/// A caller-side destination of one return value.
#[derive(Clone, Copy)]
pub(crate) enum RetDst {
    Reg(RegId),
    Var(VarId),
    None,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum State {
    Running,
    /// Waiting at a barrier or collective of the instruction at the current pc.
    Waiting,
    /// Gave way after a wait on an incomplete mbarrier phase: runs again once the others
    /// have had their turn.
    Yielded,
    Exited,
}

pub(crate) struct Thread {
    pub tid: [u32; 3],
    /// Linear thread index within the CTA.
    pub linear: u32,
    pub frames: Vec<Frame>,
    pub carry: bool,
    pub local: Vec<u8>,
    pub state: State,
    pub steps: u64,
    /// When the thread last started waiting (a CTA-wide sequence number): a barrier with a
    /// thread count completes over the first arrivals.
    pub arrival: u64,
}

pub(crate) struct Env<'a, 'm> {
    pub layout: &'a Layout<'m>,
    pub cfg: &'a Launch,
    pub ctaid: [u32; 3],
    /// The next arrival sequence number of the CTA.
    pub arrivals: std::cell::Cell<u64>,
}

impl Thread {
    pub fn frame(&self) -> &Frame {
        self.frames.last().expect("a running thread has a frame")
    }
    pub fn frame_mut(&mut self) -> &mut Frame {
        self.frames
            .last_mut()
            .expect("a running thread has a frame")
    }
    pub fn lane(&self) -> u32 {
        self.linear % 32
    }
    pub fn warp(&self) -> u32 {
        self.linear / 32
    }

    fn reg_type(&self, env: &Env<'_, '_>, r: RegId) -> Type {
        env.layout
            .module
            .function(self.frame().func)
            .and_then(|f| f.reg(r))
            .map(|r| r.ty)
            .unwrap_or(Type::B64)
    }

    pub fn reg(&self, r: RegId) -> u64 {
        self.frame().regs.get(r.index()).copied().unwrap_or(0)
    }

    /// Write register `r` with `v` given as a value of type `ty`: extended to the register's
    /// width by the signedness of `ty` (a `.u8` load into a `.u32` register zero-extends).
    pub fn set_reg(&mut self, env: &Env<'_, '_>, r: RegId, ty: Type, v: u64) {
        let rt = self.reg_type(env, r);
        let v = if rt == Type::Pred {
            v & 1
        } else {
            extend(v, bits_of(ty), ty.is_signed()) & mask(bits_of(rt))
        };
        if let Some(slot) = self.frame_mut().regs.get_mut(r.index()) {
            *slot = v;
        }
    }

    /// The value of a source operand as a `ty` (its low bits; immediates are already `ty`).
    pub fn src(&self, env: &Env<'_, '_>, op: &Operand, ty: Type) -> Result<u64, Fault> {
        let m = mask(bits_of(ty));
        Ok(match op {
            Operand::Reg(r) => self.reg(*r) & m,
            Operand::Imm(v) => *v & m,
            Operand::NotPred(r) => (self.reg(*r) & 1) ^ 1,
            Operand::Special { reg, index } => self.special(env, *reg, *index) & m,
            Operand::VarAddr { var, offset } => {
                let a = self.var_addr(env, *var)?;
                a.wrapping_add(*offset as u64) & m
            }
            Operand::Func(f) => crate::layout::func_address(&env.cfg.windows, *f) & m,
            Operand::Omitted | Operand::Sink => 0,
            other => {
                return Err(Fault::Unsupported(format!("source operand {other:?}")));
            }
        })
    }

    /// Write a destination operand (a register or `_`).
    pub fn dst(&mut self, env: &Env<'_, '_>, op: &Operand, ty: Type, v: u64) -> Result<(), Fault> {
        match op {
            Operand::Reg(r) => {
                self.set_reg(env, *r, ty, v);
                Ok(())
            }
            Operand::Sink | Operand::Omitted => Ok(()),
            Operand::PredPair(p, _) => {
                self.set_reg(env, *p, Type::Pred, v);
                Ok(())
            }
            other => Err(Fault::Unsupported(format!("destination operand {other:?}"))),
        }
    }

    /// The space address of a variable: a body `.local` variable's is in the current
    /// activation's frame.
    pub fn var_addr(&self, env: &Env<'_, '_>, v: VarId) -> Result<u64, Fault> {
        match env.layout.frame_local.get(v.index()).copied().flatten() {
            Some(off) => Ok(self.frame().local_base + off),
            None => env.layout.var_addr(v),
        }
    }

    /// A new activation of `func` above the current one's `.local` variables.
    pub fn push_frame(&mut self, env: &Env<'_, '_>, mut frame: Frame) -> Result<(), Fault> {
        let base = match self.frames.last() {
            Some(f) => {
                let size = env
                    .layout
                    .frame_init
                    .get(f.func.index())
                    .map_or(0, Vec::len) as u64;
                (f.local_base + size).div_ceil(16) * 16
            }
            None => (self.local.len() as u64).div_ceil(16) * 16,
        };
        let init = env
            .layout
            .frame_init
            .get(frame.func.index())
            .cloned()
            .unwrap_or_default();
        let end = base as usize + init.len();
        if end > LOCAL_LIMIT {
            return Err(Fault::OutOfBounds {
                space: "local",
                addr: end as u64,
            });
        }
        if self.local.len() < end {
            self.local.resize(end, 0);
        }
        self.local[base as usize..end].copy_from_slice(&init);
        frame.local_base = base;
        self.frames.push(frame);
        Ok(())
    }

    pub fn special(&self, env: &Env<'_, '_>, reg: SpecialReg, index: u8) -> u64 {
        let cfg = env.cfg;
        let i = usize::from(index).min(2);
        let threads: u32 = cfg.block.iter().product();
        let lane = self.lane();
        match reg {
            SpecialReg::Tid => u64::from(self.tid[i]),
            SpecialReg::Ntid => u64::from(cfg.block[i]),
            SpecialReg::Ctaid => u64::from(env.ctaid[i]),
            SpecialReg::Nctaid => u64::from(cfg.grid[i]),
            SpecialReg::Laneid => u64::from(lane),
            SpecialReg::Warpid => u64::from(self.warp()),
            SpecialReg::Nwarpid => u64::from(threads.div_ceil(32)),
            SpecialReg::WarpSz => 32,
            SpecialReg::LanemaskEq => 1u64 << lane,
            SpecialReg::LanemaskLt => (1u64 << lane) - 1,
            SpecialReg::LanemaskLe => (1u64 << (lane + 1)) - 1,
            SpecialReg::LanemaskGt => u64::from(u32::MAX) & !((1u64 << (lane + 1)) - 1),
            SpecialReg::LanemaskGe => u64::from(u32::MAX) & !((1u64 << lane) - 1),
            SpecialReg::DynamicSmemSize => u64::from(cfg.dynamic_shared),
            // Machine-specific counters and ids: not compared by the differential test.
            _ => 0,
        }
    }
}
