//! Carry chains across blocks. PTX's carry flag (`CC.CF`) is written only by the `.cc`
//! producers (`add.cc sub.cc mad.cc addc.cc subc.cc madc.cc`) and read by `addc subc madc`;
//! a chain may be split by branches, and a consumer with no producer on any path reads the
//! flag's initial value, 0 (the PTX executor's per-warp flag starts at 0; ptx-extended-
//! precision §9.7.2: the carry-in is `CC.CF`, whatever set it last).
//!
//! Fermi's CC is per thread and survives branches; nothing the translator places between
//! blocks writes it (edge moves are `MOV`s, the reconvergence and funnel code is
//! `SSY/SYNC/PBK/BRK/BRA` and `ISETP`s, which write predicates, not CC). So a block whose
//! carry is live on entry starts with the chain its predecessors all end with
//! ([`carry_in`]): the selector then keeps it as within a block, refusing any instruction
//! that would overwrite it. A consumer reached only by paths without a producer finds the
//! flag set first to PTX's 0 (`IADD RZ.CC, RZ, RZ` for an addition chain; for a subtraction
//! chain Fermi's flag is the complement of PTX's borrow, so 1: `IADD RZ.CC, RZ, -RZ`, the
//! carry of `0 + ~0 + 1`). Paths that disagree (a chain on one, none or the other kind on
//! another) are refused.

use super::{Chain, Selector};
use crate::cfg::Cfg;
use ir::{Inst, Opcode};
use isa::Flag;

/// What a block finds in the carry flag on entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CarryIn {
    /// Not reached yet by the analysis.
    Unvisited,
    /// The flag holds this chain's carry (or borrow) on every path.
    Pending(Chain),
    /// No producer on any path: PTX's flag is its initial 0, Fermi's CC not set for it.
    Zero,
    /// Paths disagree, or a consumer without `.cc` or a call lies between (the selector no
    /// longer follows the chain there).
    Unknown,
}

fn meet(a: CarryIn, b: CarryIn) -> CarryIn {
    match (a, b) {
        (CarryIn::Unvisited, x) | (x, CarryIn::Unvisited) => x,
        (x, y) if x == y => x,
        _ => CarryIn::Unknown,
    }
}

fn kind(inst: &Inst) -> Chain {
    if matches!(inst.op, Opcode::Sub | Opcode::Subc) {
        Chain::Sub
    } else {
        Chain::Add
    }
}

fn produces(inst: &Inst) -> bool {
    inst.mods.has(Flag::Cc)
        && matches!(
            inst.op,
            Opcode::Add | Opcode::Sub | Opcode::Mad | Opcode::Addc | Opcode::Subc | Opcode::Madc
        )
}

fn consumes(inst: &Inst) -> bool {
    matches!(inst.op, Opcode::Addc | Opcode::Subc | Opcode::Madc)
}

/// The state after `insts` from `state`, as the selector tracks it.
fn transfer(mut state: CarryIn, insts: &[Inst]) -> CarryIn {
    for i in insts {
        state = if produces(i) {
            // A guarded producer leaves its skipped lanes' flag: one chain only if they
            // already held this kind's (see `prepare_guarded_producer`).
            match state {
                _ if i.guard.is_none() => CarryIn::Pending(kind(i)),
                CarryIn::Zero => CarryIn::Pending(kind(i)),
                CarryIn::Pending(k) if k == kind(i) => state,
                _ => CarryIn::Unknown,
            }
        } else if consumes(i) || i.op == Opcode::Call {
            // The selector forgets a chain after a consumer without .cc; PTX's initial 0
            // stays (only producers write the flag), but a callee may write Fermi's CC.
            match (state, i.op) {
                (CarryIn::Zero, op) if op != Opcode::Call => CarryIn::Zero,
                _ => CarryIn::Unknown,
            }
        } else {
            state
        };
    }
    state
}

