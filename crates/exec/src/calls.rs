//! `call` and `ret`: per-lane call stacks, so lanes may sit at different call depths.
//!
//! Each thread's frame (its `.local` variables and the `.param` variables of a `.func`) lives
//! in its local memory at `frame[lane]`; a call places the callee's frame after the caller's.
//! Registers of a function that can recurse are saved per lane on call and restored on return.

use crate::error::FaultKind;
use crate::program::{CallArg, FuncInfo, Op, Reg};
use crate::step::for_lanes;
use crate::warp::{CallFrame, Ctx, LaneFault, Warp};

impl Warp {
    fn save_regs(&self, f: &FuncInfo, lane: usize) -> Vec<u64> {
        let mut v = Vec::with_capacity(f.regs32.len() + f.regs64.len() + f.preds.len());
        v.extend(f.regs32.iter().map(|r| self.r32[r.0 as usize][lane] as u64));
        v.extend(f.regs64.iter().map(|r| self.r64[r.0 as usize][lane]));
        v.extend(
            f.preds
                .iter()
                .map(|p| (self.pred[p.0 as usize] >> lane & 1) as u64),
        );
        v
    }

    fn restore_regs(&mut self, f: &FuncInfo, lane: usize, saved: &[u64]) {
        let mut it = saved.iter();
        for r in &f.regs32 {
            if let Some(&v) = it.next() {
                self.r32[r.0 as usize][lane] = v as u32;
            }
        }
        for r in &f.regs64 {
            if let Some(&v) = it.next() {
                self.r64[r.0 as usize][lane] = v;
            }
        }
        for p in &f.preds {
            if let Some(&v) = it.next() {
                self.set(Reg::Pred(*p), lane, v);
            }
        }
    }

    fn copy_local(&mut self, local_bytes: u32, lane: usize, from: u64, to: u64, size: u32) {
        let mut k = 0u64;
        while k < size as u64 {
            let v = self.local_load(local_bytes, lane, from + k, 1);
            self.local_store(local_bytes, lane, to + k, 1, v);
            k += 1;
        }
    }

    /// Push a frame for each lane of `mask` entering `func` with these argument bindings.
    fn enter(
        &mut self,
        ctx: &Ctx<'_>,
        func: u32,
        caller_frame: u32,
        args: &[CallArg],
        mask: u32,
    ) -> Result<u32, LaneFault> {
        let Some(f) = ctx.prog.funcs.get(func as usize) else {
            return Err(LaneFault {
                lane: Warp::first_lane(mask),
                kind: FaultKind::BadCallTarget { addr: func as u64 },
            });
        };
        let lb = ctx.prog.local_bytes;
        if self.calls.is_empty() {
            self.calls = vec![Vec::new(); crate::lanes::LANES];
        }
        let mut fault = None;
        for_lanes(mask, |lane| {
            if fault.is_some() {
                return;
            }
            let base = self.frame[lane];
            let new_base = base as u64 + caller_frame as u64;
            if new_base + f.frame_bytes as u64 > lb as u64 || self.calls[lane].len() >= 1 << 16 {
                fault = Some(LaneFault {
                    lane: lane as u32,
                    kind: FaultKind::StackOverflow,
                });
                return;
            }
            let vals: Vec<u64> = args
                .iter()
                .map(|a| match *a {
                    CallArg::Reg { caller, .. } => self.get(caller, lane),
                    CallArg::RegParam { reg, .. } => self.get(reg, lane),
                    CallArg::Param { .. } => 0,
                })
                .collect();
            // A fresh frame starts zeroed (reset only clears the kernel's own frame).
            let mut k = 0u64;
            while k < f.frame_bytes as u64 {
                self.local_store(lb, lane, new_base + k, 1, 0);
                k += 1;
            }
            let saved = if f.recursive {
                self.save_regs(f, lane)
            } else {
                Vec::new()
            };
            for (a, v) in args.iter().zip(vals) {
                match *a {
                    CallArg::Reg { callee, .. } => self.set(callee, lane, v),
                    CallArg::Param {
                        caller_off,
                        callee_off,
                        size,
                    } => self.copy_local(
                        lb,
                        lane,
                        base as u64 + caller_off as u64,
                        new_base + callee_off as u64,
                        size,
                    ),
                    CallArg::RegParam { off, size, .. } => {
                        self.local_store(lb, lane, new_base + off as u64, size as u64, v);
                    }
                }
            }
            self.calls[lane].push(CallFrame {
                call_pc: self.pc,
                func,
                frame_base: base,
                saved,
            });
            self.frame[lane] = new_base as u32;
        });
        match fault {
            Some(f) => Err(f),
            None => Ok(f.entry),
        }
    }

