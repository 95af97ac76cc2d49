//! Extended-precision integer arithmetic (`ptx-extended-precision.md` §9.7.2): `add.cc addc
//! sub.cc subc mad.cc madc`.
//!
//! | PTX instruction | functions | spec section |
//! |---|---|---|
//! | `add.cc.{u32,s32,u64,s64}` | [`add_cc_u32`], [`add_cc_u64`] | 9.7.2.1 |
//! | `addc{.cc}.type` | [`addc_u32`], [`addc_u64`] | 9.7.2.2 |
//! | `sub.cc.type` | [`sub_cc_u32`], [`sub_cc_u64`] | 9.7.2.3 |
//! | `subc{.cc}.type` | [`subc_u32`], [`subc_u64`] | 9.7.2.4 |
//! | `mad{.lo,.hi}.cc.type` | [`mad_lo_cc`], [`mad_hi_cc`] | 9.7.2.5 |
//! | `madc{.lo,.hi}{.cc}.type` | [`madc_lo`], [`madc_hi`] | 9.7.2.6 |
//!
//! The condition code `CC.CF` is a single bit the caller keeps per thread: each function takes
//! the carry-in (where the instruction reads it) as a `bool` and returns `(d, carry_out)`. For
//! forms without `.cc` the caller discards `carry_out`. After `sub.cc`/`subc.cc` the flag holds
//! the *borrow*, as the spec states (`d = a - (b + CC.CF)`, "borrow-out written to CC.CF").
//!
//! "Behavior is the same for unsigned and signed integers" for add and sub, so one function per
//! width serves `.uN` and `.sN` (pass the register bits). `mad.cc`/`madc` multiply with the
//! type's signedness (it matters for `.hi`), so they are generic over [`Int`] restricted to
//! the 32- and 64-bit types by [`CarryInt`]; the carry is the unsigned carry out of the n-bit
//! addition in every case.

use crate::int::{mul_hi, mul_lo, Int};

/// `add.cc.{u32,s32}` (§9.7.2.1): `d = a + b`, carry-out.
#[inline]
pub fn add_cc_u32(a: u32, b: u32) -> (u32, bool) {
    a.overflowing_add(b)
}

/// `add.cc.{u64,s64}` (§9.7.2.1): `d = a + b`, carry-out.
#[inline]
pub fn add_cc_u64(a: u64, b: u64) -> (u64, bool) {
    a.overflowing_add(b)
}

/// `addc{.cc}.{u32,s32}` (§9.7.2.2): `d = a + b + CC.CF`, carry-out.
#[inline]
pub fn addc_u32(a: u32, b: u32, cf: bool) -> (u32, bool) {
    a.carrying_add_ptx(b, cf)
}

/// `addc{.cc}.{u64,s64}` (§9.7.2.2): `d = a + b + CC.CF`, carry-out.
#[inline]
pub fn addc_u64(a: u64, b: u64, cf: bool) -> (u64, bool) {
    a.carrying_add_ptx(b, cf)
}

/// `sub.cc.{u32,s32}` (§9.7.2.3): `d = a - b`, borrow-out (`a < b` unsigned).
#[inline]
pub fn sub_cc_u32(a: u32, b: u32) -> (u32, bool) {
    a.overflowing_sub(b)
}

/// `sub.cc.{u64,s64}` (§9.7.2.3): `d = a - b`, borrow-out.
#[inline]
pub fn sub_cc_u64(a: u64, b: u64) -> (u64, bool) {
    a.overflowing_sub(b)
}

/// `subc{.cc}.{u32,s32}` (§9.7.2.4): `d = a - (b + CC.CF)`, borrow-out (`a < b + CF` in exact
/// arithmetic).
#[inline]
pub fn subc_u32(a: u32, b: u32, cf: bool) -> (u32, bool) {
    a.borrowing_sub_ptx(b, cf)
}

