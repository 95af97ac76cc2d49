//! One register file for both classes after the fact.
//!
//! `regalloc2` cannot share registers between 32-bit values and aligned pairs (no aliasing
//! between classes), so each body's file is split between the two, and a split sized by each
//! class's peak needs more registers than values ever live at once when the peaks are at
//! different points. This pass renames whole registers afterwards: from the final code (every
//! operand's register and every move), liveness of each physical register, an interference
//! graph over them (a register written where another is live, or two registers of one
//! instruction, which may write before it reads), and a greedy colouring onto R`first`… with
//! pairs aligned, preferring a move partner's register (the move then vanishes). A consistent
//! renaming of whole registers in which interfering registers stay apart keeps every value
//! where its readers look for it. The scratch registers (below `first`) are left alone.

use super::ssa::RaFunc;
use super::{Move, Place};
use crate::regs::Loc;
use regalloc2::OperandKind;

/// The general register a location names as a node (a pair by its even register), if it is
/// one this pass renames.
fn node(l: Loc, first: u8) -> Option<u8> {
    match l {
        Loc::Gpr(g) | Loc::Pair(g) if g >= first && g < 64 => Some(g),
        _ => None,
    }
}

fn bits(l: Loc) -> u64 {
    match l {
        Loc::Gpr(g) => 1u64 << g,
        Loc::Pair(g) => 3u64 << g,
        Loc::Pred(_) => 0,
    }
}

