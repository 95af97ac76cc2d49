//! `ptxvm sass explain`: which bits of an instruction word mean what. The expected bit
//! positions are Mesa's (`emitSET`: `.X` is bit 6, the comparison starts at bit 55, the
//! predicate result at 17) and asfermi's (LEPC_Test.md's word for `LEPC R0`).

mod common;
use common::ptxvm;

use std::process::Output;

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The line of `text` for the field that starts with `bits` and names `what`.
fn field<'a>(text: &'a str, bits: &str, what: &str) -> &'a str {
    text.lines()
        .find(|l| {
            let mut w = l.split_whitespace();
            w.next() == Some("bits") && w.next() == Some(bits) && l.contains(what)
        })
        .unwrap_or_else(|| panic!("no `bits {bits}` line for {what} in\n{text}"))
}

#[test]
fn explains_each_field_with_bits_raw_value_and_meaning() {
    // ISETP.LT.X.AND P2, pt, R3, R5, pt; (Mesa emitSET: code[0] 0x1435dc63, code[1] 0x188e0000).
    let o = ptxvm(&["sass", "explain", "0x1435dc63188e0000"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.starts_with("0x1435dc63188e0000  ISETP.LT.X.AND P2, pt, R3, R5, pt;\n"),
        "{text}"
    );
    let x = field(&text, "6", "extended");
    assert!(x.contains("raw 0x1") && x.ends_with(".X"), "{x}");
    let cmp = field(&text, "55-57", "comparison");
    assert!(cmp.contains("raw 0x1") && cmp.ends_with(".LT"), "{cmp}");
    let p = field(&text, "17-19", "operand 0");
    assert!(p.contains("raw 0x2") && p.ends_with("P2"), "{p}");
    let g = field(&text, "10-13", "guard");
    assert!(g.contains("raw 0x7") && g.ends_with("always"), "{g}");

    // Several words, `/*…*/` as in a listing; the second is at --addr + 8.
    let o = ptxvm(&[
        "sass",
        "explain",
        "--addr",
        "0x100",
        "/*0x00001c0444000000*/",
        "0x00001de740000040",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("0x00001c0444000000  LEPC R0;"), "{text}");
    let r = field(&text, "14-19", "operand 0: R0");
    assert!(r.contains("raw 0x0"), "{r}");
    // BRA at 0x108: Mesa's emitFlow puts `pcRel >> 6` in code[1] (here 0x40), so the offset
    // from the next instruction is 0x40 << 6 = 0x1000 and the target 0x108 + 8 + 0x1000.
    assert!(text.contains("0x00001de740000040  BRA 0x1110;"), "{text}");
}

#[test]
fn bad_words_are_clear_errors() {
    let o = ptxvm(&["sass", "explain", "0x12345678zz"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("is not an instruction word"),
        "{}",
        stderr(&o)
    );
    let o = ptxvm(&["sass", "explain", "0x1234567812345678901"]);
    assert_eq!(o.status.code(), Some(2));
    // All ones: no row has that opcode.
    let o = ptxvm(&["sass", "explain", "0xffffffffffffffff"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("does not decode: unknown opcode"),
        "{}",
        stderr(&o)
    );
    let o = ptxvm(&["sass", "explain"]);
    assert_eq!(o.status.code(), Some(2));
}
