//! Register allocation by liveness: PTX registers whose live ranges do not overlap share a
//! Fermi register.
//!
//! Liveness is the usual backward dataflow over the CFG (a guarded definition does not kill:
//! lanes whose guard is false keep the old value). Two registers interfere when one is
//! defined while the other is live after the instruction, or is read by the same instruction
//! (destinations never share a register with the sources of their own instruction: several
//! selections write part of the result before reading every source, e.g. the two halves of
//! `mul.wide`). Registers are then coloured greedily in order of first appearance: 32-bit
//! values in R4–R62, 64-bit values in aligned pairs, predicates in P0–P6 (P6 is kept as scratch in bodies with div/rem or 64-bit setp; R0, R1 and R2:R3 are
//! the scratch registers and the stack pointer, see `regs.rs`).
//!
//! This is not yet the `regalloc2`-based allocator the design asks for: there is no
//! splitting of live ranges and no spilling; a kernel that needs more registers is an error.

use crate::cfg::Cfg;
use crate::regs::{width_of, Loc};
use ir::{AddrBase, Function, Inst, Operand};

/// Registers an instruction reads and writes.
pub(crate) fn uses_defs(inst: &Inst, uses: &mut Vec<usize>, defs: &mut Vec<usize>) {
    uses.clear();
    defs.clear();
    if let Some(g) = inst.guard {
        uses.push(g.reg.index());
    }
    for (i, o) in inst.operands.iter().enumerate() {
        let dst = inst
            .form
            .operands
            .get(i)
            .is_some_and(|f| f.kind.is_destination());
        collect(o, if dst { &mut *defs } else { &mut *uses });
        if let Operand::Address(a) = o {
            if let AddrBase::Reg(r) = a.base {
                uses.push(r.index());
            }
        }
    }
}

