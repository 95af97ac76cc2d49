//! `isspacep.global/.shared/.local/.const/.param p, a`: whether the generic address `a` lies in the CTA's
//! shared window or the thread's local window (`c[0x0][0x0]` / `c[0x0][0x4]` are their
//! bases, as for `cvta`), each `WINDOW` bytes long; global is neither (sm_20 code has no
//! generic constant or parameter addresses: `cvta.const` is refused). In a window means
//! `(a − base) >> 24 == 0` on the low word and, for a 64-bit register, a zero high word (a
//! 32-bit register is an address zero-extended, in either address size).

use super::{Selector, R};
use crate::regs::{Loc, SCRATCH, SCRATCH_PRED};
use ir::{Inst, Space};

/// log2 of a window's size: the Fermi executor's 16 MiB windows (`fermi_exec::memory`).
const WINDOW_BITS: u32 = 24;

impl Selector<'_> {
    pub(super) fn isspacep(&mut self, inst: &Inst, g: &str) -> R<()> {
        let p = self.pred(self.dst(inst)?)?;
        let a = match Self::opnd(inst, 1)? {
            ir::Operand::Reg(r) => *r,
            _ => return Err("an isspacep of an immediate address".into()),
        };
        // The PTX executor reads the operand as .u64 in either address size: a 32-bit
        // register is an address zero-extended (a zero high word), a 64-bit one is whole.
        let (lo, hi) = match self.loc(a)? {
            Loc::Pair(n) => (format!("R{n}"), Some(format!("R{}", n + 1))),
            Loc::Gpr(n) => (format!("R{n}"), None),
            Loc::Pred(_) => return Err("an isspacep of a predicate".into()),
        };
        let s = format!("R{SCRATCH}");
        let scratch = format!("P{SCRATCH_PRED}");
        let in_window = |sel: &mut Self, base: u32, q: &str| {
            sel.emit(g, format!("MOV {s}, c [0x0] [0x{base:x}];"));
            sel.emit(g, format!("IADD {s}, {lo}, -{s};"));
            sel.emit(g, format!("SHR.U32 {s}, {s}, 0x{WINDOW_BITS:x};"));
            sel.emit(g, format!("ISETP.EQ.U32.AND {q}, pt, {s}, RZ, pt;"));
            if let Some(h) = &hi {
                sel.emit(g, format!("ISETP.EQ.U32.AND {q}, pt, {h}, RZ, {q};"));
            }
        };
        match inst.mods.space {
            Some(Space::Shared | Space::SharedCta) => in_window(self, 0x0, &p),
            Some(Space::Local) => in_window(self, 0x4, &p),
            Some(Space::Global) => {
                in_window(self, 0x0, &scratch);
                in_window(self, 0x4, &p);
                self.emit(g, format!("PSETP.AND.AND {p}, pt, !{scratch}, !{p}, pt;"));
            }
            // No generic address the translated code can form lies in a constant or
            // parameter window (`cvta.const`/`cvta.param` are refused: sm_20's generic space
            // has neither), so no pointer it holds is in one (docs/spec-notes.md).
            Some(Space::Const | Space::Param | Space::ParamEntry) => {
                self.emit(g, format!("PSETP.AND.AND {p}, pt, !pt, pt, pt;"));
            }
            _ => return Err("isspacep of this space has no selection rule".into()),
        }
        Ok(())
    }
}
