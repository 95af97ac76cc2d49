//! An indirect `call` (`call (r), %rd, (args), proto;`): the table's `CAL`/`JCAL` take
//! immediate targets only, so the pointer is compared with the address of each candidate
//! (`calls::indirect_candidates`; addresses are `ir::func_addr`, the PTX executor's values)
//! and the lanes that match `CAL` it:
//!
//! ```text
//!         SSY after
//!         MOV32I R0, addr(f0); ISETP.EQ.U32.AND P6, pt, ptr.lo, R0, pt
//!         (ISETP.EQ.U32.AND P6, pt, ptr.hi, RZ, P6 for a 64-bit pointer)
//!         @P6 BRA c0
//!         …one compare per candidate…
//!         BPT.TRAP 0x1          ; a pointer to no candidate: a wild call faults
//! c0:     CAL F0
//!         NOP.S
//!         …
//! after:
//! ```
//!
//! Lanes of one warp holding different pointers diverge at the `@P6 BRA`s, each group calls
//! its function, and all wait at a `NOP.S` until the `SSY` entry resumes them at `after`
//! (docs/fermi-exec.md's warp stack). The arguments were written before and the results are
//! read after, at the one argument block the candidates share.

use super::{hex, Selector, R};
use crate::regs::{Loc, SCRATCH, SCRATCH_PRED};
use ir::{FuncId, Inst, Operand};

impl Selector<'_> {
    pub(super) fn dispatch(&mut self, inst: &Inst, candidates: &[FuncId]) -> R<()> {
        let ptr = inst
            .operands
            .iter()
            .find_map(|o| match o {
                Operand::Reg(r) => Some(*r),
                _ => None,
            })
            .ok_or("internal error: an indirect call without its register")?;
        let (lo, hi) = match self.loc(ptr)? {
            Loc::Gpr(n) => (format!("R{n}"), None),
            Loc::Pair(n) => (format!("R{n}"), Some(format!("R{}", n + 1))),
            Loc::Pred(_) => return Err("a predicate as a call target".into()),
        };
        let k = self.out.len();
        // `V` (virtual call): no other selection or flow label starts with it.
        let label = |s: &str| format!("{}V{k}{s}", self.label_prefix);
        let after = label("T");
        let arms: Vec<String> = (0..candidates.len())
            .map(|i| label(&format!("C{i}")))
            .collect();
        let (p, s) = (format!("P{SCRATCH_PRED}"), format!("R{SCRATCH}"));
        self.emit("", format!("SSY {after};"));
        for (&id, arm) in candidates.iter().zip(&arms) {
            let addr = i64::try_from(ir::func_addr(id))
                .ok()
                .filter(|a| *a <= i64::from(u32::MAX))
                .ok_or("a function address past 32 bits")?;
            self.emit("", format!("MOV32I {s}, {};", hex(addr)));
            self.emit("", format!("ISETP.EQ.U32.AND {p}, pt, {lo}, {s}, pt;"));
            if let Some(hi) = &hi {
                self.emit("", format!("ISETP.EQ.U32.AND {p}, pt, {hi}, RZ, {p};"));
            }
            self.emit("", format!("@{p} BRA {arm};"));
        }
        self.emit("", "BPT.TRAP 0x1;".into());
        for (&id, arm) in candidates.iter().zip(arms) {
            self.out.push(super::Line::Label(arm));
            self.emit("", format!("CAL F{};", id.0));
            self.emit("", "NOP.S CC.T;".into());
        }
        self.out.push(super::Line::Label(after));
        Ok(())
    }
}