/// Each block's carry on entry, `None` where no consumer may read it before a producer
/// (then nothing needs keeping). `entry_zero`: the body starts with PTX's initial flag (a
/// kernel); a `.func` starts with its caller's, unknown here.
pub fn carry_in(cfg: &Cfg, body: &[Inst], entry_zero: bool) -> Vec<Option<CarryIn>> {
    let n = cfg.blocks.len();
    let insts = |b: usize| {
        let blk = &cfg.blocks[b];
        body.get(blk.start..blk.end).unwrap_or(&[])
    };
    // Liveness: a consumer before any producer in the block, or none of either and live out.
    let mut live = vec![false; n];
    let mut changed = true;
    while changed {
        changed = false;
        for b in (0..n).rev() {
            let mut l = cfg.blocks[b].succs.iter().any(|&s| live[s]);
            for i in insts(b).iter().rev() {
                // A guarded producer passes its skipped lanes' flag on: it ends no liveness.
                if produces(i) && !consumes(i) && i.guard.is_none() {
                    l = false;
                }
                if consumes(i) {
                    l = true;
                }
            }
            if l != live[b] {
                live[b] = l;
                changed = true;
            }
        }
    }
    // Forward: the meet over the predecessors' ends.
    let mut input = vec![CarryIn::Unvisited; n];
    if n > 0 {
        input[0] = if entry_zero {
            CarryIn::Zero
        } else {
            CarryIn::Unknown
        };
    }
    let mut changed = true;
    while changed {
        changed = false;
        for b in 0..n {
            if input[b] == CarryIn::Unvisited {
                continue;
            }
            let out = transfer(input[b], insts(b));
            for &s in &cfg.blocks[b].succs {
                let m = meet(input[s], out);
                if m != input[s] {
                    input[s] = m;
                    changed = true;
                }
            }
        }
    }
    (0..n).map(|b| live[b].then_some(input[b])).collect()
}

impl Selector<'_> {
    /// Starts a block: the chain it continues, if its carry is live on entry.
    pub fn enter_block(&mut self, carry: Option<CarryIn>) {
        self.carry = match carry {
            Some(CarryIn::Pending(k)) => Some(k),
            _ => None,
        };
        self.carry_zero = carry == Some(CarryIn::Zero);
    }

    /// Before a consumer reading PTX's initial flag: Fermi's CC set to stand for it.
    pub(super) fn materialize_zero_carry(&mut self, inst: &Inst) {
        if !consumes(inst) || self.carry.is_some() || !self.carry_zero {
            return;
        }
        let k = kind(inst);
        self.emit("", zero_carry(k).into());
        self.carry = Some(k);
    }

    /// Before a guarded producer: the lanes its guard skips keep PTX's flag, and Fermi's CC,
    /// as they were. The two agree for this chain only if CC already stands for the flag in
    /// this chain's kind: a pending chain of the same kind, or PTX's initial 0 (CC is then
    /// set to stand for it first, for every lane). Otherwise returns false: the chain the
    /// producer starts is not kept, so a consumer of it is refused.
    pub(super) fn prepare_guarded_producer(&mut self, inst: &Inst) -> bool {
        if !produces(inst) || inst.guard.is_none() {
            return true;
        }
        let k = kind(inst);
        if self.carry == Some(k) {
            return true;
        }
        if self.carry.is_none() && self.carry_zero {
            self.emit("", zero_carry(k).into());
            return true;
        }
        false
    }

    /// After `inst`: the initial flag survives everything but a producer (or a call, which
    /// may write Fermi's CC).
    pub(super) fn track_zero_carry(&mut self, inst: &Inst) {
        if produces(inst) || inst.op == Opcode::Call {
            self.carry_zero = false;
        }
    }
}

/// Fermi's CC standing for PTX's flag 0 in a chain of kind `k` (a subtraction chain's flag
/// is the complement of the borrow).
fn zero_carry(k: Chain) -> &'static str {
    match k {
        Chain::Add => "IADD RZ.CC, RZ, RZ;",
        Chain::Sub => "IADD RZ.CC, RZ, -RZ;",
    }
}
