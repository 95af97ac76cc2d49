//! Device (global) memory: bounded allocations shared by every host thread.
//!
//! Storage is relaxed `AtomicU32` words: on x86 a relaxed load or store is an ordinary `mov`, so
//! a racy kernel stays a racy kernel instead of undefined behaviour in Rust, and `atom`/`red`
//! map onto real atomic instructions. Sub-word stores are compare-and-swap loops on their word
//! so a concurrent store to a neighbouring byte is never lost. 64-bit atomics take a striped lock
//! (the two halves are separate words); they are atomic with respect to each other.

use std::sync::atomic::{AtomicU32, Ordering::Relaxed};
use std::sync::Mutex;

/// Lowest address handed out; address 0 and the first page stay unmapped so null faults.
const FIRST_BASE: u64 = 0x1_0000;
/// Gap left between allocations so a small overrun faults instead of landing in a neighbour.
const GUARD_BYTES: u64 = 256;
/// Generic-address windows (chosen below 4 GiB so 32-bit addressing can use them too).
pub const GLOBAL_LIMIT: u64 = 0xFC00_0000;
pub const CONST_WINDOW: u64 = 0xFC00_0000;
pub const LOCAL_WINDOW: u64 = 0xFD00_0000;
pub const SHARED_WINDOW: u64 = 0xFE00_0000;
/// Kernel parameters (`cvta.param`), read-only.
pub const PARAM_WINDOW: u64 = 0xFF00_0000;

/// Where `space`'s generic window starts (`cvta`); global addresses are their own generic
/// addresses (0).
pub fn generic_window(space: crate::program::Space) -> u64 {
    use crate::program::Space;
    match space {
        Space::Shared => SHARED_WINDOW,
        Space::Local => LOCAL_WINDOW,
        Space::Const => CONST_WINDOW,
        Space::Param => PARAM_WINDOW,
        Space::Global | Space::Generic => 0,
    }
}
pub const WINDOW_BYTES: u64 = 0x0100_0000;
/// Global memory the simulated device has by default, summed over all allocations
/// ([`GlobalMemory::set_limit`] changes it). Allocations are host memory, so without a budget a
/// kernel declaring a 4 GB `.global` array (or a launch asking for many large buffers) would
/// exhaust the host instead of failing with a message.
pub const DEVICE_MEMORY_BYTES: u64 = 2 << 30;

/// One device allocation.
#[derive(Debug)]
pub struct Allocation {
    pub base: u64,
    pub len: u64,
    words: Box<[AtomicU32]>,
}

/// Why an access failed (the caller adds thread, instruction and space).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemFault {
    OutOfBounds,
    Misaligned,
}

impl Allocation {
    fn new(base: u64, len: u64) -> Allocation {
        let n = usize::try_from(len.div_ceil(4)).unwrap_or(0);
        Allocation {
            base,
            len,
            // `vec![0; n]` is a zeroed allocation (calloc: pages the kernel zeroes when first
            // touched), and the in-place map to atomics compiles to nothing, so an allocation
            // costs host memory only where it is written or read.
            words: vec![0u32; n].into_iter().map(AtomicU32::new).collect(),
        }
    }

    #[inline]
    pub fn contains(&self, addr: u64, size: u64) -> bool {
        addr >= self.base
            && (addr - self.base)
                .checked_add(size)
                .is_some_and(|end| end <= self.len)
    }

    #[inline]
    fn word(&self, off: u64) -> &AtomicU32 {
        // `contains` was checked by the caller; an index past the end cannot happen, but a
        // `get` keeps this total.
        static ZERO: AtomicU32 = AtomicU32::new(0);
        self.words.get((off / 4) as usize).unwrap_or(&ZERO)
    }

    /// Load `size` (1, 2, 4 or 8) little-endian bytes at byte offset `off` (aligned).
    #[inline]
    pub fn load(&self, off: u64, size: u64) -> u64 {
        match size {
            8 => {
                let lo = self.word(off).load(Relaxed) as u64;
                let hi = self.word(off + 4).load(Relaxed) as u64;
                lo | hi << 32
            }
            4 => self.word(off).load(Relaxed) as u64,
            _ => {
                let w = self.word(off).load(Relaxed);
                let shift = (off % 4) * 8;
                let mask = if size == 1 { 0xff } else { 0xffff };
                ((w >> shift) & mask) as u64
            }
        }
    }

    #[inline]
    pub fn store(&self, off: u64, size: u64, v: u64) {
        match size {
            8 => {
                self.word(off).store(v as u32, Relaxed);
                self.word(off + 4).store((v >> 32) as u32, Relaxed);
            }
            4 => self.word(off).store(v as u32, Relaxed),
            _ => {
                let shift = (off % 4) * 8;
                let mask: u32 = if size == 1 { 0xff } else { 0xffff };
                let w = self.word(off);
                let _ = w.fetch_update(Relaxed, Relaxed, |old| {
                    Some((old & !(mask << shift)) | ((v as u32 & mask) << shift))
                });
            }
        }
    }

