//! Constant expressions (ptx-isa-1.1 §4.5.4; PTX ISA 8.x §4.6 "Constant Expressions"):
//! integers are 64-bit, signed unless a `U` suffix or an unsigned operand makes them unsigned;
//! floating-point constants and arithmetic are 64-bit double precision.

use diag::Span;
use syntax::ast::{BinaryOp, Expr, FloatValue, ScalarType, UnaryOp};

/// The value of a constant expression.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Value {
    /// 64 bits, interpreted as `i64` unless `unsigned`.
    Int { bits: u64, unsigned: bool },
    /// A floating-point constant. `exact32` keeps the bits of a `0fXXXXXXXX` literal so a NaN
    /// payload reaches an `.f32` operand unchanged.
    Float { value: f64, exact32: Option<u32> },
}

impl Value {
    #[cfg(test)]
    pub fn int(bits: u64, unsigned: bool) -> Value {
        Value::Int { bits, unsigned }
    }
    fn signed(v: i64) -> Value {
        Value::Int {
            bits: v as u64,
            unsigned: false,
        }
    }
    fn float(value: f64) -> Value {
        Value::Float {
            value,
            exact32: None,
        }
    }
    fn as_f64(self) -> f64 {
        match self {
            Value::Int { bits, unsigned } => {
                if unsigned {
                    bits as f64
                } else {
                    bits as i64 as f64
                }
            }
            Value::Float { value, .. } => value,
        }
    }
    fn truthy(self) -> bool {
        match self {
            Value::Int { bits, .. } => bits != 0,
            Value::Float { value, .. } => value != 0.0,
        }
    }
}

/// An evaluation error: where and why.
pub(crate) type EvalError = (Span, String);

/// Evaluates a constant expression. Names are not constants here; the callers that accept
/// symbols (addresses, initializers) split them off before evaluating the rest.
pub(crate) fn eval(expr: &Expr, src: &str) -> Result<Value, EvalError> {
    match expr {
        Expr::Int(i) => Ok(Value::Int {
            bits: i.value,
            unsigned: i.unsigned || i.value > i64::MAX as u64,
        }),
        Expr::Float(f) => Ok(match f.value {
            FloatValue::F32Bits(b) => Value::Float {
                value: f64::from(f32::from_bits(b)),
                exact32: Some(b),
            },
            FloatValue::F64Bits(b) => Value::float(f64::from_bits(b)),
            FloatValue::Decimal(d) => Value::float(d),
        }),
        Expr::Name(n) => Err((
            n.span(),
            format!(
                "`{}` is not a constant",
                syntax::ast::span_text(src, n.span())
            ),
        )),
        Expr::Generic(g) => Err((
            g.span,
            "`generic()` is only allowed in variable initializers".to_string(),
        )),
        Expr::Unary(u) => {
            let v = eval(&u.operand, src)?;
            unary(u.op, v, u.span)
        }
        Expr::Binary(b) => {
            let x = eval(&b.lhs, src)?;
            let y = eval(&b.rhs, src)?;
            binary(b.op, x, y, b.span)
        }
        Expr::Conditional(c) => {
            if eval(&c.cond, src)?.truthy() {
                eval(&c.then, src)
            } else {
                eval(&c.otherwise, src)
            }
        }
        Expr::Cast(c) => cast(c.ty, eval(&c.operand, src)?, c.span),
    }
}

fn unary(op: UnaryOp, v: Value, span: Span) -> Result<Value, EvalError> {
    Ok(match (op, v) {
        (UnaryOp::Plus, v) => v,
        (UnaryOp::Neg, Value::Int { bits, unsigned }) => Value::Int {
            bits: bits.wrapping_neg(),
            unsigned,
        },
        (UnaryOp::Neg, Value::Float { value, .. }) => Value::float(-value),
        (UnaryOp::Not, v) => Value::signed(i64::from(!v.truthy())),
        (UnaryOp::BitNot, Value::Int { bits, unsigned }) => Value::Int {
            bits: !bits,
            unsigned,
        },
        (UnaryOp::BitNot, Value::Float { .. }) => {
            return Err((span, "`~` needs an integer operand".to_string()))
        }
    })
}

