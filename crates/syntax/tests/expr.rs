//! Immediate constants (spec 1.1 §4.5) and constant expressions (§4.5.4).
// The expected values are deliberately written as constant Rust expressions.
#![allow(
    clippy::precedence,
    clippy::identity_op,
    clippy::erasing_op,
    clippy::nonminimal_bool,
    clippy::overly_complex_bool_expr,
    clippy::bad_bit_mask
)]

mod common;
use common::*;
use proptest::prelude::*;
use syntax::ast::*;

fn int(text: &str) -> (u64, bool) {
    match parse_expr(text).0 {
        Expr::Int(i) => (i.value, i.unsigned),
        other => panic!("{text}: not an integer literal: {other:?}"),
    }
}

fn float(text: &str) -> FloatValue {
    match parse_expr(text).0 {
        Expr::Float(f) => f.value,
        other => panic!("{text}: not a float literal: {other:?}"),
    }
}

#[test]
fn integer_literals_in_every_radix() {
    // §4.5.1: decimal, hexadecimal 0x/0X, octal leading 0, binary 0b/0B.
    assert_eq!(int("42"), (42, false));
    assert_eq!(int("0"), (0, false));
    assert_eq!(int("0x2A"), (0x2a, false));
    assert_eq!(int("0X2a"), (0x2a, false));
    assert_eq!(int("052"), (0o52, false));
    assert_eq!(int("00"), (0, false));
    assert_eq!(int("0b101010"), (0b101010, false));
    assert_eq!(int("0B1"), (1, false));
    assert_eq!(int("0xFFFFFFFFFFFFFFFF"), (u64::MAX, false));
    assert_eq!(int("18446744073709551615"), (u64::MAX, false));
    assert_eq!(int("42U"), (42, true));
    assert_eq!(int("0x10U"), (16, true));
}

#[test]
fn negative_literals_are_unary_minus() {
    let (e, _) = parse_expr("-1");
    assert_eq!(int_value(&e), Some(-1));
    assert!(matches!(e, Expr::Unary(u) if u.op == UnaryOp::Neg));
}

#[test]
fn float_literals_hex_bits_and_decimal() {
    // §6.4.5: `mov.f32 $f3, 0F3f800000; // 1.0`
    assert_eq!(float("0F3f800000"), FloatValue::F32Bits(1.0f32.to_bits()));
    assert_eq!(float("0f3F800000"), FloatValue::F32Bits(0x3F80_0000));
    assert_eq!(
        float("0d3FF0000000000000"),
        FloatValue::F64Bits(1.0f64.to_bits())
    );
    assert_eq!(
        float("0D7FF0000000000000"),
        FloatValue::F64Bits(f64::INFINITY.to_bits())
    );
    assert_eq!(float("1.5"), FloatValue::Decimal(1.5));
    assert_eq!(float(".05"), FloatValue::Decimal(0.05));
    assert_eq!(float("1."), FloatValue::Decimal(1.0));
    assert_eq!(float("1e3"), FloatValue::Decimal(1000.0));
    assert_eq!(float("2.5E-3"), FloatValue::Decimal(0.0025));
    assert_eq!(float("6.02e+23"), FloatValue::Decimal(6.02e23));
}

#[test]
fn malformed_literals_are_errors_with_spans() {
    let src = |lit: &str| {
        format!(".version 8.4\n.target sm_80\n.entry k()\n{{\nmov.u32 %r1, {lit};\n}}\n")
    };
    for (lit, needle) in [
        ("0x", "missing digits"),
        ("0b102", "invalid digit"),
        ("08", "invalid digit"),
        ("12ab", "invalid digit"),
        ("0x10000000000000000", "does not fit in 64 bits"),
        ("18446744073709551616", "does not fit in 64 bits"),
        ("0f3F80000", "exactly 8 hex digits"),
        ("0f3F8000000", "exactly 8 hex digits"),
        ("0d3FF", "exactly 16 hex digits"),
        ("0fXYZWXYZW", "exactly 8 hex digits"),
        ("1.5x", "invalid floating-point literal"),
    ] {
        let e = errors(&src(lit));
        assert_eq!(e.len(), 1, "{lit}: {e:?}");
        assert_eq!((e[0].0, e[0].1), (5, 14), "{lit}: {e:?}");
        assert!(e[0].2.contains(needle), "{lit}: {e:?}");
    }
}

/// Checks a PTX expression against the same expression evaluated by Rust (whose precedence
/// agrees with C for these operators).
macro_rules! same_as_rust {
    ($($e:expr),* $(,)?) => {$(
        let text = stringify!($e);
        let (parsed, _) = parse_expr(text);
        let want: i64 = $e;
        assert_eq!(eval(&parsed), Some(want), "{text}");
    )*};
}

#[test]
fn arithmetic_precedence_matches_c() {
    same_as_rust!(
        1 + 2 * 3,
        (1 + 2) * 3,
        10 - 4 - 3,
        100 / 10 / 5,
        17 % 5 * 3,
        1 << 2 + 1,
        256 >> 2 >> 1,
        6 & 3 | 8 ^ 2,
        6 | 3 & 8 ^ 2,
        1 ^ 3 & 5,
        -3 * -4 + -(2 - 7),
        -(3 - 5) * 2,
        -(1 << 3) - 1,
        ((7 - 2) * (3 + 4)) % 11,
        2 * 3 << 1 & 0xff | 1,
        1 + -2 - -3,
    );
}

