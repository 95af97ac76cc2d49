//! Constant expressions (C operators and precedence, 1.1 §4.5.4) and literals (§4.5).

use super::{shorten, PResult, Parser};
use crate::ast::{
    BinaryExpr, BinaryOp, CastExpr, ConditionalExpr, Expr, FloatLit, FloatValue, GenericExpr,
    IntLit, Name, ScalarType, UnaryExpr, UnaryOp,
};
use crate::lexer::TokenKind;
use diag::Span;

fn binary_op(kind: TokenKind) -> Option<BinaryOp> {
    use TokenKind as T;
    Some(match kind {
        T::Star => BinaryOp::Mul,
        T::Slash => BinaryOp::Div,
        T::Percent => BinaryOp::Rem,
        T::Plus => BinaryOp::Add,
        T::Minus => BinaryOp::Sub,
        T::Shl => BinaryOp::Shl,
        T::Shr => BinaryOp::Shr,
        T::Lt => BinaryOp::Lt,
        T::Gt => BinaryOp::Gt,
        T::Le => BinaryOp::Le,
        T::Ge => BinaryOp::Ge,
        T::EqEq => BinaryOp::Eq,
        T::NotEq => BinaryOp::Ne,
        T::Amp => BinaryOp::BitAnd,
        T::Caret => BinaryOp::BitXor,
        T::Pipe => BinaryOp::BitOr,
        T::AmpAmp => BinaryOp::LogAnd,
        T::PipePipe => BinaryOp::LogOr,
        _ => return None,
    })
}

/// A literal's value, or why the text is not a valid literal.
pub(crate) enum Literal {
    Int { value: u64, unsigned: bool },
    Float(FloatValue),
}

fn digits_value(digits: &str, radix: u32) -> Result<u64, &'static str> {
    if digits.is_empty() {
        return Err("missing digits");
    }
    let mut v: u64 = 0;
    for c in digits.chars() {
        let d = c.to_digit(radix).ok_or("invalid digit")?;
        v = v
            .checked_mul(u64::from(radix))
            .and_then(|v| v.checked_add(u64::from(d)))
            .ok_or("does not fit in 64 bits")?;
    }
    Ok(v)
}

/// Decodes an `Int`-token text (1.1 §4.5.1/§4.5.2): decimal, `0x`, octal `0…`, `0b`, an
/// optional `U` suffix, and the exact-bits float forms `0f` + 8 and `0d` + 16 hex digits.
pub(crate) fn decode_int_token(text: &str) -> Result<Literal, String> {
    let bytes = text.as_bytes();
    let prefix = match bytes {
        [b'0', p, ..] => Some(p.to_ascii_lowercase()),
        _ => None,
    };
    let rest = text.get(2..).unwrap_or("");
    if let Some(p @ (b'f' | b'd')) = prefix {
        let (digits, precision) = if p == b'f' {
            (8, "single")
        } else {
            (16, "double")
        };
        if rest.len() != digits || !rest.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(format!(
                "invalid {precision}-precision literal `{}`: `0{}` takes exactly {digits} hex digits",
                shorten(text),
                p as char
            ));
        }
        let v = digits_value(rest, 16).map_err(|e| e.to_string())?;
        return Ok(Literal::Float(if p == b'f' {
            FloatValue::F32Bits(v as u32)
        } else {
            FloatValue::F64Bits(v)
        }));
    }
    let (body, unsigned) = match text.strip_suffix('U') {
        Some(b) => (b, true),
        None => (text, false),
    };
    let (digits, radix, kind) = match prefix {
        Some(b'x') => (body.get(2..).unwrap_or(""), 16, "hexadecimal"),
        Some(b'b') => (body.get(2..).unwrap_or(""), 2, "binary"),
        Some(_) if body.len() > 1 => (body.get(1..).unwrap_or(""), 8, "octal"),
        _ => (body, 10, "decimal"),
    };
    digits_value(digits, radix)
        .map(|value| Literal::Int { value, unsigned })
        .map_err(|e| format!("invalid {kind} integer literal `{}`: {e}", shorten(text)))
}

impl<'s> Parser<'s> {
    /// A full expression including `?:`.
    pub(crate) fn parse_expr(&mut self) -> PResult<Expr> {
        // Most expressions are a lone name or number: read it directly and only enter the
        // precedence machinery when an operator follows.
        let first = match self.tok.kind {
            TokenKind::Ident if !self.tok_is("generic") => {
                let tok = self.bump();
                Some(Expr::Name(self.name_of(tok)))
            }
            TokenKind::Int => {
                let tok = self.bump();
                Some(self.literal_from_int_token(tok.span)?)
            }
            _ => None,
        };
        match first {
            Some(e) if !self.at_expr_continuation() => Ok(e),
            first => self.parse_expr_after(first),
        }
    }

    /// A full expression whose first operand (`first`) the caller already parsed — the
    /// operand parser reads a name first so that a lone register skips the expression
    /// machinery.
    pub(crate) fn parse_expr_after(&mut self, first: Option<Expr>) -> PResult<Expr> {
        self.enter()?;
        let r = self.parse_conditional(first);
        self.leave();
        r
    }

    /// Can the current token continue an expression (binary operator or `?`)?
    pub(crate) fn at_expr_continuation(&self) -> bool {
        self.tok.kind == TokenKind::Question || binary_op(self.tok.kind).is_some()
    }