/// `subc{.cc}.{u64,s64}` (§9.7.2.4): `d = a - (b + CC.CF)`, borrow-out.
#[inline]
pub fn subc_u64(a: u64, b: u64, cf: bool) -> (u64, bool) {
    a.borrowing_sub_ptx(b, cf)
}

/// Add/subtract with carry on the unsigned register bits (the std `carrying_add` is unstable).
trait Carrying: Sized {
    fn carrying_add_ptx(self, b: Self, cf: bool) -> (Self, bool);
    fn borrowing_sub_ptx(self, b: Self, cf: bool) -> (Self, bool);
}

macro_rules! impl_carrying {
    ($t:ty) => {
        impl Carrying for $t {
            #[inline]
            fn carrying_add_ptx(self, b: Self, cf: bool) -> (Self, bool) {
                let (s, c1) = self.overflowing_add(b);
                let (s, c2) = s.overflowing_add(<$t>::from(cf));
                (s, c1 | c2)
            }
            #[inline]
            fn borrowing_sub_ptx(self, b: Self, cf: bool) -> (Self, bool) {
                let (s, b1) = self.overflowing_sub(b);
                let (s, b2) = s.overflowing_sub(<$t>::from(cf));
                (s, b1 | b2)
            }
        }
    };
}

impl_carrying!(u32);
impl_carrying!(u64);

mod sealed {
    pub trait Sealed {}
    impl Sealed for u32 {}
    impl Sealed for i32 {}
    impl Sealed for u64 {}
    impl Sealed for i64 {}
}

/// The types of `mad.cc`/`madc`: `.u32 .s32 .u64 .s64`.
pub trait CarryInt: Int + sealed::Sealed {}
impl CarryInt for u32 {}
impl CarryInt for i32 {}
impl CarryInt for u64 {}
impl CarryInt for i64 {}

/// `part + c + cf` on the n-bit register bits, with the unsigned carry out.
#[inline]
fn add3<T: Int>(part: T, c: T, cf: bool) -> (T, bool) {
    let (s, c1) = add_bits(part.to_bits(), c.to_bits(), T::BITS);
    let (s, c2) = add_bits(s, u64::from(cf), T::BITS);
    (T::from_bits(s), c1 | c2)
}

/// Unsigned n-bit addition of zero-extended operands (`n` is 32 or 64) with carry-out.
#[inline]
fn add_bits(x: u64, y: u64, n: u32) -> (u64, bool) {
    if n >= 64 {
        x.overflowing_add(y)
    } else {
        let s = x + y; // both < 2^32, no overflow
        (s & ((1u64 << n) - 1), (s >> n) != 0)
    }
}

/// `mad.lo.cc.type` (§9.7.2.5): `d = t<n-1..0> + c`, carry-out of the addition.
#[inline]
pub fn mad_lo_cc<T: CarryInt>(a: T, b: T, c: T) -> (T, bool) {
    add3(mul_lo(a, b), c, false)
}

/// `mad.hi.cc.type` (§9.7.2.5): `d = t<2n-1..n> + c` (signed product for `.sN`), carry-out.
#[inline]
pub fn mad_hi_cc<T: CarryInt>(a: T, b: T, c: T) -> (T, bool) {
    add3(mul_hi(a, b), c, false)
}

/// `madc.lo{.cc}.type` (§9.7.2.6): `d = t<n-1..0> + c + CC.CF`, carry-out.
#[inline]
pub fn madc_lo<T: CarryInt>(a: T, b: T, c: T, cf: bool) -> (T, bool) {
    add3(mul_lo(a, b), c, cf)
}

/// `madc.hi{.cc}.type` (§9.7.2.6): `d = t<2n-1..n> + c + CC.CF`, carry-out.
#[inline]
pub fn madc_hi<T: CarryInt>(a: T, b: T, c: T, cf: bool) -> (T, bool) {
    add3(mul_hi(a, b), c, cf)
}
