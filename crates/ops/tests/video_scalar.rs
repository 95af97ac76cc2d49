//! Scalar video instructions (§9.7.18.1) against a line-by-line transcription of the spec's
//! pseudo-code (`partSelectSignExtend`, `optSaturate`, `optSecOp`, `optMerge`, the `vmad`
//! listing), exhaustively over byte-selected operands and over every modifier combination on
//! edge values, plus worked examples.

use ops::video::{
    self, ClampWrap, PartSel, Sign, VCmp, VideoScalar, VideoSecondary, VmadMode, VmadNeg, VmadScale,
};
use proptest::prelude::*;

const SELS: [PartSel; 7] = [
    PartSel::B0,
    PartSel::B1,
    PartSel::B2,
    PartSel::B3,
    PartSel::H0,
    PartSel::H1,
    PartSel::Word,
];
const SIGNS: [Sign; 2] = [Sign::Unsigned, Sign::Signed];
const CMPS: [VCmp; 6] = [VCmp::Eq, VCmp::Ne, VCmp::Lt, VCmp::Le, VCmp::Gt, VCmp::Ge];

fn secondaries() -> Vec<VideoSecondary> {
    let mut v = vec![
        VideoSecondary::None,
        VideoSecondary::Add,
        VideoSecondary::Min,
        VideoSecondary::Max,
    ];
    v.extend(SELS.iter().map(|&s| VideoSecondary::Merge(s)));
    v
}

// ---- the pseudo-code, transcribed ----

fn part_select_sign_extend(x: u32, sign: Sign, sel: PartSel) -> i128 {
    let (v, width) = match sel {
        PartSel::B0 => (x & 0xff, 8),
        PartSel::B1 => ((x >> 8) & 0xff, 8),
        PartSel::B2 => ((x >> 16) & 0xff, 8),
        PartSel::B3 => (x >> 24, 8),
        PartSel::H0 => (x & 0xffff, 16),
        PartSel::H1 => (x >> 16, 16),
        PartSel::Word => (x, 32),
    };
    let v = i128::from(v);
    if sign == Sign::Signed && v >= 1 << (width - 1) {
        v - (1 << width)
    } else {
        v
    }
}

/// The `.s33` value of the low 33 bits (the declared result type of `optSaturate`).
fn as_s33(x: i128) -> i128 {
    let low = x & ((1 << 33) - 1);
    if low >= 1 << 32 {
        low - (1 << 33)
    } else {
        low
    }
}

fn clamp(x: i128, max: i128, min: i128) -> i128 {
    if x > max {
        max
    } else if x < min {
        min
    } else {
        x
    }
}

fn opt_saturate(tmp: i128, sat: bool, sign: bool, dsel: PartSel) -> i128 {
    if !sat {
        return as_s33(tmp);
    }
    match dsel {
        PartSel::B0 | PartSel::B1 | PartSel::B2 | PartSel::B3 => {
            if sign {
                clamp(tmp, 127, -128)
            } else {
                clamp(tmp, 255, 0)
            }
        }
        PartSel::H0 | PartSel::H1 => {
            if sign {
                clamp(tmp, 32767, -32768)
            } else {
                clamp(tmp, 65535, 0)
            }
        }
        PartSel::Word => {
            if sign {
                clamp(tmp, i128::from(i32::MAX), i128::from(i32::MIN))
            } else {
                clamp(tmp, i128::from(u32::MAX), 0)
            }
        }
    }
}

fn opt_sec_op(secop: VideoSecondary, tmp: i128, c: i128) -> i128 {
    match secop {
        VideoSecondary::Add => tmp + c,
        VideoSecondary::Min => tmp.min(c),
        VideoSecondary::Max => tmp.max(c),
        _ => tmp,
    }
}

