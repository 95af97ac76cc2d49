//! Structural equality of two trees parsed from different texts: spans are ignored, names and
//! modifiers compare by text, literals by value. This is what "`parse(fmt(x))` equals
//! `parse(x)`" means.

use crate::ast::*;
use crate::lexer::{Lexer, TokenKind};
use diag::Span;

/// True when `a` (parsed from `src_a`) and `b` (parsed from `src_b`) are the same program text
/// up to layout: same statements, names, modifiers, operands and literal values.
pub fn same_module(a: &Module, src_a: &str, b: &Module, src_b: &str) -> bool {
    let cx = Cx { a: src_a, b: src_b };
    a.statements.same(&b.statements, &cx)
}

pub(crate) struct Cx<'a> {
    a: &'a str,
    b: &'a str,
}

impl Cx<'_> {
    fn text_eq(&self, x: Span, y: Span) -> bool {
        span_text(self.a, x) == span_text(self.b, y)
    }
    fn opt_text_eq(&self, x: Option<Span>, y: Option<Span>) -> bool {
        match (x, y) {
            (None, None) => true,
            (Some(x), Some(y)) => self.text_eq(x, y),
            _ => false,
        }
    }
    /// Raw-kept spans compare token by token, so layout inside them does not matter.
    fn tokens_eq(&self, x: Span, y: Span) -> bool {
        let (ta, tb) = (span_text(self.a, x), span_text(self.b, y));
        let (mut la, mut lb) = (Lexer::new(ta), Lexer::new(tb));
        loop {
            let (x, y) = (la.next_token(), lb.next_token());
            if x.kind != y.kind || span_text(ta, x.span) != span_text(tb, y.span) {
                return false;
            }
            if x.kind == TokenKind::Eof {
                return true;
            }
        }
    }
}

pub(crate) trait Same {
    fn same(&self, other: &Self, cx: &Cx) -> bool;
}

impl<T: Same> Same for Vec<T> {
    fn same(&self, o: &Self, cx: &Cx) -> bool {
        self.len() == o.len() && self.iter().zip(o).all(|(x, y)| x.same(y, cx))
    }
}

impl<T: Same> Same for Option<T> {
    fn same(&self, o: &Self, cx: &Cx) -> bool {
        match (self, o) {
            (None, None) => true,
            (Some(x), Some(y)) => x.same(y, cx),
            _ => false,
        }
    }
}

impl<T: Same> Same for Box<T> {
    fn same(&self, o: &Self, cx: &Cx) -> bool {
        (**self).same(o, cx)
    }
}

/// Types compared with `==` (no spans inside).
macro_rules! same_by_eq {
    ($($t:ty),*) => {$(
        impl Same for $t {
            fn same(&self, o: &Self, _: &Cx) -> bool { self == o }
        }
    )*};
}
same_by_eq!(
    u32,
    bool,
    FunctionKind,
    LinkageKind,
    StateSpace,
    ScalarType,
    VectorWidth,
    AggregateKind,
    PerformanceKind,
    ClusterKind,
    UnaryOp,
    BinaryOp
);

/// Structs compared field by field; `text` fields are spans compared by their source text.
/// Fields not listed (node spans) are ignored.
macro_rules! same_fields {
    ($t:ty { $($f:ident),* } $(text { $($tf:ident),* })?) => {
        impl Same for $t {
            fn same(&self, o: &Self, cx: &Cx) -> bool {
                let _ = cx;
                true $(&& self.$f.same(&o.$f, cx))* $($(&& cx.text_eq(self.$tf, o.$tf))*)?
            }
        }
    };
}

impl Same for Ident {
    fn same(&self, o: &Self, cx: &Cx) -> bool {
        cx.text_eq(self.span, o.span)
    }
}

impl Same for StringLit {
    fn same(&self, o: &Self, cx: &Cx) -> bool {
        cx.text_eq(self.span, o.span)
    }
}

impl Same for Name {
    fn same(&self, o: &Self, cx: &Cx) -> bool {
        self.ident.same(&o.ident, cx) && cx.opt_text_eq(self.suffix, o.suffix)
    }
}

impl Same for IntLit {
    fn same(&self, o: &Self, _: &Cx) -> bool {
        self.value == o.value && self.unsigned == o.unsigned
    }
}

