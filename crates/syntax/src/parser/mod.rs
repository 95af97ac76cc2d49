//! Recursive-descent parser with error recovery.
//!
//! Each `parse_*` method either returns its node or reports a diagnostic and returns
//! [`Fail`]; the statement loop then skips to the next `;` or `}` (brace-depth aware) and
//! continues, so one run reports every error of the file.

mod decl;
mod directive;
mod expr;
mod inst;

use crate::ast::{Block, Ident, Label, Module, Name, Statement};
use crate::lexer::{LexError, Lexer, Token, TokenKind};
use diag::{Diagnostic, Span};

/// Deepest nesting of blocks, brace lists, struct bodies and parenthesised or unary
/// expressions the parser accepts; deeper input is an error, not a stack overflow.
pub const MAX_NESTING: usize = 200;

/// After this many errors the parser stops: the rest would mostly be follow-on noise, and the
/// list must not grow with the input (a 1 GB file of garbage).
const MAX_ERRORS: usize = 200;

/// The error was reported; the caller should recover.
#[derive(Debug)]
pub(crate) struct Fail;

pub(crate) type PResult<T> = Result<T, Fail>;

pub(crate) fn parse_module(src: &str, defer_bodies: bool) -> (Module, Vec<Diagnostic>) {
    let mut p = Parser::new(src);
    p.defer_bodies = defer_bodies;
    let statements = p.parse_statements(None, Context::Module);
    let module = Module {
        statements,
        span: Span::from_range(0..src.len()),
    };
    (module, p.diags)
}

/// The statements of the block at `body`, parsed on their own; `None` unless they parse
/// without a diagnostic and the block ends exactly where `body` does. The parser's working
/// stacks are taken from `stacks` and given back, so parsing many bodies does not grow them
/// afresh for each.
pub(crate) fn parse_block_at(src: &str, body: Span, stacks: &mut Stacks) -> Option<Vec<Statement>> {
    let mut p = Parser::starting_at(src, body.start as usize);
    p.stacks = std::mem::take(stacks);
    let block = p.parse_block(Context::Module);
    *stacks = std::mem::take(&mut p.stacks);
    let block = block.ok()?;
    (p.diags.is_empty() && block.span == body).then_some(block.statements)
}

/// Lists being collected, as stacks shared by nested lists, so each finished list is
/// allocated at its exact length.
#[derive(Default)]
pub(crate) struct Stacks {
    pub(crate) statements: Vec<Statement>,
    /// The declarations of parameter lists.
    pub(crate) params: Vec<crate::ast::VariableDecl>,
}

/// Where a statement list is: it decides which directives are allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Context {
    Module,
    Body,
    Section,
}

pub(crate) struct Parser<'s> {
    pub(crate) src: &'s str,
    lexer: Lexer<'s>,
    pub(crate) tok: Token,
    /// End of the last consumed token, for node spans.
    prev_end: u32,
    pub(crate) diags: Vec<Diagnostic>,
    pub(crate) depth: usize,
    stopped: bool,
    /// Start of the last lexical error token reported, so recovery does not repeat it.
    last_lex_error: Option<u32>,
    pub(crate) stacks: Stacks,
    /// Function bodies are skipped (see [`crate::parse_module_deferred`]).
    pub(crate) defer_bodies: bool,
}

impl<'s> Parser<'s> {
    fn new(src: &'s str) -> Self {
        Self::starting_at(src, 0)
    }

    /// A parser whose first token starts at byte `pos`.
    fn starting_at(src: &'s str, pos: usize) -> Self {
        let mut lexer = Lexer::at(src, pos);
        let tok = lexer.next_token();
        Parser {
            src,
            lexer,
            tok,
            prev_end: 0,
            diags: Vec::new(),
            depth: 0,
            stopped: false,
            last_lex_error: None,
            stacks: Stacks::default(),
            defer_bodies: false,
        }
    }

