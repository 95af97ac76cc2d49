//! Loops whose exits the reconvergence stack cannot take as they are, rewritten so that every
//! exit goes to one block: NVIDIA's shape for a `break`, a `return` and a `continue` of an
//! outer loop out of one loop. Each exit edge `u → t` first records which target it meant in a
//! new register (`mov.u32 %code, k`, under the branch's own guard), then branches to one new
//! landing block `D`, laid out after the body, which dispatches on the code
//! (`setp.eq.u32 %p, %code, k; @%p bra t_k; …; bra t_last`).
//!
//! After the rewrite the loop has one exit (`D`), so `PBK`/`BRK` (and `PCNT`/`CONT`) can map
//! it however divergent its lanes are: lanes that leave wait on the stack until every lane
//! has left, then go on together at `D` and split again by their codes, outside the loop. An
//! inner loop's exit to an enclosing loop's header or past the enclosing loop becomes an edge
//! of `D`, which belongs to the enclosing loop: a `continue`/`break` of the outer loop taken
//! outside the inner one. Loops are rewritten innermost first; the graph is rebuilt after each.
//!
//! `flow.rs` asks for this only when planning the body as written failed, so bodies that map
//! today keep their code.

mod redispatch;

use crate::cfg::{self, Cfg};
use ir::{Function, Guard, Inst, InstIdx, Opcode, Operand, RegId, Type};

/// Most loops rewritten in one body (each rebuilds the graph and its loops).
const MAX_ROUNDS: usize = 64;

/// A label operand not yet placed: the landing block at the end of the body.
const LANDING: u32 = u32::MAX;

/// `f` with every loop that needs it funnelled into one exit, or `None` when no loop needs it
/// or a loop cannot be rewritten (a `brx.idx` leaving it, irreducible flow, an empty body).
pub fn funnel_loop_exits(f: &Function) -> Option<Function> {
    let mut g = f.clone();
    let mut changed = false;
    for _ in 0..MAX_ROUNDS {
        let body = g.body.as_ref()?;
        if body.is_empty() || body.iter().any(|i| i.op == Opcode::Brx) {
            return None;
        }
        let graph = cfg::build_cfg(body);
        if graph.blocks.len() > cfg::MAX_BLOCKS {
            return None;
        }
        let loops = cfg::loop_bodies(&graph).ok()?;
        let Some((header, targets)) = loop_to_funnel(&graph, &loops) else {
            return changed.then_some(g);
        };
        let l = loops[header].as_ref()?;
        funnel(&mut g, &graph, l, &targets)?;
        changed = true;
    }
    None
}

/// Largest returning block copied onto the branches that reach it.
const MAX_TAIL: usize = 24;

/// Largest join block copied onto the branches that reach it.
const MAX_JOIN: usize = 16;

/// Most rounds of block copying tried on one body.
const MAX_SPLIT_ROUNDS: usize = 4;

/// Largest join block copied in the rounds tried after those of [`MAX_JOIN`]: blocks of
/// a few dozen instructions entered from inside loops (the body's growth bound applies).
const MAX_LARGE_JOIN: usize = 96;

