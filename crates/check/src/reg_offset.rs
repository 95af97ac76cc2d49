//! `reg + imm` and `reg - imm` as a source operand (`st.u64 [p], %rd1 + 1;`): ptxas accepts
//! them on integer and bit-size operands and means the sum. The checker computes the sum into
//! a fresh register with an `add` it inserts before the instruction (as it does for the
//! address of `a[r]`), and the instruction reads that register.

use crate::ctx::Checker;
use crate::func::Body;
use crate::operand::Slot;
use ir::{Operand, RegName};
use isa::{BasicType, Type};
use syntax::ast;

impl<'a> Checker<'a> {
    /// The operand for `e` when it is `name + constant`, `name - constant` or
    /// `constant + name` with `name` a register; `None` when `e` has another shape (nothing is
    /// reported then) or after an error was reported (`Some(None)`).
    pub(crate) fn lower_reg_offset(
        &mut self,
        body: &mut Body<'a>,
        slot: &Slot<'_>,
        e: &ast::Expr,
    ) -> Option<Option<Operand>> {
        let ast::Expr::Binary(b) = e else {
            return None;
        };
        let (name, constant, negate) = match (&b.lhs, &b.rhs, b.op) {
            (ast::Expr::Name(n), c, ast::BinaryOp::Add | ast::BinaryOp::Sub) => {
                (n, c, b.op == ast::BinaryOp::Sub)
            }
            (c, ast::Expr::Name(n), ast::BinaryOp::Add) => (n, c, false),
            _ => return None,
        };
        if crate::operand::expr_has_name(constant) {
            return None;
        }
        let ty = slot.expected?;
        if !matches!(
            ty.basic(),
            BasicType::Signed | BasicType::Unsigned | BasicType::Bits
        ) || ty.is_packed()
            || !matches!(ty.size_bits(), 16 | 32 | 64)
        {
            return None;
        }
        let Some((reg, None)) = self.lower_reg_name(body, slot, name) else {
            return Some(None);
        };
        if !self.check_reg_type(body, reg, slot, name.span()) {
            return Some(None);
        }
        let v = match crate::consteval::eval(constant, self.src) {
            Ok(v) => v,
            Err((span, msg)) => {
                self.error(span, msg);
                return Some(None);
            }
        };
        let bits = match crate::imm::imm_bits(v, ty)
            .ok()
            .or_else(|| crate::imm::truncated_int_bits(v, ty))
        {
            Some(b) => b,
            None => {
                self.error(constant.span(), "the offset must be an integer constant");
                return Some(None);
            }
        };
        let mask = if ty.size_bits() == 64 {
            u64::MAX
        } else {
            (1u64 << ty.size_bits()) - 1
        };
        let bits = if negate {
            bits.wrapping_neg() & mask
        } else {
            bits
        };
        // The sum wraps at the operand's width: an unsigned `add` of that width.
        let add_ty = match ty.size_bits() {
            16 => Type::U16,
            32 => Type::U32,
            _ => Type::U64,
        };
        let sum = body.new_reg(add_ty, RegName::new(ast::span_text(self.src, e.span())));
        self.emit_setup(
            body,
            "add",
            &[add_ty.suffix()],
            [Operand::Reg(sum), Operand::Reg(reg), Operand::Imm(bits)],
            e.span(),
        )?;
        Some(Some(Operand::Reg(sum)))
    }
}