    /// Continues after a block skipped by [`crate::lexer::skip_block`], which ended at `end`.
    pub(crate) fn skip_to(&mut self, end: usize) {
        self.lexer = Lexer::at(self.src, end);
        self.prev_end = u32::try_from(end).unwrap_or(u32::MAX);
        self.tok = self.lexer.next_token();
    }

    // ---- token plumbing -------------------------------------------------------------------

    pub(crate) fn bump(&mut self) -> Token {
        let t = self.tok;
        if t.kind != TokenKind::Eof {
            self.prev_end = t.span.end;
            self.tok = self.lexer.next_token();
        }
        t
    }

    pub(crate) fn at(&self, kind: TokenKind) -> bool {
        self.tok.kind == kind
    }

    pub(crate) fn eat(&mut self, kind: TokenKind) -> bool {
        if self.at(kind) {
            self.bump();
            true
        } else {
            false
        }
    }

    /// The token after the current one.
    pub(crate) fn peek(&self) -> Token {
        self.lexer.clone().next_token()
    }

    /// Is the current token followed by `:` (a label)? Looks at bytes instead of lexing the
    /// next token twice: this runs for every instruction.
    fn colon_follows(&self) -> bool {
        let bytes = self.src.as_bytes();
        let next = crate::lexer::skip_trivia(bytes, self.tok.span.end as usize);
        bytes.get(next) == Some(&b':') && bytes.get(next + 1) != Some(&b':')
    }

