//! Register pressure of the SSA form: the most values of each class live at one point,
//! which is how many registers `regalloc2` is given first (it spreads values over every
//! register it has, so more registers than that would only raise the register count).

use super::ssa::RaFunc;
use regalloc2::{OperandKind, OperandPos, RegClass};

struct Set(Vec<u64>);

impl Set {
    fn new(n: usize) -> Set {
        Set(vec![0; n.div_ceil(64)])
    }
    fn has(&self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 == 1
    }
    fn set(&mut self, i: usize) -> bool {
        let was = self.has(i);
        self.0[i / 64] |= 1 << (i % 64);
        !was
    }
    fn clear(&mut self, i: usize) -> bool {
        let was = self.has(i);
        self.0[i / 64] &= !(1 << (i % 64));
        was
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

fn slot(c: RegClass) -> usize {
    match c {
        RegClass::Int => 0,
        RegClass::Float => 1,
        RegClass::Vector => 2,
    }
}

/// The peak numbers of live 32-bit values, 64-bit values and predicates, and the most of
/// each one instruction names (fewer registers than that cannot work at all).
pub fn peak(f: &RaFunc) -> ([usize; 3], [usize; 3]) {
    let nv = f.num_vregs;
    let nb = f.blocks.len();
    let mut class = vec![RegClass::Int; nv];
    for o in &f.ops {
        class[o.vreg().vreg()] = o.vreg().class();
    }
    for b in 0..f.blocks.len() {
        for v in f.params(b).iter().chain(f.all_args(b)) {
            class[v.vreg()] = v.class();
        }
    }
    let ops = |i: usize| &f.ops[f.op_start[i] as usize..f.op_start[i + 1] as usize];
    // Live-in sets: values used before defined in the block, plus the arguments it passes,
    // minus its parameters.
    let mut live_in: Vec<Set> = (0..nb).map(|_| Set::new(nv)).collect();
    let mut changed = true;
    // One scratch set for every block and round (bodies are small and many).
    let mut live = Set::new(nv);
    while changed {
        changed = false;
        for b in (0..nb).rev() {
            let blk = &f.blocks[b];
            live.0.fill(0);
            for (k, s) in f.succs(b).iter().enumerate() {
                let params = f.params(s.index());
                for v in live_in[s.index()].iter() {
                    if !params.iter().any(|p| p.vreg() == v) {
                        live.set(v);
                    }
                }
                for a in f.args(b, k) {
                    live.set(a.vreg());
                }
            }
            for i in (blk.first..blk.end).rev() {
                for o in ops(i as usize) {
                    if o.kind() == OperandKind::Def {
                        live.clear(o.vreg().vreg());
                    }
                }
                for o in ops(i as usize) {
                    if o.kind() == OperandKind::Use {
                        live.set(o.vreg().vreg());
                    }
                }
            }
            for p in f.params(b) {
                live.clear(p.vreg());
            }
            for (w, x) in live_in[b].0.iter_mut().zip(&live.0) {
                if *w | *x != *w {
                    *w |= *x;
                    changed = true;
                }
            }
        }
    }
    let mut peak = [0usize; 3];
    let mut need = [0usize; 3];
    let mut seen: Vec<usize> = Vec::new();
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
        live.0.fill(0);
        let mut count = [0usize; 3];
        let add = |live: &mut Set, count: &mut [usize; 3], v: usize| {
            if live.set(v) {
                count[slot(class[v])] += 1;
            }
        };
        for (k, s) in f.succs(b).iter().enumerate() {
            let params = f.params(s.index());
            for v in live_in[s.index()].iter() {
                if !params.iter().any(|p| p.vreg() == v) {
                    add(&mut live, &mut count, v);
                }
            }
            for a in f.args(b, k) {
                add(&mut live, &mut count, a.vreg());
            }
        }
        for i in (blk.first..blk.end).rev() {
            // After the instruction: what lives on, and every definition.
            let mut late = count;
            let mut early = count;
            for o in ops(i as usize) {
                let v = o.vreg().vreg();
                if o.kind() == OperandKind::Def && !live.has(v) {
                    late[slot(class[v])] += 1;
                }
                if o.kind() == OperandKind::Def && live.has(v) && o.pos() == OperandPos::Late {
                    early[slot(class[v])] -= 1;
                }
            }
            // At its start: what passes through, its sources and its early definitions.
            for o in ops(i as usize) {
                let v = o.vreg().vreg();
                let passes = live.has(v);
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
                if o.kind() == OperandKind::Def && live.clear(o.vreg().vreg()) {
                    count[slot(class[o.vreg().vreg()])] -= 1;
                }
            }
            for o in ops(i as usize) {
                if o.kind() == OperandKind::Use {
                    add(&mut live, &mut count, o.vreg().vreg());
                }
            }
        }
    }
    (peak, need)
}
