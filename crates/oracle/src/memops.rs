//! Memory instructions: `ld ldu st atom red cvta isspacep prefetch membar fence`.

use crate::alu::Cx;
use crate::memory::{load_from, store_to};
use crate::value::bits_of;
use crate::{Fault, Memory};
use ir::{AddrBase, Address, Flag, Opcode as Oc, Operand, Space, Type, VarId, VarScope};

/// A resolved location.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Loc {
    Global(u64),
    Shared(u64),
    Local(u64),
    Const(u64),
    KernelParam(u64),
    /// A `.param` variable of the current activation, at a byte offset.
    FrameParam(VarId, u64),
}

/// Per-CTA memory the instructions reach.
pub(crate) struct CtaMem<'a> {
    pub global: &'a mut Memory,
    pub shared: &'a mut Vec<u8>,
}

/// The space an instruction names, with the cluster- and CTA-qualified spellings folded into
/// the space they denote for a one-CTA cluster (`.shared::cluster` is this CTA's shared memory)
/// and `.param::entry` into the kernel's parameters.
pub(crate) fn space_of(i: &ir::Inst) -> Option<Space> {
    i.mods.space.map(|s| match s {
        Space::SharedCta | Space::SharedCluster => Space::Shared,
        Space::ParamEntry => Space::Param,
        s => s,
    })
}

/// The space of a register address: in a kernel, every `.param` spelling reaches the
/// kernel's parameters (a kernel has no function parameters of its own; the executor does the
/// same). A function's `.param` through a register is not modelled: this interpreter keeps
/// function parameters by name.
fn reg_space(cx: &Cx<'_, '_, '_>) -> Option<Space> {
    let in_kernel = cx.t.frame().func == cx.env.layout.kernel;
    match space_of(cx.i) {
        Some(Space::ParamFunc) if in_kernel => Some(Space::Param),
        s => s,
    }
}

pub(crate) fn resolve(cx: &Cx<'_, '_, '_>, a: &Address) -> Result<Loc, Fault> {
    let l = cx.env.layout;
    let space = space_of(cx.i);
    let addr64 = l.module.address_size.bits() == 64;
    let wrap = |x: u64| if addr64 { x } else { x & 0xffff_ffff };
    match a.base {
        AddrBase::Var(v) => {
            let var = l.var(v);
            let per_activation = var.space == Space::Param
                && (matches!(var.scope, VarScope::Body(_))
                    || matches!(var.scope, VarScope::Param(f) if f != l.kernel));
            if per_activation {
                return Ok(Loc::FrameParam(v, a.offset as u64));
            }
            let at = cx.t.var_addr(cx.env, v)?.wrapping_add(a.offset as u64);
            Ok(match var.space {
                Space::Global => Loc::Global(at),
                Space::Shared | Space::SharedCta => Loc::Shared(at),
                Space::Local => Loc::Local(at),
                Space::Const => Loc::Const(at),
                Space::Param => Loc::KernelParam(at),
                _ => return Err(crate::fault::unsupported(cx.i)),
            })
        }
        AddrBase::Reg(r) => {
            let at = wrap(cx.t.reg(r).wrapping_add(a.offset as u64));
            Ok(match reg_space(cx) {
                Some(Space::Global) => Loc::Global(at),
                Some(Space::Shared | Space::SharedCta) => Loc::Shared(at),
                Some(Space::Local) => Loc::Local(at),
                Some(Space::Const) => Loc::Const(at),
                Some(Space::Param) => Loc::KernelParam(at),
                None => generic(cx, at),
                _ => return Err(crate::fault::unsupported(cx.i)),
            })
        }
        AddrBase::Absolute => {
            let at = wrap(a.offset as u64);
            Ok(match space {
                Some(Space::Shared | Space::SharedCta) => Loc::Shared(at),
                Some(Space::Local) => Loc::Local(at),
                Some(Space::Const) => Loc::Const(at),
                Some(Space::Param) => Loc::KernelParam(at),
                Some(Space::Global) => Loc::Global(at),
                None => generic(cx, at),
                _ => return Err(crate::fault::unsupported(cx.i)),
            })
        }
    }
}