    pub(crate) fn text(&self, span: Span) -> &'s str {
        self.src.get(span.range()).unwrap_or("")
    }

    pub(crate) fn tok_text(&self) -> &'s str {
        self.text(self.tok.span)
    }

    /// Is the current token the directive `name` (with its dot)?
    pub(crate) fn at_directive(&self, name: &str) -> bool {
        self.tok.kind == TokenKind::Directive && self.tok_is(name)
    }

    /// Whether the current token is spelled `s`.
    pub(crate) fn tok_is(&self, s: &str) -> bool {
        self.spells(self.tok.span, s)
    }

    /// Whether the text at `span` is `s`. Compares bytes (lengths first), so asking whether
    /// `%r12` is `_` or `generic`, as every operand does, costs next to nothing.
    pub(crate) fn spells(&self, span: Span, s: &str) -> bool {
        self.src.as_bytes().get(span.range()) == Some(s.as_bytes())
    }

    pub(crate) fn span_from(&self, start: Span) -> Span {
        Span::new(start.start, self.prev_end.max(start.start))
    }

    pub(crate) fn expect(&mut self, kind: TokenKind, what: &str) -> PResult<Token> {
        if self.at(kind) {
            return Ok(self.bump());
        }
        if kind == TokenKind::Semi && self.newline_before_token() {
            // A forgotten `;` at the end of a line: point where it belongs, not at the next
            // line's first token, and carry on as if it were there so the next statement is
            // not skipped by recovery.
            let at = Span::new(self.prev_end, self.prev_end);
            let found = self.tok.span;
            let d = Diagnostic::error(at, format!("expected {what}"))
                .with_label(found, "the next statement starts here");
            self.error(d);
            return Ok(Token { kind, span: at });
        }
        Err(self.unexpected(what))
    }

    fn newline_before_token(&self) -> bool {
        let gap = Span::new(self.prev_end, self.tok.span.start);
        self.prev_end > 0 && self.text(gap).contains('\n')
    }

    // ---- diagnostics ----------------------------------------------------------------------

    pub(crate) fn error(&mut self, d: Diagnostic) -> Fail {
        if self.stopped {
            return Fail;
        }
        if self.diags.len() >= MAX_ERRORS {
            self.diags.push(
                Diagnostic::error(d.span, "too many errors; stopping here")
                    .with_note(format!("only the first {MAX_ERRORS} errors are reported")),
            );
            self.stopped = true;
        } else {
            self.diags.push(d);
        }
        Fail
    }

    pub(crate) fn error_at(&mut self, span: Span, msg: impl Into<String>) -> Fail {
        self.error(Diagnostic::error(span, msg))
    }

    /// "expected X, found Y" at the current token (lexer errors get their own message).
    pub(crate) fn unexpected(&mut self, what: &str) -> Fail {
        let span = self.tok.span;
        if let TokenKind::Error(_) = self.tok.kind {
            self.last_lex_error = Some(span.start);
        }
        let msg = match self.tok.kind {
            TokenKind::Eof => format!("expected {what}, found end of file"),
            TokenKind::Error(e) => lex_error_message(e).to_string(),
            _ => format!("expected {what}, found `{}`", shorten(self.tok_text())),
        };
        let d = Diagnostic::error(span, msg);
        let d = match self.tok.kind {
            TokenKind::Error(LexError::Preprocessor) => {
                d.with_note("run the C preprocessor (cpp) over the file first")
            }
            _ => d,
        };
        self.error(d)
    }

    pub(crate) fn enter(&mut self) -> PResult<()> {
        if self.depth >= MAX_NESTING {
            let span = self.tok.span;
            return Err(self.error_at(span, format!("nesting is deeper than {MAX_NESTING} levels")));
        }
        self.depth += 1;
        Ok(())
    }

    pub(crate) fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// Skips to just after the next `;` or to the next `}` that closes an enclosing block,
    /// stepping over balanced `{ … }` groups.
    fn recover(&mut self) {
        let mut depth = 0usize;
        loop {
            if let TokenKind::Error(e) = self.tok.kind {
                // Lexical errors are problems of their own: report those being skipped.
                if self.last_lex_error != Some(self.tok.span.start) {
                    let span = self.tok.span;
                    self.last_lex_error = Some(span.start);
                    self.error_at(span, lex_error_message(e));
                }
            }
            match self.tok.kind {
                TokenKind::Eof => return,
                TokenKind::Semi if depth == 0 => {
                    self.bump();
                    return;
                }
                TokenKind::LBrace => depth += 1,
                TokenKind::RBrace => {
                    if depth == 0 {
                        return;
                    }
                    depth -= 1;
                    if depth == 0 {
                        self.bump();
                        return;
                    }
                }
                _ => {}
            }
            self.bump();
        }
    }

    // ---- names ----------------------------------------------------------------------------

    /// Splits an identifier token into the name and its dotted suffix.
    pub(crate) fn name_of(&self, tok: Token) -> Name {
        let text = self.text(tok.span);
        match text.bytes().position(|b| b == b'.') {
            Some(dot) => {
                let dot = tok
                    .span
                    .start
                    .saturating_add(u32::try_from(dot).unwrap_or(u32::MAX));
                Name {
                    ident: Ident {
                        span: Span::new(tok.span.start, dot),
                    },
                    suffix: Some(Span::new(dot, tok.span.end)),
                }
            }
            None => Name {
                ident: Ident { span: tok.span },
                suffix: None,
            },
        }
    }

    /// An identifier without a dotted suffix (declared names, labels, function names).
    pub(crate) fn expect_plain_ident(&mut self, what: &str) -> PResult<Ident> {
        if !self.at(TokenKind::Ident) {
            return Err(self.unexpected(what));
        }
        let tok = self.bump();
        let name = self.name_of(tok);
        if let Some(s) = name.suffix {
            return Err(self.error_at(
                s,
                format!("unexpected `{}` after {what}", shorten(self.text(s))),
            ));
        }
        Ok(name.ident)
    }

    // ---- statements -----------------------------------------------------------------------

    /// Statements until `}` (when `open` is the span of the opening brace) or end of file.
    pub(crate) fn parse_statements(&mut self, open: Option<Span>, cx: Context) -> Vec<Statement> {
        let start = self.stacks.statements.len();
        self.push_statements(open, cx);
        // Exactly sized (`split_off(0)` would hand over the stack's whole buffer).
        self.stacks.statements.drain(start..).collect()
    }

    fn push_statements(&mut self, open: Option<Span>, cx: Context) {
        loop {
            if self.stopped {
                return;
            }
            match self.tok.kind {
                TokenKind::Eof => {
                    if let Some(open) = open {
                        let span = self.tok.span;
                        self.error(
                            Diagnostic::error(span, "expected `}`, found end of file")
                                .with_label(open, "this `{` is not closed"),
                        );
                    }
                    return;
                }
                TokenKind::RBrace if open.is_some() => return,
                TokenKind::RBrace => {
                    let span = self.tok.span;
                    self.error_at(span, "unmatched `}`");
                    self.bump();
                }
                _ => {
                    let before = self.tok.span.start;
                    let depth = self.depth;
                    match self.parse_statement(cx) {
                        Ok(Some(s)) => self.stacks.statements.push(s),
                        Ok(None) => {}
                        Err(Fail) => {
                            // Error paths return early past their `leave()`.
                            self.depth = depth;
                            self.recover();
                            if self.tok.span.start == before && !self.at(TokenKind::RBrace) {
                                self.bump();
                            }
                        }
                    }
                }
            }
        }
    }

    fn parse_statement(&mut self, cx: Context) -> PResult<Option<Statement>> {
        match self.tok.kind {
            TokenKind::Semi => {
                self.bump();
                Ok(None)
            }
            TokenKind::LBrace if cx != Context::Section => {
                Ok(Some(Statement::Block(self.parse_block(cx)?)))
            }
            TokenKind::At => Ok(Some(Statement::Instruction(self.parse_instruction()?))),
            TokenKind::Ident if self.colon_follows() => self.parse_label(),
            TokenKind::Ident if cx != Context::Section => {
                Ok(Some(Statement::Instruction(self.parse_instruction()?)))
            }
            TokenKind::Directive => self.parse_directive(cx),
            _ => Err(self.unexpected("a statement")),
        }
    }

    pub(crate) fn parse_block(&mut self, cx: Context) -> PResult<Block> {
        let open = self.expect(TokenKind::LBrace, "`{`")?.span;
        self.enter()?;
        let cx = if cx == Context::Module {
            Context::Body
        } else {
            cx
        };
        let statements = self.parse_statements(Some(open), cx);
        self.leave();
        if !self.at(TokenKind::RBrace) {
            // End of file (reported) or stopped: return what we have.
            return Ok(Block {
                statements,
                span: self.span_from(open),
            });
        }
        self.bump();
        Ok(Block {
            statements,
            span: self.span_from(open),
        })
    }

    fn parse_label(&mut self) -> PResult<Option<Statement>> {
        let name = self.expect_plain_ident("a label name")?;
        self.expect(TokenKind::Colon, "`:`")?;
        if self.at_directive(".branchtargets") {
            return Ok(Some(Statement::BranchTargets(Box::new(
                self.parse_branch_targets(name)?,
            ))));
        }
        if self.at_directive(".calltargets") {
            return Ok(Some(Statement::CallTargets(Box::new(
                self.parse_call_targets(name)?,
            ))));
        }
        if self.at_directive(".callprototype") {
            return Ok(Some(Statement::CallPrototype(Box::new(
                self.parse_call_prototype(name)?,
            ))));
        }
        Ok(Some(Statement::Label(Label {
            name,
            span: self.span_from(name.span),
        })))
    }
}

pub(crate) fn lex_error_message(e: LexError) -> &'static str {
    match e {
        LexError::UnexpectedChar => "unexpected character",
        LexError::UnterminatedComment => "unterminated block comment",
        LexError::UnterminatedString => "unterminated string literal",
        LexError::Preprocessor => "preprocessor directives are not supported",
    }
}

/// Keeps messages short when a token is huge (a 1 MB identifier).
pub(crate) fn shorten(s: &str) -> String {
    const MAX: usize = 40;
    if s.len() <= MAX {
        return s.to_string();
    }
    let mut end = MAX;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", s.get(..end).unwrap_or(""))
}