/// What [`crate::body`] tries, in order, when planning a body as written fails: the loops'
/// exits funnelled; then (in a kernel) the small blocks that end the thread copied onto each
/// branch to them, loops funnelled; then, round after round, small blocks that several
/// branches join at copied onto each branch (node splitting), loops funnelled. Each
/// candidate is bounded: a body never grows past twice its size plus a margin. Blocks a
/// rewrite leaves unreachable (every branch to them now goes to a copy) are removed.
///
/// The flag rewrites (`redispatch.rs`), the costliest, are made only when the caller asks
/// for them (the candidates before them did not map).
pub fn rewrites(f: &Function, kernel: bool) -> impl Iterator<Item = Function> {
    let mut out = Vec::new();
    let funnelled = funnel_loop_exits(f);
    out.extend(funnelled.clone());
    let limit = f.body.as_ref().map_or(0, |b| 2 * b.len() + 256);
    let mut g = f.clone();
    if kernel {
        if let Some(t) = duplicate_tails(&g, Tails::Exits) {
            g = t;
            out.push(funnel_loop_exits(&g).unwrap_or_else(|| g.clone()));
        }
    }
    // Small joins first; larger ones only for bodies those rounds leave unmapped (bodies
    // that map with small copies keep their code), from where the small rounds ended.
    for most in [MAX_JOIN, MAX_LARGE_JOIN] {
        for _ in 0..MAX_SPLIT_ROUNDS {
            match duplicate_tails(&g, Tails::Joins(most)) {
                Some(t) if t.body.as_ref().map_or(0, Vec::len) <= limit => g = t,
                _ => break,
            }
            out.push(funnel_loop_exits(&g).unwrap_or_else(|| g.clone()));
        }
    }
    // Last, side entries inside loops sent through their regions' branches by a flag per
    // edge (`redispatch.rs`): of the body as written, of its funnelled form, and of the last
    // node-splitting round. Then every side entry, outside loops too: where the plan's own
    // side-edge stubs fail (regions that do not nest), single-entry regions nest.
    let bases: Vec<Function> = [Some(f.clone()), funnelled, Some(g)]
        .into_iter()
        .flatten()
        .collect();
    let flagged = [false, true].into_iter().flat_map(move |every| {
        bases
            .clone()
            .into_iter()
            .filter_map(move |base| redispatch::redispatch_side_entries(&base, every))
            .map(|r| funnel_loop_exits(&r).unwrap_or(r))
    });
    out.into_iter().chain(flagged)
}

/// Which blocks [`duplicate_tails`] copies.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Tails {
    /// Blocks that end the thread (unguarded `ret`/`exit`).
    Exits,
    /// Blocks of at most this many instructions that end in an unconditional `bra`, or may
    /// fall through (a guarded branch or none: a copy then branches to the next block), not
    /// loop headers.
    Joins(usize),
}

/// Copies every small block that ends the thread (an unguarded `ret`/`exit`, nothing after)
/// and is the target of branches: each branch gets its own copy at the end of the body, so
/// lanes that take it leave the kernel there instead of joining the others (NVIDIA's
/// listings end kernels with several `EXIT`s the same way). A return reached from inside
/// divergent regions and loops is then no join of theirs: the unstructured joins that early
/// returns make disappear. Only in kernels: a `.func`'s `ret` restores the caller's state.
fn duplicate_tails(f: &Function, which: Tails) -> Option<Function> {
    let body = f.body.as_ref()?;
    let n = body.len();
    if n == 0 || body.iter().any(|i| i.op == Opcode::Brx) {
        return None;
    }
    let graph = cfg::build_cfg(body);
    if graph.blocks.len() > cfg::MAX_BLOCKS {
        return None;
    }
    let loops = cfg::loop_bodies(&graph).ok()?;
    let template = body.iter().find(|i| i.op == Opcode::Bra)?.clone();
    let mut copies: Vec<Inst> = Vec::new();
    let mut retarget: Vec<Option<u32>> = vec![None; n];
    for (b, blk) in graph.blocks.iter().enumerate() {
        let len = blk.end.saturating_sub(blk.start);
        let most = match which {
            Tails::Exits => MAX_TAIL,
            Tails::Joins(most) => most,
        };
        if len == 0 || len > most || blk.preds.len() < 2 {
            continue;
        }
        let last = &body[blk.end - 1];
        let ends = matches!(last.op, Opcode::Ret | Opcode::Exit) && last.guard.is_none();
        let jumps = last.op == Opcode::Bra && last.guard.is_none();
        // Lanes may go on to the next block (a guarded branch or none): the copy then
        // branches there.
        let falls = last.op != Opcode::Brx && cfg::falls_through(last) && blk.end < n;
        let wanted = match which {
            Tails::Exits => ends && blk.succs.is_empty(),
            Tails::Joins(_) => (jumps || falls) && loops[b].is_none(),
        };
        if !wanted {
            continue;
        }
        for &p in &blk.preds {
            let pb = &graph.blocks[p];
            let at = pb.end - 1;
            let inst = &body[at];
            if inst.op != Opcode::Bra || cfg::branch_target(inst) != Some(blk.start) {
                continue;
            }
            // Old-index space: copies start after the body (`n + offset`).
            retarget[at] = Some((n + copies.len()) as u32);
            copies.extend(body[blk.start..blk.end].iter().cloned());
            if matches!(which, Tails::Joins(_)) && !jumps {
                copies.push(plain_branch(&template, blk.end as u32));
            }
        }
    }
    if copies.is_empty() {
        return None;
    }
    let mut g = f.clone();
    let mut out = body.clone();
    for (i, t) in retarget.iter().enumerate() {
        if let Some(t) = t {
            out[i].operands = std::iter::once(Operand::Label(InstIdx(*t))).collect();
        }
    }
    // A body that may fall off its end must not fall into the copies: they follow a `ret`.
    let falls_off_end = cfg::falls_through(body.last()?);
    if falls_off_end
        || graph
            .blocks
            .iter()
            .any(|b| b.start >= n && !b.preds.is_empty())
    {
        return None;
    }
    // Labels in the copies (their own branches) keep the old targets, which did not move.
    out.extend(copies);
    g.body = Some(out);
    drop_unreachable(&mut g);
    Some(g)
}

