//! `cvt` between every pair of scalar types (PTX §6.5, §7.7.4 `cvt`).

use crate::program::{FMode, Rounding, Scalar};

/// IEEE binary16 bits → f32 (exact).
pub fn f16_to_f32(h: u16) -> f32 {
    let sign = ((h as u32) & 0x8000) << 16;
    let exp = ((h >> 10) & 0x1f) as u32;
    let man = (h & 0x3ff) as u32;
    match exp {
        0 => {
            let v = man as f32 * f32::from_bits(0x3380_0000); // 2^-24
            f32::from_bits(v.to_bits() | sign)
        }
        31 => f32::from_bits(sign | 0x7f80_0000 | man << 13),
        _ => f32::from_bits(sign | (exp + 112) << 23 | man << 13),
    }
}

/// f32 → IEEE binary16 bits, round to nearest even.
pub fn f32_to_f16(x: f32) -> u16 {
    let b = x.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let exp = ((b >> 23) & 0xff) as i32;
    let man = b & 0x7f_ffff;
    if exp == 0xff {
        return if man != 0 { 0x7fff } else { sign | 0x7c00 };
    }
    let e = exp - 127 + 15;
    if e >= 31 {
        return sign | 0x7c00;
    }
    if e <= 0 {
        if e < -10 {
            return sign;
        }
        let m = man | 0x80_0000;
        let shift = (14 - e) as u32;
        let half = 1u32 << (shift - 1);
        let rest = m & ((1u32 << shift) - 1);
        let mut r = m >> shift;
        if rest > half || (rest == half && r & 1 == 1) {
            r += 1;
        }
        return sign | r as u16;
    }
    let mut r = ((e as u32) << 10) | (man >> 13);
    let rest = man & 0x1fff;
    if rest > 0x1000 || (rest == 0x1000 && r & 1 == 1) {
        r += 1;
    }
    sign | r as u16
}

fn int_range(t: Scalar) -> (i128, i128) {
    let bits = t.bytes() * 8;
    if t.is_signed() {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    }
}

fn int_value(v: u64, t: Scalar) -> i128 {
    let bits = t.bytes() * 8;
    if t.is_signed() {
        let s = 64 - bits;
        (((v << s) as i64) >> s) as i128
    } else if bits == 64 {
        v as i128
    } else {
        (v & ((1u64 << bits) - 1)) as i128
    }
}

fn to_f64(v: u64, t: Scalar) -> f64 {
    match t {
        Scalar::F16 => f16_to_f32(v as u16) as f64,
        Scalar::F32 => f32::from_bits(v as u32) as f64,
        _ => f64::from_bits(v),
    }
}

fn round_int(x: f64, r: Rounding) -> f64 {
    match r {
        Rounding::Rn => x.round_ties_even(),
        Rounding::Rz => x.trunc(),
        Rounding::Rm => x.floor(),
        Rounding::Rp => x.ceil(),
    }
}

fn flush(x: f64, t: Scalar) -> f64 {
    let tiny = match t {
        Scalar::F32 => f32::MIN_POSITIVE as f64,
        _ => f64::MIN_POSITIVE,
    };
    if x != 0.0 && x.abs() < tiny {
        0.0f64.copysign(x)
    } else {
        x
    }
}

/// Convert the bits `v` of type `aty` to the bits of type `dty`.
pub fn cvt(v: u64, aty: Scalar, dty: Scalar, mode: FMode, irnd: Option<Rounding>) -> u64 {
    let mask = if dty.bytes() == 8 {
        u64::MAX
    } else {
        (1u64 << (dty.bytes() * 8)) - 1
    };
    match (aty.is_float(), dty.is_float()) {
        (false, false) => {
            let x = int_value(v, aty);
            let x = if mode.sat {
                let (lo, hi) = int_range(dty);
                x.clamp(lo, hi)
            } else {
                x
            };
            (x as u64) & mask
        }
        (false, true) => {
            let x = int_value(v, aty);
            from_int_rounded(dty, x, mode)
        }
        (true, false) => {
            let mut x = to_f64(v, aty);
            if mode.ftz && aty == Scalar::F32 {
                x = flush(x, Scalar::F32);
            }
            if x.is_nan() {
                return 0;
            }
            let r = round_int(x, irnd.unwrap_or(Rounding::Rz));
            let (lo, hi) = int_range(dty);
            let i = if r <= lo as f64 {
                lo
            } else if r >= hi as f64 {
                hi
            } else {
                r as i128
            };
            (i as u64) & mask
        }
        (true, true) => {
            let mut x = to_f64(v, aty);
            if mode.ftz {
                x = flush(x, aty);
            }
            if let Some(r) = irnd {
                x = round_int(x, r);
            }
            let out = match dty {
                Scalar::F16 => f32_to_f16(x as f32) as u64,
                Scalar::F32 => {
                    let mut y = x as f32;
                    if mode.ftz {
                        y = flush(y as f64, Scalar::F32) as f32;
                    }
                    if y.is_nan() {
                        0x7fff_ffff
                    } else {
                        y.to_bits() as u64
                    }
                }
                _ => x.to_bits(),
            };
            if mode.sat {
                sat_bits(out, dty)
            } else {
                out
            }
        }
    }
}

/// Integer → float with the instruction's rounding (exact integer `exact` for the check).
fn from_int_rounded(dty: Scalar, exact: i128, mode: FMode) -> u64 {
    match dty {
        Scalar::F16 => f32_to_f16(exact as f32) as u64,
        Scalar::F32 => {
            let y = exact as f32;
            let y = directed32(y, exact, mode.rnd);
            y.to_bits() as u64
        }
        _ => {
            let y = exact as f64;
            let y = directed64(y, exact, mode.rnd);
            y.to_bits()
        }
    }
}

/// Adjust a round-to-nearest result to a directed rounding of the exact integer (the
/// nearest float to an integer of at most 64 bits is itself an integer, so the comparison is
/// exact in i128).
fn directed32(y: f32, exact: i128, r: Rounding) -> f32 {
    let yi = y as i128;
    let over = yi > exact;
    let under = yi < exact;
    match r {
        Rounding::Rn => y,
        Rounding::Rz if exact >= 0 && over => y.next_down(),
        Rounding::Rz if exact < 0 && under => y.next_up(),
        Rounding::Rm if over => y.next_down(),
        Rounding::Rp if under => y.next_up(),
        _ => y,
    }
}

fn directed64(y: f64, exact: i128, r: Rounding) -> f64 {
    let yi = y as i128;
    let over = yi > exact;
    let under = yi < exact;
    match r {
        Rounding::Rn => y,
        Rounding::Rz if exact >= 0 && over => y.next_down(),
        Rounding::Rz if exact < 0 && under => y.next_up(),
        Rounding::Rm if over => y.next_down(),
        Rounding::Rp if under => y.next_up(),
        _ => y,
    }
}

/// `.sat` on a float result: clamp to [0, 1], NaN → +0.
pub fn sat_bits(v: u64, t: Scalar) -> u64 {
    match t {
        Scalar::F32 => {
            let x = f32::from_bits(v as u32);
            (if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) }).to_bits() as u64
        }
        Scalar::F16 => {
            let x = f16_to_f32(v as u16);
            f32_to_f16(if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) }) as u64
        }
        _ => {
            let x = f64::from_bits(v);
            (if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) }).to_bits()
        }
    }
}
