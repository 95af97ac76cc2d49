//! Lowering and checking one instruction operand against its role in the matched form:
//! operand kinds (register, immediate, address, label, ...), name resolution, type
//! compatibility (ptx-isa-1.1 §5.2.1, §6.1, §7.4) and video selectors.

use crate::consteval::{eval, split_symbolic, Symbolic};
use crate::ctx::Checker;
use crate::decl::type_bytes;
use crate::func::Body;
use crate::imm::imm_bits;
use crate::scope::{LocalSym, ModSym};
use crate::structs::{find_member, FieldKind};
use diag::Span;
use ir::{AddrBase, Address, Operand, RegId, Selector, SelectorKind, VarId, VarScope, VarType};
use isa::{Opcode, OperandKind, Space, Type, VecRule};
use syntax::ast;

/// What a name in an operand refers to.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Resolved {
    Reg(RegId),
    VecReg { first: RegId, len: u8 },
    Var(VarId),
    Func(ir::FuncId),
    Proto(ir::ProtoId),
    Special(&'static isa::SpecialRegInfo, Option<u8>),
}

/// The role an operand plays, as far as type rules are concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TypeRule {
    /// §6.1: compatible types only.
    Strict,
    /// `ld`/`st`/`cvt` data operands: integer and bit-size registers may be wider than the
    /// instruction type (PTX ISA 8.x §6.4.1, "Operand Size Exceeding Instruction-Type Size").
    Relaxed,
}

/// Everything `lower_operand` needs to know about the position being filled.
pub(crate) struct Slot<'m> {
    pub m: &'m isa::Match,
    pub role: &'static isa::Operand,
    pub expected: Option<Type>,
    pub rule: TypeRule,
    /// The opcode plus modifiers as written, for messages (`add.s32`).
    pub mnemonic: &'m str,
}

impl<'a> Checker<'a> {
    /// Resolves a name: function scope first, then module scope, then special registers.
    pub(crate) fn resolve_name(&mut self, body: &Body<'a>, name: &ast::Name) -> Option<Resolved> {
        let r = self.lookup_name(body, name);
        if r.is_none() && !std::mem::take(&mut self.reported_lookup) {
            let text = name.ident.text(self.src);
            let msg = if body.labels.contains_key(text) {
                format!("`{text}` is a label; labels are only branch targets")
            } else {
                format!("undeclared identifier `{text}`")
            };
            self.error(name.ident.span, msg);
        }
        r
    }

    /// Like `resolve_name`, but reports nothing when the name is simply undeclared (a bad
    /// special-register component is still reported, and remembered in `reported_lookup`).
    pub(crate) fn lookup_name(&mut self, body: &Body<'a>, name: &ast::Name) -> Option<Resolved> {
        let text = name.ident.text(self.src);
        if let Some(sym) = body.scope.lookup(text) {
            return Some(match sym {
                LocalSym::Reg(r) => Resolved::Reg(r),
                LocalSym::VecReg { first, len } => Resolved::VecReg { first, len },
                LocalSym::Var(v) => Resolved::Var(v),
            });
        }
        if let Some(p) = body.protos.get(text) {
            return Some(Resolved::Proto(*p));
        }
        if let Some((sym, _)) = self.syms.get(text) {
            return Some(match sym {
                ModSym::Var(v) => Resolved::Var(v),
                ModSym::Func(f) => Resolved::Func(f),
                ModSym::Proto(p) => Resolved::Proto(p),
            });
        }
        if text.starts_with('%') {
            let full = ast::span_text(self.src, name.span());
            if let Some((info, comp)) = isa::lookup_special_reg(full) {
                return Some(Resolved::Special(info, comp));
            }
            if let Some((info, comp)) = isa::lookup_special_reg(text) {
                // `%tid` with a suffix that is not a component.
                let _ = comp;
                self.error(
                    name.span(),
                    format!(
                        "`{full}` is not a component of special register `{}`",
                        info.name
                    ),
                );
                self.reported_lookup = true;
                return None;
            }
        }
        None
    }

    pub(crate) fn check_reg_type(
        &mut self,
        body: &Body<'a>,
        reg: RegId,
        slot: &Slot<'_>,
        span: Span,
    ) -> bool {
        let (Some(actual), Some(expected)) = (body.reg_ty(reg), slot.expected) else {
            return true;
        };
        let ok = match slot.rule {
            TypeRule::Strict => isa::compatible(expected, actual),
            TypeRule::Relaxed => isa::compatible_ld_st(expected, actual),
        };
        if !ok {
            let name = body.regs.get(reg.index()).map_or("", |r| r.name.as_str());
            self.error(
                span,
                format!(
                    "operand `{}` of `{}` must be compatible with {}, but `{name}` is {}",
                    slot.role.name,
                    slot.mnemonic,
                    expected.suffix(),
                    actual.suffix()
                ),
            );
        }
        ok
    }