/// Removes the blocks of `g` that no path from the entry reaches: a block whose every
/// branch now goes to a copy of it. Kept, they would cost code, and their edges would look
/// like back edges to the analyses (every block dominates an unreachable one). Labels to a
/// removed instruction move to the next kept one (only removed code branches there).
fn drop_unreachable(g: &mut Function) {
    let Some(body) = g.body.as_ref() else { return };
    if body.iter().any(|i| i.op == Opcode::Brx) {
        return;
    }
    let graph = cfg::build_cfg(body);
    let live = cfg::reachable(&graph);
    if live.iter().all(|&l| l) {
        return;
    }
    let n = body.len();
    let mut keep = vec![false; n];
    for (b, blk) in graph.blocks.iter().enumerate() {
        if live[b] {
            keep[blk.start..blk.end].iter_mut().for_each(|k| *k = true);
        }
    }
    // New index of each old instruction (of the next kept one when removed), and of the end.
    let mut map = vec![0u32; n + 1];
    let mut next = keep.iter().filter(|&&k| k).count() as u32;
    map[n] = next;
    for i in (0..n).rev() {
        if keep[i] {
            next -= 1;
        }
        map[i] = next;
    }
    let mut out: Vec<Inst> = body
        .iter()
        .zip(&keep)
        .filter(|(_, &k)| k)
        .map(|(i, _)| i.clone())
        .collect();
    relabel(g, &mut out, &map, |_| None);
    g.body = Some(out);
}

/// Points the labels of `out`, a body rewritten from one of `map.len() - 1` instructions
/// where old instruction `i` went to `map[i]` (the last entry: where the old end went), at
/// their new places: every label operand through `placeholder` first (a new block's
/// position), else through `map`; and `g`'s named labels through `map`.
fn relabel(
    g: &mut Function,
    out: &mut [Inst],
    map: &[u32],
    placeholder: impl Fn(u32) -> Option<u32>,
) {
    let moved = |t: usize| map.get(t.min(map.len().saturating_sub(1))).copied();
    for inst in out.iter_mut() {
        for o in inst.operands.iter_mut() {
            if let Operand::Label(InstIdx(t)) = o {
                if let Some(new) = placeholder(*t).or_else(|| moved(*t as usize)) {
                    *t = new;
                }
            }
        }
    }
    for (_, at) in g.labels.iter_mut() {
        if let Some(new) = moved(at.index()) {
            at.0 = new;
        }
    }
}

