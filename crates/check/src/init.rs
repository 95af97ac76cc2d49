//! Variable initializers (ptx-isa-1.1 §5.3.5): constants laid out as little-endian bytes in the
//! variable's element type, addresses of variables/functions as relocations.

use crate::consteval::{eval, split_symbolic};
use crate::ctx::Checker;
use crate::decl::type_bytes;
use crate::imm::imm_bits;
use crate::scope::ModSym;
use crate::structs::{FieldKind, StructLayout};
use ir::{Initializer, Reloc, RelocTarget, VarId, VarType};
use syntax::ast;

/// The extent of each nesting level of a brace initializer: `{{1,2},{3,4},{5,6}}` → `[3, 2]`.
/// Used to size `[]` dimensions.
pub(crate) fn shape_of(init: &ast::Initializer) -> Vec<u64> {
    let mut shape = Vec::new();
    fn walk(i: &ast::Initializer, level: usize, shape: &mut Vec<u64>) {
        if let ast::Initializer::List(items, _) = i {
            let n = items.len() as u64;
            match shape.get_mut(level) {
                Some(s) => *s = (*s).max(n),
                None => shape.push(n),
            }
            for it in items {
                walk(it, level + 1, shape);
            }
        }
    }
    walk(init, 0, &mut shape);
    shape
}

struct Layout {
    /// Byte offset of the object being filled within the variable (a struct member's offset).
    base: u64,
    ty: isa::Type,
    elem: u64,
    lanes: u64,
    vec_bytes: u64,
}

impl<'a> Checker<'a> {
    /// Lowers the initializer of a variable already in the arena.
    pub(crate) fn lower_module_init(&mut self, var: VarId, init: &ast::Initializer) {
        let Some(v) = self.vars.get(var.index()) else {
            return;
        };
        let size = v.size;
        let dims = v.dims.clone();
        if let (1, ast::Initializer::List(items, _)) = (dims.len(), init) {
            self.written_elements.insert(var, items.len());
        }
        let mut bytes = vec![0u8; usize::try_from(size).unwrap_or(0)];
        let mut relocs = Vec::new();
        match &v.ty {
            VarType::Scalar { ty, vector } => {
                let (ty, lanes) = (*ty, *vector);
                self.fill_scalars(ty, lanes, &dims, init, 0, &mut bytes, &mut relocs);
            }
            VarType::Aggregate { name, .. } => {
                let Some(layout) = self.structs.get(name.as_str()).cloned() else {
                    return;
                };
                self.fill_aggregates(&layout, &dims, init, 0, &mut bytes, &mut relocs);
            }
            VarType::Opaque => {
                self.error(
                    init.span(),
                    "texture and surface variables cannot be initialized",
                );
                return;
            }
        }
        if let Some(v) = self.vars.get_mut(var.index()) {
            v.init = Some(Initializer { bytes, relocs });
        }
    }

    /// Scalars or vectors of `ty` (`lanes` per vector), in an array of `dims`, starting at byte
    /// `at` of the variable.
    #[allow(clippy::too_many_arguments)]
    fn fill_scalars(
        &mut self,
        ty: isa::Type,
        lanes: u8,
        dims: &[u64],
        init: &ast::Initializer,
        at: u64,
        bytes: &mut [u8],
        relocs: &mut Vec<Reloc>,
    ) {
        let lanes = u64::from(lanes.max(1));
        let elem = type_bytes(ty);
        let vec_bytes = if lanes == 3 { 4 * elem } else { lanes * elem };
        let mut levels = dims.to_vec();
        if lanes > 1 {
            levels.push(lanes);
        }
        let layout = Layout {
            base: at,
            ty,
            elem,
            lanes,
            vec_bytes,
        };
        self.fill(&layout, &levels, init, 0, bytes, relocs);
    }

    /// An array (`dims`, possibly none) of structs/unions laid out as `layout`, at byte `at`.
    fn fill_aggregates(
        &mut self,
        layout: &StructLayout,
        dims: &[u64],
        init: &ast::Initializer,
        at: u64,
        bytes: &mut [u8],
        relocs: &mut Vec<Reloc>,
    ) {
        let Some((&n, rest)) = dims.split_first() else {
            self.fill_struct(layout, init, at, bytes, relocs);
            return;
        };
        let ast::Initializer::List(items, span) = init else {
            self.error(
                init.span(),
                format!(
                    "an array of {} needs a brace-enclosed initializer",
                    aggregate_name(layout)
                ),
            );
            return;
        };
        if items.len() as u64 > n {
            self.error(
                *span,
                format!(
                    "too many initializers: {} given for {n} elements",
                    items.len()
                ),
            );
            return;
        }
        let stride = rest.iter().fold(layout.size, |a, d| a.saturating_mul(*d));
        for (k, item) in items.iter().enumerate() {
            let at = at.saturating_add((k as u64).saturating_mul(stride));
            self.fill_aggregates(layout, rest, item, at, bytes, relocs);
        }
    }