    /// Lowers one AST operand into the position `slot` describes.
    pub(crate) fn lower_operand(
        &mut self,
        body: &mut Body<'a>,
        slot: &Slot<'_>,
        op: &'a ast::Operand,
    ) -> Option<Operand> {
        match slot.role.kind {
            OperandKind::Dst => self.lower_dst(body, slot, op),
            OperandKind::DstPair => self.lower_dst_pair(body, slot, op),
            OperandKind::Src | OperandKind::SrcReg | OperandKind::Imm | OperandKind::SrcSym => {
                self.lower_src(body, slot, op)
            }
            OperandKind::Addr => self.lower_address(body, slot, op),
            OperandKind::TexAddr => self.lower_tex_address(body, slot, op),
            OperandKind::Label => self.lower_label(body, op),
            OperandKind::Func => self.lower_callee(body, slot, op),
            OperandKind::ParamList => self.lower_list(body, op),
            OperandKind::Proto => self.lower_proto(body, op),
            #[allow(unreachable_patterns)]
            _ => {
                self.error(op.span(), "unsupported operand kind");
                None
            }
        }
    }

    /// How many elements a vector operand in this position has, if it is a vector.
    fn vector_len(&self, slot: &Slot<'_>) -> Option<u32> {
        match slot.role.vector {
            VecRule::Scalar => None,
            VecRule::FromVecMod => slot.m.mods.vec.map(|v| v.lanes()),
            VecRule::Fixed(n) => Some(u32::from(n)),
            VecRule::FromGeom => Some(match slot.m.mods.geom {
                Some(isa::Geom::D1) => 1,
                Some(isa::Geom::D2 | isa::Geom::A1d | isa::Geom::D2ms) => 2,
                _ => 4,
            }),
            #[allow(unreachable_patterns)]
            _ => None,
        }
    }

    fn lower_dst(
        &mut self,
        body: &mut Body<'a>,
        slot: &Slot<'_>,
        op: &'a ast::Operand,
    ) -> Option<Operand> {
        if let Some(n) = self.vector_len(slot) {
            return self.lower_vector(body, slot, op, n, true);
        }
        match op {
            ast::Operand::BitBucket(_) => Some(Operand::Sink),
            ast::Operand::Expr(ast::Expr::Name(name)) => {
                let (reg, sel) = self.lower_reg_name(body, slot, name)?;
                if !self.check_reg_type(body, reg, slot, name.span()) {
                    return None;
                }
                Some(match sel {
                    Some(sel) => Operand::Selected { reg, sel },
                    None => Operand::Reg(reg),
                })
            }
            other => {
                self.error(
                    other.span(),
                    format!(
                        "destination `{}` of `{}` must be a register",
                        slot.role.name, slot.mnemonic
                    ),
                );
                None
            }
        }
    }

    fn lower_dst_pair(
        &mut self,
        body: &mut Body<'a>,
        slot: &Slot<'_>,
        op: &'a ast::Operand,
    ) -> Option<Operand> {
        let (first, second) = match op {
            ast::Operand::Pair(p) => (p.first, Some(p.second)),
            ast::Operand::Expr(ast::Expr::Name(n)) => (*n, None),
            other => {
                self.error(
                    other.span(),
                    format!(
                        "destination of `{}` must be a register or a pair `p|q`",
                        slot.mnemonic
                    ),
                );
                return None;
            }
        };
        let (d, _) = self.lower_reg_name(body, slot, &first)?;
        if !self.check_reg_type(body, d, slot, first.span()) {
            return None;
        }
        let q = match second {
            Some(n) if n.ident.text(self.src) == "_" => None,
            Some(n) => {
                let pred_slot = Slot {
                    expected: Some(Type::Pred),
                    ..*slot
                };
                let (q, _) = self.lower_reg_name(body, &pred_slot, &n)?;
                if !self.check_reg_type(body, q, &pred_slot, n.span()) {
                    return None;
                }
                Some(q)
            }
            None => None,
        };
        Some(Operand::PredPair(d, q))
    }

    /// A name that must be a (scalar) register, possibly with a vector-element suffix or, where
    /// the role allows, a video selector.
    fn lower_reg_name(
        &mut self,
        body: &Body<'a>,
        slot: &Slot<'_>,
        name: &ast::Name,
    ) -> Option<(RegId, Option<Selector>)> {
        let resolved = self.resolve_name(body, name)?;
        self.lower_resolved_reg(slot, name, resolved)
    }

    /// `lower_reg_name` for a name already resolved.
    fn lower_resolved_reg(
        &mut self,
        slot: &Slot<'_>,
        name: &ast::Name,
        resolved: Resolved,
    ) -> Option<(RegId, Option<Selector>)> {
        let text = name.ident.text(self.src);
        match resolved {
            Resolved::Reg(r) => match name.suffix {
                None => {
                    if slot.role.selector == isa::Selector::RequiredByteHalf {
                        self.error(
                            name.span(),
                            format!(
                                "`{}` of `{}` needs a selector (`.b0`…`.b3`, `.h0`, `.h1`)",
                                slot.role.name, slot.mnemonic
                            ),
                        );
                        return None;
                    }
                    Some((r, None))
                }
                Some(sfx) => {
                    let sel = self.lower_selector(slot, sfx)?;
                    Some((r, Some(sel)))
                }
            },
            Resolved::VecReg { first, len } => {
                let Some(sfx) = name.suffix else {
                    self.error(
                        name.span(),
                        format!(
                            "vector register `{text}` used where a scalar register is expected"
                        ),
                    );
                    return None;
                };
                let comp = ast::span_text(self.src, sfx).trim_start_matches('.');
                match vector_component(comp) {
                    Some(c) if c < len => Some((RegId(first.0 + u32::from(c)), None)),
                    Some(_) => {
                        self.error(sfx, format!("`{text}` has only {len} elements"));
                        None
                    }
                    None => {
                        self.error(
                            sfx,
                            format!(
                                "unsupported vector suffix `.{comp}` (swizzles are not supported)"
                            ),
                        );
                        None
                    }
                }
            }
            Resolved::Special(info, _) => {
                self.error(
                    name.span(),
                    format!(
                        "special register `{}` is read-only and cannot be written",
                        info.name
                    ),
                );
                None
            }
            _ => {
                self.error(
                    name.span(),
                    format!(
                        "operand `{}` of `{}` must be a register, but `{text}` is not",
                        slot.role.name, slot.mnemonic
                    ),
                );
                None
            }
        }
    }

