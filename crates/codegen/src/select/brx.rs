//! `brx.idx i, list`: a multi-way branch. The index is checked against the list's length
//! (`@P6 BPT.TRAP` past it: the PTX executor faults there too, and a jump past the pad would
//! run whatever follows), then `BRX R0, 0x0` with `R0 = i · 8` jumps into a landing pad of one
//! `BRA` per target right after it (Fermi's `BRX Rn, off` is relative to the next
//! instruction), so no table data is needed. Lanes with different indices diverge at the
//! `BRX` (each group waits on the stack); the body's reconvergence plan puts an `SSY` before
//! it and the `NOP.S` at the immediate post-dominator of the targets, as for `bra`.
//!
//! A guarded `@p brx.idx` (its block also falls through: `cfg.rs`) sends the lanes whose
//! guard fails to a label after the pad, where the block's fall-through code follows; the
//! others run the unguarded sequence (the bounds check then faults only lanes that take the
//! branch, as the PTX executor does). The guard's predicate is never P6, which bodies with
//! `brx.idx` keep free.

use super::{hex, Selector, R};
use crate::regs::{Loc, SCRATCH, SCRATCH_PRED};
use ir::{Function, Inst};

impl Selector<'_> {
    /// `pads`: the branch (to each target's edge label) of every list entry, in order;
    /// `skip`: for a guarded `brx.idx`, the label the caller places after the pad, where
    /// lanes whose guard fails go.
    pub fn brx(&mut self, f: &Function, inst: &Inst, pads: &[String], skip: Option<&str>) -> R<()> {
        match (inst.guard, skip) {
            (None, _) => {}
            (Some(gd), Some(label)) => {
                let p = match self.regs.loc(f, gd.reg) {
                    Ok(Loc::Pred(p)) if p != SCRATCH_PRED => p,
                    _ => return Err("the guard of brx.idx is not in a predicate register".into()),
                };
                let not = if gd.negated { "" } else { "!" };
                self.emit("", format!("@{not}P{p} BRA {label};"));
            }
            (Some(_), None) => return Err("a guarded brx.idx without a fall-through label".into()),
        }
        let k = i64::try_from(pads.len()).unwrap_or(i64::MAX);
        if pads.is_empty() || k >= 1 << 19 {
            return Err("a .branchtargets list of this length".into());
        }
        let i = self.reg32(Self::opnd(inst, 0)?, "", SCRATCH)?;
        let (p, s) = (format!("P{SCRATCH_PRED}"), format!("R{SCRATCH}"));
        self.emit(
            "",
            format!("ISETP.GE.U32.AND {p}, pt, {i}, {}, pt;", hex(k)),
        );
        self.emit("", format!("@{p} BPT.TRAP 0x1;"));
        self.emit("", format!("SHL {s}, {i}, 0x3;"));
        self.emit("", format!("BRX {s}, 0x0;"));
        for pad in pads {
            self.emit("", pad.clone());
        }
        Ok(())
    }
}
