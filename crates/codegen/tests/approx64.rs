//! `rcp.approx.ftz.f64`, `rsqrt.approx.f64` and `rsqrt.approx.ftz.f64` on both executors, bit
//! for bit, over f64 edge classes and pseudo-random values (subnormal, huge, negative, NaN),
//! against the definitions written here: PTX ISA §9.7.3.14/17's high-word approximations
//! (`tmp = a[63:32]`, flushed; `d[63:32] = f(tmp)` rounded to nearest even at 20 fraction
//! bits, the rounding being ptxvm's choice for the manual's "gross approximation"; `d[31:0] =
//! 0`; subnormal results flushed; NaN → `0x7fffffff00000000`), and `rsqrt.approx.f64` as
//! `1/sqrt(a)` with two f64 roundings, a NaN being the canonical `0x7fffffffffffffff`
//! (docs/spec-notes.md, ptxvm's definitions of the f64 approximations).

mod common;
use common::*;

const ROWS: &[&str] = &[
    "rcp.approx.ftz.f64 %fd2, %fd1;",
    "rsqrt.approx.f64 %fd2, %fd1;",
    "rsqrt.approx.ftz.f64 %fd2, %fd1;",
    // Guarded: lanes whose bits are not a positive integer (sign set, or zero) keep 2.0.
    "mov.f64 %fd2, 0d4000000000000000;\n\tmov.b64 %rd5, %fd1;\n\tsetp.gt.s64 %p1, %rd5, 0;\n\t@%p1 rcp.approx.ftz.f64 %fd2, %fd1;",
];

const LOW: u64 = 0xffff_ffff;

fn flush(x: u64) -> u64 {
    if x & 0x7ff0_0000_0000_0000 == 0 {
        x & 0x8000_0000_0000_0000
    } else {
        x
    }
}

fn high_word(a: u64, f: impl Fn(f64) -> f64) -> u64 {
    let r = f(f64::from_bits(flush(a & !LOW)));
    if r.is_nan() {
        return 0x7fff_ffff_0000_0000;
    }
    let (hi, lo) = (r.to_bits() >> 32, r.to_bits() & LOW);
    let up = lo > 1 << 31 || (lo == 1 << 31 && hi & 1 == 1);
    flush((hi + u64::from(up)) << 32)
}

fn expect(row: usize, a: u64) -> u64 {
    match row {
        0 => high_word(a, |t| 1.0 / t),
        1 => {
            let r = 1.0 / f64::from_bits(a).sqrt();
            if r.is_nan() {
                0x7fff_ffff_ffff_ffff
            } else {
                r.to_bits()
            }
        }
        2 => high_word(a, |t| 1.0 / t.sqrt()),
        _ if (a as i64) > 0 => expect(0, a),
        _ => 2f64.to_bits(),
    }
}

fn inputs() -> Vec<u64> {
    let mut v: Vec<u64> = vec![
        0,
        0x8000_0000_0000_0000,
        1,
        0x8000_0000_0000_0001,
        0x000f_ffff_ffff_ffff,
        0x0010_0000_0000_0000,
        0x0010_0000_ffff_ffff,
        0x3ff0_0000_0000_0000,
        0xbff0_0000_0000_0000,
        0x3ff0_0000_8000_0000,
        0x3ff0_0001_8000_0000,
        0x4000_0000_0000_0000,
        0x4010_0000_0000_0000,
        0x3fe0_0000_0000_0000,
        0x7fef_ffff_ffff_ffff,
        0x7fd0_0000_0000_0000,
        0x7fe0_0000_0000_0000,
        0xffef_ffff_ffff_ffff,
        0x7ff0_0000_0000_0000,
        0xfff0_0000_0000_0000,
        0x7ff8_0000_0000_0000,
        0xfff8_0000_0000_0001,
        0x7ff0_0000_0000_0001,
        0x3fb9_9999_9999_999a,
        0x4024_0000_0000_0000,
        0x3ff5_5555_5555_5555,
        0x0000_0001_0000_0000,
        0x0008_0000_0000_0000,
    ];
    let mut s = 0x9e37_79b9_7f4a_7c15u64;
    while v.len() < 512 {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        // Every eighth value near the extremes of the exponent range, the rest anywhere.
        let x = match v.len() % 8 {
            0 => s & 0x801f_ffff_ffff_ffff,
            1 => s | 0x7fc0_0000_0000_0000,
            _ => s,
        };
        v.push(x);
    }
    v
}

#[test]
fn f64_approximations_agree_with_their_definitions() {
    let mut body = String::new();
    for (i, row) in ROWS.iter().enumerate() {
        body += &format!("\t{row}\n\tst.global.f64 [%rd7+{}], %fd2;\n", 8 * i);
    }
    let text = row_kernel(
        "a64",
        "\t.reg .pred %p<2>;\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<8>;\n\t.reg .f64 %fd<4>;\n",
        &[("f64", "%fd1", 8)],
        8 * ROWS.len(),
        &body,
    );
    let a = inputs();
    let n = a.len();
    let launch = spec(
        "a64",
        (n / 64) as u32,
        64,
        vec![u64s(&a), u64s(&vec![0; ROWS.len() * n])],
    );
    let out = run_both("a64.ptx", &text, &launch);
    let got: Vec<u64> = words64(&out[1]);
    for (i, &x) in a.iter().enumerate() {
        for (r, row) in ROWS.iter().enumerate() {
            assert_eq!(
                got[ROWS.len() * i + r],
                expect(r, x),
                "`{row}` of {x:#018x}"
            );
        }
    }
}
