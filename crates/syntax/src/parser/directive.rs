//! Module-level and debugging directives: `.version`, `.target`, `.address_size`, linkage,
//! `.pragma`, `.file`, `.loc`, `.section`, data directives, performance directives.

use super::{shorten, Context, PResult, Parser};
use crate::ast::{
    AddressSize, ClusterDirective, ClusterKind, Data, Expr, FileDirective, FunctionAttribute,
    Linkage, LinkageKind, LinkageName, Loc, PerformanceDirective, PerformanceKind, Pragma,
    ScalarType, Section, StateSpace, Statement, StringLit, Target, VectorWidth, Version,
};
use crate::lexer::TokenKind;
use diag::Diagnostic;

/// Directives that emit raw data: `.byte` (1.1 §9.2) anywhere, the rest inside sections.
const DATA_DIRECTIVES: [&str; 9] = [
    ".byte", ".b8", ".b16", ".b32", ".b64", ".2byte", ".4byte", ".8byte", ".quad",
];

fn cluster_kind(s: &str) -> Option<ClusterKind> {
    Some(match s {
        ".explicitcluster" => ClusterKind::Explicitcluster,
        ".reqnctapercluster" => ClusterKind::Reqnctapercluster,
        ".maxclusterrank" => ClusterKind::Maxclusterrank,
        _ => return None,
    })
}

pub(crate) fn performance_kind(s: &str) -> Option<PerformanceKind> {
    Some(match s {
        ".maxntid" => PerformanceKind::Maxntid,
        ".reqntid" => PerformanceKind::Reqntid,
        ".minnctapersm" => PerformanceKind::Minnctapersm,
        ".maxnreg" => PerformanceKind::Maxnreg,
        ".maxnctapersm" => PerformanceKind::Maxnctapersm,
        ".noreturn" => PerformanceKind::Noreturn,
        _ => return None,
    })
}

fn linkage_kind(s: &str) -> Option<LinkageKind> {
    Some(match s {
        ".extern" => LinkageKind::Extern,
        ".visible" => LinkageKind::Visible,
        ".weak" => LinkageKind::Weak,
        ".common" => LinkageKind::Common,
        _ => return None,
    })
}

impl<'s> Parser<'s> {
    /// A directive statement; `None` when it was reported as misplaced but fully consumed
    /// (so recovery does not swallow the statements after it).
    pub(crate) fn parse_directive(&mut self, cx: Context) -> PResult<Option<Statement>> {
        let name = self.tok_text();
        if cx == Context::Section {
            if DATA_DIRECTIVES.contains(&name) {
                return Ok(Some(Statement::Data(self.parse_data()?)));
            }
            return Err(self.unexpected("a data directive (`.b8`, `.b32`, …) or a label"));
        }
        if cx == Context::Module && DATA_DIRECTIVES.contains(&name) {
            // 1.1 §9.3 writes `.extern foo` then `.b32 foo;`: bare data at module level.
            return Ok(Some(Statement::Data(self.parse_data()?)));
        }
        if let Some(kind) = linkage_kind(name) {
            let linkage = Linkage {
                kind,
                span: self.bump().span,
            };
            return self.parse_after_linkage(linkage, cx);
        }
        if StateSpace::from_directive(name).is_some() {
            let d = self.parse_variable_decl(None, false)?;
            return Ok(Some(Statement::Variable(Box::new(d))));
        }
        let stmt = match name {
            ".version" => self.parse_version().map(Statement::Version),
            ".target" => self.parse_target().map(Statement::Target),
            ".address_size" => {
                let start = self.bump().span;
                let size = self.parse_int_literal("an address size (32 or 64)")?;
                Ok(Statement::AddressSize(AddressSize {
                    size,
                    span: self.span_from(start),
                }))
            }
            ".entry" | ".func" => return self.parse_function_in(None, cx),
            ".struct" | ".union" => {
                let s = self.parse_struct()?;
                self.eat(TokenKind::Semi);
                Ok(Statement::Struct(s))
            }
            ".pragma" => self.parse_pragma().map(Statement::Pragma),
            ".file" => self.parse_file().map(Statement::File),
            ".loc" => self.parse_loc().map(Statement::Loc),
            ".section" => self.parse_section().map(Statement::Section),
            ".byte" => self.parse_data().map(Statement::Data),
            ".branchtargets" => {
                let span = self.tok.span;
                Err(self.error(
                    Diagnostic::error(span, "`.branchtargets` needs a label naming it")
                        .with_note("write `name: .branchtargets L1, L2, …;`"),
                ))
            }
            ".calltargets" => {
                let span = self.tok.span;
                Err(self.error(
                    Diagnostic::error(span, "`.calltargets` needs a label naming it")
                        .with_note("write `name: .calltargets f1, f2, …;`"),
                ))
            }
            ".callprototype" => {
                let span = self.tok.span;
                Err(self.error(
                    Diagnostic::error(span, "`.callprototype` needs a label naming it")
                        .with_note("write `name: .callprototype (…) _ (…);`"),
                ))
            }
            _ if performance_kind(name).is_some() || cluster_kind(name).is_some() => {
                let span = self.tok.span;
                self.error_at(
                    span,
                    format!("`{name}` must come between a function's header and its body"),
                );
                // These take no `;`: consume the arguments so the next statement survives.
                self.parse_function_attributes()?;
                return Ok(None);
            }
            _ if ScalarType::from_directive(name).is_some()
                || VectorWidth::from_directive(name).is_some()
                || name == ".align" =>
            {
                let span = self.tok.span;
                Err(self.error(
                    Diagnostic::error(span, format!("`{name}` without a state space"))
                        .with_note("a declaration starts with `.reg`, `.global`, `.shared`, …"),
                ))
            }
            _ => {
                let span = self.tok.span;
                Err(self.error_at(span, format!("unknown directive `{}`", shorten(name))))
            }
        };
        stmt.map(Some)
    }

