//! Variable declarations in every state space (ptx-isa-1.1 §5.1, §5.3): types, vectors,
//! arrays, alignment, sizes, linkage, `.const[N]` banks and `.tex[N]` bindings.

use crate::consteval::{eval, Value};
use crate::ctx::Checker;
use crate::scope::ModSym;
use diag::{Diagnostic, Span};
use ir::{Linkage, PtrAttr, VarScope, VarType, Variable};
use isa::{PtxVersion, Space, Type};
use syntax::ast::{self, ScalarType, StateSpace};

/// Largest variable that may carry an initializer: its bytes are built in memory.
pub(crate) const MAX_INIT_BYTES: u64 = 64 << 20;

/// All initialized variables of a module together.
const MAX_MODULE_INIT_BYTES: u64 = 128 << 20;

/// ptx-isa-1.1 §5.1.8: physical texture ids are 0..=127.
const MAX_TEX_ID: u64 = 127;

pub(crate) fn isa_type(t: ScalarType) -> Option<Type> {
    Some(match t {
        ScalarType::S8 => Type::S8,
        ScalarType::S16 => Type::S16,
        ScalarType::S32 => Type::S32,
        ScalarType::S64 => Type::S64,
        ScalarType::U8 => Type::U8,
        ScalarType::U16 => Type::U16,
        ScalarType::U32 => Type::U32,
        ScalarType::U64 => Type::U64,
        ScalarType::F16 => Type::F16,
        ScalarType::F16x2 => Type::F16x2,
        ScalarType::Bf16 => Type::Bf16,
        ScalarType::Bf16x2 => Type::Bf16x2,
        ScalarType::Tf32 => Type::Tf32,
        ScalarType::F32 => Type::F32,
        ScalarType::F64 => Type::F64,
        ScalarType::B8 => Type::B8,
        ScalarType::B16 => Type::B16,
        ScalarType::B32 => Type::B32,
        ScalarType::B64 => Type::B64,
        ScalarType::B128 => Type::B128,
        ScalarType::Pred => Type::Pred,
        ScalarType::Texref | ScalarType::Samplerref | ScalarType::Surfref => return None,
    })
}

pub(crate) fn isa_space(s: StateSpace) -> Space {
    match s {
        StateSpace::Reg => Space::Reg,
        StateSpace::Sreg => Space::Sreg,
        StateSpace::Const => Space::Const,
        StateSpace::Global => Space::Global,
        StateSpace::Local => Space::Local,
        StateSpace::Param => Space::Param,
        StateSpace::Shared => Space::Shared,
        StateSpace::Surf => Space::Surf,
        StateSpace::Tex => Space::Tex,
    }
}

pub(crate) fn ir_linkage(l: Option<ast::Linkage>) -> Linkage {
    match l.map(|l| l.kind) {
        None => Linkage::Internal,
        Some(ast::LinkageKind::Extern) => Linkage::Extern,
        Some(ast::LinkageKind::Visible) => Linkage::Visible,
        Some(ast::LinkageKind::Weak) => Linkage::Weak,
        Some(ast::LinkageKind::Common) => Linkage::Common,
    }
}

/// Bytes one element of the type occupies in memory (`.pred` has no memory form; 1 is used
/// only to keep arithmetic total).
pub(crate) fn type_bytes(t: Type) -> u64 {
    u64::from(t.size_bits().div_ceil(8))
}

impl<'a> Checker<'a> {
    /// The `.target`/`.version` gate of a declared `[.vN] type` (isa's declaration rules).
    pub(crate) fn check_decl_type(
        &mut self,
        ty: Type,
        vector: Option<ast::VectorWidth>,
        span: Span,
    ) -> bool {
        let lanes = vector.map_or(1, |v| v.lanes());
        match isa::check_declaration_type(ty, lanes, self.target.sm, self.version) {
            Ok(()) => true,
            Err(msg) => {
                self.error(span, msg);
                false
            }
        }
    }

