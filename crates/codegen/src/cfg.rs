//! The control-flow graph of one function body, its dominators and post-dominators, natural
//! loops, and the reconvergence plan Fermi's warp stack needs: for every divergent branch, where
//! its `SSY` goes and which block starts with the `.S` that reconverges it.

use ir::{Inst, InstIdx, Opcode, Operand};

/// Largest number of blocks analysed: the dominator sets are dense bit matrices (n² bits).
pub const MAX_BLOCKS: usize = 8192;

/// A basic block: instructions `start..end` of the body.
#[derive(Clone, Debug)]
pub struct Block {
    pub start: usize,
    pub end: usize,
    pub succs: Vec<usize>,
    pub preds: Vec<usize>,
}

#[derive(Clone)]
pub struct Cfg {
    pub blocks: Vec<Block>,
    /// Block index of each instruction index that starts a block (label targets included).
    pub block_of_inst: Vec<usize>,
}

/// Whether `inst` ends a block, and whether execution may fall through past it.
fn ends_block(inst: &Inst) -> Option<bool> {
    match inst.op {
        Opcode::Bra | Opcode::Brx => Some(inst.guard.is_some()),
        Opcode::Ret | Opcode::Exit | Opcode::Trap => Some(inst.guard.is_some()),
        _ => None,
    }
}

/// Whether execution may go on past `inst` to the next instruction: anything but an
/// unguarded `bra`, `brx.idx`, `ret`, `exit` or `trap`.
pub fn falls_through(inst: &Inst) -> bool {
    ends_block(inst).unwrap_or(true)
}

pub fn branch_target(inst: &Inst) -> Option<usize> {
    inst.operands.iter().find_map(|o| match o {
        Operand::Label(InstIdx(i)) => Some(*i as usize),
        _ => None,
    })
}

/// The targets of a `brx.idx`, in list order (empty for other instructions).
pub fn branch_targets(inst: &Inst) -> Vec<usize> {
    inst.operands
        .iter()
        .find_map(|o| match o {
            Operand::TargetList(ts) => Some(ts.iter().map(|t| t.index()).collect()),
            _ => None,
        })
        .unwrap_or_default()
}

pub fn build_cfg(body: &[Inst]) -> Cfg {
    let n = body.len();
    let mut leader = vec![false; n + 1];
    leader[0] = true;
    for (i, inst) in body.iter().enumerate() {
        for t in branch_target(inst).into_iter().chain(branch_targets(inst)) {
            if let Some(l) = leader.get_mut(t) {
                *l = true;
            }
        }
        if ends_block(inst).is_some() {
            leader[i + 1] = true;
        }
    }
    let mut blocks = Vec::new();
    let mut block_of_inst = vec![usize::MAX; n + 1];
    let mut start = 0;
    for (i, &starts) in leader.iter().enumerate().skip(1) {
        if starts || i == n {
            if start < i {
                block_of_inst[start] = blocks.len();
                blocks.push(Block {
                    start,
                    end: i,
                    succs: Vec::new(),
                    preds: Vec::new(),
                });
            }
            start = i;
        }
    }
    // A label at the very end (after the last instruction) gets an empty block of its own.
    if body
        .iter()
        .any(|i| branch_target(i) == Some(n) || branch_targets(i).contains(&n))
        || blocks.is_empty()
    {
        block_of_inst[n] = blocks.len();
        blocks.push(Block {
            start: n,
            end: n,
            succs: Vec::new(),
            preds: Vec::new(),
        });
    }
    let count = blocks.len();
    for b in 0..count {
        let (s, e) = (blocks[b].start, blocks[b].end);
        let mut succs = Vec::new();
        let last = if e > s { body.get(e - 1) } else { None };
        let falls = match last {
            Some(inst) => {
                if let (Opcode::Bra, Some(t)) = (inst.op, branch_target(inst)) {
                    succs.push(block_of_inst[t]);
                }
                // A multi-way branch: an edge to each target (once).
                for t in branch_targets(inst) {
                    let tb = block_of_inst[t];
                    if !succs.contains(&tb) {
                        succs.push(tb);
                    }
                }
                ends_block(inst).unwrap_or(true)
            }
            // The empty block at the end returns.
            None => false,
        };
        if falls && b + 1 < count {
            succs.push(b + 1);
        }
        succs.dedup();
        for &t in &succs {
            blocks[t].preds.push(b);
        }
        blocks[b].succs = succs;
    }
    Cfg {
        blocks,
        block_of_inst,
    }
}

