//! The canonical pretty-printer behind `ptxvm fmt`.
//!
//! Layout: one statement per line, a tab per block level, labels at column 0, single spaces
//! around binary operators and after commas, modifiers joined to the opcode, minimal
//! parentheses in expressions, a blank line around every function, struct and section at
//! module level. Comments are kept: each is printed on its own line before the statement that
//! follows it, at that statement's indentation, and a comment that followed code on its line
//! stays at the end of that statement's line (a comment inside a statement moves before the
//! next one). Literals are printed as written so `0f3F800000` stays bit-exact and hex stays hex.

use crate::ast::*;
use crate::lexer::{Lexer, TokenKind};
use diag::Span;
use std::fmt::Write;

pub(crate) fn print_module(module: &Module, src: &str) -> String {
    let mut p = Printer {
        src,
        out: String::with_capacity(src.len()),
        indent: 0,
        comments: crate::comments::comments(src),
        next_comment: 0,
    };
    let mut prev_big = false;
    let mut prev_header = false;
    for (i, s) in module.statements.iter().enumerate() {
        let big = matches!(
            s,
            Statement::Function(_) | Statement::Struct(_) | Statement::Section(_)
        );
        let header = matches!(
            s,
            Statement::Version(_)
                | Statement::Target(_)
                | Statement::AddressSize(_)
                | Statement::File(_)
        );
        if i > 0 && (big || prev_big || (prev_header && !header)) {
            p.out.push('\n');
        }
        p.comments_before(s.span().start);
        p.statement(s);
        p.trailing_comment(s.span().end);
        prev_big = big;
        prev_header = header;
    }
    p.comments_before(u32::MAX);
    p.out
}

struct Printer<'s> {
    src: &'s str,
    out: String,
    indent: usize,
    comments: Vec<crate::comments::Comment>,
    /// The first comment not printed yet.
    next_comment: usize,
}

/// Binding strength of an expression as printed: atoms bind tightest.
fn expr_precedence(e: &Expr) -> u8 {
    match e {
        Expr::Binary(b) => b.op.precedence(),
        Expr::Conditional(_) => 0,
        _ => u8::MAX,
    }
}