fn opt_merge(dsel: PartSel, tmp: i128, c: i128) -> i128 {
    match dsel {
        PartSel::H0 => (tmp & 0xffff) | (0xffff_0000 & c),
        PartSel::H1 => ((tmp & 0xffff) << 16) | (0x0000_ffff & c),
        PartSel::B0 => (tmp & 0xff) | (0xffff_ff00 & c),
        PartSel::B1 => ((tmp & 0xff) << 8) | (0xffff_00ff & c),
        PartSel::B2 => ((tmp & 0xff) << 16) | (0xff00_ffff & c),
        PartSel::B3 => ((tmp & 0xff) << 24) | (0x00ff_ffff & c),
        PartSel::Word => tmp,
    }
}

#[derive(Clone, Copy, Debug)]
enum Op {
    Add,
    Sub,
    Absdiff,
    Min,
    Max,
    Shl(ClampWrap),
    Shr(ClampWrap),
    Set(VCmp),
}

fn all_ops() -> Vec<Op> {
    let mut v = vec![Op::Add, Op::Sub, Op::Absdiff, Op::Min, Op::Max];
    for m in [ClampWrap::Clamp, ClampWrap::Wrap] {
        v.push(Op::Shl(m));
        v.push(Op::Shr(m));
    }
    v.extend(CMPS.iter().map(|&c| Op::Set(c)));
    v
}

/// The whole scalar pipeline per the spec: extract, operate, saturate, secondary op or merge,
/// low 32 bits.
fn scalar_ref(op: Op, a: u32, b: u32, c: u32, m: VideoScalar) -> u32 {
    let ta = part_select_sign_extend(a, m.atype, m.asel);
    let (tmp, dsigned, sat) = match op {
        Op::Shl(mode) | Op::Shr(mode) => {
            let mut tb = part_select_sign_extend(b, Sign::Unsigned, m.bsel);
            if mode == ClampWrap::Clamp && tb > 32 {
                tb = 32;
            }
            if mode == ClampWrap::Wrap {
                tb &= 0x1f;
            }
            let t = if matches!(op, Op::Shl(_)) {
                ta << tb
            } else {
                ta >> tb
            };
            (t, m.dtype == Sign::Signed, m.sat)
        }
        Op::Set(cmp) => {
            let tb = part_select_sign_extend(b, m.btype, m.bsel);
            let r = match cmp {
                VCmp::Eq => ta == tb,
                VCmp::Ne => ta != tb,
                VCmp::Lt => ta < tb,
                VCmp::Le => ta <= tb,
                VCmp::Gt => ta > tb,
                VCmp::Ge => ta >= tb,
            };
            // vset: always unsigned, no saturation.
            (i128::from(r), false, false)
        }
        _ => {
            let tb = part_select_sign_extend(b, m.btype, m.bsel);
            let t = match op {
                Op::Add => ta + tb,
                Op::Sub => ta - tb,
                Op::Absdiff => (ta - tb).abs(),
                Op::Min => ta.min(tb),
                _ => ta.max(tb),
            };
            (t, m.dtype == Sign::Signed, m.sat)
        }
    };
    let dsel = match m.secondary {
        VideoSecondary::Merge(s) => s,
        _ => PartSel::Word,
    };
    let tmp = opt_saturate(tmp, sat, dsigned, dsel);
    let c33 = part_select_sign_extend(
        c,
        if dsigned {
            Sign::Signed
        } else {
            Sign::Unsigned
        },
        PartSel::Word,
    );
    let d = match m.secondary {
        VideoSecondary::Merge(s) => opt_merge(s, tmp, i128::from(c)),
        s => opt_sec_op(s, tmp, c33),
    };
    (d & 0xffff_ffff) as u32
}

fn scalar_impl(op: Op, a: u32, b: u32, c: u32, m: VideoScalar) -> u32 {
    match op {
        Op::Add => video::vadd(a, b, c, m),
        Op::Sub => video::vsub(a, b, c, m),
        Op::Absdiff => video::vabsdiff(a, b, c, m),
        Op::Min => video::vmin(a, b, c, m),
        Op::Max => video::vmax(a, b, c, m),
        Op::Shl(mode) => video::vshl(a, b, c, m, mode),
        Op::Shr(mode) => video::vshr(a, b, c, m, mode),
        Op::Set(cmp) => video::vset(a, b, c, m, cmp),
    }
}

