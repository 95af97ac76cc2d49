//! End-to-end: half-precision arithmetic (`.f16`, `.f16x2`, `.bf16x2`), `mad24.hi.sat.s32` and
//! `tanh.approx.f32` in one kernel, against values computed here. The f16 operands are
//! multiples of 1/2 of magnitude at most 16, so every f16 sum, product and `a*b+c` is exact in
//! f16 and in f64; the bf16 lanes are checked where f64 computes `a*b+c` exactly (TwoSum error
//! zero) and then rounded to nearest-even here.

mod endtoend_common;
use endtoend_common::*;

/// f16 bits of an exactly representable normal value or zero.
fn f16_bits(x: f64) -> u16 {
    let sign = if x.is_sign_negative() { 0x8000 } else { 0 };
    if x == 0.0 {
        return sign;
    }
    let a = x.abs();
    let e = a.log2().floor() as i32;
    let frac = (a / 2f64.powi(e) - 1.0) * 1024.0;
    assert_eq!(frac.fract(), 0.0, "{x} is not an f16");
    sign | ((e + 15) as u16) << 10 | frac as u16
}

fn f16_value(h: u16) -> f64 {
    let e = ((h >> 10) & 0x1f) as i32;
    let f = (h & 0x3ff) as f64;
    let v = if e == 0 {
        f * 2f64.powi(-24)
    } else {
        (1.0 + f / 1024.0) * 2f64.powi(e - 15)
    };
    if h & 0x8000 != 0 {
        -v
    } else {
        v
    }
}

fn bf16_value(h: u16) -> f64 {
    f64::from(f32::from_bits(u32::from(h) << 16))
}

/// Nearest-even bf16 of a value in the bf16 normal range (or zero).
fn bf16_rn(x: f64) -> u16 {
    let b = x.to_bits();
    let sign = ((b >> 63) as u16) << 15;
    if x == 0.0 {
        return sign;
    }
    let e = ((b >> 52) & 0x7ff) as i64 - 1023;
    assert!(
        (-126..=127).contains(&e),
        "{x} outside the bf16 normal range"
    );
    let m = b & ((1 << 52) - 1);
    let (kept, rem, half) = (m >> 45, m & ((1 << 45) - 1), 1u64 << 44);
    let mut r = ((e + 127) as u64) << 7 | kept;
    if rem > half || (rem == half && kept & 1 == 1) {
        r += 1;
    }
    sign | r as u16
}

fn halves(x: u32) -> [u16; 2] {
    [x as u16, (x >> 16) as u16]
}

fn pack(lo: u16, hi: u16) -> u32 {
    u32::from(lo) | u32::from(hi) << 16
}

fn mad24_hi_sat(a: u32, b: u32, c: u32) -> u32 {
    let s24 = |x: u32| i64::from(((x << 8) as i32) >> 8);
    let hi = (s24(a) * s24(b)) >> 16;
    let hi32 = hi as i32 as i64; // bits 47..16
    (hi32 + i64::from(c as i32)).clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32 as u32
}

