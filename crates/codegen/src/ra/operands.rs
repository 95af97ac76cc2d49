//! What each PTX instruction reads and writes, as register allocation sees it, and which
//! selections let a destination share a register with a source that dies there.

use crate::regs::width_of;
use ir::{AddrBase, Function, Inst, Operand};

/// Registers an instruction reads and writes.
pub(crate) fn uses_defs(inst: &Inst, uses: &mut Vec<usize>, defs: &mut Vec<usize>) {
    uses.clear();
    defs.clear();
    if let Some(g) = inst.guard {
        uses.push(g.reg.index());
    }
    for (i, o) in inst.operands.iter().enumerate() {
        let dst = inst
            .form
            .operands
            .get(i)
            .is_some_and(|f| f.kind.is_destination());
        collect(o, if dst { &mut *defs } else { &mut *uses });
        if let Operand::Address(a) = o {
            if let AddrBase::Reg(r) = a.base {
                uses.push(r.index());
            }
        }
    }
}

fn collect(o: &Operand, out: &mut Vec<usize>) {
    match o {
        Operand::Reg(r) | Operand::NotPred(r) | Operand::Neg(r) => out.push(r.index()),
        Operand::NegSelected { reg, .. } | Operand::Selected { reg, .. } => out.push(reg.index()),
        Operand::PredPair(p, q) => {
            out.push(p.index());
            if let Some(q) = q {
                out.push(q.index());
            }
        }
        Operand::Vector(v) | Operand::List(v) => {
            for e in v.iter() {
                collect(e, out);
            }
        }
        Operand::Texture { tex, coords, .. } => {
            if let ir::TexRef::Reg(r) = tex {
                out.push(r.index());
            }
            for e in coords.iter() {
                collect(e, out);
            }
        }
        _ => {}
    }
}

/// `(d, s)` for an unguarded whole-register copy `mov d, s` between registers of one width
/// and kind, whose selection is `MOV`s that read `s` as they write `d` (or nothing when the
/// two share a register).
/// An unguarded `add d, s, z` (either order) of a register `zero` marks (a shared address 0
/// folded by `fold.rs`, selected as `MOV`s) is a copy too.
pub(crate) fn copied(f: &Function, inst: &Inst, zero: &[bool]) -> Option<(usize, usize)> {
    if inst.guard.is_some() {
        return None;
    }
    let is_zero = |o: &Operand| matches!(o, Operand::Reg(z) if zero.get(z.index()) == Some(&true));
    let (d, s) = match (inst.op, &inst.operands[..]) {
        (ir::Opcode::Mov, [Operand::Reg(d), Operand::Reg(s)]) => (d, s),
        (ir::Opcode::Add, [Operand::Reg(d), Operand::Reg(s), z]) if is_zero(z) => (d, s),
        (ir::Opcode::Add, [Operand::Reg(d), z, Operand::Reg(s)]) if is_zero(z) => (d, s),
        _ => return None,
    };
    let (rd, rs) = (f.regs.get(d.index())?, f.regs.get(s.index())?);
    let same = width_of(rd.ty) == width_of(rs.ty)
        && (rd.ty == ir::Type::Pred) == (rs.ty == ir::Type::Pred);
    (same && d != s).then_some((d.index(), s.index()))
}

/// Instructions whose selection is one Fermi instruction (or scratch set-up followed by it),
/// which reads every source before it writes the destination: their destination may share a
/// register with a source that dies there. Everything else keeps the conservative rule
/// (several selections write part of the result before reading every source).
pub(crate) fn reads_sources_first(inst: &Inst) -> bool {
    use ir::{Opcode as O, Type as T};
    if inst.guard.is_some() {
        return false;
    }
    let ty32 = matches!(inst.ty(), Some(T::U32 | T::S32 | T::B32 | T::F32));
    let plain_dst = matches!(
        inst.operands.first(),
        Some(Operand::Reg(_) | Operand::PredPair(..))
    ) && !inst
        .operands
        .iter()
        .any(|o| matches!(o, Operand::Vector(_) | Operand::List(_)));
    let op_ok = match inst.op {
        O::Add | O::Sub | O::And | O::Or | O::Xor | O::Not | O::Shl | O::Shr => true,
        O::Min | O::Max | O::Selp | O::Setp | O::Popc | O::Mov | O::Ld | O::Fma => true,
        O::Mul => matches!(
            inst.mods.mul_mode,
            None | Some(isa::MulMode::Lo | isa::MulMode::Hi)
        ),
        _ => false,
    };
    ty32 && plain_dst && op_ok
}

/// A 64-bit `add`/`sub` of pairs (or immediates): `IADD d.lo.CC, a.lo, b.lo` then
/// `IADD.X d.hi, a.hi, b.hi`. Pairs are aligned, so `d.lo` can only be a source's low word,
/// which nothing reads after the first instruction: the destination may take the pair of a
/// source that dies there. Not with registers a folded operand adds (`fold.rs`'s shifts
/// write the high word first), which the caller checks.
pub(crate) fn pairwise_add(f: &Function, inst: &Inst) -> bool {
    use ir::{Opcode as O, Type as T};
    let wide = |t: Option<T>| matches!(t, Some(T::U64 | T::S64 | T::B64));
    inst.guard.is_none()
        && matches!(inst.op, O::Add | O::Sub)
        && wide(inst.ty())
        && !inst.mods.has(ir::Flag::Cc)
        && !inst.mods.has(ir::Flag::Sat)
        && inst.operands.len() == 3
        && inst.operands.iter().all(|o| match o {
            Operand::Reg(r) => wide(f.regs.get(r.index()).map(|x| x.ty)),
            Operand::Imm(_) => true,
            _ => false,
        })
}
