//! Bit instructions with a Fermi counterpart: `bfind` (`FLO`), `clz` (`31 − FLO`), `bfe`
//! (`BFE`, position and length packed as for `BFI`), `prmt` (`PRMT`), `popc.b64` (two `POPC`s),
//! and `min/max.f32` (`FMNMX`, whose NaN and signed-zero rules are `ops::float`'s on both
//! executors).

use super::{hex, is_signed, Selector, R};
use crate::regs::{SCRATCH, SCRATCH_PAIR};
use ir::{Inst, Opcode, Operand, Type};
use isa::Flag;

impl Selector<'_> {
    /// `None` if `inst` is not a form handled here.
    pub(super) fn bits(&mut self, inst: &Inst, g: &str, ty: Type) -> Option<R<()>> {
        let w = crate::regs::width_of(ty);
        let m = &inst.mods;
        Some(match inst.op {
            Opcode::Bfind if w == Some(32) && !m.has(Flag::ShiftAmt) => (|| {
                let u = if is_signed(ty) { "" } else { ".U32" };
                let d = self.gpr(self.dst(inst)?)?;
                let a = self.reg32(Self::opnd(inst, 1)?, g, SCRATCH)?;
                self.emit(g, format!("FLO{u} {d}, {a};"));
                Ok(())
            })(),
            Opcode::Clz if w == Some(32) => (|| {
                // FLO gives 0xffffffff for 0, so 31 − FLO is 32 there, as clz.
                let d = self.gpr(self.dst(inst)?)?;
                let a = self.reg32(Self::opnd(inst, 1)?, g, SCRATCH)?;
                self.emit(g, format!("FLO.U32 R{SCRATCH}, {a};"));
                self.emit(g, format!("IADD R{SCRATCH}, RZ, -R{SCRATCH};"));
                self.emit(g, format!("IADD {d}, R{SCRATCH}, 0x1f;"));
                Ok(())
            })(),
            Opcode::Bfe if w == Some(32) => (|| {
                let u = if is_signed(ty) { "" } else { ".U32" };
                let d = self.gpr(self.dst(inst)?)?;
                let packed = match (Self::opnd(inst, 2)?, Self::opnd(inst, 3)?) {
                    (Operand::Imm(p), Operand::Imm(l)) => {
                        hex(((p & 0xff) | (l & 0xff) << 8) as i64)
                    }
                    (p, l) => {
                        // BFI R0, len, 0x808, pos: len's low byte into bits 8-15 of pos; BFE
                        // reads bits 0-7 and 8-15 only.
                        let p = self.reg32(p, g, SCRATCH)?;
                        let l = self.reg32(l, g, SCRATCH_PAIR)?;
                        self.emit(g, format!("BFI R{SCRATCH}, {l}, 0x808, {p};"));
                        format!("R{SCRATCH}")
                    }
                };
                let a = self.reg32(Self::opnd(inst, 1)?, g, SCRATCH_PAIR + 1)?;
                self.emit(g, format!("BFE{u} {d}, {a}, {packed};"));
                Ok(())
            })(),
            Opcode::Prmt if w == Some(32) => (|| {
                let mode = m
                    .prmt_mode
                    .map(|p| p.spelling().to_uppercase())
                    .unwrap_or_default();
                let d = self.gpr(self.dst(inst)?)?;
                let a = self.reg32(Self::opnd(inst, 1)?, g, SCRATCH)?;
                let b = self.reg32(Self::opnd(inst, 2)?, g, SCRATCH_PAIR)?;
                let c = self.src32(Self::opnd(inst, 3)?, g, SCRATCH_PAIR + 1, true)?;
                self.emit(g, format!("PRMT{mode} {d}, {a}, {c}, {b};"));
                Ok(())
            })(),
            Opcode::Popc if w == Some(64) => (|| {
                let d = self.gpr(self.dst(inst)?)?;
                let (lo, hi) = self.src64(Self::opnd(inst, 1)?, g)?;
                self.emit(g, format!("POPC R{SCRATCH}, {lo}, {lo};"));
                self.emit(g, format!("POPC {d}, {hi}, {hi};"));
                self.emit(g, format!("IADD {d}, {d}, R{SCRATCH};"));
                Ok(())
            })(),
            Opcode::Min | Opcode::Max
                if ty == Type::F32 && !m.has(Flag::NaN) && !m.has(Flag::Xorsign) =>
            {
                (|| {
                    let ftz = if m.has(Flag::Ftz) { ".FTZ" } else { "" };
                    let d = self.gpr(self.dst(inst)?)?;
                    let a = self.reg32(Self::opnd(inst, 1)?, g, SCRATCH)?;
                    let b = self.reg32(Self::opnd(inst, 2)?, g, SCRATCH_PAIR)?;
                    let sel = if inst.op == Opcode::Min { "pt" } else { "!pt" };
                    self.emit(g, format!("FMNMX{ftz} {d}, {a}, {b}, {sel};"));
                    Ok(())
                })()
            }
            _ => return None,
        })
    }
}
