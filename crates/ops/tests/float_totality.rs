//! Every public function of the float/cmp/logic/cvt/transcend/prmt modules on arbitrary bit
//! patterns and every mode: none may panic (tests run with overflow checks on), and a few
//! mode-independent invariants must hold.

use ops::cmp::{self, BoolOp, CmpOp};
use ops::cvt::{self, CvtMode, CvtRounding, CvtType, F16Rules, IntRounding};
use ops::float::{self, DivKind, Rounding, TestpOp};
use ops::logic::{self, ShfMode};
use ops::prmt::{prmt, PrmtMode};
use ops::transcend::{self, Precision};
use proptest::prelude::*;

const RND: [Rounding; 4] = [Rounding::Rn, Rounding::Rz, Rounding::Rm, Rounding::Rp];
const TYPES: [CvtType; 11] = [
    CvtType::U8,
    CvtType::U16,
    CvtType::U32,
    CvtType::U64,
    CvtType::S8,
    CvtType::S16,
    CvtType::S32,
    CvtType::S64,
    CvtType::F16,
    CvtType::F32,
    CvtType::F64,
];

fn cvt_roundings() -> Vec<Option<CvtRounding>> {
    let mut v = vec![None];
    v.extend(RND.map(|r| Some(CvtRounding::Float(r))));
    v.extend(
        [
            IntRounding::Rni,
            IntRounding::Rzi,
            IntRounding::Rmi,
            IntRounding::Rpi,
        ]
        .map(|r| Some(CvtRounding::Int(r))),
    );
    v
}