/// A dense set of blocks.
#[derive(Clone, PartialEq, Eq)]
struct Set(Vec<u64>);

impl Set {
    fn full(n: usize) -> Set {
        Set(vec![u64::MAX; n.div_ceil(64)])
    }
    fn single(n: usize, i: usize) -> Set {
        let mut s = Set(vec![0; n.div_ceil(64)]);
        s.0[i / 64] |= 1 << (i % 64);
        s
    }
    fn has(&self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 == 1
    }
    fn meet(&mut self, o: &Set) {
        for (a, b) in self.0.iter_mut().zip(&o.0) {
            *a &= *b;
        }
    }
    fn insert(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }
    fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
}

/// Iterative (post-)dominator sets over `n` nodes; `roots` dominate only themselves.
fn dominators(n: usize, roots: &[usize], preds: &dyn Fn(usize) -> Vec<usize>) -> Vec<Set> {
    let mut dom: Vec<Set> = (0..n).map(|_| Set::full(n)).collect();
    for &r in roots {
        dom[r] = Set::single(n, r);
    }
    let mut changed = true;
    while changed {
        changed = false;
        for b in 0..n {
            if roots.contains(&b) {
                continue;
            }
            let ps = preds(b);
            let mut s = Set::full(n);
            for p in &ps {
                s.meet(&dom[*p]);
            }
            s.insert(b);
            if s != dom[b] {
                dom[b] = s;
                changed = true;
            }
        }
    }
    dom
}

/// Post-dominator sets over the graph with a virtual exit node, block `n` (the one successor
/// of every block without successors).
fn post_dominators(cfg: &Cfg) -> Vec<Set> {
    let exit = cfg.blocks.len();
    let succs_with_exit = |b: usize| -> Vec<usize> {
        if b == exit {
            return Vec::new();
        }
        let s = &cfg.blocks[b].succs;
        if s.is_empty() {
            vec![exit]
        } else {
            s.clone()
        }
    };
    dominators(exit + 1, &[exit], &succs_with_exit)
}

/// Blocks ending in a branch lanes may take apart: a guarded `bra` without `.uni`, or a
/// `brx.idx` (the regions the reconvergence plan gives an `SSY`).
pub fn divergent_blocks(cfg: &Cfg, body: &[Inst]) -> Vec<usize> {
    cfg.blocks
        .iter()
        .enumerate()
        .filter(|(_, b)| {
            b.end > b.start
                && body.get(b.end - 1).is_some_and(|i| {
                    (i.op == Opcode::Bra && i.guard.is_some() || i.op == Opcode::Brx)
                        && !i.mods.has(isa::Flag::Uni)
                })
        })
        .map(|(i, _)| i)
        .collect()
}

/// The dominators of every block (row `b`: bit `a` set when block `a` dominates `b`), for
/// the clean-up passes (`opt`). Blocks unreachable from the entry have every bit set.
pub fn dominator_rows(cfg: &Cfg) -> Vec<Vec<u64>> {
    let n = cfg.blocks.len();
    if n == 0 {
        return Vec::new();
    }
    dominators(n, &[0], &|b| cfg.blocks[b].preds.clone())
        .into_iter()
        .map(|s| s.0)
        .collect()
}

/// A loop with several exits, all to one block `exit`: translated with `PBK` (target: `exit`)
/// at the top of its header, where only the lanes entering the loop from outside pass (the
/// back edges land after it), and `BRK` on each exit edge. Lanes that break wait on the stack
/// until every lane still in the loop has broken too; then they go on together at `exit`.
///
/// With `cont`, lanes also go back to the header by `CONT` instead of a branch: each
/// iteration starts with a `PCNT` to itself, and lanes that continue wait on it until every
/// other lane has continued or broken too, so a lane that continues from inside a divergent
/// region no longer re-enters the header before the region's other lanes reconverge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BreakLoop {
    pub header: usize,
    pub exit: usize,
    pub body: Vec<bool>,
    pub cont: bool,
}

impl BreakLoop {
    /// Whether the edge `u → t` leaves the loop (and becomes a `BRK`).
    pub fn is_break(&self, u: usize, t: usize) -> bool {
        self.body.get(u).copied().unwrap_or(false) && t == self.exit
    }

