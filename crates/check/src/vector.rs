//! Vector operands (ptx-isa-1.1 §6.4.3, §6.5.3): brace lists `{a, b, c, d}`, vector registers
//! named whole, swizzles `v.wzyx` on the source of a vector `mov`, and the scalar/vector
//! conversions of Table 10 on that source.
//!
//! Every form lowers to [`Operand::Vector`] with one element per lane of the instruction's
//! `.vN`, so the executor sees only element registers and immediates.

use crate::ctx::Checker;
use crate::func::Body;
use crate::operand::{Resolved, Slot};
use crate::selector::{parse_swizzle, vector_component};
use ir::{Operand, RegId};
use isa::{Opcode, PtxVersion, VecRule};
use syntax::ast;

impl<'a> Checker<'a> {
    pub(crate) fn lower_vector(
        &mut self,
        body: &mut Body<'a>,
        slot: &Slot<'_>,
        op: &ast::Operand,
        n: u32,
        dst: bool,
    ) -> Option<Operand> {
        // The whole-vector `mov` of ptx-isa-1.1 (`mov.v4.f32 d, a`), as opposed to the brace
        // lists of `ld`/`st`/`tex` and the pack/unpack `mov` of later versions.
        let vector_mov = slot.m.opcode() == Opcode::Mov && slot.m.mods.vec.is_some();
        // Table 10 conversions apply to the value moved, i.e. the source.
        let converts = vector_mov && !dst;
        match op {
            ast::Operand::Vector(v) => self.lower_brace_list(body, slot, v, n, dst),
            ast::Operand::Expr(ast::Expr::Name(name)) => {
                let resolved = self.resolve_name(body, name)?;
                match (resolved, name.suffix) {
                    (Resolved::VecReg { first, len }, None) => {
                        let len = u32::from(len);
                        // Table 10's lengthening and shortening is PTX 1.x; ptxas 12.9 takes
                        // only equal lengths ("Argument vector size mismatch").
                        if len != n && (!converts || self.version >= PtxVersion::new(2, 0)) {
                            self.error(
                                name.span(),
                                format!(
                                    "operand `{}` of `{}` must be a vector of {n} elements, but `{}` has {len}",
                                    slot.role.name,
                                    slot.mnemonic,
                                    name.ident.text(self.src)
                                ),
                            );
                            return None;
                        }
                        // §6.5.3 Table 10: a shorter source is zero-extended, a longer one
                        // truncated.
                        let lanes: Vec<Option<u8>> = (0..n)
                            .map(|k| (k < len).then(|| u8::try_from(k).unwrap_or(0)))
                            .collect();
                        self.vector_of_lanes(body, slot, name, first, &lanes)
                    }
                    (Resolved::VecReg { first, len }, Some(sfx)) if vector_mov => {
                        let comp = ast::span_text(self.src, sfx).trim_start_matches('.');
                        let text = name.ident.text(self.src);
                        let Some(lanes) = parse_swizzle(comp) else {
                            self.error(
                                sfx,
                                format!(
                                    "unknown vector element or swizzle `.{comp}`: use `.0`-`.3`, \
                                     `.x .y .z .w` or `.r .g .b .a` (ptx-isa-1.1 §6.4.3)"
                                ),
                            );
                            return None;
                        };
                        if dst {
                            let what = if lanes.len() == 1 {
                                "an element"
                            } else {
                                "a swizzle"
                            };
                            self.error(
                                sfx,
                                format!(
                                    "the destination of `{}` must be a whole vector or a brace \
                                     list, not {what} of `{text}`",
                                    slot.mnemonic
                                ),
                            );
                            return None;
                        }
                        if lanes.len() > 1 && self.version >= PtxVersion::new(2, 0) {
                            // The whole-vector mov stays in later files (ptxas 12.9 takes
                            // it), but its swizzles do not ("Unimplemented feature: vector
                            // swizzle").
                            self.error(
                                sfx,
                                format!(
                                    "swizzle `.{comp}` of `{text}`: vector swizzles are PTX ISA \
                                     1.x only (file is .version {})",
                                    self.version
                                ),
                            );
                            return None;
                        }
                        if let Some(&bad) = lanes.iter().find(|&&l| l >= len) {
                            self.error(
                                sfx,
                                format!(
                                    "`{text}` has only {len} elements; `.{comp}` names element {bad}"
                                ),
                            );
                            return None;
                        }
                        let lanes: Vec<Option<u8>> = if lanes.len() == 1 {
                            // §6.5.3 Table 10: a scalar (here one element) is spread.
                            vec![lanes.first().copied(); n as usize]
                        } else if lanes.len() as u32 == n {
                            lanes.into_iter().map(Some).collect()
                        } else {
                            self.error(
                                sfx,
                                format!(
                                    "swizzle `.{comp}` names {} elements but `{}` moves {n}",
                                    lanes.len(),
                                    slot.mnemonic
                                ),
                            );
                            return None;
                        };
                        self.vector_of_lanes(body, slot, name, first, &lanes)
                    }
                    (Resolved::Reg(_) | Resolved::Special(..), _) if converts => {
                        // §6.5.3 Table 10: a scalar source is spread over every element.
                        let scalar = self.lower_src_name(body, slot, name)?;
                        Some(Operand::Vector(vec![scalar; n as usize].into_boxed_slice()))
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
            ast::Operand::Expr(e) if converts => {
                // §6.5.3: "scalars are spread automatically", immediates included.
                let imm = self.lower_imm(slot, e)?;
                Some(Operand::Vector(vec![imm; n as usize].into_boxed_slice()))
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

    /// Element registers `first + lane` of a vector register (`None` lanes are the zero of
    /// Table 10's zero extension), each checked against the operand type.
    fn vector_of_lanes(
        &mut self,
        body: &mut Body<'a>,
        slot: &Slot<'_>,
        name: &ast::Name,
        first: RegId,
        lanes: &[Option<u8>],
    ) -> Option<Operand> {
        let mut out = Vec::with_capacity(lanes.len());
        for lane in lanes {
            match lane {
                Some(l) => {
                    let r = RegId(first.0 + u32::from(*l));
                    if !self.check_reg_type(body, r, slot, name.span()) {
                        return None;
                    }
                    out.push(Operand::Reg(r));
                }
                None => out.push(Operand::Imm(0)),
            }
        }
        Some(Operand::Vector(out.into_boxed_slice()))
    }

    fn lower_brace_list(
        &mut self,
        body: &mut Body<'a>,
        slot: &Slot<'_>,
        v: &ast::VectorOperand,
        n: u32,
        dst: bool,
    ) -> Option<Operand> {
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
                ast::Operand::Expr(ast::Expr::Name(name)) => {
                    self.lower_reg_name(body, slot, name).and_then(|(r, _)| {
                        self.check_reg_type(body, r, slot, name.span())
                            .then_some(Operand::Reg(r))
                    })
                }
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
}

impl Checker<'_> {
    /// §6.4.3: "Swizzling is allowed only in mov instructions, and the source and destination
    /// must be distinct": no register read through a swizzle may also be written.
    pub(crate) fn check_swizzle_distinct(
        &mut self,
        lowered: &[Operand],
        written: &[ast::Operand],
    ) -> bool {
        let (Some(Operand::Vector(d)), Some(Operand::Vector(a)), Some(src)) =
            (lowered.first(), lowered.get(1), written.get(1))
        else {
            return true;
        };
        if !is_swizzle_source(self.src, src) {
            return true;
        }
        let overlap = a
            .iter()
            .filter_map(Operand::as_reg)
            .any(|r| d.iter().any(|x| x.as_reg() == Some(r)));
        if overlap {
            self.error(
                src.span(),
                "the source and destination of a swizzling `mov` must be distinct \
                 (ptx-isa-1.1 §6.4.3)",
            );
        }
        !overlap
    }
}

/// True when the `mov` source is written as a swizzle of two or more elements (`v.wzyx`),
/// whose registers then must not also be destinations (§6.4.3: "the source
/// and destination must be distinct").
fn is_swizzle_source(src: &str, op: &ast::Operand) -> bool {
    match op {
        ast::Operand::Expr(ast::Expr::Name(n)) => n.suffix.is_some_and(|s| {
            let comp = ast::span_text(src, s).trim_start_matches('.');
            parse_swizzle(comp).is_some() && vector_component(comp).is_none()
        }),
        _ => false,
    }
}
