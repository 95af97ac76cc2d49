//! `popc clz bfind fns brev bfe bfi szext bmsk` against line-by-line transcriptions of the
//! spec pseudo-code (bit loops) or independent formulations from the prose, plus the spec's
//! worked examples.

use ops::int::{self, ClampWrap, Int};
use proptest::prelude::*;

fn bit(x: u64, i: u32) -> u64 {
    (x >> i) & 1
}

// ---- transcriptions of the pseudo-code (§9.7.1.14–20) ----

fn popc_spec(mut a: u64) -> u32 {
    let mut d = 0;
    while a != 0 {
        if a & 1 == 1 {
            d += 1;
        }
        a >>= 1;
    }
    d
}

fn clz_spec(mut a: u64, max: u32) -> u32 {
    let mask = 1u64 << (max - 1);
    let mut d = 0;
    while d < max && (a & mask) == 0 {
        d += 1;
        a <<= 1;
    }
    d
}

fn bfind_spec(a: u64, bits: u32, signed: bool, shiftamt: bool) -> u32 {
    let msb = bits - 1;
    let mut a = a;
    if signed && a & (1 << msb) != 0 {
        a = !a;
    }
    let mut d = 0xffff_ffffu32;
    let mut i = msb as i32;
    while i >= 0 {
        if a & (1 << i) != 0 {
            d = i as u32;
            break;
        }
        i -= 1;
    }
    if shiftamt && d != 0xffff_ffff {
        d = msb - d;
    }
    d
}

fn brev_spec(a: u64, msb: u32) -> u64 {
    let mut d = 0;
    for i in 0..=msb {
        d |= bit(a, msb - i) << i;
    }
    d
}

fn bfe_spec(a: u64, b: u32, c: u32, bits: u32, signed: bool) -> u64 {
    let msb = bits - 1;
    let pos = b & 0xff;
    let len = c & 0xff;
    let sbit = if !signed || len == 0 {
        0
    } else {
        bit(a, (pos + len - 1).min(msb))
    };
    let mut d = 0;
    for i in 0..=msb {
        let v = if i < len && pos + i <= msb {
            bit(a, pos + i)
        } else {
            sbit
        };
        d |= v << i;
    }
    d
}

fn bfi_spec(a: u64, b: u64, c: u32, d: u32, bits: u32) -> u64 {
    let msb = bits - 1;
    let pos = c & 0xff;
    let len = d & 0xff;
    let mut f = b;
    let mut i = 0;
    while i < len && pos + i <= msb {
        f = (f & !(1 << (pos + i))) | (bit(a, i) << (pos + i));
        i += 1;
    }
    f
}

fn fns_spec(mask: u32, base: u32, offset: i32) -> u32 {
    let mut d = 0xffff_ffff;
    let m = |p: i64| (mask >> p) & 1 == 1;
    if offset == 0 {
        if m(i64::from(base)) {
            d = base;
        }
    } else {
        let mut pos = i64::from(base);
        let mut count = i64::from(offset).abs() - 1;
        let inc = if offset > 0 { 1 } else { -1 };
        while (0..32).contains(&pos) {
            if m(pos) {
                if count == 0 {
                    d = pos as u32;
                    break;
                } else {
                    count -= 1;
                }
            }
            pos += inc;
        }
    }
    d
}

// ---- independent formulations from the prose (§9.7.1.21–22) ----

/// "Sign-extends or zero-extends an N-bit value … If N is 0 the result is 0; N >= 32: `.clamp`
/// gives a, `.wrap` uses the wrapped N."
fn szext_prose(a: u32, b: u32, mode: ClampWrap, signed: bool) -> u32 {
    let n = match mode {
        ClampWrap::Clamp if b >= 32 => return a,
        ClampWrap::Clamp => b,
        ClampWrap::Wrap => b % 32,
    };
    if n == 0 {
        return 0;
    }
    let shift = 64 - n;
    if signed {
        (((i64::from(a) << shift) >> shift) & 0xffff_ffff) as u32
    } else {
        ((u64::from(a) << shift) >> shift) as u32
    }
}

