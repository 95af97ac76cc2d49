//! The address spaces a Fermi kernel sees: global buffers, the per-CTA shared window and the
//! per-thread local window, laid out in one generic address space (sm_20's unified
//! addressing: `LD`/`ST` take generic addresses, `LDS`/`LDL` window offsets).
//!
//! Layout (ptxvm's choice; the hardware's is the driver's business, see docs/fermi-exec.md):
//! the shared window at [`SHARED_WINDOW`], the local window at [`LOCAL_WINDOW`], each
//! [`WINDOW_BYTES`] long, and global buffers from [`GLOBAL_BASE`] up, 256-byte aligned with a
//! guard gap between buffers so that running off one buffer faults instead of reading the next.

use crate::error::{FaultKind, Space};
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Mutex;

/// Generic address of shared offset 0 (what `c[0x0][0x0]` holds).
pub const SHARED_WINDOW: u64 = 0x0100_0000;
/// Generic address of local offset 0.
pub const LOCAL_WINDOW: u64 = 0x0200_0000;
/// Size of each window in the generic space.
pub const WINDOW_BYTES: u64 = 0x0100_0000;
/// First global buffer address.
pub const GLOBAL_BASE: u64 = 0x1000_0000;
/// Alignment of, and gap between, global buffers.
const GLOBAL_ALIGN: u64 = 256;

/// Which space a generic address falls in, and the offset within it.
pub enum Generic {
    Shared(u64),
    Local(u64),
    Global(u64),
}

/// Splits a generic address into its window.
pub fn classify(addr: u64) -> Generic {
    if (SHARED_WINDOW..SHARED_WINDOW + WINDOW_BYTES).contains(&addr) {
        Generic::Shared(addr - SHARED_WINDOW)
    } else if (LOCAL_WINDOW..LOCAL_WINDOW + WINDOW_BYTES).contains(&addr) {
        Generic::Local(addr - LOCAL_WINDOW)
    } else {
        Generic::Global(addr)
    }
}

/// Global memory shared by every CTA of a launch. CTAs run in parallel; byte-wise relaxed
/// atomics make plain loads and stores data-race free in Rust terms (a kernel whose CTAs race
/// on the same bytes gets some interleaving, as on the GPU).
#[derive(Default)]
pub struct Global {
    /// `(base address, bytes)`, sorted by address.
    buffers: Vec<(u64, Vec<AtomicU8>)>,
    next: u64,
    /// Serialises `ATOM`/`RED` read-modify-writes across the CTAs running in parallel (plain
    /// stores of other CTAs may still interleave, as they may on the GPU).
    rmw_lock: Mutex<()>,
    /// Global words locked by `LDLK` and not yet released by `STUL`: `(word address, owner)`,
    /// the owner a thread of the whole launch (`Global::owner`).
    word_locks: Mutex<Vec<(u64, u64)>>,
}

impl Global {
    pub fn new() -> Global {
        Global {
            buffers: Vec::new(),
            next: GLOBAL_BASE,
            rmw_lock: Mutex::new(()),
            word_locks: Mutex::new(Vec::new()),
        }
    }

    /// Allocates a buffer holding `data`; returns its address, or `None` if the address space
    /// (32-bit in `-m32` code, `limit`) is exhausted.
    pub fn alloc(&mut self, data: &[u8], limit: u64) -> Option<u64> {
        let base = self.next;
        let len = data.len() as u64;
        let end = base.checked_add(len)?;
        if end > limit {
            return None;
        }
        self.next = end
            .checked_add(2 * GLOBAL_ALIGN - 1)
            .map(|n| n & !(GLOBAL_ALIGN - 1))?;
        self.buffers
            .push((base, data.iter().map(|&b| AtomicU8::new(b)).collect()));
        Some(base)
    }

    /// The contents of the buffer at `base`.
    pub fn read_buffer(&self, base: u64) -> Vec<u8> {
        self.buffers
            .iter()
            .find(|(b, _)| *b == base)
            .map(|(_, d)| d.iter().map(|x| x.load(Ordering::Relaxed)).collect())
            .unwrap_or_default()
    }

