//! Global memory: allocations at caller-chosen addresses, and little-endian byte access.

use crate::Fault;
use std::collections::BTreeMap;

/// Global memory as a set of allocations, each at the base address its caller gives (the
/// differential test maps the executor's buffers at the executor's addresses).
#[derive(Clone, Debug, Default)]
pub struct Memory {
    allocs: BTreeMap<u64, Vec<u8>>,
}

impl Memory {
    pub fn new() -> Memory {
        Memory::default()
    }
    /// Map `bytes` at `base` (replacing an allocation at the same base).
    pub fn map(&mut self, base: u64, bytes: Vec<u8>) {
        self.allocs.insert(base, bytes);
    }
    /// The allocation at `base`.
    pub fn get(&self, base: u64) -> Option<&[u8]> {
        self.allocs.get(&base).map(Vec::as_slice)
    }
    fn find(&mut self, addr: u64, size: u64) -> Option<&mut [u8]> {
        let (&base, bytes) = self.allocs.range_mut(..=addr).next_back()?;
        let off = usize::try_from(addr - base).ok()?;
        let end = off.checked_add(usize::try_from(size).ok()?)?;
        bytes.get_mut(off..end)
    }
    pub(crate) fn load(&mut self, addr: u64, size: u64) -> Result<u128, Fault> {
        let s = self.find(addr, size).ok_or(Fault::OutOfBounds {
            space: "global",
            addr,
        })?;
        Ok(le(s))
    }
    pub(crate) fn store(&mut self, addr: u64, size: u64, v: u128) -> Result<(), Fault> {
        let s = self.find(addr, size).ok_or(Fault::OutOfBounds {
            space: "global",
            addr,
        })?;
        put_le(s, v);
        Ok(())
    }
}

/// The little-endian value of up to 16 bytes.
pub(crate) fn le(s: &[u8]) -> u128 {
    s.iter()
        .rev()
        .fold(0u128, |acc, &b| (acc << 8) | u128::from(b))
}

/// Store `v` little-endian into all of `s`.
pub(crate) fn put_le(s: &mut [u8], v: u128) {
    for (i, b) in s.iter_mut().enumerate() {
        *b = (v >> (8 * i)) as u8;
    }
}

/// Load from a byte buffer of a per-CTA or per-thread space.
pub(crate) fn load_from(
    buf: &[u8],
    space: &'static str,
    off: u64,
    size: u64,
) -> Result<u128, Fault> {
    slice(buf, off, size)
        .map(le)
        .ok_or(Fault::OutOfBounds { space, addr: off })
}

pub(crate) fn store_to(
    buf: &mut [u8],
    space: &'static str,
    off: u64,
    size: u64,
    v: u128,
) -> Result<(), Fault> {
    let s = slice_mut(buf, off, size).ok_or(Fault::OutOfBounds { space, addr: off })?;
    put_le(s, v);
    Ok(())
}

fn slice(buf: &[u8], off: u64, size: u64) -> Option<&[u8]> {
    let o = usize::try_from(off).ok()?;
    buf.get(o..o.checked_add(usize::try_from(size).ok()?)?)
}

fn slice_mut(buf: &mut [u8], off: u64, size: u64) -> Option<&mut [u8]> {
    let o = usize::try_from(off).ok()?;
    buf.get_mut(o..o.checked_add(usize::try_from(size).ok()?)?)
}