/// A mask of `width` ones from bit `pos` (clipped at bit 31): `.clamp` takes `pos >= 32` as an
/// empty mask and limits `width` to 32; `.wrap` takes both modulo 32.
fn bmsk_prose(a: u32, b: u32, mode: ClampWrap) -> u32 {
    let (pos, width) = match mode {
        ClampWrap::Clamp if a >= 32 => return 0,
        ClampWrap::Clamp => (a, b.min(32)),
        ClampWrap::Wrap => (a % 32, b % 32),
    };
    let ones: u64 = (1u64 << width) - 1;
    ((ones << pos) & 0xffff_ffff) as u32
}

fn edge32() -> impl Strategy<Value = u32> {
    prop_oneof![
        3 => any::<u32>(),
        1 => prop::sample::select(vec![0u32, 1, 0x7fff_ffff, 0x8000_0000, 0xffff_ffff, 0xffff_fffe]),
        1 => (0u32..32).prop_map(|k| 1u32 << k),
        1 => (0u32..32).prop_map(|k| (1u32 << k) - 1),
        1 => (0u32..32).prop_map(|k| !((1u32 << k) - 1)),
    ]
}

fn edge64() -> impl Strategy<Value = u64> {
    prop_oneof![
        3 => any::<u64>(),
        1 => prop::sample::select(vec![0u64, 1, i64::MAX as u64, 1 << 63, u64::MAX]),
        1 => (0u32..64).prop_map(|k| 1u64 << k),
        1 => (0u32..64).prop_map(|k| (1u64 << k) - 1),
        1 => (0u32..64).prop_map(|k| !((1u64 << k) - 1)),
    ]
}

/// Values with every bit position as the top set bit and both signs, for the counting ops.
fn patterns64() -> Vec<u64> {
    let mut v = vec![0u64, u64::MAX, 0x5555_5555_5555_5555, 0xaaaa_aaaa_aaaa_aaaa];
    for k in 0..64 {
        v.push(1 << k);
        v.push((1 << k) - 1);
        v.push(!((1u64 << k) - 1));
        v.push((1u64 << k) | 0x9);
        v.push(!(1u64 << k));
    }
    v
}

fn check_counts(x: u64) {
    let x32 = x as u32;
    assert_eq!(
        int::popc_b32(x32),
        popc_spec(u64::from(x32)),
        "popc.b32 {x32:#x}"
    );
    assert_eq!(int::popc_b64(x), popc_spec(x), "popc.b64 {x:#x}");
    assert_eq!(
        int::clz_b32(x32),
        clz_spec(u64::from(x32), 32),
        "clz.b32 {x32:#x}"
    );
    assert_eq!(int::clz_b64(x), clz_spec(x, 64), "clz.b64 {x:#x}");
    assert_eq!(
        u64::from(int::brev_b32(x32)),
        brev_spec(u64::from(x32), 31),
        "brev.b32 {x32:#x}"
    );
    assert_eq!(int::brev_b64(x), brev_spec(x, 63), "brev.b64 {x:#x}");
    for shiftamt in [false, true] {
        let f = |v: u32, s: u32| if shiftamt { s } else { v };
        let x32b = u64::from(x32);
        assert_eq!(
            f(int::bfind(x32), int::bfind_shiftamt(x32)),
            bfind_spec(x32b, 32, false, shiftamt),
            "bfind.u32 {x32:#x}"
        );
        assert_eq!(
            f(int::bfind(x32 as i32), int::bfind_shiftamt(x32 as i32)),
            bfind_spec(x32b, 32, true, shiftamt),
            "bfind.s32 {x32:#x}"
        );
        assert_eq!(
            f(int::bfind(x), int::bfind_shiftamt(x)),
            bfind_spec(x, 64, false, shiftamt),
            "bfind.u64 {x:#x}"
        );
        assert_eq!(
            f(int::bfind(x as i64), int::bfind_shiftamt(x as i64)),
            bfind_spec(x, 64, true, shiftamt),
            "bfind.s64 {x:#x}"
        );
    }
}