    /// Whether the edge `u → t` goes back to the header of a `PCNT` loop (a `CONT`).
    pub fn is_cont(&self, u: usize, t: usize) -> bool {
        self.cont && self.body.get(u).copied().unwrap_or(false) && t == self.header
    }
}

/// The refusal of a body with more blocks than the analyses take.
fn too_many_blocks(n: usize) -> CfgError {
    CfgError {
        block: 0,
        message: format!(
            "function has {n} basic blocks; this translator analyses at most {MAX_BLOCKS}"
        ),
    }
}

/// Each loop header's natural loop (the union of the loops of its back edges), `None` for
/// blocks that head no loop. A back edge is an edge to a block that dominates its source,
/// wherever the two sit in the layout (a bottom-tested loop entered at its test has its
/// header after its body, and a back edge that goes forward); its loop is the header and
/// the blocks reaching the source without passing the header. A cycle closed at a block
/// that does not dominate the edge's source is a loop entered other than through its
/// header: irreducible, an error naming the block.
pub fn loop_bodies(cfg: &Cfg) -> Result<Vec<Option<Vec<bool>>>, CfgError> {
    let n = cfg.blocks.len();
    // Dominator sets are n² bits: every caller (the plan, the funnel, the side-entry
    // rewrite) is bounded here.
    if n > MAX_BLOCKS {
        return Err(too_many_blocks(n));
    }
    let dom = dominators(n, &[0], &|b| cfg.blocks[b].preds.clone());
    // Irreducible exactly when a depth-first walk closes a cycle at a block that does not
    // dominate the edge's source; the error names a block entered in a loop's middle.
    if let Some((_, h)) = retreating_edges(cfg)
        .into_iter()
        .find(|&(u, h)| !dom[u].has(h))
    {
        return Err(CfgError {
            block: h,
            message: "irreducible control flow: a loop entered other than through its header"
                .into(),
        });
    }
    // Blocks no path from the entry reaches have every block as a dominator: an edge from
    // one of them would look like a back edge, and the loop it made up would draw them
    // (and, once `funnel.rs` rewrote its "exits", real edges) into the graph. They belong
    // to no loop.
    let live = reachable(cfg);
    let mut loops: Vec<Option<Vec<bool>>> = vec![None; n];
    for (u, blk) in cfg.blocks.iter().enumerate() {
        if !live[u] {
            continue;
        }
        for &h in blk.succs.iter().filter(|&&h| dom[u].has(h)) {
            let body = loops[h].get_or_insert_with(|| vec![false; n]);
            body[h] = true;
            let mut work = vec![u];
            while let Some(x) = work.pop() {
                if !body[x] {
                    body[x] = true;
                    work.extend(cfg.blocks[x].preds.iter().copied().filter(|&p| live[p]));
                }
            }
        }
    }
    Ok(loops)
}

/// The edges of a depth-first walk from the entry whose target is still on the walk's path:
/// in a reducible graph exactly the back edges, each to a block dominating its source.
fn retreating_edges(cfg: &Cfg) -> Vec<(usize, usize)> {
    let n = cfg.blocks.len();
    let mut out = Vec::new();
    if n == 0 {
        return out;
    }
    // Successors in layout order: in an irreducible cycle the walk then enters first, and
    // the error names, the block laid out first (back edges, the same set in any order in
    // a reducible graph, are unaffected).
    let succs: Vec<Vec<usize>> = cfg
        .blocks
        .iter()
        .map(|b| {
            let mut s = b.succs.clone();
            s.sort_unstable();
            s
        })
        .collect();
    // 0 unvisited, 1 on the path, 2 done.
    let mut state = vec![0u8; n];
    let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
    state[0] = 1;
    while let Some(&mut (b, ref mut k)) = stack.last_mut() {
        match succs[b].get(*k).copied() {
            Some(t) => {
                *k += 1;
                match state[t] {
                    0 => {
                        state[t] = 1;
                        stack.push((t, 0));
                    }
                    1 => out.push((b, t)),
                    _ => {}
                }
            }
            None => {
                state[b] = 2;
                stack.pop();
            }
        }
    }
    out
}

/// Which blocks a path from the entry reaches.
pub fn reachable(cfg: &Cfg) -> Vec<bool> {
    let mut seen = vec![false; cfg.blocks.len()];
    let mut work = vec![0];
    while let Some(x) = work.pop() {
        if let Some(s) = seen.get_mut(x) {
            if !std::mem::replace(s, true) {
                work.extend(cfg.blocks[x].succs.iter().copied());
            }
        }
    }
    seen
}

