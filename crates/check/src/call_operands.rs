//! Control-flow operands: branch labels, call targets, argument lists and prototypes.

use crate::consteval::eval;
use crate::ctx::Checker;
use crate::func::Body;
use crate::operand::{expr_has_name, resolved_what, Resolved, Slot};
use diag::Diagnostic;
use ir::{InstIdx, Operand, RegId};
use isa::Type;
use syntax::ast;

impl<'a> Checker<'a> {
    pub(crate) fn lower_label(&mut self, body: &Body<'a>, op: &ast::Operand) -> Option<Operand> {
        let Some(name) = op.as_name().filter(|n| n.suffix.is_none()) else {
            self.error(op.span(), "expected a label");
            return None;
        };
        let text = name.ident.text(self.src);
        match body.label(text) {
            Some(idx) => Some(Operand::Label(idx)),
            None if body.has_label_anywhere(text) => {
                self.not_in_scope(
                    name.span(),
                    format!("label `{text}` is declared only in `{{ }}` blocks that do not enclose this use"),
                    body.label_declared_at(text),
                );
                None
            }
            None => {
                self.error(name.span(), format!("undeclared label `{text}`"));
                None
            }
        }
    }

    /// `brx.idx`'s list operand: the name of a `.branchtargets` list of this body, resolved
    /// to its labels' instructions (labels unknown here are reported at the list).
    pub(crate) fn lower_target_list(
        &mut self,
        body: &Body<'a>,
        op: &ast::Operand,
    ) -> Option<Operand> {
        let Some(name) = op.as_name().filter(|n| n.suffix.is_none()) else {
            self.error(op.span(), "expected the name of a `.branchtargets` list");
            return None;
        };
        let text = name.ident.text(self.src);
        let Some((_, at, labels, block)) = body.target_list(text) else {
            if let Some(l) = body.target_lists.iter().find(|l| l.0 == text) {
                self.not_in_scope(
                    name.span(),
                    format!("`.branchtargets` list `{text}` is declared only in `{{ }}` blocks that do not enclose this use"),
                    Some(l.1),
                );
                return None;
            }
            let msg = if body.has_label_anywhere(text) {
                format!("`{text}` is a label; `brx.idx` takes a `.branchtargets` list")
            } else {
                format!("undeclared `.branchtargets` list `{text}`")
            };
            self.push(
                Diagnostic::error(name.span(), msg)
                    .with_note("declare it in the function: `ts: .branchtargets L1, L2, …;`"),
            );
            return None;
        };
        // ptxas 12.9 wants the list before the branch: "Label expected for forward reference".
        if at.start > name.ident.span.start {
            self.error(
                name.span(),
                format!("`.branchtargets` list `{text}` is used before its declaration"),
            );
            return None;
        }
        // The list's labels are those visible where it is declared, an enclosing block.
        let depth = body
            .block_stack
            .iter()
            .position(|b| b == block)
            .map_or(0, |d| d + 1);
        let chain = body.block_stack.get(..depth).unwrap_or_default();
        let targets: Option<Box<[InstIdx]>> = labels
            .iter()
            .map(|(l, _)| body.label_from(l, chain))
            .collect();
        targets.map(Operand::TargetList)
    }

    /// Every label of a `.branchtargets` list must be a label of the function.
    pub(crate) fn check_branch_targets(&mut self, body: &Body<'a>, t: &ast::BranchTargets) {
        for l in &t.labels {
            let text = l.text(self.src);
            if body.label(text).is_some() {
                continue;
            }
            match body.label_declared_at(text) {
                Some(at) => self.not_in_scope(
                    l.span,
                    format!("label `{text}` is declared only in `{{ }}` blocks that do not enclose this list"),
                    Some(at),
                ),
                None => self.error(l.span, format!("undeclared label `{text}`")),
            }
        }
    }

