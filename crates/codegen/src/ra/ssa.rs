//! The body in `regalloc2`'s terms: SSA values (one vreg per definition), block parameters
//! where several definitions of a PTX register meet, one `regalloc2` instruction per PTX
//! instruction, and the synthetic instructions `regalloc2` needs around them.
//!
//! Layout of the `regalloc2` function:
//! - block 0 is a synthetic entry: instruction 0 defines every value live into the body (a
//!   `.func`'s register parameters, registers read before any write), instruction 1 branches
//!   to the CFG's first block and to every block not reachable from it (whose live values
//!   come from nowhere: they are the entry's);
//! - block `b + 1` is the CFG's block `b`: its PTX instructions, then a synthetic `jump` or
//!   `ret` when the block does not end in a branch, `ret` or `exit` of its own;
//! - then one block per critical edge (`regalloc2` wants none), holding a synthetic jump.
//!
//! SSA construction: every block with several predecessors gets a parameter for every PTX
//! register live into it; parameters whose incoming values are all one value (or the
//! parameter itself) are then replaced by that value until none is left (Braun et al.'s
//! trivial-φ removal), which leaves the parameters dominance frontiers would give, pruned by
//! liveness.

//!
//! Bodies are small and many (a 20 MB file holds tens of thousands), so the work lists of
//! one construction live in a per-thread `Scratch` reused from body to body, and the result
//! keeps its per-block lists as ranges of a few pools rather than vectors of its own.

use super::bits::{has, insert as set, members, union};
use super::operands::{copied, pairwise_add, reads_sources_first, uses_defs};
use crate::cfg::Cfg;
use crate::regs::width_of;
use ir::{Function, Opcode};
use regalloc2::{Block, Operand, RegClass, VReg};
use std::cell::RefCell;

/// At most this many values defined by one instruction of the synthetic entry.
const ENTRY_DEFS: usize = 16;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Plain,
    Branch,
    Ret,
}

/// A `[start, end)` range of one of `RaFunc`'s pools.
type Range = (u32, u32);

#[derive(Clone, Copy, Debug)]
pub struct RaBlock {
    pub first: u32,
    pub end: u32,
    /// Ranges of `RaFunc::edges`.
    succs: Range,
    preds: Range,
    /// A range of `RaFunc::values`.
    params: Range,
    /// A range of `RaFunc::arg_lists`: per successor, the values passed to its parameters.
    args: Range,
}

/// Where a critical edge was split: from CFG block `from` (`None`: the synthetic entry) to
/// CFG block `to`, through `regalloc2` block `block`.
pub struct Split {
    pub from: Option<usize>,
    pub to: usize,
    pub block: usize,
}

pub struct RaFunc {
    pub blocks: Vec<RaBlock>,
    /// Successor and predecessor lists of the blocks.
    edges: Vec<Block>,
    /// Block parameters and branch arguments.
    values: Vec<VReg>,
    /// Per edge, its arguments (a range of `values`).
    arg_lists: Vec<Range>,
    pub kinds: Vec<Kind>,
    pub op_start: Vec<u32>,
    pub ops: Vec<Operand>,
    /// Per instruction (`name_start`), the PTX registers it names and the operand (index
    /// within the instruction) that holds each.
    pub name_start: Vec<u32>,
    pub names: Vec<(u32, u32)>,
    pub num_vregs: usize,
    /// The `regalloc2` instruction of each PTX instruction.
    pub ra_of_ptx: Vec<u32>,
    /// Per CFG block, its synthetic terminator (when it has one).
    pub term: Vec<Option<u32>>,
    pub splits: Vec<Split>,
}

impl RaFunc {
    pub fn succs(&self, b: usize) -> &[Block] {
        ranged(&self.edges, self.blocks[b].succs)
    }
    pub fn preds(&self, b: usize) -> &[Block] {
        ranged(&self.edges, self.blocks[b].preds)
    }
    pub fn params(&self, b: usize) -> &[VReg] {
        ranged(&self.values, self.blocks[b].params)
    }
    /// The values block `b` passes to the parameters of its successor number `k`.
    pub fn args(&self, b: usize, k: usize) -> &[VReg] {
        let lists = ranged(&self.arg_lists, self.blocks[b].args);
        lists.get(k).map_or(&[], |&r| ranged(&self.values, r))
    }
    /// Every value block `b` passes to a successor.
    pub fn all_args(&self, b: usize) -> impl Iterator<Item = &VReg> + '_ {
        ranged(&self.arg_lists, self.blocks[b].args)
            .iter()
            .flat_map(|&r| ranged(&self.values, r))
    }
    /// Instruction `i`'s operands.
    pub fn inst_ops(&self, i: usize) -> &[Operand] {
        &self.ops[self.op_start[i] as usize..self.op_start[i + 1] as usize]
    }
}

pub struct SsaError {
    pub inst: usize,
    pub message: String,
}

