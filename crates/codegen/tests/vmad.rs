//! `vmad` without `.sat`/`.shr` (the low-word sequence; `vmad_sat_shr.rs` has the others) on
//! both executors, bit for bit, over all pairs of integer edge values, against the PTX ISA's
//! pseudo-code (§9.7.18.1.3) written here: selected parts extended by their type, the product,
//! its one's complement plus one when negated, `c`'s when `c` is, `+ 1` for `.po`; `d` the low
//! word.

mod common;
use common::*;

/// (PTX row, a's part, b's part, a and b signed, negation).
#[derive(Clone, Copy)]
enum Neg {
    None,
    Product,
    C,
    PlusOne,
}

/// A part: `None` the whole word, `Some((bits, index))` a byte (8) or half-word (16).
type Part = Option<(u32, u32)>;

const ROWS: &[(&str, Part, Part, bool, bool, Neg)] = &[
    (
        "vmad.u32.u32.u32 %r9, %r5, %r6, %r7;",
        None,
        None,
        false,
        false,
        Neg::None,
    ),
    (
        "vmad.s32.s32.s32 %r9, %r5.b1, %r6.h1, %r7;",
        Some((8, 1)),
        Some((16, 1)),
        true,
        true,
        Neg::None,
    ),
    (
        "vmad.u32.u32.u32 %r9, %r5.b3, %r6.b0, %r7;",
        Some((8, 3)),
        Some((8, 0)),
        false,
        false,
        Neg::None,
    ),
    (
        "vmad.s32.u32.s32 %r9, -%r5, %r6.h0, %r7;",
        None,
        Some((16, 0)),
        false,
        true,
        Neg::Product,
    ),
    (
        "vmad.u32.s32.u32 %r9, %r5.h1, %r6.b2, -%r7;",
        Some((16, 1)),
        Some((8, 2)),
        true,
        false,
        Neg::C,
    ),
    (
        "vmad.s32.s32.s32 %r9, -%r5.b2, -%r6, %r7;",
        Some((8, 2)),
        None,
        true,
        true,
        Neg::None,
    ),
    (
        "vmad.u32.u32.u32.po %r9, %r5, %r6.h1, %r7;",
        None,
        Some((16, 1)),
        false,
        false,
        Neg::PlusOne,
    ),
    (
        "vmad.s32.s32.s32 %r9, %r5.b0, -%r6.b1, 0;",
        Some((8, 0)),
        Some((8, 1)),
        true,
        true,
        Neg::Product,
    ),
    (
        "vmad.u32.s32.s32 %r9, %r5, %r6, -%r5;",
        None,
        None,
        true,
        true,
        Neg::C,
    ),
];

fn part(x: u32, p: Part, signed: bool) -> i128 {
    match p {
        None if signed => i128::from(x as i32),
        None => i128::from(x),
        Some((bits, k)) => {
            let v = (x >> (bits * k)) & ((1u32 << bits) - 1);
            let top = 1u32 << (bits - 1);
            if signed && v & top != 0 {
                i128::from(v) - (1i128 << bits)
            } else {
                i128::from(v)
            }
        }
    }
}

fn expect(row: usize, a: u32, b: u32, c: u32) -> u32 {
    let (_, pa, pb, sa, sb, neg) = ROWS[row];
    let c = match row {
        7 => 0,
        8 => a,
        _ => c,
    };
    let mut tmp = part(a, pa, sa) * part(b, pb, sb);
    let mut c = i128::from(c);
    let lsb = match neg {
        Neg::None => 0,
        Neg::PlusOne => 1,
        Neg::Product => {
            tmp = !tmp;
            1
        }
        Neg::C => {
            c = !c;
            1
        }
    };
    (tmp + c + lsb) as u32
}

#[test]
fn vmad_low_word_forms_agree_with_the_spec() {
    let mut body = String::new();
    for (i, row) in ROWS.iter().enumerate() {
        body += &format!("\t{}\n\tst.global.u32 [%rd7+{}], %r9;\n", row.0, 4 * i);
    }
    let text = row_kernel(
        "vmad",
        "\t.reg .b32 %r<10>;\n\t.reg .b64 %rd<8>;\n",
        &[("u32", "%r5", 4), ("u32", "%r6", 4)],
        4 * ROWS.len(),
        &format!("\tshl.b32 %r7, %r6, 7;\n\txor.b32 %r7, %r7, %r5;\n{body}"),
    );
    let edges = int_edges(40, 0x0bad_cafe);
    let (a, b) = all_pairs(&edges);
    let got = run_row_pairs("vmad", &text, ROWS.len(), &a, &b);
    let n = a.len();
    for i in 0..n {
        let (x, y) = (a[i], b[i]);
        let c = (y << 7) ^ x;
        for (r, row) in ROWS.iter().enumerate() {
            assert_eq!(
                got[ROWS.len() * i + r],
                expect(r, x, y, c),
                "{}: a = {x:#x}, b = {y:#x}",
                row.0
            );
        }
    }
}
