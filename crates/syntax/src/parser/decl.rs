//! Declarations: variables and parameters, functions, call prototypes, structs and unions.

use super::{shorten, Context, PResult, Parser};
use crate::ast::{
    AggregateKind, BaseType, Block, BranchTargets, CallPrototype, CallTargets, Declarator, Expr,
    FieldDecl, Function, FunctionKind, Ident, Initializer, Linkage, ParamList, PtrAttribute,
    ScalarType, StateSpace, StructDecl, StructField, TypeSpec, VariableDecl, VectorWidth,
};
use crate::lexer::TokenKind;
use diag::Span;

impl<'s> Parser<'s> {
    /// `[.align N] [.vN] type [.ptr …]` in any order, then declarators. In `param` mode there
    /// is exactly one declarator and no terminating `;`.
    pub(crate) fn parse_variable_decl(
        &mut self,
        linkage: Option<Linkage>,
        param: bool,
    ) -> PResult<VariableDecl> {
        let space_tok = self.tok;
        let Some(space) = (if space_tok.kind == TokenKind::Directive {
            StateSpace::from_directive(self.tok_text())
        } else {
            None
        }) else {
            return Err(self.unexpected("a state space (`.reg`, `.param`, `.global`, …)"));
        };
        self.bump();
        let start = linkage.map_or(space_tok.span, |l| l.span);
        let binding = if self.at(TokenKind::LBracket) {
            self.bump();
            let e = self.parse_expr()?;
            self.expect(TokenKind::RBracket, "`]`")?;
            Some(e)
        } else {
            None
        };
        let mut attributes = Vec::new();
        let mut align = None;
        let mut vector: Option<(VectorWidth, Span)> = None;
        let mut scalar: Option<(ScalarType, Span)> = None;
        let mut ptr = None;
        while self.at(TokenKind::Directive) {
            let text = self.tok_text();
            let span = self.tok.span;
            if text == ".attribute" {
                self.bump();
                self.expect(TokenKind::LParen, "`(` after `.attribute`")?;
                loop {
                    let t = self.expect(TokenKind::Directive, "an attribute such as `.managed`")?;
                    attributes.push(t.span);
                    if !self.eat(TokenKind::Comma) {
                        break;
                    }
                }
                self.expect(TokenKind::RParen, "`)`")?;
            } else if text == ".align" {
                self.bump();
                if align.is_some() {
                    return Err(self.error_at(span, "duplicate `.align`"));
                }
                align = Some(self.parse_unary()?);
            } else if text == ".ptr" {
                ptr = Some(self.parse_ptr_attribute()?);
            } else if let Some(v) = VectorWidth::from_directive(text) {
                self.bump();
                if vector.is_some() {
                    return Err(self.error_at(span, "duplicate vector width"));
                }
                vector = Some((v, span));
            } else if let Some(t) = ScalarType::from_directive(text) {
                self.bump();
                if scalar.is_some() {
                    return Err(self.error_at(span, "a declaration has one type"));
                }
                scalar = Some((t, span));
            } else {
                return Err(self.error_at(
                    span,
                    format!(
                        "unknown type or qualifier `{}` in a declaration",
                        shorten(text)
                    ),
                ));
            }
        }
        let ty = match scalar {
            Some((t, span)) => Some(TypeSpec {
                vector: vector.map(|v| v.0),
                base: BaseType::Scalar(t),
                span: vector.map_or(span, |v| v.1.to(span)),
            }),
            None if self.at(TokenKind::Ident) && self.peek().kind == TokenKind::Ident => {
                // `.global somestruct p;` — a struct/union type name.
                let id = self.expect_plain_ident("a type name")?;
                Some(TypeSpec {
                    vector: vector.map(|v| v.0),
                    base: BaseType::Named(id),
                    span: vector.map_or(id.span, |v| v.1.to(id.span)),
                })
            }
            None => {
                if let Some((_, vspan)) = vector {
                    return Err(self.error_at(vspan, "a vector width needs an element type"));
                }
                None
            }
        };
        let sreg = space == StateSpace::Sreg;
        let mut declarators = vec![self.parse_declarator(sreg)?];
        if !param {
            while self.eat(TokenKind::Comma) {
                declarators.push(self.parse_declarator(sreg)?);
            }
            self.expect(TokenKind::Semi, "`,` or `;` after a declaration")?;
        }
        Ok(VariableDecl {
            linkage,
            space,
            space_span: space_tok.span,
            binding,
            attributes,
            align,
            ty,
            ptr,
            declarators,
            span: self.span_from(start),
        })
    }

