//! f32 division and reciprocal with an immediate operand whose destination is the other
//! operand's register (`div.rn.f32 %f3, %f3, 3.0`, `div.rn.f32 %f3, 1.0, %f3`,
//! `rcp.rn.f32 %f3, %f3`), with `.ftz`, other roundings and guards: on both executors over
//! every pair of f32 edge classes, the round-to-nearest rows also against Rust's `/`, the
//! directed ones against `common::div_f32`; the same for f64 over f64 edges; `sqrt.f32` of immediates (guarded too) against Rust's `sqrt`.

mod common;
use common::*;

/// (row, Some(immediate dividend or divisor) for the rows checked against Rust).
const ROWS: &[&str] = &[
    "mov.f32 %f3, %f1;\n\tdiv.rn.f32 %f3, %f3, 0f40400000;",
    "mov.f32 %f3, %f2;\n\tdiv.rn.f32 %f3, 0f3f800000, %f3;",
    "mov.f32 %f3, %f1;\n\trcp.rn.f32 %f3, %f3;",
    "mov.f32 %f3, %f1;\n\tdiv.rz.ftz.f32 %f3, %f3, 0f00000001;",
    "mov.f32 %f3, %f2;\n\tdiv.rp.f32 %f3, 0f7f800000, %f3;",
    "mov.f32 %f3, %f2;\n\tdiv.rm.ftz.f32 %f3, 0f80000003, %f3;",
    "mov.f32 %f3, %f1;\n\t@%p1 div.rn.f32 %f3, %f3, 0f3dcccccd;",
    "mov.f32 %f3, %f2;\n\t@!%p1 div.rn.f32 %f3, 0fc0e00000, %f3;",
    "mov.f32 %f3, %f1;\n\tdiv.rn.f32 %f3, %f3, 0f7fc00001;",
    "mov.f32 %f3, %f1;\n\tdiv.rz.f32 %f3, %f3, 0f40400000;",
    "mov.f32 %f3, %f2;\n\tdiv.rm.f32 %f3, 0f3f800000, %f3;",
    "mov.f32 %f3, %f1;\n\tdiv.rp.f32 %f3, %f3, 0fbdcccccd;",
];

#[test]
fn division_by_an_immediate_into_the_other_operands_register() {
    let mut body = String::from("\tsetp.gt.f32 %p1, %f2, 0f00000000;\n");
    for (i, row) in ROWS.iter().enumerate() {
        body += &format!("\t{row}\n\tst.global.f32 [%rd7+{}], %f3;\n", 4 * i);
    }
    let text = row_kernel(
        "fdivimm",
        "\t.reg .b32 %r<6>;\n\t.reg .f32 %f<4>;\n\t.reg .b64 %rd<8>;\n\t.reg .pred %p<2>;\n",
        &[("f32", "%f1", 4), ("f32", "%f2", 4)],
        4 * ROWS.len(),
        &body,
    );
    let edges = f32_edges(32, 0x5eed_1234);
    let (a, b) = all_pairs(&edges);
    let n = a.len();
    let out = run_both(
        "fdivimm.ptx",
        &text,
        &spec(
            "fdivimm",
            n as u32 / 64,
            64,
            vec![u32s(&a), u32s(&b), zeros32(ROWS.len() * n)],
        ),
    );
    let got = words(&out[2]);
    let k = ROWS.len();
    let same = |x: u32, y: f32| {
        let y = y.to_bits();
        // Any NaN the PTX rules give is the canonical one; compare NaNs by class.
        (f32::from_bits(x).is_nan() && f32::from_bits(y).is_nan()) || x == y
    };
    for i in 0..n {
        let (x, y) = (f32::from_bits(a[i]), f32::from_bits(b[i]));
        let row = &got[k * i..k * (i + 1)];
        let want = [x / 3.0, 1.0 / y, 1.0 / x];
        for (r, w) in want.iter().enumerate() {
            assert!(
                same(row[r], *w),
                "row {r}: a = {x:e}, b = {y:e}: {:#x}",
                row[r]
            );
        }
        let g = if y > 0.0 {
            x / f32::from_bits(0x3dcc_cccd)
        } else {
            x
        };
        assert!(same(row[6], g), "guarded row: a = {x:e}, b = {y:e}");
        let g = if y > 0.0 { y } else { -7.0 / y };
        assert!(same(row[7], g), "negated guard row: a = {x:e}, b = {y:e}");
        assert!(f32::from_bits(row[8]).is_nan());
        // The directed rows against `common::div_f32`'s exact directed rounding; `.ftz`
        // flushes subnormal sources and results to sign-preserving zero (PTX ISA §9.7.3).
        let directed = [
            (3, flush(div_f32(flush(x), 0.0, Directed::Rz))),
            (4, div_f32(f32::INFINITY, y, Directed::Rp)),
            (5, flush(div_f32(-0.0, flush(y), Directed::Rm))),
            (9, div_f32(x, 3.0, Directed::Rz)),
            (10, div_f32(1.0, y, Directed::Rm)),
            (11, div_f32(x, f32::from_bits(0xbdcc_cccd), Directed::Rp)),
        ];
        for (r, w) in directed {
            assert!(
                same(row[r], w),
                "row {r}: a = {x:e}, b = {y:e}: {:#x}, want {:#x}",
                row[r],
                w.to_bits()
            );
        }
    }
}