fn generic(cx: &Cx<'_, '_, '_>, at: u64) -> Loc {
    let w = cx.env.cfg.windows;
    let inw = |base: u64| at >= base && at - base < w.size;
    if inw(w.shared) {
        Loc::Shared(at - w.shared)
    } else if inw(w.local) {
        Loc::Local(at - w.local)
    } else if inw(w.constant) {
        Loc::Const(at - w.constant)
    } else if inw(w.param) {
        Loc::KernelParam(at - w.param)
    } else {
        Loc::Global(at)
    }
}

pub(crate) fn check_align(at: u64, size: u64) -> Result<(), Fault> {
    if size > 1 && !at.is_multiple_of(size) {
        Err(Fault::Misaligned { addr: at, size })
    } else {
        Ok(())
    }
}

pub(crate) fn offset_of(l: Loc) -> u64 {
    match l {
        Loc::Global(a)
        | Loc::Shared(a)
        | Loc::Local(a)
        | Loc::Const(a)
        | Loc::KernelParam(a)
        | Loc::FrameParam(_, a) => a,
    }
}

pub(crate) fn load(
    cx: &mut Cx<'_, '_, '_>,
    m: &mut CtaMem<'_>,
    l: Loc,
    size: u64,
) -> Result<u128, Fault> {
    let layout = cx.env.layout;
    match l {
        Loc::Global(a) => m.global.load(a, size),
        Loc::Shared(a) => load_from(m.shared, "shared", a, size),
        Loc::Local(a) => load_from(&cx.t.local, "local", a, size),
        Loc::Const(a) => load_from(&layout.constant, "const", a, size),
        Loc::KernelParam(a) => load_from(&layout.kparams, "param", a, size),
        Loc::FrameParam(v, a) => {
            let var = layout.var(v);
            let buf =
                cx.t.frame_mut()
                    .params
                    .entry(v)
                    .or_insert_with(|| vec![0; var.size as usize]);
            load_from(buf, "param", a, size)
        }
    }
}

pub(crate) fn store(
    cx: &mut Cx<'_, '_, '_>,
    m: &mut CtaMem<'_>,
    l: Loc,
    size: u64,
    v: u128,
) -> Result<(), Fault> {
    let layout = cx.env.layout;
    match l {
        Loc::Global(a) => m.global.store(a, size, v),
        Loc::Shared(a) => store_to(m.shared, "shared", a, size, v),
        Loc::Local(a) => store_to(&mut cx.t.local, "local", a, size, v),
        Loc::FrameParam(var, a) => {
            let n = layout.var(var).size as usize;
            let buf =
                cx.t.frame_mut()
                    .params
                    .entry(var)
                    .or_insert_with(|| vec![0; n]);
            store_to(buf, "param", a, size, v)
        }
        Loc::Const(addr) => Err(Fault::ReadOnly {
            space: "const",
            addr,
        }),
        Loc::KernelParam(addr) => Err(Fault::ReadOnly {
            space: "param",
            addr,
        }),
    }
}

pub(crate) fn add_off(l: Loc, d: u64) -> Loc {
    match l {
        Loc::Global(a) => Loc::Global(a.wrapping_add(d)),
        Loc::Shared(a) => Loc::Shared(a.wrapping_add(d)),
        Loc::Local(a) => Loc::Local(a.wrapping_add(d)),
        Loc::Const(a) => Loc::Const(a.wrapping_add(d)),
        Loc::KernelParam(a) => Loc::KernelParam(a.wrapping_add(d)),
        Loc::FrameParam(v, a) => Loc::FrameParam(v, a.wrapping_add(d)),
    }
}

fn elems(op: &Operand) -> Vec<Operand> {
    match op {
        Operand::Vector(v) => v.to_vec(),
        o => vec![o.clone()],
    }
}

