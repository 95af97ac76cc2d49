//! SIMD video instructions (§9.7.18.2) against a line-by-line transcription of the spec's
//! pseudo-code: every pair of byte values in every lane for the `4` forms, one half-word
//! operand swept against edge values for the `2` forms, every byte/half-word selector, every
//! mask, and worked examples.

use ops::video::{self, ByteLanes, HalfLanes, Mask2, Mask4, Sign, Simd2Mode, Simd4Mode, VCmp};
use proptest::prelude::*;

const CMPS: [VCmp; 6] = [VCmp::Eq, VCmp::Ne, VCmp::Lt, VCmp::Le, VCmp::Gt, VCmp::Ge];

#[derive(Clone, Copy, Debug)]
enum Op {
    Add,
    Sub,
    Avrg,
    Absdiff,
    Min,
    Max,
    Set(VCmp),
}

fn all_ops() -> Vec<Op> {
    let mut v = vec![Op::Add, Op::Sub, Op::Avrg, Op::Absdiff, Op::Min, Op::Max];
    v.extend(CMPS.iter().map(|&c| Op::Set(c)));
    v
}

/// Transcription of the lane pipeline for `n` lanes of `w` bits. `sel[i]` is the source part
/// of lane `i` in `{b, a}`, bit `i` of `mask` whether lane `i` is written.
#[allow(clippy::too_many_arguments)]
fn simd_ref(
    op: Op,
    n: usize,
    w: u32,
    a: u32,
    b: u32,
    c: u32,
    dtype: Sign,
    atype: Sign,
    btype: Sign,
    asel: &[u8],
    bsel: &[u8],
    mask: u8,
    sat: bool,
    add: bool,
) -> u32 {
    let parts = |x: u64, k: u8, sign: Sign| -> i64 {
        let v = ((x >> (u32::from(k) * w)) & ((1 << w) - 1)) as i64;
        if sign == Sign::Signed && v >= 1 << (w - 1) {
            v - (1 << w)
        } else {
            v
        }
    };
    let ab = (u64::from(b) << 32) | u64::from(a);
    let mut t = [0i64; 4];
    for i in 0..n {
        let va = parts(ab, asel[i], atype);
        let vb = parts(ab, bsel[i], btype);
        t[i] = match op {
            Op::Add => va + vb,
            Op::Sub => va - vb,
            Op::Avrg => {
                if va + vb >= 0 {
                    (va + vb + 1) >> 1
                } else {
                    (va + vb) >> 1
                }
            }
            Op::Absdiff => (va - vb).abs(),
            Op::Min => va.min(vb),
            Op::Max => va.max(vb),
            Op::Set(cmp) => i64::from(match cmp {
                VCmp::Eq => va == vb,
                VCmp::Ne => va != vb,
                VCmp::Lt => va < vb,
                VCmp::Le => va <= vb,
                VCmp::Gt => va > vb,
                VCmp::Ge => va >= vb,
            }),
        };
        if sat && !matches!(op, Op::Set(_)) {
            t[i] = if dtype == Sign::Signed {
                t[i].clamp(-(1 << (w - 1)), (1 << (w - 1)) - 1)
            } else {
                t[i].clamp(0, (1 << w) - 1)
            };
        }
    }
    let lane_mask = (1u64 << w) - 1;
    if add {
        let mut d = i64::from(c);
        for (i, &ti) in t.iter().enumerate().take(n) {
            d += if mask >> i & 1 == 1 { ti } else { 0 };
        }
        (d as u64 & 0xffff_ffff) as u32
    } else {
        let mut d = 0u64;
        for (i, &ti) in t.iter().enumerate().take(n) {
            let shift = w * i as u32;
            d |= if mask >> i & 1 == 1 {
                ((ti as u64) & lane_mask) << shift
            } else {
                u64::from(c) & (lane_mask << shift)
            };
        }
        d as u32
    }
}

