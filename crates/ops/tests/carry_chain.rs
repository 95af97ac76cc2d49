//! Extended-precision arithmetic (§9.7.2): each instruction against exact u128/i128 sums, and
//! the spec's worked examples — 128-bit addition and subtraction with `add.cc/addc` and
//! `sub.cc/subc` chains, and the 64×64→128 multiply with `mad.cc/madc/addc` — against u128
//! arithmetic for random inputs.

use ops::carry::{self, CarryInt};
use ops::int::{self, Int};
use proptest::prelude::*;

fn edge32() -> impl Strategy<Value = u32> {
    prop_oneof![
        3 => any::<u32>(),
        1 => prop::sample::select(vec![0u32, 1, 0x7fff_ffff, 0x8000_0000, 0xffff_ffff, 0xffff_fffe]),
        1 => (0u32..32).prop_map(|k| 1u32 << k),
    ]
}

fn edge64() -> impl Strategy<Value = u64> {
    prop_oneof![
        3 => any::<u64>(),
        1 => prop::sample::select(vec![0u64, 1, i64::MAX as u64, 1 << 63, u64::MAX, u64::MAX - 1]),
        1 => (0u32..64).prop_map(|k| 1u64 << k),
    ]
}

/// A u128 whose 32-bit limbs are often 0 or all ones, so carries ripple through whole chains.
fn edge128() -> impl Strategy<Value = u128> {
    prop_oneof![
        2 => any::<u128>(),
        2 => prop::array::uniform4(prop::sample::select(vec![0u32, 1, 0xffff_ffff, 0xffff_fffe, 0x8000_0000]))
            .prop_map(|l| l.iter().rev().fold(0u128, |acc, &x| (acc << 32) | u128::from(x))),
        1 => (0u32..128).prop_map(|k| 1u128 << k),
        1 => (0u32..128).prop_map(|k| (1u128 << k).wrapping_sub(1)),
    ]
}

fn limbs32(x: u128) -> [u32; 4] {
    [
        x as u32,
        (x >> 32) as u32,
        (x >> 64) as u32,
        (x >> 96) as u32,
    ]
}

fn from_limbs32(l: [u32; 4]) -> u128 {
    l.iter()
        .rev()
        .fold(0, |acc, &x| (acc << 32) | u128::from(x))
}

/// Reference for `mad{c}.{lo,hi}.cc`: exact product, part, then `part + c + cf` in n+1 bits.
fn mad_ref<T: Int>(a: T, b: T, c: T, cf: bool, hi: bool) -> (u64, bool) {
    let n = T::BITS;
    let mask = (1u128 << n) - 1;
    let p = a.to_i128().wrapping_mul(b.to_i128()) as u128;
    let part = if hi { (p >> n) & mask } else { p & mask };
    let sum = part + u128::from(c.to_bits()) + u128::from(cf);
    ((sum & mask) as u64, sum >> n != 0)
}

fn check_mad<T: CarryInt>(a: T, b: T, c: T, cf: bool) {
    let bits = |(d, cf): (T, bool)| (d.to_bits(), cf);
    assert_eq!(
        bits(carry::mad_lo_cc(a, b, c)),
        mad_ref(a, b, c, false, false),
        "mad.lo.cc {a:?} {b:?} {c:?}"
    );
    assert_eq!(
        bits(carry::mad_hi_cc(a, b, c)),
        mad_ref(a, b, c, false, true),
        "mad.hi.cc {a:?} {b:?} {c:?}"
    );
    assert_eq!(
        bits(carry::madc_lo(a, b, c, cf)),
        mad_ref(a, b, c, cf, false),
        "madc.lo {a:?} {b:?} {c:?} {cf}"
    );
    assert_eq!(
        bits(carry::madc_hi(a, b, c, cf)),
        mad_ref(a, b, c, cf, true),
        "madc.hi {a:?} {b:?} {c:?} {cf}"
    );
}