fn binary(op: BinaryOp, a: Value, b: Value, span: Span) -> Result<Value, EvalError> {
    use BinaryOp as B;
    if let (
        Value::Int {
            bits: x,
            unsigned: ua,
        },
        Value::Int {
            bits: y,
            unsigned: ub,
        },
    ) = (a, b)
    {
        let unsigned = ua || ub;
        let int = |bits: u64| Value::Int { bits, unsigned };
        let boolean = |c: bool| Value::signed(i64::from(c));
        let (sx, sy) = (x as i64, y as i64);
        return Ok(match op {
            B::Add => int(x.wrapping_add(y)),
            B::Sub => int(x.wrapping_sub(y)),
            B::Mul => int(x.wrapping_mul(y)),
            B::Div | B::Rem if y == 0 => {
                return Err((span, "division by zero in constant expression".to_string()))
            }
            B::Div if unsigned => int(x / y),
            B::Div => int(sx.wrapping_div(sy) as u64),
            B::Rem if unsigned => int(x % y),
            B::Rem => int(sx.wrapping_rem(sy) as u64),
            B::Shl | B::Shr if y >= 64 => {
                return Err((
                    span,
                    format!("shift amount {y} is out of range (0..=63) in constant expression"),
                ))
            }
            B::Shl => int(x << y),
            B::Shr if ua => Value::Int {
                bits: x >> y,
                unsigned,
            },
            B::Shr => int((sx >> y) as u64),
            B::Lt => boolean(if unsigned { x < y } else { sx < sy }),
            B::Gt => boolean(if unsigned { x > y } else { sx > sy }),
            B::Le => boolean(if unsigned { x <= y } else { sx <= sy }),
            B::Ge => boolean(if unsigned { x >= y } else { sx >= sy }),
            B::Eq => boolean(x == y),
            B::Ne => boolean(x != y),
            B::BitAnd => int(x & y),
            B::BitXor => int(x ^ y),
            B::BitOr => int(x | y),
            B::LogAnd => boolean(x != 0 && y != 0),
            B::LogOr => boolean(x != 0 || y != 0),
        });
    }
    let (x, y) = (a.as_f64(), b.as_f64());
    let boolean = |c: bool| Value::signed(i64::from(c));
    Ok(match op {
        B::Add => Value::float(x + y),
        B::Sub => Value::float(x - y),
        B::Mul => Value::float(x * y),
        B::Div => Value::float(x / y),
        B::Lt => boolean(x < y),
        B::Gt => boolean(x > y),
        B::Le => boolean(x <= y),
        B::Ge => boolean(x >= y),
        B::Eq => boolean(x == y),
        B::Ne => boolean(x != y),
        B::LogAnd => boolean(a.truthy() && b.truthy()),
        B::LogOr => boolean(a.truthy() || b.truthy()),
        B::Rem | B::Shl | B::Shr | B::BitAnd | B::BitXor | B::BitOr => {
            return Err((span, format!("`{}` needs integer operands", op.as_str())))
        }
    })
}

