//! CTA scheduling (warps run cooperatively until a barrier or exit) and the grid launch
//! (CTAs in parallel on a local rayon pool).

use crate::error::{Access, BarrierWaiter, ExecError, Fault, FaultKind};
use crate::lanes::LANES;
use crate::program::{BarKind, Inst, Op};
use crate::sanitize::hook::CtaSanitizer;
use crate::spin::SpinWatch;
use crate::step::for_lanes;
use crate::warp::{Ctx, LaneFault, Stop, Warp};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// Largest number of threads in one CTA (the limit of every GPU since Fermi).
pub const MAX_CTA_THREADS: u64 = 1024;
/// Instructions a warp runs before a taken backward branch hands over to the CTA's next warp
/// (round robin). Long enough that loops of ordinary kernels never switch mid-way; results of
/// race-free kernels do not depend on it.
pub const WARP_QUANTUM: u64 = 1 << 12;
/// Most threads one grid may have (CTAs times threads per CTA): 2^40, about a day of work at
/// this executor's speed; a larger grid is almost certainly a mistake in the launch.
pub const MAX_GRID_THREADS: u64 = 1 << 40;
/// Largest dynamic + static shared memory per CTA.
pub const MAX_SHARED_BYTES: u64 = 16 << 20;

/// Reusable per-worker state: warps and the CTA's shared memory.
pub struct CtaRunner {
    warps: Vec<Warp>,
    shared: Vec<u8>,
    /// The sanitizer's shadow state, created on the first CTA of a sanitized launch.
    san: Option<Box<CtaSanitizer>>,
    spin: SpinWatch,
}

#[derive(Clone, Copy, Default)]
struct BarState {
    arrived: u32,
    /// The thread count the arrivals named (`None`: every live thread). Kept here rather than
    /// read from a waiting warp, so arrive-only warps (`bar.arrive a, b`) can complete a use
    /// that no warp waits at (PTX `bar`: a completed barrier "is reinitialized so that it can
    /// be immediately reused").
    count: Option<u32>,
    popc: u32,
    all: bool,
    any: bool,
    used: bool,
}

impl CtaRunner {
    pub fn new() -> CtaRunner {
        CtaRunner {
            warps: Vec::new(),
            shared: Vec::new(),
            san: None,
            spin: SpinWatch::default(),
        }
    }

    fn fault(ctx: &Ctx<'_>, w: &Warp, pc: u32, lf: LaneFault) -> Fault {
        let lane = (lf.lane as usize) % LANES;
        let inst = ctx.prog.insts.get(pc as usize);
        Fault {
            kernel: ctx.prog.kernel_name(ctx.kernel).to_string(),
            file: ctx.prog.file.clone(),
            line: inst.map_or(0, |i| i.line),
            ctaid: w.ctaid,
            tid: [w.tid[0][lane], w.tid[1][lane], w.tid[2][lane]],
            access: lf.kind.location().and_then(|_| access_of(inst?)),
            kind: lf.kind,
        }
    }

    /// Run one CTA to completion; returns the thread-instructions it executed. `Err(None)`
    /// when `abandon` said to stop (a lower-numbered CTA faulted). With `--sanitize`, the
    /// CTA's findings are handed to the launch's collector however the CTA ends.
    pub fn run(
        &mut self,
        ctx: &Ctx<'_>,
        ctaid: [u32; 3],
        watch: &Watch<'_>,
        abandon: &dyn Fn() -> bool,
    ) -> Result<u64, Option<Fault>> {
        let r = self.run_cta(ctx, ctaid, watch, abandon);
        if let (Some(san), Some(s)) = (ctx.sanitize, self.san.as_deref_mut()) {
            let [gx, gy, _] = ctx.nctaid.map(u64::from);
            let [x, y, z] = ctaid.map(u64::from);
            s.flush(ctx, san, x + gx * (y + gy * z));
        }
        r
    }

