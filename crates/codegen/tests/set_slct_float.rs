//! `set` with float or 64-bit sources or an `.f32` result, and `slct` on an `.f32` selector
//! (select/legacy.rs), and 16-bit `set`/`setp` (a complement output too): over all pairs of f32 edges (and their f64 widenings, and 64-bit
//! integers made from them) on both executors, against the PTX rules written here:
//! `set` is `setp`'s comparison giving all ones (integer result) or 1.0 (`.f32`) or 0,
//! combined with `c` by the boolean operation; `slct` is `c >= 0 ? a : b` with a NaN `c`
//! selecting `b` and `.ftz` flushing a subnormal `c` to zero first (ptx-isa §9.7.3,
//! `ops::cmp::slct_f32`).

mod common;
use common::*;

const ROWS: &[&str] = &[
    "set.lt.u32.f32 %r10, %f1, %f2;",
    "set.gtu.f32.f32 %r10, %f1, %f2;",
    "set.equ.s32.f32 %r10, %f1, %f2;",
    "set.num.and.u32.f32 %r10, %f1, %f2, %p1;",
    "set.ge.or.f32.f32 %r10, %f1, %f2, !%p1;",
    "set.ne.u32.f64 %r10, %fd1, %fd2;",
    "set.le.f32.f64 %r10, %fd1, %fd2;",
    "set.lt.u32.s64 %r10, %rd5, %rd6;",
    "set.hi.f32.u64 %r10, %rd5, %rd6;",
    "set.eq.f32.u32 %r10, %r5, %r6;",
    "slct.u32.f32 %r10, %r5, %r6, %f2;",
    "slct.ftz.f32.f32 %r10, %r5, %r6, %f2;",
    "slct.f32.s32 %r10, %r5, %r6, %r6;",
    "set.lt.u32.s16 %r10, %h1, %h2;",
    "setp.gt.u16 %p2|%p3, %h1, %h2;\n\tselp.u32 %r10, 1, 0, %p3;",
];

fn kernel() -> String {
    let mut body = String::from(
        "\tmov.b32 %f1, %r5;\n\tmov.b32 %f2, %r6;\n\tcvt.f64.f32 %fd1, %f1;\n\
         \tcvt.f64.f32 %fd2, %f2;\n\tcvt.s64.s32 %rd5, %r5;\n\tcvt.u64.u32 %rd6, %r6;\n\
         \tsetp.lt.s32 %p1, %r5, %r6;\n\tcvt.u16.u32 %h1, %r5;\n\tcvt.u16.u32 %h2, %r6;\n",
    );
    for (i, row) in ROWS.iter().enumerate() {
        body += &format!("\t{row}\n\tst.global.u32 [%rd7+{}], %r10;\n", 4 * i);
    }
    row_kernel(
        "sf",
        "\t.reg .b32 %r<12>;\n\t.reg .f32 %f<4>;\n\t.reg .f64 %fd<4>;\n\
         \t.reg .b64 %rd<8>;\n\t.reg .pred %p<4>;\n\t.reg .b16 %h<3>;\n",
        &[("u32", "%r5", 4), ("u32", "%r6", 4)],
        4 * ROWS.len(),
        &body,
    )
}

fn flush(x: f32) -> f32 {
    if x.is_subnormal() {
        0.0f32.copysign(x)
    } else {
        x
    }
}

fn want(r: usize, a: u32, b: u32) -> u32 {
    let (x, y) = (f32::from_bits(a), f32::from_bits(b));
    let (dx, dy) = (f64::from(x), f64::from(y));
    let (sa, ub) = (i64::from(a as i32), u64::from(b));
    let p1 = (a as i32) < (b as i32);
    let unordered = x.is_nan() || y.is_nan();
    let mask = |t: bool| if t { u32::MAX } else { 0 };
    let one = |t: bool| if t { 1.0f32.to_bits() } else { 0 };
    match r {
        0 => mask(x < y),
        1 => one(unordered || x > y),
        2 => mask(unordered || x == y),
        3 => mask(!unordered && p1),
        4 => one(x >= y || !p1),
        5 => mask(!(dx.is_nan() || dy.is_nan()) && dx != dy),
        6 => one(dx <= dy),
        7 => mask(sa < ub as i64),
        8 => one(sa as u64 > ub),
        9 => one(a == b),
        10 => {
            if y >= 0.0 {
                a
            } else {
                b
            }
        }
        11 => {
            if flush(y) >= 0.0 {
                a
            } else {
                b
            }
        }
        13 => mask((a as u16 as i16) < (b as u16 as i16)),
        14 => u32::from(a as u16 <= b as u16),
        _ => {
            if b as i32 >= 0 {
                a
            } else {
                b
            }
        }
    }
}

#[test]
fn set_and_slct_with_float_and_64_bit_operands_agree_with_the_spec() {
    let edges = f32_edges(24, 0x5e7);
    let (a, b) = all_pairs(&edges);
    let got = run_row_pairs("sf", &kernel(), ROWS.len(), &a, &b);
    assert_rows(ROWS, &a, &b, &got, |r, x, y| Some(want(r, x, y)));
}
