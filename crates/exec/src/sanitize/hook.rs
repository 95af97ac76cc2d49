//! The per-CTA sanitizer: the executor calls [`StepHook::before`] for each instruction (after
//! its guard is evaluated, before it runs) and the CTA scheduler reports barrier arrivals and
//! completions.

use super::shadow::{ByteShadow, GlobalShadow, WarpShadow, Who};
use super::{Check, Finding, Key, Party, Sanitizer};
use crate::lanes::LANES;
use crate::memory::{CONST_WINDOW, LOCAL_WINDOW, PARAM_WINDOW, SHARED_WINDOW, WINDOW_BYTES};
use crate::program::{Addr, CallArg, Inst, Op, Space};
use crate::warp::{BarrierWait, Ctx, Warp};
use std::collections::BTreeMap;

/// Most global bytes one CTA's race shadow tracks (about 50 bytes of host memory each): a
/// CTA that touches more is checked on the first 4 Mi bytes it touches only.
const GLOBAL_SHADOW_BYTES: usize = 4 << 20;

/// Called by the warp loop before each instruction.
pub(crate) trait StepHook {
    fn before(&mut self, w: &Warp, ctx: &Ctx<'_>, inst: &Inst, mask: u32);
}

/// The hook of a normal run: nothing, compiled away.
pub(crate) struct NoHook;

impl StepHook for NoHook {
    #[inline(always)]
    fn before(&mut self, _: &Warp, _: &Ctx<'_>, _: &Inst, _: u32) {}
}

/// How an instruction touches memory.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Access {
    Read,
    Write,
    Atomic,
}

/// A barrier's first arrival in the current phase.
#[derive(Clone, Copy, Debug, Default)]
struct BarWatch {
    /// PC and thread of the first arrival.
    first: Option<(u32, Who)>,
}

/// The sanitizer state of the CTA a worker is running.
#[derive(Default)]
pub(crate) struct CtaSanitizer {
    shared: Vec<ByteShadow>,
    global: GlobalShadow,
    /// Barrier phase: incremented whenever a barrier completes.
    epoch: u32,
    warps: Vec<WarpShadow>,
    bars: [BarWatch; 16],
    ctaid: [u32; 3],
    ntid: [u32; 3],
    found: BTreeMap<Key, Finding>,
}

impl CtaSanitizer {
    /// Start CTA `ctaid` with `nwarps` warps and `shared_len` bytes of shared memory.
    pub fn reset(&mut self, ctx: &Ctx<'_>, ctaid: [u32; 3], nwarps: usize, shared_len: usize) {
        self.shared.clear();
        self.shared.resize(shared_len, ByteShadow::default());
        self.global.clear();
        self.epoch = 1;
        self.warps.resize_with(nwarps, WarpShadow::default);
        for w in &mut self.warps {
            w.reset(
                ctx.prog.n_r32 as usize,
                ctx.prog.n_r64 as usize,
                ctx.prog.n_pred as usize,
            );
        }
        self.bars = Default::default();
        self.ctaid = ctaid;
        self.ntid = ctx.ntid;
        self.found.clear();
    }

    /// Hand this CTA's findings to the launch's collector.
    pub fn flush(&mut self, san: &Sanitizer, cta_index: u64) {
        let found = std::mem::take(&mut self.found);
        san.merge(cta_index, found.into_iter().collect());
    }

    fn tid_of(&self, who: Who) -> [u32; 3] {
        let t = who.saturating_sub(1);
        let [x, y, _] = self.ntid.map(|n| n.max(1));
        [t % x, (t / x) % y, t / (x * y)]
    }

