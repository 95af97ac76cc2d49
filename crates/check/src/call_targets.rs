//! The `flist` operand of an indirect `call` (PTX ISA §9.7.12.5): a `.calltargets` list of
//! the body, or a call table (a module array initialized with function names). Either way
//! it resolves to the functions the call may reach, and the call's operands are checked
//! against each one's signature (`inst.rs`).

use crate::ctx::Checker;
use crate::func::Body;
use crate::operand::{resolved_what, Resolved};
use crate::scope::ModSym;
use diag::Span;
use ir::{FuncId, Operand, RelocTarget, VarId};
use isa::Type;
use syntax::ast;

impl<'a> Checker<'a> {
    /// Every name of a `.calltargets` list must be a `.func` (declared or defined): ptxas
    /// 12.9 refuses an undeclared name ("Illegal call target, device function expected").
    pub(crate) fn check_call_targets(&mut self, t: &ast::CallTargets) {
        for f in &t.funcs {
            let _ = self.listed_func(f.text(self.src), f.span);
        }
    }

    /// The `.func` a list names; `None` (reported) for anything else.
    fn listed_func(&mut self, text: &str, span: Span) -> Option<FuncId> {
        match self.syms.get(text).map(|(s, _)| s) {
            Some(ModSym::Func(id)) => {
                if self
                    .functions
                    .get(id.index())
                    .is_some_and(|f| f.kind == ir::FuncKind::Entry)
                {
                    self.error(
                        span,
                        format!("`{text}` is an `.entry`; call targets must be `.func`s"),
                    );
                    return None;
                }
                Some(id)
            }
            _ => {
                self.error(span, format!("`{text}` is not a declared `.func`"));
                None
            }
        }
    }

    /// `call`'s last operand: a `.callprototype`, a `.calltargets` list of this body, or a
    /// call table.
    pub(crate) fn lower_proto(&mut self, body: &Body<'a>, op: &ast::Operand) -> Option<Operand> {
        let Some(name) = op.as_name() else {
            self.error(
                op.span(),
                "expected a `.callprototype`, a `.calltargets` list or a call table",
            );
            return None;
        };
        let text = name.ident.text(self.src);
        if name.suffix.is_none() {
            if let Some((_, at, funcs, _)) = body.call_list(text) {
                // ptxas 12.9 wants the list before the call: "Label expected for forward
                // reference".
                if at.start > name.ident.span.start {
                    self.error(
                        name.span(),
                        format!("`.calltargets` list `{text}` is used before its declaration"),
                    );
                    return None;
                }
                // Names that are not `.func`s were reported at the list.
                let ids: Option<Box<[FuncId]>> = funcs
                    .iter()
                    .map(|(f, _)| match self.syms.get(f).map(|(s, _)| s) {
                        Some(ModSym::Func(id)) => Some(id),
                        _ => None,
                    })
                    .collect();
                return ids.map(Operand::CallTargets);
            }
            // A list of another block, and nothing else of that name in scope.
            let other = body.scope.lookup(text).is_some()
                || body.protos.contains_key(text)
                || self.syms.get(text).is_some();
            if let Some(l) = body.call_lists.iter().find(|l| l.0 == text && !other) {
                self.not_in_scope(
                    name.span(),
                    format!("`.calltargets` list `{text}` is declared only in `{{ }}` blocks that do not enclose this use"),
                    Some(l.1),
                );
                return None;
            }
        }
        match self.resolve_name(body, name)? {
            Resolved::Proto(p) => Some(Operand::Proto(p)),
            Resolved::Var(v) if name.suffix.is_none() => self.call_table(v, name.span()),
            other => {
                self.error(
                    name.span(),
                    format!(
                        "`{text}` is a {}, not a `.callprototype` or a call target list",
                        resolved_what(&other)
                    ),
                );
                None
            }
        }
    }

    /// A call table: an array of `.u32`/`.u64` (ptxas 12.9: "Label or .u32/.u64/.u8 array
    /// expected") whose initializer is a list of `.func` names, nothing else. Elements left
    /// out after the names are zero, as the initializer rules give them, and are not
    /// targets; a number or variable among the names, a written `0` after them included, is
    /// refused (ptxas 12.9: "Call target not recognized" for `{f, g, 0}` as for `{f, 0, g}`).
    fn call_table(&mut self, v: VarId, span: Span) -> Option<Operand> {
        let var = self.vars.get(v.index())?;
        // ptxas 12.9: ".const or .global array expected"; a two-dimensional array is not a
        // table either ("Label or .u32/.u64/.u8 array expected"; a `.u8` array cannot hold
        // function names: "Initial value type mismatch").
        let elem = match var.ty {
            ir::VarType::Scalar { ty, vector: 1 }
                if var.dims.len() == 1
                    && matches!(var.space, ir::Space::Global | ir::Space::Const) =>
            {
                Some(ty)
            }
            _ => None,
        };
        let width = match elem {
            Some(Type::U32) => 4u64,
            Some(Type::U64) => 8,
            _ => {
                let name = var.name.clone();
                self.error(
                    span,
                    format!("`{name}` is not a call table: a call table is a one-dimensional `.global` or `.const` `.u32`/`.u64` array initialized with function names"),
                );
                return None;
            }
        };
        let mut ids = Vec::new();
        let mut bad = None;
        if let Some(init) = &var.init {
            for (k, r) in init.relocs.iter().enumerate() {
                match r.target {
                    RelocTarget::Func(id)
                        if r.offset == k as u64 * width && r.addend == 0 && !r.generic =>
                    {
                        ids.push(id)
                    }
                    _ => bad = Some(format!("element {k} is not a function name")),
                }
            }
            let names_end = usize::try_from(ids.len() as u64 * width).unwrap_or(usize::MAX);
            let written = self.written_elements.get(&v).copied().unwrap_or(0);
            if bad.is_none()
                && (written > ids.len() || init.bytes.iter().skip(names_end).any(|b| *b != 0))
            {
                bad = Some(format!("element {} is not a function name", ids.len()));
            }
        }
        if ids.is_empty() && bad.is_none() {
            bad = Some("its initializer names no function".into());
        }
        if let Some(why) = bad {
            let name = var.name.clone();
            self.error(
                span,
                format!("`{name}` is not a call table: {why} (a call table lists functions only)"),
            );
            return None;
        }
        for id in &ids {
            if let Some(f) = self
                .functions
                .get(id.index())
                .filter(|f| f.kind == ir::FuncKind::Entry)
            {
                let fname = f.name.clone();
                self.error(
                    span,
                    format!(
                        "call table lists `{fname}`, an `.entry`; call targets must be `.func`s"
                    ),
                );
                return None;
            }
        }
        Some(Operand::CallTargets(ids.into_boxed_slice()))
    }
}