    fn bytes(&self, addr: u64, size: u32) -> Result<&[AtomicU8], FaultKind> {
        let oob = FaultKind::OutOfBounds {
            space: Space::Global,
            addr,
            size,
        };
        let i = self.buffers.partition_point(|(b, _)| *b <= addr);
        let (base, data) = i
            .checked_sub(1)
            .and_then(|i| self.buffers.get(i))
            .ok_or(oob.clone())?;
        let off = usize::try_from(addr - base).map_err(|_| oob.clone())?;
        data.get(off..off.saturating_add(size as usize)).ok_or(oob)
    }

    pub fn load(&self, addr: u64, out: &mut [u8]) -> Result<(), FaultKind> {
        let src = self.bytes(addr, out.len() as u32)?;
        for (o, s) in out.iter_mut().zip(src) {
            *o = s.load(Ordering::Relaxed);
        }
        Ok(())
    }

    pub fn store(&self, addr: u64, data: &[u8]) -> Result<(), FaultKind> {
        let dst = self.bytes(addr, data.len() as u32)?;
        for (d, s) in dst.iter().zip(data) {
            d.store(*s, Ordering::Relaxed);
        }
        Ok(())
    }
}

impl Global {
    /// Atomically replaces the `data.len()` bytes at `addr` by `f(old)`; `data` receives the
    /// old bytes.
    pub fn rmw(
        &self,
        addr: u64,
        data: &mut [u8],
        f: impl FnOnce(&[u8]) -> Vec<u8>,
    ) -> Result<(), FaultKind> {
        // A poisoned lock only means another CTA's thread panicked; the bytes are still valid.
        let _guard = self.rmw_lock.lock().unwrap_or_else(|e| e.into_inner());
        self.load(addr, data)?;
        let new = f(data);
        self.store(addr, &new)
    }
}

impl Global {
    /// The lock owner `LDLK`/`STUL` record for thread `thread` of CTA number `cta` (its
    /// linear index in the grid).
    pub fn owner(cta: u64, thread: u32) -> u64 {
        cta << 32 | u64::from(thread)
    }

    /// `LDLK`: loads `out` from `addr` and takes the lock on its word for `owner`, as one
    /// step under the lock table's mutex (so no store of the lock's holder can fall between
    /// the load and the lock). Returns whether `owner` holds the lock now (it was free, or
    /// already its own); the load happens either way.
    pub fn load_locked(&self, addr: u64, out: &mut [u8], owner: u64) -> Result<bool, FaultKind> {
        let mut locks = self.word_locks.lock().unwrap_or_else(|e| e.into_inner());
        self.load(addr, out)?;
        let word = addr & !3;
        Ok(match locks.iter().find(|(w, _)| *w == word) {
            Some(&(_, o)) => o == owner,
            None => {
                locks.push((word, owner));
                true
            }
        })
    }

    /// `STUL`: stores `data` at `addr` and releases the lock on its word if `owner` holds it.
    pub fn store_unlock(&self, addr: u64, data: &[u8], owner: u64) -> Result<(), FaultKind> {
        let mut locks = self.word_locks.lock().unwrap_or_else(|e| e.into_inner());
        self.store(addr, data)?;
        let word = addr & !3;
        locks.retain(|&(w, o)| !(w == word && o == owner));
        Ok(())
    }
}

/// The byte range `[off, off+size)` of a window of `len` bytes, or the fault.
pub fn window_range(
    space: Space,
    off: u64,
    size: u32,
    len: usize,
) -> Result<std::ops::Range<usize>, FaultKind> {
    let start = usize::try_from(off).ok();
    let end = start.and_then(|s| s.checked_add(size as usize));
    match (start, end) {
        (Some(s), Some(e)) if e <= len => Ok(s..e),
        _ => Err(FaultKind::OutOfBounds {
            space,
            addr: off,
            size,
        }),
    }
}

/// `Misaligned` unless `addr` is a multiple of `size`.
pub fn check_aligned(space: Space, addr: u64, size: u32) -> Result<(), FaultKind> {
    if addr.is_multiple_of(u64::from(size.max(1))) {
        Ok(())
    } else {
        Err(FaultKind::Misaligned { space, addr, size })
    }
}
