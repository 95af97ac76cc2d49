//! Array elements indexed by a register (ptx-isa-1.1 §6.4.2): `a[r]`, `a[r+4]`, `a[r-1]`.
//!
//! §6.4.2: "The expression within square brackets is either a constant integer, a register
//! variable, or a simple 'register with constant offset' expression". The index counts
//! elements, as a constant index does (`a[N-1]`, `mov.u32 s, a[1]; // move address of a[1]`).
//! The IR has no "variable plus scaled register" address, so the checker computes the address
//! into a fresh register with ordinary instructions placed before the instruction
//! (`cvt` to the address width if needed, `mul.lo` by the element size, `mov` of the element's
//! address, `add`), and the instruction uses `[that register]` — exactly the "address
//! calculation prior to use" §6.4.2 asks the programmer for when indexing is more complex.

use crate::consteval::split_symbolic;
use crate::ctx::Checker;
use crate::func::Body;
use crate::operand::Resolved;
use crate::selector::vector_component;
use ir::{Operand, RegId, RegName, VarId};
use isa::Type;
use syntax::ast;

impl<'a> Checker<'a> {
    /// The address of `a[r + c]` (`elem` bytes per element, `base` the byte offset of the
    /// indexed member within `a`) computed into a new register, or `None` after an error.
    pub(crate) fn lower_register_index(
        &mut self,
        body: &mut Body<'a>,
        ix: &ast::Indexed,
        var: VarId,
        base: i64,
        elem: u64,
        width: Option<Type>,
    ) -> Option<RegId> {
        let (sym, c) = match split_symbolic(&ix.index, self.src) {
            Ok((Some(sym), c)) => (sym, c),
            Ok((None, _)) => return None,
            Err(_) => {
                self.error(
                    ix.index.span(),
                    "an array index is a constant, a register, or a register plus or minus a \
                     constant (ptx-isa-1.1 §6.4.2); compute other addresses with integer \
                     instructions",
                );
                return None;
            }
        };
        let reg = match self.resolve_name(body, &sym.name)? {
            Resolved::Reg(r) if sym.name.suffix.is_none() => r,
            Resolved::VecReg { first, len } => {
                let comp = sym
                    .name
                    .suffix
                    .map(|s| ast::span_text(self.src, s).trim_start_matches('.'))
                    .and_then(vector_component)
                    .filter(|c| *c < len);
                match comp {
                    Some(c) => RegId(first.0 + u32::from(c)),
                    None => {
                        self.error(sym.name.span(), "an array index must be a scalar register");
                        return None;
                    }
                }
            }
            _ => {
                self.error(
                    sym.name.span(),
                    "an array index must be a constant or a register (ptx-isa-1.1 §6.4.2)",
                );
                return None;
            }
        };
        let rty = body.reg_ty(reg).unwrap_or(Type::Pred);
        if !(rty.is_integer() || rty.is_bits()) || rty.size_bits() < 16 {
            self.error(
                sym.name.span(),
                format!(
                    "an array index register must be a 16-, 32- or 64-bit integer, not {}",
                    rty.suffix()
                ),
            );
            return None;
        }
        let aty = width.unwrap_or(match self.address_size {
            ir::AddressSize::Bits32 => Type::U32,
            ir::AddressSize::Bits64 => Type::U64,
        });
        let span = ix.span;
        let name = ast::span_text(self.src, span);
        let addr = body.new_reg(aty, RegName::new(name));
        // The index, widened or narrowed to the address width (signed registers sign-extend).
        let index = if rty.size_bits() == aty.size_bits() {
            Operand::Reg(reg)
        } else {
            let src = if rty.is_signed() {
                signed_of(rty.size_bits())
            } else {
                unsigned_of(rty.size_bits())
            };
            self.emit_setup(
                body,
                "cvt",
                &[aty.suffix(), src.suffix()],
                [Operand::Reg(addr), Operand::Reg(reg)],
                span,
            )?;
            Operand::Reg(addr)
        };
        self.emit_setup(
            body,
            "mul",
            &[".lo", aty.suffix()],
            [Operand::Reg(addr), index, Operand::Imm(elem)],
            span,
        )?;
        let offset = base.wrapping_add(c.wrapping_mul(elem as i64));
        let start = body.new_reg(aty, RegName::new(name));
        self.emit_setup(
            body,
            "mov",
            &[aty.suffix()],
            [Operand::Reg(start), Operand::VarAddr { var, offset }],
            span,
        )?;
        self.emit_setup(
            body,
            "add",
            &[aty.suffix()],
            [Operand::Reg(addr), Operand::Reg(addr), Operand::Reg(start)],
            span,
        )?;
        Some(addr)
    }

    /// Appends an instruction the checker made up (unguarded: it writes only its own
    /// registers) and records it, so labels can be moved past it when the body is finished.
    pub(crate) fn emit_setup<const N: usize>(
        &mut self,
        body: &mut Body<'a>,
        opcode: &str,
        mods: &[&str],
        operands: [Operand; N],
        span: diag::Span,
    ) -> Option<()> {
        let Ok(m) = isa::match_form(opcode, mods) else {
            self.error(span, "cannot compute this array element's address");
            return None;
        };
        if m.form.operands.len() != N {
            self.error(span, "cannot compute this array element's address");
            return None;
        }
        body.note_setup_inst();
        body.insts.push(ir::Inst {
            guard: None,
            op: m.form.opcode,
            form: m.form,
            mods: m.mods,
            types: m.types,
            operands: operands.into_iter().collect(),
            span,
        });
        Some(())
    }
}

fn signed_of(bits: u32) -> Type {
    match bits {
        16 => Type::S16,
        32 => Type::S32,
        _ => Type::S64,
    }
}

fn unsigned_of(bits: u32) -> Type {
    match bits {
        16 => Type::U16,
        32 => Type::U32,
        _ => Type::U64,
    }
}
