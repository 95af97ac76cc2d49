//! `add sub mul mad sad div rem abs neg min max` and the `.sat`, `.hi/.lo/.wide`, `.relu`,
//! `.u16x2/.s16x2` forms, against i128 reference arithmetic written here.
//!
//! 16-bit types: every value of one operand against edge values of the other.
//! 32/64-bit types: proptest with edge values mixed in.

use ops::int::{self, Int};
use proptest::prelude::*;

const EDGE16: [u16; 14] = [
    0, 1, 2, 3, 7, 0x00ff, 0x0100, 0x7ffe, 0x7fff, 0x8000, 0x8001, 0xfffe, 0xffff, 0x1234,
];

fn edge32() -> impl Strategy<Value = u32> {
    prop_oneof![
        3 => any::<u32>(),
        1 => prop::sample::select(vec![
            0u32, 1, 2, 3, 0x7fff_ffff, 0x8000_0000, 0x8000_0001, 0xffff_ffff, 0xffff_fffe,
            0xffff, 0x1_0000, 0x00ff_ffff, 0x0080_0000,
        ]),
        1 => (0u32..32).prop_map(|k| 1u32 << k),
        1 => (0u32..32).prop_map(|k| (1u32 << k).wrapping_neg()),
    ]
}

fn edge64() -> impl Strategy<Value = u64> {
    prop_oneof![
        3 => any::<u64>(),
        1 => prop::sample::select(vec![
            0u64, 1, 2, 3, i64::MAX as u64, 1 << 63, (1 << 63) + 1, u64::MAX, u64::MAX - 1,
            0xffff_ffff, 1 << 32,
        ]),
        1 => (0u32..64).prop_map(|k| 1u64 << k),
        1 => (0u32..64).prop_map(|k| (1u64 << k).wrapping_neg()),
        1 => edge32().prop_map(u64::from),
    ]
}

/// Reference results, computed from exact values (i128) and reduced to n bits.
struct Ref {
    bits: u32,
    signed: bool,
}

impl Ref {
    /// The exact value of an n-bit pattern under the type's signedness.
    fn val(&self, x: u64) -> i128 {
        let x = i128::from(x) & self.mask();
        if self.signed && x >> (self.bits - 1) == 1 {
            x - (1i128 << self.bits)
        } else {
            x
        }
    }
    fn mask(&self) -> i128 {
        (1i128 << self.bits) - 1
    }
    /// Reduce an exact value to its n-bit pattern.
    fn wrap(&self, x: i128) -> u64 {
        (x & self.mask()) as u64
    }
    fn div(&self, a: u64, b: u64) -> u64 {
        let (a, b) = (self.val(a), self.val(b));
        if b == 0 {
            self.mask() as u64
        } else {
            self.wrap(a / b)
        }
    }
    fn rem(&self, a: u64, b: u64) -> u64 {
        let (a, b) = (self.val(a), self.val(b));
        if b == 0 {
            self.wrap(a)
        } else {
            // Truncated quotient, remainder with the sign of the dividend.
            self.wrap(a - (a / b) * b)
        }
    }
    fn hi(&self, a: u64, b: u64) -> u64 {
        self.wrap((self.val(a) * self.val(b)) >> self.bits)
    }
}

