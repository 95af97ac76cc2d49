//! `ptxvm run --sanitize`: compute-sanitizer's four tools in one executor mode.
//!
//! - **memcheck**: an access outside every allocation, with read/write, the nearest
//!   allocation and the distance past its end (or before its start).
//! - **racecheck**: shared- and global-memory hazards (read-after-write, write-after-read,
//!   write-after-write) between threads no barrier orders. Each byte has a shadow: the last
//!   writer and two readers, each with a stamp (thread, instruction, the warp's vector-clock
//!   component, its `bar.warp.sync` count, the CTA's instruction serial). Warps are ordered
//!   by vector clocks joined at each barrier they took part in; lanes of one warp by
//!   lock-step before sm_70 and by `bar.warp.sync`/barriers from sm_70; two lanes storing
//!   different values to one byte in one instruction race. When a CTA ends its global
//!   accesses are merged into a launch-wide shadow (`grid.rs`) that finds races between CTAs.
//! - **initcheck**: reads of registers, shared bytes and local bytes no thread has written,
//!   and of global buffers the host never filled ([`Sanitizer::track_uninitialised`]).
//! - **synccheck**: `bar.sync` reached by only part of a warp (before sm_70), warps of a CTA
//!   waiting for one barrier at different instructions, a warp collective (`vote`, `shfl`
//!   without `.sync`) executed by only part of a warp (before sm_70), a CTA-wide barrier
//!   completed while some threads had exited, and a barrier that can never complete (with
//!   a waiting and a missing thread; the launch still ends with the deadlock fault).
//!
//! The executor runs the same code with a hook after each instruction's guard is evaluated
//! (`Warp::run_with`); without `--sanitize` the hook is a type whose methods
//! are empty, so it compiles away. A launch's findings are collected in a [`Sanitizer`],
//! which outlives the launch so findings are reported even when the launch faults.
//!
//! Each distinct hazard (check, kind, instruction, other instruction) is one error, reported
//! once with the first occurrence in the lowest-numbered CTA (deterministic whatever the
//! worker count) and the number of occurrences.

mod grid;
pub(crate) mod hook;
pub(crate) mod info;
mod shadow;

pub use info::{ProgramInfo, RegUse};

use crate::program::Space;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

/// Which of the four tools found a problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Check {
    Memcheck,
    Racecheck,
    Initcheck,
    Synccheck,
}

impl Check {
    pub fn name(self) -> &'static str {
        match self {
            Check::Memcheck => "memcheck",
            Check::Racecheck => "racecheck",
            Check::Initcheck => "initcheck",
            Check::Synccheck => "synccheck",
        }
    }
}

/// One thread taking part in a finding, and the PTX line it was at.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Party {
    pub ctaid: [u32; 3],
    pub tid: [u32; 3],
    /// 1-based PTX line of the instruction the thread executed (0 if unknown).
    pub line: u32,
}

/// One sanitizer error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    pub check: Check,
    /// Short title: `invalid global write of size 4`, `read-after-write hazard`,
    /// `read of an uninitialised register`, `divergent barrier`, ...
    pub title: String,
    pub kernel: String,
    /// PTX file and 1-based line of the instruction that met the problem.
    pub file: String,
    pub line: u32,
    /// The thread that met it first, then the other threads involved (the earlier writer
    /// of a race, a thread that did not reach a barrier, ...).
    pub threads: Vec<Party>,
    pub address: Option<u64>,
    pub space: Option<Space>,
    /// One sentence with the specifics (nearest allocation, register, lanes, ...).
    pub detail: String,
    /// How many times the same hazard (same check, kind and instructions) occurred.
    pub occurrences: u64,
}

/// What makes two findings the same error: check, title and the instructions involved.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Key {
    check: Check,
    title: String,
    pc: u32,
    other_pc: u32,
}

/// Most distinct errors kept; further ones are counted in [`Sanitizer::dropped`].
const MAX_FINDINGS: usize = 10_000;

