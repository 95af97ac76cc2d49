//! Register pressure of the SSA form: the most values of each class live at one point,
//! which is how many registers `regalloc2` is given first (it spreads values over every
//! register it has, so more registers than that would only raise the register count).

use super::ssa::RaFunc;
use regalloc2::{OperandKind, OperandPos, RegClass};
use std::cell::RefCell;

use super::bits::{has, insert as set, members, remove as clear};

fn slot(c: RegClass) -> usize {
    match c {
        RegClass::Int => 0,
        RegClass::Float => 1,
        RegClass::Vector => 2,
    }
}

/// Work lists kept from body to body (bodies are small and many); sets over values, the
/// per-block ones as rows of `words` words in one vector.
#[derive(Default)]
struct Scratch {
    class: Vec<RegClass>,
    live_in: Vec<u64>,
    gen: Vec<u64>,
    kill: Vec<u64>,
    live: Vec<u64>,
    seen: Vec<usize>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::default();
}

/// The peak numbers of live 32-bit values, 64-bit values and predicates, and the most of
/// each one instruction names (fewer registers than that cannot work at all).
pub fn peak(f: &RaFunc) -> ([usize; 3], [usize; 3]) {
    SCRATCH.with(|s| peak_with(&mut s.borrow_mut(), f))
}

fn peak_with(s: &mut Scratch, f: &RaFunc) -> ([usize; 3], [usize; 3]) {
    let nv = f.num_vregs;
    let nb = f.blocks.len();
    let words = nv.div_ceil(64);
    let Scratch {
        class,
        live_in,
        gen,
        kill,
        live,
        seen,
    } = s;
    class.clear();
    class.resize(nv, RegClass::Int);
    for o in &f.ops {
        class[o.vreg().vreg()] = o.vreg().class();
    }
    for b in 0..f.blocks.len() {
        for v in f.params(b).iter().chain(f.all_args(b)) {
            class[v.vreg()] = v.class();
        }
    }
    let ops = |i: usize| f.inst_ops(i);
    let row = |b: usize| b * words..(b + 1) * words;
    // Per block, the values it reads before defining them (`gen`) and those it defines
    // (`kill`); a value both defined and read by one instruction is read first.
    for v in [&mut *gen, &mut *kill, &mut *live_in] {
        v.clear();
        v.resize(nb * words, 0);
    }
    for b in 0..nb {
        let blk = &f.blocks[b];
        let (g, k) = (&mut gen[row(b)], &mut kill[row(b)]);
        for i in (blk.first..blk.end).rev() {
            for o in ops(i as usize) {
                if o.kind() == OperandKind::Def {
                    clear(g, o.vreg().vreg());
                    set(k, o.vreg().vreg());
                }
            }
            for o in ops(i as usize) {
                if o.kind() == OperandKind::Use {
                    set(g, o.vreg().vreg());
                }
            }
        }
    }
    // Live-in sets: values used before defined in the block, plus the arguments it passes
    // and what its successors need, minus its definitions and its parameters (the least
    // fixpoint, as walking every instruction in every round would find).
    live.clear();
    live.resize(words, 0);
    let mut changed = true;
    while changed {
        changed = false;
        for b in (0..nb).rev() {
            live.fill(0);
            for (k, t) in f.succs(b).iter().enumerate() {
                let params = f.params(t.index());
                for v in members(&live_in[row(t.index())]) {
                    if !params.iter().any(|p| p.vreg() == v) {
                        set(live, v);
                    }
                }
                for a in f.args(b, k) {
                    set(live, a.vreg());
                }
            }
            for ((x, k), g) in live.iter_mut().zip(&kill[row(b)]).zip(&gen[row(b)]) {
                *x = (*x & !k) | g;
            }
            for p in f.params(b) {
                clear(live, p.vreg());
            }
            for (w, x) in live_in[row(b)].iter_mut().zip(live.iter()) {
                if *w | *x != *w {
                    *w |= *x;
                    changed = true;
                }
            }
        }
    }
    let mut peak = [0usize; 3];
    let mut need = [0usize; 3];
    for i in 0..f.kinds.len() {
        // At the instruction's start its distinct sources and early definitions; at its
        // end its definitions (a reused source's register is the definition's).
        let (mut early, mut late) = ([0usize; 3], [0usize; 3]);
        seen.clear();
        for o in ops(i) {
            let v = o.vreg().vreg();
            let c = slot(class[v]);
            match (o.kind(), o.pos()) {
                (OperandKind::Use, _) if !seen.contains(&v) => {
                    seen.push(v);
                    early[c] += 1;
                }
                (OperandKind::Def, OperandPos::Early) => {
                    early[c] += 1;
                    late[c] += 1;
                }
                (OperandKind::Def, _) => late[c] += 1,
                _ => {}
            }
        }
        for c in 0..3 {
            need[c] = need[c].max(early[c]).max(late[c]);
        }
    }
    for b in 0..nb {
        let blk = &f.blocks[b];
        live.fill(0);
        let mut count = [0usize; 3];
        let add = |live: &mut [u64], count: &mut [usize; 3], v: usize| {
            if set(live, v) {
                count[slot(class[v])] += 1;
            }
        };
        for (k, t) in f.succs(b).iter().enumerate() {
            let params = f.params(t.index());
            for v in members(&live_in[row(t.index())]) {
                if !params.iter().any(|p| p.vreg() == v) {
                    add(live, &mut count, v);
                }
            }
            for a in f.args(b, k) {
                add(live, &mut count, a.vreg());
            }
        }
        for i in (blk.first..blk.end).rev() {
            // After the instruction: what lives on, and every definition.
            let mut late = count;
            let mut early = count;
            for o in ops(i as usize) {
                let v = o.vreg().vreg();
                if o.kind() == OperandKind::Def && !has(live, v) {
                    late[slot(class[v])] += 1;
                }
                if o.kind() == OperandKind::Def && has(live, v) && o.pos() == OperandPos::Late {
                    early[slot(class[v])] -= 1;
                }
            }
            // At its start: what passes through, its sources and its early definitions.
            for o in ops(i as usize) {
                let v = o.vreg().vreg();
                let passes = has(live, v);
                match (o.kind(), o.pos()) {
                    (OperandKind::Use, _) if !passes => early[slot(class[v])] += 1,
                    (OperandKind::Def, OperandPos::Early) if !passes => early[slot(class[v])] += 1,
                    _ => {}
                }
            }
            for c in 0..3 {
                peak[c] = peak[c].max(late[c]).max(early[c]);
            }
            for o in ops(i as usize) {
                if o.kind() == OperandKind::Def && clear(live, o.vreg().vreg()) {
                    count[slot(class[o.vreg().vreg()])] -= 1;
                }
            }
            for o in ops(i as usize) {
                if o.kind() == OperandKind::Use {
                    add(live, &mut count, o.vreg().vreg());
                }
            }
        }
    }
    (peak, need)
}