/// Checks every generic scalar operation for one type against [`Ref`].
fn check_all<T: Int>(a: T, b: T, c: T) {
    let r = Ref {
        bits: T::BITS,
        signed: T::SIGNED,
    };
    let (ab, bb, cb) = (a.to_bits(), b.to_bits(), c.to_bits());
    let (av, bv, cv) = (r.val(ab), r.val(bb), r.val(cb));
    let ctx = format!("{a:?} {b:?} {c:?}");
    assert_eq!(int::add(a, b).to_bits(), r.wrap(av + bv), "add {ctx}");
    assert_eq!(int::sub(a, b).to_bits(), r.wrap(av - bv), "sub {ctx}");
    if T::BITS < 64 {
        assert_eq!(int::mul_lo(a, b).to_bits(), r.wrap(av * bv), "mul.lo {ctx}");
        assert_eq!(int::mul_hi(a, b).to_bits(), r.hi(ab, bb), "mul.hi {ctx}");
        assert_eq!(
            int::mad_hi(a, b, c).to_bits(),
            r.wrap(r.val(r.hi(ab, bb)) + cv),
            "mad.hi {ctx}"
        );
    }
    assert_eq!(
        int::mad_lo(a, b, c).to_bits(),
        r.wrap(av.wrapping_mul(bv).wrapping_add(cv)),
        "mad.lo {ctx}"
    );
    let absdiff = if av < bv { bv - av } else { av - bv };
    assert_eq!(
        int::sad(a, b, c).to_bits(),
        r.wrap(cv + absdiff),
        "sad {ctx}"
    );
    assert_eq!(int::div(a, b).to_bits(), r.div(ab, bb), "div {ctx}");
    assert_eq!(int::rem(a, b).to_bits(), r.rem(ab, bb), "rem {ctx}");
    assert_eq!(int::min(a, b).to_bits(), r.wrap(av.min(bv)), "min {ctx}");
    assert_eq!(int::max(a, b).to_bits(), r.wrap(av.max(bv)), "max {ctx}");
    if T::SIGNED {
        assert_eq!(int::abs(a).to_bits(), r.wrap(av.abs()), "abs {ctx}");
        assert_eq!(int::neg(a).to_bits(), r.wrap(-av), "neg {ctx}");
    }
}

/// 64×64 → high 64 bits by 32-bit schoolbook multiplication, independent of u128.
fn mulhi_u64_schoolbook(a: u64, b: u64) -> u64 {
    let (a0, a1) = (a & 0xffff_ffff, a >> 32);
    let (b0, b1) = (b & 0xffff_ffff, b >> 32);
    let p00 = a0 * b0;
    let p01 = a0 * b1;
    let p10 = a1 * b0;
    let p11 = a1 * b1;
    let mid = (p00 >> 32) + (p01 & 0xffff_ffff) + (p10 & 0xffff_ffff);
    p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32)
}

/// Signed high half from the unsigned one: subtract `b` if `a < 0` and `a` if `b < 0`.
fn mulhi_s64_schoolbook(a: i64, b: i64) -> i64 {
    let mut h = mulhi_u64_schoolbook(a as u64, b as u64);
    if a < 0 {
        h = h.wrapping_sub(b as u64);
    }
    if b < 0 {
        h = h.wrapping_sub(a as u64);
    }
    h as i64
}

#[test]
fn sixteen_bit_ops_one_operand_swept() {
    for x in 0..=u16::MAX {
        for &e in &EDGE16 {
            let c = e.rotate_left(5) ^ x;
            check_all::<u16>(x, e, c);
            check_all::<u16>(e, x, c);
            check_all::<i16>(x as i16, e as i16, c as i16);
            check_all::<i16>(e as i16, x as i16, c as i16);
        }
    }
}

#[test]
fn sixteen_bit_wide_forms_one_operand_swept() {
    for x in 0..=u16::MAX {
        for &e in &EDGE16 {
            let (ux, ue) = (u32::from(x), u32::from(e));
            let (sx, se) = (i32::from(x as i16), i32::from(e as i16));
            assert_eq!(int::mul_wide(x, e), ux * ue);
            assert_eq!(int::mul_wide(x as i16, e as i16), sx * se);
            let c32 = ux.wrapping_mul(0x9e37_79b9);
            assert_eq!(int::mad_wide(x, e, c32), (ux * ue).wrapping_add(c32));
            assert_eq!(
                int::mad_wide(x as i16, e as i16, c32 as i32),
                (sx * se).wrapping_add(c32 as i32)
            );
            // div.wide/rem.wide: a 32-bit dividend built from both values.
            let a = (ue << 16) | ux;
            let ru = Ref {
                bits: 16,
                signed: false,
            };
            let rs = Ref {
                bits: 16,
                signed: true,
            };
            let wide_u = |a: u32, b: u16| -> (u64, u64) {
                let (a, b) = (i128::from(a), i128::from(b));
                if b == 0 {
                    (0xffff, ru.wrap(a))
                } else {
                    (ru.wrap(a / b), ru.wrap(a % b))
                }
            };
            let wide_s = |a: i32, b: i16| -> (u64, u64) {
                let (a, b) = (i128::from(a), i128::from(b));
                if b == 0 {
                    (0xffff, rs.wrap(a))
                } else {
                    (rs.wrap(a / b), rs.wrap(a - (a / b) * b))
                }
            };
            let (q, r) = wide_u(a, e);
            assert_eq!(
                u64::from(int::div_wide::<u16>(a, e)),
                q,
                "div.wide.u16 {a:#x} {e:#x}"
            );
            assert_eq!(
                u64::from(int::rem_wide::<u16>(a, e)),
                r,
                "rem.wide.u16 {a:#x} {e:#x}"
            );
            let (q, r) = wide_s(a as i32, e as i16);
            assert_eq!(
                int::div_wide::<i16>(a as i32, e as i16) as u16 as u64,
                q,
                "div.wide.s16 {a:#x} {e:#x}"
            );
            assert_eq!(
                int::rem_wide::<i16>(a as i32, e as i16) as u16 as u64,
                r,
                "rem.wide.s16 {a:#x} {e:#x}"
            );
        }
    }
}

