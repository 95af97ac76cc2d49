//! `brx.idx i, list`: a multi-way branch. The index is checked against the list's length
//! (`@P6 BPT.TRAP` past it: the PTX executor faults there too, and a jump past the pad would
//! run whatever follows), then `BRX R0, 0x0` with `R0 = i · 8` jumps into a landing pad of one
//! `BRA` per target right after it (Fermi's `BRX Rn, off` is relative to the next
//! instruction), so no table data is needed. Lanes with different indices diverge at the
//! `BRX` (each group waits on the stack); the body's reconvergence plan puts an `SSY` before
//! it and the `NOP.S` at the immediate post-dominator of the targets, as for `bra`.

use super::{hex, Selector, R};
use crate::regs::{SCRATCH, SCRATCH_PRED};
use ir::Inst;

impl Selector<'_> {
    /// `pads`: the branch (to each target's edge label) of every list entry, in order.
    pub fn brx(&mut self, inst: &Inst, pads: &[String]) -> R<()> {
        if inst.guard.is_some() {
            return Err("a guarded brx.idx has no selection rule yet".into());
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
