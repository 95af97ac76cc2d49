//! Dead-code elimination: pure instructions whose destination is never read are removed
//! (repeatedly: removing one may leave its sources unread), then the body is compacted and
//! branch targets renumbered.

use super::{is_pure, single_dst, visit, Role};
use ir::{Inst, Operand};

/// Removes dead instructions; returns the map from old instruction indices to new ones (an
/// index of a removed instruction maps to the next kept one, the end to the new end).
pub(super) fn run(body: &mut Vec<Inst>, n_regs: usize, pinned: &[bool]) -> impl Fn(usize) -> u32 {
    let mut uses = vec![0u32; n_regs];
    for inst in body.iter() {
        visit(inst, &mut |r, role| {
            if role != Role::Def {
                if let Some(u) = uses.get_mut(r.index()) {
                    *u += 1;
                }
            }
        });
    }
    let mut dead = vec![false; body.len()];
    let mut changed = true;
    while changed {
        changed = false;
        for i in (0..body.len()).rev() {
            if dead[i] || !is_pure(&body[i]) {
                continue;
            }
            let Some(d) = single_dst(&body[i]) else {
                continue;
            };
            if pinned.get(d.index()).copied().unwrap_or(true) || uses.get(d.index()) != Some(&0) {
                continue;
            }
            dead[i] = true;
            changed = true;
            visit(&body[i], &mut |r, role| {
                if role != Role::Def {
                    if let Some(u) = uses.get_mut(r.index()) {
                        *u = u.saturating_sub(1);
                    }
                }
            });
        }
    }
    let new_index = compact(body, &dead);
    move |i: usize| new_index[i.min(new_index.len() - 1)]
}

/// Removes the instructions marked in `removed` and renumbers branch targets; returns the
/// map from old indices to new ones (a removed instruction's index maps to the next kept
/// one, the end to the new end).
pub(super) fn compact(body: &mut Vec<Inst>, removed: &[bool]) -> Vec<u32> {
    let mut new_index = Vec::with_capacity(body.len() + 1);
    let mut kept = 0u32;
    for &d in removed {
        new_index.push(kept);
        kept += u32::from(!d);
    }
    new_index.push(kept);
    if removed.iter().any(|&d| d) {
        let mut k = 0;
        body.retain(|_| {
            k += 1;
            !removed[k - 1]
        });
        for inst in body.iter_mut() {
            for o in inst.operands.iter_mut() {
                match o {
                    Operand::Label(t) => t.0 = new_index[t.index().min(new_index.len() - 1)],
                    Operand::TargetList(ts) => {
                        for t in ts.iter_mut() {
                            t.0 = new_index[t.index().min(new_index.len() - 1)];
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    new_index
}