    /// Evaluates a constant that counts something (array size, alignment): a non-negative
    /// integer.
    pub(crate) fn eval_count(&mut self, e: &ast::Expr, what: &str) -> Option<u64> {
        match eval(e, self.src) {
            Ok(Value::Int { bits, unsigned }) if unsigned || (bits as i64) >= 0 => Some(bits),
            Ok(Value::Int { bits, .. }) => {
                self.error(
                    e.span(),
                    format!("{what} must not be negative (got {})", bits as i64),
                );
                None
            }
            Ok(Value::Float { .. }) => {
                self.error(e.span(), format!("{what} must be an integer constant"));
                None
            }
            Err((span, msg)) => {
                self.error(span, msg);
                None
            }
        }
    }

    /// (type, byte size, natural alignment, vector length) of `[.vN] .type`.
    pub(crate) fn scalar_layout(
        &mut self,
        st: ScalarType,
        vector: Option<ast::VectorWidth>,
        span: Span,
    ) -> Option<(Type, u64, u32, u8)> {
        let Some(ty) = isa_type(st) else {
            self.error(span, format!("`{}` cannot be used here", st.as_str()));
            return None;
        };
        if !self.check_decl_type(ty, vector, span) {
            return None;
        }
        let elem = type_bytes(ty);
        let n = vector.map_or(1, |v| v.lanes());
        // A .v3 occupies and is aligned like a .v4 (PTX ISA 8.x §5.4.3 "Vectors": "vectors
        // are aligned to a multiple of their overall size"); padding keeps arrays aligned.
        let slots = if n == 3 { 4 } else { u64::from(n) };
        let size = elem.saturating_mul(slots);
        let align = u32::try_from(size).unwrap_or(u32::MAX).max(1);
        Some((ty, size, align, u8::try_from(n).unwrap_or(u8::MAX)))
    }

    /// The element type, element size and natural alignment of a declaration's type.
    fn decl_type(&mut self, decl: &ast::VariableDecl) -> Option<(VarType, u64, u32)> {
        let space = decl.space;
        let Some(ts) = decl.ty else {
            return match space {
                StateSpace::Tex | StateSpace::Surf => Some((VarType::Opaque, 0, 1)),
                _ => {
                    self.error(decl.span, "declaration needs a type");
                    None
                }
            };
        };
        match ts.base {
            ast::BaseType::Scalar(
                st @ (ScalarType::Texref | ScalarType::Samplerref | ScalarType::Surfref),
            ) => {
                // PTX ISA 8.x §5.3 "Texture, Sampler, and Surface Types", PTX ISA Notes:
                // introduced in PTX ISA version 1.5.
                let need = PtxVersion::new(1, 5);
                if self.version < need {
                    self.error(
                        ts.span,
                        format!(
                            "{} requires PTX ISA version {need} or higher (file is .version {})",
                            st.as_str(),
                            self.version
                        ),
                    );
                    return None;
                }
                // Opaque handles: 8 bytes in parameter/global space (PTX ISA 8.x §5.3).
                Some((VarType::Opaque, 8, 8))
            }
            _ if matches!(space, StateSpace::Tex | StateSpace::Surf) => {
                // ptx-isa-1.1 writes `.tex .u32 tex_a;`: the type is ignored (§5.3.1).
                Some((VarType::Opaque, 0, 1))
            }
            ast::BaseType::Scalar(st) => {
                let (ty, size, align, vector) = self.scalar_layout(st, ts.vector, ts.span)?;
                if ty == Type::Pred && space != StateSpace::Reg {
                    self.error(
                        ts.span,
                        format!(
                            "`.pred` variables live only in `.reg` (not `{}`)",
                            space.as_str()
                        ),
                    );
                    return None;
                }
                Some((VarType::Scalar { ty, vector }, size, align))
            }
            ast::BaseType::Named(n) => {
                let name = n.text(self.src);
                if ts.vector.is_some() {
                    self.error(ts.span, "vectors of structs are not allowed");
                    return None;
                }
                match self.structs.get(name) {
                    Some(l) => Some((
                        VarType::Aggregate {
                            name: name.to_string(),
                            size: l.size,
                            align: l.align,
                        },
                        l.size,
                        l.align,
                    )),
                    None => {
                        self.error(n.span, format!("unknown type `{name}`"));
                        None
                    }
                }
            }
        }
    }