#[test]
fn comparison_logical_and_conditional_precedence_matches_c() {
    // Expected values by C's rules (comparison < equality < & < ^ < | < && < || < ?:),
    // written out with Rust booleans.
    let b = |v: bool| i64::from(v);
    let cases: [(&str, i64); 12] = [
        ("1 < 2 == 1", b(b(1 < 2) == 1)),
        ("3 > 2 > 1", b(b(3 > 2) > 1)),
        ("1 + 1 == 2", b(1 + 1 == 2)),
        ("5 >= 5 != 0", b(b(5 >= 5) != 0)),
        ("1 & 2 == 2", 1 & b(2 == 2)),
        ("0 || 1 && 0", b(false || (true && false))),
        ("1 || 0 && 0", b(true || (false && false))),
        ("2 | 1 && 4 & 4", b((2 | 1) != 0 && (4 & 4) != 0)),
        ("1 ? 2 : 3 ? 4 : 5", 2),
        ("0 ? 2 : 0 ? 4 : 5", 5),
        ("0 < 1 ? 10 + 1 : 20", 11),
        ("!1 + 1", b(1 == 0) + 1),
    ];
    for (text, want) in cases {
        let (e, _) = parse_expr(text);
        assert_eq!(eval(&e), Some(want), "{text}");
    }
}

#[test]
fn casts_and_bit_not() {
    let (e, _) = parse_expr("(.s64) ~0 + 1");
    let Expr::Binary(b) = &e else { panic!("{e:?}") };
    assert!(matches!(&b.lhs, Expr::Cast(c) if c.ty == ScalarType::S64));
    assert_eq!(eval(&e), Some(0));
    let (e, _) = parse_expr("(.u32)(3 * 4)");
    assert_eq!(eval(&e), Some(12));
}

// --- property tests -----------------------------------------------------------------------

/// C precedence of binary operators as given by K&R/ISO C, independent of the crate's table.
fn c_prec(op: &str) -> u8 {
    match op {
        "*" | "/" | "%" => 10,
        "+" | "-" => 9,
        "<<" | ">>" => 8,
        "<" | ">" | "<=" | ">=" => 7,
        "==" | "!=" => 6,
        "&" => 5,
        "^" => 4,
        "|" => 3,
        "&&" => 2,
        "||" => 1,
        _ => unreachable!(),
    }
}

fn c_apply(op: &str, a: i64, b: i64) -> Option<i64> {
    let t = |v: bool| i64::from(v);
    Some(match op {
        "*" => a.wrapping_mul(b),
        "/" => a.checked_div(b)?,
        "%" => a.checked_rem(b)?,
        "+" => a.wrapping_add(b),
        "-" => a.wrapping_sub(b),
        "<<" => a.wrapping_shl(b as u32),
        ">>" => a.wrapping_shr(b as u32),
        "<" => t(a < b),
        ">" => t(a > b),
        "<=" => t(a <= b),
        ">=" => t(a >= b),
        "==" => t(a == b),
        "!=" => t(a != b),
        "&" => a & b,
        "^" => a ^ b,
        "|" => a | b,
        "&&" => t(a != 0 && b != 0),
        "||" => t(a != 0 || b != 0),
        _ => unreachable!(),
    })
}

/// Shunting-yard evaluation of a flat `v0 op v1 op v2 …` sequence (all left-associative).
fn shunting_yard(values: &[i64], ops: &[&str]) -> Option<i64> {
    let mut out: Vec<i64> = vec![values[0]];
    let mut stack: Vec<&str> = Vec::new();
    let reduce = |out: &mut Vec<i64>, op: &str| -> Option<()> {
        let b = out.pop()?;
        let a = out.pop()?;
        out.push(c_apply(op, a, b)?);
        Some(())
    };
    for (op, v) in ops.iter().zip(&values[1..]) {
        while let Some(top) = stack.last() {
            if c_prec(top) >= c_prec(op) {
                let top = stack.pop()?;
                reduce(&mut out, top)?;
            } else {
                break;
            }
        }
        stack.push(op);
        out.push(*v);
    }
    while let Some(top) = stack.pop() {
        reduce(&mut out, top)?;
    }
    out.pop()
}

const OPS: [&str; 18] = [
    "*", "/", "%", "+", "-", "<<", ">>", "<", ">", "<=", ">=", "==", "!=", "&", "^", "|", "&&",
    "||",
];

proptest! {
    #[test]
    fn flat_operator_chains_follow_c_precedence(
        values in prop::collection::vec(0i64..20, 1..8),
        op_idx in prop::collection::vec(0usize..OPS.len(), 7),
    ) {
        let ops: Vec<&str> = op_idx.iter().take(values.len() - 1).map(|&i| OPS[i]).collect();
        let mut text = values[0].to_string();
        for (op, v) in ops.iter().zip(&values[1..]) {
            text.push_str(&format!(" {op} {v}"));
        }
        let (e, _) = parse_expr(&text);
        prop_assert_eq!(eval(&e), shunting_yard(&values, &ops), "{}", text);
    }
}