/// `x`, or a zero of its sign when it is subnormal (`.ftz`).
fn flush(x: f32) -> f32 {
    if x.is_subnormal() {
        0.0f32.copysign(x)
    } else {
        x
    }
}

const ROWS64: &[&str] = &[
    "mov.f64 %fd3, %fd1;\n\tdiv.rn.f64 %fd3, %fd3, 0d4008000000000000;",
    "mov.f64 %fd3, %fd2;\n\tdiv.rn.f64 %fd3, 0d3ff0000000000000, %fd3;",
    "mov.f64 %fd3, %fd1;\n\tdiv.rn.f64 %fd3, %fd3, 0d0000000000000003;",
    "mov.f64 %fd3, %fd2;\n\tdiv.rz.f64 %fd3, 0d7fefffffffffffff, %fd3;",
    "mov.f64 %fd3, %fd1;\n\t@%p1 div.rm.f64 %fd3, %fd3, 0dbfb999999999999a;",
    "mov.f64 %fd3, %fd2;\n\t@!%p1 div.rp.f64 %fd3, 0dfff0000000000000, %fd3;",
    "mov.f64 %fd3, %fd1;\n\tdiv.rn.f64 %fd3, %fd3, 0d7ff8000000000000;",
];

#[test]
fn f64_division_by_an_immediate_into_the_other_operands_register() {
    let mut body = String::from("\tsetp.gt.f64 %p1, %fd2, 0d0000000000000000;\n");
    for (i, row) in ROWS64.iter().enumerate() {
        body += &format!("\t{row}\n\tst.global.f64 [%rd7+{}], %fd3;\n", 8 * i);
    }
    let text = row_kernel(
        "ddivimm",
        "\t.reg .b32 %r<6>;\n\t.reg .f64 %fd<4>;\n\t.reg .b64 %rd<8>;\n\t.reg .pred %p<2>;\n",
        &[("f64", "%fd1", 8), ("f64", "%fd2", 8)],
        8 * ROWS64.len(),
        &body,
    );
    let (a, b) = all_pairs(&f64_edges(24, 0));
    let n = a.len();
    let out = run_both(
        "ddivimm.ptx",
        &text,
        &spec(
            "ddivimm",
            n as u32 / 64,
            64,
            vec![u64s(&a), u64s(&b), zeros32(2 * ROWS64.len() * n)],
        ),
    );
    let got: Vec<u64> = words64(&out[2]);
    let k = ROWS64.len();
    let same = |x: u64, y: f64| (f64::from_bits(x).is_nan() && y.is_nan()) || x == y.to_bits();
    let mut decided = 0;
    for i in 0..n {
        let (x, y) = (f64::from_bits(a[i]), f64::from_bits(b[i]));
        let row = &got[k * i..k * (i + 1)];
        let want = [x / 3.0, 1.0 / y, x / f64::from_bits(3)];
        for (r, w) in want.iter().enumerate() {
            assert!(
                same(row[r], *w),
                "row {r}: a = {x:e}, b = {y:e}: {:#x}",
                row[r]
            );
        }
        assert!(f64::from_bits(row[6]).is_nan());
        // The directed rows against common::div_f64 (the guarded ones keep their old value
        // in the lanes their guard skips; `%p1` is b > 0).
        let guard = y > 0.0;
        let directed = [
            (3, div_f64(f64::MAX, y, Directed::Rz)),
            (
                4,
                if guard {
                    div_f64(x, f64::from_bits(0xbfb9_9999_9999_999a), Directed::Rm)
                } else {
                    Some(x)
                },
            ),
            (
                5,
                if guard {
                    Some(y)
                } else {
                    div_f64(f64::NEG_INFINITY, y, Directed::Rp)
                },
            ),
        ];
        for (r, w) in directed {
            if let Some(w) = w {
                decided += 1;
                assert!(
                    same(row[r], w),
                    "row {r}: a = {x:e}, b = {y:e}: {:#x}, want {:#x}",
                    row[r],
                    w.to_bits()
                );
            }
        }
    }
    // The edge values are mostly normal: nearly every directed row is decided.
    assert!(
        decided * 10 >= 3 * n * 9,
        "only {decided} directed rows decided"
    );
}