/// Bit sets over PTX registers, one `words`-long row per block, in one vector.
fn row(bits: &[u64], words: usize, b: usize) -> &[u64] {
    &bits[b * words..(b + 1) * words]
}

fn row_mut(bits: &mut [u64], words: usize, b: usize) -> &mut [u64] {
    &mut bits[b * words..(b + 1) * words]
}

/// What one PTX instruction reads and writes: ranges of one list for the whole body.
#[derive(Clone, Copy)]
struct Access {
    uses: Range,
    defs: Range,
    /// Guarded definitions that keep the old value in lanes whose guard is false.
    keeps_old: bool,
}

pub fn class_of(f: &Function, r: usize) -> Option<RegClass> {
    match width_of(f.regs.get(r)?.ty)? {
        1 => Some(RegClass::Vector),
        64 => Some(RegClass::Float),
        _ => Some(RegClass::Int),
    }
}

/// Keeps the first occurrence of each register, in order (in place: lists are short).
fn dedup(v: &mut Vec<usize>) {
    let mut kept = 0;
    for i in 0..v.len() {
        let x = v[i];
        if !v[..kept].contains(&x) {
            v[kept] = x;
            kept += 1;
        }
    }
    v.truncate(kept);
}

/// Pushes `x` onto the list whose range in `pool` is `r`, returning its index in that list.
/// Instructions are filled one at a time, so the range is normally the pool's last; one that
/// is not is first copied to the end (its old copy is left unused).
fn push_ranged<T: Copy>(pool: &mut Vec<T>, r: &mut Range, x: T) -> u32 {
    if r.1 as usize != pool.len() {
        let start = pool.len();
        pool.extend_from_within(r.0 as usize..r.1 as usize);
        *r = (start as u32, pool.len() as u32);
    }
    pool.push(x);
    r.1 += 1;
    r.1 - r.0 - 1
}

fn ranged<T>(pool: &[T], r: Range) -> &[T] {
    &pool[r.0 as usize..r.1 as usize]
}

/// Appends `items` to `pool`, returning their range.
fn append<T>(pool: &mut Vec<T>, items: impl IntoIterator<Item = T>) -> Range {
    let start = pool.len() as u32;
    pool.extend(items);
    (start, pool.len() as u32)
}

/// The blocks of an `n`-block graph reachable from block 0, in reverse postorder, into `out`
/// (`succ(x, i)`: block `x`'s `i`-th successor); `seen` marks them. `stack` is scratch.
fn reverse_postorder(
    n: usize,
    succ: impl Fn(usize, usize) -> Option<usize>,
    seen: &mut Vec<bool>,
    stack: &mut Vec<(usize, usize)>,
    out: &mut Vec<usize>,
) {
    reset(seen, n, false);
    out.clear();
    stack.clear();
    stack.push((0, 0));
    seen[0] = true;
    while let Some(&mut (x, ref mut i)) = stack.last_mut() {
        if let Some(t) = succ(x, *i) {
            *i += 1;
            if !seen[t] {
                seen[t] = true;
                stack.push((t, 0));
            }
        } else {
            out.push(x);
            stack.pop();
        }
    }
    out.reverse();
}

/// `v` cleared and `n` long, every element `x` (keeping its allocation).
fn reset<T: Clone>(v: &mut Vec<T>, n: usize, x: T) {
    v.clear();
    v.resize(n, x);
}

/// Whether the block's last instruction ends it without falling through and is its own
/// `regalloc2` terminator.
fn own_terminator(body: &[ir::Inst], blk: &crate::cfg::Block) -> Option<Kind> {
    let last = body
        .get(blk.end.checked_sub(1)?)
        .filter(|_| blk.end > blk.start)?;
    match last.op {
        Opcode::Bra | Opcode::Brx if !blk.succs.is_empty() => Some(Kind::Branch),
        Opcode::Ret | Opcode::Exit | Opcode::Trap if last.guard.is_none() => Some(Kind::Ret),
        _ => None,
    }
}