/// The innermost loop that needs a single exit, with its exit targets in block order: one
/// with exits to two blocks or more, or whose exit is the header of a loop around it (a
/// `continue` of the outer loop from inside this one).
fn loop_to_funnel(graph: &Cfg, loops: &[Option<Vec<bool>>]) -> Option<(usize, Vec<usize>)> {
    let n = graph.blocks.len();
    let size = |l: &[bool]| l.iter().filter(|&&b| b).count();
    let mut best: Option<(usize, usize, Vec<usize>)> = None;
    for (h, l) in loops.iter().enumerate() {
        let Some(l) = l else { continue };
        let mut targets: Vec<usize> = (0..n)
            .filter(|&u| l[u])
            .flat_map(|u| graph.blocks[u].succs.iter().copied())
            .filter(|&t| !l[t])
            .collect();
        targets.sort_unstable();
        targets.dedup();
        let outer_continue = targets.len() == 1
            && loops[targets[0]]
                .as_ref()
                .is_some_and(|outer| outer[h] && targets[0] != h);
        if targets.len() < 2 && !outer_continue {
            continue;
        }
        let s = size(l);
        if best.as_ref().is_none_or(|b| s < b.0) {
            best = Some((s, h, targets));
        }
    }
    best.map(|(_, h, t)| (h, t))
}

/// Rewrites the exits of loop `l` (blocks of `graph`) to `targets` through one landing block.
fn funnel(g: &mut Function, graph: &Cfg, l: &[bool], targets: &[usize]) -> Option<()> {
    let body = g.body.take()?;
    let n = body.len();
    // Exit targets must be instructions, not the empty block after the last one.
    if targets.iter().any(|&t| graph.blocks[t].start >= n) {
        g.body = Some(body);
        return None;
    }
    let code = new_reg(g, Type::U32);
    let pick = new_reg(g, Type::Pred);
    let falls_off_end = cfg::falls_through(body.last()?);
    // A branch to copy for the landing block's branches (spans and forms of the body's own).
    let template = body.iter().find(|i| i.op == Opcode::Bra)?.clone();
    let ret = body
        .iter()
        .find(|i| matches!(i.op, Opcode::Ret | Opcode::Exit) && i.guard.is_none())
        .cloned();
    let code_of = |t: usize| targets.iter().position(|&x| x == t);
    let start_of = |t: usize| graph.blocks[t].start as u32;
    // Per old instruction, what replaces it (old label values, `LANDING` for the new block).
    let mut replace: Vec<Option<Vec<Inst>>> = vec![None; n];
    for (u, blk) in graph.blocks.iter().enumerate() {
        if !l[u] || blk.end <= blk.start {
            continue;
        }
        let at = blk.end - 1;
        let inst = &body[at];
        let falls = cfg::falls_through(inst);
        let fall = (falls && u + 1 < graph.blocks.len()).then_some(u + 1);
        let explicit = match (inst.op, cfg::branch_target(inst)) {
            (Opcode::Bra, Some(t)) => Some(graph.block_of_inst[t]),
            _ => None,
        };
        let leaves = |t: Option<usize>| t.filter(|&t| !l[t]);
        let (jumps_out, falls_out) = (leaves(explicit), leaves(fall));
        if jumps_out.is_none() && falls_out.is_none() {
            continue;
        }
        let mut seq = Vec::new();
        // The explicit branch: to the landing block with its code when it leaves the loop.
        match jumps_out {
            Some(t) => {
                seq.push(set_code(inst, code, code_of(t)?, inst.guard)?);
                seq.push(branch(inst, inst.guard, LANDING));
            }
            None => seq.push(inst.clone()),
        }
        if let Some(t) = falls_out {
            // Lanes that do not take the branch (all of them after an unguarded one, which
            // cannot fall through) go to the landing block with their own code.
            let other = inst.guard.map(|gd| Guard {
                reg: gd.reg,
                negated: !gd.negated,
            });
            if jumps_out.is_some() || inst.op != Opcode::Bra {
                // The branch is already to the landing block (or not a branch): the rest
                // go there too, unguarded.
                if inst.op != Opcode::Bra {
                    seq.clear();
                    seq.push(inst.clone());
                }
                seq.push(set_code(inst, code, code_of(t)?, None)?);
                seq.push(plain_branch(&template, LANDING));
            } else {
                // `@g bra X` (X in the loop), falling out: `@!g` go out, the rest to X.
                let x = cfg::branch_target(inst)? as u32;
                seq.clear();
                seq.push(set_code(inst, code, code_of(t)?, other)?);
                seq.push(branch(inst, other, LANDING));
                seq.push(plain_branch(&template, x));
            }
        }
        replace[at] = Some(seq);
    }
    // The new body, and where each old instruction (and the end) went.
    let mut out: Vec<Inst> = Vec::with_capacity(n + 4 * targets.len());
    let mut map = vec![0u32; n + 1];
    for (i, inst) in body.into_iter().enumerate() {
        map[i] = out.len() as u32;
        match replace[i].take() {
            Some(seq) => out.extend(seq),
            None => out.push(inst),
        }
    }
    map[n] = out.len() as u32;
    if falls_off_end {
        out.push(ret?);
    }
    let landing = out.len() as u32;
    // The landing block: one test per code but the last, which is where the rest go.
    let (last_t, rest) = targets.split_last()?;
    for (k, &t) in rest.iter().enumerate() {
        out.push(set_pred(&template, pick, code, k as u32)?);
        let gd = Some(Guard {
            reg: pick,
            negated: false,
        });
        let mut b = branch(&template, gd, start_of(t));
        b.mods.flags = Default::default();
        out.push(b);
    }
    out.push(plain_branch(&template, start_of(*last_t)));
    relabel(g, &mut out, &map, |t| (t == LANDING).then_some(landing));
    g.body = Some(out);
    Some(())
}

