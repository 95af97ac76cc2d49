//! `dp4a` and `dp2a` (§9.7.1.23–24) against exact i128 sums of extended parts.

use ops::int::{self, Dp2aMode, Sign};
use proptest::prelude::*;

const SIGNS: [Sign; 2] = [Sign::Unsigned, Sign::Signed];

/// `extractAndSignOrZeroExt`: part `i` of `width` bits as an exact value.
fn part(x: u32, i: u32, width: u32, sign: Sign) -> i128 {
    let v = i128::from((x >> (i * width)) & ((1 << width) - 1));
    if sign == Sign::Signed && v >> (width - 1) == 1 {
        v - (1 << width)
    } else {
        v
    }
}

fn dp4a_ref(a: u32, b: u32, c: u32, at: Sign, bt: Sign) -> u32 {
    let mut d = i128::from(c);
    for i in 0..4 {
        d += part(a, i, 8, at) * part(b, i, 8, bt);
    }
    (d & 0xffff_ffff) as u32
}

fn dp2a_ref(a: u32, b: u32, c: u32, at: Sign, bt: Sign, mode: Dp2aMode) -> u32 {
    let sel = if mode == Dp2aMode::Lo { 0 } else { 2 };
    let mut d = i128::from(c);
    for i in 0..2 {
        d += part(a, i, 16, at) * part(b, sel + i, 8, bt);
    }
    (d & 0xffff_ffff) as u32
}

#[test]
fn every_byte_pair_in_each_lane() {
    // Each lane gets every (a byte, b byte) pair while the other lanes hold fixed bytes.
    for lane in 0..4u32 {
        for x in 0..=255u32 {
            for y in 0..=255u32 {
                let a = (0x80ff_7f01 & !(0xff << (8 * lane))) | (x << (8 * lane));
                let b = (0x01fe_8081 & !(0xff << (8 * lane))) | (y << (8 * lane));
                let c = 0xffff_ff00 ^ (x << 9) ^ y;
                for at in SIGNS {
                    for bt in SIGNS {
                        assert_eq!(int::dp4a(a, b, c, at, bt), dp4a_ref(a, b, c, at, bt));
                        for mode in [Dp2aMode::Lo, Dp2aMode::Hi] {
                            assert_eq!(
                                int::dp2a(a, b, c, at, bt, mode),
                                dp2a_ref(a, b, c, at, bt, mode)
                            );
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn every_half_word_of_a_in_dp2a() {
    for x in 0..=u32::from(u16::MAX) {
        for &b in &[0x7f80_ff01u32, 0xffff_ffff, 0x8080_8080] {
            let a = x | (x.rotate_left(3) << 16);
            for at in SIGNS {
                for bt in SIGNS {
                    for mode in [Dp2aMode::Lo, Dp2aMode::Hi] {
                        assert_eq!(
                            int::dp2a(a, b, 7, at, bt, mode),
                            dp2a_ref(a, b, 7, at, bt, mode)
                        );
                    }
                }
            }
        }
    }
}

proptest! {
    #[test]
    fn dot_products_random(a in any::<u32>(), b in any::<u32>(), c in any::<u32>()) {
        for at in SIGNS {
            for bt in SIGNS {
                prop_assert_eq!(int::dp4a(a, b, c, at, bt), dp4a_ref(a, b, c, at, bt));
                prop_assert_eq!(int::dp2a(a, b, c, at, bt, Dp2aMode::Lo), dp2a_ref(a, b, c, at, bt, Dp2aMode::Lo));
                prop_assert_eq!(int::dp2a(a, b, c, at, bt, Dp2aMode::Hi), dp2a_ref(a, b, c, at, bt, Dp2aMode::Hi));
            }
        }
    }
}

#[test]
fn worked_values() {
    // 1*5 + 2*6 + 3*7 + 4*8 = 70.
    assert_eq!(
        int::dp4a(0x0403_0201, 0x0807_0605, 0, Sign::Unsigned, Sign::Unsigned),
        70
    );
    // Signed bytes: (-1)*(-1) * 4 = 4, plus c = -10 gives -6.
    assert_eq!(
        int::dp4a(
            u32::MAX,
            u32::MAX,
            (-10i32) as u32,
            Sign::Signed,
            Sign::Signed
        ) as i32,
        -6
    );
    // Mixed: a unsigned 255s, b signed -1s: 4 * -255 = -1020.
    assert_eq!(
        int::dp4a(u32::MAX, u32::MAX, 0, Sign::Unsigned, Sign::Signed) as i32,
        -1020
    );
    // dp2a.hi: halves 2 and 3 of a times bytes 2 and 3 of b: 1000*3 + 2000*4 = 11000.
    let a = 1000 | (2000 << 16);
    assert_eq!(
        int::dp2a(
            a,
            0x0403_0201,
            0,
            Sign::Unsigned,
            Sign::Unsigned,
            Dp2aMode::Hi
        ),
        11_000
    );
    assert_eq!(
        int::dp2a(
            a,
            0x0403_0201,
            0,
            Sign::Unsigned,
            Sign::Unsigned,
            Dp2aMode::Lo
        ),
        5_000
    );
}