    /// Video selectors (ptx-video.md): `.b0`–`.b3`, `.h0`/`.h1` for scalar video; `.hxy` for
    /// SIMD2 sources, `.bxyzw` for SIMD4 sources; `.h0 .h1 .h10` and `.b0`…`.b3210` masks.
    fn lower_selector(&mut self, slot: &Slot<'_>, sfx: Span) -> Option<Selector> {
        use isa::Selector as S;
        let text = ast::span_text(self.src, sfx);
        let parsed = parse_selector(text);
        let ok = match (slot.role.selector, parsed) {
            (S::OptionalByteHalf | S::RequiredByteHalf, Some(s)) => {
                s.len == 1
                    && match s.kind {
                        SelectorKind::Byte => s.lanes[0] <= 3,
                        SelectorKind::Half => s.lanes[0] <= 1,
                    }
            }
            (S::OptionalHalves, Some(s)) => {
                s.kind == SelectorKind::Half && s.len == 2 && s.lanes[..2].iter().all(|&l| l <= 3)
            }
            (S::OptionalBytes, Some(s)) => {
                s.kind == SelectorKind::Byte && s.len == 4 && s.lanes.iter().all(|&l| l <= 7)
            }
            (S::OptionalMask2, Some(s)) => {
                s.kind == SelectorKind::Half && is_descending_mask(&s, 1)
            }
            (S::OptionalMask4, Some(s)) => {
                s.kind == SelectorKind::Byte && is_descending_mask(&s, 3)
            }
            _ => false,
        };
        if ok {
            return parsed;
        }
        let msg = if slot.role.selector == S::None {
            format!(
                "unexpected suffix `{text}` on operand `{}` of `{}`",
                slot.role.name, slot.mnemonic
            )
        } else {
            format!(
                "invalid selector `{text}` for operand `{}` of `{}`",
                slot.role.name, slot.mnemonic
            )
        };
        self.error(sfx, msg);
        None
    }

    fn lower_vector(
        &mut self,
        body: &mut Body<'a>,
        slot: &Slot<'_>,
        op: &'a ast::Operand,
        n: u32,
        dst: bool,
    ) -> Option<Operand> {
        let elem_slot = Slot {
            role: slot.role,
            ..*slot
        };
        match op {
            ast::Operand::Vector(v) => {
                let fits = v.elements.len() as u32 == n
                    || (slot.role.vector == VecRule::FromGeom && v.elements.len() == 3 && n == 4);
                if !fits {
                    self.error(
                        v.span,
                        format!(
                            "operand `{}` of `{}` needs {n} elements, got {}",
                            slot.role.name,
                            slot.mnemonic,
                            v.elements.len()
                        ),
                    );
                    return None;
                }
                let mut out = Vec::with_capacity(v.elements.len());
                let mut ok = true;
                for e in &v.elements {
                    let lowered = match e {
                        ast::Operand::BitBucket(_) if dst => Some(Operand::Sink),
                        ast::Operand::Expr(ast::Expr::Name(name)) => self
                            .lower_reg_name(body, &elem_slot, name)
                            .and_then(|(r, _)| {
                                self.check_reg_type(body, r, &elem_slot, name.span())
                                    .then_some(Operand::Reg(r))
                            }),
                        ast::Operand::Expr(e) if !dst => self.lower_imm(slot, e),
                        other => {
                            self.error(other.span(), "vector elements must be registers");
                            None
                        }
                    };
                    match lowered {
                        Some(o) => out.push(o),
                        None => ok = false,
                    }
                }
                ok.then(|| Operand::Vector(out.into_boxed_slice()))
            }
            ast::Operand::Expr(ast::Expr::Name(name)) if name.suffix.is_none() => {
                match self.resolve_name(body, name)? {
                    Resolved::VecReg { first, len } if u32::from(len) == n => {
                        let regs: Vec<Operand> = (0..u32::from(len))
                            .map(|i| Operand::Reg(RegId(first.0 + i)))
                            .collect();
                        for i in 0..u32::from(len) {
                            if !self.check_reg_type(
                                body,
                                RegId(first.0 + i),
                                &elem_slot,
                                name.span(),
                            ) {
                                return None;
                            }
                        }
                        Some(Operand::Vector(regs.into_boxed_slice()))
                    }
                    _ => {
                        self.error(
                            name.span(),
                            format!(
                                "operand `{}` of `{}` must be a vector of {n} registers (`{{a, b, …}}`)",
                                slot.role.name, slot.mnemonic
                            ),
                        );
                        None
                    }
                }
            }
            other => {
                self.error(
                    other.span(),
                    format!(
                        "operand `{}` of `{}` must be a vector of {n} registers (`{{a, b, …}}`)",
                        slot.role.name, slot.mnemonic
                    ),
                );
                None
            }
        }
    }