    fn run_cta(
        &mut self,
        ctx: &Ctx<'_>,
        ctaid: [u32; 3],
        watch: &Watch<'_>,
        abandon: &dyn Fn() -> bool,
    ) -> Result<u64, Option<Fault>> {
        let nthreads = ctx.ntid.iter().map(|&x| x as u64).product::<u64>();
        let nwarps = nthreads.div_ceil(LANES as u64) as usize;
        while self.warps.len() < nwarps {
            self.warps.push(Warp::new(ctx.prog));
        }
        let entry = ctx
            .prog
            .funcs
            .get(ctx.kernel.func as usize)
            .map_or(0, |f| f.entry);
        let kernel_frame = ctx
            .prog
            .funcs
            .get(ctx.kernel.func as usize)
            .map_or(0, |f| f.frame_bytes);
        let live_local = ctx.prog.frame0.saturating_add(kernel_frame);
        for (i, w) in self.warps.iter_mut().take(nwarps).enumerate() {
            w.reset(i as u32, ctx.ntid, entry, ctx.prog.frame0, live_local);
            w.ctaid = ctaid;
        }
        self.shared.clear();
        self.shared.resize(
            ctx.kernel.shared_bytes as usize + ctx.shared_bytes as usize,
            0,
        );
        if ctx.sanitize.is_some() {
            self.san
                .get_or_insert_with(Box::default)
                .reset(ctx, ctaid, nwarps, self.shared.len());
        }
        self.spin.reset(nwarps);
        let mut san = ctx.sanitize.and(self.san.as_deref_mut());
        let warps = &mut self.warps[..nwarps];
        let mut bars = [BarState::default(); 16];
        loop {
            let mut progressed = false;
            for i in 0..nwarps {
                let w = &mut warps[i];
                if w.is_done() || w.barrier.is_some_and(|b| b.waits) {
                    continue;
                }
                progressed = true;
                // A lone warp yields too, so a long CTA reports progress and meets the
                // deadline; nothing else changes for it (no other warp runs in between).
                w.yield_at = w.steps.saturating_add(WARP_QUANTUM);
                let before = w.thread_instrs;
                let stop = match san.as_deref_mut() {
                    Some(h) => w.run_with(ctx, &mut self.shared, h),
                    None => w.run(ctx, &mut self.shared),
                };
                let arrival = w.barrier.filter(|_| matches!(stop, Ok(Stop::Barrier)));
                if let Some(p) = watch.progress {
                    p.fetch_add(w.thread_instrs - before, Ordering::Relaxed);
                }
                if matches!(stop, Ok(Stop::Yield)) {
                    if let Some((deadline, millis)) = watch.deadline {
                        if std::time::Instant::now() >= deadline {
                            let lf = LaneFault {
                                lane: Warp::first_lane(w.active),
                                kind: FaultKind::Timeout { millis },
                            };
                            let pc = w.pc;
                            return Err(Some(Self::fault(ctx, w, pc, lf)));
                        }
                    }
                    if abandon() {
                        return Err(None);
                    }
                }
                let yielded = matches!(stop, Ok(Stop::Yield));
                match stop {
                    Ok(Stop::Exited | Stop::Yield) => {}
                    Ok(Stop::Barrier) => {
                        if let Some(b) = w.barrier {
                            let s = &mut bars[(b.id & 15) as usize];
                            if !s.used {
                                *s = BarState {
                                    all: true,
                                    used: true,
                                    ..BarState::default()
                                };
                            }
                            s.arrived += w.live_threads();
                            s.count = b.count;
                            s.popc += b.red_true.count_ones();
                            s.all &= b.red_true == b.mask;
                            s.any |= b.red_true != 0;
                            if !b.waits {
                                w.barrier = None;
                            }
                        }
                    }
                    Err(lf) => {
                        let pc = w.pc;
                        return Err(Some(Self::fault(ctx, w, pc, lf)));
                    }
                }
                if yielded && self.spin.hung(ctx, warps, i) {
                    let w = &warps[i];
                    let lf = LaneFault {
                        lane: Warp::first_lane(w.active),
                        kind: FaultKind::Spin,
                    };
                    return Err(Some(Self::fault(ctx, w, w.pc, lf)));
                }
                let (released, uncounted) = Self::release(ctx, warps, &mut bars);
                if let Some(h) = san.as_deref_mut() {
                    if let Some(b) = arrival {
                        h.arrive(ctx, warps, i, b);
                    }
                    h.completed(ctx, warps, released, uncounted);
                }
            }
            if warps.iter().all(|w| w.is_done()) {
                break;
            }
            if !progressed {
                match Self::deadlock(ctx, warps) {
                    Some(f) => {
                        if let Some(h) = san.as_deref_mut() {
                            h.deadlock(ctx, warps);
                        }
                        return Err(Some(f));
                    }
                    None => break,
                }
            }
        }
        Ok(warps.iter().map(|w| w.thread_instrs).sum())
    }