pub(crate) fn exec(cx: &mut Cx<'_, '_, '_>, m: &mut CtaMem<'_>) -> Result<bool, Fault> {
    let i = cx.i;
    match i.op {
        Oc::Ld | Oc::Ldu => {
            let ty = i.ty().ok_or_else(|| crate::fault::unsupported(i))?;
            let Operand::Address(a) = cx.op(1).clone() else {
                return Err(crate::fault::unsupported(i));
            };
            let l = resolve(cx, &a)?;
            let size = u64::from(ty.size_bits() / 8);
            let ds = elems(cx.op(0));
            check_align(offset_of(l), size * ds.len().next_power_of_two() as u64)?;
            let mut vals = Vec::new();
            for k in 0..ds.len() {
                vals.push(load(cx, m, add_off(l, size * k as u64), size)?);
            }
            for (d, v) in ds.iter().zip(vals) {
                if size == 16 {
                    return Err(Fault::Unsupported(format!(
                        "{}: 128-bit registers",
                        i.form.syntax
                    )));
                }
                cx.t.dst(cx.env, d, ty, v as u64)?;
            }
            Ok(true)
        }
        Oc::St => {
            let ty = i.ty().ok_or_else(|| crate::fault::unsupported(i))?;
            let Operand::Address(a) = cx.op(0).clone() else {
                return Err(crate::fault::unsupported(i));
            };
            let l = resolve(cx, &a)?;
            let size = u64::from(ty.size_bits() / 8);
            if size == 16 {
                return Err(Fault::Unsupported(format!(
                    "{}: 128-bit registers",
                    i.form.syntax
                )));
            }
            let ss = elems(cx.op(1));
            check_align(offset_of(l), size * ss.len().next_power_of_two() as u64)?;
            let vals: Vec<u64> = ss
                .iter()
                .map(|s| cx.t.src(cx.env, s, ty))
                .collect::<Result<_, _>>()?;
            for (k, v) in vals.into_iter().enumerate() {
                store(cx, m, add_off(l, size * k as u64), size, u128::from(v))?;
            }
            Ok(true)
        }
        Oc::Atom | Oc::Red => {
            atom(cx, m)?;
            Ok(true)
        }
        Oc::Cvta => {
            let to = i.mods.has(Flag::To);
            let w = cx.env.cfg.windows;
            let window = match space_of(i) {
                Some(Space::Shared) => w.shared,
                Some(Space::Local) => w.local,
                Some(Space::Const) => w.constant,
                Some(Space::Param) => w.param,
                _ => 0,
            };
            let ty = i.ty().unwrap_or(Type::U64);
            let a = match cx.op(1) {
                Operand::VarAddr { var, offset } => {
                    // The variable's own space address (cvta.space d, var).
                    cx.t.var_addr(cx.env, *var)?.wrapping_add(*offset as u64)
                }
                _ => cx.a_as(1, ty)?,
            };
            let r = if to {
                a.wrapping_sub(window)
            } else {
                a.wrapping_add(window)
            };
            cx.put_as(0, ty, r & crate::value::mask(bits_of(ty)))?;
            Ok(true)
        }
        Oc::Isspacep => {
            let a = cx.a_as(1, Type::U64)?;
            let w = cx.env.cfg.windows;
            let inw = |base: u64| a >= base && a - base < w.size;
            let r = match space_of(i) {
                Some(Space::Shared) => inw(w.shared),
                Some(Space::Local) => inw(w.local),
                Some(Space::Const) => inw(w.constant),
                Some(Space::Param) => inw(w.param),
                _ => !(inw(w.shared) || inw(w.local) || inw(w.constant) || inw(w.param)),
            };
            cx.put_as(0, Type::Pred, u64::from(r))?;
            Ok(true)
        }
        Oc::Prefetch | Oc::Prefetchu | Oc::Membar | Oc::Fence => Ok(true),
        Oc::Cp if i.mods.has(Flag::Async) && i.mods.cache.is_some() => {
            cp_async(cx, m)?;
            Ok(true)
        }
        // Each copy completes when issued (a visible order hardware allows), so the group
        // operations have nothing left to wait for.
        Oc::Cp => Ok(true),
        _ => Ok(false),
    }
}