fn size(set: &[bool]) -> usize {
    set.iter().filter(|&&b| b).count()
}

/// The loops to translate with `PBK`/`BRK`, and the graph reconvergence is planned on: each
/// such loop's exit edges (and, for the loops of `continues`, its back edges) removed and one
/// edge from its header to its exit added (the stack, not an `SSY`, brings the lanes that
/// break back together). A loop qualifies when it has two or more exit edges, all to one
/// block; a loop of `continues` (a header whose lanes re-enter it before they reconverge)
/// must have all its exits to one block. Exits of a loop nested in another chosen one must
/// not leave the outer one (a `BRK` leaves only the innermost `PBK`), nor may a loop that
/// continues be nested in another that does, with a back edge of the outer one inside it.
/// Loops with one exit otherwise keep the `SSY` scheme.
pub fn plan_breaks(cfg: &Cfg, continues: &[usize]) -> Result<(Vec<BreakLoop>, Cfg), CfgError> {
    let n = cfg.blocks.len();
    let loops = loop_bodies(cfg)?;
    let mut chosen: Vec<BreakLoop> = Vec::new();
    for (h, body) in loops.iter().enumerate() {
        let Some(body) = body else { continue };
        let cont = continues.contains(&h);
        let exits: Vec<(usize, usize)> = (0..n)
            .filter(|&u| body[u])
            .flat_map(|u| cfg.blocks[u].succs.iter().map(move |&t| (u, t)))
            .filter(|&(_, t)| !body[t])
            .collect();
        let one_target = exits.windows(2).all(|w| w[0].1 == w[1].1);
        let Some(&(_, x)) = exits.first() else {
            if cont {
                return Err(CfgError {
                    block: h,
                    message: "a loop that lanes continue before they reconverge has no exit".into(),
                });
            }
            continue;
        };
        if cont && !one_target {
            return Err(CfgError {
                block: h,
                message: "a loop that lanes continue before they reconverge has exits to several blocks (PBK/BRK need one)".into(),
            });
        }
        if !cont && (exits.len() < 2 || !one_target) {
            continue;
        }
        chosen.push(BreakLoop {
            header: h,
            exit: x,
            body: body.clone(),
            cont,
        });
    }
    // A break must leave only its own loop's PBK: no exit edge of one chosen loop may start
    // in another chosen loop nested in it.
    for a in &chosen {
        for b in &chosen {
            let nested = a != b && (0..n).all(|i| !b.body[i] || a.body[i]);
            if nested
                && (0..n)
                    .any(|u| b.body[u] && cfg.blocks[u].succs.iter().any(|&t| a.is_break(u, t)))
            {
                return Err(CfgError {
                    block: b.header,
                    message: "a break out of two nested loops with several exits (PBK/BRK leave only the innermost loop)".into(),
                });
            }
        }
    }
    for a in chosen.iter().filter(|l| l.cont) {
        for b in chosen.iter().filter(|l| l.cont) {
            let nested = a != b && (0..n).all(|i| !b.body[i] || a.body[i]);
            if nested
                && (0..n).any(|u| b.body[u] && cfg.blocks[u].succs.iter().any(|&t| a.is_cont(u, t)))
            {
                return Err(CfgError {
                    block: b.header,
                    message: "a continue of an outer loop from inside an inner loop that also continues (CONT reaches only the innermost PCNT)".into(),
                });
            }
        }
    }
    let mut planned = cfg.clone();
    for l in &chosen {
        for (u, blk) in planned.blocks.iter_mut().enumerate() {
            blk.succs.retain(|&t| !l.is_break(u, t) && !l.is_cont(u, t));
        }
        let h = &mut planned.blocks[l.header].succs;
        if !h.contains(&l.exit) {
            h.push(l.exit);
        }
    }
    for blk in planned.blocks.iter_mut() {
        blk.preds.clear();
    }
    for b in 0..n {
        for t in planned.blocks[b].succs.clone() {
            planned.blocks[t].preds.push(b);
        }
    }
    Ok((chosen, planned))
}

/// One `SSY`, reconverging at `join`: emitted at the end of block `at` (before its
/// terminator), or — `preheader` — at the top of loop header `at`, where only the lanes
/// entering the loop from outside pass (its back edges land after it). `region` holds the
/// blocks reachable from the `SSY` without passing `join`: the lanes that may arrive at this
/// region's `.S`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ssy {
    pub at: usize,
    pub preheader: bool,
    pub join: usize,
    pub region: Vec<bool>,
}

