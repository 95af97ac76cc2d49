//! Bit order and field access.
//!
//! cuobjdump prints a Fermi instruction as `0xAAAAAAAABBBBBBBB` where `AAAAAAAA` is the first
//! 32-bit word in memory and `BBBBBBBB` the second. The public API takes and returns that printed
//! number (a "listing word"). Inside this module tree bits are numbered as the asfermi spec page
//! numbers them: bit 0 is the least significant bit of the first word, bit 63 the most
//! significant bit of the second (the "instruction bits"). The two differ by swapping halves.

/// Listing word (as cuobjdump prints it) → instruction bits (spec numbering).
pub const fn from_listing(word: u64) -> u64 {
    word.rotate_left(32)
}

/// Instruction bits (spec numbering) → listing word (as cuobjdump prints it).
pub const fn to_listing(bits: u64) -> u64 {
    bits.rotate_left(32)
}

/// The 8 bytes of an instruction as stored in a cubin's `.text` section.
pub const fn listing_to_bytes(word: u64) -> [u8; 8] {
    from_listing(word).to_le_bytes()
}

/// The listing word of 8 bytes of a cubin's `.text` section.
pub const fn listing_from_bytes(bytes: [u8; 8]) -> u64 {
    to_listing(u64::from_le_bytes(bytes))
}

/// A mask of `width` bits starting at `lo`.
pub const fn mask(lo: u8, width: u8) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        ((1u64 << width) - 1) << lo
    }
}

/// Reads `width` (0..=64) bits at `lo`.
#[inline]
pub fn get(bits: u64, lo: u8, width: u8) -> u64 {
    let m = u64::MAX
        .checked_shr(64u32.saturating_sub(width.into()))
        .unwrap_or(0);
    (bits >> (lo & 63)) & m
}

/// Writes `value` (truncated to `width` bits) at `lo`.
pub const fn put(bits: u64, lo: u8, width: u8, value: u64) -> u64 {
    (bits & !mask(lo, width)) | ((value << lo) & mask(lo, width))
}

/// Sign-extends the low `width` bits of `v`.
pub const fn sext(v: u64, width: u8) -> i64 {
    let shift = 64 - width as u32;
    ((v << shift) as i64) >> shift
}

/// Gathers the listed bits (least significant first) into a small value.
pub fn gather(bits: u64, positions: &[u8]) -> u64 {
    positions
        .iter()
        .enumerate()
        .fold(0, |acc, (i, &p)| acc | (((bits >> p) & 1) << i))
}

/// Scatters a small value's bits to the listed positions (least significant first).
pub fn scatter(positions: &[u8], value: u64) -> u64 {
    positions
        .iter()
        .enumerate()
        .fold(0, |acc, (i, &p)| acc | (((value >> i) & 1) << p))
}

/// Parses a template written least significant bit first (`0`/`1`, spaces ignored).
/// Returns `None` unless it has exactly 64 digits. A `const fn` so the rows compile at build
/// time.
pub const fn parse_template(t: &str) -> Option<u64> {
    let mut v = 0u64;
    let mut n = 0u32;
    let mut rest = t.as_bytes();
    while let Some((&c, tail)) = rest.split_first() {
        rest = tail;
        match c {
            b' ' => {}
            b'0' | b'1' => {
                if n >= 64 {
                    return None;
                }
                if c == b'1' {
                    v |= 1 << n;
                }
                n += 1;
            }
            _ => return None,
        }
    }
    if n == 64 {
        Some(v)
    } else {
        None
    }
}
