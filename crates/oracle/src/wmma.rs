//! `wmma.load`, `wmma.store` and `wmma.mma` on the threads of one warp, straight from the IR;
//! the fragment layout and the arithmetic are `ops::wmma`'s.

use crate::alu::Cx;
use crate::memops::{add_off, check_align, load, offset_of, resolve, store, CtaMem};
use crate::thread::{Env, Thread};
use crate::Fault;
use ir::{Flag, Operand, Type};
use isa::{ALayout, WmmaFrag, WmmaOp, WmmaShape};
use ops::mma::Frag;
use ops::wmma::{Elem, MmaSpec, Shape};

fn elems(op: Option<&Operand>) -> Vec<Operand> {
    match op {
        Some(Operand::Vector(v)) => v.to_vec(),
        Some(o) => vec![o.clone()],
        None => Vec::new(),
    }
}

/// A shape spelled alone in its row (`.m8n8k4`) decodes as `mma`'s flag of that spelling.
fn shape_of(i: &ir::Inst) -> Option<Shape> {
    if i.mods.has(Flag::M8n8k4) {
        return Some(Shape::M8n8k4);
    }
    Some(match i.mods.wmma_shape? {
        WmmaShape::M16n16k16 => Shape::M16n16k16,
        WmmaShape::M32n8k16 => Shape::M32n8k16,
        WmmaShape::M8n32k16 => Shape::M8n32k16,
        WmmaShape::M16n16k8 => Shape::M16n16k8,
        WmmaShape::M8n8k4 => Shape::M8n8k4,
        WmmaShape::M8n8k32 => Shape::M8n8k32,
        WmmaShape::M8n8k128 => Shape::M8n8k128,
    })
}