    /// Atomic 32-bit read-modify-write; `f` gets the old value and returns the new one.
    #[inline]
    pub fn rmw32(&self, off: u64, f: impl Fn(u32) -> u32) -> u32 {
        let w = self.word(off);
        match w.fetch_update(Relaxed, Relaxed, |old| Some(f(old))) {
            Ok(old) | Err(old) => old,
        }
    }

    pub fn word_ref(&self, off: u64) -> &AtomicU32 {
        self.word(off)
    }

    pub fn read_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.len as usize);
        for w in self.words.iter() {
            out.extend_from_slice(&w.load(Relaxed).to_le_bytes());
        }
        out.truncate(self.len as usize);
        out
    }

    /// Copy `data` to byte offset `offset`: whole words at once, sub-word stores only at
    /// unaligned edges.
    pub fn write_bytes(&self, offset: u64, data: &[u8]) {
        let mut off = offset;
        let mut rest = data;
        while !off.is_multiple_of(4) {
            let Some((&b, tail)) = rest.split_first() else {
                return;
            };
            self.store(off, 1, u64::from(b));
            off += 1;
            rest = tail;
        }
        let words = rest.chunks_exact(4);
        let tail = words.remainder();
        for (k, w) in words.enumerate() {
            let v = u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
            self.word(off + 4 * k as u64).store(v, Relaxed);
        }
        let off = off + (rest.len() - tail.len()) as u64;
        for (i, &b) in tail.iter().enumerate() {
            self.store(off + i as u64, 1, u64::from(b));
        }
    }

    /// Append bytes `[from, from + len)` of the allocation to `out` (clamped to its end).
    pub fn read_range_into(&self, from: u64, len: u64, out: &mut Vec<u8>) {
        let end = from.saturating_add(len).min(self.len);
        let mut off = from;
        while off < end && !off.is_multiple_of(4) {
            out.push(self.load(off, 1) as u8);
            off += 1;
        }
        let whole = (end - off.min(end)) / 4;
        out.reserve(whole as usize * 4 + 4);
        let first = (off / 4) as usize;
        for w in self.words.iter().skip(first).take(whole as usize) {
            out.extend_from_slice(&w.load(Relaxed).to_le_bytes());
        }
        off += whole * 4;
        while off < end {
            out.push(self.load(off, 1) as u8);
            off += 1;
        }
    }
}

/// All device allocations, sorted by base address.
#[derive(Debug, Default)]
pub struct GlobalMemory {
    allocs: Vec<Allocation>,
    next: u64,
    /// Bytes allocated so far, against `limit`.
    used: u64,
    /// Most bytes all allocations together may hold.
    limit: u64,
    locks: Locks,
}

#[derive(Debug)]
struct Locks(Vec<Mutex<()>>);

impl Default for Locks {
    fn default() -> Self {
        Locks((0..64).map(|_| Mutex::new(())).collect())
    }
}

impl GlobalMemory {
    pub fn new() -> GlobalMemory {
        GlobalMemory {
            allocs: Vec::new(),
            next: FIRST_BASE,
            used: 0,
            limit: DEVICE_MEMORY_BYTES,
            locks: Locks::default(),
        }
    }

    /// Set the budget for all allocations together (allocations already made count).
    pub fn set_limit(&mut self, bytes: u64) {
        self.limit = bytes;
    }

    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// Bytes allocated so far.
    pub fn used(&self) -> u64 {
        self.used
    }

    /// Bytes that can still be allocated: the smaller of the budget left and the address
    /// space left (guard gaps included).
    pub fn available(&self) -> u64 {
        let space = GLOBAL_LIMIT.saturating_sub(self.next.max(FIRST_BASE));
        self.limit.saturating_sub(self.used).min(space)
    }

    /// Allocate `len` zeroed bytes; `None` when the address space or the budget
    /// ([`GlobalMemory::set_limit`]) is exhausted.
    pub fn alloc(&mut self, len: u64) -> Option<u64> {
        let base = self.next.max(FIRST_BASE);
        let end = base.checked_add(len)?;
        let used = self.used.checked_add(len)?;
        if end > GLOBAL_LIMIT || used > self.limit {
            return None;
        }
        self.used = used;
        self.next = (end + GUARD_BYTES).next_multiple_of(256);
        self.allocs.push(Allocation::new(base, len));
        Some(base)
    }

