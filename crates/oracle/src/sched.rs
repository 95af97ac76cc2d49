//! The CTA scheduler and the per-thread step: threads run one at a time until they wait or
//! exit; waiting barriers and collectives complete when every thread they need has arrived.

use crate::alu::Cx;
use crate::layout::Layout;
use crate::memops::CtaMem;
use crate::thread::{Env, Frame, RetDst, State, Thread};
use crate::{Fault, Launch, Memory};
use ir::{Opcode as Oc, Operand, Param, Type};
use std::collections::HashMap;

/// Whether `op` needs other threads before it can complete.
pub(crate) fn is_collective(op: Oc) -> bool {
    matches!(
        op,
        Oc::Vote
            | Oc::Shfl
            | Oc::Match
            | Oc::Redux
            | Oc::Activemask
            | Oc::Bar
            | Oc::Barrier
            | Oc::Elect
            | Oc::Mma
            | Oc::Ldmatrix
            | Oc::Stmatrix
            | Oc::Movmatrix
            | Oc::Wmma
    )
}

pub(crate) fn run_cta(
    layout: &Layout<'_>,
    cfg: &Launch,
    ctaid: [u32; 3],
    mem: &mut Memory,
) -> Result<(), Fault> {
    let [bx, by, bz] = cfg.block;
    let n = bx * by * bz;
    let kfunc = layout
        .module
        .function(layout.kernel)
        .ok_or_else(|| Fault::Launch("no kernel".into()))?;
    let mut threads: Vec<Thread> = (0..n)
        .map(|linear| Thread {
            tid: [linear % bx, linear / bx % by, linear / (bx * by)],
            linear,
            frames: Vec::new(),
            carry: false,
            local: layout.local_init.clone(),
            state: State::Running,
            steps: 0,
            arrival: 0,
        })
        .collect();
    let mut shared = layout.shared_static.clone();
    shared.resize(
        layout.dynamic_base as usize + cfg.dynamic_shared as usize,
        0,
    );
    let env = Env {
        layout,
        cfg,
        ctaid,
        arrivals: std::cell::Cell::new(0),
    };
    for t in threads.iter_mut() {
        t.push_frame(
            &env,
            Frame {
                func: layout.kernel,
                regs: vec![0; kfunc.regs.len()],
                pc: 0,
                params: HashMap::new(),
                ret_to: Vec::new(),
                local_base: 0,
            },
        )?;
    }
    loop {
        for t in threads.iter_mut() {
            while t.state == State::Running {
                let mut m = CtaMem {
                    global: mem,
                    shared: &mut shared,
                };
                step(t, &env, &mut m, cfg.max_steps)?;
            }
        }
        if threads.iter().all(|t| t.state == State::Exited) {
            return Ok(());
        }
        // Threads that gave way at an mbarrier wait run again after the collectives had
        // their chance; while any does, nothing is deadlocked.
        let mut yielded = false;
        for t in threads.iter_mut().filter(|t| t.state == State::Yielded) {
            t.state = State::Running;
            yielded = true;
        }
        let mut m = CtaMem {
            global: mem,
            shared: &mut shared,
        };
        if !crate::warp::complete_one(&mut threads, &env, &mut m)? && !yielded {
            let waiting: Vec<String> = threads
                .iter()
                .filter(|t| t.state == State::Waiting)
                .take(4)
                .map(|t| format!("thread {} at instruction {}", t.linear, t.frame().pc))
                .collect();
            return Err(Fault::Deadlock(waiting.join(", ")));
        }
    }
}