proptest! {
    #[test]
    fn single_instructions_32(a in edge32(), b in edge32(), c in edge32(), cf in any::<bool>()) {
        let (a64, b64, cf64) = (u64::from(a), u64::from(b), u64::from(cf));
        prop_assert_eq!(carry::add_cc_u32(a, b), ((a64 + b64) as u32, a64 + b64 > 0xffff_ffff));
        prop_assert_eq!(carry::addc_u32(a, b, cf), ((a64 + b64 + cf64) as u32, a64 + b64 + cf64 > 0xffff_ffff));
        prop_assert_eq!(carry::sub_cc_u32(a, b), (a.wrapping_sub(b), a64 < b64));
        prop_assert_eq!(carry::subc_u32(a, b, cf), (a.wrapping_sub(b).wrapping_sub(cf as u32), a64 < b64 + cf64));
        check_mad(a, b, c, cf);
        check_mad(a as i32, b as i32, c as i32, cf);
    }

    #[test]
    fn single_instructions_64(a in edge64(), b in edge64(), c in edge64(), cf in any::<bool>()) {
        let (a128, b128, cf128) = (u128::from(a), u128::from(b), u128::from(cf));
        prop_assert_eq!(carry::add_cc_u64(a, b), ((a128 + b128) as u64, a128 + b128 > u128::from(u64::MAX)));
        prop_assert_eq!(carry::addc_u64(a, b, cf), ((a128 + b128 + cf128) as u64, a128 + b128 + cf128 > u128::from(u64::MAX)));
        prop_assert_eq!(carry::sub_cc_u64(a, b), (a.wrapping_sub(b), a128 < b128));
        prop_assert_eq!(carry::subc_u64(a, b, cf), (a.wrapping_sub(b).wrapping_sub(cf as u64), a128 < b128 + cf128));
        check_mad(a, b, c, cf);
        check_mad(a as i64, b as i64, c as i64, cf);
    }

    /// §9.7.2.1–2 example: add.cc / addc.cc / addc.cc / addc on four 32-bit limbs.
    #[test]
    fn example_128_bit_addition(y in edge128(), z in edge128()) {
        let (y, zl) = (limbs32(y), limbs32(z));
        let (x1, cf) = carry::add_cc_u32(y[0], zl[0]);
        let (x2, cf) = carry::addc_u32(y[1], zl[1], cf);
        let (x3, cf) = carry::addc_u32(y[2], zl[2], cf);
        let (x4, _) = carry::addc_u32(y[3], zl[3], cf);
        prop_assert_eq!(from_limbs32([x1, x2, x3, x4]), from_limbs32(y).wrapping_add(z));
    }

    /// §9.7.2.3–4 example: sub.cc / subc.cc / subc.cc / subc on four 32-bit limbs.
    #[test]
    fn example_128_bit_subtraction(y in edge128(), z in edge128()) {
        let (y, zl) = (limbs32(y), limbs32(z));
        let (x1, cf) = carry::sub_cc_u32(y[0], zl[0]);
        let (x2, cf) = carry::subc_u32(y[1], zl[1], cf);
        let (x3, cf) = carry::subc_u32(y[2], zl[2], cf);
        let (x4, cf) = carry::subc_u32(y[3], zl[3], cf);
        prop_assert_eq!(from_limbs32([x1, x2, x3, x4]), from_limbs32(y).wrapping_sub(z));
        // The final borrow-out is set exactly when the 128-bit subtraction borrows.
        prop_assert_eq!(cf, from_limbs32(y) < z);
    }

    /// The same chains on 64-bit limbs (add.cc.u64 / addc.u64, sub.cc.u64 / subc.u64).
    #[test]
    fn chains_on_64_bit_limbs(y in edge128(), z in edge128()) {
        let (d0, cf) = carry::add_cc_u64(y as u64, z as u64);
        let (d1, _) = carry::addc_u64((y >> 64) as u64, (z >> 64) as u64, cf);
        prop_assert_eq!((u128::from(d1) << 64) | u128::from(d0), y.wrapping_add(z));
        let (d0, cf) = carry::sub_cc_u64(y as u64, z as u64);
        let (d1, cf) = carry::subc_u64((y >> 64) as u64, (z >> 64) as u64, cf);
        prop_assert_eq!((u128::from(d1) << 64) | u128::from(d0), y.wrapping_sub(z));
        prop_assert_eq!(cf, y < z);
    }

    /// §9.7.2.6 example: [r3,r2,r1,r0] = [r5,r4] * [r7,r6], transcribed instruction by
    /// instruction (carry-outs of instructions without `.cc` are dropped, as in the listing).
    #[test]
    fn example_64x64_to_128_multiply(x in edge64(), y in edge64()) {
        let (r4, r5) = (x as u32, (x >> 32) as u32);
        let (r6, r7) = (y as u32, (y >> 32) as u32);
        let r0 = int::mul_lo(r4, r6);                          // mul.lo.u32     r0,r4,r6
        let r1 = int::mul_hi(r4, r6);                          // mul.hi.u32     r1,r4,r6
        let (r1, cf) = carry::mad_lo_cc(r5, r6, r1);           // mad.lo.cc.u32  r1,r5,r6,r1
        let (r2, _) = carry::madc_hi(r5, r6, 0, cf);           // madc.hi.u32    r2,r5,r6,0
        let (r1, cf) = carry::mad_lo_cc(r4, r7, r1);           // mad.lo.cc.u32  r1,r4,r7,r1
        let (r2, cf) = carry::madc_hi(r4, r7, r2, cf);         // madc.hi.cc.u32 r2,r4,r7,r2
        let (r3, _) = carry::addc_u32(0, 0, cf);               // addc.u32       r3,0,0
        let (r2, cf) = carry::mad_lo_cc(r5, r7, r2);           // mad.lo.cc.u32  r2,r5,r7,r2
        let (r3, _) = carry::madc_hi(r5, r7, r3, cf);          // madc.hi.u32    r3,r5,r7,r3
        prop_assert_eq!(from_limbs32([r0, r1, r2, r3]), u128::from(x) * u128::from(y));
    }

    /// The same listing with `.u64` registers: a 128×128→256-bit product, checked against a
    /// schoolbook product of 64-bit halves computed in u128.
    #[test]
    fn example_multiply_on_64_bit_limbs(x in edge128(), y in edge128()) {
        let (r4, r5) = (x as u64, (x >> 64) as u64);
        let (r6, r7) = (y as u64, (y >> 64) as u64);
        let r0 = int::mul_lo(r4, r6);
        let r1 = int::mul_hi(r4, r6);
        let (r1, cf) = carry::mad_lo_cc(r5, r6, r1);
        let (r2, _) = carry::madc_hi(r5, r6, 0, cf);
        let (r1, cf) = carry::mad_lo_cc(r4, r7, r1);
        let (r2, cf) = carry::madc_hi(r4, r7, r2, cf);
        let (r3, _) = carry::addc_u64(0, 0, cf);
        let (r2, cf) = carry::mad_lo_cc(r5, r7, r2);
        let (r3, _) = carry::madc_hi(r5, r7, r3, cf);
        // Reference: 256-bit product as four 64-bit words from four 128-bit partial products.
        let m = |a: u64, b: u64| u128::from(a) * u128::from(b);
        let (p00, p01, p10, p11) = (m(r4, r6), m(r4, r7), m(r5, r6), m(r5, r7));
        let lo = |v: u128| v as u64 as u128;
        let hi = |v: u128| v >> 64;
        let w0 = p00 as u64;
        let s1 = hi(p00) + lo(p01) + lo(p10);
        let s2 = hi(s1) + hi(p01) + hi(p10) + lo(p11);
        let s3 = hi(s2) + hi(p11);
        prop_assert_eq!([r0, r1, r2, r3], [w0, s1 as u64, s2 as u64, s3 as u64]);
    }
}