    /// A name that is declared, but in a `{ }` block that does not enclose its use: the error
    /// at the use, pointing at the declaration (the first, when there are several).
    pub(crate) fn not_in_scope(
        &mut self,
        at: diag::Span,
        msg: String,
        declared: Option<diag::Span>,
    ) {
        let d = Diagnostic::error(at, msg);
        self.push(match declared {
            Some(decl) => d.with_label(decl, "declared here"),
            None => d,
        });
    }

    pub(crate) fn lower_callee(
        &mut self,
        body: &Body<'a>,
        slot: &Slot<'_>,
        op: &ast::Operand,
    ) -> Option<Operand> {
        let Some(name) = op.as_name() else {
            self.error(
                op.span(),
                "expected a function name or a register holding its address",
            );
            return None;
        };
        let Some(resolved) = self.lookup_name(body, name) else {
            if !std::mem::take(&mut self.reported_lookup) {
                self.error(
                    name.span(),
                    format!("undeclared function `{}`", name.ident.text(self.src)),
                );
            }
            return None;
        };
        match resolved {
            Resolved::Func(f) => Some(Operand::Func(f)),
            Resolved::Reg(r) => {
                let ty = body.reg_ty(r).unwrap_or(Type::Pred);
                if !((ty.is_integer() || ty.is_bits()) && matches!(ty.size_bits(), 32 | 64)) {
                    self.error(
                        name.span(),
                        "a function pointer must be a 32- or 64-bit integer register",
                    );
                    return None;
                }
                let _ = slot;
                Some(Operand::Reg(r))
            }
            other => {
                self.error(
                    name.span(),
                    format!(
                        "`{}` is a {}, not a function",
                        name.ident.text(self.src),
                        resolved_what(&other)
                    ),
                );
                None
            }
        }
    }

    pub(crate) fn lower_list(&mut self, body: &mut Body<'a>, op: &ast::Operand) -> Option<Operand> {
        let ast::Operand::List(list) = op else {
            self.error(op.span(), "expected a parenthesised list `(a, b, …)`");
            return None;
        };
        let mut out = Vec::with_capacity(list.elements.len());
        let mut ok = true;
        // Elements per written argument, kept only when a vector register is passed.
        let mut lanes: Vec<u8> = Vec::new();
        for e in &list.elements {
            lanes.push(1);
            let lowered = match e {
                ast::Operand::Expr(ast::Expr::Name(n)) => match self.resolve_name(body, n) {
                    Some(Resolved::Reg(r)) if n.suffix.is_none() => Some(Operand::Reg(r)),
                    // A vector register binds a vector `.reg` parameter: one operand per
                    // element, as the callee's parameter is one register per element.
                    Some(Resolved::VecReg { first, len }) if n.suffix.is_none() => {
                        for k in 1..u32::from(len) {
                            out.push(Operand::Reg(RegId(first.0.saturating_add(k - 1))));
                        }
                        if let Some(l) = lanes.last_mut() {
                            *l = len;
                        }
                        Some(Operand::Reg(RegId(
                            first.0.saturating_add(u32::from(len).saturating_sub(1)),
                        )))
                    }
                    Some(Resolved::Var(v)) => self
                        .member_offset(v, n)
                        .map(|offset| Operand::VarAddr { var: v, offset }),
                    Some(Resolved::Reg(_) | Resolved::VecReg { .. }) => {
                        self.error(
                            n.span(),
                            "call arguments must be whole registers or `.param` variables",
                        );
                        None
                    }
                    Some(other) => {
                        self.error(
                            n.span(),
                            format!("a call argument cannot be a {}", resolved_what(&other)),
                        );
                        None
                    }
                    None => None,
                },
                ast::Operand::Expr(e) if !expr_has_name(e) => match eval(e, self.src) {
                    Ok(crate::consteval::Value::Int { bits, .. }) => Some(Operand::Imm(bits)),
                    Ok(crate::consteval::Value::Float { value, .. }) => {
                        Some(Operand::Imm(value.to_bits()))
                    }
                    Err((span, msg)) => {
                        self.error(span, msg);
                        None
                    }
                },
                other => {
                    self.error(
                        other.span(),
                        "call arguments must be registers, `.param` variables or constants",
                    );
                    None
                }
            };
            match lowered {
                Some(o) => out.push(o),
                None => ok = false,
            }
        }
        if lanes.iter().any(|&l| l > 1) {
            self.list_lanes.push((list.span, lanes));
        }
        ok.then(|| Operand::List(out.into_boxed_slice()))
    }