/// Run one instruction of `t` (or mark it waiting at a collective).
fn step(
    t: &mut Thread,
    env: &Env<'_, '_>,
    m: &mut CtaMem<'_>,
    max_steps: u64,
) -> Result<(), Fault> {
    let module = env.layout.module;
    let f = module
        .function(t.frame().func)
        .ok_or_else(|| Fault::Launch("bad function".into()))?;
    let pc = t.frame().pc;
    let Some(i) = f.insts().get(pc) else {
        // Falling off the end returns.
        return ret(t, env);
    };
    t.steps += 1;
    if t.steps > max_steps {
        return Err(Fault::StepBudget);
    }
    if let Some(g) = i.guard {
        let p = t.reg(g.reg) & 1 == 1;
        if p == g.negated {
            t.frame_mut().pc += 1;
            return Ok(());
        }
    }
    if is_collective(i.op) || (i.op == Oc::Bar && i.mods.has(ir::Flag::Warp)) {
        t.state = State::Waiting;
        t.arrival = env.arrivals.get();
        env.arrivals.set(t.arrival + 1);
        return Ok(());
    }
    match i.op {
        Oc::Bra => {
            let Some(Operand::Label(l)) = i.operands.first() else {
                return Err(crate::fault::unsupported(i));
            };
            t.frame_mut().pc = l.index();
            return Ok(());
        }
        Oc::Brx => {
            let idx = t.src(
                env,
                i.operands.first().unwrap_or(&Operand::Omitted),
                Type::U32,
            )?;
            let Some(Operand::TargetList(ts)) = i.operands.get(1) else {
                return Err(crate::fault::unsupported(i));
            };
            let to = ts.get(idx as usize).ok_or(Fault::BranchIndex(idx))?;
            t.frame_mut().pc = to.index();
            return Ok(());
        }
        Oc::Exit => {
            t.state = State::Exited;
            return Ok(());
        }
        Oc::Ret => return ret(t, env),
        Oc::Trap => return Err(Fault::Trap),
        Oc::Call => return call(t, env, i),
        Oc::Brkpt | Oc::Nanosleep | Oc::Pmevent => {
            t.frame_mut().pc += 1;
            return Ok(());
        }
        _ => {}
    }
    let mut cx = Cx { t, env, i };
    let done = match i.op {
        Oc::Cvt => crate::cvt::exec(&mut cx).map(|_| true)?,
        _ => {
            crate::video::exec(&mut cx)?
                || crate::float::exec(&mut cx)?
                || crate::alu::exec(&mut cx)?
                || crate::mbarrier::exec(&mut cx, m)?
                || crate::memops::exec(&mut cx, m)?
                || crate::tex::exec(&mut cx)?
        }
    };
    if !done {
        return Err(crate::fault::unsupported(i));
    }
    cx.t.frame_mut().pc += 1;
    Ok(())
}

fn arg_bytes(t: &Thread, env: &Env<'_, '_>, a: &Operand, size: u64) -> Result<Vec<u8>, Fault> {
    match a {
        Operand::VarAddr { var, .. } => Ok(t
            .frame()
            .params
            .get(var)
            .cloned()
            .unwrap_or_else(|| vec![0; size as usize])),
        other => {
            let v = t.src(env, other, Type::B64)?;
            let mut b = v.to_le_bytes().to_vec();
            b.resize(size as usize, 0);
            Ok(b)
        }
    }
}

