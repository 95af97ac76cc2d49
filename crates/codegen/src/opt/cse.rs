//! Common-subexpression elimination of pure instructions (address arithmetic, repeated
//! `mov` of a variable's address, repeated parameter loads).
//!
//! Two pure instructions with the same operation, modifiers, types and sources compute the
//! same value when every source register has one unguarded definition (its value never
//! changes once set). The later one's destination is replaced by the earlier one's where the
//! earlier dominates it; dead-code elimination then removes the later instruction.
//!
//! A `setp` whose comparison is the complement of an earlier one's on the same sources (no
//! `.and/.or` combiner) is that predicate negated: `a neu b` is exactly `!(a eq b)` for
//! floats (NaN makes both unordered forms true), `a ge b` is `!(a lt b)` for integers. Its
//! uses are rewritten to the earlier predicate negated when every use can say so (a guard,
//! or `selp`'s selector); NVIDIA's code does the same (`FSETP.NEU` and `@!P0`).

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

/// What makes two pure instructions compute the same value: the form, modifiers, types and
/// sources.
#[derive(Clone, PartialEq, Eq)]
struct Key {
    form: usize,
    mods: ir::Mods,
    types: [Option<ir::Type>; isa::MAX_TYPE_SLOTS],
    srcs: Vec<Src>,
}

/// Leaves the modifiers out: hashing their two dozen fields one by one was most of the pass's
/// time, and keys that differ only there are rare (a `setp` and its complement) and told
/// apart by `Eq`.
impl std::hash::Hash for Key {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.form.hash(h);
        self.types.hash(h);
        self.srcs.hash(h);
    }
}

fn key(inst: &Inst, facts: &Facts) -> Option<Key> {
    if inst.guard.is_some() || !is_pure(inst) {
        return None;
    }
    let stable = |r: &RegId| facts.value_def(*r).is_some();
    let mut srcs = Vec::with_capacity(inst.operands.len());
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
    Some(Key {
        form: inst.form as *const isa::Form as usize,
        mods: inst.mods,
        types: inst.types,
        srcs,
    })
}

/// The comparison that is true exactly when `c` is false, for integer or float operands.
fn complement(c: isa::CmpOp, float: bool) -> Option<isa::CmpOp> {
    use isa::CmpOp::*;
    Some(match (c, float) {
        (Eq, false) => Ne,
        (Ne, false) => Eq,
        (Lt, false) => Ge,
        (Ge, false) => Lt,
        (Le, false) => Gt,
        (Gt, false) => Le,
        (Lo, false) => Hs,
        (Hs, false) => Lo,
        (Ls, false) => Hi,
        (Hi, false) => Ls,
        (Eq, true) => Neu,
        (Neu, true) => Eq,
        (Ne, true) => Equ,
        (Equ, true) => Ne,
        (Lt, true) => Geu,
        (Geu, true) => Lt,
        (Le, true) => Gtu,
        (Gtu, true) => Le,
        (Gt, true) => Leu,
        (Leu, true) => Gt,
        (Ge, true) => Ltu,
        (Ltu, true) => Ge,
        (Num, true) => Nan,
        (Nan, true) => Num,
        _ => return None,
    })
}

/// The key `inst` (a `setp` without combiner) would have with the complementary comparison.
fn complement_key(inst: &Inst, k: &Key) -> Option<Key> {
    if inst.op != ir::Opcode::Setp || inst.mods.bool_op.is_some() {
        return None;
    }
    let float = match inst.ty()? {
        ir::Type::F32 | ir::Type::F64 => true,
        t if t.is_integer() => false,
        _ => return None,
    };
    let mut c = k.clone();
    c.mods.cmp = Some(complement(inst.mods.cmp?, float)?);
    Some(c)
}

/// Whether every read of predicate `p` can be negated in place: guards and `selp` selectors.
fn negatable_uses(body: &[Inst], sites: &[usize], p: RegId) -> bool {
    sites.iter().all(|&u| {
        let inst = &body[u];
        inst.operands.iter().enumerate().all(|(k, o)| match o {
            Operand::Reg(r) | Operand::NotPred(r) if *r == p => {
                inst.op == ir::Opcode::Selp && k == 3
            }
            Operand::Reg(_) | Operand::NotPred(_) | Operand::Imm(_) | Operand::Omitted => true,
            Operand::Address(a) => a.base != AddrBase::Reg(p),
            Operand::VarAddr { .. } | Operand::Label(_) => true,
            _ => false,
        })
    })
}

pub(super) fn run(body: &mut [Inst], facts: &Facts, f: &ir::Function) {
    let n = f.regs.len();
    let mut seen: HashMap<Key, Vec<(usize, RegId)>> = HashMap::default();
    let mut repl: Vec<Option<RegId>> = vec![None; n];
    // Predicates that are an earlier predicate negated.
    let mut negated: Vec<Option<RegId>> = vec![None; n];
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
        let uses_after = sites
            .get(d.index())
            .is_some_and(|s| s.iter().all(|&u| u != i && facts.dominates(i, u)));
        if let Some(ck) = complement_key(inst, &k) {
            let hit = seen.get(&ck).and_then(|v| {
                v.iter()
                    .find(|(j, e)| {
                        facts.dominates(*j, i)
                            && f.regs.get(e.index()).map(|r| r.ty) == Some(ir::Type::Pred)
                    })
                    .map(|&(_, e)| e)
            });
            if let Some(e) = hit {
                if uses_after && inst.guard.is_none() {
                    negated[d.index()] = Some(e);
                    continue;
                }
            }
        }
        let earlier = seen.entry(k).or_default();
        match earlier.iter().find(|(j, e)| {
            facts.dominates(*j, i)
                && f.regs.get(e.index()).map(|r| r.ty) == f.regs.get(d.index()).map(|r| r.ty)
        }) {
            Some(&(_, e)) if uses_after => repl[d.index()] = Some(e),
            _ => earlier.push((i, d)),
        }
    }
    // Only where every read can take the negation.
    for (p, e) in negated.iter_mut().enumerate() {
        if e.is_some() && !negatable_uses(body, &sites[p], RegId(p as u32)) {
            *e = None;
        }
    }
    if repl.iter().chain(&negated).all(Option::is_none) {
        return;
    }
    for inst in body.iter_mut() {
        super::rewrite_uses(inst, &mut |r| repl.get(r.index()).copied().flatten());
        if let Some(g) = inst.guard.as_mut() {
            if let Some(e) = negated.get(g.reg.index()).copied().flatten() {
                *g = ir::Guard {
                    reg: e,
                    negated: !g.negated,
                };
            }
        }
        if inst.op == ir::Opcode::Selp {
            if let Some(o) = inst.operands.get_mut(3) {
                let flipped = match o {
                    Operand::Reg(r) => negated
                        .get(r.index())
                        .copied()
                        .flatten()
                        .map(Operand::NotPred),
                    Operand::NotPred(r) => {
                        negated.get(r.index()).copied().flatten().map(Operand::Reg)
                    }
                    _ => None,
                };
                if let Some(x) = flipped {
                    *o = x;
                }
            }
        }
    }
}
