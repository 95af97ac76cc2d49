//! Exact binary arithmetic with a single final rounding: the reference path for every directed
//! rounding mode (`.rz .rm .rp`) and for conversions between formats.
//!
//! A finite value is held as `sig × 2^exp` with `sig: u128`. When bits must be dropped while
//! aligning, they are OR-ed into bit 0 ("jamming"); every producer keeps at least 60 bits above
//! the jam, far more than the two guard bits a correct rounding needs, so the jammed value rounds
//! exactly like the true one.

use super::Rounding;

/// Layout of a binary interchange format (or the PTX 1.1 `.f16` variant without Inf/NaN).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Format {
    /// Explicit fraction bits (10, 23 or 52).
    pub frac_bits: u32,
    /// Exponent field bits.
    pub exp_bits: u32,
    /// False for the PTX 1.1 `.f16`: the all-ones exponent holds ordinary numbers and values
    /// beyond the largest finite one saturate to it.
    pub has_inf_nan: bool,
}

pub const F16: Format = Format {
    frac_bits: 10,
    exp_bits: 5,
    has_inf_nan: true,
};
pub const F16_PTX11: Format = Format {
    frac_bits: 10,
    exp_bits: 5,
    has_inf_nan: false,
};
pub const F32: Format = Format {
    frac_bits: 23,
    exp_bits: 8,
    has_inf_nan: true,
};
pub const F64: Format = Format {
    frac_bits: 52,
    exp_bits: 11,
    has_inf_nan: true,
};

impl Format {
    #[inline]
    const fn bias(self) -> i32 {
        (1 << (self.exp_bits - 1)) - 1
    }
    #[inline]
    const fn exp_field_max(self) -> u64 {
        (1 << self.exp_bits) - 1
    }
    #[inline]
    const fn sign_bit(self) -> u64 {
        1 << (self.frac_bits + self.exp_bits)
    }
    #[inline]
    const fn frac_mask(self) -> u64 {
        (1 << self.frac_bits) - 1
    }
    /// Bits of +Inf (IEEE formats) or of the largest finite value (PTX 1.1 `.f16`).
    #[inline]
    pub const fn inf_bits(self) -> u64 {
        self.exp_field_max() << self.frac_bits
    }
    /// Bits of the largest finite magnitude.
    #[inline]
    pub const fn max_bits(self) -> u64 {
        if self.has_inf_nan {
            self.inf_bits() - 1
        } else {
            self.inf_bits() | self.frac_mask()
        }
    }
}

/// A decoded operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    Nan,
    Inf {
        neg: bool,
    },
    Zero {
        neg: bool,
    },
    /// `sig × 2^exp`, `sig != 0`.
    Finite {
        neg: bool,
        sig: u128,
        exp: i32,
    },
}

/// The value of `bits` in a format of at most 53 significant bits, as f64: exact (NaN for
/// NaNs). The narrow formats (f16, bf16, fp8) convert through this.
pub fn narrow_to_f64(bits: u64, f: Format) -> f64 {
    let v = match classify(bits, f) {
        Class::Nan => return f64::NAN,
        Class::Inf { .. } => f64::INFINITY,
        Class::Zero { .. } => 0.0,
        // `sig` has at most `f.frac_bits + 1` ≤ 53 bits and `exp` is small: exact.
        Class::Finite { sig, exp, .. } => sig as f64 * f64::from(exp).exp2(),
    };
    if bits & f.sign_bit() != 0 {
        -v
    } else {
        v
    }
}

#[inline]
pub fn classify(bits: u64, f: Format) -> Class {
    let neg = bits & f.sign_bit() != 0;
    let field = (bits >> f.frac_bits) & f.exp_field_max();
    let frac = bits & f.frac_mask();
    let emin = 1 - f.bias() - f.frac_bits as i32;
    if field == f.exp_field_max() && f.has_inf_nan {
        return if frac == 0 {
            Class::Inf { neg }
        } else {
            Class::Nan
        };
    }
    if field == 0 {
        if frac == 0 {
            return Class::Zero { neg };
        }
        return Class::Finite {
            neg,
            sig: u128::from(frac),
            exp: emin,
        };
    }
    Class::Finite {
        neg,
        sig: u128::from(frac | (1 << f.frac_bits)),
        exp: emin + field as i32 - 1,
    }
}

#[inline]
fn bit_len(x: u128) -> i32 {
    128 - x.leading_zeros() as i32
}

#[inline]
pub fn zero_bits(neg: bool, f: Format) -> u64 {
    if neg {
        f.sign_bit()
    } else {
        0
    }
}

/// Result of an overflow under `rnd`: Inf or the largest finite value, per IEEE 754 §4.3.
#[inline]
fn overflow_bits(neg: bool, rnd: Rounding, f: Format) -> u64 {
    let to_inf = f.has_inf_nan
        && match rnd {
            Rounding::Rn => true,
            Rounding::Rz => false,
            Rounding::Rm => neg,
            Rounding::Rp => !neg,
        };
    let mag = if to_inf { f.inf_bits() } else { f.max_bits() };
    mag | zero_bits(neg, f)
}