fn impl4(op: Op, a: u32, b: u32, c: u32, m: Simd4Mode) -> u32 {
    match op {
        Op::Add => video::vadd4(a, b, c, m),
        Op::Sub => video::vsub4(a, b, c, m),
        Op::Avrg => video::vavrg4(a, b, c, m),
        Op::Absdiff => video::vabsdiff4(a, b, c, m),
        Op::Min => video::vmin4(a, b, c, m),
        Op::Max => video::vmax4(a, b, c, m),
        Op::Set(cmp) => video::vset4(a, b, c, m, cmp),
    }
}

fn impl2(op: Op, a: u32, b: u32, c: u32, m: Simd2Mode) -> u32 {
    match op {
        Op::Add => video::vadd2(a, b, c, m),
        Op::Sub => video::vsub2(a, b, c, m),
        Op::Avrg => video::vavrg2(a, b, c, m),
        Op::Absdiff => video::vabsdiff2(a, b, c, m),
        Op::Min => video::vmin2(a, b, c, m),
        Op::Max => video::vmax2(a, b, c, m),
        Op::Set(cmp) => video::vset2(a, b, c, m, cmp),
    }
}

fn check4(op: Op, a: u32, b: u32, c: u32, m: Simd4Mode) {
    let (asel, bsel, mask) = (m.asel.sources(), m.bsel.sources(), m.mask.bits());
    let want = simd_ref(
        op, 4, 8, a, b, c, m.dtype, m.atype, m.btype, &asel, &bsel, mask, m.sat, m.add,
    );
    assert_eq!(
        impl4(op, a, b, c, m),
        want,
        "{op:?} a={a:#x} b={b:#x} c={c:#x} {m:?}"
    );
}

fn check2(op: Op, a: u32, b: u32, c: u32, m: Simd2Mode) {
    let (asel, bsel, mask) = (m.asel.sources(), m.bsel.sources(), m.mask.bits());
    let want = simd_ref(
        op, 2, 16, a, b, c, m.dtype, m.atype, m.btype, &asel, &bsel, mask, m.sat, m.add,
    );
    assert_eq!(
        impl2(op, a, b, c, m),
        want,
        "{op:?} a={a:#x} b={b:#x} c={c:#x} {m:?}"
    );
}

/// (dtype, atype, btype) for index 0..8.
fn types(k: u32) -> (Sign, Sign, Sign) {
    let s = |bit: u32| {
        if k >> bit & 1 == 1 {
            Sign::Signed
        } else {
            Sign::Unsigned
        }
    };
    (s(0), s(1), s(2))
}

#[test]
fn quad_byte_every_byte_pair_in_every_lane() {
    let ops = all_ops();
    for x in 0..=255u32 {
        for y in 0..=255u32 {
            // With the default selectors lane i pairs a.byte[i] with b.byte[i]; each lane
            // sees a bijection of (x, y), so every lane gets every pair of byte values.
            let a = x | (x ^ 0x80) << 8 | y << 16 | (!x & 0xff) << 24;
            let b = y | (!y & 0xff) << 8 | x << 16 | (y ^ 0x80) << 24;
            let c = (x * 0x0101_0101) ^ (y << 5) ^ 0x8001_7ffe;
            let mask = ((x ^ y) & 0xf) as u8;
            for &op in &ops {
                for k in 0..8 {
                    let (dtype, atype, btype) = types(k);
                    // Every flag combination reaches every (x, y) through the rotation.
                    let (sat, add) =
                        [(false, false), (true, false), (false, true)][((x + y + k) % 3) as usize];
                    let m = Simd4Mode {
                        sat,
                        add,
                        mask: Mask4::new(mask).unwrap(),
                        ..Simd4Mode::new(dtype, atype, btype)
                    };
                    check4(op, a, b, c, m);
                }
            }
        }
    }
}