    fn parse_function_in(
        &mut self,
        linkage: Option<Linkage>,
        cx: Context,
    ) -> PResult<Option<Statement>> {
        let f = self.parse_function(linkage)?;
        if cx != Context::Module {
            let span = f.kind_span;
            self.error_at(
                span,
                "functions can only be declared at module level, not inside a body",
            );
            return Ok(None);
        }
        Ok(Some(Statement::Function(Box::new(f))))
    }

    fn parse_after_linkage(&mut self, linkage: Linkage, cx: Context) -> PResult<Option<Statement>> {
        match self.tok.kind {
            TokenKind::Directive if self.at_directive(".entry") || self.at_directive(".func") => {
                self.parse_function_in(Some(linkage), cx)
            }
            TokenKind::Directive if StateSpace::from_directive(self.tok_text()).is_some() => {
                let d = self.parse_variable_decl(Some(linkage), false)?;
                Ok(Some(Statement::Variable(Box::new(d))))
            }
            TokenKind::Ident => {
                // 1.1 §9.3: `.extern foo` / `.visible foo`.
                let name = self.expect_plain_ident("a name")?;
                self.eat(TokenKind::Semi);
                Ok(Some(Statement::LinkageName(LinkageName {
                    linkage,
                    name,
                    span: self.span_from(linkage.span),
                })))
            }
            _ => Err(self.unexpected("`.entry`, `.func`, a state space or a name after linkage")),
        }
    }

    fn parse_version(&mut self) -> PResult<Version> {
        let start = self.bump().span;
        if !self.at(TokenKind::Float) {
            return Err(self.unexpected("a version `major.minor`"));
        }
        let tok = self.bump();
        let text = self.text(tok.span);
        let parsed = text.split_once('.').and_then(|(a, b)| {
            let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
            if all_digits(a) && all_digits(b) {
                Some((a.parse::<u32>().ok()?, b.parse::<u32>().ok()?))
            } else {
                None
            }
        });
        match parsed {
            Some((major, minor)) => Ok(Version {
                major,
                minor,
                span: self.span_from(start),
            }),
            None => Err(self.error_at(
                tok.span,
                format!(
                    "invalid version `{}`: expected `major.minor`",
                    shorten(text)
                ),
            )),
        }
    }

    fn parse_target(&mut self) -> PResult<Target> {
        let start = self.bump().span;
        let mut targets = vec![self.expect_plain_ident("a target name such as `sm_20`")?];
        while self.eat(TokenKind::Comma) {
            targets.push(self.expect_plain_ident("a target name")?);
        }
        Ok(Target {
            targets,
            span: self.span_from(start),
        })
    }

    pub(crate) fn parse_pragma(&mut self) -> PResult<Pragma> {
        let start = self.bump().span;
        let mut strings = vec![self.parse_string("a pragma string")?];
        while self.eat(TokenKind::Comma) {
            strings.push(self.parse_string("a pragma string")?);
        }
        self.expect(TokenKind::Semi, "`;` after `.pragma`")?;
        Ok(Pragma {
            strings,
            span: self.span_from(start),
        })
    }

    fn parse_string(&mut self, what: &str) -> PResult<StringLit> {
        let t = self.expect(TokenKind::String, what)?;
        Ok(StringLit { span: t.span })
    }