/// The work lists of one construction, kept from body to body (see the module comment).
/// Per-block lists are ranges of flat vectors; `reset` clears each before use.
#[derive(Default)]
struct Scratch {
    uses: Vec<usize>,
    defs: Vec<usize>,
    ret_regs: Vec<usize>,
    entry_regs: Vec<usize>,
    block_of: Vec<u32>,
    classes: Vec<Option<RegClass>>,
    acc_regs: Vec<usize>,
    def_count: Vec<u32>,
    acc: Vec<Access>,
    cyclic: Vec<Option<bool>>,
    seen: Vec<bool>,
    work: Vec<usize>,
    own_kind: Vec<Option<Kind>>,
    gen: Vec<u64>,
    kill: Vec<u64>,
    live_in: Vec<u64>,
    live_out: Vec<u64>,
    out_bits: Vec<u64>,
    in_bits: Vec<u64>,
    /// The `regalloc2` CFG before edge splitting: the entry's successors, then every
    /// block's successors and predecessors as ranges of `succ_list` / `pred_list`.
    entry_succs: Vec<usize>,
    succ_range: Vec<Range>,
    succ_list: Vec<usize>,
    pred_range: Vec<Range>,
    pred_list: Vec<usize>,
    ranges: Vec<Range>,
    ops_pool: Vec<Operand>,
    names_pool: Vec<(u32, u32)>,
    op_range: Vec<Range>,
    name_range: Vec<Range>,
    classes_of_vreg: Vec<RegClass>,
    entry_vreg: Vec<Option<VReg>>,
    /// Per block, its parameters `(PTX register, value)` (a range of `param_list`).
    param_range: Vec<Range>,
    param_list: Vec<(usize, VReg)>,
    removed: Vec<bool>,
    rpo: Vec<usize>,
    stack: Vec<(usize, usize)>,
    /// Per block, the values live out of it `(PTX register, value)`.
    out_range: Vec<Range>,
    out_list: Vec<(usize, VReg)>,
    cur: Vec<Option<VReg>>,
    touched: Vec<usize>,
    /// Per edge (`edge_of(p) + k`), the arguments it passes (a range of `arg_list`).
    edge_start: Vec<u32>,
    arg_range: Vec<Range>,
    arg_list: Vec<VReg>,
    subst: Vec<u32>,
    order: Vec<usize>,
    new_block: Vec<usize>,
    new_inst: Vec<u32>,
    old_inst: Vec<usize>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::default();
}

pub fn build(
    f: &Function,
    cfg: &Cfg,
    skip: &[bool],
    zero: &[bool],
    extra: &[Vec<usize>],
) -> Result<RaFunc, SsaError> {
    SCRATCH.with(|s| build_with(&mut s.borrow_mut(), f, cfg, skip, zero, extra))
}

