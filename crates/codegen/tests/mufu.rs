//! `sin/cos/lg2/ex2/rsqrt.approx{.ftz}.f32` onto `RRO` + `MUFU` on both executors, bit for bit,
//! over f32 edge classes and random values; each result is also checked against the f64
//! function computed here, within bounds looser than the PTX manual's maximum errors (sin/cos
//! absolute 1e-6 on [-π, π], ex2 and rsqrt relative 1e-6, lg2 1e-5), and the `.ftz` rows for
//! flushing (no subnormal results; a subnormal operand acts as its signed zero).

mod common;
use common::*;

const ROWS: &[&str] = &[
    "sin.approx.f32 %f3, %f1;",
    "cos.approx.f32 %f3, %f1;",
    "lg2.approx.f32 %f3, %f1;",
    "ex2.approx.f32 %f3, %f1;",
    "rsqrt.approx.f32 %f3, %f1;",
    "sin.approx.ftz.f32 %f3, %f1;",
    "lg2.approx.ftz.f32 %f3, %f1;",
    "ex2.approx.ftz.f32 %f3, %f1;",
    "rsqrt.approx.ftz.f32 %f3, %f1;",
];

fn kernel() -> String {
    let mut body = String::new();
    for (i, row) in ROWS.iter().enumerate() {
        body += &format!("\t{row}\n\tst.global.f32 [%rd7+{}], %f3;\n", 4 * i);
    }
    row_kernel(
        "mufu",
        "\t.reg .b32 %r<6>;\n\t.reg .f32 %f<4>;\n\t.reg .b64 %rd<8>;\n",
        &[("f32", "%f1", 4)],
        4 * ROWS.len(),
        &body,
    )
}

#[test]
fn mufu_functions_agree_and_are_within_the_manual_bounds() {
    let mut x = f32_edges(64, 0x1357_9bdf);
    // Values of every useful magnitude: angles, exponents, logarithm arguments.
    let mut s = 0x2468_ace1u32;
    while x.len() < 4096 {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        let v = (s as f32 / u32::MAX as f32 - 0.5) * [7.0, 250.0, 1e6, 1e-3][x.len() % 4];
        x.push(v.to_bits());
    }
    let n = x.len();
    let out = run_both(
        "mufu.ptx",
        &kernel(),
        &spec(
            "mufu",
            (n / 64) as u32,
            64,
            vec![u32s(&x), zeros32(ROWS.len() * n)],
        ),
    );
    let got = words(&out[1]);
    let flush = |v: f32| {
        if v.is_subnormal() {
            0.0f32.copysign(v)
        } else {
            v
        }
    };
    for (i, &bits) in x.iter().enumerate() {
        let v = f32::from_bits(bits);
        let r = |k: usize| f32::from_bits(got[ROWS.len() * i + k]);
        let w = f64::from(v);
        if v.is_finite() && v.abs() <= std::f32::consts::PI {
            assert!(
                (f64::from(r(0)) - w.sin()).abs() <= 1e-6,
                "sin {v:e}: {}",
                r(0)
            );
            assert!(
                (f64::from(r(1)) - w.cos()).abs() <= 1e-6,
                "cos {v:e}: {}",
                r(1)
            );
        }
        if v.is_normal() && v > 0.0 {
            assert!(
                (f64::from(r(2)) - w.log2()).abs() <= 1e-5 * w.log2().abs().max(1.0),
                "lg2 {v:e}: {}",
                r(2)
            );
            let want = 1.0 / w.sqrt();
            assert!(
                (f64::from(r(4)) - want).abs() <= 1e-6 * want,
                "rsqrt {v:e}: {}",
                r(4)
            );
        }
        if v.is_finite() && v.abs() < 100.0 {
            let want = w.exp2();
            if want > 1e-37 {
                assert!(
                    (f64::from(r(3)) - want).abs() <= 1e-6 * want,
                    "ex2 {v:e}: {}",
                    r(3)
                );
            }
        }
        // .ftz: the results are flushed, and a subnormal operand acts as its signed zero.
        for (k, row) in ROWS.iter().enumerate().skip(5) {
            assert!(!r(k).is_subnormal(), "{row} {v:e} gives a subnormal");
        }
        if v.is_subnormal() {
            assert_eq!(r(6), f32::NEG_INFINITY, "lg2.ftz of a subnormal is lg2(0)");
            assert_eq!(r(7), 1.0, "ex2.ftz of a subnormal is 2^0");
            assert_eq!(
                r(8).to_bits(),
                (1.0 / flush(v)).to_bits(),
                "rsqrt.ftz {v:e}"
            );
        }
    }
}