fn collect(o: &Operand, out: &mut Vec<usize>) {
    match o {
        Operand::Reg(r) | Operand::NotPred(r) | Operand::Neg(r) => out.push(r.index()),
        Operand::NegSelected { reg, .. } | Operand::Selected { reg, .. } => out.push(reg.index()),
        Operand::PredPair(p, q) => {
            out.push(p.index());
            if let Some(q) = q {
                out.push(q.index());
            }
        }
        Operand::Vector(v) | Operand::List(v) => {
            for e in v.iter() {
                collect(e, out);
            }
        }
        Operand::Texture { tex, coords, .. } => {
            if let ir::TexRef::Reg(r) = tex {
                out.push(r.index());
            }
            for e in coords.iter() {
                collect(e, out);
            }
        }
        _ => {}
    }
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
    fn clear(&mut self, i: usize) {
        self.0[i / 64] &= !(1 << (i % 64));
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
    /// The set bits, lowest first (one step per set bit, not per bit position).
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

/// `(d, s)` for an unguarded whole-register copy `mov d, s` between registers of one width
/// and kind, whose selection is `MOV`s that read `s` as they write `d` (or nothing when the
/// two share a register).
/// An unguarded `add d, s, z` (either order) of a register `zero` marks (a shared address 0
/// folded by `fold.rs`, selected as `MOV`s) is a copy too.
fn copied(f: &Function, inst: &Inst, zero: &[bool]) -> Option<(usize, usize)> {
    if inst.guard.is_some() {
        return None;
    }
    let is_zero = |o: &Operand| matches!(o, Operand::Reg(z) if zero.get(z.index()) == Some(&true));
    let (d, s) = match (inst.op, &inst.operands[..]) {
        (ir::Opcode::Mov, [Operand::Reg(d), Operand::Reg(s)]) => (d, s),
        (ir::Opcode::Add, [Operand::Reg(d), Operand::Reg(s), z]) if is_zero(z) => (d, s),
        (ir::Opcode::Add, [Operand::Reg(d), z, Operand::Reg(s)]) if is_zero(z) => (d, s),
        _ => return None,
    };
    let (rd, rs) = (f.regs.get(d.index())?, f.regs.get(s.index())?);
    let same = width_of(rd.ty) == width_of(rs.ty)
        && (rd.ty == ir::Type::Pred) == (rs.ty == ir::Type::Pred);
    (same && d != s).then_some((d.index(), s.index()))
}

/// Instructions whose selection is one Fermi instruction (or scratch set-up followed by it),
/// which reads every source before it writes the destination: their destination may share a
/// register with a source that dies there. Everything else keeps the conservative rule
/// (several selections write part of the result before reading every source).
fn reads_sources_first(inst: &Inst) -> bool {
    use ir::{Opcode as O, Type as T};
    if inst.guard.is_some() {
        return false;
    }
    let ty32 = matches!(inst.ty(), Some(T::U32 | T::S32 | T::B32 | T::F32));
    let plain_dst = matches!(
        inst.operands.first(),
        Some(Operand::Reg(_) | Operand::PredPair(..))
    ) && !inst
        .operands
        .iter()
        .any(|o| matches!(o, Operand::Vector(_) | Operand::List(_)));
    let op_ok = match inst.op {
        O::Add | O::Sub | O::And | O::Or | O::Xor | O::Not | O::Shl | O::Shr => true,
        O::Min | O::Max | O::Selp | O::Setp | O::Popc | O::Mov | O::Ld | O::Fma => true,
        O::Mul => matches!(
            inst.mods.mul_mode,
            None | Some(isa::MulMode::Lo | isa::MulMode::Hi)
        ),
        _ => false,
    };
    ty32 && plain_dst && op_ok
}

/// A 64-bit `add`/`sub` of pairs (or immediates): `IADD d.lo.CC, a.lo, b.lo` then
/// `IADD.X d.hi, a.hi, b.hi`. Pairs are aligned, so `d.lo` can only be a source's low word,
/// which nothing reads after the first instruction: the destination may take the pair of a
/// source that dies there. Not with registers a folded operand adds (`fold.rs`'s shifts
/// write the high word first), which the caller checks.
fn pairwise_add(f: &Function, inst: &Inst) -> bool {
    use ir::{Opcode as O, Type as T};
    let wide = |t: Option<T>| matches!(t, Some(T::U64 | T::S64 | T::B64));
    inst.guard.is_none()
        && matches!(inst.op, O::Add | O::Sub)
        && wide(inst.ty())
        && !inst.mods.has(ir::Flag::Cc)
        && !inst.mods.has(ir::Flag::Sat)
        && inst.operands.len() == 3
        && inst.operands.iter().all(|o| match o {
            Operand::Reg(r) => wide(f.regs.get(r.index()).map(|x| x.ty)),
            Operand::Imm(_) => true,
            _ => false,
        })
}

/// Why allocation failed: the instruction at which a register could not be placed.
pub struct AllocError {
    pub inst: usize,
    pub message: String,
}

/// A location for every register the body mentions.
/// Indexed by register (`RegId::index`); `None` for registers the body never names and for
/// those `skip` marks (parameters read from the constant bank, `fold.rs`: never in a register).
/// `zero` marks folded registers that stand for 0 (an `add` of one is a copy); `extra[i]`
/// are registers instruction `i`'s selection reads beyond its operands (`fold.rs`).
pub fn allocate(
    f: &Function,
    cfg: &Cfg,
    skip: &[bool],
    zero: &[bool],
    extra: &[Vec<usize>],
) -> Result<Vec<Option<Loc>>, AllocError> {
    let body = f.insts();
    let n = f.regs.len();
    let nb = cfg.blocks.len();
    let (mut u, mut d) = (Vec::new(), Vec::new());
    // A `.func`'s register return values are read by its epilogue at every `ret` (and at the
    // end of a body that falls off its end).
    let ret_regs: Vec<usize> = f
        .rets
        .iter()
        .filter_map(|p| match p {
            ir::Param::Reg(r) => Some(r.index()),
            ir::Param::Var(_) => None,
        })
        .collect();
    let last = body.len().wrapping_sub(1);
    let uses_defs = |at: usize, inst: &Inst, u: &mut Vec<usize>, d: &mut Vec<usize>| {
        uses_defs(inst, u, d);
        if inst.op == ir::Opcode::Ret || at == last {
            u.extend_from_slice(&ret_regs);
        }
        if let Some(x) = extra.get(at) {
            u.extend_from_slice(x);
        }
        if !skip.is_empty() {
            u.retain(|&r| !skip.get(r).copied().unwrap_or(false));
            d.retain(|&r| !skip.get(r).copied().unwrap_or(false));
        }
    };
    // A register whose only definition is guarded holds nothing before it: lanes whose
    // guard is false keep an undefined value either way, so that definition kills too (else
    // a predicated temporary would be live from the kernel's entry).
    let mut def_count = vec![0u32; n];
    for (at, inst) in body.iter().enumerate() {
        uses_defs(at, inst, &mut u, &mut d);
        for &r in &d {
            if let Some(c) = def_count.get_mut(r) {
                *c += 1;
            }
        }
    }
    let entry_regs: Vec<usize> = f
        .params
        .iter()
        .filter_map(|p| match p {
            ir::Param::Reg(r) => Some(r.index()),
            ir::Param::Var(_) => None,
        })
        .collect();
    // ... unless the definition can reach itself (a loop): then lanes whose guard is false
    // keep the previous iteration's value, which must stay in its register.
    let nb_all = cfg.blocks.len();
    let mut block_of = vec![usize::MAX; body.len()];
    for (b, blk) in cfg.blocks.iter().enumerate() {
        for slot in block_of.iter_mut().take(blk.end).skip(blk.start) {
            *slot = b;
        }
    }
    // Per block: whether it lies on a cycle (computed for blocks with guarded definitions).
    let mut cyclic: Vec<Option<bool>> = vec![None; nb_all];
    for (at, inst) in body.iter().enumerate() {
        if inst.guard.is_none() {
            continue;
        }
        let Some(&b) = block_of.get(at).filter(|&&b| b < nb_all) else {
            continue;
        };
        if cyclic[b].is_some() {
            continue;
        }
        cyclic[b] = Some({
            let mut seen = vec![false; nb_all];
            let mut work: Vec<usize> = cfg.blocks[b].succs.clone();
            while let Some(x) = work.pop() {
                if x < nb_all && !seen[x] {
                    seen[x] = true;
                    work.extend(cfg.blocks[x].succs.iter().copied());
                }
            }
            seen[b]
        });
    }
    let kills = |at: usize, inst: &Inst, r: usize| {
        inst.guard.is_none()
            || (def_count.get(r) == Some(&1)
                && !entry_regs.contains(&r)
                && block_of
                    .get(at)
                    .and_then(|&b| cyclic.get(b).copied().flatten())
                    .is_some_and(|c| !c))
    };
    // Per block: registers read before written (gen) and written unconditionally (kill).
    let mut gen = vec![Bits::new(n); nb];
    let mut kill = vec![Bits::new(n); nb];
    for (b, blk) in cfg.blocks.iter().enumerate() {
        for (k, inst) in body
            .get(blk.start..blk.end)
            .unwrap_or(&[])
            .iter()
            .enumerate()
        {
            uses_defs(blk.start + k, inst, &mut u, &mut d);
            for &r in &u {
                if !kill[b].has(r) {
                    gen[b].set(r);
                }
            }
            for &r in &d {
                if kills(blk.start + k, inst, r) {
                    kill[b].set(r);
                }
            }
        }
    }
    let mut live_in = vec![Bits::new(n); nb];
    let mut live_out = vec![Bits::new(n); nb];
    let mut changed = true;
    while changed {
        changed = false;
        for b in (0..nb).rev() {
            let mut out = Bits::new(n);
            for &s in &cfg.blocks[b].succs {
                out.union(&live_in[s]);
            }
            let mut inn = out.clone();
            for (w, (k, g)) in inn.0.iter_mut().zip(kill[b].0.iter().zip(&gen[b].0)) {
                *w = (*w & !k) | g;
            }
            changed |= live_out[b].union(&out);
            changed |= live_in[b].union(&inn);
        }
    }
    // Interference, walking each block backwards.
    let mut adj: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut edge = |a: usize, b: usize| {
        if a != b {
            adj[a].push(b);
            adj[b].push(a);
        }
    };
    let mut first_seen: Vec<Option<usize>> = vec![None; n];
    // Copies `d = s`: the two may share a register (coalescing), and the colouring prefers it.
    let mut partners: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (b, blk) in cfg.blocks.iter().enumerate() {
        let mut live = live_out[b].clone();
        for idx in (blk.start..blk.end).rev() {
            let Some(inst) = body.get(idx) else { continue };
            uses_defs(idx, inst, &mut u, &mut d);
            let copy = copied(f, inst, zero);
            if let Some((x, y)) = copy {
                partners[x].push(y);
                partners[y].push(x);
            }
            let reads_first = reads_sources_first(inst)
                || (pairwise_add(f, inst) && extra.get(idx).is_none_or(Vec::is_empty));
            for &x in &d {
                // At a copy the destination holds the source's value: no interference
                // between the two there (a later definition of either adds it).
                for y in live.iter() {
                    if copy != Some((x, y)) {
                        edge(x, y);
                    }
                }
                for &y in &d {
                    edge(x, y);
                }
                if !reads_first {
                    for &y in &u {
                        edge(x, y);
                    }
                }
            }
            for &x in &d {
                if kills(idx, inst, x) {
                    live.clear(x);
                }
            }
            for &x in &u {
                live.set(x);
            }
            for &x in u.iter().chain(&d) {
                let seen = &mut first_seen[x];
                *seen = Some(seen.map_or(idx, |s| s.min(idx)));
            }
        }
    }
    // Registers live on entry (a `.func`'s register parameters, or values read before any
    // write) are all defined "before" the body: they interfere with each other.
    if let Some(entry) = live_in.first() {
        let regs: Vec<usize> = entry.iter().collect();
        for (i, &x) in regs.iter().enumerate() {
            for &y in &regs[i + 1..] {
                edge(x, y);
            }
        }
    }
    let mut order: Vec<(usize, usize)> = first_seen
        .iter()
        .enumerate()
        .filter_map(|(r, s)| s.map(|s| (s, r)))
        .collect();
    order.sort_unstable();
    // P6 is kept free for the div/rem sequences' scratch predicate only where they occur.
    let preds = if f.insts().iter().any(crate::select::needs_scratch_pred) {
        crate::regs::SCRATCH_PRED
    } else {
        crate::regs::SCRATCH_PRED + 1
    };
    // R4–R13 are kept free for the f32 division sequence's f64 temporaries where it occurs.
    let first = if f.insts().iter().any(crate::select::needs_f64_scratch) {
        14
    } else {
        4
    };
    let mut loc: Vec<Option<Loc>> = vec![None; n];
    for &(at, r) in &order {
        let reg = &f.regs[r];
        let taken: Vec<Loc> = adj[r].iter().filter_map(|&o| loc[o]).collect();
        let occupies = |l: Loc, g: u8| match l {
            Loc::Gpr(x) => x == g,
            Loc::Pair(x) => x == g || x + 1 == g,
            Loc::Pred(_) => false,
        };
        let gpr_free = |g: u8| !taken.iter().any(|&l| occupies(l, g));
        let free = |l: Loc| match l {
            Loc::Gpr(g) => g >= first && gpr_free(g),
            Loc::Pair(g) => g >= first && gpr_free(g) && gpr_free(g + 1),
            Loc::Pred(p) => p < preds && !taken.contains(&l),
        };
        // A copy's partner already placed: take its register if free (the copy vanishes).
        let preferred = partners[r]
            .iter()
            .filter_map(|&p| loc[p])
            .find(|&l| free(l));
        let chosen = match width_of(reg.ty) {
            _ if preferred.is_some() => preferred,
            Some(1) => (0..preds)
                .find(|&p| !taken.contains(&Loc::Pred(p)))
                .map(Loc::Pred),
            Some(64) => (first..=61u8)
                .step_by(2)
                .find(|&g| gpr_free(g) && gpr_free(g + 1))
                .map(Loc::Pair),
            Some(_) => (first..=62u8).find(|&g| gpr_free(g)).map(Loc::Gpr),
            None => {
                return Err(AllocError {
                    inst: at,
                    message: format!(
                        "`{}` is a .b128 register, which sm_20 has no registers for",
                        reg.name
                    ),
                })
            }
        };
        match chosen {
            Some(l) => loc[r] = Some(l),
            None => {
                let what = if reg.ty == ir::Type::Pred {
                    "more predicates live at once than P0-P6 (P0-P5 with div/rem or 64-bit setp)"
                } else {
                    "more than 59 general registers live at once"
                };
                return Err(AllocError {
                    inst: at,
                    message: format!(
                        "out of registers at `{}`: {what}; spilling is not yet implemented",
                        reg.name
                    ),
                });
            }
        }
    }
    Ok(loc)
}