    pub(crate) fn exec_call(&mut self, ctx: &Ctx<'_>, op: &Op, mask: u32) -> Result<(), LaneFault> {
        match *op {
            Op::Call {
                func,
                caller_frame,
                ref args,
                ..
            } => {
                let entry = self.enter(ctx, func, caller_frame, args, mask)?;
                let rest = self.active & !mask;
                if rest != 0 {
                    self.diverge(rest, self.pc + 1);
                }
                self.pc = entry;
            }
            Op::CallIndirect {
                fptr,
                caller_frame,
                ref targets,
                listed,
            } => {
                // Lanes calling the first lane's target go now; lanes with other targets wait
                // at this call and take their turn when the scheduler returns to it.
                let first = Warp::first_lane(mask) as usize;
                let v = self.get(fptr, first);
                let fid = ir::func_at_addr(v);
                let Some((func, args, _)) = targets.iter().find(|t| Some(ir::FuncId(t.0)) == fid)
                else {
                    return Err(LaneFault {
                        lane: first as u32,
                        kind: match listed {
                            true => FaultKind::UnlistedCallTarget { addr: v },
                            false => FaultKind::BadCallTarget { addr: v },
                        },
                    });
                };
                let mut same = 0u32;
                for_lanes(mask, |l| {
                    if self.get(fptr, l) == v {
                        same |= 1 << l;
                    }
                });
                let entry = self.enter(ctx, *func, caller_frame, args, same)?;
                let later = mask & !same;
                let rest = self.active & !mask;
                if rest != 0 {
                    self.diverge(rest, self.pc + 1);
                }
                if later != 0 {
                    self.diverge(later, self.pc);
                }
                self.pc = entry;
            }
            _ => {}
        }
        Ok(())
    }

    pub(crate) fn exec_ret(&mut self, ctx: &Ctx<'_>, mask: u32) {
        let lb = ctx.prog.local_bytes;
        let mut exiting = 0u32;
        let mut returned = 0u32;
        for_lanes(mask, |lane| {
            let Some(frame) = self.calls.get_mut(lane).and_then(|s| s.pop()) else {
                exiting |= 1 << lane;
                return;
            };
            let func = &frame.func;
            let rets: &[CallArg] = match ctx.prog.insts.get(frame.call_pc as usize).map(|i| &i.op) {
                Some(Op::Call { rets, .. }) => rets,
                Some(Op::CallIndirect { targets, .. }) => targets
                    .iter()
                    .find(|t| t.0 == frame.func)
                    .map_or(&[][..], |t| t.2.as_slice()),
                _ => {
                    exiting |= 1 << lane;
                    return;
                }
            };
            let callee_base = self.frame[lane] as u64;
            let vals: Vec<u64> = rets
                .iter()
                .map(|a| match *a {
                    CallArg::Reg { callee, .. } => self.get(callee, lane),
                    CallArg::RegParam { off, size, .. } => {
                        self.local_load(lb, lane, callee_base + off as u64, size as u64)
                    }
                    CallArg::Param { .. } => 0,
                })
                .collect();
            for a in rets.iter() {
                if let CallArg::Param {
                    caller_off,
                    callee_off,
                    size,
                } = *a
                {
                    self.copy_local(
                        lb,
                        lane,
                        callee_base + callee_off as u64,
                        frame.frame_base as u64 + caller_off as u64,
                        size,
                    );
                }
            }
            if let Some(f) = ctx.prog.funcs.get(*func as usize) {
                if f.recursive {
                    self.restore_regs(f, lane, &frame.saved);
                }
            }
            for (a, v) in rets.iter().zip(vals) {
                match *a {
                    CallArg::Reg { caller, .. } => self.set(caller, lane, v),
                    CallArg::RegParam { reg, .. } => self.set(reg, lane, v),
                    CallArg::Param { .. } => {}
                }
            }
            self.frame[lane] = frame.frame_base;
            self.lane_pc[lane] = frame.call_pc + 1;
            returned |= 1 << lane;
        });
        self.exit_lanes(exiting);
        if returned != 0 {
            self.active &= !returned;
            self.waiting |= returned;
            for_lanes(returned, |lane| {
                self.min_wait = self.min_wait.min(self.lane_pc[lane]);
            });
        }
        if self.active != 0 {
            self.pc += 1;
        }
    }
}
