//! `bfind`, `clz`, `bfe`, `prmt`, `popc.b64` and `min/max.f32` on both executors and against
//! the PTX definitions written here, over every pair of integer edge values.

mod common;
use common::*;

const ROWS: &[&str] = &[
    "bfind.u32 %r7, %r5;",
    "bfind.s32 %r7, %r5;",
    "clz.b32 %r7, %r5;",
    "bfe.u32 %r7, %r5, 4, 9;",
    "bfe.u32 %r7, %r5, %r6, %r8;",
    "bfe.s32 %r7, %r5, %r6, %r8;",
    "prmt.b32 %r7, %r5, %r6, %r8;",
    "prmt.b32 %r7, %r5, %r6, 0x3210;",
    "popc.b64 %r7, %rd5;",
    "min.f32 %r7, %r5, %r6;",
    "max.f32 %r7, %r5, %r6;",
];

fn bfe(a: u32, pos: u32, len: u32, signed: bool) -> u32 {
    let bit = |i: u32| if i <= 31 { (a >> i) & 1 } else { 0 };
    let sbit = if !signed || len == 0 {
        0
    } else {
        bit((pos + len - 1).min(31))
    };
    (0..32).fold(0, |d, i| {
        let b = if i < len && pos + i <= 31 {
            bit(pos + i)
        } else {
            sbit
        };
        d | b << i
    })
}

fn prmt(a: u32, b: u32, c: u32) -> u32 {
    let src = (u64::from(b) << 32 | u64::from(a)).to_le_bytes();
    (0..4).fold(0, |d, i| {
        let sel = (c >> (4 * i)) & 0xf;
        let byte = src[(sel & 7) as usize];
        let byte = if sel & 8 != 0 {
            if byte & 0x80 != 0 {
                0xff
            } else {
                0
            }
        } else {
            byte
        };
        d | u32::from(byte) << (8 * i)
    })
}

fn bfind(a: u32, signed: bool) -> u32 {
    let a = if signed && (a as i32) < 0 { !a } else { a };
    if a == 0 {
        u32::MAX
    } else {
        31 - a.leading_zeros()
    }
}

#[test]
fn bit_rows_agree_with_the_spec() {
    let mut body = String::new();
    for (i, row) in ROWS.iter().enumerate() {
        body += &format!("\t{row}\n\tst.global.u32 [%rd7+{}], %r7;\n", 4 * i);
    }
    let text = row_kernel(
        "bits",
        "\t.reg .b32 %r<10>;\n\t.reg .b64 %rd<8>;\n",
        &[("u32", "%r5", 4), ("u32", "%r6", 4)],
        4 * ROWS.len(),
        &format!("\tshr.u32 %r8, %r6, 8;\n\tmov.b64 %rd5, {{%r5, %r6}};\n{body}"),
    );
    let mut edges = int_edges(40, 0x00c0_ffee);
    edges.extend(f32_edges(24, 0x0bee_f00d));
    let (a, b) = all_pairs(&edges);
    let got = run_row_pairs("bits", &text, ROWS.len(), &a, &b);
    let n = a.len();
    for i in 0..n {
        let (x, y) = (a[i], b[i]);
        let (pos, len) = (y & 0xff, (y >> 8) & 0xff);
        let want = [
            bfind(x, false),
            bfind(x, true),
            x.leading_zeros(),
            bfe(x, 4, 9, false),
            bfe(x, pos, len, false),
            bfe(x, pos, len, true),
            prmt(x, y, y >> 8),
            prmt(x, y, 0x3210),
            (u64::from(y) << 32 | u64::from(x)).count_ones(),
        ];
        let row = &got[ROWS.len() * i..ROWS.len() * (i + 1)];
        assert_eq!(&row[..9], &want, "{x:#x}, {y:#x}");
        let (fx, fy) = (f32::from_bits(x), f32::from_bits(y));
        let both_zero = fx == 0.0 && fy == 0.0;
        if !(fx.is_nan() || fy.is_nan() || both_zero) {
            assert_eq!(row[9], fx.min(fy).to_bits(), "min {fx:e} {fy:e}");
            assert_eq!(row[10], fx.max(fy).to_bits(), "max {fx:e} {fy:e}");
        }
    }
}
