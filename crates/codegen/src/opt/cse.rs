//! Common-subexpression elimination of pure instructions (address arithmetic, repeated
//! `mov` of a variable's address, repeated parameter loads).
//!
//! Two pure instructions with the same operation, modifiers, types and sources compute the
//! same value when every source register has one unguarded definition (its value never
//! changes once set). The later one's destination is replaced by the earlier one's where the
//! earlier dominates it; dead-code elimination then removes the later instruction.

use super::{is_pure, single_dst, Facts};
use ir::{AddrBase, Inst, Operand, RegId};
use rustc_hash::FxHashMap as HashMap;

/// The sources of an instruction, in a hashable form; `None` for operands the pass does not
/// compare (vectors, lists, specials such as `%clock`).
#[derive(Clone, PartialEq, Eq, Hash)]
enum Src {
    Reg(u32),
    Not(u32),
    Imm(u64),
    Var(u32, i64),
    Addr(u32, i64),
    Omitted,
}

type Key = (usize, ir::Mods, Vec<Option<ir::Type>>, Vec<Src>);

fn key(inst: &Inst, facts: &Facts) -> Option<Key> {
    if inst.guard.is_some() || !is_pure(inst) {
        return None;
    }
    let stable = |r: &RegId| facts.value_def(*r).is_some();
    let mut srcs = Vec::new();
    for (k, o) in inst.operands.iter().enumerate() {
        if super::is_dst(inst, k) {
            continue;
        }
        srcs.push(match o {
            Operand::Reg(r) if stable(r) => Src::Reg(r.0),
            Operand::NotPred(r) if stable(r) => Src::Not(r.0),
            Operand::Imm(v) => Src::Imm(*v),
            Operand::VarAddr { var, offset } => Src::Var(var.0, *offset),
            Operand::Address(a) => match a.base {
                AddrBase::Var(v) => Src::Addr(v.0, a.offset),
                _ => return None,
            },
            Operand::Omitted => Src::Omitted,
            _ => return None,
        });
    }
    Some((
        inst.form as *const isa::Form as usize,
        inst.mods,
        inst.types.to_vec(),
        srcs,
    ))
}

pub(super) fn run(body: &mut [Inst], facts: &Facts, f: &ir::Function) {
    let n = f.regs.len();
    let mut seen: HashMap<Key, Vec<(usize, RegId)>> = HashMap::default();
    let mut repl: Vec<Option<RegId>> = vec![None; n];
    let mut sites: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, inst) in body.iter().enumerate() {
        super::visit(inst, &mut |r, role| {
            if role != super::Role::Def {
                if let Some(s) = sites.get_mut(r.index()) {
                    s.push(i);
                }
            }
        });
    }
    for (i, inst) in body.iter_mut().enumerate() {
        // Sources replaced so far first: a replacement can make later keys equal.
        super::rewrite_uses(inst, &mut |r| repl.get(r.index()).copied().flatten());
        let inst = &*inst;
        let Some(d) = single_dst(inst).filter(|d| facts.value_def(*d) == Some(i)) else {
            continue;
        };
        let Some(k) = key(inst, facts) else {
            continue;
        };
        let earlier = seen.entry(k).or_default();
        let uses_after = sites
            .get(d.index())
            .is_some_and(|s| s.iter().all(|&u| u != i && facts.dominates(i, u)));
        match earlier.iter().find(|(j, e)| {
            facts.dominates(*j, i)
                && f.regs.get(e.index()).map(|r| r.ty) == f.regs.get(d.index()).map(|r| r.ty)
        }) {
            Some(&(_, e)) if uses_after => repl[d.index()] = Some(e),
            _ => earlier.push((i, d)),
        }
    }
    if repl.iter().all(Option::is_none) {
        return;
    }
    for inst in body.iter_mut() {
        super::rewrite_uses(inst, &mut |r| repl.get(r.index()).copied().flatten());
    }
}
