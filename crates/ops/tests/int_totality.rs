//! Totality: every integer, carry and video function returns (no overflow panic — tests run
//! with overflow checks — no out-of-range shift) on the extreme values of every operand:
//! 0, 1, -1, MIN, MAX, and bit counts/shift amounts 0, 31, 32, 63, 64, 255, 256 and u32::MAX.
//! Results are checked elsewhere; here a few identities that must hold on these inputs are
//! asserted so the calls are not optimised away.

use ops::carry;
use ops::int::{self, ClampWrap, Dp2aMode, Int, Sign};
use ops::video::{
    self, ByteLanes, HalfLanes, Mask2, Mask4, PartSel, Simd2Mode, Simd4Mode, VCmp, VideoScalar,
    VideoSecondary, VmadMode, VmadNeg, VmadScale,
};

const W32: [u32; 8] = [
    0,
    1,
    2,
    0x7fff_ffff,
    0x8000_0000,
    0xffff_ffff,
    0x8080_8080,
    0x7f7f_7f7f,
];
const W64: [u64; 6] = [0, 1, i64::MAX as u64, 1 << 63, u64::MAX, 0x8000_0000];
const COUNTS: [u32; 10] = [0, 1, 31, 32, 33, 63, 64, 255, 256, u32::MAX];

fn generic_ops<T: Int>(vals: &[T]) {
    for &a in vals {
        for &b in vals {
            for &c in vals {
                let _ = int::add(a, b);
                let _ = int::sub(a, b);
                let _ = int::mad_lo(a, b, c);
                let _ = int::mad_hi(a, b, c);
                let _ = int::sad(a, b, c);
                assert_eq!(int::min(a, b).min(int::max(a, b)), int::min(a, b));
            }
            // Division identity a == (a/b)*b + a%b holds with wrapping for every b != 0.
            if b != T::ZERO {
                let q = int::div(a, b);
                let r = int::rem(a, b);
                assert_eq!(int::add(int::mul_lo(q, b), r), a, "{a:?} / {b:?}");
            } else {
                assert_eq!(int::div(a, b), T::ONES);
                assert_eq!(int::rem(a, b), a);
            }
            let _ = int::mul_hi(a, b);
            for &n in &COUNTS {
                for &m in &COUNTS {
                    let _ = int::bfe(a, n, m);
                    let _ = int::bfi(a, b, n, m);
                }
            }
        }
        let _ = int::abs(a);
        let _ = int::neg(a);
        assert!(int::bfind(a) < T::BITS || int::bfind(a) == u32::MAX);
        assert!(int::bfind_shiftamt(a) < T::BITS || int::bfind_shiftamt(a) == u32::MAX);
    }
}

#[test]
fn integer_functions_are_total() {
    generic_ops(&W32.map(|x| x as u16));
    generic_ops(&W32.map(|x| x as i16));
    generic_ops(&W32);
    generic_ops(&W32.map(|x| x as i32));
    generic_ops(&W64);
    generic_ops(&W64.map(|x| x as i64));
    for &a in &W32 {
        for &b in &W32 {
            let (sa, sb) = (a as i32, b as i32);
            let _ = int::div_wide::<u32>(u64::from(a) << 32 | u64::from(b), b);
            let _ = int::rem_wide::<i32>((i64::from(sa) << 32) | i64::from(b), sb);
            let _ = int::div_wide::<i32>(i64::MIN, -1);
            let _ = int::mul_wide(sa, sb);
            let _ = int::mad_hi_sat_s32(sa, sb, sa);
            let _ = int::mad24_hi_sat_s32(sa, sb, sb);
            let _ = int::mad24_hi_u32(a, b, a);
            let _ = int::add_sat_s32(sa, sb);
            let _ = int::sub_sat_s32(sa, sb);
            let _ = int::add_u16x2(a, b);
            let _ = int::min_relu_s16x2(a, b);
            let _ = int::max_relu_s32(sa, sb);
            for at in [Sign::Unsigned, Sign::Signed] {
                for bt in [Sign::Unsigned, Sign::Signed] {
                    let _ = int::dp4a(a, b, a, at, bt);
                    let _ = int::dp2a(a, b, b, at, bt, Dp2aMode::Hi);
                }
            }
            for &n in &COUNTS {
                for mode in [ClampWrap::Clamp, ClampWrap::Wrap] {
                    let _ = int::szext_s32(sa, n, mode);
                    let _ = int::bmsk_b32(n, b, mode);
                }
                let _ = int::fns_b32(a, n, sb);
            }
        }
        let _ = int::popc_b32(a) + int::clz_b32(a);
        assert_eq!(int::brev_b32(int::brev_b32(a)), a);
    }
    for &x in &W64 {
        let _ = int::popc_b64(x) + int::clz_b64(x);
        assert_eq!(int::brev_b64(int::brev_b64(x)), x);
    }
}