/// A new register of type `ty` in `g` (named like the body's first: names are for messages).
fn new_reg(g: &mut Function, ty: Type) -> RegId {
    let id = RegId(g.regs.len() as u32);
    let mut r = g.regs.first().cloned().unwrap_or_else(|| ir::Reg {
        ty,
        name: ir::RegName::new("%funnel"),
    });
    r.ty = ty;
    g.regs.push(r);
    id
}

/// The form of `op` whose first operand is a destination, with `count` operands.
fn form_of(op: Opcode, count: usize) -> Option<&'static isa::Form> {
    isa::forms_of(op).iter().find(|f| {
        f.operands.len() == count && f.operands.first().is_some_and(|o| o.kind.is_destination())
    })
}

/// `[@guard] mov.u32 %code, k`, at `like`'s place in the source.
fn set_code(like: &Inst, code: RegId, k: usize, guard: Option<Guard>) -> Option<Inst> {
    let mut i = like.clone();
    i.op = Opcode::Mov;
    i.form = form_of(Opcode::Mov, 2)?;
    i.guard = guard;
    i.mods = ir::Mods::default();
    i.types = Default::default();
    i.types[0] = Some(Type::U32);
    i.operands = [Operand::Reg(code), Operand::Imm(k as u64)]
        .into_iter()
        .collect();
    Some(i)
}

/// `setp.eq.u32 %pick, %code, k`.
fn set_pred(like: &Inst, pick: RegId, code: RegId, k: u32) -> Option<Inst> {
    let mut i = like.clone();
    i.op = Opcode::Setp;
    i.form = form_of(Opcode::Setp, 3)?;
    i.guard = None;
    i.mods = ir::Mods::default();
    i.mods.cmp = Some(isa::CmpOp::Eq);
    i.types = Default::default();
    i.types[0] = Some(Type::U32);
    i.operands = [
        Operand::Reg(pick),
        Operand::Reg(code),
        Operand::Imm(u64::from(k)),
    ]
    .into_iter()
    .collect();
    Some(i)
}

/// `like` (a `bra`, keeping its `.uni`) under `guard` to the label `t`.
fn branch(like: &Inst, guard: Option<Guard>, t: u32) -> Inst {
    let mut i = like.clone();
    i.guard = guard;
    i.operands = std::iter::once(Operand::Label(InstIdx(t))).collect();
    i
}

/// An unguarded `bra` to the label `t`.
fn plain_branch(like: &Inst, t: u32) -> Inst {
    let mut i = branch(like, None, t);
    i.op = Opcode::Bra;
    i.mods.flags = Default::default();
    i
}
