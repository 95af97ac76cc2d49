//! `and or xor not cnot shl shr shf lop3` (Tables 33–39): every shift amount 0..=300 plus the
//! extremes, checked against i128/u128 arithmetic in the test (multiplying/dividing by 2^b,
//! which needs no clamping rule of its own).

use ops::logic::{self, ShfMode};
use proptest::prelude::*;

const AMOUNTS: [u32; 6] = [u32::MAX, u32::MAX - 1, 1 << 31, 1 << 16, 65, 1000];

fn amounts() -> impl Iterator<Item = u32> {
    (0..=300).chain(AMOUNTS)
}

/// `a << b` for an n-bit register: the product a·2^b, truncated to n bits (0 once b ≥ n).
fn shl_ref(a: u64, b: u32, n: u32) -> u64 {
    let p = if b >= 128 { 0 } else { u128::from(a) << b };
    (p & ((1u128 << n) - 1)) as u64
}

/// Arithmetic `a >> b` as floor(a / 2^b) on i128; the b ≥ n case is floor to 0 or -1.
fn sar_ref(a: i64, b: u32) -> i64 {
    let d = 1i128 << b.min(100);
    i128::from(a).div_euclid(d) as i64
}

fn samples() -> Vec<u64> {
    vec![
        0,
        1,
        0x8000_0000_0000_0000,
        u64::MAX,
        0x1234_5678_9abc_def0,
        0x8000,
        0x8000_0000,
        0x7fff_ffff,
        0xdead_beef_0bad_f00d,
    ]
}

#[test]
fn shifts_every_amount() {
    for a in samples() {
        for b in amounts() {
            assert_eq!(logic::shl_b64(a, b), shl_ref(a, b, 64), "shl64 {a:#x} {b}");
            assert_eq!(
                u64::from(logic::shl_b32(a as u32, b)),
                shl_ref(a & 0xffff_ffff, b, 32)
            );
            assert_eq!(
                u64::from(logic::shl_b16(a as u16, b)),
                shl_ref(a & 0xffff, b, 16)
            );
            assert_eq!(
                logic::shr_u64(a, b),
                if b >= 64 {
                    0
                } else {
                    (u128::from(a) / (1u128 << b)) as u64
                }
            );
            assert_eq!(
                u64::from(logic::shr_u32(a as u32, b)),
                (a & 0xffff_ffff).checked_shr(b).unwrap_or(0)
            );
            assert_eq!(
                u64::from(logic::shr_u16(a as u16, b)),
                (a & 0xffff).checked_shr(b).unwrap_or(0)
            );
            assert_eq!(
                logic::shr_s64(a as i64, b),
                sar_ref(a as i64, b),
                "sar64 {a:#x} {b}"
            );
            assert_eq!(
                i64::from(logic::shr_s32(a as i32, b)),
                sar_ref(i64::from(a as i32), b)
            );
            assert_eq!(
                i64::from(logic::shr_s16(a as i16, b)),
                sar_ref(i64::from(a as i16), b)
            );
        }
    }
}

#[test]
fn shf_every_amount() {
    for (a, b) in [
        (0x89ab_cdefu32, 0x0123_4567u32),
        (u32::MAX, 0),
        (0, u32::MAX),
        (1, 0x8000_0000),
    ] {
        let wide = u128::from(b) << 32 | u128::from(a);
        for c in amounts() {
            let clamp = c.min(32);
            let wrap = c % 32;
            for (mode, s) in [(ShfMode::Clamp, clamp), (ShfMode::Wrap, wrap)] {
                let l = ((wide << s) >> 32) as u32;
                let r = (wide >> s) as u32;
                assert_eq!(logic::shf_l(a, b, c, mode), l, "shf.l {mode:?} {c}");
                assert_eq!(logic::shf_r(a, b, c, mode), r, "shf.r {mode:?} {c}");
            }
        }
    }
}