    fn parse_file(&mut self) -> PResult<FileDirective> {
        let start = self.bump().span;
        let index = if self.at(TokenKind::Int) {
            Some(self.parse_int_literal("a file index")?)
        } else {
            None
        };
        let name = self.parse_string("a file name string")?;
        let mut extra = Vec::new();
        while self.eat(TokenKind::Comma) {
            extra.push(self.parse_expr()?);
        }
        Ok(FileDirective {
            index,
            name,
            extra,
            span: self.span_from(start),
        })
    }

    fn parse_loc(&mut self) -> PResult<Loc> {
        let start = self.bump().span;
        let mut values = Vec::new();
        while self.at(TokenKind::Int) && values.len() < 3 {
            values.push(self.parse_int_literal("a line number")?);
        }
        if values.is_empty() {
            return Err(self.unexpected("a line number"));
        }
        let mut rest = None;
        if self.at(TokenKind::Comma) {
            let rest_start = self.tok.span;
            while self.eat(TokenKind::Comma) {
                let key = self.expect_plain_ident("`function_name` or `inlined_at`")?;
                match self.text(key.span) {
                    "function_name" => {
                        self.expect_plain_ident("a function name label")?;
                        if self.eat(TokenKind::Plus) {
                            self.parse_int_literal("an offset")?;
                        }
                    }
                    "inlined_at" => {
                        for _ in 0..3 {
                            self.parse_int_literal("an `inlined_at` file/line/column")?;
                        }
                    }
                    other => {
                        return Err(self.error_at(
                            key.span,
                            format!("unknown `.loc` attribute `{}`", shorten(other)),
                        ))
                    }
                }
            }
            rest = Some(self.span_from(rest_start));
        }
        Ok(Loc {
            values,
            rest,
            span: self.span_from(start),
        })
    }

    fn parse_section(&mut self) -> PResult<Section> {
        let start = self.bump().span;
        if !matches!(self.tok.kind, TokenKind::Directive | TokenKind::Ident) {
            return Err(self.unexpected("a section name"));
        }
        let name = self.bump().span;
        let mut attributes = Vec::new();
        let mut body = None;
        if self.at(TokenKind::LBrace) {
            body = Some(self.parse_block(Context::Section)?);
        } else {
            while self.eat(TokenKind::Comma) {
                let a = match self.tok.kind {
                    TokenKind::String | TokenKind::Ident | TokenKind::Directive => self.bump().span,
                    TokenKind::At => {
                        let at = self.bump().span;
                        let id = self.expect_plain_ident("a section type")?;
                        at.to(id.span)
                    }
                    _ => return Err(self.unexpected("a section attribute")),
                };
                attributes.push(a);
            }
        }
        Ok(Section {
            name,
            attributes,
            body,
            span: self.span_from(start),
        })
    }

    fn parse_data(&mut self) -> PResult<Data> {
        let directive = self.bump().span;
        let mut values = vec![self.parse_data_value()?];
        while self.eat(TokenKind::Comma) {
            values.push(self.parse_data_value()?);
        }
        self.eat(TokenKind::Semi);
        Ok(Data {
            directive,
            values,
            span: self.span_from(directive),
        })
    }

    /// `expr {, expr}`
    fn parse_expr_list(&mut self) -> PResult<Vec<Expr>> {
        let mut out = vec![self.parse_expr()?];
        while self.eat(TokenKind::Comma) {
            out.push(self.parse_expr()?);
        }
        Ok(out)
    }

    /// Function attributes between header and body: performance directives and `.pragma`.
    pub(crate) fn parse_function_attributes(&mut self) -> PResult<Vec<FunctionAttribute>> {
        let mut out = Vec::new();
        while self.at(TokenKind::Directive) {
            let text = self.tok_text();
            if text == ".pragma" {
                out.push(FunctionAttribute::Pragma(self.parse_pragma()?));
                continue;
            }
            if let Some(kind) = cluster_kind(text) {
                let start = self.bump().span;
                let args = if kind == ClusterKind::Explicitcluster {
                    Vec::new()
                } else {
                    self.parse_expr_list()?
                };
                out.push(FunctionAttribute::Cluster(ClusterDirective {
                    kind,
                    args,
                    span: self.span_from(start),
                }));
                continue;
            }
            let Some(kind) = performance_kind(text) else {
                break;
            };
            let start = self.bump().span;
            let args = if kind == PerformanceKind::Noreturn {
                Vec::new()
            } else {
                self.parse_expr_list()?
            };
            out.push(FunctionAttribute::Performance(PerformanceDirective {
                kind,
                args,
                span: self.span_from(start),
            }));
        }
        Ok(out)
    }
}