    fn lower_imm(&mut self, slot: &Slot<'_>, e: &ast::Expr) -> Option<Operand> {
        // Packed SIMD operands are `.b32` registers (ptx-integer-arithmetic.md §add); ptxas
        // rejects immediates there.
        if let isa::TypeRef::Slot(k) = slot.role.ty {
            if let Some(t) = slot.m.types.get(usize::from(k)).copied().flatten() {
                if t.is_packed() {
                    self.error(
                        e.span(),
                        format!(
                            "immediate operands are not allowed for {} (operand `{}` of `{}`)",
                            t.suffix(),
                            slot.role.name,
                            slot.mnemonic
                        ),
                    );
                    return None;
                }
            }
        }
        let v = match eval(e, self.src) {
            Ok(v) => v,
            Err((span, msg)) => {
                self.error(span, msg);
                return None;
            }
        };
        let ty = slot.expected.unwrap_or(Type::B64);
        match imm_bits(v, ty) {
            Ok(bits) => Some(Operand::Imm(bits)),
            Err(msg) => {
                self.error(
                    e.span(),
                    format!(
                        "{msg} (operand `{}` of `{}`)",
                        slot.role.name, slot.mnemonic
                    ),
                );
                None
            }
        }
    }

    fn lower_src(
        &mut self,
        body: &mut Body<'a>,
        slot: &Slot<'_>,
        op: &'a ast::Operand,
    ) -> Option<Operand> {
        let kind = slot.role.kind;
        if let Some(n) = self.vector_len(slot) {
            return self.lower_vector(body, slot, op, n, false);
        }
        let expr = match op {
            ast::Operand::Expr(e) => e,
            ast::Operand::Indexed(ix) if kind == OperandKind::SrcSym => {
                let (var, off) = self.lower_indexed(body, ix)?;
                return Some(Operand::VarAddr { var, offset: off });
            }
            other => {
                self.error(
                    other.span(),
                    format!(
                        "operand `{}` of `{}` must be {}",
                        slot.role.name,
                        slot.mnemonic,
                        expected_phrase(kind)
                    ),
                );
                return None;
            }
        };
        if kind == OperandKind::Imm && expr_has_name(expr) {
            self.error(
                expr.span(),
                format!(
                    "operand `{}` of `{}` must be an immediate",
                    slot.role.name, slot.mnemonic
                ),
            );
            return None;
        }
        match expr {
            ast::Expr::Name(name) => self.lower_src_name(body, slot, name),
            ast::Expr::Unary(u)
                if u.op == ast::UnaryOp::Not && matches!(u.operand, ast::Expr::Name(_)) =>
            {
                let (ast::Expr::Name(name), span) = (&u.operand, &u.span) else {
                    return None;
                };
                // `!p` negates any predicate source (ptxas accepts `and.pred d, a, !b`), not
                // only the `{!}c` positions the syntax blocks spell out.
                if slot.role.negate != isa::Negate::Not && slot.expected != Some(Type::Pred) {
                    self.error(
                        *span,
                        format!(
                            "operand `{}` of `{}` cannot be negated with `!`",
                            slot.role.name, slot.mnemonic
                        ),
                    );
                    return None;
                }
                let (r, _) = self.lower_reg_name(body, slot, name)?;
                self.check_reg_type(body, r, slot, name.span())
                    .then_some(Operand::NotPred(r))
            }
            ast::Expr::Unary(u)
                if u.op == ast::UnaryOp::Neg && matches!(u.operand, ast::Expr::Name(_)) =>
            {
                let (ast::Expr::Name(name), span) = (&u.operand, &u.span) else {
                    return None;
                };
                if slot.role.negate != isa::Negate::Minus {
                    self.error(
                        *span,
                        format!(
                            "operand `{}` of `{}` cannot be negated with `-`",
                            slot.role.name, slot.mnemonic
                        ),
                    );
                    return None;
                }
                let (r, sel) = self.lower_reg_name(body, slot, name)?;
                if sel.is_some() {
                    self.error(*span, "a negated operand cannot also have a selector");
                    return None;
                }
                self.check_reg_type(body, r, slot, name.span())
                    .then_some(Operand::Neg(r))
            }
            e => {
                let has_name = expr_has_name(e);
                if has_name && kind == OperandKind::SrcSym {
                    // `mov.u32 r, arr+4`: a variable's address plus a constant.
                    return self.lower_sym_expr(body, slot, e);
                }
                if kind == OperandKind::SrcReg {
                    self.error(
                        e.span(),
                        format!(
                            "operand `{}` of `{}` must be a register, not an immediate",
                            slot.role.name, slot.mnemonic
                        ),
                    );
                    return None;
                }
                self.lower_imm(slot, e)
            }
        }
    }