#[test]
fn packed_u16x2_and_s16x2_lanes_swept() {
    for x in 0..=u16::MAX {
        for &e in &EDGE16 {
            // Lane 0 is swept in `a` and lane 1 in `b`, so both lanes see every value.
            let a = u32::from(x) | (u32::from(e) << 16);
            let b = u32::from(e) | (u32::from(x) << 16);
            let lanes = |f: &dyn Fn(i32, i32) -> i32, signed: bool| -> u32 {
                let ext = |v: u32| {
                    if signed {
                        i32::from(v as u16 as i16)
                    } else {
                        (v & 0xffff) as i32
                    }
                };
                let l0 = f(ext(a), ext(b)) as u32 & 0xffff;
                let l1 = f(ext(a >> 16), ext(b >> 16)) as u32 & 0xffff;
                l0 | (l1 << 16)
            };
            assert_eq!(int::add_u16x2(a, b), lanes(&|p, q| p + q, false));
            assert_eq!(int::add_s16x2(a, b), lanes(&|p, q| p + q, true));
            assert_eq!(
                int::min_u16x2(a, b),
                lanes(&|p, q| if p < q { p } else { q }, false)
            );
            assert_eq!(
                int::max_u16x2(a, b),
                lanes(&|p, q| if p > q { p } else { q }, false)
            );
            assert_eq!(
                int::min_s16x2(a, b),
                lanes(&|p, q| if p < q { p } else { q }, true)
            );
            assert_eq!(
                int::max_s16x2(a, b),
                lanes(&|p, q| if p > q { p } else { q }, true)
            );
            let relu = |v: i32| if v < 0 { 0 } else { v };
            assert_eq!(
                int::min_relu_s16x2(a, b),
                lanes(&|p, q| relu(if p < q { p } else { q }), true)
            );
            assert_eq!(
                int::max_relu_s16x2(a, b),
                lanes(&|p, q| relu(if p > q { p } else { q }), true)
            );
        }
    }
}

/// mul24 reference: the low 24 bits as an exact value, the 48-bit product, bits 47..16.
fn mul24_ref(a: u32, b: u32, signed: bool) -> (u32, u32) {
    let ext = |x: u32| {
        let v = i128::from(x & 0xff_ffff);
        if signed && v >= 0x80_0000 {
            v - 0x100_0000
        } else {
            v
        }
    };
    let t = ext(a) * ext(b);
    let t48 = t & ((1i128 << 48) - 1);
    ((t48 & 0xffff_ffff) as u32, (t48 >> 16) as u32)
}

fn sat32(x: i128) -> i32 {
    x.clamp(i128::from(i32::MIN), i128::from(i32::MAX)) as i32
}