impl Ssy {
    pub fn size(&self) -> usize {
        size(&self.region)
    }
}

/// Why the control flow cannot be mapped onto the reconvergence stack (yet).
#[derive(Debug)]
pub struct CfgError {
    pub block: usize,
    pub message: String,
}

/// For each divergent conditional branch (a guarded `bra` without `.uni`) in block `b`: its
/// immediate post-dominator `x` is where the lanes meet again. The `SSY` must be executed once
/// by all lanes before they split, so it goes at the end of `b`, or — when `b` is inside a
/// loop that `x` is outside of (lanes leave such a loop in different iterations) — at the top
/// of the outermost such loop's header, passed only on entry: a preheader of its own even
/// when the block before the loop branches elsewhere too or belongs to another loop. `x` then
/// starts with `NOP.S`, and the `SSY` targets the instruction after it. `loops` are the
/// graph's (`loop_bodies`).
///
/// Edges into `x` from outside the regions that meet there land after its `.S` stubs (lanes
/// that never executed those `SSY`s must not arrive at their `.S`), so a join may also be
/// reached from elsewhere: a uniform branch out of a divergent region, or a loop header that
/// is the join of the code before it.
pub fn plan_reconvergence(
    cfg: &Cfg,
    divergent: &[usize],
    loops: &[Option<Vec<bool>>],
) -> Result<Plan, CfgError> {
    let n = cfg.blocks.len();
    if n > MAX_BLOCKS {
        return Err(too_many_blocks(n));
    }
    // Post-dominators over the graph with a virtual exit node `n`.
    let (exit, pdom) = (n, post_dominators(cfg));
    let mut plan: Vec<Ssy> = Vec::new();
    // Per planned region, its blocks entered from outside it (other than by its SSY).
    let mut sides: Vec<Vec<usize>> = Vec::new();
    for &b in divergent {
        // The immediate post-dominator: the strict post-dominator with the most post-dominators.
        let ipdom = (0..=n)
            .filter(|&p| p != b && pdom[b].has(p))
            .max_by_key(|&p| pdom[p].count());
        let x = match ipdom {
            Some(x) if x != exit => x,
            // The paths never meet again (each ends the thread): nothing to reconverge.
            _ => continue,
        };
        if x == 0 {
            return Err(CfgError {
                block: x,
                message: "the entry block cannot be a reconvergence point".into(),
            });
        }
        let outer = (0..n)
            .filter(|&h| loops[h].as_ref().is_some_and(|l| l[b] && !l[x]))
            .max_by_key(|&h| loops[h].as_deref().map_or(0, size));
        let (at, preheader) = match outer {
            Some(h) => (h, true),
            None => (b, false),
        };
        let mut region = vec![false; n];
        let mut work = vec![at];
        while let Some(y) = work.pop() {
            if y != x && !region[y] {
                region[y] = true;
                work.extend(cfg.blocks[y].succs.iter().copied());
            }
        }
        // Single entry: lanes may reach a block of the region only through the SSY, else
        // they would arrive at its `.S` without an entry of theirs on the stack. (A hoisted
        // SSY's header is re-entered by its back edges, which land after the SSY.) Such
        // entries are checked once the plan is complete (`side_entries_are_covered`).
        let side: Vec<usize> = (0..n)
            .filter(|&y| region[y] && y != at && cfg.blocks[y].preds.iter().any(|&p| !region[p]))
            .collect();
        // An SSY at the end of a block its own region leads back to would be pushed again
        // by lanes that have not reconverged yet.
        if !preheader && cfg.blocks[at].preds.iter().any(|&p| region[p]) {
            return Err(CfgError {
                block: at,
                message: "divergent branch in a block its lanes re-enter before they reconverge"
                    .into(),
            });
        }
        if plan
            .iter()
            .any(|o| o.at == at && o.preheader == preheader && o.join == x)
        {
            continue;
        }
        plan.push(Ssy {
            at,
            preheader,
            join: x,
            region,
        });
        sides.push(side);
    }
    let side_edges = side_entries(cfg, &plan, &sides, loops)?;
    // Regions that reconverge at one block must nest or be disjoint: lanes of an inner
    // region arrive at its `.S` first, then at the enclosing region's.
    for x in 0..n {
        let mine: Vec<&Ssy> = plan.iter().filter(|s| s.join == x).collect();
        for a in &mine {
            for b in &mine {
                let inter = (0..n).any(|i| a.region[i] && b.region[i]);
                let a_in_b = (0..n).all(|i| !a.region[i] || b.region[i]);
                let b_in_a = (0..n).all(|i| !b.region[i] || a.region[i]);
                if inter && !a_in_b && !b_in_a {
                    return Err(CfgError {
                        block: x,
                        message: "divergent regions that overlap without nesting meet at this block (unstructured control flow)".into(),
                    });
                }
            }
        }
    }
    Ok(Plan {
        ssys: plan,
        side_edges,
    })
}