/// Rounds `(-1)^neg × sig × 2^exp` (bit 0 of `sig` possibly a jam bit) to `f` under `rnd`.
#[inline]
pub fn round_pack(neg: bool, sig: u128, exp: i32, rnd: Rounding, f: Format) -> u64 {
    if sig == 0 {
        return zero_bits(neg, f);
    }
    let frac = f.frac_bits as i32;
    let emin = 1 - f.bias();
    // The value lies in [2^e, 2^(e+1)).
    let e = exp.saturating_add(bit_len(sig) - 1);
    let emax = if f.has_inf_nan {
        f.bias()
    } else {
        f.bias() + 1
    };
    if e > emax {
        return overflow_bits(neg, rnd, f);
    }
    let quantum = e.max(emin) - frac;
    let shift = i64::from(quantum) - i64::from(exp);
    let m: u128 = if shift <= 0 {
        // Exact: at most `frac + 1` significant bits remain.
        sig << (-shift) as u32
    } else {
        let (kept, rem, half) = if shift >= 128 {
            (0, sig, if shift == 128 { 1u128 << 127 } else { 0 })
        } else {
            let s = shift as u32;
            (sig >> s, sig & ((1u128 << s) - 1), 1u128 << (s - 1))
        };
        // `half == 0` means the value is below a quarter quantum: never rounds up under RN.
        let round_up = match rnd {
            Rounding::Rn => half != 0 && (rem > half || (rem == half && kept & 1 == 1)),
            Rounding::Rz => false,
            Rounding::Rm => neg && rem != 0,
            Rounding::Rp => !neg && rem != 0,
        };
        kept + u128::from(round_up)
    };
    let m = m as u64;
    let bits = if e < emin {
        // Subnormal; a carry into bit `frac` produces the smallest normal by itself.
        m
    } else {
        ((e + f.bias() - 1) as u64 * (1u64 << f.frac_bits)) + m
    };
    if bits > f.max_bits() {
        return overflow_bits(neg, rnd, f);
    }
    bits | zero_bits(neg, f)
}

/// Exact operands normalised so bit 125 is the leading one (`sig` must be `< 2^126`).
#[inline]
fn normalise(sig: u128, exp: i32) -> (u128, i32) {
    let s = 125 - (bit_len(sig) - 1);
    (sig << s as u32, exp - s)
}

#[inline]
fn shift_right_jam(sig: u128, by: i32) -> u128 {
    if by <= 0 {
        sig
    } else if by >= 127 {
        u128::from(sig != 0)
    } else {
        let lost = sig & ((1u128 << by as u32) - 1);
        (sig >> by as u32) | u128::from(lost != 0)
    }
}

/// Sum of two exact nonzero values (`sig < 2^126` each); `None` when it is exactly zero.
#[inline]
pub fn add_exact(
    (na, sa, ea): (bool, u128, i32),
    (nb, sb, eb): (bool, u128, i32),
) -> Option<(bool, u128, i32)> {
    let (sa, ea) = normalise(sa, ea);
    let (sb, eb) = normalise(sb, eb);
    let (big, small) = if (ea, sa) >= (eb, sb) {
        ((na, sa, ea), (nb, sb, eb))
    } else {
        ((nb, sb, eb), (na, sa, ea))
    };
    let aligned = shift_right_jam(small.1, big.2 - small.2);
    if big.0 == small.0 {
        return Some((big.0, big.1 + aligned, big.2));
    }
    let diff = big.1 - aligned;
    if diff == 0 {
        None
    } else {
        Some((big.0, diff, big.2))
    }
}

/// Sign of an exact zero sum of operands with signs `na` and `nb` (IEEE 754 §6.3).
#[inline]
pub fn zero_sum_sign(na: bool, nb: bool, rnd: Rounding) -> bool {
    if na == nb {
        na
    } else {
        rnd == Rounding::Rm
    }
}

