//! Sinking and rematerialization of values that need no register source (an entry's
//! `ld.param`, `mov` of an immediate or of a variable's address): the definition moves to
//! just before its first use, and a value used in several blocks (at most `MAX_COPIES`) is
//! defined again, in a register of its own, before its first use in each, unless that would
//! put it in a loop the definition is not already in.
//!
//! Compilers load every kernel parameter at the top of the kernel; kept there, each holds a
//! register (a pair for NVRTC's 64-bit pointers) through the whole kernel. NVIDIA's code
//! reads parameters from `c [0x0]` where they are used; sinking the load gives the register
//! allocator the same short live ranges, at no cost in instructions for one using block and
//! one (`MOV`) per further block.

use super::{single_dst, Facts};
use crate::cfg::Cfg;
use ir::{AddrBase, Inst, Opcode, Operand};

pub(super) fn needs_no_register(inst: &Inst) -> bool {
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

/// At most this many blocks get their own copy of one value (each copy is an instruction,
/// or two for a 64-bit value, traded for a register held across the blocks in between).
const MAX_COPIES: usize = 3;

/// Where the instructions go: before each staying instruction, the moved and copied ones.
enum Item {
    Old(usize),
    /// Boxed: an `Inst` is ~200 bytes and most items are `Old`.
    Copy(Box<Inst>),
}

/// Moves (and where used in several blocks, copies) the instructions; returns the map from
/// old instruction indices (label targets) to new ones. Only for entries: a `.func`'s
/// parameters are not in `c [0x0]`.
pub(super) fn run(
    body: &mut Vec<Inst>,
    regs: &mut Vec<ir::Reg>,
    facts: &Facts,
    graph: &Cfg,
) -> Option<Vec<u32>> {
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
    let mut removed = vec![false; n];
    let mut before: Vec<Vec<Item>> = (0..n).map(|_| Vec::new()).collect();
    // Uses to rename to a copy's register: (instruction, old register, new register).
    let mut renames: Vec<(usize, ir::RegId, ir::RegId)> = Vec::new();
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
        if !uses.iter().all(|&u| u > i && facts.dominates(i, u)) {
            continue;
        }
        // The first use in each block that reads the value.
        let mut firsts: Vec<(usize, usize)> = Vec::new();
        for &u in uses {
            let b = facts.block_of(u);
            match firsts.iter_mut().find(|(fb, _)| *fb == b) {
                Some((_, at)) => *at = (*at).min(u),
                None => firsts.push((b, u)),
            }
        }
        firsts.sort_by_key(|&(_, at)| at);
        let home = facts.block_of(i);
        let into_loop = firsts.iter().any(|&(b, _)| loops[b] && b != home);
        let already_there = firsts.len() == 1 && firsts[0].1 == i + 1;
        if into_loop || already_there || firsts.len() > MAX_COPIES {
            continue;
        }
        removed[i] = true;
        for (k, &(b, at)) in firsts.iter().enumerate() {
            let mut copy = inst.clone();
            if k > 0 {
                // A fresh register for this block's copy; its uses there are renamed.
                let fresh = ir::RegId(regs.len() as u32);
                regs.push(regs[d.index()].clone());
                copy.operands[0] = Operand::Reg(fresh);
                for &u in uses.iter().filter(|&&u| facts.block_of(u) == b) {
                    renames.push((u, d, fresh));
                }
            }
            before[at].push(Item::Copy(Box::new(copy)));
        }
    }
    if !removed.iter().any(|&r| r) {
        return None;
    }
    for &(u, old, new) in &renames {
        super::rewrite_uses(&mut body[u], &mut |r| (r == old).then_some(new));
    }
    // New order: before each instruction, what moves or is copied in front of it.
    let mut order: Vec<Item> = Vec::with_capacity(n + renames.len());
    let mut group_start = vec![0u32; n + 1];
    for (k, items) in before.into_iter().enumerate() {
        group_start[k] = order.len() as u32;
        order.extend(items);
        if !removed[k] {
            order.push(Item::Old(k));
        }
    }
    group_start[n] = order.len() as u32;
    // A label at instruction t lands on the group of the first staying instruction from t.
    let mut target = vec![0u32; n + 1];
    target[n] = group_start[n];
    for t in (0..n).rev() {
        target[t] = if removed[t] {
            target[t + 1]
        } else {
            group_start[t]
        };
    }
    let mut old: Vec<Option<Inst>> = std::mem::take(body).into_iter().map(Some).collect();
    *body = order
        .into_iter()
        .filter_map(|item| match item {
            Item::Old(k) => old[k].take(),
            Item::Copy(inst) => Some(*inst),
        })
        .collect();
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