fn check(op: Op, a: u32, b: u32, c: u32, m: VideoScalar) {
    assert_eq!(
        scalar_impl(op, a, b, c, m),
        scalar_ref(op, a, b, c, m),
        "{op:?} a={a:#x} b={b:#x} c={c:#x} {m:?}"
    );
}

/// The `vmad` pseudo-code (§9.7.18.1.3), transcribed; negation flags as written in PTX.
fn vmad_ref(a: u32, b: u32, c: u32, m: VmadMode) -> u32 {
    let (a_neg, b_neg, c_neg, po) = match m.neg {
        VmadNeg::None => (false, false, false, false),
        VmadNeg::Product => (true, false, false, false),
        VmadNeg::C => (false, false, true, false),
        VmadNeg::PlusOne => (false, false, false, true),
    };
    let ta = part_select_sign_extend(a, m.atype, m.asel);
    let tb = part_select_sign_extend(b, m.btype, m.bsel);
    let signed_final =
        m.atype == Sign::Signed || m.btype == Sign::Signed || (a_neg ^ b_neg) || c_neg;
    let mut tmp: u128 = (ta * tb) as u128;
    let mut c = c;
    let mut lsb = 0u128;
    if po {
        lsb = 1;
    } else if a_neg ^ b_neg {
        tmp = !tmp;
        lsb = 1;
    } else if c_neg {
        c = !c;
        lsb = 1;
    }
    let c128: u128 = if signed_final {
        i128::from(c as i32) as u128
    } else {
        u128::from(c)
    };
    let tmp = tmp.wrapping_add(c128).wrapping_add(lsb);
    let shift = match m.scale {
        VmadScale::None => 0,
        VmadScale::Shr7 => 7,
        VmadScale::Shr15 => 15,
    };
    // "sign-extended if the final result is signed, and zero-extended otherwise"
    let shifted = if signed_final {
        ((tmp as i128) >> shift) as u128
    } else {
        tmp >> shift
    };
    let mut result = shifted & 0xffff_ffff_ffff_ffff;
    if m.sat {
        result = if signed_final {
            clamp(
                i128::from(result as u64 as i64),
                i128::from(i32::MAX),
                i128::from(i32::MIN),
            ) as u128
        } else {
            clamp(result as i128, i128::from(u32::MAX), 0) as u128
        };
    }
    result as u32
}

fn vmad_modes() -> Vec<VmadMode> {
    let mut v = Vec::new();
    for atype in SIGNS {
        for btype in SIGNS {
            for neg in [
                VmadNeg::None,
                VmadNeg::Product,
                VmadNeg::C,
                VmadNeg::PlusOne,
            ] {
                for scale in [VmadScale::None, VmadScale::Shr7, VmadScale::Shr15] {
                    for sat in [false, true] {
                        v.push(VmadMode {
                            atype,
                            btype,
                            asel: PartSel::Word,
                            bsel: PartSel::Word,
                            neg,
                            scale,
                            sat,
                        });
                    }
                }
            }
        }
    }
    v
}

/// Every (dtype, atype, btype, sat) combination with the given selectors and secondary op.
fn type_modes(
    asel: PartSel,
    bsel: PartSel,
    secondary: VideoSecondary,
) -> impl Iterator<Item = VideoScalar> {
    (0..16u32).map(move |k| {
        let s = |bit: u32| {
            if k >> bit & 1 == 1 {
                Sign::Signed
            } else {
                Sign::Unsigned
            }
        };
        VideoScalar {
            dtype: s(0),
            atype: s(1),
            btype: s(2),
            asel,
            bsel,
            sat: k >> 3 & 1 == 1,
            secondary,
        }
    })
}

