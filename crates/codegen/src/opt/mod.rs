//! Clean-ups of a function body before selection, on the checked IR with def-use facts.
//!
//! Why not a separate SSA form: the PTX today's compilers emit is already nearly SSA (one
//! definition per virtual register; only loop-carried values are redefined), and selection,
//! allocation and the reconvergence plan all read the checked IR. The passes therefore
//! work on the IR directly and only touch registers with exactly one unguarded definition
//! that dominates every use: for those, "the value of `d`" is one value, exactly as in SSA,
//! and rewriting uses needs no φ-functions. Registers defined more than once (loop-carried
//! values), guarded definitions, a `.func`'s register parameters and results, and the
//! registers of `call` lists are left alone.
//!
//! Passes, in order: copy propagation (`mov d, a` and `cvta.to.global`, a copy on sm_20),
//! constant propagation with folding through `ops` (`propagate.rs`), common-subexpression
//! elimination of pure instructions such as address arithmetic, with complementary `setp`s
//! as one predicate and its negation (`cse.rs`), 32-bit arithmetic for the 64-bit addresses
//! of `.shared`/`.local` accesses (`narrow.rs`), dead-code
//! elimination (`dce.rs`), which also compacts the body and renumbers branch targets, and
//! in entries the sinking of parameter loads and constants to their uses (`sink.rs`); last,
//! short regions skipped by a divergent branch become guarded instructions (`predicate.rs`).
//!
//! Parameters are not folded here: selection already reads an entry's `ld.param` straight
//! from `c [0x0] [0x20+offset]`.

mod cse;
mod dce;
mod narrow;
mod predicate;
mod propagate;
mod sink;

use crate::cfg::{self, Cfg};
use ir::{AddrBase, Function, Inst, Opcode, Operand, RegId};

/// The body of `f` after the clean-ups (a copy; `f` is untouched). Bodies too large for the
/// dense dominator sets are returned unchanged.
pub fn optimize(f: &Function) -> Function {
    let mut g = f.clone();
    let Some(body) = g.body.as_mut() else {
        return g;
    };
    // The passes renumber `Label` operands only, not `brx.idx` target lists.
    if body.is_empty() || body.len() > 60_000 || body.iter().any(|i| i.op == Opcode::Brx) {
        return g;
    }
    let graph = cfg::build_cfg(body);
    if graph.blocks.len() > cfg::MAX_BLOCKS {
        return g;
    }
    let mut body = g.body.take().unwrap_or_default();
    // Rewriting operands leaves the blocks as they are: one dominator computation serves
    // the three passes.
    let mut facts = Facts::new(&g, &body, &graph);
    propagate::copies(&mut body, &facts, &g);
    facts.recount(&g, &body);
    propagate::constants(&mut body, &facts, &g);
    facts.recount(&g, &body);
    cse::run(&mut body, &facts, &g);
    if let Some(map) = narrow::run(&mut body, &mut g.regs, &facts) {
        for (_, at) in g.labels.iter_mut() {
            at.0 = map[at.index().min(map.len() - 1)];
        }
    }
    // Registers made by the passes above are never pinned.
    let mut pinned = facts.pinned.clone();
    pinned.resize(g.regs.len(), false);
    let renumber = dce::run(&mut body, g.regs.len(), &pinned);
    for (_, at) in g.labels.iter_mut() {
        at.0 = renumber(at.index());
    }
    if g.kind == ir::FuncKind::Entry && body.iter().any(sink::needs_no_register) {
        let graph = cfg::build_cfg(&body);
        let facts = Facts::new(&g, &body, &graph);
        if let Some(target) = sink::run(&mut body, &mut g.regs, &facts, &graph) {
            for (_, at) in g.labels.iter_mut() {
                at.0 = target[at.index().min(target.len() - 1)];
            }
        }
    }
    let removed = predicate::run(&mut body);
    let renumber = dce::compact(&mut body, &removed);
    for (_, at) in g.labels.iter_mut() {
        at.0 = renumber[at.index().min(renumber.len() - 1)];
    }
    g.body = Some(body);
    g
}

/// Def-use facts of one body, and dominance at instruction granularity.
pub(crate) struct Facts {
    /// Definitions per register.
    pub defs: Vec<u32>,
    /// The only definition, when there is exactly one and it is unguarded.
    pub single_def: Vec<Option<usize>>,
    /// Reads per register.
    pub uses: Vec<u32>,
    /// Registers the passes must not touch: `.func` parameters/results, `call` lists.
    pub pinned: Vec<bool>,
    block_of: Vec<usize>,
    dom: Vec<Vec<u64>>,
}

