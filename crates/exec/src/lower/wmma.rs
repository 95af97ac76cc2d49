//! Lowering of `wmma.load`, `wmma.store` and `wmma.mma` (crate::wmma executes them; the
//! fragment layout and the arithmetic are `ops::wmma`'s).

use super::operand::{Emit, LResult};
use super::Lowerer;
use crate::program::*;
use ir::{Flag, Operand as O, Type as T};
use isa::{ALayout, WmmaFrag as F, WmmaOp, WmmaShape as S};
use ops::wmma::{Elem, MmaSpec, Operand, Shape};

/// The executed shape of a `wmma` instruction (the sub-byte shapes are not in the table).
/// A shape spelled alone in its row (`.m8n8k4`) decodes as `mma`'s flag of that spelling.
pub(crate) fn shape_of(i: &ir::Inst) -> LResult<Shape> {
    if i.mods.has(Flag::M8n8k4) {
        return Ok(Shape::M8n8k4);
    }
    Ok(match i.mods.wmma_shape {
        Some(S::M16n16k16) => Shape::M16n16k16,
        Some(S::M32n8k16) => Shape::M32n8k16,
        Some(S::M8n32k16) => Shape::M8n32k16,
        Some(S::M16n16k8) => Shape::M16n16k8,
        Some(S::M8n8k4) => Shape::M8n8k4,
        Some(S::M8n8k32) => Shape::M8n8k32,
        Some(S::M8n8k128) => Shape::M8n8k128,
        _ => return Err("this wmma shape is not executed".into()),
    })
}

/// The fragment element type a PTX type names.
pub(crate) fn elem_of(t: Option<T>) -> LResult<Elem> {
    Ok(match t {
        Some(T::F16) => Elem::F16,
        Some(T::Bf16) => Elem::Bf16,
        Some(T::Tf32) => Elem::Tf32,
        Some(T::F32) => Elem::F32,
        Some(T::F64) => Elem::F64,
        Some(T::S8) => Elem::S8,
        Some(T::U8) => Elem::U8,
        Some(T::S32) => Elem::S32,
        _ => return Err("this wmma type is not executed".into()),
    })
}

/// A sub-byte element type (`.s4`, `.u4`, `.b1`), spelled as a modifier.
fn sub_elem(s: &str) -> Elem {
    match s {
        ".s4" => Elem::S4,
        ".u4" => Elem::U4,
        _ => Elem::B1,
    }
}

/// The types of a `wmma.mma`: `.dtype.ctype` for `.f16` A and B, else `.dtype.atype.btype.ctype`.
pub(crate) fn mma_spec(i: &ir::Inst) -> LResult<MmaSpec> {
    let shape = shape_of(i)?;
    let sub = (i.mods.wmma_sub_type, i.mods.wmma_sub_type_b);
    let (d, a, b, c) = if let (Some(a), Some(b)) = sub {
        (
            elem_of(i.type_slot(0))?,
            sub_elem(a.spelling()),
            sub_elem(b.spelling()),
            elem_of(i.type_slot(1))?,
        )
    } else if i.type_slot(2).is_none() {
        let d = elem_of(i.type_slot(0))?;
        (d, Elem::F16, Elem::F16, elem_of(i.type_slot(1))?)
    } else {
        (
            elem_of(i.type_slot(0))?,
            elem_of(i.type_slot(1))?,
            elem_of(i.type_slot(2))?,
            elem_of(i.type_slot(3))?,
        )
    };
    Ok(MmaSpec {
        shape,
        a,
        b,
        c,
        d,
        satfinite: i.mods.has(Flag::Satfinite),
        rnd: match i.mods.rounding {
            Some(isa::Rounding::Rz) => ops::float::Rounding::Rz,
            Some(isa::Rounding::Rm) => ops::float::Rounding::Rm,
            Some(isa::Rounding::Rp) => ops::float::Rounding::Rp,
            _ => ops::float::Rounding::Rn,
        },
        b1_and: i.mods.bool_op == Some(isa::BoolOp::And),
    })
}

/// The fragment a `wmma.load`/`wmma.store` moves.
pub(crate) fn frag_of(i: &ir::Inst) -> LResult<WmmaFrag> {
    Ok(WmmaFrag {
        shape: shape_of(i)?,
        operand: match i.mods.wmma_frag {
            Some(F::A) => Operand::A,
            Some(F::B) => Operand::B,
            _ => Operand::C,
        },
        elem: match i.mods.wmma_sub_type {
            Some(t) => sub_elem(t.spelling()),
            None => elem_of(i.type_slot(0))?,
        },
        col_major: i.mods.a_layout == Some(ALayout::Col),
    })
}

impl Lowerer<'_> {
    pub(crate) fn wmma(&mut self, e: &mut Emit<'_>, i: &ir::Inst) -> LResult<()> {
        let ops = &i.operands;
        let o = |k: usize| ops.get(k).unwrap_or(&O::Omitted);
        let m = match i.mods.wmma_op {
            Some(WmmaOp::Mma) => {
                let spec = mma_spec(i)?;
                if spec.satfinite && matches!(spec.d, Elem::F16 | Elem::F32) {
                    // PTX before 6.5 only; ptxas 12.9 warns its result "may be unexpected on
                    // sm_70 and later", and the manual no longer says what it computes.
                    return Err("wmma.mma .satfinite with floating-point accumulators \
                                (PTX < 6.5, deprecated) is checked but not executed"
                        .into());
                }
                let w = |t: Elem| t == Elem::F64;
                MatrixOp::Wmma {
                    spec,
                    d: self.vector_regs(e, o(0), w(spec.d), true)?,
                    a: self.vector_regs(e, o(1), w(spec.a), false)?,
                    b: self.vector_regs(e, o(2), w(spec.b), false)?,
                    c: self.vector_regs(e, o(3), w(spec.c), false)?,
                }
            }
            op => {
                let load = op == Some(WmmaOp::Load);
                let frag = frag_of(i)?;
                let (ak, rk) = if load { (1, 0) } else { (0, 1) };
                let (space, addr) = self.addr(e, o(ak), i.mods.space)?;
                let stride = match o(2) {
                    O::Omitted => None,
                    other => Some(self.s32(e, other)?),
                };
                let regs = self.vector_regs(e, o(rk), frag.elem == Elem::F64, load)?;
                MatrixOp::WmmaLdSt {
                    load,
                    frag,
                    space,
                    addr,
                    stride,
                    regs,
                }
            }
        };
        e.push(Op::Matrix(Box::new(m)));
        Ok(())
    }
}