fn build_with(
    s: &mut Scratch,
    f: &Function,
    cfg: &Cfg,
    skip: &[bool],
    zero: &[bool],
    extra: &[Vec<usize>],
) -> Result<RaFunc, SsaError> {
    let body = f.insts();
    let n = f.regs.len();
    let nb = cfg.blocks.len();
    let skipped = |r: usize| skip.get(r).copied().unwrap_or(false);
    let reg_list = |ps: &[ir::Param], out: &mut Vec<usize>| {
        out.clear();
        out.extend(
            ps.iter()
                .filter_map(|p| match p {
                    ir::Param::Reg(r) => Some(r.index()),
                    ir::Param::Var(_) => None,
                })
                .filter(|&r| !skipped(r)),
        );
    };
    reg_list(&f.rets, &mut s.ret_regs);
    reg_list(&f.params, &mut s.entry_regs);
    let (ret_regs, entry_regs) = (&s.ret_regs, &s.entry_regs);
    reset(&mut s.block_of, body.len(), 0);
    for (b, blk) in cfg.blocks.iter().enumerate() {
        for slot in s.block_of.iter_mut().take(blk.end).skip(blk.start) {
            *slot = b as u32;
        }
    }
    s.classes.clear();
    s.classes.extend((0..n).map(|r| class_of(f, r)));
    let classes = &s.classes;
    // Accesses, and the registers whose only definition is guarded.
    let (u, d) = (&mut s.uses, &mut s.defs);
    let acc_regs = &mut s.acc_regs;
    acc_regs.clear();
    reset(&mut s.def_count, n, 0);
    let acc = &mut s.acc;
    acc.clear();
    for (at, inst) in body.iter().enumerate() {
        uses_defs(inst, u, d);
        if inst.op == Opcode::Ret {
            u.extend_from_slice(ret_regs);
        }
        if let Some(x) = extra.get(at) {
            u.extend_from_slice(x);
        }
        if !skip.is_empty() {
            u.retain(|&r| !skipped(r));
            d.retain(|&r| !skipped(r));
        }
        dedup(u);
        dedup(d);
        for &r in u.iter().chain(d.iter()) {
            if classes.get(r).copied().flatten().is_none() {
                let name = f
                    .regs
                    .get(r)
                    .map_or_else(|| "?".to_string(), |x| x.name.to_string());
                return Err(SsaError {
                    inst: at,
                    message: format!(
                        "`{name}` is a .b128 register, which sm_20 has no registers for"
                    ),
                });
            }
        }
        // An instruction naming more registers of a class than Fermi has is none that sm_20
        // can express (wgmma, tcgen05): it gets no operands here, so selection names it.
        let mut named = [0usize; 3];
        for &r in u.iter().chain(d.iter()) {
            match classes.get(r).copied().flatten() {
                Some(RegClass::Int) => named[0] += 1,
                Some(RegClass::Float) => named[1] += 1,
                _ => named[2] += 1,
            }
        }
        if named[0] > 59 || named[1] > 29 || named[2] > 7 {
            u.clear();
            d.clear();
        }
        for &r in d.iter() {
            s.def_count[r] += 1;
        }
        let at_uses = acc_regs.len() as u32;
        acc_regs.extend_from_slice(u);
        let at_defs = acc_regs.len() as u32;
        acc_regs.extend_from_slice(d);
        acc.push(Access {
            uses: (at_uses, at_defs),
            defs: (at_defs, acc_regs.len() as u32),
            keeps_old: inst.guard.is_some(),
        });
    }
    let acc_regs = &s.acc_regs;
    // A register whose only definition is guarded and not on a cycle holds nothing before
    // it: lanes whose guard is false keep an undefined value either way, so that definition
    // need not read the old value (else a predicated temporary would be live from the entry).
    reset(&mut s.cyclic, nb, None);
    for (at, a) in s.acc.iter_mut().enumerate() {
        if !a.keeps_old {
            continue;
        }
        let b = s.block_of[at] as usize;
        let (seen, work) = (&mut s.seen, &mut s.work);
        let on_cycle = *s.cyclic[b].get_or_insert_with(|| {
            reset(seen, nb, false);
            work.clear();
            work.extend_from_slice(&cfg.blocks[b].succs);
            while let Some(x) = work.pop() {
                if x < nb && !seen[x] {
                    seen[x] = true;
                    work.extend(cfg.blocks[x].succs.iter().copied());
                }
            }
            seen[b]
        });
        let fresh = !on_cycle
            && ranged(acc_regs, a.defs)
                .iter()
                .all(|&r| s.def_count[r] == 1 && !entry_regs.contains(&r));
        a.keeps_old = !fresh;
    }
    let acc = &s.acc;
    s.own_kind.clear();
    s.own_kind
        .extend(cfg.blocks.iter().map(|blk| own_terminator(body, blk)));
    let own_kind = &s.own_kind;
    // Blocks that end the body without a `ret` of their own read the return values there.
    let falls_off = |b: usize| own_kind[b].is_none() && cfg.blocks[b].succs.is_empty();
    // Liveness over PTX registers: one row of `w` words per block.
    let w = n.div_ceil(64);
    reset(&mut s.gen, nb * w, 0);
    reset(&mut s.kill, nb * w, 0);
    for (b, blk) in cfg.blocks.iter().enumerate() {
        let (gen, kill) = (row_mut(&mut s.gen, w, b), row_mut(&mut s.kill, w, b));
        for a in &acc[blk.start..blk.end] {
            let defs = ranged(acc_regs, a.defs);
            for &r in ranged(acc_regs, a.uses)
                .iter()
                .chain(if a.keeps_old { defs } else { &[] })
            {
                if !has(kill, r) {
                    set(gen, r);
                }
            }
            for &r in defs {
                set(kill, r);
            }
        }
        if falls_off(b) {
            for &r in ret_regs {
                if !has(kill, r) {
                    set(gen, r);
                }
            }
        }
    }
    reset(&mut s.live_in, nb * w, 0);
    reset(&mut s.live_out, nb * w, 0);
    reset(&mut s.out_bits, w, 0);
    reset(&mut s.in_bits, w, 0);
    let mut changed = true;
    while changed {
        changed = false;
        for b in (0..nb).rev() {
            let (out, inn) = (&mut s.out_bits, &mut s.in_bits);
            out.fill(0);
            for &t in &cfg.blocks[b].succs {
                union(out, row(&s.live_in, w, t));
            }
            inn.copy_from_slice(out);
            let (kill, gen) = (row(&s.kill, w, b), row(&s.gen, w, b));
            for (x, (k, g)) in inn.iter_mut().zip(kill.iter().zip(gen)) {
                *x = (*x & !k) | g;
            }
            changed |= union(row_mut(&mut s.live_out, w, b), out);
            changed |= union(row_mut(&mut s.live_in, w, b), inn);
        }
    }
    let (live_in, live_out) = (&s.live_in, &s.live_out);
    // The regalloc2 CFG: block 0 the synthetic entry, block b + 1 the CFG's block b.
    let nr = nb + 1;
    // Blocks the entry does not reach hang off the entry too (the entry's first successor
    // is the CFG's first block; each block found unreached is added, then what it reaches).
    s.entry_succs.clear();
    s.entry_succs.push(1);
    {
        let (seen, work) = (&mut s.seen, &mut s.work);
        reset(seen, nr, false);
        let mut next = 0usize;
        loop {
            work.clear();
            work.push(next);
            while let Some(x) = work.pop() {
                if !seen[x] {
                    seen[x] = true;
                    if x == 0 {
                        work.extend_from_slice(&s.entry_succs);
                    } else {
                        work.extend(cfg.blocks[x - 1].succs.iter().map(|&t| t + 1));
                    }
                }
            }
            match (next + 1..nr).find(|&x| !seen[x]) {
                Some(x) => {
                    s.entry_succs.push(x);
                    next = x;
                }
                None => break,
            }
        }
    }
    s.succ_list.clear();
    s.succ_range.clear();
    let r0 = append(&mut s.succ_list, s.entry_succs.iter().copied());
    s.succ_range.push(r0);
    for blk in &cfg.blocks {
        let r = append(&mut s.succ_list, blk.succs.iter().map(|&t| t + 1));
        s.succ_range.push(r);
    }
    let (succ_list, succ_range) = (&s.succ_list, &s.succ_range);
    let succs = |p: usize| ranged(succ_list, succ_range[p]);
    // Predecessors in the order of their blocks (and of the successor lists).
    reset(&mut s.pred_range, nr, (0, 0));
    for &t in succ_list.iter() {
        s.pred_range[t].1 += 1;
    }
    let mut at = 0u32;
    for r in s.pred_range.iter_mut() {
        let len = r.1;
        *r = (at, at);
        at += len;
    }
    reset(&mut s.pred_list, succ_list.len(), 0);
    for p in 0..nr {
        for &t in succs(p) {
            let r = &mut s.pred_range[t];
            s.pred_list[r.1 as usize] = p;
            r.1 += 1;
        }
    }
    let (pred_list, pred_range) = (&s.pred_list, &s.pred_range);
    let preds = |t: usize| ranged(pred_list, pred_range[t]);
    // Instruction numbering.
    // The entry's definitions, at most `ENTRY_DEFS` an instruction (more values than
    // registers can be live into a body, and they are spilled; one instruction could not
    // define them all at once).
    let entry_values = {
        let any = &mut s.out_bits;
        any.fill(0);
        for &t in succs(0) {
            union(any, row(live_in, w, t - 1));
        }
        members(any).count()
    };
    let entry_insts = entry_values.div_ceil(ENTRY_DEFS).max(1);
    let mut kinds = vec![Kind::Plain; entry_insts];
    kinds.push(Kind::Branch);
    let mut ra_of_ptx = vec![0u32; body.len()];
    let mut term = vec![None; nb];
    s.ranges.clear();
    s.ranges.push((0u32, entry_insts as u32 + 1));
    for (b, blk) in cfg.blocks.iter().enumerate() {
        let first = kinds.len() as u32;
        for slot in ra_of_ptx.iter_mut().take(blk.end).skip(blk.start) {
            *slot = kinds.len() as u32;
            kinds.push(Kind::Plain);
        }
        match own_kind[b] {
            Some(k) => {
                if let Some(last) = kinds.last_mut() {
                    *last = k;
                }
            }
            None => {
                term[b] = Some(kinds.len() as u32);
                kinds.push(if blk.succs.is_empty() {
                    Kind::Ret
                } else {
                    Kind::Branch
                });
            }
        }
        s.ranges.push((first, kinds.len() as u32));
    }
    let ni = kinds.len();
    // Each instruction's operands and named registers: ranges of two pools.
    let (ops_pool, names_pool) = (&mut s.ops_pool, &mut s.names_pool);
    ops_pool.clear();
    names_pool.clear();
    reset(&mut s.op_range, ni, (0, 0));
    reset(&mut s.name_range, ni, (0, 0));
    let (op_range, name_range) = (&mut s.op_range, &mut s.name_range);

    // Values.
    let classes_of_vreg = &mut s.classes_of_vreg;
    classes_of_vreg.clear();
    let mut new_vreg = |c: RegClass| {
        classes_of_vreg.push(c);
        VReg::new(classes_of_vreg.len() - 1, c)
    };
    reset(&mut s.entry_vreg, n, None);
    let entry_vreg = &mut s.entry_vreg;
    s.param_list.clear();
    reset(&mut s.param_range, nr, (0, 0));
    for b in 0..nb {
        if preds(b + 1).len() >= 2 {
            let r = append(
                &mut s.param_list,
                members(row(live_in, w, b)).filter_map(|r| Some((r, new_vreg(classes[r]?)))),
            );
            s.param_range[b + 1] = r;
        }
    }
    let (param_list, param_range) = (&s.param_list, &s.param_range);
    let params = |t: usize| ranged(param_list, param_range[t]);
    // Reverse postorder from the entry.
    reverse_postorder(
        nr,
        |x, i| succs(x).get(i).copied(),
        &mut s.seen,
        &mut s.stack,
        &mut s.rpo,
    );
    let rpo = &s.rpo;
    let out_list = &mut s.out_list;
    out_list.clear();
    reset(&mut s.out_range, nr, (0, 0));
    let out_range = &mut s.out_range;
    reset(&mut s.cur, n, None);
    let cur = &mut s.cur;
    let internal = |at: usize, r: usize| SsaError {
        inst: at,
        message: format!(
            "internal error: no definition reaches `{}` (SSA construction)",
            f.regs
                .get(r)
                .map_or_else(|| "?".to_string(), |x| x.name.to_string())
        ),
    };
    let touched = &mut s.touched;
    for &rb in rpo.iter() {
        if rb == 0 {
            continue;
        }
        let b = rb - 1;
        touched.clear();
        if preds(rb).len() >= 2 {
            for &(r, v) in params(rb) {
                cur[r] = Some(v);
                touched.push(r);
            }
        } else if let Some(&p) = preds(rb).first() {
            if p == 0 {
                for r in members(row(live_in, w, b)) {
                    let c = classes[r].ok_or_else(|| internal(cfg.blocks[b].start, r))?;
                    let v = *entry_vreg[r].get_or_insert_with(|| new_vreg(c));
                    cur[r] = Some(v);
                    touched.push(r);
                }
            } else {
                for &(r, v) in ranged(out_list, out_range[p]) {
                    cur[r] = Some(v);
                    touched.push(r);
                }
            }
        }
        let blk = &cfg.blocks[b];
        for at in blk.start..blk.end {
            let inst = &body[at];
            let a = &acc[at];
            let i = ra_of_ptx[at] as usize;
            let (a_uses, a_defs) = (ranged(acc_regs, a.uses), ranged(acc_regs, a.defs));
            let (mut ops, mut names) = (op_range[i], name_range[i]);
            let use_of = |r: usize,
                          ops: &mut Range,
                          names: &mut Range,
                          ops_pool: &mut Vec<Operand>,
                          names_pool: &mut Vec<(u32, u32)>,
                          cur: &[Option<VReg>]|
             -> Result<u32, SsaError> {
                if let Some(&(_, k)) = ranged(names_pool, *names)
                    .iter()
                    .find(|x| x.0 as usize == r)
                {
                    return Ok(k);
                }
                let v = cur[r].ok_or_else(|| internal(at, r))?;
                let k = push_ranged(ops_pool, ops, Operand::reg_use(v));
                push_ranged(names_pool, names, (r as u32, k));
                Ok(k)
            };
            if let Some((dr, sr)) =
                copied(f, inst, zero).filter(|&(dr, sr)| !skipped(dr) && a_uses == [sr])
            {
                // A copy: the destination is the source's value (the selection's `MOV`
                // then names one register twice and is dropped).
                let k = use_of(sr, &mut ops, &mut names, ops_pool, names_pool, cur)?;
                push_ranged(names_pool, &mut names, (dr as u32, k));
                (op_range[i], name_range[i]) = (ops, names);
                cur[dr] = cur[sr];
                touched.push(dr);
                continue;
            }
            for &r in a_uses {
                use_of(r, &mut ops, &mut names, ops_pool, names_pool, cur)?;
            }
            let late = reads_sources_first(inst)
                || (pairwise_add(f, inst) && extra.get(at).is_none_or(Vec::is_empty));
            for &r in a_defs {
                let old = if a.keeps_old {
                    Some(use_of(r, &mut ops, &mut names, ops_pool, names_pool, cur)?)
                } else {
                    ranged(names_pool, names)
                        .iter()
                        .find(|x| x.0 as usize == r)
                        .map(|&(_, k)| k)
                };
                let c = classes[r].ok_or_else(|| internal(at, r))?;
                let v = new_vreg(c);
                match old {
                    // Read and written (or kept where the guard is false): one register.
                    // regalloc2 names a reused operand in 5 bits: an instruction reading
                    // and writing registers past its 32nd operand (wgmma's accumulators) is
                    // refused, not encoded into another constraint.
                    Some(k) if k > 31 => {
                        return Err(SsaError {
                            inst: at,
                            message: "an instruction that reads and writes more than 32 operands has no register allocation here".into(),
                        });
                    }
                    Some(k) => {
                        push_ranged(ops_pool, &mut ops, Operand::reg_reuse_def(v, k as usize));
                    }
                    None => {
                        let k = push_ranged(
                            ops_pool,
                            &mut ops,
                            if late {
                                Operand::reg_def(v)
                            } else {
                                Operand::reg_def_at_start(v)
                            },
                        );
                        push_ranged(names_pool, &mut names, (r as u32, k));
                    }
                }
                cur[r] = Some(v);
                touched.push(r);
            }
            (op_range[i], name_range[i]) = (ops, names);
        }
        // The synthetic return of a block that falls off the end reads the return values.
        if let Some(t) = term[b].filter(|_| falls_off(b)) {
            let t = t as usize;
            for &r in ret_regs {
                if names_has(ranged(names_pool, name_range[t]), r) {
                    continue;
                }
                let v = cur[r].ok_or_else(|| internal(blk.end.saturating_sub(1), r))?;
                let k = push_ranged(ops_pool, &mut op_range[t], Operand::reg_use(v));
                push_ranged(names_pool, &mut name_range[t], (r as u32, k));
            }
        }
        let start = out_list.len() as u32;
        for r in members(row(live_out, w, b)) {
            let v = cur[r].ok_or_else(|| internal(blk.end.saturating_sub(1), r))?;
            out_list.push((r, v));
        }
        out_range[rb] = (start, out_list.len() as u32);
        for &r in touched.iter() {
            cur[r] = None;
        }
    }
    // The entry's values: whatever the blocks it feeds read.
    for &t in succs(0) {
        for &(r, _) in params(t) {
            if let Some(c) = classes[r] {
                entry_vreg[r].get_or_insert_with(|| new_vreg(c));
            }
        }
    }
    let start = out_list.len() as u32;
    for (r, v) in entry_vreg.iter().enumerate() {
        if let Some(v) = v {
            out_list.push((r, *v));
            let i = ((out_list.len() - 1 - start as usize) / ENTRY_DEFS).min(entry_insts - 1);
            let k = push_ranged(ops_pool, &mut op_range[i], Operand::reg_def(*v));
            push_ranged(names_pool, &mut name_range[i], (r as u32, k));
        }
    }
    out_range[0] = (start, out_list.len() as u32);
    // Arguments of every edge into a block with parameters.
    let lookup = |p: usize, r: usize| -> Option<VReg> {
        ranged(out_list, out_range[p])
            .iter()
            .find(|x| x.0 == r)
            .map(|x| x.1)
    };
    s.edge_start.clear();
    s.arg_range.clear();
    s.arg_list.clear();
    for p in 0..nr {
        s.edge_start.push(s.arg_range.len() as u32);
        for &t in succs(p) {
            let start = s.arg_list.len() as u32;
            for &(r, _) in params(t) {
                s.arg_list.push(lookup(p, r).ok_or_else(|| internal(0, r))?);
            }
            s.arg_range.push((start, s.arg_list.len() as u32));
        }
    }
    let (edge_start, arg_range, arg_list) = (&s.edge_start, &s.arg_range, &s.arg_list);
    let args = |p: usize, k: usize| ranged(arg_list, arg_range[edge_start[p] as usize + k]);
    // Trivial parameters: replaced by their one incoming value.
    let nv = classes_of_vreg.len();
    let subst = &mut s.subst;
    subst.clear();
    subst.extend(0..nv as u32);
    let resolve = |subst: &[u32], v: VReg| -> VReg {
        let mut i = v.vreg();
        while subst[i] as usize != i {
            i = subst[i] as usize;
        }
        VReg::new(i, v.class())
    };
    // Parallel to `param_list`.
    reset(&mut s.removed, param_list.len(), false);
    let removed = &mut s.removed;
    let mut changed = true;
    while changed {
        changed = false;
        for (t, &(p0, p1)) in param_range.iter().enumerate() {
            for i in 0..(p1 - p0) as usize {
                if removed[p0 as usize + i] {
                    continue;
                }
                let v = resolve(subst, params(t)[i].1);
                let mut only: Option<VReg> = None;
                let mut trivial = true;
                for &p in preds(t) {
                    let k = succs(p).iter().position(|&x| x == t).unwrap_or(0);
                    let w = resolve(subst, args(p, k)[i]);
                    if w == v {
                        continue;
                    }
                    match only {
                        None => only = Some(w),
                        Some(o) if o == w => {}
                        Some(_) => {
                            trivial = false;
                            break;
                        }
                    }
                }
                if let (true, Some(w)) = (trivial, only) {
                    subst[v.vreg()] = w.vreg() as u32;
                    removed[p0 as usize + i] = true;
                    changed = true;
                }
            }
        }
    }
    for o in ops_pool.iter_mut() {
        let v = resolve(subst, o.vreg());
        if v != o.vreg() {
            *o = Operand::new(v, o.constraint(), o.kind(), o.pos());
        }
    }
    let removed = &*removed;
    let kept = |t: usize| {
        let p0 = param_range[t].0 as usize;
        (0..params(t).len()).filter(move |&i| !removed[p0 + i])
    };
    let mut blocks: Vec<RaBlock> = Vec::with_capacity(nr + 4);
    let mut edges: Vec<Block> = Vec::with_capacity(2 * succ_list.len() + 8);
    let mut values: Vec<VReg> = Vec::with_capacity(param_list.len() + arg_list.len());
    let mut arg_lists: Vec<Range> = Vec::with_capacity(arg_range.len() + 4);
    for t in 0..nr {
        let params = append(&mut values, kept(t).map(|i| params(t)[i].1));
        let succs = append(&mut edges, succs(t).iter().map(|&x| Block::new(x)));
        let preds = append(&mut edges, preds(t).iter().map(|&x| Block::new(x)));
        blocks.push(RaBlock {
            first: s.ranges[t].0,
            end: s.ranges[t].1,
            succs,
            preds,
            params,
            args: (0, 0),
        });
    }
    for (p, blk) in blocks.iter_mut().enumerate() {
        let start = arg_lists.len() as u32;
        for (k, &t) in succs(p).iter().enumerate() {
            let r = append(&mut values, kept(t).map(|i| resolve(subst, args(p, k)[i])));
            arg_lists.push(r);
        }
        blk.args = (start, arg_lists.len() as u32);
    }
    // Critical edges get a block of their own (a synthetic jump).
    let mut splits = Vec::new();
    for p in 0..nr {
        // Edge moves would go before the terminator, after it reads its operands: with
        // several successors, or a terminator that reads something, edges into joins split.
        let term_reads = p > 0 && {
            let r = op_range[blocks[p].end as usize - 1];
            r.1 > r.0
        };
        let (s0, s1) = blocks[p].succs;
        if s1 - s0 < 2 && !term_reads {
            continue;
        }
        for k in 0..(s1 - s0) as usize {
            let t = edges[s0 as usize + k].index();
            let (q0, q1) = blocks[t].preds;
            if q1 - q0 < 2 {
                continue;
            }
            let sb = blocks.len();
            let at = kinds.len() as u32;
            kinds.push(Kind::Branch);
            op_range.push((0, 0));
            name_range.push((0, 0));
            // The edge's arguments move to the new block's jump.
            let e = blocks[p].args.0 as usize + k;
            let a = std::mem::take(&mut arg_lists[e]);
            let args = append(&mut arg_lists, [a]);
            let succs = append(&mut edges, [Block::new(t)]);
            let preds = append(&mut edges, [Block::new(p)]);
            blocks.push(RaBlock {
                first: at,
                end: at + 1,
                succs,
                preds,
                params: (0, 0),
                args,
            });
            edges[s0 as usize + k] = Block::new(sb);
            for q in &mut edges[q0 as usize..q1 as usize] {
                if q.index() == p {
                    *q = Block::new(sb);
                }
            }
            splits.push(Split {
                from: p.checked_sub(1),
                to: t - 1,
                block: sb,
            });
        }
    }
    // Blocks (and their instructions) in reverse postorder: `regalloc2`'s checker visits
    // blocks in index order and loses what it knows at a block it reaches before any of
    // its forward predecessors.
    let nall = blocks.len();
    reverse_postorder(
        nall,
        |x, i| ranged(&edges, blocks[x].succs).get(i).map(|b| b.index()),
        &mut s.seen,
        &mut s.stack,
        &mut s.order,
    );
    let seen = &s.seen;
    let order = &mut s.order;
    order.extend((0..nall).filter(|&x| !seen[x]));
    reset(&mut s.new_block, nall, 0);
    let new_block = &mut s.new_block;
    for (k, &b) in order.iter().enumerate() {
        new_block[b] = k;
    }
    reset(&mut s.new_inst, kinds.len(), 0);
    let new_inst = &mut s.new_inst;
    let mut next = 0u32;
    for &b in order.iter() {
        for i in blocks[b].first..blocks[b].end {
            new_inst[i as usize] = next;
            next += 1;
        }
    }
    reset(&mut s.old_inst, kinds.len(), 0);
    let old_inst = &mut s.old_inst;
    let mut kinds2 = vec![Kind::Plain; kinds.len()];
    for (i, &j) in new_inst.iter().enumerate() {
        kinds2[j as usize] = kinds[i];
        old_inst[j as usize] = i;
    }
    let kinds = kinds2;
    for x in ra_of_ptx.iter_mut() {
        *x = new_inst[*x as usize];
    }
    for t in term.iter_mut().flatten() {
        *t = new_inst[*t as usize];
    }
    for x in splits.iter_mut() {
        x.block = new_block[x.block];
    }
    // Every entry of `edges` is some block's successor or predecessor.
    for e in edges.iter_mut() {
        *e = Block::new(new_block[e.index()]);
    }
    let blocks: Vec<RaBlock> = order
        .iter()
        .map(|&b| {
            let mut blk = blocks[b];
            let len = blk.end - blk.first;
            blk.first = new_inst[blk.first as usize];
            blk.end = blk.first + len;
            blk
        })
        .collect();
    let mut op_start = Vec::with_capacity(kinds.len() + 1);
    let mut name_start = Vec::with_capacity(kinds.len() + 1);
    let (mut ops, mut names) = (
        Vec::with_capacity(ops_pool.len()),
        Vec::with_capacity(names_pool.len()),
    );
    for &i in old_inst.iter() {
        op_start.push(ops.len() as u32);
        name_start.push(names.len() as u32);
        ops.extend_from_slice(ranged(ops_pool, op_range[i]));
        names.extend_from_slice(ranged(names_pool, name_range[i]));
    }
    op_start.push(ops.len() as u32);
    name_start.push(names.len() as u32);
    Ok(RaFunc {
        blocks,
        edges,
        values,
        arg_lists,
        kinds,
        op_start,
        ops,
        name_start,
        names,
        num_vregs: nv,
        ra_of_ptx,
        term,
        splits,
    })
}

fn names_has(names: &[(u32, u32)], r: usize) -> bool {
    names.iter().any(|x| x.0 as usize == r)
}