/// Collects a launch's findings from every CTA worker.
#[derive(Debug, Default)]
pub struct Sanitizer {
    found: Mutex<Found>,
    /// Accesses of every CTA, for races between CTAs.
    pub(crate) grid: grid::GridShadow,
    /// Global buffers the host did not fill, for initcheck.
    uninit: Mutex<Vec<Arc<grid::UninitRange>>>,
    /// Device bytes the CTA shadows could not track (full; see docs/sanitizer.md).
    unchecked: std::sync::atomic::AtomicU64,
    /// Host bytes each worker's CTA global shadow may hold (0: the default).
    cta_budget: usize,
}

#[derive(Debug, Default)]
struct Found {
    /// Per key: the linear CTA index the finding comes from, and the finding.
    by_key: BTreeMap<Key, (u64, Finding)>,
    dropped: u64,
}

impl Sanitizer {
    pub fn new() -> Sanitizer {
        Sanitizer::default()
    }

    /// A sanitizer whose shadows may hold at most `cta_bytes` of host memory per worker
    /// for a CTA's global accesses and `grid_bytes` for the races between CTAs (defaults:
    /// 512 MiB and 1 GiB). Accesses past a budget are not race-checked and are counted in
    /// [`Sanitizer::unchecked_bytes`].
    pub fn with_shadow_budget(cta_bytes: usize, grid_bytes: usize) -> Sanitizer {
        Sanitizer {
            grid: grid::GridShadow::with_budget(grid_bytes),
            cta_budget: cta_bytes.max(1),
            ..Sanitizer::default()
        }
    }

    pub(crate) fn cta_budget(&self) -> usize {
        match self.cta_budget {
            0 => shadow::GLOBAL_SHADOW_HOST_BYTES,
            n => n,
        }
    }

    /// Check reads of `[base, base + len)` of global memory against writes by the kernel:
    /// the host put nothing there (a launch spec's `len` buffer, a bare `Device::alloc`),
    /// so a byte read before any thread stored to it is an initcheck error, as with
    /// compute-sanitizer on memory from `cudaMalloc` that was never written.
    pub fn track_uninitialised(&self, base: u64, len: u64) {
        let mut g = self.uninit.lock().unwrap_or_else(|e| e.into_inner());
        g.push(Arc::new(grid::UninitRange::new(base, len)));
        g.sort_by_key(|r| r.base);
    }

    pub(crate) fn uninit_ranges(&self) -> grid::UninitRanges {
        grid::UninitRanges(
            self.uninit
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .clone(),
        )
    }

    pub(crate) fn add_unchecked(&self, bytes: u64) {
        self.unchecked
            .fetch_add(bytes, std::sync::atomic::Ordering::Relaxed);
    }

    /// Device bytes that were accessed but not race-checked because a shadow reached its
    /// host-memory budget (0 for launches that fit; see docs/sanitizer.md).
    pub fn unchecked_bytes(&self) -> u64 {
        self.unchecked.load(std::sync::atomic::Ordering::Relaxed) + self.grid.unchecked()
    }

    /// Merge one CTA's findings (`cta` = its linear index).
    pub(crate) fn merge(&self, cta: u64, found: Vec<(Key, Finding)>) {
        if found.is_empty() {
            return;
        }
        let mut g = self.found.lock().unwrap_or_else(|e| e.into_inner());
        for (k, f) in found {
            let full = g.by_key.len() >= MAX_FINDINGS;
            match g.by_key.get_mut(&k) {
                Some((c, old)) => {
                    let total = old.occurrences + f.occurrences;
                    if cta < *c {
                        *c = cta;
                        *old = f;
                    }
                    old.occurrences = total;
                }
                None if full => g.dropped += 1,
                None => {
                    g.by_key.insert(k, (cta, f));
                }
            }
        }
    }