#[test]
fn quad_byte_every_selector_and_mask() {
    let values = [
        (0x80ff_017fu32, 0x7f00_fe81u32),
        (0x1234_5678, 0x9abc_def0),
        (0xffff_ffff, 0),
    ];
    let ops = all_ops();
    for sel in 0..4096u32 {
        let asel = [
            (sel & 7) as u8,
            (sel >> 3 & 7) as u8,
            (sel >> 6 & 7) as u8,
            (sel >> 9 & 7) as u8,
        ];
        let bsel = [asel[3] ^ 5, asel[0] ^ 3, asel[2] ^ 6, asel[1] ^ 1];
        let mask = (sel % 16) as u8;
        for &(a, b) in &values {
            for &op in &ops {
                let k = sel % 8;
                let (dtype, atype, btype) = types(k);
                let m = Simd4Mode {
                    dtype,
                    atype,
                    btype,
                    asel: ByteLanes::new(asel).unwrap(),
                    bsel: ByteLanes::new(bsel).unwrap(),
                    mask: Mask4::new(mask).unwrap(),
                    sat: sel & 16 != 0,
                    add: sel & 32 != 0,
                };
                check4(op, a, b, 0xcafe_f00d, m);
            }
        }
    }
}

#[test]
fn dual_half_word_one_lane_swept() {
    let edges = [0u32, 1, 0x7fff, 0x8000, 0xffff];
    let ops = all_ops();
    for x in 0..=0xffffu32 {
        for &e in &edges {
            let a = x | e << 16;
            let b = e | x << 16;
            let c = x.rotate_left(13) ^ 0x8000_7fff;
            let mask = (x % 4) as u8;
            for &op in &ops {
                // Half of the type combinations per value, alternating with x.
                for k in (0..8).filter(|k| (k + x) % 2 == 0) {
                    let (dtype, atype, btype) = types(k);
                    let (sat, add) =
                        [(false, false), (true, false), (false, true)][((x + k) % 3) as usize];
                    let m = Simd2Mode {
                        sat,
                        add,
                        mask: Mask2::new(mask).unwrap(),
                        ..Simd2Mode::new(dtype, atype, btype)
                    };
                    check2(op, a, b, c, m);
                }
            }
        }
    }
}

#[test]
fn dual_half_word_every_selector_and_mask() {
    let values = [
        (0x8000_7fffu32, 0xffff_0001u32),
        (0x1234_5678, 0x9abc_def0),
        (0xffff_ffff, 0),
    ];
    let ops = all_ops();
    for sel in 0..256u32 {
        let asel = [(sel & 3) as u8, (sel >> 2 & 3) as u8];
        let bsel = [(sel >> 4 & 3) as u8, (sel >> 6 & 3) as u8];
        for mask in 0..4u8 {
            for &(a, b) in &values {
                for &op in &ops {
                    for k in 0..8 {
                        let (dtype, atype, btype) = types(k);
                        for (sat, add) in [(false, false), (true, false), (false, true)] {
                            let m = Simd2Mode {
                                dtype,
                                atype,
                                btype,
                                asel: HalfLanes::new(asel).unwrap(),
                                bsel: HalfLanes::new(bsel).unwrap(),
                                mask: Mask2::new(mask).unwrap(),
                                sat,
                                add,
                            };
                            check2(op, a, b, 0x1357_9bdf, m);
                        }
                    }
                }
            }
        }
    }
}

