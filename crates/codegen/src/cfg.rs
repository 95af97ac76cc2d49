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
/// in its preheader and `BRK` on each exit edge. Lanes that break wait on the stack until
/// every lane still in the loop has broken too; then they go on together at `exit`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BreakLoop {
    pub header: usize,
    pub preheader: usize,
    pub exit: usize,
    pub body: Vec<bool>,
}

impl BreakLoop {
    /// Whether the edge `u → t` leaves the loop (and becomes a `BRK`).
    pub fn is_break(&self, u: usize, t: usize) -> bool {
        self.body.get(u).copied().unwrap_or(false) && t == self.exit
    }
}

/// The loops to translate with `PBK`/`BRK`, and the graph reconvergence is planned on: each
/// such loop's exit edges replaced by one edge from its header to its exit (the stack, not
/// an `SSY`, brings the lanes that break back together). A loop qualifies when it has two or
/// more exit edges, all to one block, and a preheader that only enters it; exits of a loop
/// nested in another that qualifies must not leave the outer one (a `BRK` leaves only the
/// innermost `PBK`). Loops with one exit keep the `SSY` scheme.
pub fn plan_breaks(cfg: &Cfg) -> Result<(Vec<BreakLoop>, Cfg), CfgError> {
    let n = cfg.blocks.len();
    let dom = dominators(n, &[0], &|b| cfg.blocks[b].preds.clone());
    // Natural loops, one per header (the union of its back edges' loops).
    let mut loops: Vec<(usize, Vec<bool>)> = Vec::new();
    for (u, blk) in cfg.blocks.iter().enumerate() {
        for &h in &blk.succs {
            if h > u || !dom[u].has(h) {
                continue;
            }
            let i = match loops.iter().position(|(x, _)| *x == h) {
                Some(i) => i,
                None => {
                    loops.push((h, vec![false; n]));
                    loops.len() - 1
                }
            };
            let body = &mut loops[i].1;
            body[h] = true;
            let mut work = vec![u];
            while let Some(x) = work.pop() {
                if !body[x] {
                    body[x] = true;
                    work.extend(cfg.blocks[x].preds.iter().copied());
                }
            }
        }
    }
    let mut chosen: Vec<BreakLoop> = Vec::new();
    for (h, body) in &loops {
        let exits: Vec<(usize, usize)> = (0..n)
            .filter(|&u| body[u])
            .flat_map(|u| cfg.blocks[u].succs.iter().map(move |&t| (u, t)))
            .filter(|&(_, t)| !body[t])
            .collect();
        let Some(&(_, x)) = exits.first() else {
            continue;
        };
        if exits.len() < 2 || exits.iter().any(|&(_, t)| t != x) {
            continue;
        }
        let outside: Vec<usize> = cfg.blocks[*h]
            .preds
            .iter()
            .copied()
            .filter(|&p| !body[p])
            .collect();
        let [p] = outside.as_slice() else {
            return Err(CfgError {
                block: *h,
                message: "loop with several exits whose header has no unique preheader".into(),
            });
        };
        if cfg.blocks[*p].succs != [*h] {
            return Err(CfgError {
                block: *h,
                message: "loop with several exits whose preheader does not only enter it".into(),
            });
        }
        chosen.push(BreakLoop {
            header: *h,
            preheader: *p,
            exit: x,
            body: body.clone(),
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
    let mut planned = cfg.clone();
    for l in &chosen {
        for (u, blk) in planned.blocks.iter_mut().enumerate() {
            blk.succs.retain(|&t| !l.is_break(u, t));
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

/// One `SSY`: emitted at the end of block `at` (before its terminator), reconverging at `join`.
/// `region` holds the blocks reachable from `at` without passing `join`: the lanes that may
/// arrive at this region's `.S`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ssy {
    pub at: usize,
    pub join: usize,
    pub region: Vec<bool>,
}

impl Ssy {
    pub fn size(&self) -> usize {
        self.region.iter().filter(|&&b| b).count()
    }
}

/// Why the control flow cannot be mapped onto the reconvergence stack (yet).
pub struct CfgError {
    pub block: usize,
    pub message: String,
}

/// For each divergent conditional branch (a guarded `bra` without `.uni`) in block `b`: its
/// immediate post-dominator `x` is where the lanes meet again. The `SSY` must be executed once
/// by all lanes before they split, so it goes in `b`, or — when `b` is inside a loop that `x`
/// is outside of — in that loop's preheader (lanes leave such a loop in different iterations).
/// `x` then starts with `NOP.S`, and the `SSY` targets the instruction after it.
pub fn plan_reconvergence(cfg: &Cfg, divergent: &[usize]) -> Result<Vec<Ssy>, CfgError> {
    let n = cfg.blocks.len();
    if n > MAX_BLOCKS {
        return Err(CfgError {
            block: 0,
            message: format!(
                "function has {n} basic blocks; this translator analyses at most {MAX_BLOCKS}"
            ),
        });
    }
    // Post-dominators over the graph with a virtual exit node `n`.
    let exit = n;
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
    let pdom = dominators(n + 1, &[exit], &succs_with_exit);
    let dom = dominators(n, &[0], &|b| cfg.blocks[b].preds.clone());
    // Natural loops of back edges; a retreating edge to a non-dominator is irreducible.
    let mut loops: Vec<(usize, Vec<bool>)> = Vec::new();
    for (u, blk) in cfg.blocks.iter().enumerate() {
        for &h in &blk.succs {
            if h <= u {
                if !dom[u].has(h) {
                    return Err(CfgError {
                        block: h,
                        message:
                            "irreducible control flow: a loop entered other than through its header"
                                .into(),
                    });
                }
                let mut body = vec![false; n];
                body[h] = true;
                let mut work = vec![u];
                while let Some(x) = work.pop() {
                    if !body[x] {
                        body[x] = true;
                        work.extend(cfg.blocks[x].preds.iter().copied());
                    }
                }
                loops.push((h, body));
            }
        }
    }
    let mut plan: Vec<Ssy> = Vec::new();
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
        let mut at = b;
        loop {
            let outer = loops
                .iter()
                .filter(|(_, body)| body[at] && !body[x])
                .max_by_key(|(_, body)| body.iter().filter(|&&v| v).count());
            let Some((h, body)) = outer else { break };
            let outside: Vec<usize> = cfg.blocks[*h]
                .preds
                .iter()
                .copied()
                .filter(|&p| !body[p])
                .collect();
            match outside.as_slice() {
                [p] => at = *p,
                _ => {
                    return Err(CfgError {
                        block: *h,
                        message: "loop header without a unique preheader: cannot place the SSY of a divergent exit".into(),
                    })
                }
            }
        }
        // Every path into `x` must come through the region the SSY covers, or lanes with no
        // entry on the stack would arrive at the `.S`.
        let mut region = vec![false; n];
        let mut work = vec![at];
        while let Some(y) = work.pop() {
            if y != x && !region[y] {
                region[y] = true;
                work.extend(cfg.blocks[y].succs.iter().copied());
            }
        }
        if x == 0 {
            return Err(CfgError {
                block: x,
                message: "the entry block cannot be a reconvergence point".into(),
            });
        }
        // Single entry: lanes may reach a block of the region only through the SSY, else
        // they would arrive at its `.S` without an entry of theirs on the stack.
        if let Some(y) = (0..n)
            .find(|&y| region[y] && y != at && cfg.blocks[y].preds.iter().any(|&p| !region[p]))
        {
            return Err(CfgError {
                block: y,
                message: "block is entered from outside the divergent region it belongs to (unstructured control flow is not yet supported)".into(),
            });
        }
        if plan.iter().any(|o| o.at == at && o.join == x) {
            continue;
        }
        plan.push(Ssy {
            at,
            join: x,
            region,
        });
    }
    // Regions that reconverge at one block must nest (a tree whose root holds every
    // predecessor of the block): lanes of an inner region arrive at its `.S` first, then at
    // the enclosing region's.
    for x in 0..n {
        let mine: Vec<&Ssy> = plan.iter().filter(|s| s.join == x).collect();
        if mine.is_empty() {
            continue;
        }
        let root = mine.iter().max_by_key(|s| s.size()).map(|s| &s.region);
        let unstructured = CfgError {
            block: x,
            message: "reconvergence point is also reached from outside the divergent regions that meet there (unstructured control flow is not yet supported)".into(),
        };
        let Some(root) = root else { continue };
        if cfg.blocks[x].preds.iter().any(|&p| !root[p]) {
            return Err(unstructured);
        }
        for a in &mine {
            for b in &mine {
                let inter = (0..n).any(|i| a.region[i] && b.region[i]);
                let a_in_b = (0..n).all(|i| !a.region[i] || b.region[i]);
                let b_in_a = (0..n).all(|i| !b.region[i] || a.region[i]);
                if inter && !a_in_b && !b_in_a {
                    return Err(unstructured);
                }
            }
            if !(0..n).all(|i| !a.region[i] || root[i]) {
                return Err(unstructured);
            }
        }
    }
    Ok(plan)
}