impl<'s> Printer<'s> {
    fn text(&self, span: Span) -> &'s str {
        span_text(self.src, span)
    }

    /// Print, each on its own line, the comments that start before `offset`.
    fn comments_before(&mut self, offset: u32) {
        while let Some(&c) = self.comments.get(self.next_comment) {
            if c.start >= offset {
                break;
            }
            self.next_comment += 1;
            if !self.out.is_empty() && !self.out.ends_with('\n') {
                self.out.push('\n');
            }
            self.line_start();
            let text = span_text(self.src, Span::from_range(c.start as usize..c.end as usize));
            self.out.push_str(text.trim_end());
            self.out.push('\n');
        }
    }

    /// A comment that followed a statement ending at `end` on the same source line is put at
    /// the end of its printed line.
    fn trailing_comment(&mut self, end: u32) {
        let Some(&c) = self.comments.get(self.next_comment) else {
            return;
        };
        let between = self.src.get(end as usize..c.start as usize);
        if !c.trailing || c.start < end || between.is_none_or(|b| b.contains('\n')) {
            return;
        }
        let text = span_text(self.src, Span::from_range(c.start as usize..c.end as usize));
        if text.contains('\n') {
            return;
        }
        self.next_comment += 1;
        let had_newline = self.out.ends_with('\n');
        if had_newline {
            self.out.pop();
        }
        self.out.push(' ');
        self.out.push_str(text.trim_end());
        if had_newline {
            self.out.push('\n');
        }
    }

    fn put(&mut self, s: &str) {
        self.out.push_str(s);
    }

    fn put_span(&mut self, span: Span) {
        let t = self.text(span);
        self.out.push_str(t);
    }

    fn line_start(&mut self) {
        for _ in 0..self.indent {
            self.out.push('\t');
        }
    }

    /// Re-lexes a span and prints its tokens canonically spaced (for raw-kept directive tails).
    fn put_tokens(&mut self, span: Span, mut space_first: bool) {
        let text = self.text(span);
        let mut lx = Lexer::new(text);
        loop {
            let t = lx.next_token();
            match t.kind {
                TokenKind::Eof => return,
                TokenKind::Comma => self.out.push(','),
                TokenKind::At => {
                    if space_first {
                        self.out.push(' ');
                    }
                    self.out.push('@');
                    space_first = false;
                    continue;
                }
                _ => {
                    if space_first {
                        self.out.push(' ');
                    }
                    self.put(span_text(text, t.span));
                }
            }
            space_first = true;
        }
    }

    fn statement(&mut self, s: &Statement) {
        match s {
            Statement::Version(v) => {
                self.line_start();
                let _ = writeln!(self.out, ".version {}.{}", v.major, v.minor);
            }
            Statement::Target(t) => {
                self.line_start();
                self.put(".target ");
                for (i, id) in t.targets.iter().enumerate() {
                    if i > 0 {
                        self.put(", ");
                    }
                    self.put_span(id.span);
                }
                self.out.push('\n');
            }
            Statement::AddressSize(a) => {
                self.line_start();
                self.put(".address_size ");
                self.put_span(a.size.span);
                self.out.push('\n');
            }
            Statement::Function(f) => self.function(f),
            Statement::Variable(v) => {
                self.line_start();
                self.variable(v);
                self.put(";\n");
            }
            Statement::Struct(s) => {
                self.line_start();
                self.struct_decl(s);
                self.put(";\n");
            }
            Statement::Label(l) => {
                self.put_span(l.name.span);
                self.put(":\n");
            }
            Statement::Instruction(i) => {
                self.line_start();
                self.instruction(i);
                self.out.push('\n');
            }
            Statement::Block(b) => {
                self.line_start();
                self.block(b);
                self.out.push('\n');
            }
            Statement::BranchTargets(b) => {
                self.line_start();
                self.put_span(b.name.span);
                self.put(": .branchtargets ");
                for (k, l) in b.labels.iter().enumerate() {
                    if k > 0 {
                        self.put(", ");
                    }
                    self.put_span(l.span);
                }
                self.put(";\n");
            }
            Statement::CallTargets(c) => {
                self.line_start();
                self.put_span(c.name.span);
                self.put(": .calltargets ");
                for (k, f) in c.funcs.iter().enumerate() {
                    if k > 0 {
                        self.put(", ");
                    }
                    self.put_span(f.span);
                }
                self.put(";\n");
            }
            Statement::CallPrototype(c) => {
                self.line_start();
                self.put_span(c.name.span);
                self.put(": .callprototype ");
                if let Some(r) = &c.returns {
                    self.param_list_inline(r);
                    self.out.push(' ');
                }
                self.put_span(c.placeholder.span);
                if let Some(ps) = &c.params {
                    self.out.push(' ');
                    self.param_list_inline(ps);
                }
                for a in &c.attributes {
                    self.out.push(' ');
                    self.attribute(a);
                }
                self.put(";\n");
            }
            Statement::Pragma(p) => {
                self.line_start();
                self.pragma(p);
                self.out.push('\n');
            }
            Statement::File(f) => {
                self.line_start();
                self.put(".file ");
                if let Some(i) = f.index {
                    self.put_span(i.span);
                    self.out.push(' ');
                }
                self.put_span(f.name.span);
                for e in &f.extra {
                    self.put(", ");
                    self.expr(e);
                }
                self.out.push('\n');
            }
            Statement::Loc(l) => {
                self.line_start();
                self.put(".loc");
                for v in &l.values {
                    self.out.push(' ');
                    self.put_span(v.span);
                }
                if let Some(r) = l.rest {
                    self.put_tokens(r, false);
                }
                self.out.push('\n');
            }
            Statement::Section(s) => {
                self.line_start();
                self.put(".section ");
                self.put_span(s.name);
                for a in &s.attributes {
                    self.out.push(',');
                    self.put_tokens(*a, true);
                }
                if let Some(b) = &s.body {
                    self.out.push('\n');
                    self.line_start();
                    self.block(b);
                }
                self.out.push('\n');
            }
            Statement::Data(d) => {
                self.line_start();
                self.put_span(d.directive);
                self.out.push(' ');
                self.expr_list(&d.values);
                self.out.push('\n');
            }
            Statement::LinkageName(l) => {
                self.line_start();
                self.put_span(l.linkage.span);
                self.out.push(' ');
                self.put_span(l.name.span);
                self.put(";\n");
            }
        }
    }

    fn block(&mut self, b: &Block) {
        self.put("{\n");
        self.indent += 1;
        for s in &b.statements {
            self.comments_before(s.span().start);
            self.statement(s);
            self.trailing_comment(s.span().end);
        }
        // Comments before the closing brace stay inside the block.
        self.comments_before(b.span.end.saturating_sub(1));
        self.indent -= 1;
        self.line_start();
        self.out.push('}');
    }

    fn pragma(&mut self, p: &Pragma) {
        self.put(".pragma ");
        for (i, s) in p.strings.iter().enumerate() {
            if i > 0 {
                self.put(", ");
            }
            self.put_span(s.span);
        }
        self.out.push(';');
    }

    fn attribute(&mut self, a: &FunctionAttribute) {
        match a {
            FunctionAttribute::Pragma(p) => self.pragma(p),
            FunctionAttribute::Cluster(c) => {
                self.put(c.kind.as_str());
                if !c.args.is_empty() {
                    self.out.push(' ');
                    self.expr_list(&c.args);
                }
            }
            FunctionAttribute::Performance(d) => {
                self.put(match d.kind {
                    PerformanceKind::Maxntid => ".maxntid",
                    PerformanceKind::Reqntid => ".reqntid",
                    PerformanceKind::Minnctapersm => ".minnctapersm",
                    PerformanceKind::Maxnreg => ".maxnreg",
                    PerformanceKind::Maxnctapersm => ".maxnctapersm",
                    PerformanceKind::Noreturn => ".noreturn",
                });
                if !d.args.is_empty() {
                    self.out.push(' ');
                    self.expr_list(&d.args);
                }
            }
        }
    }

    fn function(&mut self, f: &Function) {
        self.line_start();
        if let Some(l) = f.linkage {
            self.put_span(l.span);
            self.out.push(' ');
        }
        self.put(match f.kind {
            FunctionKind::Entry => ".entry ",
            FunctionKind::Func => ".func ",
        });
        if let Some(r) = &f.returns {
            self.param_list_inline(r);
            self.out.push(' ');
        }
        self.put_span(f.name.span);
        self.dims(&f.cta_dims);
        if let Some(ps) = &f.params {
            if ps.params.is_empty() {
                self.put("()");
            } else {
                self.put("(\n");
                for (i, p) in ps.params.iter().enumerate() {
                    self.out.push('\t');
                    self.line_start();
                    self.variable(p);
                    if i + 1 < ps.params.len() {
                        self.out.push(',');
                    }
                    self.out.push('\n');
                }
                self.line_start();
                self.out.push(')');
            }
        }
        for a in &f.attributes {
            self.out.push('\n');
            self.line_start();
            self.attribute(a);
        }
        match &f.body {
            Some(b) => {
                self.out.push('\n');
                self.line_start();
                self.block(b);
                self.out.push('\n');
            }
            None => self.put(";\n"),
        }
    }

    fn param_list_inline(&mut self, ps: &ParamList) {
        self.out.push('(');
        for (i, p) in ps.params.iter().enumerate() {
            if i > 0 {
                self.put(", ");
            }
            self.variable(p);
        }
        self.out.push(')');
    }

    fn type_spec(&mut self, t: &TypeSpec) {
        if let Some(v) = t.vector {
            self.put(v.as_str());
            self.out.push(' ');
        }
        match t.base {
            BaseType::Scalar(s) => self.put(s.as_str()),
            BaseType::Named(id) => self.put_span(id.span),
        }
    }

    fn variable(&mut self, v: &VariableDecl) {
        if let Some(l) = v.linkage {
            self.put_span(l.span);
            self.out.push(' ');
        }
        self.put(v.space.as_str());
        if let Some(b) = &v.binding {
            self.out.push('[');
            self.expr(b);
            self.out.push(']');
        }
        if !v.attributes.is_empty() {
            self.put(" .attribute(");
            for (i, a) in v.attributes.iter().enumerate() {
                if i > 0 {
                    self.put(", ");
                }
                self.put_span(*a);
            }
            self.out.push(')');
        }
        if let Some(a) = &v.align {
            self.put(" .align ");
            self.expr_tight(a);
        }
        if let Some(t) = &v.ty {
            self.out.push(' ');
            self.type_spec(t);
        }
        if let Some(p) = &v.ptr {
            self.put(" .ptr");
            if let Some(s) = p.space {
                self.out.push(' ');
                self.put(s.as_str());
            }
            if let Some(a) = &p.align {
                self.put(" .align ");
                self.expr_tight(a);
            }
        }
        for (i, d) in v.declarators.iter().enumerate() {
            self.put(if i == 0 { " " } else { ", " });
            self.put_span(d.name.span);
            if let Some(r) = &d.range {
                self.out.push('<');
                self.expr_tight(r);
                self.out.push('>');
            }
            self.dims(&d.dims);
            if let Some(init) = &d.init {
                self.put(" = ");
                self.initializer(init);
            }
        }
    }

    fn initializer(&mut self, i: &Initializer) {
        match i {
            Initializer::Expr(e) => self.expr(e),
            Initializer::List(items, _) => {
                self.out.push('{');
                for (k, item) in items.iter().enumerate() {
                    if k > 0 {
                        self.put(", ");
                    }
                    self.initializer(item);
                }
                self.out.push('}');
            }
        }
    }

    fn dims(&mut self, dims: &[Option<Expr>]) {
        for d in dims {
            self.out.push('[');
            if let Some(e) = d {
                self.expr(e);
            }
            self.out.push(']');
        }
    }

    fn struct_decl(&mut self, s: &StructDecl) {
        self.put(match s.kind {
            AggregateKind::Struct => ".struct",
            AggregateKind::Union => ".union",
        });
        if let Some(n) = s.name {
            self.out.push(' ');
            self.put_span(n.span);
        }
        self.put(" {\n");
        self.indent += 1;
        for f in &s.fields {
            self.line_start();
            match f {
                StructField::Nested(n) => self.struct_decl(n),
                StructField::Field(fd) => {
                    self.type_spec(&fd.ty);
                    self.dims(&fd.type_dims);
                    self.out.push(' ');
                    self.put_span(fd.name.span);
                    self.dims(&fd.dims);
                }
            }
            self.put(";\n");
        }
        self.indent -= 1;
        self.line_start();
        self.out.push('}');
    }

    fn instruction(&mut self, i: &Instruction) {
        if let Some(g) = &i.guard {
            self.out.push('@');
            if g.negated {
                self.out.push('!');
            }
            self.name(&g.predicate);
            self.out.push(' ');
        }
        self.put_span(i.opcode.span);
        for (_, m) in i.modifiers(self.src) {
            self.put(m);
        }
        for (k, op) in i.operands.iter().enumerate() {
            self.put(if k == 0 { " " } else { ", " });
            self.operand(op);
        }
        self.out.push(';');
    }

    fn name(&mut self, n: &Name) {
        self.put_span(n.ident.span);
        if let Some(s) = n.suffix {
            self.put_span(s);
        }
    }

    fn operand_list(&mut self, ops: &[Operand]) {
        for (k, op) in ops.iter().enumerate() {
            if k > 0 {
                self.put(", ");
            }
            self.operand(op);
        }
    }

    fn operand(&mut self, op: &Operand) {
        match op {
            Operand::Expr(e) => self.expr(e),
            Operand::Address(a) => {
                self.out.push('[');
                self.expr_tight(&a.expr);
                for r in &a.rest {
                    self.put(", ");
                    self.operand(r);
                }
                self.out.push(']');
            }
            Operand::Indexed(ix) => {
                self.name(&ix.base);
                self.out.push('[');
                self.expr_tight(&ix.index);
                self.out.push(']');
            }
            Operand::Vector(v) => {
                self.out.push('{');
                self.operand_list(&v.elements);
                self.out.push('}');
            }
            Operand::Pair(p) => {
                self.name(&p.first);
                self.out.push('|');
                self.name(&p.second);
            }
            Operand::List(l) => {
                self.out.push('(');
                self.operand_list(&l.elements);
                self.out.push(')');
            }
            Operand::BitBucket(_) => self.out.push('_'),
        }
    }

    fn expr_list(&mut self, es: &[Expr]) {
        for (k, e) in es.iter().enumerate() {
            if k > 0 {
                self.put(", ");
            }
            self.expr(e);
        }
    }

    /// Addresses and small declaration arguments are printed without spaces around `+`/`-`
    /// (`[%rd1+8]`), as compilers write them.
    fn expr_tight(&mut self, e: &Expr) {
        self.expr_with(e, true);
    }

    fn expr(&mut self, e: &Expr) {
        self.expr_with(e, false);
    }

    fn sub_expr(&mut self, e: &Expr, parens: bool, tight: bool) {
        if parens {
            self.out.push('(');
            self.expr_with(e, tight);
            self.out.push(')');
        } else {
            self.expr_with(e, tight);
        }
    }

    fn expr_with(&mut self, e: &Expr, tight: bool) {
        match e {
            Expr::Int(i) => self.put_span(i.span),
            Expr::Float(f) => self.put_span(f.span),
            Expr::Name(n) => self.name(n),
            Expr::Unary(u) => {
                self.put(u.op.as_str());
                let parens = expr_precedence(&u.operand) != u8::MAX;
                self.sub_expr(&u.operand, parens, tight);
            }
            Expr::Binary(b) => {
                let (op, lhs, rhs) = (b.op, &b.lhs, &b.rhs);
                let prec = op.precedence();
                self.sub_expr(lhs, expr_precedence(lhs) < prec, tight);
                let simple = matches!(op, BinaryOp::Add | BinaryOp::Sub);
                if tight && simple {
                    self.put(op.as_str());
                } else {
                    self.out.push(' ');
                    self.put(op.as_str());
                    self.out.push(' ');
                }
                self.sub_expr(rhs, expr_precedence(rhs) <= prec, tight);
            }
            Expr::Conditional(c) => {
                self.sub_expr(&c.cond, expr_precedence(&c.cond) == 0, tight);
                self.put(" ? ");
                self.expr_with(&c.then, tight);
                self.put(" : ");
                self.expr_with(&c.otherwise, tight);
            }
            Expr::Cast(c) => {
                self.out.push('(');
                self.put(c.ty.as_str());
                self.out.push(')');
                let parens = expr_precedence(&c.operand) != u8::MAX;
                self.sub_expr(&c.operand, parens, tight);
            }
            Expr::Generic(g) => {
                self.put("generic(");
                self.name(&g.name);
                self.out.push(')');
            }
        }
    }
}
