//! Variable initializers (ptx-isa-1.1 §5.3.5): constants laid out as little-endian bytes in the
//! variable's element type, addresses of variables/functions as relocations.

use crate::consteval::{eval, split_symbolic};
use crate::ctx::Checker;
use crate::decl::type_bytes;
use crate::imm::imm_bits;
use crate::scope::ModSym;
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
        let (ty, lanes) = match &v.ty {
            VarType::Scalar { ty, vector } => (*ty, u64::from(*vector)),
            VarType::Aggregate { .. } => {
                self.error(
                    init.span(),
                    "initializers of struct/union variables are not supported",
                );
                return;
            }
            VarType::Opaque => {
                self.error(
                    init.span(),
                    "texture and surface variables cannot be initialized",
                );
                return;
            }
        };
        let elem = type_bytes(ty);
        let vec_bytes = if lanes == 3 { 4 * elem } else { lanes * elem };
        let mut levels = v.dims.clone();
        if lanes > 1 {
            levels.push(lanes);
        }
        let size = v.size;
        let layout = Layout {
            ty,
            elem,
            lanes,
            vec_bytes,
        };
        let mut bytes = vec![0u8; usize::try_from(size).unwrap_or(0)];
        let mut relocs = Vec::new();
        self.fill(&layout, &levels, init, 0, &mut bytes, &mut relocs);
        if let Some(v) = self.vars.get_mut(var.index()) {
            v.init = Some(Initializer { bytes, relocs });
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
            .saturating_add((index % l.lanes).saturating_mul(l.elem));
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
