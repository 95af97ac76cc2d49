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

use super::operands::{copied, pairwise_add, reads_sources_first, uses_defs};
use crate::cfg::Cfg;
use crate::regs::width_of;
use ir::{Function, Opcode};
use regalloc2::{Block, Operand, RegClass, VReg};

/// At most this many values defined by one instruction of the synthetic entry.
const ENTRY_DEFS: usize = 16;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Plain,
    Branch,
    Ret,
}

pub struct RaBlock {
    pub first: u32,
    pub end: u32,
    pub succs: Vec<Block>,
    pub preds: Vec<Block>,
    pub params: Vec<VReg>,
    /// Per successor, the values passed to its parameters.
    pub args: Vec<Vec<VReg>>,
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

pub struct SsaError {
    pub inst: usize,
    pub message: String,
}

#[derive(Clone)]
struct Bits(Vec<u64>);

impl Bits {
    fn new(n: usize) -> Bits {
        Bits(vec![0; n.div_ceil(64)])
    }
    fn set(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }
    fn has(&self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 == 1
    }
    fn union(&mut self, o: &Bits) -> bool {
        let mut changed = false;
        for (a, b) in self.0.iter_mut().zip(&o.0) {
            let n = *a | *b;
            changed |= n != *a;
            *a = n;
        }
        changed
    }
    fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(w, &bits)| {
            let mut rest = bits;
            std::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let b = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    w * 64 + b
                })
            })
        })
    }
}