#[test]
fn table_examples() {
    // `and.b32 sign,fpvalue,0x80000000`
    assert_eq!(logic::and((-2.5f32).to_bits(), 0x8000_0000), 0x8000_0000);
    // `or.b32 mask,mask,0x00010001`
    assert_eq!(logic::or(0x0100_0000u32, 0x0001_0001), 0x0101_0001);
    // `xor.b16 d,x,0x0001`
    assert_eq!(logic::xor(0x00ffu16, 0x0001), 0x00fe);
    assert_eq!(logic::not(0x0f0fu16), 0xf0f0);
    assert!(logic::or(false, true));
    assert!(!logic::and(true, false));
    assert!(logic::not(false));
    // cnot: (a == 0) ? 1 : 0
    assert_eq!(logic::cnot(0), 1);
    assert_eq!(logic::cnot(7), 0);
    assert_eq!(logic::cnot(1 << 63), 0);
    // `shl.b32 q,a,2`, `shr.u16 c,a,2`, `shr.s32 i,i,1`
    assert_eq!(logic::shl_b32(5, 2), 20);
    assert_eq!(logic::shr_u16(0x8004, 2), 0x2001);
    assert_eq!(logic::shr_s32(-7, 1), -4);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

    /// Random values and amounts over the whole u32 range of the shift operand.
    #[test]
    fn shifts_random(a in any::<u64>(), b in any::<u32>(), small in 0u32..80) {
        for b in [b, small] {
            prop_assert_eq!(logic::shl_b64(a, b), shl_ref(a, b, 64));
            prop_assert_eq!(u64::from(logic::shl_b32(a as u32, b)), shl_ref(a & 0xffff_ffff, b, 32));
            prop_assert_eq!(u64::from(logic::shl_b16(a as u16, b)), shl_ref(a & 0xffff, b, 16));
            prop_assert_eq!(logic::shr_s64(a as i64, b), sar_ref(a as i64, b));
            prop_assert_eq!(i64::from(logic::shr_s32(a as i32, b)), sar_ref(i64::from(a as i32), b));
            prop_assert_eq!(i64::from(logic::shr_s16(a as i16, b)), sar_ref(i64::from(a as i16), b));
            let q = |n: u32| if b >= n { 0 } else { (u128::from(a) & ((1u128 << n) - 1)) >> b };
            prop_assert_eq!(u128::from(logic::shr_u64(a, b)), q(64));
            prop_assert_eq!(u128::from(logic::shr_u32(a as u32, b)), q(32));
            prop_assert_eq!(u128::from(logic::shr_u16(a as u16, b)), q(16));
        }
    }

    #[test]
    fn lop3_is_its_truth_table(a in any::<u32>(), b in any::<u32>(), c in any::<u32>(), lut in any::<u8>()) {
        let d = logic::lop3(a, b, c, lut);
        for bit in 0..32 {
            let idx = ((a >> bit) & 1) << 2 | ((b >> bit) & 1) << 1 | ((c >> bit) & 1);
            prop_assert_eq!((d >> bit) & 1, u32::from(lut >> idx & 1));
        }
    }
}

#[test]
fn lop3_named_luts() {
    let (a, b, c) = (0xf0f0_1234u32, 0xcccc_5678, 0xaaaa_9abc);
    // immLut = F(0xF0, 0xCC, 0xAA)
    assert_eq!(logic::lop3(a, b, c, 0xf0 & 0xcc & 0xaa), a & b & c);
    assert_eq!(logic::lop3(a, b, c, 0xf0 | 0xcc | 0xaa), a | b | c);
    assert_eq!(logic::lop3(a, b, c, 0xf0 ^ 0xcc ^ 0xaa), a ^ b ^ c);
    assert_eq!(logic::lop3(a, b, c, (0xf0 & 0xcc) | 0xaa), (a & b) | c);
    assert_eq!(logic::lop3(a, b, c, 0), 0);
    assert_eq!(logic::lop3(a, b, c, 0xff), u32::MAX);
}
