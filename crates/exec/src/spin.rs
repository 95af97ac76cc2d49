//! Spin-loop hang detection: a warp that goes round a loop with nothing able to change what
//! it reads is stopped at once instead of running into the step budget.
//!
//! At every yield (a taken backward branch after `WARP_QUANTUM` instructions) the CTA
//! scheduler asks [`SpinWatch::hung`]. The warp is proven hung when, since its previous yield:
//!
//! 1. no other warp of the CTA could run (each is finished or waits at a barrier), so no
//!    other thread of the CTA can change shared memory or global memory meanwhile;
//! 2. the warp wrote no memory (no `st`, `atom`/`red` or `call`);
//! 3. the warp's whole state (PC, lane PCs and masks, every register lane, the carry) is
//!    identical to what it was at the previous yield; and
//! 4. the grid is a single CTA, or the warp loaded nothing from global (or generic) memory,
//!    which other CTAs could change;
//!
//! and the kernel never reads `%clock`/`%clock64` (the only inputs that change by themselves).
//! The executor is deterministic, so from the same state over the same memory the warp runs
//! the same quantum again, forever. A spin whose registers change (an iteration counter, a
//! back-off) or that other CTAs might release is not detected; the step budget and
//! `--timeout` still bound it.

use crate::lanes::{Row32, Row64, LANES};
use crate::program::{Op, Sreg};
use crate::warp::{Ctx, Warp};

/// A warp's state at a yield.
#[derive(Clone, PartialEq, Eq)]
struct Snapshot {
    pc: u32,
    active: u32,
    waiting: u32,
    exited: u32,
    coll_wait: u32,
    lane_pc: [u32; LANES],
    carry: u32,
    r32: Vec<Row32>,
    r64: Vec<Row64>,
    pred: Vec<u32>,
    /// Counters at the time (compared separately: they must not have moved).
    writes: u64,
    global_loads: u64,
}

impl Snapshot {
    fn of(w: &Warp) -> Snapshot {
        Snapshot {
            pc: w.pc,
            active: w.active,
            waiting: w.waiting,
            exited: w.exited,
            coll_wait: w.coll_wait,
            lane_pc: w.lane_pc,
            carry: w.carry,
            r32: w.r32.clone(),
            r64: w.r64.clone(),
            pred: w.pred.clone(),
            writes: w.mem_writes,
            global_loads: w.global_loads,
        }
    }

    /// Same state as `w` (counters aside).
    fn same_state(&self, w: &Warp) -> bool {
        self.pc == w.pc
            && self.active == w.active
            && self.waiting == w.waiting
            && self.exited == w.exited
            && self.coll_wait == w.coll_wait
            && self.lane_pc == w.lane_pc
            && self.carry == w.carry
            && self.r32 == w.r32
            && self.r64 == w.r64
            && self.pred == w.pred
    }
}

/// Per-CTA spin detector state (one snapshot per warp).
#[derive(Default)]
pub(crate) struct SpinWatch {
    snaps: Vec<Option<Snapshot>>,
    /// Whether the program reads `%clock`: then nothing is proven.
    clock: Option<bool>,
}

impl SpinWatch {
    pub fn reset(&mut self, nwarps: usize) {
        self.snaps.clear();
        self.snaps.resize(nwarps, None);
    }

    /// Warp `i` just yielded: whether it is proven to spin forever.
    pub fn hung(&mut self, ctx: &Ctx<'_>, warps: &[Warp], i: usize) -> bool {
        let clock = *self.clock.get_or_insert_with(|| {
            ctx.prog.insts.iter().any(|x| {
                matches!(
                    x.op,
                    Op::Sreg {
                        sreg: Sreg::Clock | Sreg::Clock64,
                        ..
                    }
                )
            })
        });
        let (Some(w), Some(slot)) = (warps.get(i), self.snaps.get_mut(i)) else {
            return false;
        };
        let others_stuck = warps
            .iter()
            .enumerate()
            .all(|(j, o)| j == i || o.is_done() || o.barrier.is_some_and(|b| b.waits));
        if clock || !others_stuck {
            *slot = None;
            return false;
        }
        let single_cta = ctx.nctaid.iter().all(|&n| n == 1);
        let proven = slot.as_ref().is_some_and(|s| {
            s.writes == w.mem_writes
                && (single_cta || s.global_loads == w.global_loads)
                && s.same_state(w)
        });
        if !proven {
            *slot = Some(Snapshot::of(w));
        }
        proven
    }
}