    fn party(&self, ctx: &Ctx<'_>, who: Who, pc: u32) -> Party {
        Party {
            ctaid: self.ctaid,
            tid: self.tid_of(who),
            line: line_of(ctx, pc),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn report(
        &mut self,
        ctx: &Ctx<'_>,
        check: Check,
        title: String,
        (pc, who): (u32, Who),
        other: Option<(u32, Who)>,
        place: Option<(u64, Space)>,
        detail: String,
    ) {
        let mut threads = vec![self.party(ctx, who, pc)];
        if let Some((opc, owho)) = other {
            threads.push(self.party(ctx, owho, opc));
        }
        let f = Finding {
            check,
            title,
            kernel: ctx.prog.kernel_name(ctx.kernel).to_string(),
            file: ctx.prog.file.clone(),
            line: line_of(ctx, pc),
            threads,
            address: place.map(|p| p.0),
            space: place.map(|p| p.1),
            detail,
            occurrences: 1,
        };
        let key = f.key(pc, other.map_or(u32::MAX, |o| o.0));
        self.found
            .entry(key)
            .and_modify(|old| old.occurrences += 1)
            .or_insert(f);
    }

    /// A warp stopped at barrier `b` (its `pc` is past the barrier instruction).
    pub fn arrive(&mut self, ctx: &Ctx<'_>, warps: &[Warp], wi: usize, b: BarrierWait) {
        let Some(w) = warps.get(wi) else { return };
        if !b.waits || b.count.is_some() {
            return;
        }
        let pc = w.pc.saturating_sub(1);
        let who = who_of(w, Warp::first_lane(b.mask) as usize);
        let Some(slot) = self.bars.get_mut((b.id & 15) as usize) else {
            return;
        };
        match slot.first {
            None => slot.first = Some((pc, who)),
            Some((fpc, fwho)) => {
                if fpc != pc {
                    self.report(
                        ctx,
                        Check::Synccheck,
                        "divergent barrier".into(),
                        (pc, who),
                        Some((fpc, fwho)),
                        None,
                        format!(
                            "threads of the CTA wait for barrier {} at different instructions \
                             (lines {} and {})",
                            b.id,
                            line_of(ctx, pc),
                            line_of(ctx, fpc)
                        ),
                    );
                }
            }
        }
    }

    /// Barriers `ids` (bit per barrier) completed: a new barrier phase begins.
    pub fn completed(&mut self, ids: u16) {
        if ids == 0 {
            return;
        }
        self.epoch = self.epoch.wrapping_add(1);
        for id in 0..16usize {
            if ids >> id & 1 != 0 {
                if let Some(slot) = self.bars.get_mut(id) {
                    *slot = BarWatch::default();
                }
            }
        }
    }

    fn registers(&mut self, w: &Warp, ctx: &Ctx<'_>, mask: u32) {
        let Some(u) = ctx.prog.sanitize.at(w.pc) else {
            return;
        };
        let Some(ws) = self.warps.get(w.warp_id as usize) else {
            return;
        };
        let mut bad = Vec::new();
        if let Some((p, _)) = u.guard {
            let un = w.active & !ws.written(crate::program::Reg::Pred(p));
            if un != 0 {
                bad.push((crate::program::Reg::Pred(p), un));
            }
        }
        for &r in u.reads.iter() {
            let un = mask & !ws.written(r);
            if un != 0 {
                bad.push((r, un));
            }
        }
        for (r, un) in bad {
            let lane = un.trailing_zeros() as usize;
            let name = ctx.prog.sanitize.name(r);
            let key_reg = match r {
                crate::program::Reg::R32(x) => x.0,
                crate::program::Reg::R64(x) => x.0 | 1 << 30,
                crate::program::Reg::Pred(x) => x.0 | 2 << 30,
            };
            let f = Finding {
                check: Check::Initcheck,
                title: "read of an uninitialised register".into(),
                kernel: ctx.prog.kernel_name(ctx.kernel).to_string(),
                file: ctx.prog.file.clone(),
                line: line_of(ctx, w.pc),
                threads: vec![self.party(ctx, who_of(w, lane), w.pc)],
                address: None,
                space: None,
                detail: format!(
                    "register {name} is read before any instruction wrote it ({} lanes of the warp)",
                    un.count_ones()
                ),
                occurrences: 1,
            };
            let key = f.key(w.pc, key_reg);
            self.found
                .entry(key)
                .and_modify(|old| old.occurrences += 1)
                .or_insert(f);
        }
        if let Some(ws) = self.warps.get_mut(w.warp_id as usize) {
            for &r in u.writes.iter() {
                ws.mark(r, mask);
            }
        }
    }

    /// A call: the callee's frame and register parameters count as written (the call
    /// machinery fills them; what the callee leaves unwritten is not tracked).
    fn call(&mut self, w: &Warp, ctx: &Ctx<'_>, op: &Op, mask: u32) {
        let (caller_frame, binds): (u32, Vec<&[CallArg]>) = match op {
            Op::Call {
                caller_frame, args, ..
            } => (*caller_frame, vec![args.as_slice()]),
            Op::CallIndirect {
                caller_frame,
                targets,
                ..
            } => (
                *caller_frame,
                targets.iter().map(|(_, a, _)| a.as_slice()).collect(),
            ),
            _ => return,
        };
        let lb = ctx.prog.local_bytes;
        let Some(ws) = self.warps.get_mut(w.warp_id as usize) else {
            return;
        };
        for args in binds {
            for a in args {
                if let CallArg::Reg { callee, .. } = *a {
                    ws.mark(callee, mask);
                }
            }
        }
        let mut m = mask;
        while m != 0 {
            let lane = m.trailing_zeros() as usize;
            m &= m - 1;
            let from = u64::from(w.frame[lane]) + u64::from(caller_frame);
            ws.local_write(lb, lane, from, u64::from(lb).saturating_sub(from));
        }
    }

    fn memory(&mut self, w: &Warp, ctx: &Ctx<'_>, inst: &Inst, mask: u32) {
        let (space, size, n, addr, access): (Space, u64, u64, &Addr, Access) = match &inst.op {
            Op::Ld {
                space, ty, n, addr, ..
            } => (*space, ty.bytes() as u64, *n as u64, addr, Access::Read),
            Op::St {
                space, ty, n, addr, ..
            } => (*space, ty.bytes() as u64, *n as u64, addr, Access::Write),
            Op::Atom {
                space, ty, addr, ..
            } => (*space, ty.bytes() as u64, 1, addr, Access::Atomic),
            Op::AtomCas128 { space, addr, .. } => (*space, 16, 1, addr, Access::Atomic),
            _ => return,
        };
        let addr64 = ctx.prog.addr64;
        let mut m = mask;
        while m != 0 {
            let lane = m.trailing_zeros() as usize;
            m &= m - 1;
            let a = w.lane_addr(addr, lane, addr64);
            for k in 0..n {
                let ea = a.wrapping_add(k * size);
                if !ea.is_multiple_of(size) {
                    // Misaligned: the executor faults with its own message.
                    continue;
                }
                self.access(w, ctx, lane, space, ea, size, access);
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn access(
        &mut self,
        w: &Warp,
        ctx: &Ctx<'_>,
        lane: usize,
        space: Space,
        ea: u64,
        size: u64,
        access: Access,
    ) {
        let pc = w.pc;
        let who = who_of(w, lane);
        let (space, off) = resolve(space, ea);
        let verb = match access {
            Access::Read => "read",
            Access::Write => "write",
            Access::Atomic => "atomic",
        };
        let oob = |what: String| {
            (
                format!("invalid {} {verb} of size {size}", space.name()),
                what,
            )
        };
        let bounds = |len: u64, what: &str| {
            let end = off.saturating_add(size);
            (end > len).then(|| {
                oob(format!(
                    "the {what} is {len} bytes; the access ends {} bytes past its end",
                    end - len
                ))
            })
        };
        let problem = match space {
            Space::Global | Space::Generic => {
                if ctx.global.find(off, size).is_some() {
                    None
                } else {
                    Some(oob(match ctx.global.nearest(off) {
                        Some((base, len)) if off >= base => format!(
                            "address is {} bytes after the end of the nearest allocation \
                             ({len} bytes at {base:#x})",
                            off.saturating_sub(base + len)
                        ),
                        Some((base, len)) => format!(
                            "address is {} bytes before the start of the nearest allocation \
                             ({len} bytes at {base:#x})",
                            base - off
                        ),
                        None => "there is no allocation".into(),
                    }))
                }
            }
            Space::Shared => bounds(self.shared.len() as u64, "CTA's shared memory"),
            Space::Local => bounds(u64::from(ctx.prog.local_bytes), "thread's local memory"),
            Space::Const => bounds(ctx.prog.const_bank.len() as u64, "constant bank"),
            Space::Param => bounds(ctx.params.len() as u64, "parameter space"),
        };
        if let Some((title, detail)) = problem {
            self.report(
                ctx,
                Check::Memcheck,
                title,
                (pc, who),
                None,
                Some((ea, space)),
                detail,
            );
            return;
        }
        match space {
            Space::Shared => {
                for b in off..off + size {
                    self.byte(ctx, pc, who, b, ea + (b - off), Space::Shared, access);
                }
            }
            Space::Global | Space::Generic => {
                for b in off..off + size {
                    self.byte(ctx, pc, who, b, b, Space::Global, access);
                }
            }
            Space::Local => {
                let lb = ctx.prog.local_bytes;
                let Some(ws) = self.warps.get_mut(w.warp_id as usize) else {
                    return;
                };
                if access == Access::Read && !ws.local_written(lb, lane, off, size) {
                    self.report(
                        ctx,
                        Check::Initcheck,
                        "read of uninitialised local memory".into(),
                        (pc, who),
                        None,
                        Some((ea, Space::Local)),
                        format!("the thread has not written all {size} bytes it reads"),
                    );
                } else {
                    ws.local_write(lb, lane, off, size);
                }
            }
            Space::Const | Space::Param => {}
        }
    }

    /// Race and initialisation checks of one byte (`at` = offset in its space's shadow,
    /// `ea` = the address the thread used, for the report).
    #[allow(clippy::too_many_arguments)]
    fn byte(
        &mut self,
        ctx: &Ctx<'_>,
        pc: u32,
        who: Who,
        at: u64,
        ea: u64,
        space: Space,
        access: Access,
    ) {
        let epoch = self.epoch;
        let s = match space {
            Space::Shared => match self.shared.get_mut(at as usize) {
                Some(s) => s,
                None => return,
            },
            _ => {
                // Bounded host memory: past the cap, bytes not yet seen are not tracked.
                let full = self.global.len() >= GLOBAL_SHADOW_BYTES;
                match self.global.entry(at) {
                    std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
                    std::collections::hash_map::Entry::Vacant(_) if full => return,
                    std::collections::hash_map::Entry::Vacant(e) => e.insert(ByteShadow::default()),
                }
            }
        };
        let warp = |x: Who| x.saturating_sub(1) / LANES as u32;
        let me = warp(who);
        let mut hazards: Vec<(&'static str, u32, Who)> = Vec::new();
        let mut uninit = false;
        match access {
            Access::Read => {
                if s.writer == 0 {
                    uninit = space == Space::Shared;
                } else if s.w_epoch == epoch && warp(s.writer) != me && !s.w_atomic {
                    hazards.push(("read-after-write hazard", s.w_pc, s.writer));
                }
                if s.r_epoch != epoch {
                    *s = ByteShadow {
                        r0: who,
                        r0_pc: pc,
                        r1: 0,
                        r1_pc: 0,
                        r_epoch: epoch,
                        ..*s
                    };
                } else if s.r1 == 0 && warp(s.r0) != me {
                    s.r1 = who;
                    s.r1_pc = pc;
                }
            }
            Access::Write | Access::Atomic => {
                let atomic = access == Access::Atomic;
                if s.writer != 0
                    && s.w_epoch == epoch
                    && warp(s.writer) != me
                    && !(atomic && s.w_atomic)
                {
                    hazards.push(("write-after-write hazard", s.w_pc, s.writer));
                }
                if s.r_epoch == epoch && !atomic {
                    if s.r0 != 0 && warp(s.r0) != me {
                        hazards.push(("write-after-read hazard", s.r0_pc, s.r0));
                    } else if s.r1 != 0 && warp(s.r1) != me {
                        hazards.push(("write-after-read hazard", s.r1_pc, s.r1));
                    }
                }
                s.writer = who;
                s.w_epoch = epoch;
                s.w_pc = pc;
                s.w_atomic = atomic;
            }
        }
        for (title, opc, owho) in hazards {
            self.report(
                ctx,
                Check::Racecheck,
                title.into(),
                (pc, who),
                Some((opc, owho)),
                Some((ea, space)),
                format!(
                    "threads of different warps access the byte with no barrier in between \
                     (the second thread shown accessed it at line {})",
                    line_of(ctx, opc)
                ),
            );
        }
        if uninit {
            self.report(
                ctx,
                Check::Initcheck,
                "read of uninitialised shared memory".into(),
                (pc, who),
                None,
                Some((ea, space)),
                "no thread of the CTA has written this byte".into(),
            );
        }
    }

    /// Collective or barrier executed by part of a warp before sm_70.
    fn convergence(&mut self, w: &Warp, ctx: &Ctx<'_>, op: &Op) {
        let what = match op {
            Op::Bar { .. } => "barrier",
            Op::Vote { member: None, .. } => "vote",
            Op::Shfl { member: None, .. } => "shfl",
            _ => return,
        };
        let sm = ctx.prog.sanitize.sm;
        let live = w.lanes & !w.exited;
        if sm >= 70 || w.active == live {
            return;
        }
        let missing = live & !w.active;
        let lane = w.active.trailing_zeros() as usize;
        let other = missing.trailing_zeros() as usize;
        let other_pc = w.lane_pc.get(other).copied().unwrap_or(w.pc);
        let title = if what == "barrier" {
            "barrier divergence inside a warp".to_string()
        } else {
            format!("divergent warp collective ({what})")
        };
        self.report(
            ctx,
            Check::Synccheck,
            title,
            (w.pc, who_of(w, lane)),
            Some((other_pc, who_of(w, other))),
            None,
            format!(
                "{} of the warp's {} running lanes execute it together; before sm_70 \
                 (.target sm_{sm}) a warp's threads must reach it converged (the second \
                 thread shown is at line {})",
                w.active.count_ones(),
                live.count_ones(),
                line_of(ctx, other_pc)
            ),
        );
    }
}

impl StepHook for CtaSanitizer {
    fn before(&mut self, w: &Warp, ctx: &Ctx<'_>, inst: &Inst, mask: u32) {
        self.registers(w, ctx, mask);
        match &inst.op {
            Op::Ld { .. } | Op::St { .. } | Op::Atom { .. } | Op::AtomCas128 { .. } => {
                self.memory(w, ctx, inst, mask)
            }
            Op::Call { .. } | Op::CallIndirect { .. } => self.call(w, ctx, &inst.op, mask),
            Op::Bar { .. } | Op::Vote { .. } | Op::Shfl { .. } => {
                self.convergence(w, ctx, &inst.op)
            }
            _ => {}
        }
    }
}

/// Linear thread index + 1 of a lane.
fn who_of(w: &Warp, lane: usize) -> Who {
    w.warp_id * LANES as u32 + (lane % LANES) as u32 + 1
}

fn line_of(ctx: &Ctx<'_>, pc: u32) -> u32 {
    ctx.prog.insts.get(pc as usize).map_or(0, |i| i.line)
}

/// The space and offset a (possibly generic) address lands in.
fn resolve(space: Space, addr: u64) -> (Space, u64) {
    if space != Space::Generic {
        return (space, addr);
    }
    for (s, base) in [
        (Space::Shared, SHARED_WINDOW),
        (Space::Local, LOCAL_WINDOW),
        (Space::Const, CONST_WINDOW),
        (Space::Param, PARAM_WINDOW),
    ] {
        if (base..base + WINDOW_BYTES).contains(&addr) {
            return (s, addr - base);
        }
    }
    (Space::Global, addr)
}