impl Same for FloatLit {
    fn same(&self, o: &Self, _: &Cx) -> bool {
        match (self.value, o.value) {
            (FloatValue::F32Bits(x), FloatValue::F32Bits(y)) => x == y,
            (FloatValue::F64Bits(x), FloatValue::F64Bits(y)) => x == y,
            (FloatValue::Decimal(x), FloatValue::Decimal(y)) => x.to_bits() == y.to_bits(),
            _ => false,
        }
    }
}

same_fields!(Version { major, minor });
same_fields!(Target { targets });
same_fields!(AddressSize { size });
same_fields!(Linkage { kind });
same_fields!(Function {
    linkage,
    kind,
    name,
    returns,
    params,
    cta_dims,
    attributes,
    body
});
same_fields!(ParamList { params });
same_fields!(PerformanceDirective { kind, args });
same_fields!(ClusterDirective { kind, args });
same_fields!(CallPrototype {
    name,
    returns,
    placeholder,
    params,
    attributes
});
same_fields!(BranchTargets { name, labels });
same_fields!(CallTargets { name, funcs });
same_fields!(Block { statements });
same_fields!(Label { name });
same_fields!(TypeSpec { vector, base });
same_fields!(PtrAttribute { space, align });
impl Same for VariableDecl {
    fn same(&self, o: &Self, cx: &Cx) -> bool {
        self.linkage.same(&o.linkage, cx)
            && self.space == o.space
            && self.binding.same(&o.binding, cx)
            && self.attributes.len() == o.attributes.len()
            && self
                .attributes
                .iter()
                .zip(&o.attributes)
                .all(|(x, y)| cx.text_eq(*x, *y))
            && self.align.same(&o.align, cx)
            && self.ty.same(&o.ty, cx)
            && self.ptr.same(&o.ptr, cx)
            && self.declarators.same(&o.declarators, cx)
    }
}
same_fields!(Declarator {
    name,
    range,
    dims,
    init
});
same_fields!(StructDecl { kind, name, fields });
same_fields!(FieldDecl {
    ty,
    type_dims,
    name,
    dims
});
same_fields!(Guard { negated, predicate });
same_fields!(Address { expr, rest });
same_fields!(Indexed { base, index });
same_fields!(VectorOperand { elements });
same_fields!(PredPair { first, second });
same_fields!(OperandList { elements });
same_fields!(Pragma { strings });
same_fields!(FileDirective { index, name, extra });
same_fields!(Data { values } text { directive });
same_fields!(LinkageName { linkage, name });

impl Same for Instruction {
    fn same(&self, o: &Self, cx: &Cx) -> bool {
        self.guard.same(&o.guard, cx)
            && self.opcode.same(&o.opcode, cx)
            && self
                .modifiers(cx.a)
                .map(|m| m.1)
                .eq(o.modifiers(cx.b).map(|m| m.1))
            && self.operands.same(&o.operands, cx)
    }
}

impl Same for Loc {
    fn same(&self, o: &Self, cx: &Cx) -> bool {
        self.values.same(&o.values, cx)
            && match (self.rest, o.rest) {
                (None, None) => true,
                (Some(x), Some(y)) => cx.tokens_eq(x, y),
                _ => false,
            }
    }
}

impl Same for Section {
    fn same(&self, o: &Self, cx: &Cx) -> bool {
        cx.text_eq(self.name, o.name)
            && self.attributes.len() == o.attributes.len()
            && self
                .attributes
                .iter()
                .zip(&o.attributes)
                .all(|(x, y)| cx.tokens_eq(*x, *y))
            && self.body.same(&o.body, cx)
    }
}

