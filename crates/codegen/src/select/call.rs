//! `call` and `ret` under the calling convention of `calls.rs`: arguments and results in the
//! caller's argument block at `[R1+slot]`, `CAL` to the callee's prologue, callee-saved
//! registers.

use super::{hex, Selector, R};
use crate::regs::{Loc, SCRATCH};
use ir::{AddrBase, Address, Inst, Operand, Space};

impl Selector<'_> {
    /// What ends the body at a `ret` or at its end: `EXIT` in an entry, the epilogue in a
    /// `.func`.
    pub fn end_lines(&self) -> Vec<String> {
        match &self.epilogue {
            None => vec!["EXIT;".into()],
            Some(e) => e.clone(),
        }
    }

    /// The R1 offset of a `.param` access that lives on the stack.
    pub(super) fn stack_slot(&self, a: &Address, space: Option<Space>) -> Option<i64> {
        if !matches!(space, Some(Space::Param | Space::ParamFunc) | None) {
            return None;
        }
        match a.base {
            AddrBase::Var(v) => self.stack_params.get(&v).map(|at| at + a.offset),
            _ => None,
        }
    }

    pub(super) fn call(&mut self, inst: &Inst, g: &str) -> R<()> {
        if !g.is_empty() {
            // `flow::around_guard` branches the other lanes around the call first.
            return Err("internal error: a guarded call reached selection".into());
        }
        let (id, indirect) = match crate::calls::direct_target(inst) {
            Some(id) => (id, None),
            None => {
                let taken = crate::calls::taken_among(&self.layouts);
                let c = crate::calls::indirect_candidates(self.module, &taken, inst)?;
                let Some(&first) = c.first() else {
                    // No function can be reached: the PTX executor faults on any pointer.
                    self.emit("", "BPT.TRAP 0x1;".into());
                    return Ok(());
                };
                (first, Some(c))
            }
        };
        let layout = self
            .layouts
            .get(&id)
            .cloned()
            .ok_or("internal error: a callee without a layout")?;
        let (rets, args) = crate::calls::call_lists(inst);
        if rets.len() > layout.rets || args.len() + layout.rets > layout.slots.len() {
            return Err("the call's lists do not match the callee's parameters".into());
        }
        for (i, a) in args.iter().enumerate() {
            let (slot, size) = layout.slots[layout.rets + i];
            match a {
                // Already written by the caller's `st.param` at this slot (calls.rs placed it).
                Operand::VarAddr { .. } => {}
                Operand::Reg(r) => match self.loc(*r)? {
                    Loc::Gpr(n) => self.emit("", format!("STL [R1+{}], R{n};", hex(slot.into()))),
                    Loc::Pair(n) => {
                        self.emit("", format!("STL.64 [R1+{}], R{n};", hex(slot.into())))
                    }
                    Loc::Pred(_) => return Err("a predicate argument".into()),
                },
                Operand::Imm(v) => {
                    for k in 0..size.div_ceil(4).min(2) {
                        let word = (*v >> (32 * k)) as u32;
                        let src = if word == 0 {
                            "RZ".to_string()
                        } else {
                            self.emit(
                                "",
                                format!("MOV32I R{SCRATCH}, {};", hex(i64::from(word as i32))),
                            );
                            format!("R{SCRATCH}")
                        };
                        self.emit(
                            "",
                            format!("STL [R1+{}], {src};", hex(i64::from(slot + 4 * k))),
                        );
                    }
                }
                _ => return Err("an argument of this kind".into()),
            }
        }
        match indirect {
            None => self.emit("", format!("CAL F{};", id.0)),
            Some(candidates) => self.dispatch(inst, &candidates)?,
        }
        for (j, r) in rets.iter().enumerate() {
            let (slot, _) = layout.slots[j];
            match r {
                Operand::VarAddr { .. } => {}
                Operand::Reg(r) => match self.loc(*r)? {
                    Loc::Gpr(n) => self.emit("", format!("LDL R{n}, [R1+{}];", hex(slot.into()))),
                    Loc::Pair(n) => {
                        self.emit("", format!("LDL.64 R{n}, [R1+{}];", hex(slot.into())))
                    }
                    Loc::Pred(_) => return Err("a predicate result".into()),
                },
                _ => return Err("a result of this kind".into()),
            }
        }
        Ok(())
    }
}