#[test]
fn counting_ops_on_bit_patterns_and_all_16_bit_values() {
    for x in patterns64() {
        check_counts(x);
    }
    for x in 0..=u64::from(u16::MAX) {
        check_counts(x);
        check_counts(x << 16);
        check_counts(x << 48 | 0x1234);
    }
}

fn check_bfe<T: Int>(a: T, b: u32, c: u32) {
    let want = bfe_spec(a.to_bits(), b, c, T::BITS, T::SIGNED);
    assert_eq!(
        int::bfe(a, b, c).to_bits(),
        want,
        "bfe {a:?} pos {b} len {c}"
    );
}

#[test]
fn bfe_bfi_every_position_and_length() {
    let values = [
        0u64,
        u64::MAX,
        0x8000_0000_8000_0000,
        0x7fff_ffff_7fff_ffff,
        0x0123_4567_89ab_cdef,
        0xfedc_ba98_7654_3210,
    ];
    for pos in 0..=255u32 {
        for len in 0..=255u32 {
            for &v in &values {
                check_bfe(v as u32, pos, len);
                check_bfe(v as u32 as i32, pos, len);
                check_bfe(v, pos, len);
                check_bfe(v as i64, pos, len);
                let b = v.rotate_left(17);
                assert_eq!(
                    u64::from(int::bfi(v as u32, b as u32, pos, len)),
                    bfi_spec(v, u64::from(b as u32), pos, len, 32)
                );
                assert_eq!(int::bfi(v, b, pos, len), bfi_spec(v, b, pos, len, 64));
            }
        }
    }
}

#[test]
fn fns_every_base_and_offset() {
    let masks = [
        0u32,
        u32::MAX,
        0xaaaa_aaaa,
        0x5555_5555,
        0x8000_0001,
        0x0001_0000,
        0xdead_beef,
        0x1234_5678,
    ];
    for &mask in &masks {
        for base in 0..32u32 {
            for offset in -34..=34i32 {
                assert_eq!(
                    int::fns_b32(mask, base, offset),
                    fns_spec(mask, base, offset),
                    "fns {mask:#x} {base} {offset}"
                );
            }
            for offset in [i32::MIN, i32::MIN + 1, i32::MAX] {
                assert_eq!(
                    int::fns_b32(mask, base, offset),
                    fns_spec(mask, base, offset)
                );
            }
        }
        // base > 31 is undefined in the spec; the loop never runs, so nothing is found.
        assert_eq!(int::fns_b32(mask, 32, 1), u32::MAX);
        assert_eq!(int::fns_b32(mask, u32::MAX, -1), u32::MAX);
    }
}

#[test]
fn szext_and_bmsk_every_count() {
    let values = [
        0u32,
        u32::MAX,
        0x8000_0000,
        0x7fff_ffff,
        0x89ab_cdef,
        0x1234_5678,
        1,
    ];
    let counts = (0..=300u32).chain([u32::MAX, u32::MAX - 31, 1 << 31, 0x100]);
    for b in counts {
        for mode in [ClampWrap::Clamp, ClampWrap::Wrap] {
            for &a in &values {
                assert_eq!(
                    int::szext_u32(a, b, mode),
                    szext_prose(a, b, mode, false),
                    "szext.u32 {a:#x} {b} {mode:?}"
                );
                assert_eq!(
                    int::szext_s32(a as i32, b, mode) as u32,
                    szext_prose(a, b, mode, true),
                    "szext.s32 {a:#x} {b} {mode:?}"
                );
            }
            for a in (0..=300u32).chain([u32::MAX, 1 << 31]) {
                assert_eq!(
                    int::bmsk_b32(a, b, mode),
                    bmsk_prose(a, b, mode),
                    "bmsk {a} {b} {mode:?}"
                );
            }
        }
    }
}