proptest! {
    #[test]
    fn ops_32bit(a in edge32(), b in edge32(), c in edge32()) {
        check_all::<u32>(a, b, c);
        check_all::<i32>(a as i32, b as i32, c as i32);
        let (sa, sb, sc) = (i128::from(a as i32), i128::from(b as i32), i128::from(c as i32));
        prop_assert_eq!(int::mul_wide(a, b), u64::from(a) * u64::from(b));
        prop_assert_eq!(i128::from(int::mul_wide(a as i32, b as i32)), sa * sb);
        prop_assert_eq!(int::mad_wide(a, b, u64::from(c) << 7), (u64::from(a) * u64::from(b)).wrapping_add(u64::from(c) << 7));
        prop_assert_eq!(int::add_sat_s32(a as i32, b as i32), sat32(sa + sb));
        prop_assert_eq!(int::sub_sat_s32(a as i32, b as i32), sat32(sa - sb));
        prop_assert_eq!(int::mad_hi_sat_s32(a as i32, b as i32, c as i32), sat32(((sa * sb) >> 32) + sc));
        prop_assert_eq!(i128::from(int::min_relu_s32(a as i32, b as i32)), sa.min(sb).max(0));
        prop_assert_eq!(i128::from(int::max_relu_s32(a as i32, b as i32)), sa.max(sb).max(0));
    }

    #[test]
    fn wide_forms_32bit(a in edge32(), b in edge32(), hi in edge32()) {
        let (sa, sb) = (i128::from(a as i32), i128::from(b as i32));
        let c64 = (u64::from(hi) << 32) | u64::from(b);
        prop_assert_eq!(
            i128::from(int::mad_wide(a as i32, b as i32, c64 as i64)),
            ((sa * sb + i128::from(c64 as i64)) as i64).into()
        );
        // div.wide / rem.wide: a 64-bit dividend, 32-bit divisor and result.
        let r = Ref { bits: 32, signed: false };
        let (wa, wb) = (i128::from(c64), i128::from(a));
        let (q, m) = if wb == 0 { (0xffff_ffff, r.wrap(wa)) } else { (r.wrap(wa / wb), r.wrap(wa % wb)) };
        prop_assert_eq!(u64::from(int::div_wide::<u32>(c64, a)), q);
        prop_assert_eq!(u64::from(int::rem_wide::<u32>(c64, a)), m);
        let r = Ref { bits: 32, signed: true };
        let (wa, wb) = (i128::from(c64 as i64), sa);
        let (q, m) = if wb == 0 { (0xffff_ffff, r.wrap(wa)) } else { (r.wrap(wa / wb), r.wrap(wa - (wa / wb) * wb)) };
        prop_assert_eq!(u64::from(int::div_wide::<i32>(c64 as i64, a as i32) as u32), q);
        prop_assert_eq!(u64::from(int::rem_wide::<i32>(c64 as i64, a as i32) as u32), m);
    }

    #[test]
    fn ops_64bit(a in edge64(), b in edge64(), c in edge64()) {
        check_all::<u64>(a, b, c);
        check_all::<i64>(a as i64, b as i64, c as i64);
        prop_assert_eq!(int::mul_lo(a, b), a.wrapping_mul(b));
        prop_assert_eq!(int::mul_hi(a, b), mulhi_u64_schoolbook(a, b));
        prop_assert_eq!(int::mul_hi(a as i64, b as i64), mulhi_s64_schoolbook(a as i64, b as i64));
        prop_assert_eq!(int::mad_hi(a, b, c), mulhi_u64_schoolbook(a, b).wrapping_add(c));
        prop_assert_eq!(int::mad_hi(a as i64, b as i64, c as i64), mulhi_s64_schoolbook(a as i64, b as i64).wrapping_add(c as i64));
    }

    #[test]
    fn mul24_and_mad24(a in edge32(), b in edge32(), c in edge32()) {
        let (ulo, uhi) = mul24_ref(a, b, false);
        let (slo, shi) = mul24_ref(a, b, true);
        prop_assert_eq!(int::mul24_lo_u32(a, b), ulo);
        prop_assert_eq!(int::mul24_hi_u32(a, b), uhi);
        prop_assert_eq!(int::mul24_lo_s32(a as i32, b as i32) as u32, slo);
        prop_assert_eq!(int::mul24_hi_s32(a as i32, b as i32) as u32, shi);
        prop_assert_eq!(int::mad24_lo_u32(a, b, c), ulo.wrapping_add(c));
        prop_assert_eq!(int::mad24_hi_u32(a, b, c), uhi.wrapping_add(c));
        prop_assert_eq!(int::mad24_lo_s32(a as i32, b as i32, c as i32) as u32, slo.wrapping_add(c));
        prop_assert_eq!(int::mad24_hi_s32(a as i32, b as i32, c as i32) as u32, shi.wrapping_add(c));
        prop_assert_eq!(
            int::mad24_hi_sat_s32(a as i32, b as i32, c as i32),
            sat32(i128::from(shi as i32) + i128::from(c as i32))
        );
    }
}