#[test]
fn carry_and_borrow_edges() {
    assert_eq!(carry::add_cc_u32(u32::MAX, 1), (0, true));
    assert_eq!(carry::addc_u32(u32::MAX, 0, true), (0, true));
    assert_eq!(carry::addc_u32(u32::MAX, u32::MAX, true), (u32::MAX, true));
    assert_eq!(carry::addc_u32(1, 2, true), (4, false));
    assert_eq!(carry::sub_cc_u32(0, 1), (u32::MAX, true));
    // subc computes a - (b + CF): 5 - (5 + 1) borrows.
    assert_eq!(carry::subc_u32(5, 5, true), (u32::MAX, true));
    assert_eq!(carry::subc_u32(5, u32::MAX, true), (5, true));
    assert_eq!(carry::subc_u64(0, 0, false), (0, false));
    // Signed types: the carry is the unsigned carry of the register bits.
    assert_eq!(carry::madc_lo(-1i32, 1, 1, false), (0, true));
    // mad.hi.cc.s32: high half of (-1 * 1) is -1 (all ones); + 1 carries out.
    assert_eq!(carry::mad_hi_cc(-1i32, 1, 1), (0, true));
    assert_eq!(carry::mad_hi_cc(u32::MAX, 1, 1), (1, false));
}
