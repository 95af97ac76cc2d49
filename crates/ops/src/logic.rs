//! Logic and shift: `and or xor not cnot shl shr` (`ptx-isa-1.1.txt` §7.7.3, Tables 33–39) and
//! the modern `shf` and `lop3`.
//!
//! Bit operations work on the register bits (`u16`/`u32`/`u64`, `bool` for `.pred`). Shift
//! amounts are unsigned and "greater than the register width N are clamped to N" (Tables 38–39):
//! a shift by N or more yields 0, or all sign bits for a signed `shr`.

/// `and.type` (Table 33), any width, also `.pred` with `bool`.
#[inline]
pub fn and<T: core::ops::BitAnd<Output = T>>(a: T, b: T) -> T {
    a & b
}

/// `or.type` (Table 34).
#[inline]
pub fn or<T: core::ops::BitOr<Output = T>>(a: T, b: T) -> T {
    a | b
}

/// `xor.type` (Table 35).
#[inline]
pub fn xor<T: core::ops::BitXor<Output = T>>(a: T, b: T) -> T {
    a ^ b
}

/// `not.type` (Table 36): one's complement (`!p` for `.pred`).
#[inline]
pub fn not<T: core::ops::Not<Output = T>>(a: T) -> T {
    !a
}

/// `cnot.b16/.b32/.b64` (Table 37): `(a == 0) ? 1 : 0`, operand zero-extended to 64 bits.
#[inline]
pub fn cnot(a: u64) -> u64 {
    u64::from(a == 0)
}

macro_rules! shifts {
    ($shl:ident, $shr_u:ident, $shr_s:ident, $u:ty, $s:ty, $bits:expr) => {
        #[doc = concat!("`shl.b", stringify!($bits), "` (Table 38): zero fill; amounts ≥ ", stringify!($bits), " give 0.")]
        #[inline]
        pub fn $shl(a: $u, b: u32) -> $u {
            if b >= $bits {
                0
            } else {
                a << b
            }
        }

        #[doc = concat!("`shr.u", stringify!($bits), "`/`shr.b", stringify!($bits), "` (Table 39): zero fill.")]
        #[inline]
        pub fn $shr_u(a: $u, b: u32) -> $u {
            if b >= $bits {
                0
            } else {
                a >> b
            }
        }

        #[doc = concat!("`shr.s", stringify!($bits), "` (Table 39): sign fill; amounts are clamped to ", stringify!($bits), ".")]
        #[inline]
        pub fn $shr_s(a: $s, b: u32) -> $s {
            a >> b.min($bits - 1)
        }
    };
}

shifts!(shl_b16, shr_u16, shr_s16, u16, i16, 16);
shifts!(shl_b32, shr_u32, shr_s32, u32, i32, 32);
shifts!(shl_b64, shr_u64, shr_s64, u64, i64, 64);

/// Shift-amount handling of `shf`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShfMode {
    /// `.clamp`: amounts above 32 act as 32.
    Clamp,
    /// `.wrap`: the amount is taken modulo 32.
    Wrap,
}

#[inline]
fn shf_amount(c: u32, mode: ShfMode) -> u32 {
    match mode {
        ShfMode::Clamp => c.min(32),
        ShfMode::Wrap => c & 31,
    }
}

/// `shf.l.mode.b32 d, a, b, c`: shift the 64-bit `{b, a}` (`b` high) left, keep the high word.
#[inline]
pub fn shf_l(a: u32, b: u32, c: u32, mode: ShfMode) -> u32 {
    let wide = (u64::from(b) << 32) | u64::from(a);
    ((wide << shf_amount(c, mode)) >> 32) as u32
}

/// `shf.r.mode.b32 d, a, b, c`: shift the 64-bit `{b, a}` right, keep the low word.
#[inline]
pub fn shf_r(a: u32, b: u32, c: u32, mode: ShfMode) -> u32 {
    let wide = (u64::from(b) << 32) | u64::from(a);
    (wide >> shf_amount(c, mode)) as u32
}

/// `lop3.b32 d, a, b, c, immLut`: each result bit is bit `(a << 2) | (b << 1) | c` of `lut`
/// (so `lut` is `F(0xF0, 0xCC, 0xAA)`).
#[inline]
pub fn lop3(a: u32, b: u32, c: u32, lut: u8) -> u32 {
    let mut d = 0;
    for minterm in 0..8u32 {
        if lut >> minterm & 1 == 1 {
            let pick = |x: u32, bit: u32| if minterm >> bit & 1 == 1 { x } else { !x };
            d |= pick(a, 2) & pick(b, 1) & pick(c, 0);
        }
    }
    d
}