    /// The allocation containing `[addr, addr+size)`.
    #[inline]
    pub fn find(&self, addr: u64, size: u64) -> Option<&Allocation> {
        let i = self.allocs.partition_point(|a| a.base <= addr);
        let a = self.allocs.get(i.checked_sub(1)?)?;
        a.contains(addr, size).then_some(a)
    }

    /// Remove the allocation at `base` and give its contents as little-endian words (the
    /// last one zero-padded) and its length in bytes. The words reuse the allocation's
    /// storage, so reading a buffer back costs no second copy of it.
    pub fn take(&mut self, base: u64) -> Option<(Vec<u32>, u64)> {
        let i = self.allocs.iter().position(|a| a.base == base)?;
        let a = self.allocs.remove(i);
        self.used = self.used.saturating_sub(a.len);
        let words: Vec<u32> = a
            .words
            .into_vec()
            .into_iter()
            .map(AtomicU32::into_inner)
            .collect();
        Some((words, a.len))
    }

    /// The allocation closest to `addr` (`base`, `len`), for out-of-bounds reports.
    pub fn nearest(&self, addr: u64) -> Option<(u64, u64)> {
        let i = self.allocs.partition_point(|a| a.base <= addr);
        let below = i.checked_sub(1).and_then(|j| self.allocs.get(j));
        let above = self.allocs.get(i);
        let dist_below = below.map(|a| addr.saturating_sub(a.base + a.len));
        let dist_above = above.map(|a| a.base.saturating_sub(addr));
        let a = match (dist_below, dist_above) {
            (Some(b), Some(u)) if u < b => above,
            (Some(_), _) => below,
            _ => above,
        }?;
        Some((a.base, a.len))
    }

    pub fn allocation(&self, base: u64) -> Option<&Allocation> {
        self.find(base, 0).filter(|a| a.base == base)
    }

    pub fn write(&self, addr: u64, data: &[u8]) -> Result<(), MemFault> {
        let a = self
            .find(addr, data.len() as u64)
            .ok_or(MemFault::OutOfBounds)?;
        a.write_bytes(addr - a.base, data);
        Ok(())
    }

    pub fn read(&self, addr: u64, len: u64) -> Result<Vec<u8>, MemFault> {
        let a = self.find(addr, len).ok_or(MemFault::OutOfBounds)?;
        let mut out = Vec::new();
        a.read_range_into(addr - a.base, len, &mut out);
        Ok(out)
    }

    /// 128-bit atomic read-modify-write (`off` 16-byte aligned) under the striped locks of both
    /// 64-bit halves, so it is atomic with the 64-bit atomics on either half.
    pub fn rmw128(&self, a: &Allocation, off: u64, f: impl Fn(u128) -> u128) -> u128 {
        let n = self.locks.0.len();
        let s0 = ((a.base + off) / 8) as usize % n;
        let s1 = ((a.base + off + 8) / 8) as usize % n;
        // Lock in index order so two 128-bit atomics cannot deadlock.
        let (first, second) = (s0.min(s1), s0.max(s1));
        let lock = |i: usize| {
            self.locks
                .0
                .get(i)
                .map(|m| m.lock().unwrap_or_else(|e| e.into_inner()))
        };
        let _g1 = lock(first);
        let _g2 = if second != first { lock(second) } else { None };
        let old = u128::from(a.load(off, 8)) | u128::from(a.load(off + 8, 8)) << 64;
        let new = f(old);
        a.store(off, 8, new as u64);
        a.store(off + 8, 8, (new >> 64) as u64);
        old
    }

    /// 64-bit atomic read-modify-write under a striped lock.
    pub fn rmw64(&self, a: &Allocation, off: u64, f: impl Fn(u64) -> u64) -> u64 {
        let stripe = ((a.base + off) / 8) as usize % self.locks.0.len();
        let _guard = self
            .locks
            .0
            .get(stripe)
            .map(|m| m.lock().unwrap_or_else(|e| e.into_inner()));
        let old = a.load(off, 8);
        a.store(off, 8, f(old));
        old
    }
}

/// Little-endian load from a byte slice (shared, local, const, param spaces).
#[inline]
pub fn load_bytes(mem: &[u8], off: u64, size: u64) -> Option<u64> {
    let s = usize::try_from(off).ok()?;
    let e = s.checked_add(size as usize)?;
    let b = mem.get(s..e)?;
    let mut buf = [0u8; 8];
    buf.get_mut(..b.len())?.copy_from_slice(b);
    Some(u64::from_le_bytes(buf))
}

#[inline]
pub fn store_bytes(mem: &mut [u8], off: u64, size: u64, v: u64) -> Option<()> {
    let s = usize::try_from(off).ok()?;
    let e = s.checked_add(size as usize)?;
    let b = mem.get_mut(s..e)?;
    let bytes = v.to_le_bytes();
    b.copy_from_slice(bytes.get(..b.len())?);
    Some(())
}