#[test]
fn every_byte_pair_every_type_and_op() {
    let ops = all_ops();
    let secs = secondaries();
    for x in 0..=255u32 {
        for y in 0..=255u32 {
            // Rotate selectors and the secondary op with the inputs so all are exercised.
            let (ai, bi) = ((x % 4) as usize, (y % 4) as usize);
            let a = (0x5a5a_5a5a & !(0xff << (8 * ai))) | (x << (8 * ai));
            let b = (0xa5a5_a5a5 & !(0xff << (8 * bi))) | (y << (8 * bi));
            let c = 0x8000_0000 ^ (x << 11) ^ (y << 2) ^ (x * y);
            let sec = secs[((x ^ y) as usize) % secs.len()];
            for &op in &ops {
                for m in type_modes(SELS[ai], SELS[bi], sec) {
                    check(op, a, b, c, m);
                }
            }
        }
    }
}

#[test]
fn every_modifier_combination_on_edge_values() {
    let values = [
        0u32,
        1,
        0x7f,
        0x80,
        0xff,
        0x7fff,
        0x8000_8000,
        0xffff_ffff,
        0x8000_0000,
        0x7fff_ffff,
        0x1f20_21ff,
    ];
    let ops = all_ops();
    let secs = secondaries();
    for &a in &values {
        for &b in &values {
            let c = a.rotate_left(7) ^ !b;
            for &op in &ops {
                for asel in SELS {
                    for bsel in SELS {
                        for &sec in &secs {
                            for m in type_modes(asel, bsel, sec) {
                                check(op, a, b, c, m);
                            }
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn vmad_every_byte_pair_every_mode() {
    let modes = vmad_modes();
    for x in 0..=255u32 {
        for y in 0..=255u32 {
            let c = (x << 24) | (y << 3) | (x ^ y);
            for (i, &base) in modes.iter().enumerate() {
                let sel = |k: usize| SELS[k % 6];
                let m = VmadMode {
                    asel: sel(i),
                    bsel: sel(i / 6 + x as usize),
                    ..base
                };
                let a = x * 0x0101_0101;
                let b = y * 0x0101_0101;
                assert_eq!(
                    video::vmad(a, b, c, m),
                    vmad_ref(a, b, c, m),
                    "vmad {a:#x} {b:#x} {c:#x} {m:?}"
                );
            }
        }
    }
}

fn sel_strategy() -> impl Strategy<Value = PartSel> {
    prop::sample::select(SELS.to_vec())
}

fn sign_strategy() -> impl Strategy<Value = Sign> {
    prop::sample::select(SIGNS.to_vec())
}

fn word() -> impl Strategy<Value = u32> {
    prop_oneof![
        3 => any::<u32>(),
        1 => prop::sample::select(vec![0u32, 1, 0x7fff_ffff, 0x8000_0000, 0xffff_ffff, 31, 32, 33, 0x21_0000]),
    ]
}

proptest! {
    #[test]
    fn scalar_random(
        a in word(), b in word(), c in word(),
        dtype in sign_strategy(), atype in sign_strategy(), btype in sign_strategy(),
        asel in sel_strategy(), bsel in sel_strategy(), sat in any::<bool>(),
        sec in prop::sample::select(secondaries()),
    ) {
        let m = VideoScalar { dtype, atype, btype, asel, bsel, sat, secondary: sec };
        for op in all_ops() {
            check(op, a, b, c, m);
        }
    }

    #[test]
    fn vmad_random(
        a in word(), b in word(), c in word(), asel in sel_strategy(), bsel in sel_strategy(),
        mode in prop::sample::select(vmad_modes()),
    ) {
        let m = VmadMode { asel, bsel, ..mode };
        prop_assert_eq!(video::vmad(a, b, c, m), vmad_ref(a, b, c, m));
    }
}

const fn mode(
    dtype: Sign,
    atype: Sign,
    btype: Sign,
    asel: PartSel,
    bsel: PartSel,
    sat: bool,
    secondary: VideoSecondary,
) -> VideoScalar {
    VideoScalar {
        dtype,
        atype,
        btype,
        asel,
        bsel,
        sat,
        secondary,
    }
}

#[test]
fn spec_examples_worked_by_hand() {
    use PartSel::*;
    use Sign::{Signed as S, Unsigned as U};
    // vadd.s32.u32.s32.sat r1, r2.b0, r3.h0: 255 (u8) + -32768 (s16) = -32513.
    let m = mode(S, U, S, B0, H0, true, VideoSecondary::None);
    assert_eq!(video::vadd(0x1234_56ff, 0x0000_8000, 0, m) as i32, -32513);
    // vsub.s32.s32.u32.sat r1, r2.h1, r3.h1: -32768 - 65535 = -98303.
    let m = mode(S, S, U, H1, H1, true, VideoSecondary::None);
    assert_eq!(video::vsub(0x8000_0000, 0xffff_0000, 0, m) as i32, -98303);
    // The same with word operands saturates: MININT - 0xffffffff clamps to MININT.
    let m = mode(S, S, U, Word, Word, true, VideoSecondary::None);
    assert_eq!(video::vsub(0x8000_0000, 0xffff_ffff, 0, m) as i32, i32::MIN);
    // vabsdiff.s32.s32.s32.sat r1.h0, r2.b0, r3.b2, c: |-128 - 127| = 255, merged into c.h0.
    let m = mode(S, S, S, B0, B2, true, VideoSecondary::Merge(H0));
    assert_eq!(
        video::vabsdiff(0x0000_0080, 0x007f_0000, 0xdead_beef, m),
        0xdead_00ff
    );
    // With .b1 as the destination the signed byte range clamps 255 to 127.
    let m = mode(S, S, S, B0, B2, true, VideoSecondary::Merge(B1));
    assert_eq!(
        video::vabsdiff(0x0000_0080, 0x007f_0000, 0xdead_beef, m),
        0xdead_7fef
    );
    // vmin.s32.s32.s32.sat.add r1, r2, r3, c: min(-5, 3) + 10 = 5.
    let m = mode(S, S, S, Word, Word, true, VideoSecondary::Add);
    assert_eq!(video::vmin((-5i32) as u32, 3, 10, m), 5);
    // vshl.s32.u32.u32.clamp r1, r2, r3: shift 40 clamps to 32; 1 << 32 has low word 0.
    let m = mode(S, U, U, Word, Word, false, VideoSecondary::None);
    assert_eq!(video::vshl(1, 40, 0, m, ClampWrap::Clamp), 0);
    // ... and with .sat the true value 2^32 clamps to MAXINT.
    assert_eq!(
        video::vshl(1, 40, 0, VideoScalar { sat: true, ..m }, ClampWrap::Clamp),
        i32::MAX as u32
    );
    // vshr.u32.u32.u32.wrap r1, r2, r3.h1: the amount 33 wraps to 1.
    let m = mode(U, U, U, Word, H1, false, VideoSecondary::None);
    assert_eq!(
        video::vshr(0x8000_0000, 33 << 16, 0, m, ClampWrap::Wrap),
        0x4000_0000
    );
    // vshr of a signed byte fills with the sign: -128 >> 3 = -16.
    let m = mode(S, S, U, B3, Word, false, VideoSecondary::None);
    assert_eq!(
        video::vshr(0x8000_0000, 3, 0, m, ClampWrap::Clamp) as i32,
        -16
    );
    // vset.s32.u32.lt r1, r2, r3: -1 (s32) < 0xffffffff (u32) compares exact values: 1.
    let m = mode(U, S, U, Word, Word, false, VideoSecondary::None);
    assert_eq!(video::vset(u32::MAX, u32::MAX, 0, m, VCmp::Lt), 1);
    // vset.u32.u32.ne r1, r2, r3.h1: 5 != 5 is false.
    let m = mode(U, U, U, Word, H1, false, VideoSecondary::None);
    assert_eq!(video::vset(5, 5 << 16, 0, m, VCmp::Ne), 0);
    // vset with .max secondary: max(1, c=0) = 1.
    let m = mode(U, U, U, Word, Word, false, VideoSecondary::Max);
    assert_eq!(video::vset(1, 1, 0, m, VCmp::Eq), 1);
}

#[test]
fn vmad_examples_worked_by_hand() {
    use PartSel::*;
    use Sign::{Signed as S, Unsigned as U};
    let m = |atype, btype, asel, bsel, neg, scale, sat| VmadMode {
        atype,
        btype,
        asel,
        bsel,
        neg,
        scale,
        sat,
    };
    // vmad.s32.s32.u32.sat r0, r1, r2, -r3: 3 * 4 - 20 = -8.
    assert_eq!(
        video::vmad(
            3,
            4,
            20,
            m(S, U, Word, Word, VmadNeg::C, VmadScale::None, true)
        ) as i32,
        -8
    );
    // Saturation: 0x7fffffff * 4 - (-1) overflows and clamps to MAXINT.
    assert_eq!(
        video::vmad(
            0x7fff_ffff,
            4,
            u32::MAX,
            m(S, U, Word, Word, VmadNeg::C, VmadScale::None, true)
        ),
        0x7fff_ffff
    );
    // vmad.u32.u32.u32.shr15 r0, r1.h0, r2.h0, r3: (0x8000 * 0x8000 + 0) >> 15 = 0x8000.
    assert_eq!(
        video::vmad(
            0xffff_8000,
            0x1234_8000,
            0,
            m(U, U, H0, H0, VmadNeg::None, VmadScale::Shr15, false)
        ),
        0x8000
    );
    // .po: 7 * 6 + 1 + 1 = 44.
    assert_eq!(
        video::vmad(
            7,
            6,
            1,
            m(U, U, Word, Word, VmadNeg::PlusOne, VmadScale::None, false)
        ),
        44
    );
    // -(u32 * u32) + s32: -(3 * 5) + 100 = 85.
    assert_eq!(
        video::vmad(
            3,
            5,
            100,
            m(U, U, Word, Word, VmadNeg::Product, VmadScale::None, false)
        ),
        85
    );
    // Unsigned .sat: 0xffffffff * 2 clamps to U32_MAX.
    assert_eq!(
        video::vmad(
            u32::MAX,
            2,
            0,
            m(U, U, Word, Word, VmadNeg::None, VmadScale::None, true)
        ),
        u32::MAX
    );
    // Signed .shr7 shifts arithmetically: (-256 * 1) >> 7 = -2.
    assert_eq!(
        video::vmad(
            (-256i32) as u32,
            1,
            0,
            m(S, S, Word, Word, VmadNeg::None, VmadScale::Shr7, false)
        ) as i32,
        -2
    );
}

#[test]
fn mode_constructors_are_plain_defaults() {
    let m = VideoScalar::new(Sign::Signed, Sign::Unsigned, Sign::Signed);
    assert_eq!(
        (m.asel, m.bsel, m.sat, m.secondary),
        (PartSel::Word, PartSel::Word, false, VideoSecondary::None)
    );
    assert_eq!(
        (m.dtype, m.atype, m.btype),
        (Sign::Signed, Sign::Unsigned, Sign::Signed)
    );
    assert_eq!(
        VideoScalar::U32,
        VideoScalar::new(Sign::Unsigned, Sign::Unsigned, Sign::Unsigned)
    );
    let v = VmadMode::new(Sign::Unsigned, Sign::Signed);
    assert_eq!(
        (v.neg, v.scale, v.sat, v.asel),
        (VmadNeg::None, VmadScale::None, false, PartSel::Word)
    );
    // 0xffffffff as .u32 times -1 as .s32, plus 1: -(2^32 - 1) + 1, low 32 bits 2.
    assert_eq!(video::vmad(u32::MAX, u32::MAX, 1, v), 2);
}
