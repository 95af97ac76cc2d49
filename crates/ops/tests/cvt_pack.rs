//! `cvt.pack.sat` (PTX ISA 8.x §9.7.9.21): each of `a`, `b` saturated to the destination
//! type's range, `b` in the low bits, `a` above it, and for the 8-, 4- and 2-bit types `c`
//! above both.

use ops::cvt::cvt_pack_sat;

#[test]
fn sixteen_bit_halves_saturate() {
    // u16: -5 -> 0, 70000 -> 0xffff; a high, b low.
    assert_eq!(cvt_pack_sat(-5, 70000, 0, 16, false), 0x0000_ffff);
    assert_eq!(cvt_pack_sat(1234, 5, 0xdead, 16, false), 0x04d2_0005);
    // s16: 40000 -> 0x7fff, -40000 -> 0x8000; -1 stays 0xffff.
    assert_eq!(cvt_pack_sat(40000, -40000, 0, 16, true), 0x7fff_8000);
    assert_eq!(cvt_pack_sat(-1, 0, 0, 16, true), 0xffff_0000);
}

#[test]
fn eight_bit_values_take_c_above_them() {
    // u8: 300 -> 0xff, -1 -> 0x00; c = 0x1234 lands in bits 16..31.
    assert_eq!(cvt_pack_sat(300, -1, 0x1234, 8, false), 0x1234_ff00);
    // s8: -200 -> 0x80, 100 -> 0x64; c's bits past 16 fall off the top.
    assert_eq!(cvt_pack_sat(-200, 100, 0xabcd_0001, 8, true), 0x0001_8064);
    assert_eq!(cvt_pack_sat(i32::MIN, i32::MAX, 0, 8, true), 0x0000_807f);
}

/// The PTX ISA 8.x §9.7.9.21 pseudo-code, bit by bit, with the clamp it intends: `b` in
/// bits `0..size`, `a` in `size..2*size`, and `c`'s low bits in `2*size..32` (for every
/// destination type but `.u16`/`.s16`).
fn pack_by_bits(a: i32, b: i32, c: u32, size: u32, signed: bool) -> u32 {
    let (min, max) = if signed {
        (-(1i64 << (size - 1)), (1i64 << (size - 1)) - 1)
    } else {
        (0, (1i64 << size) - 1)
    };
    let ta = i64::from(a).max(min).min(max);
    let tb = i64::from(b).max(min).min(max);
    let bit = |v: i64, i: u32| (v >> i) & 1 == 1;
    let mut td = [false; 32];
    for (i, t) in td.iter_mut().enumerate().take(size as usize) {
        *t = bit(tb, i as u32);
    }
    for i in size..2 * size {
        td[i as usize] = bit(ta, i - size);
    }
    let mut d = 0u32;
    for (i, &t) in td.iter().enumerate().take(2 * size as usize) {
        d |= u32::from(t) << i;
    }
    if size < 16 {
        for i in 2 * size..32 {
            d |= ((c >> (i - 2 * size)) & 1) << i;
        }
    }
    d
}

/// Every destination width (`.u2/.s2/.u4/.s4/.u8/.s8/.u16/.s16`) over every pair of inputs
/// from a set that covers each range's bounds, one past them and the extremes of `.s32`,
/// with three `c` patterns.
#[test]
fn sub_byte_and_byte_packs_agree_with_the_pseudocode() {
    let mut inputs: Vec<i32> = (-140..=140).collect();
    inputs.extend([
        i32::MIN,
        i32::MIN + 1,
        -40000,
        -32769,
        -32768,
        32767,
        32768,
        65535,
    ]);
    inputs.extend([65536, 40000, i32::MAX - 1, i32::MAX]);
    let mut n = 0u64;
    for size in [2, 4, 8, 16] {
        for signed in [false, true] {
            for c in [0u32, 0xffff_ffff, 0x1234_5679] {
                for &a in &inputs {
                    for &b in &inputs {
                        assert_eq!(
                            cvt_pack_sat(a, b, c, size, signed),
                            pack_by_bits(a, b, c, size, signed),
                            "size {size} signed {signed} a {a} b {b} c {c:#x}"
                        );
                        n += 1;
                    }
                }
            }
        }
    }
    assert!(n > 2_000_000);
}

#[test]
fn four_and_two_bit_packs_by_hand() {
    // .u4: a = -9 clamps to 0, b = 5 stays; c = -1 fills bits 8..32.
    assert_eq!(cvt_pack_sat(-9, 5, 0xffff_ffff, 4, false), 0xffff_ff05);
    // .s4: -9 clamps to -8 (0x8), 5 stays.
    assert_eq!(cvt_pack_sat(-9, 5, 0xffff_ffff, 4, true), 0xffff_ff85);
    // .u2: -9 clamps to 0, 5 to 3; c shifted by 4.
    assert_eq!(cvt_pack_sat(-9, 5, 0xffff_ffff, 2, false), 0xffff_fff3);
    // .s2: -9 clamps to -2 (0b10), 5 to 1 (0b01); c = 5 above them.
    assert_eq!(cvt_pack_sat(-9, 5, 5, 2, true), 0x59);
    // .u4 of in-range values is exact: 0xa, 0x3 under c = 0x1234.
    assert_eq!(cvt_pack_sat(10, 3, 0x1234, 4, false), 0x0012_34a3);
}
