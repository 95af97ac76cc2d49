//! Shadow memory of one CTA: per byte, who wrote it last and who read it since the last
//! barrier; per warp, which register lanes and local bytes have been written.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Thread index + 1 (0 = nobody).
pub(crate) type Who = u32;

/// When an access happened, in the terms the ordering test needs
/// ([`super::hook::CtaSanitizer`]'s `ordered`): the thread, the instruction, the thread's
/// warp's vector-clock component, its `__syncwarp` count and the CTA's instruction serial.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Stamp {
    pub who: Who,
    pub pc: u32,
    pub clock: u32,
    pub sync: u32,
    pub serial: u32,
}

/// The history of one byte of shared or global memory within the current CTA.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ByteShadow {
    /// Last plain or atomic writer (`who` 0: never written).
    pub w: Stamp,
    /// Whether the last write was atomic (atomics do not race with each other).
    pub w_atomic: bool,
    /// The byte the last write stored (two lanes of one instruction storing different
    /// values to one byte race; the same value does not).
    pub w_val: u8,
    /// A reader not ordered before the latest accesses, and a second one from another
    /// thread (two readers are enough to find a write racing with a read, as in
    /// compute-sanitizer's shadow). `serial` is unused for readers.
    pub r0: Stamp,
    pub r1: Stamp,
    /// The first plain store and the first read of the byte in this CTA (thread, pc), for
    /// the race check between CTAs when the CTA ends.
    pub cta_w: Mark,
    pub cta_r: Mark,
}

/// A thread and an instruction (`who` 0: none).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Mark {
    pub who: Who,
    pub pc: u32,
}

/// A multiply-shift hasher for page numbers (the std SipHash costs more than the rest of
/// a shadow update; addresses are not attacker-chosen keys here).
#[derive(Default)]
pub(crate) struct AddrHasher(u64);