/// What one PTX instruction reads and writes: ranges of one list for the whole body (one
/// allocation, not two per instruction: bodies are small and many, so allocation counts).
struct Access {
    uses: (u32, u32),
    defs: (u32, u32),
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
fn push_ranged<T: Copy>(pool: &mut Vec<T>, r: &mut (u32, u32), x: T) -> u32 {
    if r.1 as usize != pool.len() {
        let start = pool.len();
        pool.extend_from_within(r.0 as usize..r.1 as usize);
        *r = (start as u32, pool.len() as u32);
    }
    pool.push(x);
    r.1 += 1;
    r.1 - r.0 - 1
}

fn ranged<T>(pool: &[T], r: (u32, u32)) -> &[T] {
    &pool[r.0 as usize..r.1 as usize]
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

pub fn build(
    f: &Function,
    cfg: &Cfg,
    skip: &[bool],
    zero: &[bool],
    extra: &[Vec<usize>],
) -> Result<RaFunc, SsaError> {
    let body = f.insts();
    let n = f.regs.len();
    let nb = cfg.blocks.len();
    let reg_list = |ps: &[ir::Param]| -> Vec<usize> {
        ps.iter()
            .filter_map(|p| match p {
                ir::Param::Reg(r) => Some(r.index()),
                ir::Param::Var(_) => None,
            })
            .filter(|&r| !skip.get(r).copied().unwrap_or(false))
            .collect()
    };
    let ret_regs = reg_list(&f.rets);
    let entry_regs = reg_list(&f.params);
    let mut block_of = vec![0usize; body.len()];
    for (b, blk) in cfg.blocks.iter().enumerate() {
        for slot in block_of.iter_mut().take(blk.end).skip(blk.start) {
            *slot = b;
        }
    }
    let classes: Vec<Option<RegClass>> = (0..n).map(|r| class_of(f, r)).collect();
    // Accesses, and the registers whose only definition is guarded.
    let (mut u, mut d) = (Vec::new(), Vec::new());
    let mut acc_regs: Vec<usize> = Vec::with_capacity(body.len() * 3);
    let mut def_count = vec![0u32; n];
    let mut acc: Vec<Access> = Vec::with_capacity(body.len());
    for (at, inst) in body.iter().enumerate() {
        uses_defs(inst, &mut u, &mut d);
        if inst.op == Opcode::Ret {
            u.extend_from_slice(&ret_regs);
        }
        if let Some(x) = extra.get(at) {
            u.extend_from_slice(x);
        }
        if !skip.is_empty() {
            u.retain(|&r| !skip.get(r).copied().unwrap_or(false));
            d.retain(|&r| !skip.get(r).copied().unwrap_or(false));
        }
        dedup(&mut u);
        dedup(&mut d);
        for &r in u.iter().chain(&d) {
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
        for &r in u.iter().chain(&d) {
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
        for &r in &d {
            def_count[r] += 1;
        }
        let at_uses = acc_regs.len() as u32;
        acc_regs.extend_from_slice(&u);
        let at_defs = acc_regs.len() as u32;
        acc_regs.extend_from_slice(&d);
        acc.push(Access {
            uses: (at_uses, at_defs),
            defs: (at_defs, acc_regs.len() as u32),
            keeps_old: inst.guard.is_some(),
        });
    }
    // A register whose only definition is guarded and not on a cycle holds nothing before
    // it: lanes whose guard is false keep an undefined value either way, so that definition
    // need not read the old value (else a predicated temporary would be live from the entry).
    let mut cyclic: Vec<Option<bool>> = vec![None; nb];
    for (at, a) in acc.iter_mut().enumerate() {
        if !a.keeps_old {
            continue;
        }
        let b = block_of[at];
        let on_cycle = *cyclic[b].get_or_insert_with(|| {
            let mut seen = vec![false; nb];
            let mut work: Vec<usize> = cfg.blocks[b].succs.clone();
            while let Some(x) = work.pop() {
                if x < nb && !seen[x] {
                    seen[x] = true;
                    work.extend(cfg.blocks[x].succs.iter().copied());
                }
            }
            seen[b]
        });
        let fresh = !on_cycle
            && ranged(&acc_regs, a.defs)
                .iter()
                .all(|&r| def_count[r] == 1 && !entry_regs.contains(&r));
        a.keeps_old = !fresh;
    }
    let kinds_of_block: Vec<Option<Kind>> = cfg
        .blocks
        .iter()
        .map(|blk| own_terminator(body, blk))
        .collect();
    // Blocks that end the body without a `ret` of their own read the return values there.
    let falls_off = |b: usize| kinds_of_block[b].is_none() && cfg.blocks[b].succs.is_empty();
    // Liveness over PTX registers.
    let mut gen = vec![Bits::new(n); nb];
    let mut kill = vec![Bits::new(n); nb];
    for (b, blk) in cfg.blocks.iter().enumerate() {
        for a in &acc[blk.start..blk.end] {
            let defs = ranged(&acc_regs, a.defs);
            for &r in ranged(&acc_regs, a.uses)
                .iter()
                .chain(if a.keeps_old { defs } else { &[] })
            {
                if !kill[b].has(r) {
                    gen[b].set(r);
                }
            }
            for &r in defs {
                kill[b].set(r);
            }
        }
        if falls_off(b) {
            for &r in &ret_regs {
                if !kill[b].has(r) {
                    gen[b].set(r);
                }
            }
        }
    }
    let mut live_in = vec![Bits::new(n); nb];
    let mut live_out = vec![Bits::new(n); nb];
    let mut changed = true;
    let (mut out, mut inn) = (Bits::new(n), Bits::new(n));
    while changed {
        changed = false;
        for b in (0..nb).rev() {
            out.0.fill(0);
            for &s in &cfg.blocks[b].succs {
                out.union(&live_in[s]);
            }
            inn.0.copy_from_slice(&out.0);
            for (w, (k, g)) in inn.0.iter_mut().zip(kill[b].0.iter().zip(&gen[b].0)) {
                *w = (*w & !k) | g;
            }
            changed |= live_out[b].union(&out);
            changed |= live_in[b].union(&inn);
        }
    }
    // The regalloc2 CFG: block 0 the synthetic entry, block b + 1 the CFG's block b.
    let nr = nb + 1;
    let mut succs: Vec<Vec<usize>> = vec![Vec::new(); nr];
    succs[0].push(1);
    for (b, blk) in cfg.blocks.iter().enumerate() {
        succs[b + 1] = blk.succs.iter().map(|&s| s + 1).collect();
    }
    // Blocks the entry does not reach hang off the entry too.
    loop {
        let mut seen = vec![false; nr];
        let mut work = vec![0usize];
        while let Some(x) = work.pop() {
            if !seen[x] {
                seen[x] = true;
                work.extend(succs[x].iter().copied());
            }
        }
        match (1..nr).find(|&x| !seen[x]) {
            Some(x) => succs[0].push(x),
            None => break,
        }
    }
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); nr];
    for (p, ss) in succs.iter().enumerate() {
        for &s in ss {
            preds[s].push(p);
        }
    }
    // Instruction numbering.
    // The entry's definitions, at most `ENTRY_DEFS` an instruction (more values than
    // registers can be live into a body, and they are spilled; one instruction could not
    // define them all at once).
    let entry_values = {
        let mut any = Bits::new(n);
        for &t in &succs[0] {
            any.union(&live_in[t - 1]);
        }
        any.iter().count()
    };
    let entry_insts = entry_values.div_ceil(ENTRY_DEFS).max(1);
    let mut kinds = vec![Kind::Plain; entry_insts];
    kinds.push(Kind::Branch);
    let mut ra_of_ptx = vec![0u32; body.len()];
    let mut term = vec![None; nb];
    let mut ranges = vec![(0u32, entry_insts as u32 + 1)];
    for (b, blk) in cfg.blocks.iter().enumerate() {
        let first = kinds.len() as u32;
        for slot in ra_of_ptx.iter_mut().take(blk.end).skip(blk.start) {
            *slot = kinds.len() as u32;
            kinds.push(Kind::Plain);
        }
        match kinds_of_block[b] {
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
        ranges.push((first, kinds.len() as u32));
    }
    let ni = kinds.len();
    // Each instruction's operands and named registers: ranges of two pools.
    let mut ops_pool: Vec<Operand> = Vec::with_capacity(acc_regs.len() + ni);
    let mut names_pool: Vec<(u32, u32)> = Vec::with_capacity(acc_regs.len() + ni);
    let mut op_range: Vec<(u32, u32)> = vec![(0, 0); ni];
    let mut name_range: Vec<(u32, u32)> = vec![(0, 0); ni];

    // Values.
    let mut classes_of_vreg: Vec<RegClass> = Vec::new();
    let mut new_vreg = |c: RegClass| {
        classes_of_vreg.push(c);
        VReg::new(classes_of_vreg.len() - 1, c)
    };
    let mut entry_vreg: Vec<Option<VReg>> = vec![None; n];
    let mut params: Vec<Vec<(usize, VReg)>> = vec![Vec::new(); nr];
    for b in 0..nb {
        if preds[b + 1].len() >= 2 {
            params[b + 1] = live_in[b]
                .iter()
                .filter_map(|r| Some((r, new_vreg(classes[r]?))))
                .collect();
        }
    }
    // Reverse postorder from the entry.
    let mut rpo = Vec::with_capacity(nr);
    {
        let mut seen = vec![false; nr];
        let mut stack = vec![(0usize, 0usize)];
        seen[0] = true;
        while let Some(&mut (x, ref mut i)) = stack.last_mut() {
            if let Some(&s) = succs[x].get(*i) {
                *i += 1;
                if !seen[s] {
                    seen[s] = true;
                    stack.push((s, 0));
                }
            } else {
                rpo.push(x);
                stack.pop();
            }
        }
        rpo.reverse();
    }
    let mut out: Vec<Vec<(usize, VReg)>> = vec![Vec::new(); nr];
    let mut cur: Vec<Option<VReg>> = vec![None; n];
    let internal = |at: usize, r: usize| SsaError {
        inst: at,
        message: format!(
            "internal error: no definition reaches `{}` (SSA construction)",
            f.regs
                .get(r)
                .map_or_else(|| "?".to_string(), |x| x.name.to_string())
        ),
    };
    let mut touched: Vec<usize> = Vec::new();
    for &rb in &rpo {
        if rb == 0 {
            continue;
        }
        let b = rb - 1;
        touched.clear();
        if preds[rb].len() >= 2 {
            for &(r, v) in &params[rb] {
                cur[r] = Some(v);
                touched.push(r);
            }
        } else if let Some(&p) = preds[rb].first() {
            if p == 0 {
                for r in live_in[b].iter() {
                    let c = classes[r].ok_or_else(|| internal(cfg.blocks[b].start, r))?;
                    let v = *entry_vreg[r].get_or_insert_with(|| new_vreg(c));
                    cur[r] = Some(v);
                    touched.push(r);
                }
            } else {
                for &(r, v) in &out[p] {
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
            let (a_uses, a_defs) = (ranged(&acc_regs, a.uses), ranged(&acc_regs, a.defs));
            let (mut ops, mut names) = (op_range[i], name_range[i]);
            let use_of = |r: usize,
                          ops: &mut (u32, u32),
                          names: &mut (u32, u32),
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
            if let Some((dr, sr)) = copied(f, inst, zero)
                .filter(|&(dr, sr)| !skip.get(dr).copied().unwrap_or(false) && a_uses == [sr])
            {
                // A copy: the destination is the source's value (the selection's `MOV`
                // then names one register twice and is dropped).
                let k = use_of(
                    sr,
                    &mut ops,
                    &mut names,
                    &mut ops_pool,
                    &mut names_pool,
                    &cur,
                )?;
                push_ranged(&mut names_pool, &mut names, (dr as u32, k));
                (op_range[i], name_range[i]) = (ops, names);
                cur[dr] = cur[sr];
                touched.push(dr);
                continue;
            }
            for &r in a_uses {
                use_of(
                    r,
                    &mut ops,
                    &mut names,
                    &mut ops_pool,
                    &mut names_pool,
                    &cur,
                )?;
            }
            let late = reads_sources_first(inst)
                || (pairwise_add(f, inst) && extra.get(at).is_none_or(Vec::is_empty));
            for &r in a_defs {
                let old = if a.keeps_old {
                    Some(use_of(
                        r,
                        &mut ops,
                        &mut names,
                        &mut ops_pool,
                        &mut names_pool,
                        &cur,
                    )?)
                } else {
                    ranged(&names_pool, names)
                        .iter()
                        .find(|x| x.0 as usize == r)
                        .map(|&(_, k)| k)
                };
                let c = classes[r].ok_or_else(|| internal(at, r))?;
                let v = new_vreg(c);
                match old {
                    // Read and written (or kept where the guard is false): one register.
                    Some(k) => {
                        push_ranged(
                            &mut ops_pool,
                            &mut ops,
                            Operand::reg_reuse_def(v, k as usize),
                        );
                    }
                    None => {
                        let k = push_ranged(
                            &mut ops_pool,
                            &mut ops,
                            if late {
                                Operand::reg_def(v)
                            } else {
                                Operand::reg_def_at_start(v)
                            },
                        );
                        push_ranged(&mut names_pool, &mut names, (r as u32, k));
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
            for &r in &ret_regs {
                if names_has(ranged(&names_pool, name_range[t]), r) {
                    continue;
                }
                let v = cur[r].ok_or_else(|| internal(blk.end.saturating_sub(1), r))?;
                let k = push_ranged(&mut ops_pool, &mut op_range[t], Operand::reg_use(v));
                push_ranged(&mut names_pool, &mut name_range[t], (r as u32, k));
            }
        }
        for r in live_out[b].iter() {
            let v = cur[r].ok_or_else(|| internal(blk.end.saturating_sub(1), r))?;
            out[rb].push((r, v));
        }
        for &r in &touched {
            cur[r] = None;
        }
    }
    // The entry's values: whatever the blocks it feeds read.
    let entry_targets: Vec<usize> = succs[0].clone();
    for &t in &entry_targets {
        for &(r, _) in &params[t] {
            if let Some(c) = classes[r] {
                entry_vreg[r].get_or_insert_with(|| new_vreg(c));
            }
        }
    }
    for (r, v) in entry_vreg.iter().enumerate() {
        if let Some(v) = v {
            out[0].push((r, *v));
            let i = ((out[0].len() - 1) / ENTRY_DEFS).min(entry_insts - 1);
            let k = push_ranged(&mut ops_pool, &mut op_range[i], Operand::reg_def(*v));
            push_ranged(&mut names_pool, &mut name_range[i], (r as u32, k));
        }
    }
    // Arguments of every edge into a block with parameters.
    let lookup =
        |p: usize, r: usize| -> Option<VReg> { out[p].iter().find(|x| x.0 == r).map(|x| x.1) };
    let mut args: Vec<Vec<Vec<VReg>>> = succs.iter().map(|s| vec![Vec::new(); s.len()]).collect();
    for p in 0..nr {
        for (k, &t) in succs[p].iter().enumerate() {
            let mut a = Vec::with_capacity(params[t].len());
            for &(r, _) in &params[t] {
                a.push(lookup(p, r).ok_or_else(|| internal(0, r))?);
            }
            args[p][k] = a;
        }
    }
    // Trivial parameters: replaced by their one incoming value.
    let nv = classes_of_vreg.len();
    let mut subst: Vec<u32> = (0..nv as u32).collect();
    let resolve = |subst: &[u32], v: VReg| -> VReg {
        let mut i = v.vreg();
        while subst[i] as usize != i {
            i = subst[i] as usize;
        }
        VReg::new(i, v.class())
    };
    let mut removed = vec![Vec::new(); nr];
    for (t, ps) in params.iter().enumerate() {
        removed[t] = vec![false; ps.len()];
    }
    let mut changed = true;
    while changed {
        changed = false;
        for t in 0..nr {
            for i in 0..params[t].len() {
                if removed[t][i] {
                    continue;
                }
                let v = resolve(&subst, params[t][i].1);
                let mut only: Option<VReg> = None;
                let mut trivial = true;
                for &p in &preds[t] {
                    let k = succs[p].iter().position(|&s| s == t).unwrap_or(0);
                    let w = resolve(&subst, args[p][k][i]);
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
                    removed[t][i] = true;
                    changed = true;
                }
            }
        }
    }
    for o in ops_pool.iter_mut() {
        let v = resolve(&subst, o.vreg());
        if v != o.vreg() {
            *o = Operand::new(v, o.constraint(), o.kind(), o.pos());
        }
    }
    let mut blocks: Vec<RaBlock> = Vec::with_capacity(nr);
    for t in 0..nr {
        let keep = |i: usize| !removed[t][i];
        let ps: Vec<VReg> = (0..params[t].len())
            .filter(|&i| keep(i))
            .map(|i| params[t][i].1)
            .collect();
        blocks.push(RaBlock {
            first: ranges[t].0,
            end: ranges[t].1,
            succs: succs[t].iter().map(|&s| Block::new(s)).collect(),
            preds: preds[t].iter().map(|&p| Block::new(p)).collect(),
            params: ps,
            args: Vec::new(),
        });
    }
    for p in 0..nr {
        let mut a = Vec::with_capacity(succs[p].len());
        for (k, &t) in succs[p].iter().enumerate() {
            a.push(
                (0..params[t].len())
                    .filter(|&i| !removed[t][i])
                    .map(|i| resolve(&subst, args[p][k][i]))
                    .collect::<Vec<VReg>>(),
            );
        }
        blocks[p].args = a;
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
        if blocks[p].succs.len() < 2 && !term_reads {
            continue;
        }
        for k in 0..blocks[p].succs.len() {
            let t = blocks[p].succs[k].index();
            if blocks[t].preds.len() < 2 {
                continue;
            }
            let s = blocks.len();
            let at = kinds.len() as u32;
            kinds.push(Kind::Branch);
            op_range.push((0, 0));
            name_range.push((0, 0));
            let a = std::mem::take(&mut blocks[p].args[k]);
            blocks.push(RaBlock {
                first: at,
                end: at + 1,
                succs: vec![Block::new(t)],
                preds: vec![Block::new(p)],
                params: Vec::new(),
                args: vec![a],
            });
            blocks[p].succs[k] = Block::new(s);
            for q in blocks[t].preds.iter_mut() {
                if q.index() == p {
                    *q = Block::new(s);
                }
            }
            splits.push(Split {
                from: p.checked_sub(1),
                to: t - 1,
                block: s,
            });
        }
    }
    // Blocks (and their instructions) in reverse postorder: `regalloc2`'s checker visits
    // blocks in index order and loses what it knows at a block it reaches before any of
    // its forward predecessors.
    let nall = blocks.len();
    let mut order = Vec::with_capacity(nall);
    {
        let mut seen = vec![false; nall];
        let mut stack = vec![(0usize, 0usize)];
        seen[0] = true;
        while let Some(&mut (x, ref mut i)) = stack.last_mut() {
            if let Some(s) = blocks[x].succs.get(*i).map(|b| b.index()) {
                *i += 1;
                if !seen[s] {
                    seen[s] = true;
                    stack.push((s, 0));
                }
            } else {
                order.push(x);
                stack.pop();
            }
        }
        order.reverse();
        order.extend((0..nall).filter(|&x| !seen[x]));
    }
    let mut new_block = vec![0usize; nall];
    for (k, &b) in order.iter().enumerate() {
        new_block[b] = k;
    }
    let mut new_inst = vec![0u32; kinds.len()];
    let mut next = 0u32;
    for &b in &order {
        for i in blocks[b].first..blocks[b].end {
            new_inst[i as usize] = next;
            next += 1;
        }
    }
    let mut kinds2 = vec![Kind::Plain; kinds.len()];
    let mut old_inst = vec![0usize; kinds.len()];
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
    for s in splits.iter_mut() {
        s.block = new_block[s.block];
    }
    let mut slots: Vec<Option<RaBlock>> = blocks.into_iter().map(Some).collect();
    let mut blocks = Vec::with_capacity(nall);
    for &b in &order {
        let Some(mut blk) = slots[b].take() else {
            continue;
        };
        let len = blk.end - blk.first;
        blk.first = new_inst[blk.first as usize];
        blk.end = blk.first + len;
        for x in blk.succs.iter_mut().chain(blk.preds.iter_mut()) {
            *x = Block::new(new_block[x.index()]);
        }
        blocks.push(blk);
    }
    let mut op_start = Vec::with_capacity(kinds.len() + 1);
    let mut name_start = Vec::with_capacity(kinds.len() + 1);
    let (mut ops, mut names) = (
        Vec::with_capacity(ops_pool.len()),
        Vec::with_capacity(names_pool.len()),
    );
    for &i in &old_inst {
        op_start.push(ops.len() as u32);
        name_start.push(names.len() as u32);
        ops.extend_from_slice(ranged(&ops_pool, op_range[i]));
        names.extend_from_slice(ranged(&names_pool, name_range[i]));
    }
    op_start.push(ops.len() as u32);
    name_start.push(names.len() as u32);
    Ok(RaFunc {
        blocks,
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
