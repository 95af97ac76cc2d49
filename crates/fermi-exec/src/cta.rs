//! One CTA: its warps advance one instruction each per turn until each exits or waits at
//! `BAR`; when every live warp waits, the barrier opens.

use crate::error::{Fault, FaultKind, LaneFault};
use crate::warp::{lanes, BarOp, BarResult, CtaMem, Status, Warp, WARP_SIZE};
use std::sync::atomic::{AtomicU64, Ordering};

/// Runs the CTA to completion; returns the thread-instructions executed.
pub fn run_cta(
    m: &mut CtaMem<'_>,
    max_steps: u64,
    progress: Option<&AtomicU64>,
) -> Result<u64, Box<Fault>> {
    let threads: u32 = m.ntid.iter().product();
    let stack_top = m.cbank1_stack_top();
    let mut warps: Vec<Warp> = (0..threads.div_ceil(WARP_SIZE))
        .map(|id| {
            let n = (threads - id * WARP_SIZE).min(WARP_SIZE);
            let present = if n == WARP_SIZE {
                u32::MAX
            } else {
                (1 << n) - 1
            };
            Warp::new(id, present, stack_top)
        })
        .collect();
    let mut executed = 0u64;
    let mut batch = 0u64;
    loop {
        // One instruction per running warp per turn: warps advance together, as the
        // hardware's schedulers interleave them (see docs/fermi-exec.md, "Scheduling").
        let mut ran = false;
        for w in &mut warps {
            if w.status != Status::Running {
                continue;
            }
            ran = true;
            match crate::step::step(w, m, max_steps) {
                Ok(n) => batch += u64::from(n),
                Err(f) => return Err(place(m, w, f)),
            }
        }
        if batch >= 1 << 16 || !ran {
            if let Some(p) = progress {
                p.fetch_add(batch, Ordering::Relaxed);
            }
            executed += batch;
            batch = 0;
        }
        if open_barriers(m, &mut warps) || ran {
            continue;
        }
        // Nothing ran and no barrier opened: done, unless warps wait at a barrier that can
        // no longer complete.
        return match warps.iter().find(|w| w.status == Status::AtBarrier) {
            None => Ok(executed),
            Some(w) => {
                let b = m
                    .bars
                    .get(usize::from(w.bar_id))
                    .copied()
                    .unwrap_or_default();
                let kind = FaultKind::BarrierDeadlock {
                    barrier: w.bar_id,
                    arrived: b.arrived,
                    expected: b.count.unwrap_or(live_threads(&warps)),
                };
                Err(place(m, w, LaneFault::warp(kind)))
            }
        };
    }
}

/// Threads of the CTA that have not exited.
fn live_threads(warps: &[Warp]) -> u32 {
    warps.iter().map(|w| (!w.exited).count_ones()).sum()
}

/// Releases the warps of every barrier generation that completed this turn: those whose
/// thread count was reached on arrival (`step::bar`), and those of the whole CTA whose
/// arrivals are every thread that has not exited. Each waiting warp gets the reduction of
/// its own generation. Checked once per turn, so the warps a barrier releases start
/// together (docs/fermi-exec.md, "Scheduling"). Whether one opened.
fn open_barriers(m: &mut CtaMem<'_>, warps: &mut [Warp]) -> bool {
    if m.completed.is_empty() && m.bars.iter().all(|b| b.arrived == 0) {
        return false;
    }
    // A counted barrier completes in `step::bar` when its count is reached; only whole-CTA
    // barriers complete here, when threads exiting make their arrivals every live thread.
    let live = live_threads(warps);
    for (id, b) in m.bars.iter_mut().enumerate() {
        if b.arrived == 0 || b.count.is_some() || b.arrived < live {
            continue;
        }
        m.completed.push(b.complete(id as u8));
    }
    let opened = !m.completed.is_empty();
    for c in m.completed.drain(..) {
        for w in warps.iter_mut() {
            if w.status == Status::AtBarrier && w.bar_id == c.id && w.bar_generation == c.generation
            {
                w.status = Status::Running;
                if let Some(r) = w.bar.take() {
                    deliver(w, r, c.held, c.arrived);
                }
            }
        }
    }
    opened
}

/// Writes a barrier reduction: the count of threads whose predicate held (`.POPC`), or
/// whether all (`.AND`) or any (`.OR`) of them did.
fn deliver(w: &mut Warp, b: BarResult, held: u32, arrived: u32) {
    for l in lanes(w.active) {
        match b.op {
            BarOp::Popc => w.set_reg(l, b.rd, held),
            BarOp::And => w.set_pred(l, b.pd, held == arrived),
            BarOp::Or => w.set_pred(l, b.pd, held > 0),
        }
    }
}

/// The fault with its kernel, address, instruction text and thread.
fn place(m: &CtaMem<'_>, w: &Warp, f: LaneFault) -> Box<Fault> {
    let lane = f
        .lane
        .or_else(|| lanes(w.active).next())
        .or_else(|| lanes(!w.exited).next())
        .unwrap_or(0);
    // The step already ran: the faulting instruction is the one the warp fetched last, whose
    // address the fault kinds that move the pc do not change before failing.
    let pc = w.fault_pc();
    Box::new(Fault {
        kernel: m.img.kernel.name.clone(),
        pc,
        text: m.img.text(pc),
        ctaid: m.ctaid,
        tid: m.tid(w.id * WARP_SIZE + lane),
        kind: f.kind,
    })
}