#[test]
fn division_edge_rules() {
    // Division by zero gives all ones; rem by zero gives the dividend (spec notes).
    assert_eq!(int::div(7u32, 0), u32::MAX);
    assert_eq!(int::div(-7i32, 0), -1);
    assert_eq!(int::div(5u64, 0), u64::MAX);
    assert_eq!(int::rem(7u32, 0), 7);
    assert_eq!(int::rem(-7i64, 0), -7);
    // MININT / -1 wraps; MININT % -1 is 0.
    assert_eq!(int::div(i32::MIN, -1), i32::MIN);
    assert_eq!(int::rem(i32::MIN, -1), 0);
    assert_eq!(int::div(i64::MIN, -1), i64::MIN);
    assert_eq!(int::div(i16::MIN, -1), i16::MIN);
    // Truncation toward zero; remainder takes the dividend's sign.
    assert_eq!(int::div(-7i32, 2), -3);
    assert_eq!(int::rem(-7i32, 2), -1);
    assert_eq!(int::rem(7i32, -2), 1);
}

#[test]
fn spec_examples() {
    // add.sat.s32 c,c,1: limits the result to MAXINT.
    assert_eq!(int::add_sat_s32(i32::MAX, 1), i32::MAX);
    assert_eq!(int::add_sat_s32(41, 1), 42);
    // rem.s32 x,x,8: x = x%8.
    assert_eq!(int::rem(29i32, 8), 5);
    // mul.wide.s16: 16*16 bits yields 32 bits; mul.lo.s16 keeps the low 16 bits.
    assert_eq!(int::mul_wide(-300i16, 300i16), -90_000i32);
    assert_eq!(int::mul_lo(-300i16, 300i16), (-90_000i32) as i16);
    // mul.wide.s32: 32*32 bits creates a 64-bit result.
    assert_eq!(int::mul_wide(i32::MIN, i32::MIN), 1i64 << 62);
    // max.s32 q,q,0 clamps negatives to 0.
    assert_eq!(int::max(-5i32, 0), 0);
    // sad.u32 d,a,b,d: running sum.
    assert_eq!(int::sad(3u32, 10, int::sad(10u32, 3, 0)), 14);
    // mul24.hi: bits 47..16 of the 48-bit product; 0xffffff * 0xffffff = 0xfffffe000001.
    assert_eq!(int::mul24_hi_u32(0xff_ffff, 0xff_ffff), 0xffff_fe00);
    assert_eq!(int::mul24_lo_u32(0xff_ffff, 0xff_ffff), 0xfe00_0001);
    // As .s32, 0xffffff is -1: the product is 1.
    assert_eq!(int::mul24_lo_s32(0xff_ffff, 0xff_ffff), 1);
    assert_eq!(int::mul24_hi_s32(0xff_ffff, 0xff_ffff), 0);
    // The top byte of each operand is ignored.
    assert_eq!(int::mul24_lo_u32(0xab00_0002, 0xcd00_0003), 6);
}

#[test]
fn mul24_one_operand_swept_over_its_top_16_of_24_bits() {
    let edges = [
        0u32,
        1,
        0x7f_ffff,
        0x80_0000,
        0xff_ffff,
        0xffff_ffff,
        0x1234_5678,
        0xff80_0001,
    ];
    for x in 0..=0xffffu32 {
        // Bits 23..8 swept (including the sign bit 23), bits 7..0 and the ignored top byte
        // varied with x.
        let a = (x << 8) | (x & 0xff) | (x.rotate_left(9) & 0xff00_0000);
        for &b in &edges {
            let (ulo, uhi) = mul24_ref(a, b, false);
            let (slo, shi) = mul24_ref(a, b, true);
            assert_eq!(int::mul24_lo_u32(a, b), ulo, "{a:#x} {b:#x}");
            assert_eq!(int::mul24_hi_u32(a, b), uhi, "{a:#x} {b:#x}");
            assert_eq!(
                int::mul24_lo_s32(a as i32, b as i32) as u32,
                slo,
                "{a:#x} {b:#x}"
            );
            assert_eq!(
                int::mul24_hi_s32(a as i32, b as i32) as u32,
                shi,
                "{a:#x} {b:#x}"
            );
        }
    }
}