    /// The address of a `.global` variable is as wide as `.address_size`; a narrower
    /// destination cannot hold it (ptxas: "Program uses 32-bit address … conflicting with
    /// .address_size 64"). `.shared`, `.local`, `.const` and `.param` addresses are offsets in
    /// their windows and fit 32 bits (ptxas accepts `mov.u32 r, cvar`).
    fn check_address_width(&mut self, slot: &Slot<'_>, v: VarId, span: Span) -> Option<()> {
        let var = self.vars.get(v.index())?;
        let wide_space = var.space == Space::Global;
        let is_cvta = slot.m.opcode() == Opcode::Cvta;
        if let Some(t) = slot.expected {
            let bits = self.address_size.bits();
            if wide_space && !is_cvta && t.size_bits() < bits {
                let name = var.name.clone();
                self.error(
                    span,
                    format!(
                        "the address of `{name}` is {bits} bits (`.address_size {bits}`); `{}` holds only {}",
                        slot.mnemonic,
                        t.size_bits()
                    ),
                );
                return None;
            }
        }
        Some(())
    }

    fn lower_sym_expr(
        &mut self,
        body: &mut Body<'a>,
        slot: &Slot<'_>,
        e: &'a ast::Expr,
    ) -> Option<Operand> {
        let (sym, off) = match split_symbolic(e, self.src) {
            Ok(x) => x,
            Err((span, msg)) => {
                self.error(span, msg);
                return None;
            }
        };
        let sym = sym?;
        let (var, base) = self.lower_var_ref(body, &sym)?;
        self.check_address_width(slot, var, sym.name.span())?;
        Some(Operand::VarAddr {
            var,
            offset: base.wrapping_add(off),
        })
    }

    /// A variable name (with an optional member suffix) in an address or address-of position.
    fn lower_var_ref(&mut self, body: &Body<'a>, sym: &Symbolic) -> Option<(VarId, i64)> {
        match self.resolve_name(body, &sym.name)? {
            Resolved::Var(v) => {
                let off = self.member_offset(v, &sym.name)?;
                Some((v, off))
            }
            _ => {
                self.error(
                    sym.name.span(),
                    format!(
                        "`{}` is not a variable",
                        ast::span_text(self.src, sym.name.span())
                    ),
                );
                None
            }
        }
    }

    /// `p.x` on a struct variable: the member's byte offset.
    fn member_offset(&mut self, v: VarId, name: &ast::Name) -> Option<i64> {
        let Some(sfx) = name.suffix else {
            return Some(0);
        };
        let var = self.vars.get(v.index())?;
        let VarType::Aggregate { name: tname, .. } = &var.ty else {
            self.error(sfx, format!("`{}` has no members", var.name));
            return None;
        };
        let mut layout = self.structs.get(tname.as_str()).cloned()?;
        let mut off = 0u64;
        for (span, part) in name.suffix_parts(self.src) {
            match find_member(&layout, part) {
                Some((o, kind)) => {
                    off = off.saturating_add(o);
                    if let FieldKind::Aggregate(inner) = kind {
                        layout = (**inner).clone();
                    }
                }
                None => {
                    self.error(span, format!("no member `{part}` in `{}`", layout.name));
                    return None;
                }
            }
        }
        i64::try_from(off).ok()
    }

    fn lower_src_name(
        &mut self,
        body: &mut Body<'a>,
        slot: &Slot<'_>,
        name: &ast::Name,
    ) -> Option<Operand> {
        let kind = slot.role.kind;
        let resolved = self.resolve_name(body, name)?;
        match resolved {
            Resolved::Reg(_) | Resolved::VecReg { .. } => {
                let (r, sel) = self.lower_resolved_reg(slot, name, resolved)?;
                if !self.check_reg_type(body, r, slot, name.span()) {
                    return None;
                }
                Some(match sel {
                    Some(sel) => Operand::Selected { reg: r, sel },
                    None => Operand::Reg(r),
                })
            }
            Resolved::Special(info, comp) => self.lower_special(slot, name, info, comp),
            Resolved::Var(v) if kind == OperandKind::SrcSym => {
                let offset = self.member_offset(v, name)?;
                self.check_address_width(slot, v, name.span())?;
                Some(Operand::VarAddr { var: v, offset })
            }
            Resolved::Func(f) if kind == OperandKind::SrcSym => Some(Operand::Func(f)),
            _ => {
                self.error(
                    name.span(),
                    format!(
                        "operand `{}` of `{}` must be {}, but `{}` is a {}",
                        slot.role.name,
                        slot.mnemonic,
                        expected_phrase(kind),
                        name.ident.text(self.src),
                        resolved_what(&resolved)
                    ),
                );
                None
            }
        }
    }

    fn lower_special(
        &mut self,
        slot: &Slot<'_>,
        name: &ast::Name,
        info: &'static isa::SpecialRegInfo,
        comp: Option<u8>,
    ) -> Option<Operand> {
        let span = name.span();
        // ptx-isa-1.1 chapter 8: special registers "are accessed through MOV or CVT
        // instructions" (ptxas: "Special register argument not allowed for instruction").
        if !matches!(slot.m.opcode(), Opcode::Mov | Opcode::Cvt) {
            self.error(
                span,
                format!(
                    "special register `{}` can only be read with `mov` or `cvt`",
                    info.name
                ),
            );
            return None;
        }
        let gate = info.gate;
        if self.target.sm < gate.min_sm {
            self.error(
                span,
                format!(
                    "{} requires .target sm_{} or higher (file targets sm_{})",
                    info.name, gate.min_sm, self.target.sm
                ),
            );
            return None;
        }
        if self.version < gate.min_ptx {
            self.error(
                span,
                format!(
                    "{} requires PTX ISA version {} or higher (file is .version {})",
                    info.name, gate.min_ptx, self.version
                ),
            );
            return None;
        }
        let ty = info.type_for(self.version);
        if let Some(expected) = slot.expected {
            // mov/cvt widen or narrow special registers freely among integer types (ptx-isa-1.1
            // Table 62: `mov.b16 r0,%tid.0; // zero-extends tid.0 to r0`, Table 64:
            // `mov.u32 %r1,%ctaid.1` of a .u16 register).
            let int_like = |t: Type| t.is_integer() || t.is_bits();
            let ok = isa::compatible(expected, ty) || (int_like(expected) && int_like(ty));
            if !ok {
                self.error(
                    span,
                    format!(
                        "special register `{}` is {}, not compatible with `{}`",
                        info.name,
                        ty.suffix(),
                        slot.mnemonic
                    ),
                );
                return None;
            }
        }
        let index = match comp {
            Some(c) => c,
            None if info.count > 0 => trailing_index(name.ident.text(self.src)),
            // §6.5.3 Table 10: a vector read as a scalar gives its element 0.
            None => 0,
        };
        Some(Operand::Special {
            reg: info.reg,
            index,
        })
    }

