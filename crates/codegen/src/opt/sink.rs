//! Sinking of values that need no register source (an entry's `ld.param`, `mov` of an
//! immediate or of a variable's address) to just before their first use, when every use is
//! in one block outside any loop the definition is not already in.
//!
//! Compilers load every kernel parameter at the top of the kernel; kept there, each holds a
//! register (a pair for NVRTC's 64-bit pointers) through the whole kernel. NVIDIA's code
//! reads parameters from `c [0x0]` where they are used; sinking the load gives the register
//! allocator the same short live range at no cost in instructions.

use super::{single_dst, Facts};
use crate::cfg::Cfg;
use ir::{AddrBase, Inst, Opcode, Operand};

fn needs_no_register(inst: &Inst) -> bool {
    if inst.guard.is_some() || inst.operands.len() != 2 {
        return false;
    }
    match (inst.op, &inst.operands[1]) {
        (Opcode::Ld, Operand::Address(a)) => {
            inst.mods.space == Some(ir::Space::Param)
                && inst.mods.sem.is_none()
                && matches!(a.base, AddrBase::Var(_))
        }
        (Opcode::Mov, Operand::Imm(_) | Operand::VarAddr { .. }) => true,
        _ => false,
    }
}

/// Blocks inside a loop, approximately: those between the target and the source of an edge
/// that goes back in layout order (compilers lay loops out contiguously).
fn in_loops(graph: &Cfg) -> Vec<bool> {
    let mut inside = vec![false; graph.blocks.len()];
    for (b, blk) in graph.blocks.iter().enumerate() {
        for &s in &blk.succs {
            if s <= b {
                inside[s..=b].iter_mut().for_each(|x| *x = true);
            }
        }
    }
    inside
}

/// Moves the instructions; returns the map from old instruction indices (label targets) to
/// new ones. Only for entries: a `.func`'s parameters are not in `c [0x0]`.
pub(super) fn run(body: &mut Vec<Inst>, facts: &Facts, graph: &Cfg) -> Option<Vec<u32>> {
    let writes_params = body
        .iter()
        .any(|i| i.op == Opcode::St && i.mods.space == Some(ir::Space::Param));
    if writes_params {
        return None;
    }
    let loops = in_loops(graph);
    let n = body.len();
    let mut sites: Vec<Vec<usize>> = vec![Vec::new(); facts.defs.len()];
    for (i, inst) in body.iter().enumerate() {
        super::visit(inst, &mut |r, role| {
            if role != super::Role::Def {
                if let Some(s) = sites.get_mut(r.index()) {
                    s.push(i);
                }
            }
        });
    }
    let mut dest: Vec<Option<usize>> = vec![None; n];
    for (i, inst) in body.iter().enumerate() {
        if !needs_no_register(inst) {
            continue;
        }
        let Some(d) = single_dst(inst).filter(|d| facts.value_def(*d) == Some(i)) else {
            continue;
        };
        let Some(uses) = sites.get(d.index()).filter(|s| !s.is_empty()) else {
            continue;
        };
        let Some(&first) = uses.iter().min() else {
            continue;
        };
        let b = facts.block_of(first);
        let same_block = uses.iter().all(|&u| facts.block_of(u) == b);
        let dominated = uses.iter().all(|&u| u > i && facts.dominates(i, u));
        let into_loop = loops[b] && facts.block_of(i) != b;
        if same_block && dominated && !into_loop && first > i + 1 {
            dest[i] = Some(first);
        }
    }
    if dest.iter().all(Option::is_none) {
        return None;
    }
    let mut moved_before: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, d) in dest.iter().enumerate() {
        if let Some(j) = d {
            moved_before[*j].push(i);
        }
    }
    // New order: before each staying instruction, what moves in front of it.
    let mut order = Vec::with_capacity(n);
    let mut group_start = vec![0u32; n + 1];
    for k in 0..n {
        group_start[k] = order.len() as u32;
        order.extend(moved_before[k].iter().copied());
        if dest[k].is_none() {
            order.push(k);
        }
    }
    group_start[n] = order.len() as u32;
    // A label at instruction t lands on the group of the first staying instruction from t.
    let mut target = vec![0u32; n + 1];
    target[n] = group_start[n];
    for t in (0..n).rev() {
        target[t] = if dest[t].is_none() {
            group_start[t]
        } else {
            target[t + 1]
        };
    }
    let mut old: Vec<Option<Inst>> = std::mem::take(body).into_iter().map(Some).collect();
    *body = order.iter().filter_map(|&k| old[k].take()).collect();
    for inst in body.iter_mut() {
        for o in inst.operands.iter_mut() {
            match o {
                Operand::Label(t) => t.0 = target[t.index().min(n)],
                Operand::TargetList(ts) => {
                    for t in ts.iter_mut() {
                        t.0 = target[t.index().min(n)];
                    }
                }
                _ => {}
            }
        }
    }
    Some(target)
}
