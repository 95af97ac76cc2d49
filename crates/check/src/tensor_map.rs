//! The tensor-map operand of the bulk tensor instructions (`[tensorMap, {c0, …}]` of
//! `cp.async.bulk.tensor`, its prefetch and reduce forms), checked as ptxas 12.9 checks it.
//!
//! PTX ISA 8.x §9.7.9.25.5 only says the operand is "the address of the tensor-map object in
//! `.param`/`.const`/`.global` space". ptxas 12.9 takes (probed form by form, see
//! docs/spec-notes.md, "ptxas agreement"): a register of any type, except that on the sm_120
//! family a copy into `.shared::cluster` needs a 64-bit one ("Arguments mismatch for
//! instruction 'mov'"); or the name of a `.global` variable ("State space mismatch" for
//! `.const`, `.param`, `.shared` and `.local` ones).

use crate::ctx::Checker;
use crate::func::Body;
use crate::operand::{resolved_what, Resolved, Slot};
use ir::TexRef;
use isa::{Space, SrcSpace};
use syntax::ast;

impl<'a> Checker<'a> {
    pub(crate) fn lower_tensor_map(
        &mut self,
        body: &Body<'a>,
        slot: &Slot<'_>,
        tname: &ast::Name,
        resolved: Resolved,
    ) -> Option<TexRef> {
        match resolved {
            Resolved::Reg(r) => {
                let into_cluster = slot.m.mods.src_space == Some(SrcSpace::Global)
                    && slot.m.mods.space == Some(Space::SharedCluster);
                let sm120_family = self.target.sm / 10 == 12;
                let wide = body.reg_ty(r).is_some_and(|t| t.size_bits() == 64);
                if into_cluster && sm120_family && !wide {
                    self.error(
                        tname.span(),
                        format!(
                            "on sm_{} a tensor map copied into `.shared::cluster` is a 64-bit register (ptxas: \"Arguments mismatch\")",
                            self.target.sm
                        ),
                    );
                    return None;
                }
                Some(TexRef::Reg(r))
            }
            Resolved::Var(v) => {
                let space = self.vars.get(v.index()).map(|x| x.space);
                if space == Some(Space::Global) {
                    Some(TexRef::Var(v))
                } else {
                    self.error(
                        tname.span(),
                        "a tensor map named by a variable is a `.global` one (ptxas: \"State space mismatch\"); a `.param` or `.const` one is named by its address in a register",
                    );
                    None
                }
            }
            other => {
                self.error(
                    tname.span(),
                    format!(
                        "expected a tensor map (a register holding its address or a `.global` variable), found a {}",
                        resolved_what(&other)
                    ),
                );
                None
            }
        }
    }
}
