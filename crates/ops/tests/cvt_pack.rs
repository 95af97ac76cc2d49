//! `cvt.pack.sat` (PTX ISA 8.x §9.7.9.21): each of `a`, `b` saturated to the destination
//! type's range, `b` in the low bits, `a` above it, and for 8-bit types `c` above both.

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