    /// No warp can run and not all are done: every unfinished warp waits at a barrier that
    /// can never complete. The fault names the first waiting thread; the message lists every
    /// waiting warp with the line of the barrier it waits at. `None` if nothing waits (cannot
    /// happen: a warp that neither runs nor waits is done).
    fn deadlock(ctx: &Ctx<'_>, warps: &[Warp]) -> Option<Fault> {
        let waiting: Vec<&Warp> = warps.iter().filter(|w| w.barrier.is_some()).collect();
        let first = *waiting.first()?;
        let line_of = |w: &Warp| {
            ctx.prog
                .insts
                .get(w.pc.saturating_sub(1) as usize)
                .map_or(0, |i| i.line)
        };
        let waiters = waiting
            .iter()
            .enumerate()
            .filter_map(|(i, w)| {
                let b = w.barrier?;
                let lane = (Warp::first_lane(b.mask) as usize) % LANES;
                Some(BarrierWaiter {
                    warp: warps.iter().position(|x| std::ptr::eq(x, *w)).unwrap_or(i) as u32,
                    first_tid: [w.tid[0][lane], w.tid[1][lane], w.tid[2][lane]],
                    threads: w.live_threads(),
                    line: line_of(w),
                    barrier: b.id,
                })
            })
            .collect();
        let b = first.barrier?;
        let lf = LaneFault {
            lane: Warp::first_lane(b.mask),
            kind: FaultKind::BarrierDeadlock {
                barrier: b.id,
                waiters,
            },
        };
        Some(Self::fault(ctx, first, first.pc.saturating_sub(1), lf))
    }

    /// Complete every barrier whose expected arrivals are in; returns them (bit per id) and
    /// which of them had no thread count (for the sanitizer).
    fn release(_ctx: &Ctx<'_>, warps: &mut [Warp], bars: &mut [BarState; 16]) -> (u16, u16) {
        let mut released = 0u16;
        let mut uncounted = 0u16;
        let live: u32 = warps.iter().map(|w| w.live_threads()).sum();
        for (id, s) in bars.iter_mut().enumerate() {
            if !s.used {
                continue;
            }
            let count = s.count;
            if s.arrived < count.unwrap_or(live) {
                continue;
            }
            let st = *s;
            *s = BarState::default();
            released |= 1 << id;
            if count.is_none() {
                uncounted |= 1 << id;
            }
            for w in warps.iter_mut() {
                let Some(b) = w.barrier else { continue };
                if (b.id & 15) as usize != id {
                    continue;
                }
                w.barrier = None;
                if let Some((d, kind)) = w.red_dst.take() {
                    let v: u64 = match kind {
                        BarKind::RedPopc => st.popc as u64,
                        BarKind::RedAnd => st.all as u64,
                        BarKind::RedOr => st.any as u64,
                        _ => 0,
                    };
                    for_lanes(b.mask, |lane| w.set(d, lane, v));
                }
            }
        }
        (released, uncounted)
    }
}

