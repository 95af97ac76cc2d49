//! `bar.sync`/`barrier.sync`/`bar.arrive` with a barrier number and a thread count, `trap`,
//! `brkpt` and `pmevent`.
//!
//! `bar.sync 0` without a count is NVIDIA's `__syncthreads()`, `BAR.RED.POPC RZ, RZ`. Every
//! other form is `BAR.SYNC a, b` / `BAR.ARV a, b`: the barrier (0–15, an immediate or a
//! register) and the thread count (a multiple of 32, an immediate up to 0xfff or a register;
//! RZ, i.e. 0, for the whole CTA when PTX omits it), as the Fermi executor and PTX define them.

use super::{hex, Selector, R};
use ir::{Inst, Opcode, Operand};
use isa::Flag;

impl Selector<'_> {
    pub(super) fn barrier(&mut self, inst: &Inst, g: &str) -> R<()> {
        let arrive = inst.mods.has(Flag::Arrive);
        let id = inst.operands.first();
        let count = inst
            .operands
            .get(1)
            .filter(|o| !matches!(o, Operand::Omitted));
        if let Some(id) = id {
            self.note_barrier(id);
        }
        if !arrive && matches!(id, Some(Operand::Imm(0))) && count.is_none() {
            self.emit(g, "BAR.RED.POPC RZ, RZ;".into());
            return Ok(());
        }
        let (id, count) = self.barrier_operands(id, count)?;
        let op = if arrive { "ARV" } else { "SYNC" };
        self.emit(g, format!("BAR.{op} {id}, {count};"));
        Ok(())
    }
}

impl Selector<'_> {
    /// A barrier's number and thread count as BAR's operands: the number 0–15 (an immediate
    /// or a register) and the count (an immediate up to 0xfff or a register; RZ, i.e. 0, for
    /// the whole CTA when PTX omits it). Every BAR form takes either kind for both
    /// (the fermi table's four BAR rows, after Mesa's `emitBAR`), the reductions included.
    fn barrier_operands(
        &mut self,
        id: Option<&Operand>,
        count: Option<&Operand>,
    ) -> R<(String, String)> {
        let id = match id {
            Some(Operand::Imm(0)) => "RZ".to_string(),
            Some(Operand::Imm(n)) if *n < 16 => hex(*n as i64),
            Some(Operand::Imm(_)) => return Err("a barrier number above 15".into()),
            Some(Operand::Reg(r)) => self.gpr(*r)?,
            _ => return Err("an unsupported barrier operand".into()),
        };
        let count = match count {
            None | Some(Operand::Omitted | Operand::Imm(0)) => "RZ".to_string(),
            Some(Operand::Imm(n)) if *n <= 0xfff => hex(*n as i64),
            Some(Operand::Imm(_)) => return Err("a barrier thread count above 0xfff".into()),
            Some(Operand::Reg(r)) => self.gpr(*r)?,
            _ => return Err("an unsupported barrier thread count".into()),
        };
        Ok((id, count))
    }

    /// `bar.red.{popc,and,or} d, a{, b}, {!}c`: `BAR.RED.<op>` with the register or
    /// predicate destination, barrier `a` and thread count `b` (the whole CTA without one).
    pub(super) fn bar_red(&mut self, inst: &Inst, g: &str) -> R<()> {
        let id = Self::opnd(inst, 1)?;
        self.note_barrier(id);
        let (id, count) = self.barrier_operands(Some(id), inst.operands.get(2))?;
        let c = self.pred_src(Self::opnd(inst, 3)?)?;
        let d = self.dst(inst)?;
        let text = if inst.mods.has(Flag::Popc) {
            format!("BAR.RED.POPC {}, pt, {id}, {count}, {c};", self.gpr(d)?)
        } else {
            let op = match (inst.mods.bool_op, inst.mods.atom_op) {
                (Some(isa::BoolOp::Or), _) | (_, Some(isa::AtomOp::Or)) => "OR",
                _ => "AND",
            };
            format!("BAR.RED.{op} RZ, {}, {id}, {count}, {c};", self.pred(d)?)
        };
        self.emit(g, text);
        Ok(())
    }

    /// Counts barrier `id` in the cubin's barrier count: NVIDIA's text-section flags give the
    /// number of barriers the kernel needs, the highest barrier number plus one, and all 16
    /// when the number is only known at run time (a register).
    pub(super) fn note_barrier(&mut self, id: &Operand) {
        let n = match id {
            Operand::Imm(n) if (0..16).contains(n) => *n as u8 + 1,
            _ => 16,
        };
        self.bar_count = self.bar_count.max(n);
    }

    /// `trap`: `BPT.TRAP` under the instruction's guard: the kernel stops with a fault
    /// (exit code 3) when a lane whose guard holds reaches it.
    pub(super) fn trap(&mut self, g: &str) -> R<()> {
        self.emit(g, "BPT.TRAP 0x1;".into());
        Ok(())
    }

    /// `brkpt` is `BPT.INT 0x0` (a debugger interrupt; with none attached both executors go
    /// on); `pmevent a` is `PMEVENT` of the event's bit, `pmevent.mask a` of the mask (envydis'
    /// gf100 entry; no monitor is attached, so both executors go on).
    pub(super) fn debug_event(&mut self, inst: &Inst, g: &str) -> R<()> {
        if inst.op == Opcode::Brkpt {
            self.emit(g, "BPT.INT 0x0;".into());
            return Ok(());
        }
        let a = match Self::opnd(inst, 0)? {
            Operand::Imm(v) => *v,
            _ => return Err("a pmevent operand that is not an immediate".into()),
        };
        let mask = if inst.mods.has(Flag::Mask) {
            a & 0xffff
        } else if a < 16 {
            1 << a
        } else {
            return Err("a pmevent event number past 15".into());
        };
        self.emit(g, format!("PMEVENT {};", hex(mask as i64)));
        Ok(())
    }
}
