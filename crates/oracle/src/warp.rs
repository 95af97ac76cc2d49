//! Completing what waits: warp collectives once every thread they need has arrived, barriers
//! once their count is reached.

use crate::alu::Cx;
use crate::memops::CtaMem;
use crate::thread::{Env, State, Thread};
use crate::Fault;
use ir::{Flag, Opcode as Oc, Operand, Type};

/// Where a waiting thread waits: call depth, function and instruction.
fn site(t: &Thread) -> (usize, u32, usize) {
    (t.frames.len(), t.frame().func.0, t.frame().pc)
}

fn inst<'m>(t: &Thread, env: &Env<'_, 'm>) -> Option<&'m ir::Inst> {
    env.layout
        .module
        .function(t.frame().func)?
        .insts()
        .get(t.frame().pc)
}

/// Complete one waiting group; `Ok(false)` when none can complete.
pub(crate) fn complete_one(
    threads: &mut [Thread],
    env: &Env<'_, '_>,
    m: &mut CtaMem<'_>,
) -> Result<bool, Fault> {
    let n = threads.len();
    let mut stuck_members = false;
    for k in 0..n {
        if threads[k].state != State::Waiting {
            continue;
        }
        let Some(i) = inst(&threads[k], env) else {
            continue;
        };
        let s = site(&threads[k]);
        let group: Vec<usize> = if matches!(i.op, Oc::Bar | Oc::Barrier) && !i.mods.has(Flag::Warp)
        {
            // A CTA barrier: every thread waiting at a barrier with the same id.
            let id = barrier_id(&threads[k], env, i)?;
            let mut members: Vec<usize> = (0..n)
                .filter(|&j| {
                    threads[j].state == State::Waiting
                        && inst(&threads[j], env).is_some_and(|x| {
                            matches!(x.op, Oc::Bar | Oc::Barrier)
                                && !x.mods.has(Flag::Warp)
                                && barrier_id(&threads[j], env, x).ok() == Some(id)
                        })
                })
                .collect();
            let alive = threads.iter().filter(|t| t.state != State::Exited).count();
            let expected = match barrier_count(&threads[k], env, i)? {
                Some(c) => c as usize,
                None => alive,
            };
            if members.len() < expected.min(alive) {
                continue;
            }
            // Barriers count whole warps (docs/spec-notes.md, "Execution"): warps join in the
            // order their threads arrived, each with all its threads waiting here, until the
            // count is reached; later warps wait for the barrier's next instance.
            let mut by_arrival = members.clone();
            by_arrival.sort_by_key(|&j| threads[j].arrival);
            let mut warps: Vec<u32> = Vec::new();
            let mut count = 0;
            for &j in &by_arrival {
                let w = threads[j].warp();
                if count >= expected.max(1) {
                    break;
                }
                if !warps.contains(&w) {
                    warps.push(w);
                    count += members.iter().filter(|&&x| threads[x].warp() == w).count();
                }
            }
            members.retain(|&j| warps.contains(&threads[j].warp()));
            members
        } else {
            // A warp collective: every live thread of the warp must be waiting somewhere; the
            // group is the threads waiting at this same instruction.
            let w = threads[k].warp();
            let warp: Vec<usize> = (0..n).filter(|&j| threads[j].warp() == w).collect();
            if warp.iter().any(|&j| threads[j].state == State::Running) {
                continue;
            }
            let group: Vec<usize> = warp
                .iter()
                .copied()
                .filter(|&j| threads[j].state == State::Waiting && site(&threads[j]) == s)
                .collect();
            if !check_members(threads, &group, &warp, env, i)? {
                // A member waits elsewhere: another group may complete first and free it.
                stuck_members = true;
                continue;
            }
            group
        };
        run_group(threads, &group, env, m, i)?;
        for &j in &group {
            threads[j].state = State::Running;
            threads[j].frame_mut().pc += 1;
        }
        return Ok(true);
    }
    if stuck_members {
        return Err(Fault::Membermask(
            "threads of one membermask wait at different instructions".into(),
        ));
    }
    Ok(false)
}

/// A `.sync` collective completes over the threads that arrived; each must be in its own
/// membermask, all must give the same one, and a live lane of the mask waiting elsewhere can
/// never arrive while it waits there (PTX ISA: each thread waits "until all non-exited threads
/// corresponding to membermask have executed" the instruction): `Ok(false)` then.
fn check_members(
    threads: &[Thread],
    group: &[usize],
    warp: &[usize],
    env: &Env<'_, '_>,
    i: &ir::Inst,
) -> Result<bool, Fault> {
    let Some(k) = i.form.operands.iter().position(|o| o.name == "membermask") else {
        return Ok(true);
    };
    let op = i.operands.get(k).unwrap_or(&Operand::Omitted);
    let mut mask = None;
    for &j in group {
        let m = threads[j].src(env, op, Type::B32)? as u32;
        if m >> threads[j].lane() & 1 == 0 {
            return Err(Fault::Membermask(format!(
                "thread {} is not in its membermask {m:#010x}",
                threads[j].linear
            )));
        }
        if mask.is_some_and(|x| x != m) {
            return Err(Fault::Membermask(format!(
                "threads give different membermasks ({m:#010x} and {:#010x})",
                mask.unwrap_or(0)
            )));
        }
        mask = Some(m);
    }
    let m = mask.unwrap_or(0);
    for &j in warp {
        let t = &threads[j];
        if m >> t.lane() & 1 == 1 && t.state == State::Waiting && !group.contains(&j) {
            return Ok(false);
        }
    }
    Ok(true)
}

