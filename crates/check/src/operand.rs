//! Lowering and checking one instruction operand against its role in the matched form:
//! operand kinds (register, immediate, address, label, ...), name resolution, type
//! compatibility (ptx-isa-1.1 §5.2.1, §6.1, §7.4) and video selectors.

use crate::consteval::{eval, split_symbolic, Symbolic};
use crate::ctx::Checker;
use crate::func::Body;
use crate::imm::imm_bits;
use crate::scope::{LocalSym, ModSym};
use crate::selector::{is_descending_mask, parse_selector, trailing_index, vector_component};
use diag::Span;
use ir::{Operand, RegId, Selector, SelectorKind, VarId};
use isa::{Opcode, OperandKind, Type, VecRule};
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
    /// The packed fp8/fp6/fp4/ue8m0 operand of `cvt` and the `.f16x2` one beside it: ptxas
    /// 12.9 takes only a register declared with exactly that type (`.b8`, `.b16`, `.b32`), no
    /// wider and no `.u8`/`.u16`.
    Exact,
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
        // `WARP_SZ` is a predefined identifier without `%` (PTX ISA 8.x §4.4).
        if text.starts_with('%') || text == "WARP_SZ" {
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
            TypeRule::Exact => expected == actual,
        };
        if !ok && slot.rule == TypeRule::Exact {
            let name = body
                .regs
                .get(reg.index())
                .map_or(String::new(), |r| r.name.to_string());
            self.error(
                span,
                format!(
                    "operand `{}` of `{}` must be a {} register (ptxas takes no other type \
                     here), but `{name}` is {}",
                    slot.role.name,
                    slot.mnemonic,
                    expected.suffix(),
                    actual.suffix()
                ),
            );
            return false;
        }
        if !ok {
            let name = body
                .regs
                .get(reg.index())
                .map_or(String::new(), |r| r.name.to_string());
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
        op: &ast::Operand,
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
            OperandKind::TargetList => self.lower_target_list(body, op),
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
    pub(crate) fn vector_len(&self, slot: &Slot<'_>) -> Option<u32> {
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

    pub(crate) fn lower_dst(
        &mut self,
        body: &mut Body<'a>,
        slot: &Slot<'_>,
        op: &ast::Operand,
    ) -> Option<Operand> {
        if let Some(n) = self.vector_len(slot) {
            return self.lower_vector(body, slot, op, n, true);
        }
        match op {
            ast::Operand::BitBucket(_) => Some(Operand::Sink),
            ast::Operand::Expr(ast::Expr::Name(name)) => {
                if let Some(r) = self.plain_register(body, slot, name) {
                    return self
                        .check_reg_type(body, r, slot, name.span())
                        .then_some(Operand::Reg(r));
                }
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

    pub(crate) fn lower_dst_pair(
        &mut self,
        body: &mut Body<'a>,
        slot: &Slot<'_>,
        op: &ast::Operand,
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

    /// The register most operands are, found without the general resolution: a name without
    /// a suffix that the function's scope resolves to a scalar register, in a role that needs
    /// no selector. `None` leaves the operand to the general path (which reports problems);
    /// for the names it accepts, the general path gives the same register.
    #[inline]
    fn plain_register(&self, body: &Body<'a>, slot: &Slot<'_>, name: &ast::Name) -> Option<RegId> {
        if name.suffix.is_some() || slot.role.selector == isa::Selector::RequiredByteHalf {
            return None;
        }
        match body.scope.lookup(name.ident.text(self.src))? {
            LocalSym::Reg(r) => Some(r),
            LocalSym::VecReg { .. } | LocalSym::Var(_) => None,
        }
    }

    /// A name that must be a (scalar) register, possibly with a vector-element suffix or, where
    /// the role allows, a video selector.
    pub(crate) fn lower_reg_name(
        &mut self,
        body: &Body<'a>,
        slot: &Slot<'_>,
        name: &ast::Name,
    ) -> Option<(RegId, Option<Selector>)> {
        let resolved = self.resolve_name(body, name)?;
        self.lower_resolved_reg(slot, name, resolved)
    }

    /// `lower_reg_name` for a name already resolved.
    pub(crate) fn lower_resolved_reg(
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
                        let msg = if crate::selector::parse_swizzle(comp).is_some() {
                            format!(
                                "swizzle `.{comp}` is allowed only on the source of a vector \
                                 `mov` (ptx-isa-1.1 §6.4.3); here a single element \
                                 (`.x`, `.0`, `.r`, …) is expected"
                            )
                        } else {
                            format!(
                                "unknown vector element `.{comp}`: elements are `.0`-`.3`, \
                                 `.x .y .z .w` or `.r .g .b .a` (ptx-isa-1.1 §6.4.3)"
                            )
                        };
                        self.error(sfx, msg);
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
    pub(crate) fn lower_selector(&mut self, slot: &Slot<'_>, sfx: Span) -> Option<Selector> {
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

    pub(crate) fn lower_imm(&mut self, slot: &Slot<'_>, e: &ast::Expr) -> Option<Operand> {
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
            // ptxas truncates an integer immediate to its operand's size (compiler test suites
            // write `add.cc.u32 d, 0xffffffffffffffffU, 1`); we do too, and say so.
            Err(msg) if crate::imm::truncated_int_bits(v, ty).is_some() => {
                let bits = crate::imm::truncated_int_bits(v, ty).unwrap_or_default();
                self.warn(
                    e.span(),
                    format!(
                        "{msg}; truncated to {bits:#x} as ptxas does (operand `{}` of `{}`)",
                        slot.role.name, slot.mnemonic
                    ),
                );
                Some(Operand::Imm(bits))
            }
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

    pub(crate) fn lower_src(
        &mut self,
        body: &mut Body<'a>,
        slot: &Slot<'_>,
        op: &ast::Operand,
    ) -> Option<Operand> {
        let kind = slot.role.kind;
        if let Some(n) = self.vector_len(slot) {
            return self.lower_vector(body, slot, op, n, false);
        }
        let expr = match op {
            ast::Operand::Expr(e) => e,
            ast::Operand::Indexed(ix) if kind == OperandKind::SrcSym => {
                // The element's address has the width of the operand (`mov.u32`/`mov.u64`).
                let width = slot
                    .expected
                    .filter(|t| matches!(t.size_bits(), 32 | 64))
                    .map(|t| {
                        if t.size_bits() == 64 {
                            Type::U64
                        } else {
                            Type::U32
                        }
                    });
                let (var, at) = self.lower_indexed(body, ix, width)?;
                self.check_address_width(slot, var, ix.base.span())?;
                return match at {
                    Ok(offset) => Some(Operand::VarAddr { var, offset }),
                    Err(r) => Some(Operand::Reg(r)),
                };
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
                // Only vmad's `{-}a{.asel}` takes `-`, and its syntax puts the selector on the
                // negated operand (ptx-video.md vmad; ptxas accepts `-%r1.h1`).
                let (r, sel) = self.lower_reg_name(body, slot, name)?;
                self.check_reg_type(body, r, slot, name.span())
                    .then_some(match sel {
                        Some(sel) => Operand::NegSelected { reg: r, sel },
                        None => Operand::Neg(r),
                    })
            }
            e => {
                let has_name = expr_has_name(e);
                if has_name && kind == OperandKind::SrcSym {
                    // `mov.u32 r, arr+4`: a variable's address plus a constant.
                    return self.lower_sym_expr(body, slot, e);
                }
                if has_name && kind == OperandKind::Src {
                    if let Some(op) = self.lower_reg_offset(body, slot, e) {
                        return op;
                    }
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

    pub(crate) fn lower_sym_expr(
        &mut self,
        body: &mut Body<'a>,
        slot: &Slot<'_>,
        e: &ast::Expr,
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
    pub(crate) fn lower_var_ref(
        &mut self,
        body: &Body<'a>,
        sym: &Symbolic,
    ) -> Option<(VarId, i64)> {
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

    pub(crate) fn lower_src_name(
        &mut self,
        body: &mut Body<'a>,
        slot: &Slot<'_>,
        name: &ast::Name,
    ) -> Option<Operand> {
        if let Some(r) = self.plain_register(body, slot, name) {
            return self
                .check_reg_type(body, r, slot, name.span())
                .then_some(Operand::Reg(r));
        }
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

    pub(crate) fn lower_special(
        &mut self,
        slot: &Slot<'_>,
        name: &ast::Name,
        info: &'static isa::SpecialRegInfo,
        comp: Option<u8>,
    ) -> Option<Operand> {
        let span = name.span();
        // ptx-isa-1.1 chapter 8: special registers "are accessed through MOV or CVT
        // instructions" (ptxas: "Special register argument not allowed for instruction").
        // WARP_SZ is a run-time constant usable wherever an immediate is (PTX ISA 8.x §4.4).
        if !matches!(slot.m.opcode(), Opcode::Mov | Opcode::Cvt)
            && info.reg != isa::SpecialReg::WarpSz
        {
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
}

fn expected_phrase(kind: OperandKind) -> &'static str {
    match kind {
        OperandKind::SrcReg => "a register",
        OperandKind::Imm => "an immediate",
        OperandKind::SrcSym => "a register, an immediate or a variable",
        _ => "a register or an immediate",
    }
}

pub(crate) fn resolved_what(r: &Resolved) -> &'static str {
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