#[test]
fn square_roots_of_immediates() {
    const ROWS: &[&str] = &[
        "sqrt.rn.f32 %f3, 0f40000000;",
        "mov.f32 %f3, %f1;\n\t@%p1 sqrt.rn.f32 %f3, 0f40400000;",
        "sqrt.rz.ftz.f32 %f3, 0f00000005;",
        "sqrt.approx.f32 %f3, 0fbf800000;",
        "sqrt.rp.f32 %f3, 0f3f000001;",
    ];
    let mut body = String::from("\tsetp.gt.f32 %p1, %f2, 0f00000000;\n");
    for (i, row) in ROWS.iter().enumerate() {
        body += &format!("\t{row}\n\tst.global.f32 [%rd7+{}], %f3;\n", 4 * i);
    }
    let text = row_kernel(
        "fsqrtimm",
        "\t.reg .b32 %r<6>;\n\t.reg .f32 %f<4>;\n\t.reg .b64 %rd<8>;\n\t.reg .pred %p<2>;\n",
        &[("f32", "%f1", 4), ("f32", "%f2", 4)],
        4 * ROWS.len(),
        &body,
    );
    let edges = f32_edges(8, 0x5eed_0001);
    let (a, b) = all_pairs(&edges[..8]);
    let mut a = a;
    let mut b = b;
    while a.len() % 64 != 0 {
        a.push(0x4000_0000);
        b.push(0xbf80_0000);
    }
    let n = a.len();
    let out = run_both(
        "fsqrtimm.ptx",
        &text,
        &spec(
            "fsqrtimm",
            n as u32 / 64,
            64,
            vec![u32s(&a), u32s(&b), zeros32(ROWS.len() * n)],
        ),
    );
    let got = words(&out[2]);
    let k = ROWS.len();
    for i in 0..n {
        let (x, y) = (f32::from_bits(a[i]), f32::from_bits(b[i]));
        let row = &got[k * i..k * (i + 1)];
        assert_eq!(row[0], 2f32.sqrt().to_bits());
        let g = if y > 0.0 { 3f32.sqrt() } else { x };
        assert_eq!(row[1], g.to_bits(), "guarded: a = {x:e}, b = {y:e}");
        assert_eq!(row[2], 0, "a subnormal operand flushes to +0");
        assert!(f32::from_bits(row[3]).is_nan());
        // sqrt.rp: the least f32 whose square (exact in f64) is at least 0x3f000001.
        let v = f64::from(f32::from_bits(0x3f00_0001));
        let mut r = (v.sqrt() as f32).next_down();
        while f64::from(r) * f64::from(r) < v {
            r = r.next_up();
        }
        assert_eq!(row[4], r.to_bits(), "sqrt.rp.f32 0f3f000001");
    }
}
