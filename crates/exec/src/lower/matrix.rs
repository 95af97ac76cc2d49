//! Lowering of the warp-wide matrix instructions, `cp.async` and `elect.sync`
//! (crate::matrix executes them).

use super::operand::{Emit, LResult};
use super::Lowerer;
use crate::program::*;
use ir::{Flag, Opcode as Oc, Operand as O, Type as T};
use ops::half::HalfFormat;
use ops::mma::MmaKind;

/// The `ops::mma` kind of an `mma` instruction's shape and types.
fn mma_kind(i: &ir::Inst) -> LResult<MmaKind> {
    let has = |f: Flag| i.mods.has(f);
    let (dt, at, bt) = (i.type_slot(0), i.type_slot(1), i.type_slot(2));
    let half = |t: Option<T>| match t {
        Some(T::Bf16) => HalfFormat::Bf16,
        _ => HalfFormat::F16,
    };
    let fp8 = |t: Option<T>| match t {
        Some(T::E5m2) => Some(ops::fp8::Fp8::E5m2),
        Some(T::E4m3) => Some(ops::fp8::Fp8::E4m3),
        _ => None,
    };
    if let (Some(a), Some(b)) = (fp8(at), fp8(bt)) {
        return Ok(MmaKind::F8 {
            k32: has(Flag::M16n8k32),
            a,
            b,
            f16_acc: dt == Some(T::F16),
        });
    }
    Ok(if has(Flag::M16n8k16) && dt == Some(T::F16) {
        MmaKind::M16n8k16F16
    } else if has(Flag::M16n8k16) && dt == Some(T::F32) {
        MmaKind::M16n8k16F32(half(at))
    } else if has(Flag::M16n8k8) && at == Some(T::Tf32) {
        MmaKind::M16n8k8Tf32
    } else if has(Flag::M16n8k8) {
        MmaKind::M16n8k8F32(half(at))
    } else if has(Flag::M8n8k4) && dt == Some(T::F64) {
        MmaKind::M8n8k4F64
    } else if has(Flag::M8n8k4) && at == Some(T::F16) {
        let col = |l: Option<&str>| l == Some(".col");
        MmaKind::M8n8k4F16 {
            a_col: col(i.mods.a_layout.map(|l| l.spelling())),
            b_col: col(i.mods.b_layout.map(|l| l.spelling())),
            c_f32: i.type_slot(3) == Some(T::F32),
            d_f32: dt == Some(T::F32),
        }
    } else if (has(Flag::M16n8k16) || has(Flag::M16n8k32)) && dt == Some(T::S32) {
        MmaKind::I8 {
            k32: has(Flag::M16n8k32),
            a_signed: at == Some(T::S8),
            b_signed: bt == Some(T::S8),
        }
    } else {
        return Err("this mma shape and type is not executed".into());
    })
}

impl Lowerer<'_> {
    /// The registers of a vector operand; immediates are copied into scratch registers.
    pub(crate) fn vector_regs(
        &self,
        e: &mut Emit<'_>,
        o: &O,
        wide: bool,
        dst: bool,
    ) -> LResult<Vec<Reg>> {
        let elems: Vec<&O> = match o {
            O::Vector(v) => v.iter().collect(),
            other => vec![other],
        };
        let mut out = Vec::with_capacity(elems.len());
        for x in elems {
            if dst {
                out.push(
                    self.dst(e, x)?
                        .ok_or("a matrix destination cannot be `_`")?,
                );
                continue;
            }
            let r = match self.src(e, x, wide)? {
                Src::Reg(r) => r,
                imm => self
                    .copy_to_scratch(e, imm, wide)
                    .ok_or("unsupported matrix operand")?,
            };
            out.push(r);
        }
        Ok(out)
    }

    pub(crate) fn matrix(&mut self, e: &mut Emit<'_>, i: &ir::Inst) -> LResult<()> {
        let ops = &i.operands;
        let o = |k: usize| ops.get(k).unwrap_or(&O::Omitted);
        match i.op {
            Oc::Mma => {
                let kind = mma_kind(i)?;
                let wide = kind == MmaKind::M8n8k4F64;
                let m = MatrixOp::Mma {
                    kind,
                    sat: i.mods.has(Flag::Satfinite),
                    d: self.vector_regs(e, o(0), wide, true)?,
                    a: self.vector_regs(e, o(1), wide, false)?,
                    b: self.vector_regs(e, o(2), wide, false)?,
                    c: self.vector_regs(e, o(3), wide, false)?,
                };
                e.push(Op::Matrix(Box::new(m)));
            }
            Oc::Ldmatrix | Oc::Stmatrix => {
                let load = i.op == Oc::Ldmatrix;
                let (ak, rk) = if load { (1, 0) } else { (0, 1) };
                let (space, addr) = self.addr(e, o(ak), i.mods.space)?;
                let regs = self.vector_regs(e, o(rk), false, load)?;
                e.push(Op::Matrix(Box::new(MatrixOp::LdSt {
                    load,
                    trans: i.mods.has(Flag::Trans),
                    space,
                    addr,
                    regs,
                })));
            }
            Oc::Movmatrix => {
                let d = self.dst(e, o(0))?.ok_or("movmatrix needs a destination")?;
                let a = self.vector_regs(e, o(1), false, false)?;
                let a = *a.first().ok_or("movmatrix needs a source")?;
                e.push(Op::Matrix(Box::new(MatrixOp::Movmatrix { d, a })));
            }
            Oc::Cp if i.mods.has(Flag::Async) && i.mods.cache.is_some() => {
                let (dst_space, dst) = self.addr(e, o(0), i.mods.space)?;
                let (_, src) = self.addr(e, o(1), Some(ir::Space::Global))?;
                let size = match o(2) {
                    O::Imm(n @ (4 | 8 | 16)) => *n as u8,
                    _ => return Err("cp.async copies 4, 8 or 16 bytes".into()),
                };
                let src_size = match o(3) {
                    O::Omitted => None,
                    other => Some(self.s32(e, other)?),
                };
                e.push(Op::CpAsync {
                    dst,
                    dst_space,
                    src,
                    size,
                    src_size,
                });
            }
            // The copies complete when they are issued (a visible order hardware allows: a
            // copy may complete any time before its group's wait), so the group operations
            // have nothing left to do.
            Oc::Cp => e.push(Op::Nop),
            Oc::Elect => {
                let (d, p) = match o(0) {
                    O::PredPair(d, p) => (*d, *p),
                    _ => return Err("elect.sync needs `d|p`".into()),
                };
                let d = match self.reg(e, d)? {
                    Reg::R32(r) => Some(r),
                    _ => None,
                };
                let p = match p.map(|p| self.reg(e, p)).transpose()? {
                    Some(Reg::Pred(p)) => Some(p),
                    _ => None,
                };
                let member = self.s32(e, o(1))?;
                e.push(Op::Elect { d, p, member });
            }
            _ => return Err(format!("`{}` is not a matrix instruction", i.op.name())),
        }
        Ok(())
    }
}