impl Facts {
    fn new(f: &Function, body: &[Inst], graph: &Cfg) -> Facts {
        let mut facts = Facts {
            defs: Vec::new(),
            single_def: Vec::new(),
            uses: Vec::new(),
            pinned: Vec::new(),
            block_of: vec![0; body.len()],
            dom: cfg::dominator_rows(graph),
        };
        for (b, blk) in graph.blocks.iter().enumerate() {
            for i in blk.start..blk.end.min(body.len()) {
                facts.block_of[i] = b;
            }
        }
        facts.recount(f, body);
        facts
    }

    /// Counts definitions and uses again after operands were rewritten (the instructions and
    /// so the blocks and dominators are unchanged).
    fn recount(&mut self, f: &Function, body: &[Inst]) {
        let n = f.regs.len();
        let facts = self;
        facts.defs = vec![0; n];
        facts.single_def = vec![None; n];
        facts.uses = vec![0; n];
        facts.pinned = vec![false; n];
        for p in f.params.iter().chain(f.rets.iter()) {
            if let ir::Param::Reg(r) = p {
                if let Some(x) = facts.pinned.get_mut(r.index()) {
                    *x = true;
                }
            }
        }
        for (i, inst) in body.iter().enumerate() {
            visit(inst, &mut |r, role| {
                let Some(k) = (r.index() < n).then_some(r.index()) else {
                    return;
                };
                match role {
                    Role::Def => {
                        facts.defs[k] += 1;
                        facts.single_def[k] =
                            (facts.defs[k] == 1 && inst.guard.is_none()).then_some(i);
                    }
                    Role::Use => facts.uses[k] += 1,
                    Role::Pinned => facts.pinned[k] = true,
                }
            });
        }
    }

    /// The block of instruction `i`.
    pub fn block_of(&self, i: usize) -> usize {
        self.block_of[i]
    }

    /// Whether instruction `a` executes before `b` on every path to `b`.
    pub fn dominates(&self, a: usize, b: usize) -> bool {
        let (ba, bb) = (self.block_of[a], self.block_of[b]);
        if ba == bb {
            return a < b;
        }
        self.dom[bb][ba / 64] >> (ba % 64) & 1 == 1
    }