/// `cp.async.ca/.cg.shared.global [dst], [src], size{, src-size}`: `size` bytes from global
/// to shared memory, the bytes from `src-size` on being zeros (PTX ISA 8.x §9.7.9.25.3.1).
fn cp_async(cx: &mut Cx<'_, '_, '_>, m: &mut CtaMem<'_>) -> Result<(), Fault> {
    let i = cx.i;
    let (Operand::Address(d), Operand::Address(s)) = (cx.op(0).clone(), cx.op(1).clone()) else {
        return Err(crate::fault::unsupported(i));
    };
    let size = match cx.op(2) {
        Operand::Imm(n @ (4 | 8 | 16)) => *n,
        _ => return Err(crate::fault::unsupported(i)),
    };
    let keep = match cx.op(3) {
        Operand::Omitted => size,
        _ => cx.a_as(3, Type::U32)?.min(size),
    };
    let dl = resolve(cx, &d)?;
    // The source is a `.global` address whatever the instruction's (destination) space.
    let addr64 = cx.env.layout.module.address_size.bits() == 64;
    let sl = match s.base {
        AddrBase::Var(_) => resolve(cx, &s)?,
        AddrBase::Reg(r) => {
            let at = cx.t.reg(r).wrapping_add(s.offset as u64);
            Loc::Global(if addr64 { at } else { at & 0xffff_ffff })
        }
        AddrBase::Absolute => Loc::Global(s.offset as u64),
    };
    check_align(offset_of(sl), size)?;
    check_align(offset_of(dl), size)?;
    let v = load(cx, m, sl, size)?;
    let v = if keep >= 16 {
        v
    } else {
        v & ((1u128 << (8 * keep)) - 1)
    };
    store(cx, m, dl, size, v)
}

fn atom(cx: &mut Cx<'_, '_, '_>, m: &mut CtaMem<'_>) -> Result<(), Fault> {
    use ops::atom::{atom_int, AtomOp as A};
    let i = cx.i;
    let unsupported = || crate::fault::unsupported(i);
    let red = i.op == Oc::Red;
    let (ak, bk) = if red { (0, 1) } else { (1, 2) };
    let ty = i.ty().ok_or_else(unsupported)?;
    let Operand::Address(a) = cx.op(ak).clone() else {
        return Err(unsupported());
    };
    let l = resolve(cx, &a)?;
    let size = u64::from(ty.size_bits() / 8);
    if size == 16 || i.mods.vec.is_some() {
        return Err(unsupported());
    }
    check_align(offset_of(l), size)?;
    let b = cx.a(bk)?;
    let c = if i.mods.atom_op == Some(isa::AtomOp::Cas) {
        cx.a(bk + 1)?
    } else {
        0
    };
    // `atom.add.noftz` spells its operation as part of the row, not as a modifier.
    let spelled = i
        .mods
        .atom_op
        .or_else(|| i.form.syntax.contains(".add.").then_some(isa::AtomOp::Add));
    let op = match spelled.ok_or_else(unsupported)? {
        isa::AtomOp::And => A::And,
        isa::AtomOp::Or => A::Or,
        isa::AtomOp::Xor => A::Xor,
        isa::AtomOp::Cas => A::Cas,
        isa::AtomOp::Exch => A::Exch,
        isa::AtomOp::Add => A::Add,
        isa::AtomOp::Inc => A::Inc,
        isa::AtomOp::Dec => A::Dec,
        isa::AtomOp::Min => A::Min,
        isa::AtomOp::Max => A::Max,
    };
    let old = load(cx, m, l, size)? as u64;
    let new = match ty {
        Type::F32 if op == A::Add => u64::from(
            ops::atom::atom_add_f32(f32::from_bits(old as u32), f32::from_bits(b as u32)).to_bits(),
        ),
        Type::F64 if op == A::Add => {
            ops::atom::atom_add_f64(f64::from_bits(old), f64::from_bits(b)).to_bits()
        }
        Type::F16 | Type::Bf16 | Type::F16x2 | Type::Bf16x2 if op == A::Add => {
            // `atom.add.noftz` on halves: round to nearest even, subnormals kept.
            let f = if matches!(ty, Type::F16 | Type::F16x2) {
                ops::half::HalfFormat::F16
            } else {
                ops::half::HalfFormat::Bf16
            };
            let x2 = matches!(ty, Type::F16x2 | Type::Bf16x2);
            u64::from(ops::atom::atom_add_h(old as u32, b as u32, f, x2))
        }
        t if t.is_float() => return Err(unsupported()),
        _ => crate::alu::by_int!(ty, T => {
            let g = |x: u64| <T as ops::int::Int>::from_bits(x);
            ops::int::Int::to_bits(atom_int(op, g(old), g(b), g(c)))
        }, else return Err(unsupported())),
    };
    store(cx, m, l, size, u128::from(new))?;
    if !red {
        cx.put(0, old)?;
    }
    Ok(())
}