impl Same for Statement {
    fn same(&self, o: &Self, cx: &Cx) -> bool {
        use Statement as S;
        match (self, o) {
            (S::Version(x), S::Version(y)) => x.same(y, cx),
            (S::Target(x), S::Target(y)) => x.same(y, cx),
            (S::AddressSize(x), S::AddressSize(y)) => x.same(y, cx),
            (S::Function(x), S::Function(y)) => x.same(y, cx),
            (S::Variable(x), S::Variable(y)) => x.same(y, cx),
            (S::Struct(x), S::Struct(y)) => x.same(y, cx),
            (S::Label(x), S::Label(y)) => x.same(y, cx),
            (S::Instruction(x), S::Instruction(y)) => x.same(y, cx),
            (S::Block(x), S::Block(y)) => x.same(y, cx),
            (S::CallPrototype(x), S::CallPrototype(y)) => x.same(y, cx),
            (S::BranchTargets(x), S::BranchTargets(y)) => x.same(y, cx),
            (S::CallTargets(x), S::CallTargets(y)) => x.same(y, cx),
            (S::Pragma(x), S::Pragma(y)) => x.same(y, cx),
            (S::File(x), S::File(y)) => x.same(y, cx),
            (S::Loc(x), S::Loc(y)) => x.same(y, cx),
            (S::Section(x), S::Section(y)) => x.same(y, cx),
            (S::Data(x), S::Data(y)) => x.same(y, cx),
            (S::LinkageName(x), S::LinkageName(y)) => x.same(y, cx),
            _ => false,
        }
    }
}

impl Same for FunctionAttribute {
    fn same(&self, o: &Self, cx: &Cx) -> bool {
        match (self, o) {
            (FunctionAttribute::Performance(x), FunctionAttribute::Performance(y)) => x.same(y, cx),
            (FunctionAttribute::Pragma(x), FunctionAttribute::Pragma(y)) => x.same(y, cx),
            (FunctionAttribute::Cluster(x), FunctionAttribute::Cluster(y)) => x.same(y, cx),
            _ => false,
        }
    }
}

impl Same for BaseType {
    fn same(&self, o: &Self, cx: &Cx) -> bool {
        match (self, o) {
            (BaseType::Scalar(x), BaseType::Scalar(y)) => x == y,
            (BaseType::Named(x), BaseType::Named(y)) => x.same(y, cx),
            _ => false,
        }
    }
}

impl Same for Initializer {
    fn same(&self, o: &Self, cx: &Cx) -> bool {
        match (self, o) {
            (Initializer::Expr(x), Initializer::Expr(y)) => x.same(y, cx),
            (Initializer::List(x, _), Initializer::List(y, _)) => x.same(y, cx),
            _ => false,
        }
    }
}

impl Same for StructField {
    fn same(&self, o: &Self, cx: &Cx) -> bool {
        match (self, o) {
            (StructField::Field(x), StructField::Field(y)) => x.same(y, cx),
            (StructField::Nested(x), StructField::Nested(y)) => x.same(y, cx),
            _ => false,
        }
    }
}

impl Same for Operand {
    fn same(&self, o: &Self, cx: &Cx) -> bool {
        use Operand as O;
        match (self, o) {
            (O::Expr(x), O::Expr(y)) => x.same(y, cx),
            (O::Address(x), O::Address(y)) => x.same(y, cx),
            (O::Indexed(x), O::Indexed(y)) => x.same(y, cx),
            (O::Vector(x), O::Vector(y)) => x.same(y, cx),
            (O::Pair(x), O::Pair(y)) => x.same(y, cx),
            (O::List(x), O::List(y)) => x.same(y, cx),
            (O::BitBucket(_), O::BitBucket(_)) => true,
            _ => false,
        }
    }
}

impl Same for Expr {
    fn same(&self, o: &Self, cx: &Cx) -> bool {
        match (self, o) {
            (Expr::Int(x), Expr::Int(y)) => x.same(y, cx),
            (Expr::Float(x), Expr::Float(y)) => x.same(y, cx),
            (Expr::Name(x), Expr::Name(y)) => x.same(y, cx),
            (Expr::Unary(x), Expr::Unary(y)) => x.same(y, cx),
            (Expr::Binary(x), Expr::Binary(y)) => x.same(y, cx),
            (Expr::Conditional(x), Expr::Conditional(y)) => x.same(y, cx),
            (Expr::Cast(x), Expr::Cast(y)) => x.same(y, cx),
            (Expr::Generic(x), Expr::Generic(y)) => x.same(y, cx),
            _ => false,
        }
    }
}

same_fields!(UnaryExpr { op, operand });
same_fields!(BinaryExpr { op, lhs, rhs });
same_fields!(ConditionalExpr {
    cond,
    then,
    otherwise
});
same_fields!(CastExpr { ty, operand });
same_fields!(GenericExpr { name });
