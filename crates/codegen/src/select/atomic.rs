//! `atom`/`red` on global (and generic) addresses: `ATOM`/`RED` with the operation and type
//! (`.E` for 64-bit addresses). Shared-memory atomics, which sm_20 code performs with an
//! `LDSLK`/`STSUL` loop, are not selected.

use super::{Selector, R};
use crate::regs::{Loc, SCRATCH, SCRATCH_PAIR};
use ir::{Inst, Opcode, Operand, Space, Type};
use isa::{AtomOp, Flag};

impl Selector<'_> {
    pub(super) fn atomic(&mut self, inst: &Inst, g: &str, ty: Type) -> R<()> {
        let m = &inst.mods;
        if !matches!(m.space, None | Some(Space::Global)) {
            return Err(
                "shared-memory atomics (an LDSLK/STSUL loop on sm_20) have no selection rule yet"
                    .into(),
            );
        }
        if m.scope.is_some() || m.sem.is_some() || m.vec.is_some() {
            return Err(
                "atomics with a scope, ordering or vector have no selection rule yet".into(),
            );
        }
        let op = m.atom_op.ok_or("an atomic without an operation")?;
        let t = match (op, ty) {
            (AtomOp::Add, Type::F32) if !m.has(Flag::NoFtz) => ".F32.FTZ.RN",
            (AtomOp::Add | AtomOp::Min | AtomOp::Max, Type::S32) => ".S32",
            (AtomOp::Min | AtomOp::Max | AtomOp::Add | AtomOp::Inc | AtomOp::Dec, Type::U32) => {
                ".U32"
            }
            (AtomOp::And | AtomOp::Or | AtomOp::Xor | AtomOp::Exch | AtomOp::Cas, Type::B32) => "",
            (AtomOp::Add, Type::U64) => ".U64",
            (AtomOp::Exch | AtomOp::Cas, Type::B64) => ".U64",
            _ => return Err("this atomic operation and type have no ATOM form".into()),
        };
        let name = op.spelling().trim_start_matches('.').to_uppercase();
        let e = if self.a64 { ".E" } else { "" };
        let red = inst.op == Opcode::Red;
        let (ai, bi) = if red { (0, 1) } else { (1, 2) };
        let Operand::Address(addr) = Self::opnd(inst, ai)? else {
            return Err("unexpected address operand".into());
        };
        let (base, off) = self.address(addr, m.space)?;
        let wide = t == ".U64";
        let val = |s: &mut Self, i: usize, scratch: u8| -> R<String> {
            match Self::opnd(inst, i)? {
                Operand::Reg(r) => match s.loc(*r)? {
                    Loc::Gpr(n) | Loc::Pair(n) => Ok(format!("R{n}")),
                    Loc::Pred(_) => Err("a predicate operand".into()),
                },
                o if !wide => s.reg32(o, g, scratch),
                _ => Err("a 64-bit immediate atomic operand".into()),
            }
        };
        let b = val(self, bi, SCRATCH)?;
        let at = format!("[{base}+{}]", super::hex(off));
        if red {
            self.emit(g, format!("RED{e}.{name}{t} {at}, {b};"));
        } else {
            let d = match self.loc(self.dst(inst)?)? {
                Loc::Gpr(n) | Loc::Pair(n) => format!("R{n}"),
                Loc::Pred(_) => return Err("a predicate destination".into()),
            };
            let c = if op == AtomOp::Cas {
                format!(", {}", val(self, 3, SCRATCH_PAIR)?)
            } else {
                String::new()
            };
            self.emit(g, format!("ATOM{e}.{name}{t} {d}, {at}, {b}{c};"));
        }
        Ok(())
    }
}
