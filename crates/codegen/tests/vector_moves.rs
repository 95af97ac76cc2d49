//! Whole-vector `mov.v2`/`.v4` on both executors, bit for bit: `tests/kernels/vectors_ptx11.ptx`
//! (swizzles, a scalar and a `.v2` spread, an immediate, brace lists, a swap of a vector's own
//! lanes, a guarded swizzle, `.v2 .pred`) and `tests/run/vector_registers.ptx` (`.v4 .u16`,
//! `.v2 .u32` spreads), against the records their headers describe (ptx-isa-1.1 §6.4.3 and
//! §6.5.3 Table 10), computed here; and a generated kernel whose lanes form cycles of every
//! kind (`.f32`, `.f64`, `.pred`).

mod common;
use common::*;

fn text(path: &str) -> String {
    std::fs::read_to_string(format!("{}/../../{path}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

#[test]
fn ptx11_vector_moves_agree_with_their_meaning() {
    let threads = 64usize;
    let input: Vec<u32> = (0..4 * threads)
        .map(|i| (1.0f32 + i as f32 * 0.25 - (i % 7) as f32).to_bits())
        .collect();
    let s = spec(
        "vec_moves",
        1,
        threads as u32,
        vec![u32s(&input), zeros32(40 * threads)],
    );
    let out = run_both(
        "tests/kernels/vectors_ptx11.ptx",
        &text("tests/kernels/vectors_ptx11.ptx"),
        &s,
    );
    let w = words(&out[1]);
    for t in 0..threads {
        let v = &input[4 * t..4 * t + 4];
        let f = |x: u32| f32::from_bits(x);
        let r = |k: usize| &w[40 * t + 4 * k..40 * t + 4 * k + 4];
        assert_eq!(r(0), [v[3], v[2], v[1], v[0]], "thread {t}: v.wzyx");
        assert_eq!(r(1), [v[0], v[0], v[1], v[3]], "thread {t}: v.rrga");
        assert_eq!(r(2), [v[1], v[3], v[0], v[2]], "thread {t}: v.1302");
        assert_eq!(r(3), [v[2]; 4], "thread {t}: v.z spread");
        assert_eq!(r(4), [v[1], v[3], 0, 0], "thread {t}: a .v2 widened");
        assert_eq!(r(5), [2.5f32.to_bits(); 4], "thread {t}: 2.5 spread");
        let sum = (f(v[0]) + f(v[1])).to_bits();
        let prod = (f(v[2]) * f(v[3])).to_bits();
        assert_eq!(r(6), [sum, prod, v[0], v[3]], "thread {t}: a brace list");
        assert_eq!(r(7), [v[1], v[0], v[3], v[2]], "thread {t}: the swap");
        let u = if t < 5 {
            [v[1]; 4]
        } else {
            [v[0], v[1], v[2], v[3]]
        };
        assert_eq!(r(8), u, "thread {t}: the guarded swizzle");
        let (one, zero) = (1f32.to_bits(), 0f32.to_bits());
        let b = |c: bool| if c { one } else { zero };
        let (px, py) = (f(u[1]) > f(u[0]), f(u[3]) > f(u[2]));
        assert_eq!(r(9), [b(py), b(px), b(py), b(px)], "thread {t}: pp.yx");
    }
}

#[test]
fn vector_register_moves_and_spreads_agree_with_their_meaning() {
    let threads = 64usize;
    let input: Vec<u32> = (0..8 * threads as u32)
        .map(|i| i.wrapping_mul(0x9e37_79b9) ^ 0x3f80_0000)
        .collect();
    let s = spec(
        "vregs",
        1,
        threads as u32,
        vec![u32s(&input), zeros32(12 * threads)],
    );
    let out = run_both(
        "tests/run/vector_registers.ptx",
        &text("tests/run/vector_registers.ptx"),
        &s,
    );
    let w = words(&out[1]);
    for t in 0..threads {
        let i = &input[8 * t..8 * t + 8];
        let o = &w[12 * t..12 * t + 12];
        let (e1, e3) = (i[0] >> 16, i[1] >> 16);
        assert_eq!(o[0], (e1 << 16) | e3, "thread {t}: mov.v4.u16 then .x = .w");
        assert_eq!(o[1], i[1], "thread {t}");
        let h = t as u32 & 0xffff;
        assert_eq!(
            o[8..12],
            [h << 16 | h, h << 16 | h, 7, 7],
            "thread {t}: spreads"
        );
    }
}

/// Lanes that read each other's registers in cycles (`{b, c, a, d}` from `{a, b, c, d}`),
/// a lane kept, a lane from an immediate, for 32-bit, 64-bit and predicate vectors.
#[test]
fn cyclic_lane_permutations_agree_with_the_permutation() {
    let body = "\tmov.b32 %f1, %r5;\n\tmov.b32 %f2, %r6;\n\tadd.f32 %f3, %f1, %f2;\n\tsub.f32 %f4, %f1, %f2;\n\
        \tmov.v4.f32 {%f1, %f2, %f3, %f4}, {%f2, %f3, %f1, %f4};\n\
        \tmov.v2.f32 {%f3, %f4}, {%f4, %f3};\n\
        \tmov.b64 %fd1, {%r5, %r6};\n\tmov.b64 %fd2, {%r6, %r5};\n\
        \tmov.v2.f64 {%fd1, %fd2}, {%fd2, %fd1};\n\
        \tmov.v2.f64 {%fd3, %fd1}, {%fd1, 0d3ff0000000000000};\n\
        \tsetp.lt.u32 %p1, %r5, %r6;\n\tsetp.eq.u32 %p2, %r5, 0;\n\
        \tmov.v4.pred {%p1, %p2, %p3, %p4}, {%p2, %p1, 1, %p1};\n\
        \tselp.u32 %r7, 1, 0, %p1;\n\tselp.u32 %r8, 2, 0, %p2;\n\tor.b32 %r7, %r7, %r8;\n\
        \tselp.u32 %r8, 4, 0, %p3;\n\tor.b32 %r7, %r7, %r8;\n\tselp.u32 %r8, 8, 0, %p4;\n\tor.b32 %r7, %r7, %r8;\n\
        \tmov.b32 %r8, %f1;\n\tst.global.u32 [%rd7], %r8;\n\tmov.b32 %r8, %f2;\n\tst.global.u32 [%rd7+4], %r8;\n\
        \tmov.b32 %r8, %f3;\n\tst.global.u32 [%rd7+8], %r8;\n\tmov.b32 %r8, %f4;\n\tst.global.u32 [%rd7+12], %r8;\n\
        \tmov.b64 {%r8, %r9}, %fd2;\n\tst.global.u32 [%rd7+16], %r8;\n\tst.global.u32 [%rd7+20], %r9;\n\
        \tmov.b64 {%r8, %r9}, %fd3;\n\tst.global.u32 [%rd7+24], %r8;\n\tst.global.u32 [%rd7+28], %r9;\n\
        \tmov.b64 {%r8, %r9}, %fd1;\n\tst.global.u32 [%rd7+32], %r8;\n\tst.global.u32 [%rd7+36], %r9;\n\
        \tst.global.u32 [%rd7+40], %r7;\n";
    let text = row_kernel(
        "perm",
        "\t.reg .pred %p<5>;\n\t.reg .b32 %r<10>;\n\t.reg .f32 %f<5>;\n\t.reg .f64 %fd<4>;\n\t.reg .b64 %rd<8>;\n",
        &[("u32", "%r5", 4), ("u32", "%r6", 4)],
        44,
        body,
    );
    let edges = int_edges(16, 0x7e57_7e57);
    let (a, b) = all_pairs(&edges);
    let got = run_row_pairs("perm", &text, 11, &a, &b);
    for (i, (&x, &y)) in a.iter().zip(&b).enumerate() {
        let (fx, fy) = (f32::from_bits(x), f32::from_bits(y));
        let (s, d) = ((fx + fy).to_bits(), (fx - fy).to_bits());
        let (p1, p2) = (x < y, x == 0);
        // {f1, f2, f3, f4} = {y, s, x, d}; then {f3, f4} = {d, x}.
        // fd1, fd2 = {x, y}, {y, x} swapped; then fd3 = fd1 (now {y, x}), fd1 = 1.0.
        let preds = u32::from(p2) | u32::from(p1) << 1 | 1 << 2 | u32::from(p1) << 3;
        let want = [y, s, d, x, x, y, y, x, 0, 0x3ff0_0000, preds];
        assert_eq!(&got[11 * i..11 * i + 11], want, "a = {x:#x}, b = {y:#x}");
    }
}

/// `pack4` of the same file: four `.u16` packed by `mov.b64 d, {a, b, c, e}` (a lowest), then
/// `d + 1` split back (PTX ISA §9.7.9.6, `mov` of a vector to a scalar and back).
#[test]
fn ptx11_half_packs_agree_with_their_meaning() {
    let threads = 64usize;
    let input: Vec<u16> = (0..4 * threads as u32)
        .map(|i| {
            if i % 5 == 0 {
                0xffff
            } else {
                (i.wrapping_mul(0x9e37) >> 3) as u16
            }
        })
        .collect();
    let halves = buffer(exec::ElemType::U16, &input, |x: u16| {
        x.to_le_bytes().to_vec()
    });
    let s = spec(
        "pack4",
        1,
        threads as u32,
        vec![halves, u64s(&vec![0; threads]), zeros32(2 * threads)],
    );
    let out = run_both(
        "tests/kernels/vectors_ptx11.ptx",
        &text("tests/kernels/vectors_ptx11.ptx"),
        &s,
    );
    for t in 0..threads {
        let d = (0..4).fold(0u64, |acc, k| acc | u64::from(input[4 * t + k]) << (16 * k));
        let word = u64::from_le_bytes(out[1][8 * t..8 * t + 8].try_into().unwrap());
        assert_eq!(word, d, "thread {t}: the packed word");
        let e = d.wrapping_add(1);
        let back = u64::from_le_bytes(out[2][8 * t..8 * t + 8].try_into().unwrap());
        assert_eq!(back, e, "thread {t}: the parts of d + 1");
    }
}