    fn lower_indexed(&mut self, body: &Body<'a>, ix: &'a ast::Indexed) -> Option<(VarId, i64)> {
        let Resolved::Var(v) = self.resolve_name(body, &ix.base)? else {
            self.error(ix.base.span(), "only arrays can be indexed");
            return None;
        };
        let base = self.member_offset(v, &ix.base)?;
        let idx = match eval(&ix.index, self.src) {
            Ok(crate::consteval::Value::Int { bits, .. }) => bits as i64,
            Ok(_) => {
                self.error(ix.index.span(), "an array index must be an integer");
                return None;
            }
            Err(_) => {
                self.error(
                    ix.index.span(),
                    "array indexing with a register is not supported; compute the address with integer instructions",
                );
                return None;
            }
        };
        let elem = match self.vars.get(v.index()).map(|x| &x.ty) {
            Some(VarType::Scalar { ty, vector }) => {
                let e = type_bytes(*ty);
                if *vector == 3 {
                    4 * e
                } else {
                    e * u64::from(*vector)
                }
            }
            Some(VarType::Aggregate { size, .. }) => *size,
            _ => 1,
        };
        Some((v, base.wrapping_add(idx.wrapping_mul(elem as i64))))
    }

    fn lower_address(
        &mut self,
        body: &mut Body<'a>,
        slot: &Slot<'_>,
        op: &'a ast::Operand,
    ) -> Option<Operand> {
        let addr = match op {
            ast::Operand::Address(a) if a.rest.is_empty() => {
                let (sym, off) = match split_symbolic(&a.expr, self.src) {
                    Ok(x) => x,
                    Err((span, msg)) => {
                        self.error(span, msg);
                        return None;
                    }
                };
                match sym {
                    None => Address {
                        base: AddrBase::Absolute,
                        offset: off,
                    },
                    Some(sym) => match self.resolve_name(body, &sym.name)? {
                        Resolved::Reg(r) => {
                            if sym.name.suffix.is_some() {
                                self.error(
                                    sym.name.span(),
                                    "unexpected suffix on an address register",
                                );
                                return None;
                            }
                            let ty = body.reg_ty(r).unwrap_or(Type::Pred);
                            let ok = (ty.is_integer() || ty.is_bits())
                                && matches!(ty.size_bits(), 32 | 64);
                            if !ok {
                                self.error(
                                    sym.name.span(),
                                    format!(
                                        "an address register must be a 32- or 64-bit integer or bit-size register, not {}",
                                        ty.suffix()
                                    ),
                                );
                                return None;
                            }
                            Address {
                                base: AddrBase::Reg(r),
                                offset: off,
                            }
                        }
                        Resolved::Var(v) => {
                            let m = self.member_offset(v, &sym.name)?;
                            self.check_var_space(slot, v, sym.name.span())?;
                            Address {
                                base: AddrBase::Var(v),
                                offset: m.wrapping_add(off),
                            }
                        }
                        other => {
                            self.error(
                                sym.name.span(),
                                format!(
                                    "an address must be a register or a variable, but `{}` is a {}",
                                    sym.name.ident.text(self.src),
                                    resolved_what(&other)
                                ),
                            );
                            return None;
                        }
                    },
                }
            }
            // ptx-isa-1.1 §6.4.2: `ld.u32 s, a[N-1]`.
            ast::Operand::Indexed(ix) => {
                let (v, off) = self.lower_indexed(body, ix)?;
                self.check_var_space(slot, v, ix.base.span())?;
                Address {
                    base: AddrBase::Var(v),
                    offset: off,
                }
            }
            other => {
                self.error(
                    other.span(),
                    format!(
                        "operand `{}` of `{}` must be an address `[…]`",
                        slot.role.name, slot.mnemonic
                    ),
                );
                return None;
            }
        };
        Some(Operand::Address(addr))
    }