impl Hasher for AddrHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (x ^ (x >> 29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// Device bytes per page of the CTA's global shadow: one 64-byte line, so a CTA that
/// touches a few scattered words costs a few pages, not a big block.
pub(crate) const PAGE: u64 = 64;

/// Host bytes one worker's global shadow may hold (80 bytes per device byte, 5 KiB per 64-byte page):
/// 512 MiB tracks about 7 million device bytes per CTA. A CTA that touches more is checked
/// on the pages it touched first; the rest are counted as unchecked and reported.
pub(crate) const GLOBAL_SHADOW_HOST_BYTES: usize = 512 << 20;

/// The global-memory shadow of one CTA: pages of [`ByteShadow`] allocated on first touch
/// and reused by the worker's next CTA (so a CTA costs only the pages it touches).
#[derive(Default)]
pub(crate) struct GlobalShadow {
    index: HashMap<u64, u32, BuildHasherDefault<AddrHasher>>,
    pages: Vec<Box<[ByteShadow]>>,
    used: usize,
    /// Most pages held (from the host-memory budget).
    max_pages: usize,
    /// The page found last and its slot (accesses come in runs within a page).
    last: Option<(u64, u32)>,
    /// Device bytes not tracked because the shadow was full.
    pub unchecked: u64,
}

impl GlobalShadow {
    /// Forget the previous CTA's accesses; hold at most `host_bytes` from now on.
    pub fn clear(&mut self, host_bytes: usize) {
        self.max_pages = host_bytes / (PAGE as usize * std::mem::size_of::<ByteShadow>());
        self.pages.truncate(self.max_pages);
        self.index.clear();
        self.last = None;
        self.used = 0;
        self.unchecked = 0;
    }

    /// The shadow of byte `addr`, allocating its page; `None` when the shadow is full.
    pub fn get(&mut self, addr: u64) -> Option<&mut ByteShadow> {
        let page = addr / PAGE;
        let cached = self.last.filter(|l| l.0 == page).map(|l| l.1);
        let slot = match cached.or_else(|| self.index.get(&page).copied()) {
            Some(i) => i as usize,
            None => {
                if self.used >= self.max_pages {
                    self.unchecked += 1;
                    return None;
                }
                let i = self.used;
                match self.pages.get_mut(i) {
                    Some(p) => p.fill(ByteShadow::default()),
                    None => self
                        .pages
                        .push(vec![ByteShadow::default(); PAGE as usize].into_boxed_slice()),
                }
                self.used += 1;
                self.index.insert(page, i as u32);
                i
            }
        };
        self.last = Some((page, slot as u32));
        self.pages.get_mut(slot)?.get_mut((addr % PAGE) as usize)
    }

    /// Every tracked page: its first device address and its bytes' shadows.
    pub fn pages(&self) -> impl Iterator<Item = (u64, &[ByteShadow])> {
        self.index.iter().filter_map(move |(&page, &i)| {
            self.pages.get(i as usize).map(|p| (page * PAGE, &p[..]))
        })
    }
}
/// Which lanes of each register have been written, and which local bytes.
#[derive(Clone, Debug, Default)]
pub(crate) struct WarpShadow {
    pub r32: Vec<u32>,
    pub r64: Vec<u32>,
    pub pred: Vec<u32>,
    /// One bit per byte of the warp's local memory (lane-major like `Warp::local`); empty
    /// until the warp first touches local memory.
    pub local: Vec<u64>,
}

impl WarpShadow {
    pub fn reset(&mut self, n32: usize, n64: usize, npred: usize) {
        for (v, n) in [
            (&mut self.r32, n32),
            (&mut self.r64, n64),
            (&mut self.pred, npred),
        ] {
            v.clear();
            v.resize(n, 0);
        }
        self.local.clear();
    }

    /// The lanes of a register that were written.
    pub fn written(&self, r: crate::program::Reg) -> u32 {
        use crate::program::Reg;
        let (v, i) = match r {
            Reg::R32(r) => (&self.r32, r.0 as usize),
            Reg::R64(r) => (&self.r64, r.0 as usize),
            Reg::Pred(p) => (&self.pred, p.0 as usize),
        };
        // A slot the table does not know is treated as written (no false report).
        v.get(i).copied().unwrap_or(u32::MAX)
    }

    pub fn mark(&mut self, r: crate::program::Reg, mask: u32) {
        use crate::program::Reg;
        let (v, i) = match r {
            Reg::R32(r) => (&mut self.r32, r.0 as usize),
            Reg::R64(r) => (&mut self.r64, r.0 as usize),
            Reg::Pred(p) => (&mut self.pred, p.0 as usize),
        };
        if let Some(x) = v.get_mut(i) {
            *x |= mask;
        }
    }

    fn local_bits(&mut self, local_bytes: u32) -> &mut Vec<u64> {
        if self.local.is_empty() {
            let bits = local_bytes as usize * crate::lanes::LANES;
            self.local.resize(bits.div_ceil(64), 0);
        }
        &mut self.local
    }

    /// Mark `[off, off+len)` of `lane`'s local memory written.
    pub fn local_write(&mut self, local_bytes: u32, lane: usize, off: u64, len: u64) {
        let base = lane as u64 * local_bytes as u64;
        let end = (off.saturating_add(len)).min(local_bytes as u64);
        let bits = self.local_bits(local_bytes);
        for b in off.min(end)..end {
            let i = base + b;
            if let Some(w) = bits.get_mut((i / 64) as usize) {
                *w |= 1 << (i % 64);
            }
        }
    }

    /// Whether every byte of `[off, off+len)` of `lane`'s local memory was written.
    pub fn local_written(&mut self, local_bytes: u32, lane: usize, off: u64, len: u64) -> bool {
        let base = lane as u64 * local_bytes as u64;
        let end = (off.saturating_add(len)).min(local_bytes as u64);
        let bits = self.local_bits(local_bytes);
        (off.min(end)..end).all(|b| {
            let i = base + b;
            bits.get((i / 64) as usize)
                .is_none_or(|w| w >> (i % 64) & 1 != 0)
        })
    }
}
