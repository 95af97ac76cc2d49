//! The per-CTA sanitizer: the executor calls [`StepHook::before`] for each instruction (after
//! its guard is evaluated, before it runs) and the CTA scheduler reports barrier arrivals and
//! completions.

use super::grid::{CtaRace, UninitRanges};
use super::shadow::{ByteShadow, GlobalShadow, Mark, Stamp, WarpShadow, Who};
use super::{Check, Finding, Key, Party, Sanitizer};
use crate::lanes::LANES;
use crate::memory::{CONST_WINDOW, LOCAL_WINDOW, PARAM_WINDOW, SHARED_WINDOW, WINDOW_BYTES};
use crate::program::{Addr, CallArg, Inst, Op, Space};
use crate::warp::{BarrierWait, Ctx, Warp};
use std::collections::BTreeMap;

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

/// A barrier's current phase.
#[derive(Clone, Debug, Default)]
struct BarWatch {
    /// PC and thread of the first arrival.
    first: Option<(u32, Who)>,
    /// The join of the vector clocks of the warps that arrived (bar.sync, bar.red and
    /// bar.arrive alike): what every waiting warp is ordered after once it completes.
    join: Vec<u32>,
    /// Warps waiting at it (bit per warp).
    waiting: u64,
}

/// The sanitizer state of the CTA a worker is running.
#[derive(Default)]
pub(crate) struct CtaSanitizer {
    shared: Vec<ByteShadow>,
    global: GlobalShadow,
    nwarps: usize,
    /// Vector clocks, one row per warp: `clocks[w * nwarps + o]` is the latest clock of warp
    /// `o` that warp `w` is ordered after (through barriers both took part in). A warp's
    /// own component advances at each barrier it arrives at. Only threads that took part
    /// in a barrier are ordered by it (named barriers with a count, `bar.arrive`).
    clocks: Vec<u32>,
    /// Per warp: barriers and `bar.warp.sync` it executed. On sm_70 and later the lanes of
    /// a warp are ordered only by these (independent thread scheduling).
    wsync: Vec<u32>,
    /// Instructions run in this CTA so far (two lanes of one instruction instance share it).
    serial: u32,
    sm: u32,
    warps: Vec<WarpShadow>,
    /// Per thread: the instruction where it exited (for synccheck reports).
    exit_pc: Vec<u32>,
    bars: Vec<BarWatch>,
    ctaid: [u32; 3],
    ntid: [u32; 3],
    cta_index: u64,
    uninit: UninitRanges,
    found: BTreeMap<Key, Finding>,
}

impl CtaSanitizer {
    /// Start CTA `ctaid` with `nwarps` warps and `shared_len` bytes of shared memory.
    pub fn reset(&mut self, ctx: &Ctx<'_>, ctaid: [u32; 3], nwarps: usize, shared_len: usize) {
        self.shared.clear();
        self.shared.resize(shared_len, ByteShadow::default());
        self.global
            .clear(ctx.sanitize.map_or(0, |s| s.cta_budget()));
        self.nwarps = nwarps;
        self.clocks.clear();
        self.clocks.resize(nwarps * nwarps, 0);
        for w in 0..nwarps {
            if let Some(c) = self.clocks.get_mut(w * nwarps + w) {
                *c = 1;
            }
        }
        self.wsync.clear();
        self.wsync.resize(nwarps, 0);
        self.serial = 0;
        self.sm = ctx.prog.sanitize.sm;
        self.warps.resize_with(nwarps, WarpShadow::default);
        for w in &mut self.warps {
            w.reset(
                ctx.prog.n_r32 as usize,
                ctx.prog.n_r64 as usize,
                ctx.prog.n_pred as usize,
            );
        }
        self.exit_pc.clear();
        self.exit_pc.resize(nwarps * LANES, 0);
        self.bars.clear();
        self.bars.resize_with(16, BarWatch::default);
        self.ctaid = ctaid;
        self.ntid = ctx.ntid;
        let [gx, gy, _] = ctx.nctaid.map(u64::from);
        let [x, y, z] = ctaid.map(u64::from);
        self.cta_index = x + gx * (y + gy * z);
        self.uninit = ctx.sanitize.map(|s| s.uninit_ranges()).unwrap_or_default();
        self.found.clear();
    }