fn call(t: &mut Thread, env: &Env<'_, '_>, i: &ir::Inst) -> Result<(), Fault> {
    let module = env.layout.module;
    let named = |n: &str| {
        i.form
            .operands
            .iter()
            .position(|o| o.name == n)
            .and_then(|k| i.operands.get(k))
    };
    let list = |o: Option<&Operand>| match o {
        Some(Operand::List(l)) => l.to_vec(),
        _ => Vec::new(),
    };
    let callee = match named("fname").or_else(|| named("fptr")) {
        Some(Operand::Func(f)) => *f,
        Some(other) => {
            // An indirect call may reach any defined `.func` with the call's parameter
            // and result counts (the executor's rule, docs/spec-notes.md); anything else
            // is a bad call target.
            let a = t.src(env, other, Type::U64)?;
            let (np, nr) = (list(named("params")).len(), list(named("ret")).len());
            // With an flist, only the functions it lists (PTX ISA §9.7.12.5).
            let flist = i.operands.iter().find_map(|o| match o {
                Operand::CallTargets(fs) => Some(fs),
                _ => None,
            });
            crate::layout::func_at(&env.cfg.windows, a)
                .filter(|f| flist.is_none_or(|l| l.contains(f)))
                .filter(|f| {
                    module.function(*f).is_some_and(|f| {
                        f.kind == ir::FuncKind::Func
                            && f.body.is_some()
                            && f.params.len() == np
                            && f.rets.len() == nr
                    })
                })
                .ok_or(Fault::BadCallTarget(a))?
        }
        None => return Err(crate::fault::unsupported(i)),
    };
    let f = module
        .function(callee)
        .ok_or_else(|| Fault::Launch("call to an unknown function".into()))?;
    if f.body.is_none() {
        return Err(Fault::Unsupported(format!(
            "call of `{}` without a body",
            f.name
        )));
    }
    let args = list(named("params"));
    let rets = list(named("ret"));
    let mut frame = Frame {
        func: callee,
        regs: vec![0; f.regs.len()],
        pc: 0,
        params: HashMap::new(),
        ret_to: Vec::new(),
        local_base: 0,
    };
    for (p, a) in f.params.iter().zip(&args) {
        match *p {
            Param::Var(v) => {
                let size = env.layout.var(v).size;
                frame.params.insert(v, arg_bytes(t, env, a, size)?);
            }
            Param::Reg(r) => {
                let ty = f.reg(r).map(|r| r.ty).unwrap_or(Type::B64);
                let v = match a {
                    Operand::VarAddr { var, .. } => {
                        crate::memory::le(t.frame().params.get(var).map_or(&[][..], |b| b)) as u64
                    }
                    o => t.src(env, o, ty)?,
                };
                if let Some(s) = frame.regs.get_mut(r.index()) {
                    *s = v;
                }
            }
        }
    }
    for (p, d) in f.rets.iter().zip(&rets) {
        let dst = match d {
            Operand::Reg(r) => RetDst::Reg(*r),
            Operand::VarAddr { var, .. } => RetDst::Var(*var),
            _ => RetDst::None,
        };
        frame.ret_to.push((*p, dst));
    }
    t.frame_mut().pc += 1;
    t.push_frame(env, frame)
}

fn ret(t: &mut Thread, env: &Env<'_, '_>) -> Result<(), Fault> {
    let done = t
        .frames
        .pop()
        .ok_or(Fault::Launch("return without a frame".into()))?;
    if t.frames.is_empty() {
        t.state = State::Exited;
        return Ok(());
    }
    let module = env.layout.module;
    let callee = module.function(done.func);
    for (p, dst) in &done.ret_to {
        let (bytes, val) = match *p {
            Param::Var(v) => {
                let b = done
                    .params
                    .get(&v)
                    .cloned()
                    .unwrap_or_else(|| vec![0; env.layout.var(v).size as usize]);
                let val = crate::memory::le(&b[..b.len().min(8)]) as u64;
                (b, val)
            }
            Param::Reg(r) => {
                let v = done.regs.get(r.index()).copied().unwrap_or(0);
                let size = callee
                    .and_then(|f| f.reg(r))
                    .map_or(8, |r| u64::from(r.ty.size_bits().div_ceil(8)));
                let mut b = v.to_le_bytes().to_vec();
                b.resize(size as usize, 0);
                (b, v)
            }
        };
        match *dst {
            RetDst::Reg(r) => {
                let ty = module
                    .function(t.frame().func)
                    .and_then(|f| f.reg(r))
                    .map_or(Type::B64, |r| r.ty);
                t.set_reg(env, r, ty, val);
            }
            RetDst::Var(v) => {
                t.frame_mut().params.insert(v, bytes);
            }
            RetDst::None => {}
        }
    }
    Ok(())
}