    /// Lowers one declarator of an addressable (or texture) variable declaration, without its
    /// initializer bytes (see `init.rs`). Array dimensions left empty are sized from the
    /// initializer's shape.
    pub(crate) fn lower_variable(
        &mut self,
        decl: &ast::VariableDecl,
        d: &ast::Declarator,
        scope: VarScope,
    ) -> Option<Variable> {
        let space = isa_space(decl.space);
        let (ty, elem_size, natural_align) = self.decl_type(decl)?;
        if d.range.is_some() {
            self.error(
                d.span,
                "parameterized names (`x<N>`) are only allowed for registers",
            );
            return None;
        }
        let linkage = ir_linkage(decl.linkage);
        let mut dims = Vec::with_capacity(d.dims.len());
        let shape = d.init.as_ref().map(crate::init::shape_of);
        let mut unsized_extern = false;
        for (i, dim) in d.dims.iter().enumerate() {
            match dim {
                Some(e) => dims.push(self.eval_count(e, "array dimension")?),
                None => {
                    let inferred = shape.as_ref().and_then(|s| s.get(i).copied());
                    match inferred {
                        Some(n) => dims.push(n),
                        None if i == 0 && linkage == Linkage::Extern && d.init.is_none() => {
                            unsized_extern = true;
                            dims.push(0);
                        }
                        None => {
                            self.error(
                                d.span,
                                "array size is missing and there is no initializer to size it",
                            );
                            return None;
                        }
                    }
                }
            }
        }
        let size = dims
            .iter()
            .try_fold(elem_size, |n, d| n.checked_mul(*d))
            .filter(|s| *s < 1u64 << 63);
        let Some(size) = size else {
            self.error(
                d.span,
                "variable is too large: its size overflows 64-bit addresses",
            );
            return None;
        };
        let size = if unsized_extern { 0 } else { size };
        let align = match &decl.align {
            Some(e) => {
                let a = self.eval_count(e, "alignment")?;
                if a == 0 || !a.is_power_of_two() || a > 1 << 16 {
                    self.error(
                        e.span(),
                        format!("alignment must be a power of two up to 65536, not {a}"),
                    );
                    return None;
                }
                u32::try_from(a).unwrap_or(1)
            }
            None => natural_align,
        };
        let mut const_bank = 0u8;
        let mut tex_id = None;
        if let Some(b) = &decl.binding {
            let n = self.eval_count(b, "binding index")?;
            match space {
                Space::Const if n <= 10 => const_bank = u8::try_from(n).unwrap_or(0),
                Space::Const => {
                    self.error(
                        b.span(),
                        format!("constant bank {n} is out of range (0..=10)"),
                    );
                    return None;
                }
                Space::Tex if n <= MAX_TEX_ID => tex_id = u32::try_from(n).ok(),
                Space::Tex => {
                    // ptx-isa-1.1 §5.1.8: "An error is generated only if the texture id
                    // assigned is out of the physical texture id range (e.g., 0..127)."
                    self.error(
                        b.span(),
                        format!("texture id {n} is out of range (0..=127)"),
                    );
                    return None;
                }
                _ => {
                    self.error(b.span(), "only `.const` and `.tex` take a `[N]` binding");
                    return None;
                }
            }
        }
        if space == Space::Tex && tex_id.is_none() {
            let id = self.next_tex_id;
            if u64::from(id) > MAX_TEX_ID {
                self.error(
                    d.span,
                    "more than 128 textures: texture id out of range (0..=127)",
                );
                return None;
            }
            self.next_tex_id += 1;
            tex_id = Some(id);
        }
        let ptr = match &decl.ptr {
            None => None,
            Some(p) => {
                if decl.space != StateSpace::Param {
                    self.error(p.span, "`.ptr` is only allowed on `.param` parameters");
                    return None;
                }
                let align = match &p.align {
                    Some(e) => {
                        let a = self.eval_count(e, "alignment")?;
                        if a == 0 || !a.is_power_of_two() {
                            self.error(
                                e.span(),
                                format!("alignment must be a power of two, not {a}"),
                            );
                            return None;
                        }
                        u32::try_from(a).unwrap_or(1)
                    }
                    None => 1,
                };
                Some(PtrAttr {
                    space: p.space.map(isa_space),
                    align,
                })
            }
        };
        if d.init.is_some() && self.init_bytes.saturating_add(size) > MAX_MODULE_INIT_BYTES {
            self.error(
                d.span,
                format!("initialized variables exceed {MAX_MODULE_INIT_BYTES} bytes in total"),
            );
            return None;
        }
        if d.init.is_some() {
            self.init_bytes = self.init_bytes.saturating_add(size);
        }
        if d.init.is_some() && size > MAX_INIT_BYTES {
            self.error(
                d.span,
                format!(
                    "initialized variable of {size} bytes is too large (limit {MAX_INIT_BYTES})"
                ),
            );
            return None;
        }
        Some(Variable {
            name: d.name.text(self.src).to_string(),
            space,
            const_bank,
            ty,
            dims,
            size,
            align,
            init: None,
            scope,
            linkage,
            ptr,
            tex_id,
            span: d.span,
        })
    }

