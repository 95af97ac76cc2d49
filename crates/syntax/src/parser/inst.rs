//! Instructions and their operands (1.1 §4.3.2, chapter 6, §7.2–7.3).

use super::{PResult, Parser};
use crate::ast::{
    Address, BinaryOp, Expr, Guard, Indexed, Instruction, Name, Operand, OperandList, PredPair,
    VectorOperand,
};
use crate::lexer::TokenKind;
use diag::Span;

impl<'s> Parser<'s> {
    pub(crate) fn parse_instruction(&mut self) -> PResult<Instruction> {
        let start = self.tok.span;
        let guard = if self.at(TokenKind::At) {
            self.bump();
            let negated = self.eat(TokenKind::Bang);
            let t = self.expect(TokenKind::Ident, "a guard predicate after `@`")?;
            let predicate = self.name_of(t);
            Some(Guard {
                negated,
                predicate,
                span: self.span_from(start),
            })
        } else {
            None
        };
        let op_tok = self.expect(TokenKind::Ident, "an instruction opcode")?;
        let op = self.name_of(op_tok);
        let mut modifiers = op.suffix;
        // ptxas accepts modifiers written apart from the opcode (`add .s32`).
        while self.at(TokenKind::Directive) {
            let t = self.bump();
            modifiers = Some(modifiers.map_or(t.span, |m| m.to(t.span)));
        }
        // `call`'s parenthesised operands are always return/argument lists, also when one
        // holds a single constant (`call f, (1.5);`), which elsewhere would be an expression.
        let lists = if self.spells(op.ident.span, "call") {
            Lists::Always
        } else {
            Lists::Guess
        };
        let operands = if self.at(TokenKind::Semi) {
            Vec::new()
        } else {
            self.parse_operand_seq(lists)?
        };
        self.expect(TokenKind::Semi, "`,` or `;` after an operand")?;
        Ok(Instruction {
            guard,
            opcode: op.ident,
            modifiers,
            operands,
            span: self.span_from(start),
        })
    }

    /// `operand {, operand}`. Collected straight into the list: gathering operands on a shared
    /// stack and moving them into an exactly sized list cost more than the list's spare room
    /// (three slots fit nearly every instruction; bodies are parsed and dropped one at a time).
    fn parse_operand_seq(&mut self, allow_list: Lists) -> PResult<Vec<Operand>> {
        let mut out = Vec::with_capacity(3);
        out.push(self.parse_operand(allow_list)?);
        while self.eat(TokenKind::Comma) {
            out.push(self.parse_operand(allow_list)?);
        }
        Ok(out)
    }

    /// One operand; `(…)` lists are allowed only at the top level of an instruction.
    fn parse_operand(&mut self, allow_list: Lists) -> PResult<Operand> {
        let start = self.tok.span;
        match self.tok.kind {
            TokenKind::LBracket => {
                self.bump();
                self.enter()?;
                let expr = self.parse_expr()?;
                let mut rest = Vec::new();
                while self.eat(TokenKind::Comma) {
                    rest.push(self.parse_operand(Lists::No)?);
                }
                self.leave();
                self.expect(TokenKind::RBracket, "`]` closing the address")?;
                Ok(Operand::Address(Address {
                    expr,
                    rest,
                    span: self.span_from(start),
                }))
            }
            TokenKind::LBrace => {
                self.bump();
                self.enter()?;
                let elements = self.parse_operand_seq(Lists::No)?;
                self.leave();
                self.expect(TokenKind::RBrace, "`,` or `}` in a vector operand")?;
                Ok(Operand::Vector(VectorOperand {
                    elements,
                    span: self.span_from(start),
                }))
            }
            TokenKind::LParen if allow_list != Lists::No && self.paren_is_list(allow_list) => {
                self.bump();
                let elements = if self.at(TokenKind::RParen) {
                    Vec::new()
                } else {
                    self.parse_operand_seq(Lists::No)?
                };
                self.expect(TokenKind::RParen, "`,` or `)` in an operand list")?;
                Ok(Operand::List(OperandList {
                    elements,
                    span: self.span_from(start),
                }))
            }
            TokenKind::Ident if self.tok_is("_") => {
                self.bump();
                Ok(Operand::BitBucket(start))
            }
            TokenKind::Ident if !self.tok_is("generic") => {
                // The common case, a lone register or symbol, needs no expression parsing.
                let tok = self.bump();
                let name = self.name_of(tok);
                if self.at(TokenKind::LBracket) {
                    return self.parse_indexed(name, start);
                }
                if !self.at_expr_continuation() {
                    return Ok(Operand::Expr(Expr::Name(name)));
                }
                let expr = self.parse_expr_after(Some(Expr::Name(name)))?;
                Ok(pair_or_expr(expr))
            }
            _ => {
                let expr = self.parse_expr()?;
                Ok(pair_or_expr(expr))
            }
        }
    }

    /// `name[index]` with the cursor on `[`.
    fn parse_indexed(&mut self, base: Name, start: Span) -> PResult<Operand> {
        self.bump();
        let index = self.parse_expr()?;
        self.expect(TokenKind::RBracket, "`]`")?;
        Ok(Operand::Indexed(Indexed {
            base,
            index,
            span: self.span_from(start),
        }))
    }

    /// Decides whether the `(` at the cursor starts an operand list (`call` arguments) or a
    /// parenthesised expression: a list is empty, has a top-level comma, or holds one name —
    /// and is the whole operand (`(x) + 1` and `(p) ? a : b` are expressions).
    /// For `call` ([`Lists::Always`]) any whole parenthesised operand is a list.
    fn paren_is_list(&self, lists: Lists) -> bool {
        let mut lx = self.lexer.clone();
        let mut depth = 1usize;
        let mut count = 0usize;
        let mut first = TokenKind::Eof;
        loop {
            let t = lx.next_token();
            match t.kind {
                TokenKind::Eof | TokenKind::Semi => return false,
                TokenKind::LParen | TokenKind::LBracket | TokenKind::LBrace => depth += 1,
                TokenKind::RParen | TokenKind::RBracket | TokenKind::RBrace => {
                    depth -= 1;
                    if depth == 0 {
                        let whole_operand = matches!(
                            lx.next_token().kind,
                            TokenKind::Comma | TokenKind::Semi | TokenKind::Eof
                        );
                        return whole_operand
                            && (lists == Lists::Always
                                || count == 0
                                || (count == 1 && first == TokenKind::Ident));
                    }
                }
                TokenKind::Comma if depth == 1 => return true,
                _ => {}
            }
            if depth >= 1 {
                if count == 0 {
                    first = t.kind;
                }
                count += 1;
            }
        }
    }
}

/// Whether a `(` operand may start an operand list.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Lists {
    /// Inside brackets, braces and lists.
    No,
    /// At the top level: a list when [`Parser::paren_is_list`] says so.
    Guess,
    /// At the top level of `call`: every whole parenthesised operand.
    Always,
}

/// `p|q` parses as a bitwise-or of two names; as an operand it is a destination pair.
fn pair_or_expr(expr: Expr) -> Operand {
    if let Expr::Binary(b) = &expr {
        if let (BinaryOp::BitOr, Expr::Name(first), Expr::Name(second)) = (b.op, &b.lhs, &b.rhs) {
            return Operand::Pair(PredPair {
                first: *first,
                second: *second,
                span: b.span,
            });
        }
    }
    Operand::Expr(expr)
}