/// A planned body: its `SSY`s and the side entries that push `SSY`s of their own.
pub struct Plan {
    pub ssys: Vec<Ssy>,
    pub side_edges: Vec<SideEdge>,
}

/// An edge `from → to` into divergent regions it is not part of, taken with the `SSY`s of
/// those regions (`ssys`, indices into the plan, the outermost first) pushed on the way:
/// its lanes then reconverge at each region's `.S` under an entry of their own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SideEdge {
    pub from: usize,
    pub to: usize,
    pub ssys: Vec<usize>,
}

/// A block `y` of region `r` entered from a block `q` outside it. Outside loops (inside
/// one, lanes of one iteration could be resumed or popped by the entries of another: those
/// side entries are left to `PCNT` loops, `flow.rs`), when an enclosing region `m` that
/// reconverges at the same join brings `q`'s lanes back — `m` holds `r` and `q`, is
/// itself entered only through its `SSY`, and contains no loop header (so no `PBK`, `PCNT`
/// or hoisted `SSY` sits above `m`'s entry on the stack) — nothing is needed: those lanes
/// arrive at `r`'s `.S` with no entry of theirs above `m`'s, wait, and `m`'s entry resumes
/// them after its own `.S` (the regions meeting at one join nest, so it follows `r`'s).
/// Otherwise, outside loops, the edge `q → y` pushes the `SSY`s of every region holding `y`
/// but not `q` (they must nest), so `q`'s lanes reconverge at each `.S` under entries of
/// their own; an edge inside a loop, one that already lands on a `.S` at `y`, or one into a
/// hoisted region is an error naming the block.
fn side_entries(
    cfg: &Cfg,
    plan: &[Ssy],
    sides: &[Vec<usize>],
    loops: &[Option<Vec<bool>>],
) -> Result<Vec<SideEdge>, CfgError> {
    let n = cfg.blocks.len();
    let holds = |m: &Ssy, r: &Ssy| (0..n).all(|i| !r.region[i] || m.region[i]);
    // Regions that can bring side-entering lanes back (work linear in the blocks each).
    let able: Vec<bool> = plan
        .iter()
        .zip(sides)
        .map(|(m, side)| {
            !m.preheader && side.is_empty() && (0..n).all(|b| !m.region[b] || loops[b].is_none())
        })
        .collect();
    let mut edges: Vec<SideEdge> = Vec::new();
    for (i, r) in plan.iter().enumerate() {
        if sides[i].is_empty() {
            continue;
        }
        let covers: Vec<&Ssy> = plan
            .iter()
            .enumerate()
            .filter(|&(j, m)| j != i && able[j] && m.join == r.join && holds(m, r))
            .map(|(_, m)| m)
            .collect();
        for &y in &sides[i] {
            for &q in cfg.blocks[y].preds.iter().filter(|&&q| !r.region[q]) {
                // Inside a loop, lanes of one iteration could be resumed or popped by the
                // entries of another: such side entries are left to `PCNT` loops (`flow.rs`).
                let in_loop = loops.iter().flatten().any(|l| l[y] || l[q]);
                if !in_loop && covers.iter().any(|m| m.region[q])
                    || edges.iter().any(|e| (e.from, e.to) == (q, y))
                {
                    continue;
                }
                let refuse = || {
                    CfgError {
                    block: y,
                    message: "block is entered from outside the divergent region it belongs to (unstructured control flow)".into(),
                }
                };
                if plan.iter().any(|s| s.join == y && s.region[q]) {
                    return Err(refuse());
                }
                // Not a region whose SSY is at `y` itself: `q`'s lanes push that one there.
                let mut chain: Vec<usize> = (0..plan.len())
                    .filter(|&j| plan[j].region[y] && !plan[j].region[q])
                    .filter(|&j| plan[j].preheader || plan[j].at != y)
                    .collect();
                chain.sort_by_key(|&j| std::cmp::Reverse(plan[j].size()));
                let nested = chain.windows(2).all(|w| holds(&plan[w[0]], &plan[w[1]]));
                if in_loop || !nested || chain.iter().any(|&j| plan[j].preheader) {
                    return Err(refuse());
                }
                edges.push(SideEdge {
                    from: q,
                    to: y,
                    ssys: chain,
                });
            }
        }
    }
    Ok(edges)
}