    /// One struct or union at byte `at`. Following C (ptx-isa-1.1 §5.3.5: "Structures take a
    /// list of values that matches the fields in a structure"; initializers "follow the
    /// conventions of C/C++"): values go to the fields in declaration order, missing trailing
    /// fields are zero, nested aggregates and array fields take their own braces, and a union
    /// is initialized through its first member only.
    fn fill_struct(
        &mut self,
        layout: &StructLayout,
        init: &ast::Initializer,
        at: u64,
        bytes: &mut [u8],
        relocs: &mut Vec<Reloc>,
    ) {
        let ast::Initializer::List(items, span) = init else {
            self.error(
                init.span(),
                format!(
                    "{} needs a brace-enclosed initializer with one value per field",
                    aggregate_name(layout)
                ),
            );
            return;
        };
        if layout.union && items.len() > 1 {
            let first = layout.fields.first().map_or("", |f| f.name.as_str());
            self.error(
                *span,
                format!(
                    "a union is initialized through its first member (`{first}`) only, as in C; \
                     got {} values",
                    items.len()
                ),
            );
            return;
        }
        if items.len() > layout.fields.len() {
            self.error(
                *span,
                format!(
                    "too many initializers: {} given for {}, which has {} fields",
                    items.len(),
                    aggregate_name(layout),
                    layout.fields.len()
                ),
            );
            return;
        }
        for (field, item) in layout.fields.iter().zip(items) {
            let at = at.saturating_add(field.offset);
            match &field.kind {
                FieldKind::Scalar { ty, vector } => {
                    self.fill_scalars(*ty, *vector, &field.dims, item, at, bytes, relocs);
                }
                FieldKind::Aggregate(inner) => {
                    self.fill_aggregates(inner, &field.dims, item, at, bytes, relocs);
                }
            }
        }
    }

    fn fill(
        &mut self,
        l: &Layout,
        levels: &[u64],
        init: &ast::Initializer,
        base: u64,
        bytes: &mut [u8],
        relocs: &mut Vec<Reloc>,
    ) {
        match init {
            ast::Initializer::Expr(e) => {
                if levels.iter().any(|&n| n != 1) && !levels.is_empty() {
                    // A lone value for an aggregate: C spreads it to the first element only;
                    // PTX (§6.5.3) spreads scalars over vectors. Require braces for clarity.
                    self.error(
                        e.span(),
                        "an array or vector needs a brace-enclosed initializer",
                    );
                    return;
                }
                self.leaf(l, e, base, bytes, relocs);
            }
            ast::Initializer::List(items, span) => {
                let Some((&n, rest)) = levels.split_first() else {
                    self.error(
                        *span,
                        "a scalar is initialized with a single value, not a list",
                    );
                    return;
                };
                let stride: u64 = rest.iter().fold(1u64, |a, b| a.saturating_mul(*b));
                let flat = rest.iter().any(|&x| x > 1)
                    && items.iter().all(|i| matches!(i, ast::Initializer::Expr(_)));
                let capacity = if flat { n.saturating_mul(stride) } else { n };
                if items.len() as u64 > capacity {
                    self.error(
                        *span,
                        format!(
                            "too many initializers: {} given for {capacity} elements",
                            items.len()
                        ),
                    );
                    return;
                }
                for (k, item) in items.iter().enumerate() {
                    let k = k as u64;
                    if flat {
                        if let ast::Initializer::Expr(e) = item {
                            self.leaf(l, e, base.saturating_add(k), bytes, relocs);
                        }
                    } else {
                        let at = base.saturating_add(k.saturating_mul(stride));
                        self.fill(l, rest, item, at, bytes, relocs);
                    }
                }
            }
        }
    }

    /// Writes element number `index` (counting vector lanes).
    fn leaf(
        &mut self,
        l: &Layout,
        e: &ast::Expr,
        index: u64,
        bytes: &mut [u8],
        relocs: &mut Vec<Reloc>,
    ) {
        let offset = (index / l.lanes)
            .saturating_mul(l.vec_bytes)
            .saturating_add((index % l.lanes).saturating_mul(l.elem))
            .saturating_add(l.base);
        let (sym, addend) = if crate::operand::expr_has_name(e) {
            match split_symbolic(e, self.src) {
                Ok(x) => x,
                Err((span, msg)) => {
                    self.error(span, msg);
                    return;
                }
            }
        } else {
            (None, 0)
        };
        if let Some(sym) = sym {
            let name = sym.name.ident.text(self.src);
            if sym.name.suffix.is_some() {
                self.error(
                    sym.name.span(),
                    "member access is not supported in initializers",
                );
                return;
            }
            let target = match self.syms.get(name) {
                Some((ModSym::Var(v), _)) => RelocTarget::Var(v),
                Some((ModSym::Func(f), _)) => RelocTarget::Func(f),
                _ => {
                    self.error(
                        sym.name.span(),
                        format!("undeclared variable or function `{name}`"),
                    );
                    return;
                }
            };
            if !(l.elem == 4 || l.elem == 8) || l.ty.is_float() {
                self.error(
                    e.span(),
                    format!(
                        "an address needs a 32- or 64-bit integer element, not {}",
                        l.ty.suffix()
                    ),
                );
                return;
            }
            relocs.push(Reloc {
                offset,
                width: l.elem as u8,
                target,
                addend,
                generic: sym.generic,
            });
            return;
        }
        let bits =
            match eval(e, self.src).and_then(|v| imm_bits(v, l.ty).map_err(|m| (e.span(), m))) {
                Ok(b) => b,
                Err((span, msg)) => {
                    self.error(span, msg);
                    return;
                }
            };
        let le = bits.to_le_bytes();
        let start = usize::try_from(offset).unwrap_or(usize::MAX);
        let n = usize::try_from(l.elem).unwrap_or(0).min(8);
        if let (Some(dst), Some(src)) = (bytes.get_mut(start..start.saturating_add(n)), le.get(..n))
        {
            dst.copy_from_slice(src);
        }
    }
}

/// `struct `pt`` / `union `u`` / `an anonymous struct`, for messages.
fn aggregate_name(l: &StructLayout) -> String {
    let kind = if l.union { "union" } else { "struct" };
    if l.name.is_empty() {
        format!("an anonymous {kind}")
    } else {
        format!("{kind} `{}`", l.name)
    }
}
