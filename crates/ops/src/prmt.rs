//! `prmt.b32{.mode} d, a, b, c` — byte permute (PTX ISA 2.0 and later, sm_20).
//!
//! The eight source bytes are `{b, a}`: bytes 0–3 from `a`, 4–7 from `b`. In the default mode
//! each nibble `i` of `c` picks result byte `i`: bits 0–2 select a source byte and bit 3, when
//! set, replicates that byte's sign bit over the result byte. The other modes use only `c[1:0]`
//! and select bytes by a fixed pattern (formulas below reproduce the manual's table).

/// Mode suffix of `prmt`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum PrmtMode {
    /// No suffix: per-nibble selectors with sign replication.
    #[default]
    Default,
    /// `.f4e`: forward 4-byte extract.
    F4e,
    /// `.b4e`: backward 4-byte extract.
    B4e,
    /// `.rc8`: replicate one byte.
    Rc8,
    /// `.ecl`: edge clamp left.
    Ecl,
    /// `.ecr`: edge clamp right.
    Ecr,
    /// `.rc16`: replicate one 16-bit half.
    Rc16,
}

#[inline]
fn source_byte(src: u64, index: u32) -> u32 {
    ((src >> (8 * (index & 7))) & 0xff) as u32
}

/// `prmt.b32{.mode} d, a, b, c`.
#[inline]
pub fn prmt(a: u32, b: u32, c: u32, mode: PrmtMode) -> u32 {
    let src = (u64::from(b) << 32) | u64::from(a);
    let s = c & 3;
    let mut d = 0u32;
    for i in 0..4u32 {
        let byte = match mode {
            PrmtMode::Default => {
                let nibble = (c >> (4 * i)) & 0xf;
                let v = source_byte(src, nibble);
                if nibble & 8 != 0 {
                    if v & 0x80 != 0 {
                        0xff
                    } else {
                        0
                    }
                } else {
                    v
                }
            }
            PrmtMode::F4e => source_byte(src, s + i),
            PrmtMode::B4e => source_byte(src, s.wrapping_sub(i)),
            PrmtMode::Rc8 => source_byte(src, s),
            PrmtMode::Ecl => source_byte(src, i.max(s)),
            PrmtMode::Ecr => source_byte(src, i.min(s)),
            PrmtMode::Rc16 => source_byte(src, (i & 1) | ((s & 1) << 1)),
        };
        d |= byte << (8 * i);
    }
    d
}