proptest! {
    #[test]
    fn quad_random(a in any::<u32>(), b in any::<u32>(), c in any::<u32>(), asel in prop::array::uniform4(0u8..8), bsel in prop::array::uniform4(0u8..8), mask in 0u8..16, k in 0u32..8, sat in any::<bool>(), add in any::<bool>()) {
        let (dtype, atype, btype) = types(k);
        let m = Simd4Mode { dtype, atype, btype, asel: ByteLanes::new(asel).unwrap(), bsel: ByteLanes::new(bsel).unwrap(), mask: Mask4::new(mask).unwrap(), sat, add };
        for op in all_ops() {
            check4(op, a, b, c, m);
        }
    }

    #[test]
    fn dual_random(a in any::<u32>(), b in any::<u32>(), c in any::<u32>(), asel in prop::array::uniform2(0u8..4), bsel in prop::array::uniform2(0u8..4), mask in 0u8..4, k in 0u32..8, sat in any::<bool>(), add in any::<bool>()) {
        let (dtype, atype, btype) = types(k);
        let m = Simd2Mode { dtype, atype, btype, asel: HalfLanes::new(asel).unwrap(), bsel: HalfLanes::new(bsel).unwrap(), mask: Mask2::new(mask).unwrap(), sat, add };
        for op in all_ops() {
            check2(op, a, b, c, m);
        }
    }
}

#[test]
fn selector_constructors() {
    // Defaults: .h10/.h32, .b3210/.b7654, masks .h10 and .b3210.
    assert_eq!(HalfLanes::H10.sources(), [0, 1]);
    assert_eq!(HalfLanes::H32.sources(), [2, 3]);
    assert_eq!(ByteLanes::B3210.sources(), [0, 1, 2, 3]);
    assert_eq!(ByteLanes::B7654.sources(), [4, 5, 6, 7]);
    // PTX digits are written from the top lane down.
    assert_eq!(
        ByteLanes::from_ptx_digits([3, 2, 1, 0]),
        Some(ByteLanes::B3210)
    );
    assert_eq!(
        ByteLanes::from_ptx_digits([7, 6, 5, 4]),
        Some(ByteLanes::B7654)
    );
    assert_eq!(HalfLanes::from_ptx_digits([3, 2]), Some(HalfLanes::H32));
    assert_eq!(ByteLanes::from_ptx_digits([8, 0, 0, 0]), None);
    assert_eq!(HalfLanes::new([0, 4]), None);
    assert_eq!(Mask4::new(16), None);
    assert_eq!(Mask2::new(4), None);
    assert_eq!(Mask4::new(0b1111), Some(Mask4::B3210));
    assert_eq!(Mask2::new(0b11), Some(Mask2::H10));
}