    /// A module-scope variable declaration (one statement, possibly several declarators).
    pub(crate) fn declare_module_variable(&mut self, decl: &'a ast::VariableDecl) {
        match decl.space {
            StateSpace::Reg => {
                self.error(
                    decl.space_span,
                    "`.reg` variables can only be declared inside a function",
                );
                return;
            }
            StateSpace::Sreg => return self.check_sreg_declaration(decl),
            StateSpace::Surf => {
                self.error(
                    decl.space_span,
                    "`.surf` declarations are not supported: \"Declarations and instructions \
                     using .surf space are not supported\" (ptx-isa-1.1 §10.5.2); PTX ISA 1.5 \
                     and later declare surfaces as `.global .surfref`",
                );
                return;
            }
            StateSpace::Param => {
                self.error(
                    decl.space_span,
                    "`.param` variables can only be declared as parameters or inside a function",
                );
                return;
            }
            _ => {}
        }
        for d in &decl.declarators {
            let Some(var) = self.lower_variable(decl, d, VarScope::Module) else {
                continue;
            };
            if let Some(init) = &d.init {
                if var.linkage == Linkage::Extern {
                    self.error(
                        init.span(),
                        "an `.extern` variable cannot have an initializer",
                    );
                    continue;
                }
                self.check_initializable(decl, init.span());
            }
            let name = d.name.text(self.src);
            let id = self.new_var(var);
            if let Err(prev) = self.syms.declare(name, ModSym::Var(id), d.name.span) {
                self.push(
                    Diagnostic::error(d.name.span, format!("`{name}` is already declared"))
                        .with_label(prev, "previous declaration here"),
                );
                continue;
            }
            self.globals.push(id);
            if let Some(init) = &d.init {
                self.pending_inits.push((id, init));
            }
        }
    }

    /// ptx-isa-1.1 §5.1 Table 5 lists which state spaces are initializable. The same spec
    /// initializes `.shared` and `.local` arrays in its §5.3 examples, so those are accepted
    /// with a warning that the table says otherwise.
    pub(crate) fn check_initializable(&mut self, decl: &ast::VariableDecl, at: Span) {
        match decl.space {
            StateSpace::Const | StateSpace::Global | StateSpace::Reg => {}
            StateSpace::Shared | StateSpace::Local => self.warn(
                at,
                format!(
                    "`{}` variables are not initializable per ptx-isa-1.1 Table 5; the \
                     initial value is applied when the storage is created",
                    decl.space.as_str()
                ),
            ),
            s => self.error(
                at,
                format!("`{}` variables cannot have an initializer", s.as_str()),
            ),
        }
    }
}