    /// The findings, ordered by PTX line, then check and title.
    pub fn findings(&self) -> Vec<Finding> {
        let g = self.found.lock().unwrap_or_else(|e| e.into_inner());
        let mut v: Vec<Finding> = g.by_key.values().map(|(_, f)| f.clone()).collect();
        v.sort_by(|a, b| {
            (a.line, a.check, &a.title, &a.threads).cmp(&(b.line, b.check, &b.title, &b.threads))
        });
        v
    }

    /// Distinct errors found past the limit of 10,000 kept ones.
    pub fn dropped(&self) -> u64 {
        self.found.lock().unwrap_or_else(|e| e.into_inner()).dropped
    }

    /// Number of errors: distinct findings kept plus those dropped.
    pub fn error_count(&self) -> u64 {
        let g = self.found.lock().unwrap_or_else(|e| e.into_inner());
        g.by_key.len() as u64 + g.dropped
    }
}

impl Finding {
    pub(crate) fn key(&self, pc: u32, other_pc: u32) -> Key {
        Key {
            check: self.check,
            title: self.title.clone(),
            pc,
            other_pc,
        }
    }

    /// The report as compute-sanitizer prints it, given the PTX source lines (`source(line)`
    /// returns the text of a 1-based line, if known):
    ///
    /// ```text
    /// ========= racecheck: read-after-write hazard
    /// =========     in kernel `k` at k.ptx:12: ld.shared.u32 %r2, [%r1];
    /// ...
    /// ```
    pub fn render(&self, source: &dyn Fn(u32) -> Option<String>) -> String {
        let mut s = format!("========= {}: {}\n", self.check.name(), self.title);
        let text = source(self.line)
            .map(|t| format!(": {}", t.trim()))
            .unwrap_or_default();
        s.push_str(&format!(
            "=========     in kernel `{}` at {}:{}{}\n",
            self.kernel, self.file, self.line, text
        ));
        for (i, p) in self.threads.iter().enumerate() {
            let role = if i == 0 { "thread" } else { "and thread" };
            let at = if i > 0 && p.line != 0 {
                let t = source(p.line)
                    .map(|t| format!(": {}", t.trim()))
                    .unwrap_or_default();
                format!(" at {}:{}{}", self.file, p.line, t)
            } else {
                String::new()
            };
            s.push_str(&format!(
                "=========     {role} ({}, {}, {}) in block ({}, {}, {}){at}\n",
                p.tid[0], p.tid[1], p.tid[2], p.ctaid[0], p.ctaid[1], p.ctaid[2]
            ));
        }
        if let Some(a) = self.address {
            let space = self
                .space
                .map(|s| format!(" ({})", s.name()))
                .unwrap_or_default();
            s.push_str(&format!("=========     address {a:#x}{space}\n"));
        }
        if !self.detail.is_empty() {
            s.push_str(&format!("=========     {}\n", self.detail));
        }
        if self.occurrences > 1 {
            s.push_str(&format!(
                "=========     ({} occurrences; the first is shown)\n",
                self.occurrences
            ));
        }
        s
    }

    /// The finding as a JSON object.
    pub fn to_json(&self, source: &dyn Fn(u32) -> Option<String>) -> serde_json::Value {
        let threads: Vec<serde_json::Value> = self
            .threads
            .iter()
            .map(|p| serde_json::json!({"ctaid": p.ctaid, "tid": p.tid, "line": p.line}))
            .collect();
        let mut o = serde_json::json!({
            "check": self.check.name(),
            "title": self.title,
            "kernel": self.kernel,
            "file": self.file,
            "line": self.line,
            "threads": threads,
            "detail": self.detail,
            "occurrences": self.occurrences,
        });
        if let Some(m) = o.as_object_mut() {
            if let Some(t) = source(self.line) {
                m.insert("source".into(), t.trim().into());
            }
            if let Some(a) = self.address {
                m.insert("address".into(), a.into());
            }
            if let Some(sp) = self.space {
                m.insert("space".into(), sp.name().trim_start_matches('.').into());
            }
        }
        o
    }
}