/// `(.s64) e`, `(.u32) e`, `(.f32) e`: integers are truncated to the type's size and extended
/// back to 64 bits by its signedness; floats convert toward zero, saturating.
fn cast(ty: ScalarType, v: Value, span: Span) -> Result<Value, EvalError> {
    use ScalarType as T;
    let (bits, signed) = match ty {
        T::S8 => (8, true),
        T::S16 => (16, true),
        T::S32 => (32, true),
        T::S64 => (64, true),
        T::U8 | T::B8 => (8, false),
        T::U16 | T::B16 => (16, false),
        T::U32 | T::B32 => (32, false),
        T::U64 | T::B64 => (64, false),
        T::F32 => return Ok(Value::float(f64::from(v.as_f64() as f32))),
        T::F64 => return Ok(Value::float(v.as_f64())),
        _ => return Err((span, format!("cannot cast a constant to `{}`", ty.as_str()))),
    };
    let raw = match v {
        Value::Int { bits, .. } => bits,
        Value::Float { value, .. } if signed => value as i64 as u64,
        Value::Float { value, .. } => value as u64,
    };
    let shift = 64 - bits;
    let out = if signed {
        (((raw << shift) as i64) >> shift) as u64
    } else {
        (raw << shift) >> shift
    };
    Ok(Value::Int {
        bits: out,
        unsigned: !signed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use diag::SourceFile;

    fn eval_text(text: &str) -> Result<Value, String> {
        let src = format!(".version 7.0\n.target sm_61\n.global .u64 x = {text};\n");
        let file = SourceFile::new("t.ptx", src.clone());
        let (m, d) = syntax::parse_module(&file);
        assert!(d.is_empty(), "{}", diag::render(&file, &d));
        let Some(syntax::ast::Statement::Variable(v)) = m.statements.get(2) else {
            panic!("no variable")
        };
        let Some(syntax::ast::Initializer::Expr(e)) = &v.declarators[0].init else {
            panic!("no initializer")
        };
        eval(e, &src).map_err(|(_, m)| m)
    }

    fn int(text: &str) -> i64 {
        match eval_text(text) {
            Ok(Value::Int { bits, .. }) => bits as i64,
            other => panic!("{text}: {other:?}"),
        }
    }

    /// Expected values computed by Rust's own operators on i64, which have C's precedence
    /// for these operators.
    #[test]
    fn c_precedence_and_signed_arithmetic() {
        assert_eq!(int("1 + 2 * 3"), 1 + 2 * 3);
        assert_eq!(int("(1 + 2) * 3"), 9);
        assert_eq!(int("-7 / 2"), -7 / 2);
        assert_eq!(int("-7 % 3"), -7 % 3);
        assert_eq!(int("1 << 4 + 1"), 1 << (4 + 1));
        assert_eq!(int("-16 >> 2"), -16 >> 2);
        assert_eq!(int("6 & 3 | 8 ^ 1"), (6 & 3) | (8 ^ 1));
        assert_eq!(int("3 < 4 == 1"), 1);
        assert_eq!(int("!0 + ~0"), 1 + !0i64);
        assert_eq!(int("1 ? 5 : 6"), 5);
        assert_eq!(int("0 && 1 || 1"), 1);
    }

    #[test]
    fn unsigned_propagates() {
        // -16 as u64 >> 2 is a logical shift once an operand is unsigned.
        assert_eq!(
            eval_text("(0U + -16) >> 2"),
            Ok(Value::Int {
                bits: (-16i64 as u64) >> 2,
                unsigned: true
            })
        );
        assert_eq!(int("-1 < 0U"), 0); // u64::MAX < 0 is false
    }

    #[test]
    fn casts_truncate_and_extend() {
        assert_eq!(int("(.s8) 255"), -1);
        assert_eq!(int("(.u8) 511"), 255);
        assert_eq!(int("(.s32) 0x80000000"), i64::from(i32::MIN));
    }

    #[test]
    fn errors() {
        assert!(eval_text("1 / 0").unwrap_err().contains("division by zero"));
        assert!(eval_text("1 << 64").unwrap_err().contains("out of range"));
        assert!(eval_text("1.5 & 1")
            .unwrap_err()
            .contains("integer operands"));
    }

    #[test]
    fn floats() {
        match eval_text("1.5 * 2") {
            Ok(Value::Float { value, .. }) => assert_eq!(value, 3.0),
            other => panic!("{other:?}"),
        }
    }
}

/// A name plus a constant byte offset: `var`, `%rd1+8`, `%r-4`, `4+var`, `generic(var)+8`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Symbolic {
    pub name: syntax::ast::Name,
    /// Written as `generic(name)` (initializers only).
    pub generic: bool,
    pub offset: i64,
}

fn contains_name(e: &Expr) -> bool {
    match e {
        Expr::Name(_) | Expr::Generic { .. } => true,
        Expr::Int(_) | Expr::Float(_) => false,
        Expr::Unary(u) => contains_name(&u.operand),
        Expr::Cast(c) => contains_name(&c.operand),
        Expr::Binary(b) => contains_name(&b.lhs) || contains_name(&b.rhs),
        Expr::Conditional(c) => {
            contains_name(&c.cond) || contains_name(&c.then) || contains_name(&c.otherwise)
        }
    }
}

fn offset_of(e: &Expr, src: &str) -> Result<i64, EvalError> {
    match eval(e, src)? {
        Value::Int { bits, .. } => Ok(bits as i64),
        Value::Float { .. } => Err((e.span(), "offset must be an integer".to_string())),
    }
}

/// Splits an address-like expression into an optional name and a constant offset. Exactly
/// one name may appear, only as `name`, `name ± const` or `const + name`.
pub(crate) fn split_symbolic(e: &Expr, src: &str) -> Result<(Option<Symbolic>, i64), EvalError> {
    if !contains_name(e) {
        return offset_of(e, src).map(|o| (None, o));
    }
    let shape_err = || {
        (
            e.span(),
            "an address must be a name plus or minus a constant".to_string(),
        )
    };
    match e {
        Expr::Name(n) => Ok((
            Some(Symbolic {
                name: *n,
                generic: false,
                offset: 0,
            }),
            0,
        )),
        Expr::Generic(g) => Ok((
            Some(Symbolic {
                name: g.name,
                generic: true,
                offset: 0,
            }),
            0,
        )),
        Expr::Binary(b) => {
            let (op, lhs, rhs) = (&b.op, &b.lhs, &b.rhs);
            let (l_named, r_named) = (contains_name(lhs), contains_name(rhs));
            match (op, l_named, r_named) {
                (BinaryOp::Add, true, false) | (BinaryOp::Sub, true, false) => {
                    let (sym, base) = split_symbolic(lhs, src)?;
                    let k = offset_of(rhs, src)?;
                    let off = if *op == BinaryOp::Add {
                        base.wrapping_add(k)
                    } else {
                        base.wrapping_sub(k)
                    };
                    Ok((sym, off))
                }
                (BinaryOp::Add, false, true) => {
                    let (sym, base) = split_symbolic(rhs, src)?;
                    Ok((sym, base.wrapping_add(offset_of(lhs, src)?)))
                }
                _ => Err(shape_err()),
            }
        }
        _ => Err(shape_err()),
    }
}
