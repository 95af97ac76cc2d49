//! Helpers shared by the syntax integration tests.
#![allow(dead_code)]

use diag::SourceFile;
use syntax::ast::*;

/// Parses `src`, failing the test with rendered diagnostics if there are any.
pub fn parse_ok(src: &str) -> (Module, SourceFile) {
    let file = SourceFile::new("test.ptx", src);
    let (m, d) = syntax::parse_module(&file);
    assert!(
        d.is_empty(),
        "unexpected diagnostics:\n{}",
        diag::render(&file, &d)
    );
    (m, file)
}

/// Wraps statements in a kernel body and returns the parsed body statements.
pub fn body(stmts: &str) -> (Vec<Statement>, SourceFile) {
    let src = format!(".version 8.4\n.target sm_80\n.entry k()\n{{\n{stmts}\n}}\n");
    let (m, f) = parse_ok(&src);
    let Some(Statement::Function(func)) = m.statements.into_iter().nth(2) else {
        panic!("no function");
    };
    (func.body.expect("body").statements, f)
}

/// The single instruction of a one-instruction body.
pub fn inst(line: &str) -> (Instruction, SourceFile) {
    let (mut stmts, f) = body(line);
    assert_eq!(stmts.len(), 1, "expected one statement");
    match stmts.pop() {
        Some(Statement::Instruction(i)) => (i, f),
        other => panic!("not an instruction: {other:?}"),
    }
}

/// (line, column, message) of every diagnostic.
pub fn errors(src: &str) -> Vec<(usize, usize, String)> {
    let file = SourceFile::new("test.ptx", src);
    let (_, d) = syntax::parse_module(&file);
    d.iter()
        .map(|d| {
            let (l, c) = file.line_col(d.span.start);
            (l, c, d.message.clone())
        })
        .collect()
}

pub fn text(f: &SourceFile, span: diag::Span) -> &str {
    span_text(&f.text, span)
}

/// The value of an operand that is a (possibly negated) integer literal.
pub fn int_value(e: &Expr) -> Option<i128> {
    match e {
        Expr::Int(i) => Some(i128::from(i.value)),
        Expr::Unary(u) if u.op == UnaryOp::Neg => int_value(&u.operand).map(|v| -v),
        _ => None,
    }
}

/// An independent evaluator for integer constant expressions with C semantics on i64
/// (wrapping, as two's complement hardware does); `None` on division by zero.
pub fn eval(e: &Expr) -> Option<i64> {
    Some(match e {
        Expr::Int(i) => i.value as i64,
        Expr::Unary(u) => {
            let v = eval(&u.operand)?;
            match u.op {
                UnaryOp::Neg => v.wrapping_neg(),
                UnaryOp::Plus => v,
                UnaryOp::Not => i64::from(v == 0),
                UnaryOp::BitNot => !v,
            }
        }
        Expr::Binary(e) => {
            let (a, b) = (eval(&e.lhs)?, eval(&e.rhs)?);
            match e.op {
                BinaryOp::Mul => a.wrapping_mul(b),
                BinaryOp::Div => a.checked_div(b)?,
                BinaryOp::Rem => a.checked_rem(b)?,
                BinaryOp::Add => a.wrapping_add(b),
                BinaryOp::Sub => a.wrapping_sub(b),
                BinaryOp::Shl => a.wrapping_shl(b as u32),
                BinaryOp::Shr => a.wrapping_shr(b as u32),
                BinaryOp::Lt => i64::from(a < b),
                BinaryOp::Gt => i64::from(a > b),
                BinaryOp::Le => i64::from(a <= b),
                BinaryOp::Ge => i64::from(a >= b),
                BinaryOp::Eq => i64::from(a == b),
                BinaryOp::Ne => i64::from(a != b),
                BinaryOp::BitAnd => a & b,
                BinaryOp::BitXor => a ^ b,
                BinaryOp::BitOr => a | b,
                BinaryOp::LogAnd => i64::from(a != 0 && b != 0),
                BinaryOp::LogOr => i64::from(a != 0 || b != 0),
            }
        }
        Expr::Conditional(c) => {
            if eval(&c.cond)? != 0 {
                eval(&c.then)?
            } else {
                eval(&c.otherwise)?
            }
        }
        Expr::Cast(c) => eval(&c.operand)?,
        _ => return None,
    })
}

/// Parses a constant expression written as the last operand of `mov`.
pub fn parse_expr(text: &str) -> (Expr, SourceFile) {
    let (i, f) = inst(&format!("mov.s64 %rd1, {text};"));
    match i.operands.into_iter().nth(1) {
        Some(Operand::Expr(e)) => (e, f),
        other => panic!("not an expression operand: {other:?}"),
    }
}
