//! `sqrt.approx.f32` and `sqrt.approx.ftz.f32`: ptxvm defines them as the correctly rounded
//! result (`ops::transcend`: the manual allows more error, and the executor's reference is
//! exact), so the translation is the exact `.rn` sequence. Both executors, bit for bit, over
//! f32 edge classes and random bits, against Rust's `sqrt` (flushing for `.ftz`; NaN results
//! the canonical 0x7fffffff).

mod common;
use common::*;

fn want(x: u32, ftz: bool) -> u32 {
    let mut v = f32::from_bits(x);
    if ftz && v.is_subnormal() {
        v = f32::from_bits(x & 0x8000_0000);
    }
    let r = v.sqrt().to_bits();
    // A NaN by its bits (exponent all ones, fraction non-zero).
    if r & 0x7fff_ffff > 0x7f80_0000 {
        0x7fff_ffff
    } else {
        r
    }
}

#[test]
fn approximate_square_roots_are_the_correctly_rounded_ones() {
    let body = "\tsqrt.approx.f32 %r7, %r5;\n\tst.global.u32 [%rd7], %r7;\n\
                \tsqrt.approx.ftz.f32 %r7, %r5;\n\tst.global.u32 [%rd7+4], %r7;\n";
    let text = row_kernel(
        "sq",
        "\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<8>;\n",
        &[("u32", "%r5", 4)],
        8,
        body,
    );
    let mut xs = f32_edges(64, 0x51_7a11);
    let mut s = 0x1234_5678u32;
    while xs.len() < 4096 {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        xs.push(s);
    }
    let n = xs.len();
    let out = run_both(
        "sq.ptx",
        &text,
        &spec("sq", (n / 64) as u32, 64, vec![u32s(&xs), zeros32(2 * n)]),
    );
    let got = words(&out[1]);
    for (i, &x) in xs.iter().enumerate() {
        assert_eq!(got[2 * i], want(x, false), "sqrt.approx.f32 {x:#x}");
        assert_eq!(got[2 * i + 1], want(x, true), "sqrt.approx.ftz.f32 {x:#x}");
    }
}