    /// A named variable in an address must live in the instruction's state space (generic
    /// instructions take any addressable variable); kernel parameters are read-only.
    fn check_var_space(&mut self, slot: &Slot<'_>, v: VarId, span: Span) -> Option<()> {
        let var = self.vars.get(v.index())?;
        let (vspace, vscope) = (var.space, var.scope);
        let vname = || {
            self.vars
                .get(v.index())
                .map_or(String::new(), |x| x.name.clone())
        };
        let ispace = slot.m.mods.space;
        let same = |a: Space, b: Space| {
            a == b
                || matches!(
                    (a, b),
                    (Space::Shared, Space::SharedCta | Space::SharedCluster)
                        | (Space::Param, Space::ParamEntry | Space::ParamFunc)
                )
        };
        match ispace {
            Some(s) if !same(vspace, s) => {
                self.error(
                    span,
                    format!(
                        "`{}` is in `{}` but `{}` accesses `{}`",
                        vname(),
                        vspace.spelling(),
                        slot.mnemonic,
                        s.spelling()
                    ),
                );
                return None;
            }
            None if matches!(vspace, Space::Tex | Space::Surf | Space::Reg | Space::Sreg) => {
                self.error(span, format!("`{}` is not addressable", vname()));
                return None;
            }
            _ => {}
        }
        let writes = matches!(slot.m.opcode(), Opcode::St | Opcode::Atom | Opcode::Red);
        if writes && vspace == Space::Param {
            if let VarScope::Param(f) = vscope {
                let is_entry = self
                    .functions
                    .get(f.index())
                    .is_some_and(|func| func.kind == ir::FuncKind::Entry);
                if is_entry {
                    self.error(
                        span,
                        format!(
                            "kernel parameter `{}` is read-only (ptx-isa-1.1 §5.1 Table 5)",
                            vname()
                        ),
                    );
                    return None;
                }
            }
        }
        if writes && vspace == Space::Const {
            self.error(
                span,
                format!("`{}` is in read-only `.const` space", vname()),
            );
            return None;
        }
        Some(())
    }