    fn parse_ptr_attribute(&mut self) -> PResult<PtrAttribute> {
        let start = self.bump().span;
        let mut space = None;
        if self.at(TokenKind::Directive) {
            if let Some(s) = StateSpace::from_directive(self.tok_text()) {
                self.bump();
                space = Some(s);
            }
        }
        let mut align = None;
        if self.at_directive(".align") {
            self.bump();
            align = Some(self.parse_unary()?);
        }
        Ok(PtrAttribute {
            space,
            align,
            span: self.span_from(start),
        })
    }

    fn parse_dims(&mut self) -> PResult<Vec<Option<Expr>>> {
        let mut dims = Vec::new();
        while self.eat(TokenKind::LBracket) {
            if self.eat(TokenKind::RBracket) {
                dims.push(None);
            } else {
                dims.push(Some(self.parse_expr()?));
                self.expect(TokenKind::RBracket, "`]`")?;
            }
        }
        Ok(dims)
    }

    /// One declarator. In a `.sreg` declaration the name may carry a component suffix, as
    /// ptx-isa-1.1 chapter 8 writes them (`.sreg .u16 %tid.0, %tid.1, %tid.2;`): the name is
    /// then the whole dotted text.
    fn parse_declarator(&mut self, sreg: bool) -> PResult<Declarator> {
        let name = if sreg {
            let tok = self.expect(TokenKind::Ident, "a special register name")?;
            Ident {
                span: self.name_of(tok).span(),
            }
        } else {
            self.expect_plain_ident("a variable name")?
        };
        let range = if self.eat(TokenKind::Lt) {
            let e = self.parse_unary()?;
            self.expect(TokenKind::Gt, "`>`")?;
            Some(e)
        } else {
            None
        };
        let dims = self.parse_dims()?;
        let init = if self.eat(TokenKind::Assign) {
            Some(self.parse_initializer()?)
        } else {
            None
        };
        Ok(Declarator {
            name,
            range,
            dims,
            init,
            span: self.span_from(name.span),
        })
    }

    fn parse_initializer(&mut self) -> PResult<Initializer> {
        if !self.at(TokenKind::LBrace) {
            return Ok(Initializer::Expr(self.parse_expr()?));
        }
        let open = self.bump().span;
        self.enter()?;
        let mut items = Vec::new();
        if !self.at(TokenKind::RBrace) {
            items.push(self.parse_initializer()?);
            while self.eat(TokenKind::Comma) {
                items.push(self.parse_initializer()?);
            }
        }
        self.leave();
        self.expect(TokenKind::RBrace, "`,` or `}` in an initializer list")?;
        Ok(Initializer::List(items, self.span_from(open)))
    }

    fn parse_param_list(&mut self) -> PResult<ParamList> {
        let open = self.expect(TokenKind::LParen, "`(`")?.span;
        // Collected on a reusable stack and then moved into an exactly sized `Vec`: kernels
        // have many parameters, and growing a `Vec` of these large declarations copied them.
        let start = self.stacks.params.len();
        let r = self.push_params();
        let params: Vec<_> = self.stacks.params.drain(start..).collect();
        r?;
        self.expect(TokenKind::RParen, "`,` or `)` in a parameter list")?;
        Ok(ParamList {
            params,
            span: self.span_from(open),
        })
    }

    fn push_params(&mut self) -> PResult<()> {
        if self.at(TokenKind::RParen) {
            return Ok(());
        }
        let p = self.parse_variable_decl(None, true)?;
        self.stacks.params.push(p);
        while self.eat(TokenKind::Comma) {
            let p = self.parse_variable_decl(None, true)?;
            self.stacks.params.push(p);
        }
        Ok(())
    }

    pub(crate) fn parse_function(&mut self, linkage: Option<Linkage>) -> PResult<Function> {
        let kind_tok = self.bump();
        let kind = if self.text(kind_tok.span) == ".entry" {
            FunctionKind::Entry
        } else {
            FunctionKind::Func
        };
        let start = linkage.map_or(kind_tok.span, |l| l.span);
        let returns = if kind == FunctionKind::Func && self.at(TokenKind::LParen) {
            Some(self.parse_param_list()?)
        } else {
            None
        };
        let name = self.expect_plain_ident("a function name")?;
        let cta_dims = self.parse_dims()?;
        let params = if self.at(TokenKind::LParen) {
            Some(self.parse_param_list()?)
        } else {
            None
        };
        let attributes = self.parse_function_attributes()?;
        let body = match self.tok.kind {
            TokenKind::LBrace if self.defer_bodies => {
                let open = self.tok.span.start as usize;
                match crate::lexer::skip_block(self.src.as_bytes(), open) {
                    Some(end) => {
                        self.skip_to(end);
                        Some(Block {
                            statements: Vec::new(),
                            span: Span::from_range(open..end),
                        })
                    }
                    None => Some(self.parse_block(Context::Module)?),
                }
            }
            TokenKind::LBrace => Some(self.parse_block(Context::Module)?),
            TokenKind::Semi => {
                self.bump();
                None
            }
            _ => return Err(self.unexpected("`{` or `;` after a function header")),
        };
        Ok(Function {
            linkage,
            kind,
            kind_span: kind_tok.span,
            name,
            returns,
            params,
            cta_dims,
            attributes,
            body,
            span: self.span_from(start),
        })
    }

