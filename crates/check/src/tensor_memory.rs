//! `tcgen05` operands ptxas checks beyond their types (PTX ISA 8.x §9.7.16): a tensor-memory
//! address is a 32-bit register, with an optional offset (ptxas: "Arguments mismatch" for a
//! 64-bit register, a variable or an absolute address), and `tcgen05.mma`'s scale-input-d is
//! 0 to 15 ("value '16' out of range, expected to be in range [0..15]").

use crate::ctx::Checker;
use crate::func::Body;
use diag::Span;
use ir::{AddrBase, Operand};
use isa::{Opcode, TensorOp, Type};
use syntax::ast;

impl<'a> Checker<'a> {
    pub(crate) fn check_tensor_memory(
        &mut self,
        body: &Body<'a>,
        m: &isa::Match,
        ops: &[Operand],
        ast_ops: &[ast::Operand],
    ) -> bool {
        if m.form.opcode != Opcode::Tcgen05 {
            return true;
        }
        // `alloc` writes the address into shared memory and `commit` signals an mbarrier
        // there: their addresses are ordinary shared-memory ones.
        if matches!(m.mods.tensor_op, Some(TensorOp::Alloc | TensorOp::Commit)) {
            return true;
        }
        let span = |i: usize| ast_ops.get(i).map_or(Span::default(), |o| o.span());
        let mut ok = true;
        for (i, op) in ops.iter().enumerate() {
            if let Operand::Address(a) = op {
                let reg32 = match a.base {
                    AddrBase::Reg(r) => {
                        matches!(body.reg_ty(r), Some(Type::B32 | Type::U32 | Type::S32))
                    }
                    _ => false,
                };
                if !reg32 {
                    self.error(
                        span(i),
                        "a tensor-memory address is a 32-bit register, with an optional offset",
                    );
                    ok = false;
                }
            }
        }
        let scale = m.form.operands.iter().position(|o| o.name == "scale_d");
        if let Some(Operand::Imm(n)) = scale.and_then(|i| ops.get(i)) {
            if *n > 15 {
                self.error(
                    span(scale.unwrap_or(0)),
                    format!("scale-input-d is 0 to 15, not {}", *n as i64),
                );
                ok = false;
            }
        }
        ok
    }
}