#[test]
fn spec_examples_worked_by_hand() {
    use Sign::{Signed as S, Unsigned as U};
    // vadd2.s32.s32.u32.sat r1, r2, r3, r1: lanes (-32768 + 65535) and (32767 + 1) clamp to
    // the signed half-word range: 32767 and 32767.
    let m = Simd2Mode {
        sat: true,
        ..Simd2Mode::new(S, S, U)
    };
    assert_eq!(video::vadd2(0x7fff_8000, 0x0001_ffff, 0, m), 0x7fff_7fff);
    // vsub2.s32.s32.s32.sat r1.h0, r2.h10, r3.h32, r1: only lane 0 written (5 - 7 = -2).
    let m = Simd2Mode {
        sat: true,
        mask: Mask2::new(0b01).unwrap(),
        ..Simd2Mode::new(S, S, S)
    };
    assert_eq!(
        video::vsub2(0x0000_0005, 0x0000_0007, 0xabcd_1234, m),
        0xabcd_fffe
    );
    // vmin2.s32.u32.u32.add r1.h10, r2.h00, r3.h22, r1: both lanes min(a.h0, b.h0) summed
    // into c: a.h0 = 10, b.h0 = 4 → 4 + 4 + 100.
    let m = Simd2Mode {
        add: true,
        asel: HalfLanes::from_ptx_digits([0, 0]).unwrap(),
        bsel: HalfLanes::from_ptx_digits([2, 2]).unwrap(),
        ..Simd2Mode::new(S, U, U)
    };
    assert_eq!(video::vmin2(0xffff_000a, 0xffff_0004, 100, m), 108);
    // vadd4.s32.s32.u32.sat r1, r2, r3, r1: bytes (-128 + 255 = 127), (127 + 1 → 127),
    // (-1 + 0 = -1), (1 + 2 = 3).
    let m = Simd4Mode {
        sat: true,
        ..Simd4Mode::new(S, S, U)
    };
    assert_eq!(video::vadd4(0x01ff_7f80, 0x0200_01ff, 0, m), 0x03ff_7f7f);
    // vsub4.s32.s32.s32.sat r1.b0, r2.b3210, r3.b7654, r1: only byte 0 (3 - 5 = -2).
    let m = Simd4Mode {
        sat: true,
        mask: Mask4::new(0b0001).unwrap(),
        ..Simd4Mode::new(S, S, S)
    };
    assert_eq!(
        video::vsub4(0x0000_0003, 0x0000_0005, 0x1122_3344, m),
        0x1122_33fe
    );
    // vabsdiff4.u32.u32.u32.add: a sum of absolute differences, 4 + 4 + 4 + 4 + c.
    let m = Simd4Mode {
        add: true,
        ..Simd4Mode::new(U, U, U)
    };
    assert_eq!(video::vabsdiff4(0x0408_0c10, 0x080c_100c, 1000, m), 1016);
    // vavrg4.u32: (1 + 2 + 1) >> 1 = 2; signed (-1 + -2) >> 1 = -2.
    assert_eq!(video::vavrg4(1, 2, 0, Simd4Mode::new(U, U, U)) & 0xff, 2);
    assert_eq!(
        video::vavrg4(0xff, 0xfe, 0, Simd4Mode::new(S, S, S)) & 0xff,
        0xfe
    );
    // vset4.s32.u32.lt r1, r2, r3, r0: -1 < 255 in every lane → 1s.
    assert_eq!(
        video::vset4(u32::MAX, u32::MAX, 0, Simd4Mode::new(U, S, U), VCmp::Lt),
        0x0101_0101
    );
    // vset4.u32.u32.ne.add r1, r2, r3, r0 (the .add form): three differing bytes + 10.
    let m = Simd4Mode {
        add: true,
        ..Simd4Mode::new(U, U, U)
    };
    assert_eq!(video::vset4(0x0102_0304, 0x0102_0506, 10, m, VCmp::Ne), 12);
    // vset2.u32.u32.ne.add: lanes differ in both halves → 2 + c.
    let m = Simd2Mode {
        add: true,
        ..Simd2Mode::new(U, U, U)
    };
    assert_eq!(video::vset2(0x0001_0002, 0x0003_0004, 5, m, VCmp::Ne), 7);
    // Unmasked vset2 lanes come from c (pseudo-code), not from b (prose).
    let m = Simd2Mode {
        mask: Mask2::new(0b10).unwrap(),
        ..Simd2Mode::new(U, U, U)
    };
    assert_eq!(
        video::vset2(0x0001_0002, 0x0001_0004, 0xaaaa_bbbb, m, VCmp::Eq),
        0x0001_bbbb
    );
}

#[test]
fn masks_and_part_selectors_from_ptx_lanes() {
    use ops::video::PartSel;
    // .b210 → lanes 2, 1, 0; .b3 → lane 3; .h1 → lane 1; .h10 → both.
    assert_eq!(Mask4::from_lanes(&[2, 1, 0]), Mask4::new(0b0111));
    assert_eq!(Mask4::from_lanes(&[3]), Mask4::new(0b1000));
    assert_eq!(Mask4::from_lanes(&[3, 2, 1, 0]), Some(Mask4::B3210));
    assert_eq!(Mask4::from_lanes(&[4]), None);
    assert_eq!(Mask2::from_lanes(&[1]), Mask2::new(0b10));
    assert_eq!(Mask2::from_lanes(&[1, 0]), Some(Mask2::H10));
    assert_eq!(Mask2::from_lanes(&[2]), None);
    assert_eq!(PartSel::byte(2), Some(PartSel::B2));
    assert_eq!(PartSel::byte(4), None);
    assert_eq!(PartSel::half(1), Some(PartSel::H1));
    assert_eq!(PartSel::half(2), None);
}
