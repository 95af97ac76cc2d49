//! Launch-wide sanitizer state, shared by every CTA worker: the race shadow between CTAs
//! and the initialisation bitmaps of global buffers the host never wrote.
//!
//! No barrier orders two CTAs, so any two plain accesses to one global byte from different
//! CTAs, at least one a write, race whatever the order they ran in. Each CTA's accesses are
//! therefore merged into this shadow when the CTA ends (from its own page shadow), which
//! keeps per-byte locking out of the executor's inner loop. Atomics take no part (atomic
//! accesses do not race with each other, and the CTA shadow records only plain stores and
//! plain loads here).

use super::shadow::{ByteShadow, Mark};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// Device bytes per page of the grid shadow.
const GRID_PAGE: u64 = 4096;
/// Host bytes the grid shadow may hold (16 per device byte: 64 Mi device bytes).
/// Pages past the budget are not tracked; their bytes are counted and reported.
pub(crate) const GRID_SHADOW_HOST_BYTES: usize = 1 << 30;
/// Lock stripes (pages are spread over them by number).
const SHARDS: usize = 64;

/// One device byte: the lowest-numbered CTA that stored to it and that loaded it, with the
/// thread and instruction packed into a tag (16 host bytes per device byte).
#[derive(Clone, Copy, Debug, Default)]
struct GridByte {
    /// Linear CTA index + 1 (0: none; CTAs past 2^32 − 2 are not tracked).
    w_cta: u32,
    w: Tag,
    r_cta: u32,
    r: Tag,
}

/// A [`Mark`] in 32 bits: thread index (10 bits: at most 1,024 threads per CTA) and
/// instruction (22 bits; a program with more instructions shows line 0 for the other party).
#[derive(Clone, Copy, Debug, Default)]
struct Tag(u32);

const PC_BITS: u32 = 22;

impl Tag {
    fn pack(m: Mark) -> Tag {
        let pc = if m.pc < 1 << PC_BITS {
            m.pc
        } else {
            (1 << PC_BITS) - 1
        };
        Tag((m.who.saturating_sub(1) & 0x3ff) << PC_BITS | pc)
    }

    fn unpack(self) -> Mark {
        let pc = self.0 & ((1 << PC_BITS) - 1);
        Mark {
            who: (self.0 >> PC_BITS) + 1,
            pc: if pc == (1 << PC_BITS) - 1 {
                u32::MAX
            } else {
                pc
            },
        }
    }
}

/// A race between two CTAs found while merging: the byte, whether the earlier-recorded
/// access was a write and the current one a write, and the two parties.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CtaRace {
    pub addr: u64,
    /// Both accesses were writes (else one read and one write).
    pub both_write: bool,
    /// The current CTA's access.
    pub mine: Mark,
    /// The other CTA (linear index) and its access.
    pub other_cta: u64,
    pub other: Mark,
}

#[derive(Debug)]
pub(crate) struct GridShadow {
    shards: Vec<Mutex<HashMap<u64, Box<[GridByte]>>>>,
    pages: AtomicUsize,
    /// Device bytes a CTA accessed that the full shadow did not track.
    unchecked: AtomicU64,
    /// Most pages held.
    max_pages: usize,
}

impl Default for GridShadow {
    fn default() -> Self {
        Self::new()
    }
}

impl GridShadow {
    pub fn new() -> GridShadow {
        Self::with_budget(GRID_SHADOW_HOST_BYTES)
    }

    /// A shadow holding at most `host_bytes` of host memory.
    pub fn with_budget(host_bytes: usize) -> GridShadow {
        GridShadow {
            shards: (0..SHARDS).map(|_| Mutex::new(HashMap::new())).collect(),
            pages: AtomicUsize::new(0),
            unchecked: AtomicU64::new(0),
            max_pages: host_bytes / (GRID_PAGE as usize * size_of::<GridByte>()),
        }
    }

    pub fn unchecked(&self) -> u64 {
        self.unchecked.load(Ordering::Relaxed)
    }

