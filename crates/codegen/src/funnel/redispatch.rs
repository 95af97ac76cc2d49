//! Side entries into divergent regions inside loops, restructured by a flag per edge: an
//! edge `q → y` into the region of the divergent branch ending block `b`, from outside that
//! region, becomes `q: mov.u32 %f, 1; bra b'` where `b'` is a new block holding only `b`'s
//! branch, preceded by `setp.eq.u32 %p, %f, 1; @%p bra Y`, and `Y` (after the body) is
//! `mov.u32 %f, 0; bra y`. Lanes that took the edge now enter the region through its `SSY`
//! like every other lane, then go straight on to `y`: the region has one entry, and the
//! plan maps it with no copy of any block, however large. `%f` is zero except between the
//! edge and `Y` (it starts at zero), so lanes arriving at `b'` from `b` go on with `b`'s
//! branch. Where `b'` is now entered from outside an enclosing region, the next round sends
//! those lanes through that region's branch the same way (a flag of its own).
//!
//! Tried by `funnel::rewrites` only after every other rewrite, so bodies that map otherwise
//! keep their code; a rewrite that would make the graph irreducible is given up. Last of
//! all (round s25), the same rewrite for side entries outside loops too, chosen by the
//! block the whole plan still refuses: the plan's own side-edge stubs need the regions
//! entered to nest, while regions entered only through their branches always nest. A
//! detour's own edge into the region is never chosen again, in either mode (it would start
//! a chain of flags, one per round, that never ends).

use super::{branch, new_reg, plain_branch, set_pred};
use crate::cfg;
use ir::{Function, Guard, Inst, Opcode, Type};

/// Most edges restructured in one body (each re-analyses the graph).
const MAX_EDGES: usize = 32;

/// Largest graph whose side entries outside loops are sent through the flags: each round
/// plans the whole body again (`Flow::plan`, quadratic in the blocks, re-planned per
/// `PCNT` loop), so larger bodies that fail every other rewrite are refused sooner.
const MAX_EVERY_BLOCKS: usize = 1024;

/// Label placeholders until the new body is laid out.
const B_TAIL: u32 = u32::MAX - 1;
const DETOUR: u32 = u32::MAX - 2;

/// `f` with every side entry the plan cannot map sent through its region's branch, or
/// `None` when there is none or one cannot be rewritten. Without `every`, the entries
/// inside loops and onto a join's `.S` (`cfg::unmapped_side_entry`); with it, while the
/// whole plan (`Flow::plan`) still refuses a block, a side entry into that block or a
/// region around it, outside loops too. Never an edge from a detour this function made.
pub fn redispatch_side_entries(f: &Function, every: bool) -> Option<Function> {
    let mut g = f.clone();
    let mut changed = false;
    // The detour blocks made so far (their first instruction): their edges are the ones
    // the flags sent through a region's branch, never taken again (a chain of flags).
    let mut detours: Vec<u32> = Vec::new();
    for _ in 0..MAX_EDGES {
        let body = g.body.as_ref()?;
        if body.is_empty() || body.iter().any(|i| i.op == Opcode::Brx) {
            return None;
        }
        let graph = cfg::build_cfg(body);
        let loops = cfg::loop_bodies(&graph).ok()?;
        let divergent = cfg::divergent_blocks(&graph, body);
        // Every side entry: those into the block the whole plan still refuses.
        let avoid: Vec<bool> = graph
            .blocks
            .iter()
            .map(|b| detours.contains(&(b.start as u32)))
            .collect();
        if every && graph.blocks.len() > MAX_EVERY_BLOCKS {
            return None;
        }
        let refused = if every {
            match crate::flow::Flow::plan(&graph, &divergent, "") {
                Ok(_) => return changed.then_some(g),
                Err(e) => Some(e.block),
            }
        } else {
            None
        };
        let Some(e) = cfg::unmapped_side_entry(&graph, &divergent, &loops, refused, &avoid) else {
            return changed.then_some(g);
        };
        let (map, detour) = rewrite(&mut g, &graph, &e)?;
        for d in detours.iter_mut() {
            *d = map.get(*d as usize).copied()?;
        }
        detours.push(detour);
        // A flag edge that closes a cycle entered at two blocks is given up.
        cfg::loop_bodies(&cfg::build_cfg(g.body.as_ref()?)).ok()?;
        changed = true;
    }
    None
}

/// Sends the lanes of the edge `e` through `e.branch`'s branch (see the module comment).
/// Returns where each old instruction went and where the detour block starts.
fn rewrite(g: &mut Function, graph: &cfg::Cfg, e: &cfg::SideEntry) -> Option<(Vec<u32>, u32)> {
    let flag = new_reg(g, Type::U32);
    let pick = new_reg(g, Type::Pred);
    let body = g.body.take()?;
    let n = body.len();
    let (qb, yb, bb) = (
        graph.blocks.get(e.from)?,
        graph.blocks.get(e.to)?,
        graph.blocks.get(e.branch)?,
    );
    let y = yb.start;
    if y >= n || qb.end <= qb.start || bb.end <= bb.start {
        return None;
    }
    let template = body.iter().find(|i| i.op == Opcode::Bra)?.clone();
    let set = |like: &Inst, v: usize, guard: Option<Guard>| super::set_code(like, flag, v, guard);
    // The edge `q → y`: its explicit branch, its fall-through, or both.
    let tq = qb.end - 1;
    let last = &body[tq];
    let ends = !cfg::falls_through(last);
    let explicit = last.op == Opcode::Bra && cfg::branch_target(last) == Some(y);
    let falls = !ends && qb.end == y;
    if !explicit && !falls {
        return None;
    }
    let mut edge = Vec::new();
    if explicit {
        edge.push(set(last, 1, last.guard)?);
        edge.push(branch(last, last.guard, B_TAIL));
    } else {
        edge.push(last.clone());
    }
    if falls {
        edge.push(set(last, 1, None)?);
        edge.push(plain_branch(&template, B_TAIL));
    }
    // The region's branch, after the test of the flag.
    let tb = bb.end - 1;
    let mut test = [
        set_pred(&body[tb], pick, flag, 1)?,
        plain_branch(&template, DETOUR),
    ];
    test[1].guard = Some(Guard {
        reg: pick,
        negated: false,
    });
    let may_fall_off = body.last().is_some_and(cfg::falls_through);
    let ret = body
        .iter()
        .find(|i| matches!(i.op, Opcode::Ret | Opcode::Exit) && i.guard.is_none())
        .cloned();
    let mut out: Vec<Inst> = Vec::with_capacity(n + 10);
    let mut map = vec![0u32; n + 1];
    out.push(set(&body[0], 0, None)?);
    let mut b_tail = 0u32;
    for (i, inst) in body.into_iter().enumerate() {
        map[i] = if i == 0 { 0 } else { out.len() as u32 };
        if i == tb {
            b_tail = out.len() as u32;
            out.extend(test.iter().cloned());
        }
        if i == tq {
            out.extend(edge.iter().cloned());
        } else {
            out.push(inst);
        }
    }
    map[n] = out.len() as u32;
    if may_fall_off {
        out.push(ret?);
    }
    let detour = out.len() as u32;
    out.push(set(&template, 0, None)?);
    out.push(plain_branch(&template, y as u32));
    super::relabel(g, &mut out, &map, |t| match t {
        B_TAIL => Some(b_tail),
        DETOUR => Some(detour),
        _ => None,
    });
    g.body = Some(out);
    Some((map, detour))
}