pub fn rename(
    func: &RaFunc,
    allocs: &mut [Loc],
    alloc_start: &[u32],
    moves: &mut [Move],
    first: u8,
) {
    let ni = func.kinds.len();
    // Moves by instruction and side (bucket `2i` before instruction `i`, `2i + 1` after
    // it), each bucket in the moves' order: one counting sort, not a list per instruction.
    let bucket = |m: &Move| 2 * m.0 as usize + usize::from(m.1);
    let mut start = vec![0u32; 2 * ni + 1];
    for m in moves.iter() {
        start[bucket(m) + 1] += 1;
    }
    for k in 1..start.len() {
        start[k] += start[k - 1];
    }
    let mut by_bucket = vec![0usize; moves.len()];
    let mut fill = start.clone();
    for (k, m) in moves.iter().enumerate() {
        let b = bucket(m);
        by_bucket[fill[b] as usize] = k;
        fill[b] += 1;
    }
    let moves_at = |b: usize| &by_bucket[start[b] as usize..start[b + 1] as usize];
    let reg = |p: Place| match p {
        Place::Reg(l) => node(l, first),
        Place::Slot(_) => None,
    };
    let mut width = [0u8; 64];
    let mut note = |l: Loc| {
        if let Some(g) = node(l, first) {
            width[usize::from(g)] = if matches!(l, Loc::Pair(_)) { 2 } else { 1 };
        }
    };
    for &l in allocs.iter() {
        note(l);
    }
    for m in moves.iter() {
        for p in [m.2, m.3] {
            if let Place::Reg(l) = p {
                note(l);
            }
        }
    }
    let (allocs_ro, moves_ro): (&[Loc], &[Move]) = (allocs, moves);
    // Per instruction, the registers it reads and writes (as node bits).
    let mut reads = vec![0u64; ni];
    let mut writes = vec![0u64; ni];
    for i in 0..ni {
        let a = alloc_start[i] as usize;
        let o = func.op_start[i] as usize;
        for k in 0..(func.op_start[i + 1] - func.op_start[i]) as usize {
            if let Some(g) = node(allocs_ro[a + k], first) {
                match func.ops[o + k].kind() {
                    OperandKind::Def => writes[i] |= 1u64 << g,
                    OperandKind::Use => reads[i] |= 1u64 << g,
                }
            }
        }
    }
    let each = |set: u64| {
        let mut rest = set;
        std::iter::from_fn(move || {
            (rest != 0).then(|| {
                let x = rest.trailing_zeros() as u8;
                rest &= rest - 1;
                x
            })
        })
    };
    let nb = func.blocks.len();
    // Backward liveness over node bits (`live_in`, to a fixpoint below); `walk` goes through
    // one block, noting interference and move partners.
    let mut live_in = vec![0u64; nb];
    let walk = |b: usize, live_in: &[u64], adj: &mut [u64; 64], partners: &mut Vec<(u8, u8)>| {
        let blk = &func.blocks[b];
        let mut live = 0u64;
        for s in func.succs(b) {
            live |= live_in[s.index()];
        }
        let edge = |a: u8, set: u64, adj: &mut [u64; 64]| {
            let set = set & !(1u64 << a);
            adj[usize::from(a)] |= set;
            let mut rest = set;
            while rest != 0 {
                let x = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                adj[x] |= 1u64 << a;
            }
        };
        for i in (blk.first..blk.end).rev() {
            let i = i as usize;
            let step_move =
                |k: usize, live: &mut u64, adj: &mut [u64; 64], partners: &mut Vec<(u8, u8)>| {
                    let (_, _, from, to) = moves_ro[k];
                    let (f, t) = (reg(from), reg(to));
                    if let Some(t) = t {
                        let keep = f.map_or(0, |f| 1u64 << f);
                        edge(t, *live & !keep, adj);
                        *live &= !(1u64 << t);
                    }
                    if let Some(f) = f {
                        *live |= 1u64 << f;
                    }
                    if let (Some(f), Some(t)) = (f, t) {
                        partners.push((f, t));
                    }
                };
            for &k in moves_at(2 * i + 1).iter().rev() {
                step_move(k, &mut live, adj, partners);
            }
            let named = reads[i] | writes[i];
            for g in each(writes[i]) {
                edge(g, live | named, adj);
            }
            live &= !writes[i];
            for g in each(reads[i]) {
                edge(g, named, adj);
            }
            live |= reads[i];
            for &k in moves_at(2 * i).iter().rev() {
                step_move(k, &mut live, adj, partners);
            }
        }
    };
    // Each block's effect on liveness, `live_in = (live_out & !kill) | gen`, found in one
    // walk, so that the fixpoint walks no instructions (the least fixpoint, as `walk` would
    // find it round after round).
    let transfer: Vec<(u64, u64)> = (0..nb)
        .map(|b| {
            let (mut kill, mut gen) = (0u64, 0u64);
            // An earlier step `live = (live & !k) | g` before what is already composed.
            let mut step = |k: u64, g: u64| {
                gen = (gen & !k) | g;
                kill |= k;
            };
            let bit = |x: Option<u8>| x.map_or(0, |x| 1u64 << x);
            let blk = &func.blocks[b];
            for i in (blk.first..blk.end).rev() {
                let i = i as usize;
                for &k in moves_at(2 * i + 1).iter().rev() {
                    let (_, _, from, to) = moves_ro[k];
                    step(bit(reg(to)), bit(reg(from)));
                }
                step(writes[i], reads[i]);
                for &k in moves_at(2 * i).iter().rev() {
                    let (_, _, from, to) = moves_ro[k];
                    step(bit(reg(to)), bit(reg(from)));
                }
            }
            (kill, gen)
        })
        .collect();
    let mut changed = true;
    while changed {
        changed = false;
        for b in (0..nb).rev() {
            let out = func
                .succs(b)
                .iter()
                .fold(0u64, |l, s| l | live_in[s.index()]);
            let l = (out & !transfer[b].0) | transfer[b].1;
            if l | live_in[b] != live_in[b] {
                live_in[b] |= l;
                changed = true;
            }
        }
    }
    let mut adj = [0u64; 64];
    let mut partners: Vec<(u8, u8)> = Vec::new();
    for b in 0..nb {
        walk(b, &live_in, &mut adj, &mut partners);
    }
    // Colour in order of first appearance.
    let mut order: Vec<u8> = Vec::new();
    let mut seen = 0u64;
    let mut visit = |l: Loc| {
        if let Some(g) = node(l, first) {
            if seen & (1u64 << g) == 0 {
                seen |= 1u64 << g;
                order.push(g);
            }
        }
    };
    for &l in allocs_ro.iter() {
        visit(l);
    }
    for m in moves_ro.iter() {
        for p in [m.2, m.3] {
            if let Place::Reg(l) = p {
                visit(l);
            }
        }
    }
    let mut colour: [Option<u8>; 64] = [None; 64];
    for &g in &order {
        let w = width[usize::from(g)];
        let loc = |c: u8| if w == 2 { Loc::Pair(c) } else { Loc::Gpr(c) };
        let mut taken = 0u64;
        let mut rest = adj[usize::from(g)];
        while rest != 0 {
            let x = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if let Some(c) = colour[x] {
                taken |= bits(if width[x] == 2 {
                    Loc::Pair(c)
                } else {
                    Loc::Gpr(c)
                });
            }
        }
        let fits = |c: u8| {
            c >= first
                && (w == 1 || c.is_multiple_of(2))
                && c + w <= 63
                && bits(loc(c)) & taken == 0
        };
        let preferred = partners
            .iter()
            .filter_map(|&(a, b)| match (a == g, b == g) {
                (true, _) => colour[usize::from(b)],
                (_, true) => colour[usize::from(a)],
                _ => None,
            })
            .find(|&c| fits(c));
        let chosen = preferred.or_else(|| (first..63).find(|&c| fits(c)));
        // No room: keep the allocation as it is (never happens when it fitted before).
        let Some(c) = chosen else { return };
        colour[usize::from(g)] = Some(c);
    }
    let map = |l: Loc| match (l, node(l, first).and_then(|g| colour[usize::from(g)])) {
        (Loc::Gpr(_), Some(c)) => Loc::Gpr(c),
        (Loc::Pair(_), Some(c)) => Loc::Pair(c),
        _ => l,
    };
    for l in allocs.iter_mut() {
        *l = map(*l);
    }
    for m in moves.iter_mut() {
        for p in [&mut m.2, &mut m.3] {
            if let Place::Reg(l) = p {
                *l = map(*l);
            }
        }
    }
}
