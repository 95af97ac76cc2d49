//! IEEE f32 division and reciprocal (`div.rn/.rz/.rm/.rp/.full`, `rcp.rn`, and the `.approx`
//! forms, with and without `.ftz`) on both executors, bit for bit, over every pair of f32 edge classes and random bit
//! patterns; the round-to-nearest quotient is also checked against Rust's `/`.

mod common;
use common::*;

const ROWS: &[&str] = &[
    "div.rn.f32 %f3, %f1, %f2;",
    "div.rz.f32 %f3, %f1, %f2;",
    "div.rm.f32 %f3, %f1, %f2;",
    "div.rp.f32 %f3, %f1, %f2;",
    "div.full.f32 %f3, %f1, %f2;",
    "div.approx.f32 %f3, %f1, %f2;",
    "rcp.rn.f32 %f3, %f2;",
    "rcp.rz.f32 %f3, %f2;",
    "rcp.approx.f32 %f3, %f2;",
    "div.rn.f32 %f3, %f1, 0f40400000;",
    "div.approx.ftz.f32 %f3, %f1, %f2;",
    "rcp.approx.ftz.f32 %f3, %f2;",
    "div.rn.ftz.f32 %f3, %f1, %f2;",
    "div.rz.ftz.f32 %f3, %f1, %f2;",
    "rcp.rn.ftz.f32 %f3, %f2;",
];

fn kernel() -> String {
    let mut body = String::new();
    for (i, row) in ROWS.iter().enumerate() {
        body += &format!("\t{row}\n\tst.global.f32 [%rd7+{}], %f3;\n", 4 * i);
    }
    row_kernel(
        "fdiv",
        "\t.reg .b32 %r<6>;\n\t.reg .f32 %f<4>;\n\t.reg .b64 %rd<8>;\n",
        &[("f32", "%f1", 4), ("f32", "%f2", 4)],
        4 * ROWS.len(),
        &body,
    )
}

#[test]
fn f32_division_is_exact_on_both_executors() {
    let edges = f32_edges(48, 0x0bad_cafe);
    let (mut a, mut b) = all_pairs(&edges);
    // Random pairs: random bits, and quotients landing in the subnormal range.
    let mut s = 0x1234_5679u32;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        s
    };
    while a.len() < 16384 {
        let x = next();
        let y = next();
        a.push(x);
        b.push(y);
        a.push(x & 0x807f_ffff | 0x0080_0000);
        b.push(y & 0x807f_ffff | 0x7e00_0000);
    }
    let n = a.len();
    let out = run_both(
        "fdiv.ptx",
        &kernel(),
        &spec(
            "fdiv",
            n as u32 / 64,
            64,
            vec![u32s(&a), u32s(&b), zeros32(ROWS.len() * n)],
        ),
    );
    let got = words(&out[2]);
    for i in 0..n {
        let (x, y) = (f32::from_bits(a[i]), f32::from_bits(b[i]));
        let row = &got[ROWS.len() * i..ROWS.len() * (i + 1)];
        let q = x / y;
        if !q.is_nan() {
            assert_eq!(row[0], q.to_bits(), "div.rn {x:e} / {y:e}");
            assert_eq!(row[4], q.to_bits(), "div.full {x:e} / {y:e}");
        }
        let r = 1.0 / y;
        if !r.is_nan() {
            assert_eq!(row[6], r.to_bits(), "rcp.rn {y:e}");
        }
        // The .ftz forms: operands, reciprocal and result flushed (subnormal → signed zero).
        let flush = |v: f32| {
            if v.is_subnormal() {
                f32::from_bits(v.to_bits() & 0x8000_0000)
            } else {
                v
            }
        };
        let rf = flush(1.0 / flush(y));
        if !rf.is_nan() {
            assert_eq!(row[11], rf.to_bits(), "rcp.approx.ftz {y:e}");
            let qf = flush(flush(x) * rf);
            if !qf.is_nan() {
                assert_eq!(row[10], qf.to_bits(), "div.approx.ftz {x:e} / {y:e}");
            }
        }
        let qf = flush(flush(x) / flush(y));
        if !qf.is_nan() {
            assert_eq!(row[12], qf.to_bits(), "div.rn.ftz {x:e} / {y:e}");
        }
        if !rf.is_nan() {
            assert_eq!(row[14], rf.to_bits(), "rcp.rn.ftz {y:e}");
        }
        let t = x / 3.0;
        if !t.is_nan() {
            assert_eq!(row[9], t.to_bits(), "div.rn {x:e} / 3");
        }
    }
}
