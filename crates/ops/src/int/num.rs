//! The sealed integer trait behind the generic integer functions.

mod sealed {
    pub trait Sealed {}
}

/// A PTX integer operation type: `.u16 .s16 .u32 .s32 .u64 .s64`.
///
/// Sealed: the semantics functions are only meaningful for these six types, and keeping the
/// set closed lets them rely on `BITS <= 64`.
pub trait Int: sealed::Sealed + Copy + Eq + Ord + core::fmt::Debug + core::hash::Hash {
    /// Width `n` of the type in bits.
    const BITS: u32;
    /// Whether the PTX type is `.sN`.
    const SIGNED: bool;
    /// Smallest value (`MININT` of the spec for signed types, 0 for unsigned).
    const MIN: Self;
    /// Largest value (`MAXINT`).
    const MAX: Self;
    /// Zero.
    const ZERO: Self;
    /// The value with every bit set (`-1` for signed types).
    const ONES: Self;

    /// The bit pattern, zero-extended to 64 bits.
    fn to_bits(self) -> u64;
    /// The low `BITS` bits of `bits`.
    fn from_bits(bits: u64) -> Self;
    /// The value, sign- or zero-extended according to the type.
    fn to_i128(self) -> i128;
    /// Two's complement `self + rhs` modulo 2^n.
    fn wrapping_add(self, rhs: Self) -> Self;
    /// Two's complement `self - rhs` modulo 2^n.
    fn wrapping_sub(self, rhs: Self) -> Self;
    /// Two's complement `0 - self` modulo 2^n.
    fn wrapping_neg(self) -> Self;
    /// The full 2n-bit product as `(low n bits, high n bits)`.
    fn mul_full(self, rhs: Self) -> (Self, Self);
    /// Truncating quotient modulo 2^n; `None` when `rhs` is zero.
    fn checked_div_wrapping(self, rhs: Self) -> Option<Self>;
    /// Remainder with the sign of the dividend (C semantics); `None` when `rhs` is zero.
    fn checked_rem_wrapping(self, rhs: Self) -> Option<Self>;
}

/// A type that `mul.wide`, `mad.wide`, and PTX 1.1 `div.wide`/`rem.wide` accept: the 16- and
/// 32-bit types, whose double-width result type is [`Widen::Wide`].
pub trait Widen: Int {
    /// The type of twice the width and the same signedness.
    type Wide: Int;
    /// Sign- or zero-extension to the wide type.
    fn widen(self) -> Self::Wide;
    /// The low half of a wide value.
    fn narrow(wide: Self::Wide) -> Self;
}

macro_rules! impl_int {
    ($t:ty, $u:ty, $d:ty, $signed:expr) => {
        impl sealed::Sealed for $t {}
        impl Int for $t {
            const BITS: u32 = <$t>::BITS;
            const SIGNED: bool = $signed;
            const MIN: Self = <$t>::MIN;
            const MAX: Self = <$t>::MAX;
            const ZERO: Self = 0;
            const ONES: Self = !0;

            #[inline]
            fn to_bits(self) -> u64 {
                u64::from(self as $u)
            }
            #[inline]
            fn from_bits(bits: u64) -> Self {
                bits as $t
            }
            #[inline]
            fn to_i128(self) -> i128 {
                i128::from(self)
            }
            #[inline]
            fn wrapping_add(self, rhs: Self) -> Self {
                <$t>::wrapping_add(self, rhs)
            }
            #[inline]
            fn wrapping_sub(self, rhs: Self) -> Self {
                <$t>::wrapping_sub(self, rhs)
            }
            #[inline]
            fn wrapping_neg(self) -> Self {
                <$t>::wrapping_neg(self)
            }
            #[inline]
            fn mul_full(self, rhs: Self) -> (Self, Self) {
                // The double-width type holds every product of two n-bit values exactly
                // (even MIN * MIN for signed types), so both halves are exact.
                let p = <$d>::from(self).wrapping_mul(<$d>::from(rhs));
                (p as $t, (p >> <$t>::BITS) as $t)
            }
            #[inline]
            fn checked_div_wrapping(self, rhs: Self) -> Option<Self> {
                if rhs == 0 {
                    None
                } else {
                    Some(<$t>::wrapping_div(self, rhs))
                }
            }
            #[inline]
            fn checked_rem_wrapping(self, rhs: Self) -> Option<Self> {
                if rhs == 0 {
                    None
                } else {
                    Some(<$t>::wrapping_rem(self, rhs))
                }
            }
        }
    };
}

impl_int!(u16, u16, u32, false);
impl_int!(i16, u16, i32, true);
impl_int!(u32, u32, u64, false);
impl_int!(i32, u32, i64, true);
impl_int!(u64, u64, u128, false);
impl_int!(i64, u64, i128, true);

macro_rules! impl_widen {
    ($t:ty, $w:ty) => {
        impl Widen for $t {
            type Wide = $w;
            #[inline]
            fn widen(self) -> $w {
                <$w>::from(self)
            }
            #[inline]
            fn narrow(wide: $w) -> Self {
                wide as $t
            }
        }
    };
}

impl_widen!(u16, u32);
impl_widen!(i16, i32);
impl_widen!(u32, u64);
impl_widen!(i32, i64);