    pub(crate) fn parse_branch_targets(&mut self, name: Ident) -> PResult<BranchTargets> {
        self.bump();
        let mut labels = vec![self.expect_plain_ident("a label")?];
        while self.eat(TokenKind::Comma) {
            labels.push(self.expect_plain_ident("a label")?);
        }
        self.expect(TokenKind::Semi, "`;` after `.branchtargets`")?;
        Ok(BranchTargets {
            name,
            labels,
            span: self.span_from(name.span),
        })
    }

    /// `name: .calltargets f1, f2, …;` (the name was read by the caller).
    pub(crate) fn parse_call_targets(&mut self, name: Ident) -> PResult<CallTargets> {
        self.bump();
        let mut funcs = vec![self.expect_plain_ident("a function name")?];
        while self.eat(TokenKind::Comma) {
            funcs.push(self.expect_plain_ident("a function name")?);
        }
        self.expect(TokenKind::Semi, "`;` after `.calltargets`")?;
        Ok(CallTargets {
            name,
            funcs,
            span: self.span_from(name.span),
        })
    }

    pub(crate) fn parse_call_prototype(&mut self, name: Ident) -> PResult<CallPrototype> {
        self.bump();
        let returns = if self.at(TokenKind::LParen) {
            Some(self.parse_param_list()?)
        } else {
            None
        };
        let placeholder = self.expect_plain_ident("`_` in place of the function name")?;
        let params = if self.at(TokenKind::LParen) {
            Some(self.parse_param_list()?)
        } else {
            None
        };
        let attributes = self.parse_function_attributes()?;
        self.expect(TokenKind::Semi, "`;` after `.callprototype`")?;
        Ok(CallPrototype {
            name,
            returns,
            placeholder,
            params,
            attributes,
            span: self.span_from(name.span),
        })
    }

    /// `.struct [name] { fields }` (the trailing `;` is the caller's business).
    pub(crate) fn parse_struct(&mut self) -> PResult<StructDecl> {
        let kw = self.bump();
        let kind = if self.text(kw.span) == ".union" {
            AggregateKind::Union
        } else {
            AggregateKind::Struct
        };
        let name = if self.at(TokenKind::Ident) {
            Some(self.expect_plain_ident("a struct name")?)
        } else {
            None
        };
        self.expect(TokenKind::LBrace, "`{` starting the members")?;
        self.enter()?;
        let mut fields = Vec::new();
        while !self.at(TokenKind::RBrace) {
            if self.at_directive(".struct") || self.at_directive(".union") {
                fields.push(StructField::Nested(self.parse_struct()?));
                self.eat(TokenKind::Semi);
                continue;
            }
            fields.push(StructField::Field(self.parse_field()?));
            if !self.eat(TokenKind::Semi) && !self.at(TokenKind::RBrace) {
                return Err(self.unexpected("`;` or `}` after a member"));
            }
        }
        self.leave();
        self.bump();
        Ok(StructDecl {
            kind,
            name,
            fields,
            span: self.span_from(kw.span),
        })
    }

    fn parse_field(&mut self) -> PResult<FieldDecl> {
        let start = self.tok.span;
        let mut vector = None;
        if self.at(TokenKind::Directive) {
            if let Some(v) = VectorWidth::from_directive(self.tok_text()) {
                self.bump();
                vector = Some(v);
            }
        }
        let base = match self.tok.kind {
            TokenKind::Directive => match ScalarType::from_directive(self.tok_text()) {
                Some(t) => {
                    self.bump();
                    BaseType::Scalar(t)
                }
                None => return Err(self.unexpected("a member type")),
            },
            TokenKind::Ident => BaseType::Named(self.expect_plain_ident("a member type")?),
            _ => return Err(self.unexpected("a member type")),
        };
        let ty = TypeSpec {
            vector,
            base,
            span: self.span_from(start),
        };
        let type_dims = self.parse_dims()?;
        let name = self.expect_plain_ident("a member name")?;
        let dims = self.parse_dims()?;
        Ok(FieldDecl {
            ty,
            type_dims,
            name,
            dims,
            span: self.span_from(start),
        })
    }
}