    fn parse_conditional(&mut self, first: Option<Expr>) -> PResult<Expr> {
        let cond = self.parse_binary(1, first)?;
        if !self.eat(TokenKind::Question) {
            return Ok(cond);
        }
        let then = self.parse_expr()?;
        self.expect(TokenKind::Colon, "`:` in a conditional expression")?;
        let otherwise = self.parse_expr()?;
        let span = cond.span().to(otherwise.span());
        Ok(Expr::Conditional(Box::new(ConditionalExpr {
            cond,
            then,
            otherwise,
            span,
        })))
    }

    /// Precedence climbing over left-associative binary operators. Each operator of a chain
    /// counts as a nesting level: `1+1+…+1` builds a left-deep tree that the printer and the
    /// checker walk recursively.
    fn parse_binary(&mut self, min_prec: u8, first: Option<Expr>) -> PResult<Expr> {
        let depth = self.depth;
        let r = self.parse_binary_chain(min_prec, first);
        self.depth = depth;
        r
    }

    fn parse_binary_chain(&mut self, min_prec: u8, first: Option<Expr>) -> PResult<Expr> {
        let mut lhs = match first {
            Some(e) => e,
            None => self.parse_unary()?,
        };
        while let Some(op) = binary_op(self.tok.kind) {
            let prec = op.precedence();
            if prec < min_prec {
                break;
            }
            self.enter()?;
            self.bump();
            let rhs = self.parse_binary(prec + 1, None)?;
            let span = lhs.span().to(rhs.span());
            lhs = Expr::Binary(Box::new(BinaryExpr { op, lhs, rhs, span }));
        }
        Ok(lhs)
    }

    /// Unary operators, casts, parentheses and atoms.
    pub(crate) fn parse_unary(&mut self) -> PResult<Expr> {
        self.enter()?;
        let r = self.parse_unary_inner();
        self.leave();
        r
    }

    /// An expression in a data directive, where a section name (`.debug_abbrev`) is a value.
    pub(crate) fn parse_data_value(&mut self) -> PResult<Expr> {
        if self.at(TokenKind::Directive) {
            let tok = self.bump();
            return Ok(Expr::Name(Name {
                ident: crate::ast::Ident { span: tok.span },
                suffix: None,
            }));
        }
        self.parse_expr()
    }

    fn parse_unary_inner(&mut self) -> PResult<Expr> {
        let start = self.tok.span;
        let op = match self.tok.kind {
            TokenKind::Minus => Some(UnaryOp::Neg),
            TokenKind::Plus => Some(UnaryOp::Plus),
            TokenKind::Bang => Some(UnaryOp::Not),
            TokenKind::Tilde => Some(UnaryOp::BitNot),
            _ => None,
        };
        if let Some(op) = op {
            self.bump();
            let operand = self.parse_unary()?;
            let span = start.to(operand.span());
            return Ok(Expr::Unary(Box::new(UnaryExpr { op, operand, span })));
        }
        match self.tok.kind {
            TokenKind::LParen => {
                let peek = self.peek();
                let cast = (peek.kind == TokenKind::Directive)
                    .then(|| ScalarType::from_directive(self.text(peek.span)))
                    .flatten();
                self.bump();
                if let Some(ty) = cast {
                    self.bump();
                    self.expect(TokenKind::RParen, "`)` after the cast type")?;
                    let operand = self.parse_unary()?;
                    let span = start.to(operand.span());
                    return Ok(Expr::Cast(Box::new(CastExpr { ty, operand, span })));
                }
                let e = self.parse_expr()?;
                self.expect(TokenKind::RParen, "`)`")?;
                Ok(e)
            }
            TokenKind::Int => {
                let tok = self.bump();
                self.literal_from_int_token(tok.span)
            }
            TokenKind::Float => {
                let tok = self.bump();
                let text = self.text(tok.span);
                match text.parse::<f64>() {
                    Ok(v) => Ok(Expr::Float(FloatLit {
                        value: FloatValue::Decimal(v),
                        span: tok.span,
                    })),
                    Err(_) => Err(self.error_at(
                        tok.span,
                        format!("invalid floating-point literal `{}`", shorten(text)),
                    )),
                }
            }
            TokenKind::Ident => {
                if self.tok_is("generic") && self.peek().kind == TokenKind::LParen {
                    self.bump();
                    self.bump();
                    let t = self.expect(TokenKind::Ident, "a variable name")?;
                    let name = self.name_of(t);
                    self.expect(TokenKind::RParen, "`)`")?;
                    return Ok(Expr::Generic(Box::new(GenericExpr {
                        name,
                        span: self.span_from(start),
                    })));
                }
                let tok = self.bump();
                Ok(Expr::Name(self.name_of(tok)))
            }
            _ => Err(self.unexpected("an expression")),
        }
    }

    fn literal_from_int_token(&mut self, span: Span) -> PResult<Expr> {
        match decode_int_token(self.text(span)) {
            Ok(Literal::Int { value, unsigned }) => Ok(Expr::Int(IntLit {
                value,
                unsigned,
                span,
            })),
            Ok(Literal::Float(value)) => Ok(Expr::Float(FloatLit { value, span })),
            Err(msg) => Err(self.error_at(span, msg)),
        }
    }

    /// A plain integer literal (directive arguments such as `.address_size 64`).
    pub(crate) fn parse_int_literal(&mut self, what: &str) -> PResult<IntLit> {
        if !self.at(TokenKind::Int) {
            return Err(self.unexpected(what));
        }
        let span = self.bump().span;
        match self.literal_from_int_token(span)? {
            Expr::Int(i) => Ok(i),
            _ => Err(self.error_at(span, format!("expected {what}, found a float literal"))),
        }
    }
}