    fn lower_tex_address(
        &mut self,
        body: &mut Body<'a>,
        slot: &Slot<'_>,
        op: &'a ast::Operand,
    ) -> Option<Operand> {
        let ast::Operand::Address(a) = op else {
            self.error(
                op.span(),
                "a texture operand is written `[tex, {coordinates}]`",
            );
            return None;
        };
        let ast::Expr::Name(tname) = &a.expr else {
            self.error(a.expr.span(), "expected a texture name");
            return None;
        };
        let tex = match self.resolve_name(body, tname)? {
            Resolved::Var(v)
                if self
                    .vars
                    .get(v.index())
                    .is_some_and(|x| x.space == Space::Tex || matches!(x.ty, VarType::Opaque)) =>
            {
                v
            }
            Resolved::Var(_) => {
                self.error(
                    tname.span(),
                    "expected a texture (a `.tex` variable or a `.texref`)",
                );
                return None;
            }
            other => {
                self.error(
                    tname.span(),
                    format!("expected a texture, found a {}", resolved_what(&other)),
                );
                return None;
            }
        };
        let (sampler, coords_op) = match a.rest.as_slice() {
            [c] => (None, c),
            [ast::Operand::Expr(ast::Expr::Name(s)), c] => match self.resolve_name(body, s)? {
                Resolved::Var(v) => (Some(v), c),
                _ => {
                    self.error(s.span(), "expected a sampler");
                    return None;
                }
            },
            _ => {
                self.error(
                    a.span,
                    "a texture operand is written `[tex, {coordinates}]`",
                );
                return None;
            }
        };
        let n = match slot.m.mods.geom {
            Some(isa::Geom::D1) => 1,
            Some(isa::Geom::D2 | isa::Geom::A1d | isa::Geom::D2ms) => 2,
            _ => 4,
        };
        let coord_ty = slot.m.types.iter().rev().flatten().next().copied();
        let coord_slot = Slot {
            expected: coord_ty,
            ..*slot
        };
        let role: &'static isa::Operand = match n {
            // (n is the coordinate count: 1, 2 or 4)
            1 => &COORDS[0],
            2 => &COORDS[1],
            _ => &COORDS[2],
        };
        let coord_slot = Slot { role, ..coord_slot };
        let coords = match self.lower_vector(body, &coord_slot, coords_op, n, false)? {
            Operand::Vector(v) => v,
            _ => return None,
        };
        Some(Operand::Texture {
            tex,
            sampler,
            coords,
        })
    }

    fn lower_label(&mut self, body: &Body<'a>, op: &'a ast::Operand) -> Option<Operand> {
        let Some(name) = op.as_name().filter(|n| n.suffix.is_none()) else {
            self.error(op.span(), "expected a label");
            return None;
        };
        let text = name.ident.text(self.src);
        match body.labels.get(text) {
            Some((idx, _)) => Some(Operand::Label(*idx)),
            None => {
                self.error(name.span(), format!("undeclared label `{text}`"));
                None
            }
        }
    }

    fn lower_callee(
        &mut self,
        body: &Body<'a>,
        slot: &Slot<'_>,
        op: &'a ast::Operand,
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

    fn lower_list(&mut self, body: &mut Body<'a>, op: &'a ast::Operand) -> Option<Operand> {
        let ast::Operand::List(list) = op else {
            self.error(op.span(), "expected a parenthesised list `(a, b, …)`");
            return None;
        };
        let mut out = Vec::with_capacity(list.elements.len());
        let mut ok = true;
        for e in &list.elements {
            let lowered = match e {
                ast::Operand::Expr(ast::Expr::Name(n)) => match self.resolve_name(body, n) {
                    Some(Resolved::Reg(r)) if n.suffix.is_none() => Some(Operand::Reg(r)),
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
        ok.then(|| Operand::List(out.into_boxed_slice()))
    }

    fn lower_proto(&mut self, body: &Body<'a>, op: &'a ast::Operand) -> Option<Operand> {
        let Some(name) = op.as_name() else {
            self.error(op.span(), "expected a `.callprototype` name");
            return None;
        };
        match self.resolve_name(body, name)? {
            Resolved::Proto(p) => Some(Operand::Proto(p)),
            other => {
                self.error(
                    name.span(),
                    format!(
                        "`{}` is a {}, not a `.callprototype`",
                        name.ident.text(self.src),
                        resolved_what(&other)
                    ),
                );
                None
            }
        }
    }
}

const fn coords_role(n: u8) -> isa::Operand {
    isa::Operand {
        name: "coordinates",
        kind: OperandKind::Src,
        ty: isa::TypeRef::Any,
        optional: false,
        negate: isa::Negate::None,
        selector: isa::Selector::None,
        vector: VecRule::Fixed(n),
    }
}

static COORDS: [isa::Operand; 3] = [coords_role(1), coords_role(2), coords_role(4)];

fn expected_phrase(kind: OperandKind) -> &'static str {
    match kind {
        OperandKind::SrcReg => "a register",
        OperandKind::Imm => "an immediate",
        OperandKind::SrcSym => "a register, an immediate or a variable",
        _ => "a register or an immediate",
    }
}

fn resolved_what(r: &Resolved) -> &'static str {
    match r {
        Resolved::Reg(_) => "register",
        Resolved::VecReg { .. } => "vector register",
        Resolved::Var(_) => "variable",
        Resolved::Func(_) => "function",
        Resolved::Proto(_) => "call prototype",
        Resolved::Special(..) => "special register",
    }
}

pub(crate) fn expr_has_name(e: &ast::Expr) -> bool {
    match e {
        ast::Expr::Name(_) | ast::Expr::Generic { .. } => true,
        ast::Expr::Int(_) | ast::Expr::Float(_) => false,
        ast::Expr::Unary(u) => expr_has_name(&u.operand),
        ast::Expr::Cast(c) => expr_has_name(&c.operand),
        ast::Expr::Binary(b) => expr_has_name(&b.lhs) || expr_has_name(&b.rhs),
        ast::Expr::Conditional(c) => {
            expr_has_name(&c.cond) || expr_has_name(&c.then) || expr_has_name(&c.otherwise)
        }
    }
}

/// `.x .y .z .w`, `.r .g .b .a`, `.0 .1 .2 .3` (ptx-isa-1.1 §6.4.3).
fn vector_component(s: &str) -> Option<u8> {
    Some(match s {
        "x" | "r" | "0" => 0,
        "y" | "g" | "1" => 1,
        "z" | "b" | "2" => 2,
        "w" | "a" | "3" => 3,
        _ => return None,
    })
}

/// `%envreg12` → 12.
fn trailing_index(name: &str) -> u8 {
    let digits: String = name
        .chars()
        .skip_while(|c| !c.is_ascii_digit())
        .take_while(|c| c.is_ascii_digit())
        .collect();
    digits.parse().unwrap_or(0)
}

/// `.b0`, `.b7654`, `.h1`, `.h10`: kind and lanes as written (1 to 4 digits).
fn parse_selector(text: &str) -> Option<Selector> {
    let rest = text.strip_prefix('.')?;
    let (kind, digits) = match rest.as_bytes().first()? {
        b'b' => (SelectorKind::Byte, rest.get(1..)?),
        b'h' => (SelectorKind::Half, rest.get(1..)?),
        _ => return None,
    };
    if digits.is_empty() || digits.len() > 4 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut lanes = [0u8; 4];
    for (slot, b) in lanes.iter_mut().zip(digits.bytes()) {
        *slot = b - b'0';
    }
    Some(Selector {
        kind,
        lanes,
        len: digits.len() as u8,
    })
}

/// Masks list distinct lanes from high to low: `.b310`, `.h10`.
fn is_descending_mask(s: &Selector, max: u8) -> bool {
    let lanes = s.lanes.get(..usize::from(s.len)).unwrap_or(&[]);
    lanes.iter().all(|&l| l <= max) && lanes.windows(2).all(|w| w.first() > w.get(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selectors_parse_as_written() {
        let s = parse_selector(".b7654").unwrap();
        assert_eq!(
            (s.kind, s.lanes, s.len),
            (SelectorKind::Byte, [7, 6, 5, 4], 4)
        );
        let s = parse_selector(".h10").unwrap();
        assert_eq!(
            (s.kind, &s.lanes[..2], s.len),
            (SelectorKind::Half, &[1u8, 0][..], 2)
        );
        assert!(parse_selector(".x").is_none());
        assert!(parse_selector(".b").is_none());
        assert!(parse_selector(".b01234").is_none());
        assert!(is_descending_mask(&parse_selector(".b310").unwrap(), 3));
        assert!(!is_descending_mask(&parse_selector(".b013").unwrap(), 3));
        assert!(!is_descending_mask(&parse_selector(".b4").unwrap(), 3));
    }

    #[test]
    fn components() {
        assert_eq!(vector_component("w"), Some(3));
        assert_eq!(vector_component("g"), Some(1));
        assert_eq!(vector_component("xy"), None);
        assert_eq!(trailing_index("%envreg31"), 31);
    }
}