    /// The elements of each written argument of the call list at `span` (all 1 unless a
    /// vector register was passed).
    pub(crate) fn arg_lanes(&self, span: diag::Span, written: usize) -> Vec<u8> {
        self.list_lanes
            .iter()
            .rev()
            .find(|(s, _)| *s == span)
            .map_or_else(|| vec![1; written], |(_, l)| l.clone())
    }

    /// Constants in a call's argument list take the type of the parameter they bind (an
    /// immediate "defaults to the size of the instruction source operand", ptx-isa-1.1
    /// §6.4.5; for `call` that operand is the callee's parameter): `call f, (1.5)` passes the
    /// `.f32` bits of 1.5 to an `.f32` parameter and the `.f64` bits to an `.f64` one.
    pub(crate) fn convert_call_immediates(
        &mut self,
        m: &isa::Match,
        ops: &mut [Operand],
        written: &[ast::Operand],
    ) {
        if m.form.opcode != isa::Opcode::Call {
            return;
        }
        let mut types: Option<Vec<Option<Type>>> = None;
        for op in ops.iter() {
            // A call through a list binds each listed function's parameters; the check
            // holds them to one signature, so the first one's types serve.
            let direct = match op {
                Operand::Func(f) => Some(*f),
                Operand::CallTargets(fs) => fs.first().copied(),
                _ => None,
            };
            match (op, direct) {
                (_, Some(f)) => {
                    types = self.functions.get(f.index()).map(|f| {
                        f.params
                            .iter()
                            .map(|p| match p {
                                ir::Param::Reg(r) => f.regs.get(r.index()).map(|r| r.ty),
                                ir::Param::Var(v) => match self.vars.get(v.index()) {
                                    Some(ir::Variable {
                                        ty: ir::VarType::Scalar { ty, vector: 1 },
                                        dims,
                                        ..
                                    }) if dims.is_empty() => Some(*ty),
                                    _ => None,
                                },
                            })
                            .collect()
                    });
                }
                (Operand::Proto(p), _) => {
                    types = self
                        .prototypes
                        .get(p.index())
                        .map(|p| p.params.iter().map(|q| Some(q.ty)).collect());
                }
                _ => {}
            }
        }
        let Some(types) = types else {
            return;
        };
        for ((role, op), ast_op) in m.form.operands.iter().zip(ops.iter_mut()).zip(written) {
            let (true, Operand::List(args), ast::Operand::List(ast_args)) =
                (role.name == "params", op, ast_op)
            else {
                continue;
            };
            // The lowered list has one operand per vector element: repeat each written
            // argument over its elements.
            let lanes = self.arg_lanes(ast_args.span, ast_args.elements.len());
            let written = ast_args
                .elements
                .iter()
                .zip(&lanes)
                .flat_map(|(a, &n)| std::iter::repeat_n(a, usize::from(n)));
            for ((arg, ast_arg), ty) in args.iter_mut().zip(written).zip(&types) {
                let (Operand::Imm(_), ast::Operand::Expr(e), Some(ty)) = (&*arg, ast_arg, ty)
                else {
                    continue;
                };
                let converted = eval(e, self.src)
                    .map_err(|(_, m)| m)
                    .and_then(|v| crate::imm::imm_bits(v, *ty));
                match converted {
                    Ok(bits) => *arg = Operand::Imm(bits),
                    Err(msg) => self.error(
                        e.span(),
                        format!("{msg} (argument of `call` for a {} parameter)", ty.suffix()),
                    ),
                }
            }
        }
    }
}