fn barrier_id(t: &Thread, env: &Env<'_, '_>, i: &ir::Inst) -> Result<u64, Fault> {
    let k = usize::from(
        i.mods.has(Flag::Red) && i.form.operands.first().is_some_and(|o| o.name != "a"),
    );
    t.src(
        env,
        i.operands.get(k).unwrap_or(&Operand::Imm(0)),
        Type::U32,
    )
}

fn barrier_count(t: &Thread, env: &Env<'_, '_>, i: &ir::Inst) -> Result<Option<u64>, Fault> {
    let k = i.form.operands.iter().position(|o| o.name == "b");
    match k.and_then(|k| i.operands.get(k)) {
        None | Some(Operand::Omitted) => Ok(None),
        Some(op) => t.src(env, op, Type::U32).map(Some),
    }
}

/// Compute the results of a completed collective for the threads of `group` (lane order).
fn run_group(
    threads: &mut [Thread],
    group: &[usize],
    env: &Env<'_, '_>,
    _m: &mut CtaMem<'_>,
    i: &ir::Inst,
) -> Result<(), Fault> {
    let named = |name: &str| i.form.operands.iter().position(|o| o.name == name);
    let src = |t: &Thread, k: usize, ty: Type| -> Result<u64, Fault> {
        let cx_ty = i
            .form
            .operands
            .get(k)
            .and_then(|o| isa::resolve_type_ref(o.ty, &i.types, &i.mods))
            .unwrap_or(ty);
        t.src(env, i.operands.get(k).unwrap_or(&Operand::Omitted), cx_ty)
    };
    let lanes_mask: u32 = group.iter().fold(0, |m, &j| m | 1 << threads[j].lane());
    match i.op {
        Oc::Vote => {
            let a = named("a").unwrap_or(1);
            let mut ballot = 0u32;
            for &j in group {
                if src(&threads[j], a, Type::Pred)? & 1 == 1 {
                    ballot |= 1 << threads[j].lane();
                }
            }
            let r = match i.mods.vote_mode {
                Some(isa::VoteMode::Ballot) => u64::from(ballot),
                Some(isa::VoteMode::All) => u64::from(ballot == lanes_mask),
                Some(isa::VoteMode::Any) => u64::from(ballot != 0),
                Some(isa::VoteMode::Uni) => u64::from(ballot == lanes_mask || ballot == 0),
                None => return Err(crate::fault::unsupported(i)),
            };
            put_all(threads, group, env, i, r)
        }
        Oc::Activemask => put_all(threads, group, env, i, u64::from(lanes_mask)),
        Oc::Redux => {
            let a = named("src").unwrap_or(1);
            let op = redux_op(i).ok_or_else(|| crate::fault::unsupported(i))?;
            let mut vals = Vec::with_capacity(group.len());
            for &j in group {
                vals.push(src(&threads[j], a, Type::B32)? as u32);
            }
            let acc = ops::warp::redux(op, vals);
            put_all(threads, group, env, i, u64::from(acc.unwrap_or(0)))
        }
        Oc::Shfl => {
            let mode = match i.mods.shfl_mode {
                Some(isa::ShflMode::Up) => ops::warp::ShflMode::Up,
                Some(isa::ShflMode::Down) => ops::warp::ShflMode::Down,
                Some(isa::ShflMode::Bfly) => ops::warp::ShflMode::Bfly,
                Some(isa::ShflMode::Idx) => ops::warp::ShflMode::Idx,
                None => return Err(crate::fault::unsupported(i)),
            };
            // A source lane outside the group (undefined in the spec) gives its register as it
            // stands, as on the executor (docs/spec-notes.md).
            let mut vals = [0u64; 32];
            let (w, func) = match group.first() {
                Some(&g) => (threads[g].warp(), threads[g].frame().func),
                None => return Ok(()),
            };
            for t in threads.iter() {
                let same_code = t.frames.last().is_some_and(|f| f.func == func);
                if t.warp() == w && same_code {
                    vals[t.lane() as usize] = src(t, 1, Type::B32)?;
                }
            }
            let mut out = Vec::new();
            for &j in group {
                let t = &threads[j];
                let (b, c) = (src(t, 2, Type::B32)? as u32, src(t, 3, Type::B32)? as u32);
                let (from, ok) = ops::warp::shfl_source(mode, t.lane(), b, c);
                out.push((vals[from as usize % 32], ok));
            }
            for (&j, (v, ok)) in group.iter().zip(out) {
                let t = &mut threads[j];
                match i.operands.first() {
                    Some(Operand::PredPair(d, p)) => {
                        t.set_reg(env, *d, Type::B32, v);
                        if let Some(p) = p {
                            t.set_reg(env, *p, Type::Pred, u64::from(ok));
                        }
                    }
                    Some(d) => t.dst(env, d, Type::B32, v)?,
                    None => {}
                }
            }
            Ok(())
        }
        Oc::Match => {
            let ty = i.ty().unwrap_or(Type::B32);
            let mut vals = Vec::new();
            for &j in group {
                vals.push((threads[j].lane(), src(&threads[j], 1, ty)?));
            }
            let all = vals.iter().all(|v| v.1 == vals[0].1);
            let any_mode = i.form.syntax.starts_with("match.any");
            for (&j, &(_, v)) in group.iter().zip(&vals) {
                let same: u32 = vals
                    .iter()
                    .filter(|x| x.1 == v)
                    .fold(0, |m, x| m | 1 << x.0);
                let d = if any_mode {
                    same
                } else if all {
                    lanes_mask
                } else {
                    0
                };
                let t = &mut threads[j];
                match i.operands.first() {
                    Some(Operand::PredPair(dr, p)) => {
                        t.set_reg(env, *dr, Type::B32, u64::from(d));
                        if let Some(p) = p {
                            t.set_reg(env, *p, Type::Pred, u64::from(all));
                        }
                    }
                    Some(dr) => t.dst(env, dr, Type::B32, u64::from(d))?,
                    None => {}
                }
            }
            Ok(())
        }
        Oc::Bar | Oc::Barrier if i.mods.has(Flag::Red) => {
            let c = named("c").ok_or_else(|| crate::fault::unsupported(i))?;
            let mut count = 0u64;
            let mut all = true;
            let mut any = false;
            for &j in group {
                let p = src(&threads[j], c, Type::Pred)? & 1 == 1;
                count += u64::from(p);
                all &= p;
                any |= p;
            }
            let r = if i.mods.has(Flag::Popc) {
                count
            } else {
                match i.mods.bool_op {
                    Some(isa::BoolOp::And) => u64::from(all),
                    Some(isa::BoolOp::Or) => u64::from(any),
                    _ => return Err(crate::fault::unsupported(i)),
                }
            };
            put_all(threads, group, env, i, r)
        }
        Oc::Bar | Oc::Barrier => Ok(()),
        Oc::Elect => {
            // The leader is the lowest lane that executes it (docs/spec-notes.md).
            let leader = lanes_mask.trailing_zeros();
            for &j in group {
                let t = &mut threads[j];
                if let Some(Operand::PredPair(d, p)) = i.operands.first() {
                    t.set_reg(env, *d, Type::B32, u64::from(leader));
                    if let Some(p) = p {
                        t.set_reg(env, *p, Type::Pred, u64::from(t.lane() == leader));
                    }
                }
            }
            Ok(())
        }
        Oc::Mma | Oc::Ldmatrix | Oc::Stmatrix | Oc::Movmatrix => {
            crate::matrix::run_matrix(threads, group, env, _m, i)
        }
        Oc::Wmma => crate::wmma::run_wmma(threads, group, env, _m, i),
        _ => Err(crate::fault::unsupported(i)),
    }
}

