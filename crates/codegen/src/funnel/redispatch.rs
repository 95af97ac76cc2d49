//! Side entries into divergent regions inside loops, restructured by a code per edge in one
//! flag register: the `k`-th edge `q → y` into the region of the divergent branch ending
//! block `b`, from outside that region, becomes `q: mov.u32 %f, k; bra b'` where `b'` is a
//! new block holding only `b`'s branch, preceded by `setp.eq.u32 %p, %f, k; @%p bra Y`,
//! and `Y` (after the body) is `mov.u32 %f, 0; bra y`. One register for every edge (round
//! s25): a flag each made bodies with many side entries fail register allocation. Lanes that took the edge now enter the region through its `SSY`
//! like every other lane, then go straight on to `y`: the region has one entry, and the
//! plan maps it with no copy of any block, however large. `%f` is zero except between the
//! edge and `Y` (it starts at zero), so lanes arriving at `b'` from `b` go on with `b`'s
//! branch. Where `b'` is now entered from outside an enclosing region, the next round sends
//! those lanes through that region's branch the same way (a code of its own; its detour
//! gives the flag back the code `b'` tests, see `rewrite`).
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
use ir::{Function, Guard, Inst, Opcode, Operand, RegId, Type};

/// Most edges restructured in one body (each re-analyses the graph).
const MAX_EDGES: usize = 128;

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
    // One register for every edge's flag, holding the edge's code (see `rewrite`): many
    // side entries cost one live register, not one each.
    let mut flag: Option<RegId> = None;
    for code in 1..=MAX_EDGES {
        let body = g.body.as_ref()?;
        if body.is_empty() || body.iter().any(|i| i.op == Opcode::Brx) {
            return None;
        }
        let graph = cfg::build_cfg(body);
        // A flag edge of the previous round that closed a cycle entered at two blocks
        // (irreducible) gives the rewrite up here.
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
        let first = flag.is_none();
        let f = *flag.get_or_insert_with(|| new_reg(&mut g, Type::U32));
        let (map, detour) = rewrite(&mut g, &graph, &e, f, code, first)?;
        for d in detours.iter_mut() {
            *d = map.get(*d as usize).copied()?;
        }
        detours.push(detour);
        changed = true;
    }
    None
}

/// Sends the lanes of the edge `e` through `e.branch`'s branch (see the module comment),
/// `flag` set to `code` on the edge (the body's first instruction sets it to zero when
/// `first`). Returns where each old instruction went and where the detour block starts.
///
/// The flag is zero everywhere but between an edge and its detour, with one exception that
/// makes one register enough: an edge rewritten again (its target, a test block, entered
/// from outside an enclosing region) already set the flag to its own code `k` just before
/// its branch; its lanes must reach that test holding `k`, so the new detour restores `k`
/// instead of zero. Between the new edge and its detour the lanes run only the new test,
/// which reads the new code. Each predicate stays its own register: the tests of one
/// branch sit side by side (`setp`, `setp`, `@p bra`, `@p bra`) when a test block's own
/// branch is the region branch of a later round.
fn rewrite(
    g: &mut Function,
    graph: &cfg::Cfg,
    e: &cfg::SideEntry,
    flag: RegId,
    code: usize,
    first: bool,
) -> Option<(Vec<u32>, u32)> {
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
    // What the flag holds on the edge (see above): the code an earlier round set just
    // before this branch, else zero. Any other write of the flag is not ours: given up.
    let restore = match tq.checked_sub(1).filter(|&p| p >= qb.start && explicit) {
        Some(p) if writes(&body[p], flag) => match body[p].operands.get(1) {
            Some(Operand::Imm(k)) if body[p].op == Opcode::Mov && body[p].guard == last.guard => {
                usize::try_from(*k).ok()?
            }
            _ => return None,
        },
        _ => 0,
    };
    // Lanes falling into `y` hold zero, those branching hold `restore`: one detour cannot
    // give both back.
    if falls && restore != 0 {
        return None;
    }
    let mut edge = Vec::new();
    if explicit {
        edge.push(set(last, code, last.guard)?);
        edge.push(branch(last, last.guard, B_TAIL));
    } else {
        edge.push(last.clone());
    }
    if falls {
        edge.push(set(last, code, None)?);
        edge.push(plain_branch(&template, B_TAIL));
    }
    // The region's branch, after the test of the flag.
    // The test goes before the branch, and before the `setp` computing its guard when
    // that comes just before: where the region's branch is an earlier round's test
    // (`setp %p_k, %f, k; @%p_k bra Y_k`), tests placed between the two would keep each
    // earlier predicate live across the later ones, more than the predicate registers
    // after a few rounds. Lanes that do not take the detour run the same instructions.
    let tb = bb.end - 1;
    let tb = match (tb.checked_sub(1), body[tb].guard) {
        (Some(p), Some(gd)) if p >= bb.start && writes(&body[p], gd.reg) => p,
        _ => tb,
    };
    let mut test = [
        set_pred(&body[tb], pick, flag, u32::try_from(code).ok()?)?,
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
    if first {
        out.push(set(&body[0], 0, None)?);
    }
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
    out.push(set(&template, restore, None)?);
    out.push(plain_branch(&template, y as u32));
    super::relabel(g, &mut out, &map, |t| match t {
        B_TAIL => Some(b_tail),
        DETOUR => Some(detour),
        _ => None,
    });
    g.body = Some(out);
    Some((map, detour))
}

/// Whether `inst` writes `reg` (its destination, the first operand).
fn writes(inst: &Inst, reg: RegId) -> bool {
    inst.form
        .operands
        .first()
        .is_some_and(|o| o.kind.is_destination())
        && inst.operands.first() == Some(&Operand::Reg(reg))
}
