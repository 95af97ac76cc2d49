//! Address operands (`[reg+imm]`, `[var]`, `a[N]`, struct members), the state-space rules
//! of named variables in addresses, and texture operands `[tex, {coords}]`.

use crate::consteval::{eval, split_symbolic};
use crate::ctx::Checker;
use crate::decl::type_bytes;
use crate::func::Body;
use crate::operand::{resolved_what, Resolved, Slot};
use crate::structs::{find_member, FieldKind};
use diag::Span;
use ir::{AddrBase, Address, Operand, RegId, TexRef, VarId, VarScope, VarType};
use isa::{Opcode, OperandKind, Space, Type, VecRule};
use syntax::ast;

impl<'a> Checker<'a> {
    /// `p.x` on a struct variable: the member's byte offset.
    pub(crate) fn member_offset(&mut self, v: VarId, name: &ast::Name) -> Option<i64> {
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

    /// `a[N]`: the variable and the element's byte offset (`Ok`), or for `a[r]`/`a[r±c]` the
    /// variable and a register computed to hold the element's address (`Err`).
    ///
    /// `width` is the integer type the computed address register gets (the address size when
    /// `None`): a `mov.u32` of a `.shared` element's address in a 64-bit module wants 32 bits.
    pub(crate) fn lower_indexed(
        &mut self,
        body: &mut Body<'a>,
        ix: &ast::Indexed,
        width: Option<Type>,
    ) -> Option<(VarId, Result<i64, RegId>)> {
        let Resolved::Var(v) = self.resolve_name(body, &ix.base)? else {
            self.error(ix.base.span(), "only arrays can be indexed");
            return None;
        };
        let base = self.member_offset(v, &ix.base)?;
        let elem = self.element_size(v);
        let idx = match eval(&ix.index, self.src) {
            Ok(crate::consteval::Value::Int { bits, .. }) => bits as i64,
            Ok(_) => {
                self.error(ix.index.span(), "an array index must be an integer");
                return None;
            }
            Err(_) if crate::operand::expr_has_name(&ix.index) => {
                let r = self.lower_register_index(body, ix, v, base, elem, width)?;
                return Some((v, Err(r)));
            }
            Err((span, msg)) => {
                self.error(span, msg);
                return None;
            }
        };
        Some((v, Ok(base.wrapping_add(idx.wrapping_mul(elem as i64)))))
    }

    /// Bytes per element of an array variable (a `.v3` element occupies 4 lanes).
    fn element_size(&self, v: VarId) -> u64 {
        match self.vars.get(v.index()).map(|x| &x.ty) {
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
        }
    }

    pub(crate) fn lower_address(
        &mut self,
        body: &mut Body<'a>,
        slot: &Slot<'_>,
        op: &ast::Operand,
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
                let (v, at) = self.lower_indexed(body, ix, None)?;
                self.check_var_space(slot, v, ix.base.span())?;
                match at {
                    Ok(offset) => Address {
                        base: AddrBase::Var(v),
                        offset,
                    },
                    Err(r) => Address {
                        base: AddrBase::Reg(r),
                        offset: 0,
                    },
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
    pub(crate) fn check_var_space(&mut self, slot: &Slot<'_>, v: VarId, span: Span) -> Option<()> {
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

    /// The address of a `.global` variable is as wide as `.address_size`; a narrower
    /// destination cannot hold it (ptxas: "Program uses 32-bit address … conflicting with
    /// .address_size 64"). `.shared`, `.local`, `.const` and `.param` addresses are offsets in
    /// their windows and fit 32 bits (ptxas accepts `mov.u32 r, cvar`).
    pub(crate) fn check_address_width(
        &mut self,
        slot: &Slot<'_>,
        v: VarId,
        span: Span,
    ) -> Option<()> {
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

    pub(crate) fn lower_tex_address(
        &mut self,
        body: &mut Body<'a>,
        slot: &Slot<'_>,
        op: &ast::Operand,
    ) -> Option<Operand> {
        let ast::Operand::Address(a) = op else {
            self.error(
                op.span(),
                "a texture operand is written `[tex, {coordinates}]`",
            );
            return None;
        };
        let tensor = slot.m.mods.tensor_dim.is_some();
        let tname = match &a.expr {
            ast::Expr::Name(n) => *n,
            e if tensor => {
                self.error(
                    e.span(),
                    "a tensor map is a register or a `.global` variable's name, without an offset (ptxas 12.9: \"syntax error\")",
                );
                return None;
            }
            e => {
                self.error(e.span(), "expected a texture name");
                return None;
            }
        };
        let tname = &tname;
        // A texture object (a 64-bit handle in a register) or a texture variable; likewise a
        // sampler.
        let handle =
            |this: &mut Self, body: &Body<'a>, r: RegId, what: &str, span| match body.reg_ty(r) {
                Some(Type::U64 | Type::S64 | Type::B64) => Some(TexRef::Reg(r)),
                _ => {
                    this.error(span, format!("a {what} handle is a 64-bit register"));
                    None
                }
            };
        let tex = match self.resolve_name(body, tname)? {
            resolved if tensor => self.lower_tensor_map(body, slot, tname, resolved)?,
            Resolved::Var(v)
                if self
                    .vars
                    .get(v.index())
                    .is_some_and(|x| x.space == Space::Tex || matches!(x.ty, VarType::Opaque)) =>
            {
                TexRef::Var(v)
            }
            Resolved::Reg(r) => handle(self, body, r, "texture", tname.span())?,
            Resolved::Var(_) => {
                self.error(
                    tname.span(),
                    "expected a texture (a `.tex` variable, a `.texref` or a 64-bit handle register)",
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
                Resolved::Var(v) => (Some(TexRef::Var(v)), c),
                Resolved::Reg(r) => (Some(handle(self, body, r, "sampler", s.span())?), c),
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
        // A bulk tensor copy's `[tensorMap, {coordinates}]`: one `.s32` coordinate per
        // dimension of its `.Nd` (PTX ISA 8.x §9.7.9.25.5.2), and no sampler.
        let tensor_rank = slot.m.mods.tensor_dim.map(isa::TensorDim::rank);
        if tensor_rank.is_some() && sampler.is_some() {
            self.error(
                a.span,
                "a tensor operand is written `[tensorMap, {coordinates}]`",
            );
            return None;
        }
        let n = match (tensor_rank, slot.m.mods.geom) {
            (Some(r), _) => u32::from(r),
            (None, Some(isa::Geom::D1)) => 1,
            (None, Some(isa::Geom::D2 | isa::Geom::A1d | isa::Geom::D2ms)) => 2,
            _ => 4,
        };
        let coord_ty = match tensor_rank {
            Some(_) => Some(Type::S32),
            None => slot.m.types.iter().rev().flatten().next().copied(),
        };
        let coord_slot = Slot {
            expected: coord_ty,
            ..*slot
        };
        let role: &'static isa::Operand = match n {
            // (n is the coordinate count: 1 to 5)
            1 => &COORDS[0],
            2 => &COORDS[1],
            3 => &COORDS[3],
            5 => &COORDS[4],
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

static COORDS: [isa::Operand; 5] = [
    coords_role(1),
    coords_role(2),
    coords_role(4),
    coords_role(3),
    coords_role(5),
];