#[test]
fn carry_functions_are_total() {
    for &a in &W64 {
        for &b in &W64 {
            for cf in [false, true] {
                let _ = carry::addc_u64(a, b, cf);
                let _ = carry::subc_u64(a, b, cf);
                let _ = carry::madc_hi(a as i64, b as i64, a as i64, cf);
                let _ = carry::madc_lo(a, b, b, cf);
                let _ = carry::madc_hi(a as u32, b as u32, a as u32, cf);
                let _ = carry::madc_lo(a as i32, b as i32, b as i32, cf);
            }
        }
    }
}

#[test]
fn video_functions_are_total() {
    let sels = [PartSel::B3, PartSel::H1, PartSel::Word];
    for &a in &W32 {
        for &b in &W32 {
            for sign in [Sign::Unsigned, Sign::Signed] {
                for &sel in &sels {
                    for secondary in [
                        VideoSecondary::Add,
                        VideoSecondary::Min,
                        VideoSecondary::Merge(PartSel::B1),
                    ] {
                        for sat in [false, true] {
                            let m = VideoScalar {
                                dtype: sign,
                                atype: sign,
                                btype: sign,
                                asel: sel,
                                bsel: sel,
                                sat,
                                secondary,
                            };
                            let _ = video::vadd(a, b, a, m);
                            let _ = video::vsub(a, b, a, m);
                            let _ = video::vabsdiff(a, b, a, m);
                            let _ = video::vshl(a, b, a, m, ClampWrap::Clamp);
                            let _ = video::vshr(a, b, a, m, ClampWrap::Wrap);
                            let _ = video::vset(a, b, a, m, VCmp::Ge);
                        }
                    }
                }
                for neg in [
                    VmadNeg::None,
                    VmadNeg::Product,
                    VmadNeg::C,
                    VmadNeg::PlusOne,
                ] {
                    let m = VmadMode {
                        atype: sign,
                        btype: Sign::Unsigned,
                        asel: PartSel::Word,
                        bsel: PartSel::Word,
                        neg,
                        scale: VmadScale::Shr15,
                        sat: true,
                    };
                    let _ = video::vmad(a, b, a, m);
                }
                let m4 = Simd4Mode {
                    sat: true,
                    add: true,
                    asel: ByteLanes::new([7, 7, 0, 0]).unwrap_or(ByteLanes::B3210),
                    ..Simd4Mode::new(sign, sign, sign)
                };
                let _ = video::vabsdiff4(a, b, a, m4);
                let _ = video::vavrg4(a, b, a, m4);
                let _ = video::vset4(
                    a,
                    b,
                    a,
                    Simd4Mode {
                        mask: Mask4::new(5).unwrap_or(Mask4::B3210),
                        ..m4
                    },
                    VCmp::Lt,
                );
                let m2 = Simd2Mode {
                    sat: true,
                    asel: HalfLanes::new([3, 3]).unwrap_or(HalfLanes::H10),
                    mask: Mask2::new(1).unwrap_or(Mask2::H10),
                    ..Simd2Mode::new(sign, sign, sign)
                };
                let _ = video::vsub2(a, b, a, m2);
                let _ = video::vavrg2(a, b, a, m2);
            }
        }
    }
}