    /// The single unguarded definition of `r` if `r` is not pinned.
    pub fn value_def(&self, r: RegId) -> Option<usize> {
        let k = r.index();
        if *self.pinned.get(k)? {
            return None;
        }
        self.single_def[k]
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Role {
    Def,
    Use,
    Pinned,
}

/// Whether operand `k` of `inst` is written by it.
pub(crate) fn is_dst(inst: &Inst, k: usize) -> bool {
    inst.form
        .operands
        .get(k)
        .is_some_and(|o| o.kind.is_destination())
}

/// Every register `inst` names, with what it does to it.
pub(crate) fn visit(inst: &Inst, f: &mut dyn FnMut(RegId, Role)) {
    if let Some(g) = inst.guard {
        f(g.reg, Role::Use);
    }
    let call = inst.op == Opcode::Call;
    for (k, o) in inst.operands.iter().enumerate() {
        let role = if call {
            Role::Pinned
        } else if is_dst(inst, k) {
            Role::Def
        } else {
            Role::Use
        };
        visit_operand(o, role, f);
    }
    if call {
        // A call's lists are read and written by the call's own convention: keep them as
        // they are, and count them so no register is thought dead or single-defined.
        for o in inst.operands.iter() {
            visit_operand(o, Role::Def, f);
            visit_operand(o, Role::Use, f);
        }
    }
}

fn visit_operand(o: &Operand, role: Role, f: &mut dyn FnMut(RegId, Role)) {
    match o {
        Operand::Reg(r) | Operand::NotPred(r) | Operand::Neg(r) => f(*r, role),
        Operand::NegSelected { reg, .. } | Operand::Selected { reg, .. } => f(*reg, role),
        Operand::PredPair(p, q) => {
            f(*p, role);
            if let Some(q) = q {
                f(*q, role);
            }
        }
        Operand::Vector(v) => v.iter().for_each(|e| visit_operand(e, role, f)),
        // Registers in a parenthesised list are a call's arguments: never rewritten.
        Operand::List(v) => v.iter().for_each(|e| visit_operand(e, Role::Pinned, f)),
        Operand::Address(a) => {
            if let AddrBase::Reg(r) = a.base {
                // The base of an address is read even in a destination position (`st`).
                f(
                    r,
                    if role == Role::Pinned {
                        role
                    } else {
                        Role::Use
                    },
                );
            }
        }
        Operand::Texture { tex, coords, .. } => {
            if let ir::TexRef::Reg(r) = tex {
                f(*r, Role::Pinned);
            }
            coords
                .iter()
                .for_each(|e| visit_operand(e, Role::Pinned, f));
        }
        _ => {}
    }
}

/// Registers read by `inst`, rewritten by `map` (guard, sources, address bases).
pub(crate) fn rewrite_uses(inst: &mut Inst, map: &mut dyn FnMut(RegId) -> Option<RegId>) {
    if let Some(g) = inst.guard.as_mut() {
        if let Some(r) = map(g.reg) {
            g.reg = r;
        }
    }
    if inst.op == Opcode::Call {
        return;
    }
    for k in 0..inst.operands.len() {
        let dst = is_dst(inst, k);
        rewrite_operand(&mut inst.operands[k], dst, map);
    }
}

fn rewrite_operand(o: &mut Operand, dst: bool, map: &mut dyn FnMut(RegId) -> Option<RegId>) {
    match o {
        Operand::Reg(r) | Operand::NotPred(r) | Operand::Neg(r) if !dst => {
            if let Some(x) = map(*r) {
                *r = x;
            }
        }
        Operand::NegSelected { reg, .. } | Operand::Selected { reg, .. } if !dst => {
            if let Some(x) = map(*reg) {
                *reg = x;
            }
        }
        Operand::Vector(v) if !dst => v.iter_mut().for_each(|e| rewrite_operand(e, dst, map)),
        Operand::Address(a) => {
            if let AddrBase::Reg(r) = &mut a.base {
                if let Some(x) = map(*r) {
                    *r = x;
                }
            }
        }
        _ => {}
    }
}

/// The register written by a one-destination instruction, `None` for anything else.
pub(crate) fn single_dst(inst: &Inst) -> Option<RegId> {
    let mut dst = None;
    let mut n = 0;
    for (k, o) in inst.operands.iter().enumerate() {
        if is_dst(inst, k) {
            match o {
                Operand::Reg(r) => {
                    dst = Some(*r);
                    n += 1;
                }
                Operand::PredPair(p, None) => {
                    dst = Some(*p);
                    n += 1;
                }
                _ => return None,
            }
        }
    }
    (n == 1).then_some(dst).flatten()
}

/// Instructions with no effect but their destination register: they may be removed when it
/// is unused, and two with equal sources compute equal values. Carry-flag instructions are
/// not (the flag is state), nor loads other than an entry's parameters and `.const` data.
pub(crate) fn is_pure(inst: &Inst) -> bool {
    use ir::Flag;
    if inst.mods.has(Flag::Cc) || inst.mods.sem.is_some() {
        return false;
    }
    // Two reads of a clock are two values (it counts the instructions between them).
    let clock = |o: &Operand| {
        matches!(
            o,
            Operand::Special {
                reg: isa::SpecialReg::Clock | isa::SpecialReg::Clock64,
                ..
            }
        )
    };
    match inst.op {
        Opcode::Mov if inst.operands.iter().any(clock) => false,
        Opcode::Mov
        | Opcode::Add
        | Opcode::Sub
        | Opcode::Mul
        | Opcode::Mad
        | Opcode::And
        | Opcode::Or
        | Opcode::Xor
        | Opcode::Not
        | Opcode::Cnot
        | Opcode::Shl
        | Opcode::Shr
        | Opcode::Neg
        | Opcode::Abs
        | Opcode::Min
        | Opcode::Max
        | Opcode::Popc
        | Opcode::Clz
        | Opcode::Bfe
        | Opcode::Bfi
        | Opcode::Prmt
        | Opcode::Selp
        | Opcode::Setp
        | Opcode::Cvt
        | Opcode::Cvta
        | Opcode::Mul24
        | Opcode::Mad24
        | Opcode::Fma => single_dst(inst).is_some(),
        Opcode::Ld => {
            matches!(inst.mods.space, Some(ir::Space::Param | ir::Space::Const))
                && single_dst(inst).is_some()
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests;