    /// Merge the CTA shadow page `bytes` (device address `base`, within one grid page) of
    /// CTA `cta`; races with other CTAs are appended to `out`.
    pub fn merge(&self, cta: u64, base: u64, bytes: &[ByteShadow], out: &mut Vec<CtaRace>) {
        if !bytes.iter().any(|s| s.cta_w.who != 0 || s.cta_r.who != 0) {
            return;
        }
        let Ok(me) = u32::try_from(cta.saturating_add(1)) else {
            return;
        };
        if me == u32::MAX {
            return;
        }
        let page = base / GRID_PAGE;
        let Some(shard) = self.shards.get((page % SHARDS as u64) as usize) else {
            return;
        };
        let mut g = shard.lock().unwrap_or_else(|e| e.into_inner());
        let p = match g.entry(page) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(e) => {
                if self.pages.fetch_add(1, Ordering::Relaxed) >= self.max_pages {
                    self.pages.fetch_sub(1, Ordering::Relaxed);
                    let n = bytes
                        .iter()
                        .filter(|s| s.cta_w.who != 0 || s.cta_r.who != 0)
                        .count();
                    self.unchecked.fetch_add(n as u64, Ordering::Relaxed);
                    return;
                }
                e.insert(vec![GridByte::default(); GRID_PAGE as usize].into_boxed_slice())
            }
        };
        for (k, s) in bytes.iter().enumerate() {
            let addr = base + k as u64;
            let Some(b) = p.get_mut((addr % GRID_PAGE) as usize) else {
                continue;
            };
            let mut race = |both_write: bool, mine: Mark, other_cta: u32, other: Mark| {
                out.push(CtaRace {
                    addr,
                    both_write,
                    mine,
                    other_cta: u64::from(other_cta - 1),
                    other,
                });
            };
            if s.cta_w.who != 0 {
                if b.w_cta != 0 && b.w_cta != me {
                    race(true, s.cta_w, b.w_cta, b.w.unpack());
                } else if b.r_cta != 0 && b.r_cta != me {
                    race(false, s.cta_w, b.r_cta, b.r.unpack());
                }
            }
            if s.cta_r.who != 0 && b.w_cta != 0 && b.w_cta != me {
                race(false, s.cta_r, b.w_cta, b.w.unpack());
            }
            // Keep the lowest-numbered CTA of each kind, so what is shown does not depend
            // on which worker merged first (with two CTAs at least).
            if s.cta_w.who != 0 && (b.w_cta == 0 || me < b.w_cta) {
                b.w_cta = me;
                b.w = Tag::pack(s.cta_w);
            }
            if s.cta_r.who != 0 && (b.r_cta == 0 || me < b.r_cta) {
                b.r_cta = me;
                b.r = Tag::pack(s.cta_r);
            }
        }
    }
}

/// A global buffer the host did not fill (a launch spec's `len` buffer): one bit per byte,
/// set when a kernel stores to it. The bitmap is a zeroed allocation, so its host pages are
/// touched only where the kernel accesses the buffer.
#[derive(Debug)]
pub(crate) struct UninitRange {
    pub base: u64,
    pub len: u64,
    bits: Box<[AtomicU64]>,
}

impl UninitRange {
    pub fn new(base: u64, len: u64) -> UninitRange {
        let n = usize::try_from(len.div_ceil(64)).unwrap_or(0);
        UninitRange {
            base,
            len,
            bits: vec![0u64; n].into_iter().map(AtomicU64::new).collect(),
        }
    }

    /// Whether byte `addr` (inside the range) was written; marks it written if `write`.
    pub fn touch(&self, addr: u64, write: bool) -> bool {
        let i = addr - self.base;
        let Some(w) = self.bits.get((i / 64) as usize) else {
            return true;
        };
        let bit = 1u64 << (i % 64);
        if write {
            w.fetch_or(bit, Ordering::Relaxed);
            true
        } else {
            w.load(Ordering::Relaxed) & bit != 0
        }
    }
}

/// The ranges a launch tracks, sorted by base.
#[derive(Debug, Default)]
pub(crate) struct UninitRanges(pub Vec<Arc<UninitRange>>);

impl UninitRanges {
    #[inline]
    pub fn find(&self, addr: u64) -> Option<&UninitRange> {
        let i = self.0.partition_point(|r| r.base <= addr);
        let r = self.0.get(i.checked_sub(1)?)?;
        (addr - r.base < r.len).then_some(r.as_ref())
    }
}