fn elem_of(t: Option<Type>) -> Option<Elem> {
    Some(match t? {
        Type::F16 => Elem::F16,
        Type::Bf16 => Elem::Bf16,
        Type::Tf32 => Elem::Tf32,
        Type::F32 => Elem::F32,
        Type::F64 => Elem::F64,
        Type::S8 => Elem::S8,
        Type::U8 => Elem::U8,
        Type::S32 => Elem::S32,
        _ => return None,
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

/// `.dtype.ctype` for `.f16` A and B, else `.dtype.atype.btype.ctype`.
fn spec_of(i: &ir::Inst) -> Option<MmaSpec> {
    let sub = (i.mods.wmma_sub_type, i.mods.wmma_sub_type_b);
    let (d, a, b, c) = if let (Some(a), Some(b)) = sub {
        (
            elem_of(i.type_slot(0))?,
            sub_elem(a.spelling()),
            sub_elem(b.spelling()),
            elem_of(i.type_slot(1))?,
        )
    } else if i.type_slot(2).is_none() {
        (
            elem_of(i.type_slot(0))?,
            Elem::F16,
            Elem::F16,
            elem_of(i.type_slot(1))?,
        )
    } else {
        (
            elem_of(i.type_slot(0))?,
            elem_of(i.type_slot(1))?,
            elem_of(i.type_slot(2))?,
            elem_of(i.type_slot(3))?,
        )
    };
    Some(MmaSpec {
        shape: shape_of(i)?,
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

fn reg_type(e: Elem) -> Type {
    if e == Elem::F64 {
        Type::B64
    } else {
        Type::B32
    }
}

pub(crate) fn run_wmma(
    threads: &mut [Thread],
    group: &[usize],
    env: &Env<'_, '_>,
    m: &mut CtaMem<'_>,
    i: &ir::Inst,
) -> Result<(), Fault> {
    let unsupported = || crate::fault::unsupported(i);
    let Some(&first) = group.first() else {
        return Ok(());
    };
    if i.mods.wmma_op == Some(WmmaOp::Mma) {
        let spec = spec_of(i)
            .filter(|s| !(s.satfinite && matches!(s.d, Elem::F16 | Elem::F32)))
            .ok_or_else(unsupported)?;
        let (w, func) = (threads[first].warp(), threads[first].frame().func);
        let warp: Vec<usize> = (0..threads.len())
            .filter(|&j| {
                threads[j].warp() == w && threads[j].frames.last().is_some_and(|f| f.func == func)
            })
            .collect();
        // Each lane's fragments, read from the threads of the warp (a thread outside the
        // group gives its registers as they stand).
        let gather = |k: usize, e: Elem| -> Result<[Frag; 32], Fault> {
            let es = elems(i.operands.get(k));
            let mut out = [[0u64; 8]; 32];
            for &j in &warp {
                let t = &threads[j];
                let lane = t.lane() as usize % 32;
                for (x, op) in out[lane].iter_mut().zip(&es) {
                    *x = t.src(env, op, reg_type(e))?;
                }
            }
            Ok(out)
        };
        let a = gather(1, spec.a)?;
        let b = gather(2, spec.b)?;
        let c = gather(3, spec.c)?;
        let d = ops::wmma::wmma_mma(spec, &a, &b, &c);
        let ds = elems(i.operands.first());
        for &j in group {
            let t = &mut threads[j];
            let lane = t.lane() as usize % 32;
            for (e, v) in ds.iter().zip(d[lane]) {
                t.dst(env, e, reg_type(spec.d), v)?;
            }
        }
        return Ok(());
    }
    let load_op = i.mods.wmma_op == Some(WmmaOp::Load);
    let shape = shape_of(i).ok_or_else(unsupported)?;
    let elem = match i.mods.wmma_sub_type {
        Some(t) => sub_elem(t.spelling()),
        None => elem_of(i.type_slot(0)).ok_or_else(unsupported)?,
    };
    let operand = match i.mods.wmma_frag {
        Some(WmmaFrag::A) => ops::wmma::Operand::A,
        Some(WmmaFrag::B) => ops::wmma::Operand::B,
        _ => ops::wmma::Operand::C,
    };
    let col_major = i.mods.a_layout == Some(ALayout::Col);
    let (ak, rk) = if load_op { (1, 0) } else { (0, 1) };
    let Some(Operand::Address(addr)) = i.operands.get(ak).cloned() else {
        return Err(unsupported());
    };
    let regs = elems(i.operands.get(rk));
    let ty = reg_type(elem);
    // Lanes move their elements in lane order (as the executor does), so overlapping stores
    // (a stride shorter than a row) leave the same bytes whatever order the threads arrived in.
    let mut order = group.to_vec();
    order.sort_by_key(|&j| threads[j].lane());
    for j in order {
        let stride = match i.operands.get(2) {
            Some(op) => Some(threads[j].src(env, op, Type::U32)? as u32),
            None => None,
        };
        let lane = threads[j].lane() as usize % 32;
        let mut f = [0u64; 8];
        if !load_op {
            for (x, op) in f.iter_mut().zip(&regs) {
                *x = threads[j].src(env, op, ty)?;
            }
        }
        let mut cx = Cx {
            t: &mut threads[j],
            env,
            i,
        };
        let base = resolve(&cx, &addr)?;
        for acc in ops::wmma::accesses(shape, operand, elem, col_major, stride, lane) {
            let at = add_off(base, acc.offset);
            let size = u64::from(acc.bytes);
            check_align(offset_of(at), size)?;
            let field = if size == 8 {
                u64::MAX
            } else {
                (1u64 << (8 * size)) - 1
            };
            let Some(reg) = f.get_mut(acc.reg) else {
                continue;
            };
            if load_op {
                let v = load(&mut cx, m, at, size)? as u64;
                *reg = (*reg & !(field << acc.shift)) | ((v & field) << acc.shift);
            } else {
                store(
                    &mut cx,
                    m,
                    at,
                    size,
                    u128::from((*reg >> acc.shift) & field),
                )?;
            }
        }
        if load_op {
            for (op, v) in regs.iter().zip(f) {
                threads[j].dst(env, op, ty, v)?;
            }
        }
    }
    Ok(())
}
