//! Copy propagation, and constant propagation with folding through `ops`.
//!
//! A copy `d = a` (`mov`, or `cvta` between global and generic addresses, which is a copy on
//! sm_20) is propagated when `d` has one unguarded definition that dominates all its uses
//! and `a` has one unguarded definition that dominates the copy: then `a` holds the same value
//! at every use of `d` (`a` cannot be redefined in between: its only definition dominates
//! the copy, so reaching it again would mean passing the copy again first). A constant
//! `d = imm` (a `mov`, or an integer operation of constants folded by `ops`) is put in the
//! source positions that take an immediate, where selection folds it into the instruction.

use super::{is_dst, Facts};
use crate::regs::width_of;
use ir::{Flag, Function, Inst, Opcode, Operand, RegId, Type};
use isa::{OperandKind, TypeRef};

fn reg_width(f: &Function, r: RegId) -> Option<u32> {
    f.regs.get(r.index()).and_then(|x| width_of(x.ty))
}

/// `(d, a)` when `inst` copies register `a` into `d`.
fn as_copy(inst: &Inst) -> Option<(RegId, RegId)> {
    if inst.guard.is_some() {
        return None;
    }
    let copy = match inst.op {
        Opcode::Mov => true,
        Opcode::Cvta => inst.mods.space == Some(ir::Space::Global),
        _ => false,
    };
    match (copy, inst.operands.first(), inst.operands.get(1)) {
        (true, Some(Operand::Reg(d)), Some(Operand::Reg(a))) if inst.operands.len() == 2 => {
            Some((*d, *a))
        }
        _ => None,
    }
}

/// `(d, x)` for `cvt.u32.u64 d, a` where `a = cvt.u64.u32 x` (either signedness): the low
/// half of an extension is the value extended, a copy.
fn truncated_extension(body: &[Inst], facts: &Facts, inst: &Inst) -> Option<(RegId, RegId)> {
    let int32 = |t: Option<Type>| matches!(t, Some(Type::U32 | Type::S32 | Type::B32));
    let int64 = |t: Option<Type>| matches!(t, Some(Type::U64 | Type::S64 | Type::B64));
    let plain = |i: &Inst| {
        i.op == Opcode::Cvt && i.guard.is_none() && !i.mods.has(Flag::Sat) && i.operands.len() == 2
    };
    if !plain(inst) || !int32(inst.type_slot(0)) || !int64(inst.type_slot(1)) {
        return None;
    }
    let (Operand::Reg(d), Operand::Reg(a)) = (&inst.operands[0], &inst.operands[1]) else {
        return None;
    };
    let ext = body.get(facts.value_def(*a)?)?;
    if !plain(ext) || !int64(ext.type_slot(0)) || !int32(ext.type_slot(1)) {
        return None;
    }
    match ext.operands[1] {
        Operand::Reg(x) => Some((*d, x)),
        _ => None,
    }
}

/// Uses of `r` all dominated by instruction `at`.
fn uses_dominated(facts: &Facts, sites: &[Vec<usize>], r: RegId, at: usize) -> bool {
    sites
        .get(r.index())
        .is_some_and(|s| s.iter().all(|&u| u != at && facts.dominates(at, u)))
}

/// Where each register is read.
fn use_sites(body: &[Inst], n: usize) -> Vec<Vec<usize>> {
    let mut sites = vec![Vec::new(); n];
    for (i, inst) in body.iter().enumerate() {
        super::visit(inst, &mut |r, role| {
            if role != super::Role::Def {
                if let Some(s) = sites.get_mut(r.index()) {
                    s.push(i);
                }
            }
        });
    }
    sites
}

pub(super) fn copies(body: &mut [Inst], facts: &Facts, f: &Function) {
    let n = f.regs.len();
    let sites = use_sites(body, n);
    let mut repl: Vec<Option<RegId>> = vec![None; n];
    let resolve = |repl: &[Option<RegId>], mut r: RegId| {
        while let Some(x) = repl[r.index()] {
            r = x;
        }
        r
    };
    for (i, inst) in body.iter().enumerate() {
        let Some((d, a)) = as_copy(inst).or_else(|| truncated_extension(body, facts, inst)) else {
            continue;
        };
        if d.index() >= n || a.index() >= n || facts.value_def(d) != Some(i) {
            continue;
        }
        let a = resolve(&repl, a);
        let Some(da) = facts.value_def(a) else {
            continue;
        };
        let same_kind =
            (f.regs[d.index()].ty == Type::Pred) == (f.regs[a.index()].ty == Type::Pred);
        if a == d
            || !same_kind
            || reg_width(f, d) != reg_width(f, a)
            || !facts.dominates(da, i)
            || !uses_dominated(facts, &sites, d, i)
        {
            continue;
        }
        repl[d.index()] = Some(a);
    }
    if repl.iter().all(Option::is_none) {
        return;
    }
    for inst in body.iter_mut() {
        super::rewrite_uses(inst, &mut |r| {
            repl.get(r.index())
                .copied()
                .flatten()
                .map(|_| resolve(&repl, r))
        });
    }
}