/// Whether a memory instruction reads or writes (for fault reports).
fn access_of(inst: &Inst) -> Option<Access> {
    match inst.op {
        Op::Ld { .. } | Op::Tex { .. } | Op::TexCube { .. } => Some(Access::Read),
        Op::St { .. } => Some(Access::Write),
        Op::Atom { .. } | Op::AtomCas128 { .. } => Some(Access::ReadWrite),
        _ => None,
    }
}

impl Default for CtaRunner {
    fn default() -> Self {
        Self::new()
    }
}

/// What a launch reports to and is limited by while it runs.
#[derive(Clone, Copy, Debug, Default)]
pub struct Watch<'a> {
    /// Thread-instructions executed so far, updated every few thousand warp instructions.
    pub progress: Option<&'a AtomicU64>,
    /// CTAs finished so far.
    pub ctas_done: Option<&'a AtomicU64>,
    /// Wall-clock deadline and the limit it came from (milliseconds, for the message).
    pub deadline: Option<(std::time::Instant, u64)>,
}

/// Totals of a finished launch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaunchStats {
    pub thread_instructions: u64,
    pub ctas: u64,
}

/// Run every CTA of the grid; on faults, report the one in the lowest-numbered CTA so the
/// message does not depend on the worker count.
///
/// Workers claim CTAs in increasing order from one counter. After a fault in CTA `i`, no CTA
/// above `i` is started, and every CTA below `i` has already been claimed and runs to its end;
/// so the launch stops within one CTA per worker of the first fault, and the fault reported is
/// still the lowest-numbered one a sequential run would meet.
pub fn launch_grid(
    ctx: &Ctx<'_>,
    threads: usize,
    watch: &Watch<'_>,
) -> Result<LaunchStats, ExecError> {
    let [gx, gy, gz] = ctx.nctaid;
    let n = gx as u64 * gy as u64 * gz as u64;
    let total = AtomicU64::new(0);
    let next = AtomicU64::new(0);
    let first_fault = AtomicU64::new(u64::MAX);
    let fault: Mutex<Option<(u64, Fault)>> = Mutex::new(None);
    let worker = || {
        let mut runner = CtaRunner::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= n || i > first_fault.load(Ordering::Relaxed) {
                break;
            }
            let ctaid = [
                (i % gx as u64) as u32,
                ((i / gx as u64) % gy as u64) as u32,
                (i / (gx as u64 * gy as u64)) as u32,
            ];
            let abandon = || first_fault.load(Ordering::Relaxed) < i;
            match runner.run(ctx, ctaid, watch, &abandon) {
                Ok(c) => {
                    total.fetch_add(c, Ordering::Relaxed);
                    if let Some(d) = watch.ctas_done {
                        d.fetch_add(1, Ordering::Relaxed);
                    }
                }
                Err(None) => break,
                Err(Some(f)) => {
                    let mut g = fault.lock().unwrap_or_else(|e| e.into_inner());
                    if g.as_ref().is_none_or(|(j, _)| i < *j) {
                        *g = Some((i, f));
                        first_fault.fetch_min(i, Ordering::Relaxed);
                    }
                }
            }
        }
    };
    let workers = match threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        t => t,
    }
    .min(usize::try_from(n).unwrap_or(usize::MAX))
    .max(1);
    if workers == 1 {
        worker();
    } else {
        std::thread::scope(|s| {
            let handles: Vec<_> = (0..workers)
                .map(|k| {
                    std::thread::Builder::new()
                        .name(format!("ptxvm-cta-{k}"))
                        .spawn_scoped(s, worker)
                })
                .collect();
            // A worker that cannot start is no loss: the others claim its CTAs. Only when
            // none starts, the calling thread runs the grid itself.
            if handles.iter().all(|h| h.is_err()) {
                worker();
            }
        });
    }
    if let Some((_, f)) = fault.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(ExecError::Fault(Box::new(f)));
    }
    Ok(LaunchStats {
        thread_instructions: total.load(Ordering::Relaxed),
        ctas: n,
    })
}