#[test]
fn half_precision_kernel() {
    let n = 256usize;
    let mut rng = Rng(0x5eed_0f16);
    let mut nice = || f16_bits(((rng.next_u32() % 65) as i32 - 32) as f64 / 2.0);
    let mut a: Vec<u32> = (0..n).map(|_| pack(nice(), nice())).collect();
    let b: Vec<u32> = (0..n).map(|_| pack(nice(), nice())).collect();
    let c: Vec<u32> = (0..n).map(|_| pack(nice(), nice())).collect();
    // Row 0: a NaN in the high half; row 1: 0.5f32 (f16 halves 0.0 and 1.75) for tanh.
    a[0] = pack(0x3c00, 0x7e00);
    a[1] = 0x3f00_0000;
    let out = run_all_threads(
        "half_arith.ptx",
        "half_arith",
        &cfg([2, 1, 1], [128, 1, 1]),
        &[buf(&a), buf(&b), buf(&c), zbuf::<u32>(10 * n)],
    );
    let got: Vec<u32> = decode(&out[3]);
    let mut bf16_checked = 0;
    for i in 0..n {
        let row = &got[10 * i..10 * i + 10];
        let (ha, hb, hc) = (halves(a[i]), halves(b[i]), halves(c[i]));
        let f16_lanes = |op: &dyn Fn(f64, f64, f64) -> f64| {
            let lane = |k: usize| {
                let (x, y, z) = (f16_value(ha[k]), f16_value(hb[k]), f16_value(hc[k]));
                if (ha[k] & 0x7c00) == 0x7c00 {
                    0x7fff // canonical NaN for a NaN operand
                } else {
                    f16_bits(op(x, y, z))
                }
            };
            pack(lane(0), lane(1))
        };
        assert_eq!(row[0], f16_lanes(&|x, y, _| x + y), "add row {i}");
        assert_eq!(row[1], f16_lanes(&|x, y, _| x * y), "mul row {i}");
        assert_eq!(row[2], f16_lanes(&|x, y, z| x * y + z), "fma row {i}");
        // min ignores the NaN operand; max.NaN returns the canonical NaN for it.
        let minmax = |max: bool| {
            let lane = |k: usize| {
                if (ha[k] & 0x7c00) == 0x7c00 {
                    return if max { 0x7fff } else { hb[k] };
                }
                let (x, y) = (f16_value(ha[k]), f16_value(hb[k]));
                f16_bits(if max { x.max(y) } else { x.min(y) })
            };
            pack(lane(0), lane(1))
        };
        assert_eq!(row[4], minmax(false), "min row {i}");
        assert_eq!(row[5], minmax(true), "max.NaN row {i}");
        assert_eq!(row[6], a[i] ^ 0x8000_8000, "neg.bf16x2 row {i}");
        if i != 0 {
            let d = f16_value(ha[0]) - f16_value(hb[0]);
            assert_eq!(row[7], u32::from(f16_bits(d)), "sub.f16 row {i}");
        }
        assert_eq!(
            row[8],
            mad24_hi_sat(a[i], b[i], c[i]),
            "mad24.hi.sat row {i}"
        );
        // fma.rn.relu.bf16x2: the same bits read as bf16.
        for k in 0..2 {
            let (x, y, z) = (bf16_value(ha[k]), bf16_value(hb[k]), bf16_value(hc[k]));
            let p = x * y; // 16 significant bits: exact
            let s = p + z;
            let bb = s - p;
            let err = (p - (s - bb)) + (z - bb);
            if err != 0.0 || s == 0.0 || s.abs() < 2f64.powi(-126) {
                continue;
            }
            let want = if s < 0.0 { 0 } else { bf16_rn(s) };
            assert_eq!(halves(row[3])[k], want, "fma.relu.bf16 row {i} lane {k}");
            bf16_checked += 1;
        }
    }
    assert!(
        bf16_checked > n / 2,
        "only {bf16_checked} bf16 lanes checked"
    );
    // tanh(0.5) within the spec's relative error 2^-10.987.
    let t = f64::from(f32::from_bits(got[10 + 9]));
    let e = 1f64.exp();
    let want = (e - 1.0) / (e + 1.0);
    assert!(
        ((t - want) / want).abs() <= 2f64.powf(-10.987),
        "tanh(0.5) = {t}"
    );
}

#[test]
fn cvt_to_and_from_bf16_and_tf32() {
    let mut rng = Rng(0xbf16);
    let mut input: Vec<u32> = (0..96).map(|_| rng.next_u32() & 0xbfff_ffff).collect();
    // Ties: bf16 round half to even (down, then up), tf32 half away from zero.
    input[0] = 0x3f80_8000;
    input[1] = 0x3f81_8000;
    input[2] = 0x3f80_1000;
    let out = run_all_threads(
        "cvt_bf16_tf32.ptx",
        "cvt_bf16_tf32",
        &cfg([1, 1, 1], [96, 1, 1]),
        &[buf(&input), zbuf::<u32>(3 * 96)],
    );
    let got: Vec<u32> = decode(&out[1]);
    for (t, &a) in input.iter().enumerate() {
        // Finite inputs only (bit 30 cleared): nearest-even on the 16 dropped bits.
        let (kept, rem) = (a >> 16, a & 0xffff);
        let bf = kept + u32::from(rem > 0x8000 || (rem == 0x8000 && kept & 1 == 1));
        let tf = ((a & 0x7fff_ffff) + 0x1000) & !0x1fff | (a & 0x8000_0000);
        assert_eq!(
            &got[3 * t..3 * t + 3],
            &[bf, bf << 16, tf],
            "input {a:#010x}"
        );
    }
    assert_eq!(got[0], 0x3f80);
    assert_eq!(got[3], 0x3f82);
    assert_eq!(got[8], 0x3f80_2000);
}