/// The value an instruction gives its destination when every source is a constant: a `mov`
/// of an immediate, or 32-bit integer `add/sub/mul.lo/and/or/xor` computed by `ops`.
fn constant_value(inst: &Inst) -> Option<u64> {
    if inst.guard.is_some() || inst.mods.has(Flag::Cc) || inst.mods.has(Flag::Sat) {
        return None;
    }
    let ty = inst.ty()?;
    let imm = |k: usize| match inst.operands.get(k) {
        Some(Operand::Imm(v)) => Some(*v),
        _ => None,
    };
    if inst.op == Opcode::Mov {
        return (ty != Type::Pred && inst.operands.len() == 2)
            .then(|| imm(1))
            .flatten();
    }
    if !matches!(ty, Type::U32 | Type::S32 | Type::B32) || inst.operands.len() != 3 {
        return None;
    }
    let (a, b) = (imm(1)? as u32, imm(2)? as u32);
    let v = match inst.op {
        Opcode::Add => ops::int::add(a, b),
        Opcode::Sub => ops::int::sub(a, b),
        Opcode::Mul if matches!(inst.mods.mul_mode, None | Some(isa::MulMode::Lo)) => {
            ops::int::mul_lo(a, b)
        }
        Opcode::And => ops::logic::and(a, b),
        Opcode::Or => ops::logic::or(a, b),
        Opcode::Xor => ops::logic::xor(a, b),
        _ => return None,
    };
    Some(u64::from(v))
}

/// Instructions whose selection folds an immediate source into the instruction.
fn takes_immediates(op: Opcode) -> bool {
    matches!(
        op,
        Opcode::Add
            | Opcode::Sub
            | Opcode::Mul
            | Opcode::Mad
            | Opcode::And
            | Opcode::Or
            | Opcode::Xor
            | Opcode::Shl
            | Opcode::Shr
            | Opcode::Min
            | Opcode::Max
            | Opcode::Setp
            | Opcode::Selp
            | Opcode::Bfe
            | Opcode::Bfi
            | Opcode::Mov
            // The stored value (`STS [a], RZ` for a zero, NVIDIA's form); addresses are
            // `Address` operands and never rewritten.
            | Opcode::St
    )
}

/// Whether `v` of a `w`-bit integer type fits Fermi's 20-bit signed immediate field, so
/// that putting it in several instructions costs nothing (a wider one costs a `MOV32I`
/// per use, and is only propagated into a single use).
fn fits_20_bits(v: u64, w: u32) -> bool {
    let x = if w == 32 {
        i64::from(v as u32 as i32)
    } else {
        v as i64
    };
    (-(1 << 19)..(1 << 19)).contains(&x)
}

pub(super) fn constants(body: &mut [Inst], facts: &Facts, f: &Function) {
    let n = f.regs.len();
    // Folding may expose more constants: a few rounds settle what compilers emit.
    for _ in 0..3 {
        let sites = use_sites(body, n);
        let mut changed = false;
        for i in 0..body.len() {
            let Some(v) = constant_value(&body[i]) else {
                continue;
            };
            let Some(d) = super::single_dst(&body[i]) else {
                continue;
            };
            let Some(w) = reg_width(f, d).filter(|_| facts.value_def(d) == Some(i)) else {
                continue;
            };
            let is_float = matches!(body[i].ty(), Some(Type::F32 | Type::F64));
            let cheap = !is_float && fits_20_bits(v, w);
            let Some(s) = sites.get(d.index()) else {
                continue;
            };
            if !cheap && s.len() != 1 {
                continue;
            }
            for &u in s {
                if u == i || !facts.dominates(i, u) {
                    continue;
                }
                let inst = &mut body[u];
                if !takes_immediates(inst.op)
                    || inst.guard.is_some_and(|g| g.reg == d)
                    || inst.ty().and_then(width_of) != Some(w)
                {
                    continue;
                }
                for k in 0..inst.operands.len() {
                    let Some(form_op) = inst.form.operands.get(k) else {
                        continue;
                    };
                    let typed = match form_op.ty {
                        TypeRef::Slot(0) => true,
                        TypeRef::Fixed(t) => width_of(t) == Some(w),
                        _ => false,
                    };
                    if inst.operands[k] == Operand::Reg(d)
                        && !is_dst(inst, k)
                        && form_op.kind == OperandKind::Src
                        && typed
                    {
                        inst.operands[k] = Operand::Imm(v);
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
}
