//! `prmt.b32{.mode}`: the mode table of the PTX ISA manual (section "prmt") transcribed as
//! data, and every 16-bit default-mode selector against a byte-array model.

use ops::prmt::{prmt, PrmtMode};

/// Manual table: for each mode and selector c[1:0], source byte indices of d.b3 d.b2 d.b1 d.b0.
const TABLE: [(PrmtMode, [[u32; 4]; 4]); 6] = [
    (
        PrmtMode::F4e,
        [[3, 2, 1, 0], [4, 3, 2, 1], [5, 4, 3, 2], [6, 5, 4, 3]],
    ),
    (
        PrmtMode::B4e,
        [[5, 6, 7, 0], [6, 7, 0, 1], [7, 0, 1, 2], [0, 1, 2, 3]],
    ),
    (
        PrmtMode::Rc8,
        [[0, 0, 0, 0], [1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3]],
    ),
    (
        PrmtMode::Ecl,
        [[3, 2, 1, 0], [3, 2, 1, 1], [3, 2, 2, 2], [3, 3, 3, 3]],
    ),
    (
        PrmtMode::Ecr,
        [[0, 0, 0, 0], [1, 1, 1, 0], [2, 2, 1, 0], [3, 2, 1, 0]],
    ),
    (
        PrmtMode::Rc16,
        [[1, 0, 1, 0], [3, 2, 3, 2], [1, 0, 1, 0], [3, 2, 3, 2]],
    ),
];

const A: u32 = 0x8877_6655;
const B: u32 = 0x44f3_2211;

fn bytes(a: u32, b: u32) -> [u8; 8] {
    let mut v = [0u8; 8];
    v[..4].copy_from_slice(&a.to_le_bytes());
    v[4..].copy_from_slice(&b.to_le_bytes());
    v
}

#[test]
fn mode_table() {
    let src = bytes(A, B);
    for (mode, rows) in TABLE {
        for (sel, row) in rows.iter().enumerate() {
            let want = u32::from_le_bytes([
                src[row[3] as usize],
                src[row[2] as usize],
                src[row[1] as usize],
                src[row[0] as usize],
            ]);
            // Only c[1:0] matters in these modes: upper selector bits must be ignored.
            for high in [0u32, 0xffff_fff0, 0x1234_5670] {
                assert_eq!(prmt(A, B, sel as u32 | high, mode), want, "{mode:?} {sel}");
            }
        }
    }
}

#[test]
fn default_mode_every_selector() {
    for (a, b) in [(A, B), (0x0102_0304, 0x8090_a0b0), (u32::MAX, 0)] {
        let src = bytes(a, b);
        for c in 0..=0xffffu32 {
            let mut d = [0u8; 4];
            for (i, out) in d.iter_mut().enumerate() {
                let nib = (c >> (4 * i)) & 0xf;
                let byte = src[(nib & 7) as usize];
                // msb of the selector: replicate the byte's sign bit.
                *out = if nib & 8 == 0 {
                    byte
                } else if byte >= 0x80 {
                    0xff
                } else {
                    0
                };
            }
            assert_eq!(
                prmt(a, b, c | 0xabcd_0000, PrmtMode::Default),
                u32::from_le_bytes(d),
                "{c:#x}"
            );
        }
    }
}

#[test]
fn manual_examples() {
    // Identity and the byte swap idiom (selector 0x0123).
    assert_eq!(prmt(0x1122_3344, 0, 0x3210, PrmtMode::Default), 0x1122_3344);
    assert_eq!(prmt(0x1122_3344, 0, 0x0123, PrmtMode::Default), 0x4433_2211);
    // Taking all of b.
    assert_eq!(
        prmt(0x1122_3344, 0x5566_7788, 0x7654, PrmtMode::Default),
        0x5566_7788
    );
    // Sign replication from byte 1 (0x80 → 0xff) into d.b0.
    assert_eq!(prmt(0x0000_8000, 0, 0x0009, PrmtMode::Default), 0x0000_00ff);
}