fn bits64() -> impl Strategy<Value = u64> {
    prop_oneof![
        any::<u64>(),
        any::<u32>().prop_map(u64::from),
        any::<u16>().prop_map(u64::from),
        prop::sample::select(vec![
            0u64,
            1,
            u64::MAX,
            0x7ff0_0000_0000_0000,
            0xfff8_0000_0000_0001,
            0x7f80_0000,
            0xff80_0001,
            0x7c00,
            0xfc01,
            0x0010_0000_0000_0000,
            0x8000_0000_0000_0001,
        ]),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn float_ops_total(a in bits64(), b in bits64(), c in bits64()) {
        let (x, y, z) = (f32::from_bits(a as u32), f32::from_bits(b as u32), f32::from_bits(c as u32));
        let (p, q, r) = (f64::from_bits(a), f64::from_bits(b), f64::from_bits(c));
        for rnd in RND {
            for ftz in [false, true] {
                for sat in [false, true] {
                    let outs = [
                        float::add_f32(x, y, rnd, ftz, sat),
                        float::sub_f32(x, y, rnd, ftz, sat),
                        float::mul_f32(x, y, rnd, ftz, sat),
                        float::fma_f32(x, y, z, rnd, ftz, sat),
                        float::div_f32(x, y, DivKind::Rounded(rnd), ftz, sat),
                    ];
                    for o in outs {
                        if sat {
                            prop_assert!((0.0..=1.0).contains(&o) && !o.is_sign_negative());
                        }
                        if ftz {
                            prop_assert!(!o.is_subnormal());
                        }
                        prop_assert!(!o.is_nan() || o.to_bits() == float::NAN_F32);
                    }
                }
                let _ = transcend::rcp_f32(x, Precision::Rounded(rnd), ftz);
                let _ = transcend::sqrt_f32(x, Precision::Rounded(rnd), ftz);
            }
            for o in [
                float::add_f64(p, q, rnd),
                float::sub_f64(p, q, rnd),
                float::mul_f64(p, q, rnd),
                float::fma_f64(p, q, r, rnd),
                float::div_f64(p, q, rnd),
                transcend::rcp_f64(p, Precision::Rounded(rnd)),
                transcend::sqrt_f64(p, rnd),
            ] {
                prop_assert!(!o.is_nan() || o.to_bits() == float::NAN_F64);
            }
        }
        for ftz in [false, true] {
            let _ = (
                float::mad_f32(x, y, z, ftz, false),
                float::min_f32(x, y, ftz),
                float::max_f32(x, y, ftz),
                float::abs_f32(x, ftz),
                float::neg_f32(x, ftz),
                float::div_f32(x, y, DivKind::Approx, ftz, false),
                float::div_f32(x, y, DivKind::Full, ftz, false),
                transcend::rsqrt_f32(x, ftz),
                transcend::sin_f32(x, ftz),
                transcend::cos_f32(x, ftz),
                transcend::lg2_f32(x, ftz),
                transcend::ex2_f32(x, ftz),
                transcend::rsqrt_f64(p, ftz),
                cmp::slct_f32(1, 2, x, ftz),
            );
        }
        let _ = (
            float::mad_f64(p, q, r),
            float::sad_f32(x, y, z),
            float::sad_f64(p, q, r),
            transcend::rcp_f64(p, Precision::Approx),
        );
        for op in [TestpOp::Finite, TestpOp::Infinite, TestpOp::Number, TestpOp::NotANumber, TestpOp::Normal, TestpOp::Subnormal] {
            let _ = (float::testp_f32(op, x), float::testp_f64(op, p));
        }
    }

    #[test]
    fn cvt_total(a in bits64()) {
        for from in TYPES {
            for to in TYPES {
                for rnd in cvt_roundings() {
                    for (sat, ftz) in [(false, false), (true, false), (false, true), (true, true)] {
                        for f16 in [F16Rules::Ieee, F16Rules::Ptx11] {
                            let out = cvt::cvt(a, from, to, CvtMode { rnd, sat, ftz, f16 });
                            // Float results are zero-extended to 64 bits.
                            if to == CvtType::F16 {
                                prop_assert!(out <= 0xffff);
                            }
                            if to == CvtType::F32 {
                                prop_assert!(out <= 0xffff_ffff);
                            }
                            // Integer results are the low `n` bits re-extended by the
                            // destination's signedness (Table 7, footnote 1).
                            let n = to.bits();
                            if n < 64 {
                                let signed = matches!(to, CvtType::S8 | CvtType::S16 | CvtType::S32);
                                let high = out >> n;
                                let neg = out >> (n - 1) & 1 == 1;
                                match to {
                                    CvtType::F16 | CvtType::F32 => {}
                                    _ if signed && neg => prop_assert_eq!(high, u64::MAX >> n),
                                    _ => prop_assert_eq!(high, 0),
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn int_ops_total(a in any::<u64>(), b in any::<u32>(), c in any::<u32>(), lut in any::<u8>()) {
        let ops = [
            CmpOp::Eq, CmpOp::Ne, CmpOp::Lt, CmpOp::Le, CmpOp::Gt, CmpOp::Ge, CmpOp::Lo, CmpOp::Ls,
            CmpOp::Hi, CmpOp::Hs, CmpOp::Equ, CmpOp::Neu, CmpOp::Ltu, CmpOp::Leu, CmpOp::Gtu,
            CmpOp::Geu, CmpOp::Num, CmpOp::Nan,
        ];
        for op in ops {
            let _ = cmp::cmp_signed(op, a as i64, i64::from(b));
            let _ = cmp::cmp_unsigned(op, a, u64::from(b));
            let _ = cmp::cmp_f32(op, f32::from_bits(a as u32), f32::from_bits(b), true);
            let _ = cmp::cmp_f64(op, f64::from_bits(a), f64::from(b));
            // A comparison and its complement's q output are always opposite without BoolOp.
            let t = cmp::cmp_f32(op, f32::from_bits(a as u32), f32::from_bits(b), false);
            prop_assert_eq!(cmp::setp(t, None), (t, !t));
        }
        for bop in [BoolOp::And, BoolOp::Or, BoolOp::Xor] {
            let _ = cmp::setp(a & 1 == 1, Some((bop, b & 1 == 1)));
        }
        let _ = (
            logic::shl_b16(a as u16, b), logic::shr_u16(a as u16, b), logic::shr_s16(a as i16, b),
            logic::shl_b32(a as u32, b), logic::shr_u32(a as u32, b), logic::shr_s32(a as i32, b),
            logic::shl_b64(a, b), logic::shr_u64(a, b), logic::shr_s64(a as i64, b),
            logic::shf_l(a as u32, b, c, ShfMode::Clamp), logic::shf_r(a as u32, b, c, ShfMode::Wrap),
            logic::lop3(a as u32, b, c, lut), logic::cnot(a),
        );
        for mode in [PrmtMode::Default, PrmtMode::F4e, PrmtMode::B4e, PrmtMode::Rc8, PrmtMode::Ecl, PrmtMode::Ecr, PrmtMode::Rc16] {
            let _ = prmt(a as u32, b, c, mode);
        }
    }
}