    /// Hand this CTA's findings to the launch's collector, after merging its global
    /// accesses into the launch's shadow (races between CTAs).
    pub fn flush(&mut self, ctx: &Ctx<'_>, san: &Sanitizer, cta_index: u64) {
        let mut races = Vec::new();
        // In address order, so the first race shown is at the lowest address.
        let mut pages: Vec<(u64, &[ByteShadow])> = self.global.pages().collect();
        pages.sort_unstable_by_key(|p| p.0);
        for (base, page) in pages {
            san.grid.merge(cta_index, base, page, &mut races);
        }
        san.add_unchecked(self.global.unchecked);
        for r in races {
            self.cta_race(ctx, san, r);
        }
        let found = std::mem::take(&mut self.found);
        san.merge(cta_index, found.into_iter().collect());
    }

    /// Report a race between this CTA and another, the lower-numbered CTA's thread first
    /// (so the report does not depend on which CTA finished first).
    fn cta_race(&self, ctx: &Ctx<'_>, san: &Sanitizer, r: CtaRace) {
        let [gx, gy, _] = ctx.nctaid.map(|n| u64::from(n.max(1)));
        let ctaid_of = |i: u64| {
            [
                (i % gx) as u32,
                ((i / gx) % gy) as u32,
                (i / (gx * gy)) as u32,
            ]
        };
        let mine = (self.cta_index, r.mine);
        let other = (r.other_cta, r.other);
        let (a, b) = if other.0 < mine.0 {
            (other, mine)
        } else {
            (mine, other)
        };
        let party = |(cta, m): (u64, Mark)| Party {
            ctaid: ctaid_of(cta),
            tid: self.tid_of(m.who),
            line: line_of(ctx, m.pc),
        };
        let title = if r.both_write {
            "write-after-write hazard between CTAs"
        } else {
            "read-write hazard between CTAs"
        };
        let f = Finding {
            check: Check::Racecheck,
            title: title.into(),
            kernel: ctx.prog.kernel_name(ctx.kernel).to_string(),
            file: ctx.prog.file.clone(),
            line: line_of(ctx, a.1.pc),
            threads: vec![party(a), party(b)],
            address: Some(r.addr),
            space: Some(Space::Global),
            detail: format!(
                "threads of two CTAs access the byte, at least one writing, and no barrier \
                 orders CTAs (the second thread shown accessed it at line {})",
                line_of(ctx, b.1.pc)
            ),
            occurrences: 1,
        };
        let key = f.key(a.1.pc, b.1.pc);
        san.merge(a.0, vec![(key, f)]);
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
        let n = self.nwarps;
        if let (Some(row), Some(slot)) = (
            self.clocks.get(wi * n..(wi + 1) * n),
            self.bars.get_mut((b.id & 15) as usize),
        ) {
            slot.join.resize(n, 0);
            for (j, &c) in slot.join.iter_mut().zip(row) {
                *j = (*j).max(c);
            }
            if b.waits && wi < 64 {
                slot.waiting |= 1 << wi;
            }
        }
        // What the warp does after arriving is not covered by this barrier.
        if let Some(c) = self.clocks.get_mut(wi * n + wi) {
            *c = c.wrapping_add(1);
        }
        if b.waits {
            if let Some(s) = self.wsync.get_mut(wi) {
                *s = s.wrapping_add(1);
            }
        }
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

    /// Barriers `ids` (bit per barrier) completed, `uncounted` of them without a thread
    /// count: each waiting warp is now ordered after every warp that arrived. A barrier
    /// for the whole CTA that completes while some of its threads have exited is a
    /// synccheck error (see docs/sanitizer.md for why).
    pub fn completed(&mut self, ctx: &Ctx<'_>, warps: &[Warp], ids: u16, uncounted: u16) {
        let n = self.nwarps;
        for id in 0..16usize {
            if ids >> id & 1 == 0 {
                continue;
            }
            let Some(slot) = self.bars.get_mut(id).map(std::mem::take) else {
                continue;
            };
            for wi in 0..n.min(64) {
                if slot.waiting >> wi & 1 == 0 {
                    continue;
                }
                if let Some(row) = self.clocks.get_mut(wi * n..(wi + 1) * n) {
                    for (c, &j) in row.iter_mut().zip(&slot.join) {
                        *c = (*c).max(j);
                    }
                }
            }
            if uncounted >> id & 1 == 0 {
                continue;
            }
            let Some((pc, who)) = slot.first else {
                continue;
            };
            let Some(w) = warps.iter().find(|w| w.exited & w.lanes != 0) else {
                continue;
            };
            let lane = (w.exited & w.lanes).trailing_zeros() as usize;
            let gone: u32 = warps
                .iter()
                .map(|w| (w.exited & w.lanes).count_ones())
                .sum();
            let live: u32 = warps.iter().map(|w| w.live_threads()).sum();
            let epc = self
                .exit_pc
                .get(w.warp_id as usize * LANES + lane)
                .copied()
                .unwrap_or(0);
            self.report(
                ctx,
                Check::Synccheck,
                "barrier not reached by exited threads".into(),
                (pc, who),
                Some((epc, who_of(w, lane))),
                None,
                format!(
                    "barrier {id} completed with the {live} threads still running; {gone} \
                     threads of the CTA exited without reaching it (the second thread shown, \
                     at line {}). Every thread of the CTA must reach a CTA-wide barrier",
                    line_of(ctx, epc)
                ),
            );
        }
    }

    /// The CTA cannot go on: every unfinished warp waits at a barrier that can never
    /// complete. Report the first waiting thread and a thread that never arrives (it waits
    /// elsewhere, or is a lane of a waiting warp that is not at the barrier).
    pub fn deadlock(&mut self, ctx: &Ctx<'_>, warps: &[Warp]) {
        let Some((wi, b)) = warps
            .iter()
            .enumerate()
            .find_map(|(i, w)| w.barrier.map(|b| (i, b)))
        else {
            return;
        };
        let Some(w) = warps.get(wi) else { return };
        let pc = w.pc.saturating_sub(1);
        let who = who_of(w, Warp::first_lane(b.mask) as usize);
        let missing = warps.iter().find_map(|x| {
            let live = x.lanes & !x.exited;
            match x.barrier {
                Some(xb) if xb.id == b.id => {
                    let absent = live & !xb.mask;
                    (absent != 0).then(|| {
                        let lane = absent.trailing_zeros() as usize;
                        let lpc = x.lane_pc.get(lane).copied().unwrap_or(x.pc);
                        (lpc, who_of(x, lane))
                    })
                }
                Some(xb) => (live != 0).then(|| {
                    let lane = Warp::first_lane(xb.mask) as usize;
                    (x.pc.saturating_sub(1), who_of(x, lane))
                }),
                None => (live != 0).then(|| (x.pc, who_of(x, live.trailing_zeros() as usize))),
            }
        });
        let waiting: u32 = warps
            .iter()
            .filter_map(|x| x.barrier.filter(|xb| xb.id == b.id))
            .map(|xb| xb.mask.count_ones())
            .sum();
        let detail = match missing {
            Some((mpc, _)) => format!(
                "{waiting} threads wait at barrier {} for threads that never arrive (the second \
                 thread shown is at line {}); the launch stops with a deadlock fault",
                b.id,
                line_of(ctx, mpc)
            ),
            None => format!(
                "{waiting} threads wait at barrier {} for a thread count that the running \
                 threads cannot reach; the launch stops with a deadlock fault",
                b.id
            ),
        };
        self.report(
            ctx,
            Check::Synccheck,
            "barrier never completes".into(),
            (pc, who),
            missing,
            None,
            detail,
        );
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
                // The stored value, so two lanes storing one byte in one instruction race
                // only when they store different values.
                let value = match &inst.op {
                    Op::St { a, .. } => a.get(k as usize).map(|&s| w.src(s, lane)),
                    _ => None,
                };
                self.access(w, ctx, lane, space, ea, size, access, value);
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
        value: Option<u64>,
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
            Space::Shared | Space::Global | Space::Generic => {
                let sp = if space == Space::Shared {
                    Space::Shared
                } else {
                    Space::Global
                };
                for k in 0..size {
                    let val = value.map(|v| (v >> (8 * k)) as u8);
                    let at = off + k;
                    let shown = if sp == Space::Shared { ea + k } else { at };
                    self.byte(ctx, (pc, who), at, shown, sp, access, val);
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

    fn warp_of(who: Who) -> usize {
        who.saturating_sub(1) as usize / LANES
    }

    /// The stamp of an access by `who` at `pc` now.
    fn stamp(&self, who: Who, pc: u32) -> Stamp {
        let w = Self::warp_of(who);
        Stamp {
            who,
            pc,
            clock: self.clocks.get(w * self.nwarps + w).copied().unwrap_or(0),
            sync: self.wsync.get(w).copied().unwrap_or(0),
            serial: self.serial,
        }
    }

    /// Whether the earlier access `o` is ordered before an access by `me` now: the same
    /// thread; a lane of the same warp before sm_70 (lock-step), or on sm_70 and later
    /// after a `bar.warp.sync`/barrier of the warp (or in the same instruction: two lanes
    /// storing to one byte in one instruction are checked on their values instead);
    /// another warp after a barrier both took part in.
    fn ordered(&self, me: Who, o: &Stamp) -> bool {
        if o.who == 0 || o.who == me {
            return true;
        }
        let (mw, ow) = (Self::warp_of(me), Self::warp_of(o.who));
        if mw == ow {
            self.sm < 70
                || o.serial == self.serial
                || self.wsync.get(mw).is_none_or(|&s| o.sync < s)
        } else {
            self.clocks
                .get(mw * self.nwarps + ow)
                .is_none_or(|&c| c >= o.clock)
        }
    }

    /// Race and initialisation checks of one byte (`at` = offset in its space's shadow,
    /// `shown` = the address for the report, `val` = the byte a store writes).
    #[allow(clippy::too_many_arguments)]
    fn byte(
        &mut self,
        ctx: &Ctx<'_>,
        (pc, who): (u32, Who),
        at: u64,
        shown: u64,
        space: Space,
        access: Access,
        val: Option<u8>,
    ) {
        let me = self.stamp(who, pc);
        let slot = match space {
            Space::Shared => self.shared.get_mut(at as usize),
            _ => self.global.get(at),
        };
        let Some(slot) = slot else { return };
        let mut s = *slot;
        let mut hazards: Vec<(&'static str, Stamp)> = Vec::new();
        let mut uninit = None;
        if space == Space::Global {
            if let Some(r) = self.uninit.find(at) {
                if access != Access::Write && !r.touch(at, false) {
                    uninit = Some("read of uninitialised global memory");
                }
                if access != Access::Read {
                    r.touch(at, true);
                }
            }
        }
        match access {
            Access::Read => {
                if s.w.who == 0 {
                    if space == Space::Shared {
                        uninit = Some("read of uninitialised shared memory");
                    }
                } else if !s.w_atomic && !self.ordered(who, &s.w) {
                    hazards.push(("read-after-write hazard", s.w));
                }
                if s.r0.who == 0 || self.ordered(who, &s.r0) {
                    if s.r1.who != 0 && self.ordered(who, &s.r1) {
                        s.r1 = Stamp::default();
                    }
                    s.r0 = me;
                } else if s.r0.who != who
                    && (self.sm >= 70 || Self::warp_of(s.r0.who) != Self::warp_of(who))
                    && (s.r1.who == 0 || self.ordered(who, &s.r1))
                {
                    s.r1 = me;
                }
                if s.cta_r.who == 0 {
                    s.cta_r = Mark { who, pc };
                }
            }
            Access::Write | Access::Atomic => {
                let atomic = access == Access::Atomic;
                let same_inst = s.w.who != 0
                    && s.w.who != who
                    && s.w.serial == self.serial
                    && Self::warp_of(s.w.who) == Self::warp_of(who);
                if same_inst {
                    if !atomic && !s.w_atomic && val != Some(s.w_val) {
                        hazards.push(("write-after-write hazard within one instruction", s.w));
                    }
                } else if s.w.who != 0 && !(atomic && s.w_atomic) && !self.ordered(who, &s.w) {
                    hazards.push(("write-after-write hazard", s.w));
                }
                if !atomic {
                    if let Some(r) = [s.r0, s.r1]
                        .into_iter()
                        .find(|r| r.who != 0 && !self.ordered(who, r))
                    {
                        hazards.push(("write-after-read hazard", r));
                    }
                    if s.cta_w.who == 0 {
                        s.cta_w = Mark { who, pc };
                    }
                }
                s.w = me;
                s.w_atomic = atomic;
                s.w_val = val.unwrap_or(0);
            }
        }
        let slot = match space {
            Space::Shared => self.shared.get_mut(at as usize),
            _ => self.global.get(at),
        };
        if let Some(slot) = slot {
            *slot = s;
        }
        for (title, o) in hazards {
            let same_warp = Self::warp_of(o.who) == Self::warp_of(who);
            let why = if title.ends_with("one instruction") {
                "two lanes of one warp store different values to the byte in one instruction"
                    .to_string()
            } else if same_warp {
                format!(
                    "lanes of one warp access the byte with no bar.warp.sync (__syncwarp) or \
                     barrier in between; on sm_70 and later (.target sm_{}) the lanes of a \
                     warp are not in lock-step",
                    self.sm
                )
            } else {
                "threads of different warps access the byte with no barrier that both took \
                 part in between"
                    .to_string()
            };
            self.report(
                ctx,
                Check::Racecheck,
                title.into(),
                (pc, who),
                Some((o.pc, o.who)),
                Some((shown, space)),
                format!(
                    "{why} (the second thread shown accessed it at line {})",
                    line_of(ctx, o.pc)
                ),
            );
        }
        if let Some(title) = uninit {
            let detail = if space == Space::Shared {
                "no thread of the CTA has written this byte"
            } else {
                "the host did not fill this buffer and no thread has written this byte"
            };
            self.report(
                ctx,
                Check::Initcheck,
                title.into(),
                (pc, who),
                None,
                Some((shown, space)),
                detail.into(),
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
        self.serial = self.serial.wrapping_add(1);
        self.registers(w, ctx, mask);
        match &inst.op {
            Op::Ld { .. } | Op::St { .. } | Op::Atom { .. } | Op::AtomCas128 { .. } => {
                self.memory(w, ctx, inst, mask)
            }
            Op::Call { .. } | Op::CallIndirect { .. } => self.call(w, ctx, &inst.op, mask),
            Op::Bar { .. } | Op::Vote { .. } | Op::Shfl { .. } => {
                self.convergence(w, ctx, &inst.op)
            }
            Op::WarpSync { .. } => {
                if let Some(s) = self.wsync.get_mut(w.warp_id as usize) {
                    *s = s.wrapping_add(1);
                }
            }
            Op::Exit | Op::Ret => {
                let base = w.warp_id as usize * LANES;
                let mut m = mask;
                while m != 0 {
                    let lane = m.trailing_zeros() as usize;
                    m &= m - 1;
                    if let Some(p) = self.exit_pc.get_mut(base + lane) {
                        *p = w.pc;
                    }
                }
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