/// A side entry the plan cannot map: the edge `from → to` into the region of the divergent
/// branch ending block `branch` (its `SSY` at the end of that block, not hoisted), from a
/// block outside the region, inside a loop (`side_entries` maps such edges only outside
/// loops) or landing on the `.S` of a region holding `from`. The smallest such region's
/// first entry, for `funnel.rs`'s re-dispatch, which sends those lanes through `branch`.
pub struct SideEntry {
    pub from: usize,
    pub to: usize,
    pub branch: usize,
}

/// See [`SideEntry`]; `None` when there is none (or the graph is too large to analyse).
/// Edges from the blocks of `avoid` are never chosen. With `refused` (the block a whole
/// plan refuses), any side entry into a region not hoisted that holds that block or
/// reconverges there counts, outside loops too (the plan's own side-edge stubs need nested
/// regions; single-entry regions always nest), entries to that very block first.
pub fn unmapped_side_entry(
    cfg: &Cfg,
    divergent: &[usize],
    loops: &[Option<Vec<bool>>],
    refused: Option<usize>,
    avoid: &[bool],
) -> Option<SideEntry> {
    let n = cfg.blocks.len();
    if n > MAX_BLOCKS {
        return None;
    }
    // Post-dominators over the graph with a virtual exit node `n`.
    let (exit, pdom) = (n, post_dominators(cfg));
    // Every region not hoisted: (branch block, join, blocks).
    let mut regions: Vec<(usize, usize, Vec<bool>)> = Vec::new();
    for &b in divergent {
        let x = match (0..=n)
            .filter(|&p| p != b && pdom[b].has(p))
            .max_by_key(|&p| pdom[p].count())
        {
            Some(x) if x != exit => x,
            _ => continue,
        };
        let hoisted = loops.iter().flatten().any(|l| l[b] && !l[x]);
        if hoisted {
            continue;
        }
        let mut region = vec![false; n];
        let mut work = vec![b];
        while let Some(y) = work.pop() {
            if y != x && !region[y] {
                region[y] = true;
                work.extend(cfg.blocks[y].succs.iter().copied());
            }
        }
        regions.push((b, x, region));
    }
    regions.sort_by_key(|r| size(&r.2));
    let avoided = |q: usize| avoid.get(q).copied().unwrap_or(false);
    if let Some(at) = refused {
        let near = |(_, j, r): &&(usize, usize, Vec<bool>)| r.get(at) == Some(&true) || *j == at;
        let entries = |y: usize, region: &[bool]| {
            cfg.blocks[y]
                .preds
                .iter()
                .copied()
                .filter(|&q| !region[q] && !avoided(q))
                .collect::<Vec<_>>()
        };
        // Entries to the refused block itself, then any into a region around it.
        for only_at in [true, false] {
            for (b, _, region) in regions.iter().filter(near) {
                for y in (0..n).filter(|&y| region[y] && y != *b && (!only_at || y == at)) {
                    if let Some(&q) = entries(y, region).first() {
                        return Some(SideEntry {
                            from: q,
                            to: y,
                            branch: *b,
                        });
                    }
                }
            }
        }
        return None;
    }
    for (b, _, region) in &regions {
        for y in (0..n).filter(|&y| region[y] && y != *b) {
            for &q in cfg.blocks[y]
                .preds
                .iter()
                .filter(|&&q| !region[q] && !avoided(q))
            {
                let in_loop = loops.iter().flatten().any(|l| l[y] || l[q]);
                let on_join = regions.iter().any(|(_, j, r)| *j == y && r[q]);
                if in_loop || on_join {
                    return Some(SideEntry {
                        from: q,
                        to: y,
                        branch: *b,
                    });
                }
            }
        }
    }
    None
}