/// `a × b + c` with one rounding; `c = None` gives a plain product. Operands are bit patterns
/// of `f`. NaN results are `nan` (the caller's canonical NaN).
#[inline]
pub fn fma_bits(a: u64, b: u64, c: Option<u64>, rnd: Rounding, f: Format, nan: u64) -> u64 {
    let (ca, cb) = (classify(a, f), classify(b, f));
    let cc = c.map(|c| classify(c, f));
    if ca == Class::Nan || cb == Class::Nan || cc == Some(Class::Nan) {
        return nan;
    }
    let pneg = sign_of(ca) != sign_of(cb);
    let p_inf = matches!(ca, Class::Inf { .. }) || matches!(cb, Class::Inf { .. });
    let p_zero = matches!(ca, Class::Zero { .. }) || matches!(cb, Class::Zero { .. });
    if p_inf && p_zero {
        return nan;
    }
    if p_inf {
        if let Some(Class::Inf { neg }) = cc {
            if neg != pneg {
                return nan;
            }
        }
        return f.inf_bits() | zero_bits(pneg, f);
    }
    match cc {
        Some(Class::Inf { neg }) => return f.inf_bits() | zero_bits(neg, f),
        Some(Class::Nan) => return nan,
        _ => {}
    }
    let product = match (ca, cb) {
        (
            Class::Finite {
                sig: x, exp: ex, ..
            },
            Class::Finite {
                sig: y, exp: ey, ..
            },
        ) => Some((pneg, x * y, ex + ey)),
        _ => None,
    };
    let addend = match cc {
        Some(Class::Finite { neg, sig, exp }) => Some((neg, sig, exp)),
        _ => None,
    };
    match (product, addend) {
        (Some(p), Some(q)) => match add_exact(p, q) {
            Some((n, s, e)) => round_pack(n, s, e, rnd, f),
            None => zero_bits(zero_sum_sign(p.0, q.0, rnd), f),
        },
        // x × y + 0 equals x × y exactly, whatever the zero's sign.
        (Some((n, s, e)), None) => round_pack(n, s, e, rnd, f),
        (None, Some((n, s, e))) => round_pack(n, s, e, rnd, f),
        (None, None) => match cc {
            Some(Class::Zero { neg }) => zero_bits(zero_sum_sign(pneg, neg, rnd), f),
            _ => zero_bits(pneg, f),
        },
    }
}

#[inline]
fn sign_of(c: Class) -> bool {
    match c {
        Class::Nan => false,
        Class::Inf { neg } | Class::Zero { neg } | Class::Finite { neg, .. } => neg,
    }
}

/// `a + b` with one rounding.
#[inline]
pub fn add_bits(a: u64, b: u64, rnd: Rounding, f: Format, nan: u64) -> u64 {
    let one = one_bits(f);
    fma_bits(a, one, Some(b), rnd, f, nan)
}

#[inline]
fn one_bits(f: Format) -> u64 {
    (f.bias() as u64) << f.frac_bits
}

/// `a / b` with one rounding (IEEE 754: the sign is the XOR of the operand signs).
#[inline]
pub fn div_bits(a: u64, b: u64, rnd: Rounding, f: Format, nan: u64) -> u64 {
    let (ca, cb) = (classify(a, f), classify(b, f));
    let neg = sign_of(ca) != sign_of(cb);
    match (ca, cb) {
        (Class::Nan, _) | (_, Class::Nan) => nan,
        (Class::Inf { .. }, Class::Inf { .. }) | (Class::Zero { .. }, Class::Zero { .. }) => nan,
        (Class::Inf { .. }, _) | (_, Class::Zero { .. }) => f.inf_bits() | zero_bits(neg, f),
        (_, Class::Inf { .. }) | (Class::Zero { .. }, _) => zero_bits(neg, f),
        (
            Class::Finite {
                sig: x, exp: ex, ..
            },
            Class::Finite {
                sig: y, exp: ey, ..
            },
        ) => {
            // Dividend at bit 126, divisor at most 53 bits: at least 73 quotient bits.
            let s = 126 - (bit_len(x) - 1);
            let num = x << s as u32;
            let q = num / y;
            let jam = u128::from(num - q * y != 0);
            round_pack(neg, q | jam, ex - s - ey, rnd, f)
        }
    }
}

/// Square root with one rounding; `sqrt(-0) = -0`, negative operands give NaN.
#[inline]
pub fn sqrt_bits(a: u64, rnd: Rounding, f: Format, nan: u64) -> u64 {
    match classify(a, f) {
        Class::Nan => nan,
        Class::Zero { neg } => zero_bits(neg, f),
        Class::Inf { neg: false } => f.inf_bits(),
        Class::Inf { neg: true } | Class::Finite { neg: true, .. } => nan,
        Class::Finite { sig, exp, .. } => {
            // Leading one at bit 124 or 125 so that the exponent is even: a 63-bit root.
            let mut s = 125 - (bit_len(sig) - 1);
            if (exp - s) % 2 != 0 {
                s -= 1;
            }
            let n = sig << s as u32;
            let r = isqrt_u128(n);
            let jam = u128::from(r * r != n);
            round_pack(false, r | jam, (exp - s) / 2, rnd, f)
        }
    }
}

/// Floor of the square root of `n < 2^126`.
#[inline]
pub fn isqrt_u128(n: u128) -> u128 {
    if n == 0 {
        return 0;
    }
    // A float estimate, then integer Newton steps: after the first step the iterate is at least
    // floor(sqrt(n)) and decreases to it.
    let x0 = ((n as f64).sqrt() as u128).max(1);
    let mut x = (x0 + n / x0) / 2;
    loop {
        let y = (x + n / x) / 2;
        if y >= x {
            break;
        }
        x = y;
    }
    while x * x > n {
        x -= 1;
    }
    while (x + 1) * (x + 1) <= n {
        x += 1;
    }
    x
}
