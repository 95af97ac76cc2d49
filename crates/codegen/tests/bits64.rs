//! `clz.b64`, `bfind.u64/.s64` and `min/max.f64` on both executors, bit for bit, over all
//! pairs of 40 64-bit edges (integers of every magnitude and f64 zeros, subnormals,
//! infinities, NaNs), against the PTX definitions written here.

mod common;
use common::*;

const ROWS: &[&str] = &[
    "clz.b64 %r8, %rd5;\n\tcvt.u64.u32 %rd8, %r8;",
    "bfind.u64 %r8, %rd5;\n\tcvt.u64.u32 %rd8, %r8;",
    "bfind.s64 %r8, %rd5;\n\tcvt.u64.u32 %rd8, %r8;",
    "min.f64 %rd8, %rd5, %rd6;",
    "max.f64 %rd8, %rd5, %rd6;",
    "min.f64 %rd8, %rd5, 0d3FF0000000000000;",
    "max.f64 %rd8, 0d8000000000000000, %rd6;",
];

fn bfind_u(x: u64) -> u64 {
    if x == 0 {
        0xffff_ffff
    } else {
        u64::from(63 - x.leading_zeros())
    }
}

/// min/max.f64 as ptxvm defines them (`ops::float::min_f64`, PTX ISA Table 28): a NaN
/// operand is ignored (of two NaNs the second is the result); otherwise the smaller (larger)
/// value, and the second operand when they compare equal (so the sign of a zero result is
/// the second operand's).
fn minmax(a: u64, b: u64, max: bool) -> u64 {
    let (x, y) = (f64::from_bits(a), f64::from_bits(b));
    if x.is_nan() {
        b
    } else if y.is_nan() || (if max { x > y } else { x < y }) {
        a
    } else {
        b
    }
}

fn expect(row: usize, a: u64, b: u64) -> u64 {
    match row {
        0 => u64::from(a.leading_zeros()),
        1 => bfind_u(a),
        2 => bfind_u(if (a as i64) < 0 { !a } else { a }),
        3 => minmax(a, b, false),
        4 => minmax(a, b, true),
        5 => minmax(a, 1.0f64.to_bits(), false),
        _ => minmax((-0.0f64).to_bits(), b, true),
    }
}

fn edges() -> Vec<u64> {
    let mut v: Vec<u64> = vec![
        0,
        1,
        2,
        0xffff_ffff,
        0x1_0000_0000,
        0x7fff_ffff_ffff_ffff,
        0x8000_0000_0000_0000,
        0xffff_ffff_ffff_ffff,
        0xffff_ffff_0000_0000,
        0xffff_fffe_ffff_ffff,
        0x0000_0000_8000_0000,
        (-0.0f64).to_bits(),
        1.0f64.to_bits(),
        (-1.0f64).to_bits(),
        f64::INFINITY.to_bits(),
        f64::NEG_INFINITY.to_bits(),
        0x7ff8_0000_0000_0000,
        0xfff0_0000_0000_0001,
        0x000f_ffff_ffff_ffff,
        0x8000_0000_0000_0001,
        f64::MAX.to_bits(),
        f64::MIN_POSITIVE.to_bits(),
    ];
    let mut s = 0xdead_beef_1234_5678u64;
    while v.len() < 40 {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        v.push(s >> (s % 64));
    }
    v
}

#[test]
fn wide_bit_scans_and_f64_min_max_agree_with_the_spec() {
    let mut body = String::new();
    for (i, row) in ROWS.iter().enumerate() {
        body += &format!("\t{row}\n\tst.global.u64 [%rd7+{}], %rd8;\n", 8 * i);
    }
    let text = row_kernel(
        "bits64",
        "\t.reg .b32 %r<10>;\n\t.reg .b64 %rd<10>;\n",
        &[("u64", "%rd5", 8), ("u64", "%rd6", 8)],
        8 * ROWS.len(),
        &body,
    );
    let e = edges();
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for &x in &e {
        for &y in &e {
            a.push(x);
            b.push(y);
        }
    }
    let n = a.len();
    let out = run_both(
        "bits64.ptx",
        &text,
        &spec(
            "bits64",
            (n / 64) as u32,
            64,
            vec![u64s(&a), u64s(&b), u64s(&vec![0; ROWS.len() * n])],
        ),
    );
    let got: Vec<u64> = words64(&out[2]);
    for i in 0..n {
        for r in 0..ROWS.len() {
            assert_eq!(
                got[ROWS.len() * i + r],
                expect(r, a[i], b[i]),
                "{}: a = {:#x}, b = {:#x}",
                ROWS[r],
                a[i],
                b[i]
            );
        }
    }
}
