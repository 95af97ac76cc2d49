//! The translator folds 32-bit `add/sub/mul.lo/and/or/xor` of constants through `ops` before
//! selection and puts the value into the consumer's immediate (src/opt/propagate.rs). Each
//! row folds `A op B` of edge constants and adds the thread's index at run time; both
//! executors run it (the PTX executor evaluates every instruction, the Fermi code holds the
//! folded values) and must agree with Rust's wrapping arithmetic.

mod common;
use common::*;

const EDGES: [u32; 8] = [
    0,
    1,
    2,
    0x7fff_ffff,
    0x8000_0000,
    0xffff_ffff,
    0xdead_beef,
    0x0001_0000,
];

/// (PTX row with `A`, `B` as sources and `D` as destination, Rust's meaning).
type Row = (&'static str, fn(u32, u32) -> u32);

const OPS: [Row; 7] = [
    ("add.u32 D, A, B;", u32::wrapping_add),
    ("sub.s32 D, A, B;", u32::wrapping_sub),
    ("mul.lo.u32 D, A, B;", u32::wrapping_mul),
    ("mul.lo.s32 D, A, B;", |a, b| {
        (a as i32).wrapping_mul(b as i32) as u32
    }),
    ("and.b32 D, A, B;", |a, b| a & b),
    ("or.b32 D, A, B;", |a, b| a | b),
    ("xor.b32 D, A, B;", |a, b| a ^ b),
];

#[test]
fn folded_constants_agree_with_both_executors_and_with_rust() {
    let mut body = String::new();
    let mut want = Vec::new();
    for &a in &EDGES {
        for &b in &EDGES {
            for (row, f) in OPS {
                // Registers of their own: the clean-ups fold only single-definition registers.
                let k = want.len();
                let r = |j: usize| format!("%c{}", 4 * k + j);
                let row = row
                    .replace('A', &r(0))
                    .replace('B', &r(1))
                    .replace('D', &r(2));
                body += &format!(
                    "\tmov.u32 {}, {a};\n\tmov.u32 {}, {b};\n\t{row}\n\tadd.u32 {}, {}, %r4;\n\tst.global.u32 [%rd7+{}], {};\n",
                    r(0), r(1), r(3), r(2), 4 * k, r(3)
                );
                want.push(f(a, b));
            }
        }
    }
    let text = row_kernel(
        "fold",
        &format!(
            "\t.reg .b32 %r<8>;\n\t.reg .b32 %c<{}>;\n\t.reg .b64 %rd<8>;\n",
            4 * EDGES.len() * EDGES.len() * OPS.len()
        ),
        &[],
        4 * want.len(),
        &body,
    );
    // Folded: no IMUL but the harness's two (its row offset), no LOP at all.
    let (_, _, cubin) = compile("fold.ptx", &text);
    let listing: Vec<String> = disassembly(&cubin.kernels[0]);
    let count = |op: &str| listing.iter().filter(|t| t.starts_with(op)).count();
    assert!(count("IMUL") <= 2 && count("LOP") == 0, "{listing:#?}");
    let s = spec("fold", 1, 32, vec![zeros32(32 * want.len())]);
    let out = words(&run_both("fold.ptx", &text, &s)[0]);
    for t in 0..32 {
        for (k, &w) in want.iter().enumerate() {
            let expected = w.wrapping_add(t as u32);
            assert_eq!(out[t * want.len() + k], expected, "thread {t}, row {k}");
        }
    }
}
