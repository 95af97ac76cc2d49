//! Shadow memory of one CTA: per byte, who wrote it last and who read it since the last
//! barrier; per warp, which register lanes and local bytes have been written.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Thread index + 1 (0 = nobody).
pub(crate) type Who = u32;

/// The history of one byte of shared or global memory within the current CTA.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ByteShadow {
    /// Last plain or atomic writer (0: never written).
    pub writer: Who,
    pub w_epoch: u32,
    pub w_pc: u32,
    /// Whether the last write was atomic (atomics do not race with each other).
    pub w_atomic: bool,
    /// First reader of the epoch `r_epoch`, and the first reader from another warp than it.
    pub r0: Who,
    pub r0_pc: u32,
    pub r1: Who,
    pub r1_pc: u32,
    pub r_epoch: u32,
}

/// A multiply-shift hasher for byte addresses (the std SipHash costs more than the rest of
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

pub(crate) type GlobalShadow = HashMap<u64, ByteShadow, BuildHasherDefault<AddrHasher>>;

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
