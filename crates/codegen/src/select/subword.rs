//! 16-bit integer arithmetic. A 16-bit register lives in a 32-bit one whose upper half is
//! undefined (only the low 16 bits are ever read as the value: `st.u16`, `cvt` from `.u16`,
//! and the rules here). So operations whose low 16 result bits depend only on the low 16 bits
//! of the operands (add, sub, mul.lo, logic, shl, neg, selp) run as their 32-bit forms, and
//! the others (shr, mul.hi, mul.wide, min/max, setp, abs) first sign- or zero-extend their
//! operands into the scratch registers with `I2I`.

use super::{hex, is_signed, Selector, R};
use crate::regs::{SCRATCH, SCRATCH_PAIR};
use ir::{Inst, Opcode, Operand, Type};
use isa::{Flag, MulMode};

impl Selector<'_> {
    /// Selects a 16-bit integer instruction; `None` if `inst` is not one this handles.
    pub(super) fn subword(&mut self, inst: &Inst, g: &str, ty: Type) -> Option<R<()>> {
        let wide = match ty {
            Type::U16 => Type::U32,
            Type::S16 => Type::S32,
            Type::B16 => Type::B32,
            _ => return None,
        };
        let m = &inst.mods;
        if m.has(Flag::Sat) || m.has(Flag::Cc) {
            return None;
        }
        let low_only = match inst.op {
            Opcode::Add | Opcode::Sub | Opcode::And | Opcode::Or | Opcode::Xor | Opcode::Not => {
                true
            }
            Opcode::Shl | Opcode::Neg | Opcode::Selp => true,
            Opcode::Mul | Opcode::Mad => matches!(m.mul_mode, None | Some(MulMode::Lo)),
            _ => false,
        };
        if low_only {
            let mut as32 = inst.clone();
            as32.types[0] = Some(wide);
            return Some(self.select(&as32));
        }
        let extends = match inst.op {
            Opcode::Shr | Opcode::Min | Opcode::Max | Opcode::Setp => true,
            Opcode::Abs => is_signed(ty),
            Opcode::Mul | Opcode::Mad => matches!(m.mul_mode, Some(MulMode::Hi | MulMode::Wide)),
            _ => false,
        };
        extends.then(|| self.extended(inst, g, ty))
    }

    /// `o` sign- or zero-extended from 16 bits into scratch register `n`.
    pub(super) fn extend16(&mut self, o: &Operand, g: &str, signed: bool, n: u8) -> R<String> {
        match o {
            Operand::Reg(r) => {
                let a = self.gpr(*r)?;
                let t = if signed { ".S32.S16" } else { ".U32.U16" };
                self.emit(g, format!("I2I{t} R{n}, {a};"));
            }
            Operand::Imm(v) => {
                let v = if signed {
                    i64::from(*v as u16 as i16)
                } else {
                    i64::from(*v as u16)
                };
                self.emit(g, format!("MOV32I R{n}, {};", hex(v)));
            }
            _ => return Err("unsupported 16-bit operand".into()),
        }
        Ok(format!("R{n}"))
    }

    fn extended(&mut self, inst: &Inst, g: &str, ty: Type) -> R<()> {
        let signed = is_signed(ty);
        let u = if signed { "" } else { ".U32" };
        match inst.op {
            Opcode::Shr => {
                let d = self.gpr(self.dst(inst)?)?;
                let a = self.extend16(Self::opnd(inst, 1)?, g, signed, SCRATCH)?;
                let b = self.src32(Self::opnd(inst, 2)?, g, SCRATCH_PAIR, true)?;
                self.emit(g, format!("SHR{u} {d}, {a}, {b};"));
            }
            Opcode::Mul | Opcode::Mad
                if matches!(inst.mods.mul_mode, Some(MulMode::Hi | MulMode::Wide)) =>
            {
                let d = self.gpr(self.dst(inst)?)?;
                let a = self.extend16(Self::opnd(inst, 1)?, g, signed, SCRATCH)?;
                let b = self.extend16(Self::opnd(inst, 2)?, g, signed, SCRATCH_PAIR)?;
                let types = if signed { "" } else { ".U32.U32" };
                // The 32-bit product of two extended 16-bit values is exact; `mad` adds `c`
                // to it (`.hi`: to its high half; the low 16 bits of the sum are the result;
                // `.wide`: to the 32-bit product).
                let mad = inst.op == Opcode::Mad;
                let t = if mad {
                    format!("R{SCRATCH}")
                } else {
                    d.clone()
                };
                if inst.mods.mul_mode == Some(MulMode::Hi) {
                    self.emit(g, format!("IMUL{types} R{SCRATCH}, {a}, {b};"));
                    self.emit(g, format!("SHR{u} {t}, R{SCRATCH}, 0x10;"));
                } else {
                    self.emit(g, format!("IMUL{types} {t}, {a}, {b};"));
                }
                if mad {
                    let c = self.reg32(Self::opnd(inst, 3)?, g, SCRATCH_PAIR)?;
                    self.emit(g, format!("IADD {d}, {t}, {c};"));
                }
            }
            Opcode::Min | Opcode::Max => {
                let d = self.gpr(self.dst(inst)?)?;
                let a = self.extend16(Self::opnd(inst, 1)?, g, signed, SCRATCH)?;
                let b = self.extend16(Self::opnd(inst, 2)?, g, signed, SCRATCH_PAIR)?;
                let sel = if inst.op == Opcode::Min { "pt" } else { "!pt" };
                self.emit(g, format!("IMNMX{u} {d}, {a}, {b}, {sel};"));
            }
            Opcode::Abs if signed => {
                let d = self.gpr(self.dst(inst)?)?;
                let a = self.extend16(Self::opnd(inst, 1)?, g, true, SCRATCH)?;
                self.emit(g, format!("I2I.S32.S32 {d}, |{a}|;"));
            }
            Opcode::Setp => self.setp(inst, g, ty)?,
            _ => return Err("this 16-bit form has no selection rule yet".into()),
        }
        Ok(())
    }
}