fn redux_op(i: &ir::Inst) -> Option<ops::warp::ReduxOp> {
    use ops::warp::ReduxOp as R;
    let signed = i.ty().is_some_and(|t| t.is_signed());
    let (abs, nan) = (i.mods.has(ir::Flag::Abs), i.mods.has(ir::Flag::NaN));
    let float = i.ty() == Some(Type::F32);
    Some(match i.mods.atom_op? {
        isa::AtomOp::Min if float => R::MinF32 { abs, nan },
        isa::AtomOp::Max if float => R::MaxF32 { abs, nan },
        isa::AtomOp::Add => R::Add,
        isa::AtomOp::Min if signed => R::MinS,
        isa::AtomOp::Min => R::MinU,
        isa::AtomOp::Max if signed => R::MaxS,
        isa::AtomOp::Max => R::MaxU,
        isa::AtomOp::And => R::And,
        isa::AtomOp::Or => R::Or,
        isa::AtomOp::Xor => R::Xor,
        _ => return None,
    })
}

fn put_all(
    threads: &mut [Thread],
    group: &[usize],
    env: &Env<'_, '_>,
    i: &ir::Inst,
    v: u64,
) -> Result<(), Fault> {
    for &j in group {
        let t = &mut threads[j];
        let mut cx = Cx { t, env, i };
        cx.put(0, v)?;
    }
    Ok(())
}
