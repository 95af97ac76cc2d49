//! numpy's `.npy` format, version 1.0: magic, version, a little-endian u16 header length, a
//! Python dict literal naming dtype, order and shape, space-padded and ending in a newline so
//! the data starts at a multiple of 64 bytes; then the raw little-endian elements.

use crate::launch_spec::ElemType;

/// numpy's dtype string for an element type (`b` types are unsigned integers of their width).
pub fn descr(ty: ElemType) -> &'static str {
    match ty {
        ElemType::U8 | ElemType::B8 => "|u1",
        ElemType::S8 => "|i1",
        ElemType::U16 | ElemType::B16 => "<u2",
        ElemType::S16 => "<i2",
        ElemType::U32 | ElemType::B32 => "<u4",
        ElemType::S32 => "<i4",
        ElemType::U64 | ElemType::B64 => "<u8",
        ElemType::S64 => "<i8",
        ElemType::F16 => "<f2",
        ElemType::F32 => "<f4",
        ElemType::F64 => "<f8",
    }
}

/// The header (magic through the newline) of a one-dimensional array of `n` elements.
pub fn header(ty: ElemType, n: u64) -> Vec<u8> {
    let dict = format!(
        "{{'descr': '{}', 'fortran_order': False, 'shape': ({n},), }}",
        descr(ty)
    );
    // 6 magic + 2 version + 2 length bytes, then the dict, padding and a newline.
    let unpadded = 10 + dict.len() + 1;
    let pad = unpadded.next_multiple_of(64) - unpadded;
    let len = (dict.len() + pad + 1) as u16;
    let mut h = Vec::with_capacity(unpadded + pad);
    h.extend_from_slice(b"\x93NUMPY\x01\x00");
    h.extend_from_slice(&len.to_le_bytes());
    h.extend_from_slice(dict.as_bytes());
    h.resize(h.len() + pad, b' ');
    h.push(b'\n');
    h
}