proptest! {
    #[test]
    fn bit_ops_32_random(a in edge32(), b in edge32(), pos in any::<u32>(), len in any::<u32>(), offset in any::<i32>()) {
        check_counts(u64::from(a));
        check_bfe(a, pos, len);
        check_bfe(a as i32, pos, len);
        prop_assert_eq!(u64::from(int::bfi(a, b, pos, len)), bfi_spec(u64::from(a), u64::from(b), pos, len, 32));
        prop_assert_eq!(int::fns_b32(a, pos & 31, offset), fns_spec(a, pos & 31, offset));
        for mode in [ClampWrap::Clamp, ClampWrap::Wrap] {
            prop_assert_eq!(int::szext_s32(a as i32, len, mode) as u32, szext_prose(a, len, mode, true));
            prop_assert_eq!(int::bmsk_b32(pos, len, mode), bmsk_prose(pos, len, mode));
        }
    }

    #[test]
    fn bit_ops_64_random(a in edge64(), b in edge64(), pos in any::<u32>(), len in any::<u32>()) {
        check_counts(a);
        check_bfe(a, pos, len);
        check_bfe(a as i64, pos, len);
        prop_assert_eq!(int::bfi(a, b, pos, len), bfi_spec(a, b, pos, len, 64));
    }
}

#[test]
fn spec_examples() {
    // fns.b32 examples (§9.7.1.17) with their stated results.
    assert_eq!(int::fns_b32(0xaaaa_aaaa, 3, 1), 3);
    assert_eq!(int::fns_b32(0xaaaa_aaaa, 3, -1), 3);
    assert_eq!(int::fns_b32(0xaaaa_aaaa, 2, 1), 3);
    assert_eq!(int::fns_b32(0xaaaa_aaaa, 2, -1), 1);
    // szext.wrap.u32 rd, 0xffffffff, 0; // Result is 0.
    assert_eq!(int::szext_u32(0xffff_ffff, 0, ClampWrap::Wrap), 0);
    // bmsk.wrap.b32 rd, 1, 2; // Creates a bitmask of 0x00000006.
    assert_eq!(int::bmsk_b32(1, 2, ClampWrap::Wrap), 0x0000_0006);
    // clz: between 0 and 32 (b32) or 0 and 64 (b64) inclusive.
    assert_eq!(int::clz_b32(0), 32);
    assert_eq!(int::clz_b64(0), 64);
    // bfind returns 0xffffffff if no non-sign bit is found.
    assert_eq!(int::bfind(0u32), u32::MAX);
    assert_eq!(int::bfind(-1i64), u32::MAX);
    assert_eq!(int::bfind_shiftamt(0u64), u32::MAX);
    // Signed: most significant 0 of a negative input.
    assert_eq!(int::bfind(-2i32), 0);
    assert_eq!(int::bfind(i32::MIN), 30);
    assert_eq!(int::bfind_shiftamt(1u32), 31);
    // bfe: zero length gives 0; a start beyond the msb fills with the sign bit.
    assert_eq!(int::bfe(-1i32, 0, 0), 0);
    assert_eq!(int::bfe(i32::MIN, 40, 8), -1);
    assert_eq!(int::bfe(0xf0u32, 4, 4), 0xf);
    assert_eq!(int::bfe(0xf0i32, 4, 4), -1);
    // bfi: zero length or start beyond the msb gives b.
    assert_eq!(int::bfi(0xffu32, 0x1234, 8, 0), 0x1234);
    assert_eq!(int::bfi(0xffu32, 0x1234, 32, 8), 0x1234);
    assert_eq!(int::bfi(0xffu32, 0x1234, 4, 4), 0x12f4);
}
