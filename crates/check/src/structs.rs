//! `.struct` / `.union` declarations and their layout (ptx-isa-1.1 §5.3.4): struct fields are
//! laid out in order, each at its natural alignment; union fields all start at offset 0; the
//! aggregate is aligned to its most aligned field and padded to a multiple of that.

use crate::ctx::Checker;
use diag::{Diagnostic, Span};
use syntax::ast;

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct StructLayout {
    pub name: String,
    /// `.union`: every field at offset 0.
    pub union: bool,
    pub size: u64,
    pub align: u32,
    pub fields: Vec<Field>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Field {
    /// Empty for an anonymous nested struct/union, whose members are reached directly.
    pub name: String,
    pub offset: u64,
    pub kind: FieldKind,
    /// Array dimensions (`.f32[4] v`, `.u8 c[2][3]`), outermost first; empty for one element.
    pub dims: Vec<u64>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum FieldKind {
    Scalar { ty: isa::Type, vector: u8 },
    Aggregate(Box<StructLayout>),
}

/// A member found by name: its byte offset within the aggregate and its kind.
pub(crate) fn find_member<'l>(
    layout: &'l StructLayout,
    name: &str,
) -> Option<(u64, &'l FieldKind)> {
    for f in &layout.fields {
        if f.name == name {
            return Some((f.offset, &f.kind));
        }
        if f.name.is_empty() {
            if let FieldKind::Aggregate(inner) = &f.kind {
                if let Some((off, k)) = find_member(inner, name) {
                    return Some((f.offset.saturating_add(off), k));
                }
            }
        }
    }
    None
}

fn align_up(x: u64, a: u32) -> u64 {
    let a = u64::from(a.max(1));
    x.div_ceil(a).saturating_mul(a)
}

impl<'a> Checker<'a> {
    pub(crate) fn declare_struct(&mut self, s: &'a ast::StructDecl) {
        let Some(layout) = self.layout_struct(s, 0) else {
            return;
        };
        let Some(name) = s.name else {
            self.error(s.span, "a module-level `.struct`/`.union` needs a name");
            return;
        };
        let text = name.text(self.src);
        if let Some(prev) = self.structs.get(text) {
            let prev = prev.span;
            self.push(
                Diagnostic::error(name.span, format!("duplicate type name `{text}`"))
                    .with_label(prev, "previous declaration here"),
            );
            return;
        }
        self.structs.insert(text, layout);
    }

    fn layout_struct(&mut self, s: &'a ast::StructDecl, depth: usize) -> Option<StructLayout> {
        let is_union = s.kind == ast::AggregateKind::Union;
        let mut size = 0u64;
        let mut align = 1u32;
        let mut fields = Vec::new();
        let mut ok = true;
        for f in &s.fields {
            let mut dims = Vec::new();
            let (name, kind, fsize, falign) = match f {
                ast::StructField::Field(fd) => {
                    let Some((kind, elem_size, elem_align)) = self.field_type(&fd.ty) else {
                        ok = false;
                        continue;
                    };
                    let mut count = 1u64;
                    for d in fd.type_dims.iter().chain(&fd.dims) {
                        match d
                            .as_ref()
                            .and_then(|e| self.eval_count(e, "array dimension"))
                        {
                            Some(n) => {
                                count = count.saturating_mul(n);
                                dims.push(n);
                            }
                            None => {
                                if d.is_none() {
                                    self.error(fd.span, "struct fields need explicit array sizes");
                                }
                                ok = false;
                            }
                        }
                    }
                    (
                        fd.name.text(self.src).to_string(),
                        kind,
                        elem_size.saturating_mul(count),
                        elem_align,
                    )
                }
                ast::StructField::Nested(inner) => {
                    if depth > 32 {
                        self.error(inner.span, "structs nested too deeply");
                        return None;
                    }
                    let Some(l) = self.layout_struct(inner, depth + 1) else {
                        ok = false;
                        continue;
                    };
                    let name = inner
                        .name
                        .map(|n| n.text(self.src).to_string())
                        .unwrap_or_default();
                    let (sz, al) = (l.size, l.align);
                    (name, FieldKind::Aggregate(Box::new(l)), sz, al)
                }
            };
            if !name.is_empty() && fields.iter().any(|x: &Field| x.name == name) {
                self.error(f_span(f), format!("duplicate field `{name}`"));
                ok = false;
                continue;
            }
            let offset = if is_union { 0 } else { align_up(size, falign) };
            size = if is_union {
                size.max(fsize)
            } else {
                offset.saturating_add(fsize)
            };
            align = align.max(falign);
            fields.push(Field {
                name,
                offset,
                kind,
                dims,
            });
        }
        if !ok {
            return None;
        }
        Some(StructLayout {
            union: is_union,
            name: s
                .name
                .map(|n| n.text(self.src).to_string())
                .unwrap_or_default(),
            size: align_up(size, align),
            align,
            fields,
            span: s.span,
        })
    }

    /// A field's element kind, size and natural alignment.
    fn field_type(&mut self, ts: &ast::TypeSpec) -> Option<(FieldKind, u64, u32)> {
        match ts.base {
            ast::BaseType::Scalar(st) => {
                let (ty, size, align, vector) = self.scalar_layout(st, ts.vector, ts.span)?;
                Some((FieldKind::Scalar { ty, vector }, size, align))
            }
            ast::BaseType::Named(n) => {
                let name = n.text(self.src);
                match self.structs.get(name) {
                    Some(l) => {
                        let l = l.clone();
                        let (s, a) = (l.size, l.align);
                        Some((FieldKind::Aggregate(Box::new(l)), s, a))
                    }
                    None => {
                        self.error(n.span, format!("unknown type `{name}`"));
                        None
                    }
                }
            }
        }
    }
}

fn f_span(f: &ast::StructField) -> Span {
    match f {
        ast::StructField::Field(fd) => fd.span,
        ast::StructField::Nested(s) => s.span,
    }
}
