//! Moves: register copies, `mov` of every operand kind (special registers, addresses of
//! variables, functions and frame slots, packed vectors), predicate logic, and `cvta` to and
//! from the shared and local windows.

use super::*;

impl Selector<'_> {
    /// `cvta` to and from the shared and local windows, whose generic bases are `c[0x0][0x0]`
    /// (what NVIDIA's driver and the Fermi executor put there) and `c[0x0][0x4]` (the Fermi
    /// executor's choice, docs/spec-notes.md). A window offset is below 2^24, so the 64-bit
    /// forms need no carry: to generic, the high half is 0 as for every window address; to
    /// the window, the high half of an offset is 0.
    pub(super) fn cvta_window(
        &mut self,
        inst: &Inst,
        g: &str,
        w: u32,
        to: bool,
        base: u32,
    ) -> R<()> {
        let d = self.dst(inst)?;
        let neg = if to { "-" } else { "" };
        let a = Self::opnd(inst, 1)?;
        let (dl, dh) = if w == 64 {
            let (l, h) = self.pair(d)?;
            (l, Some(h))
        } else {
            (self.gpr(d)?, None)
        };
        let al = match a {
            Operand::Reg(r) => match self.loc(*r)? {
                Loc::Gpr(n) | Loc::Pair(n) => format!("R{n}"),
                Loc::Pred(_) => return Err("a predicate operand".into()),
            },
            _ => self.reg32(a, g, SCRATCH)?,
        };
        self.emit(g, format!("IADD {dl}, {al}, {neg}c [0x0] [{base:#x}];"));
        if let Some(dh) = dh {
            self.emit(g, format!("MOV {dh}, RZ;"));
        }
        Ok(())
    }

    /// A plain register-to-register (or immediate) copy of `w` bits.
    pub(super) fn copy(&mut self, inst: &Inst, g: &str, w: u32) -> R<()> {
        let d = self.dst(inst)?;
        let src = Self::opnd(inst, 1)?;
        if w == 64 {
            let (dl, dh) = self.pair(d)?;
            match src {
                Operand::Reg(r) => {
                    let (al, ah) = self.pair(*r)?;
                    self.emit(g, format!("MOV {dl}, {al};"));
                    self.emit(g, format!("MOV {dh}, {ah};"));
                }
                Operand::Imm(v) => {
                    self.emit(g, format!("MOV32I {dl}, {};", hex(*v as u32 as i32 as i64)));
                    self.emit(
                        g,
                        format!("MOV32I {dh}, {};", hex((*v >> 32) as u32 as i32 as i64)),
                    );
                }
                _ => return Err("unsupported source".into()),
            }
        } else {
            let d = self.gpr(d)?;
            match src {
                Operand::Reg(r) => {
                    let a = self.gpr(*r)?;
                    self.emit(g, format!("MOV {d}, {a};"));
                }
                Operand::Imm(v) => {
                    self.emit(g, format!("MOV32I {d}, {};", hex(*v as u32 as i32 as i64)));
                }
                _ => return Err("unsupported source".into()),
            }
        }
        Ok(())
    }

    pub(super) fn mov(&mut self, inst: &Inst, g: &str, w: u32) -> R<()> {
        if self.dst(inst).is_ok_and(|d| self.folded.contains_key(&d)) {
            return Ok(());
        }
        let src = Self::opnd(inst, 1)?;
        match src {
            Operand::Special { reg, .. } if self.special(inst, g, *reg)? => Ok(()),
            Operand::Special { reg, index } => {
                let d = self.gpr(self.dst(inst)?)?;
                use isa::SpecialReg as S;
                let axis = ["X", "Y", "Z"]
                    .get(usize::from(*index))
                    .ok_or("bad component")?;
                match reg {
                    S::Tid => self.emit(g, format!("S2R {d}, SR_Tid_{axis};")),
                    S::Ctaid => self.emit(g, format!("S2R {d}, SR_CTAid_{axis};")),
                    S::Ntid => self.emit(
                        g,
                        format!("MOV {d}, c [0x0] [{}];", hex(0x8 + 4 * i64::from(*index))),
                    ),
                    S::Nctaid => self.emit(
                        g,
                        format!("MOV {d}, c [0x0] [{}];", hex(0x14 + 4 * i64::from(*index))),
                    ),
                    S::Laneid => self.emit(g, format!("S2R {d}, SR_LaneId;")),
                    S::WarpSz => self.emit(g, format!("MOV32I {d}, 0x20;")),
                    _ => return Err("this special register has no selection rule yet".into()),
                }
                Ok(())
            }
            Operand::Func(id) => {
                // The PTX executor's value for the function's address (`ir::func_addr`), so
                // pointers stored by either agree; indirect calls compare against it.
                let a = i64::try_from(ir::func_addr(*id))
                    .ok()
                    .filter(|a| *a <= i64::from(u32::MAX))
                    .ok_or("a function address past 32 bits")?;
                self.zero_extended(inst, g, w, |d| format!("MOV32I {d}, {};", hex(a)))
            }
            Operand::VarAddr { var, offset } if self.frame_locals.contains_key(var) => {
                // A `.func`'s local: its frame address, R1 plus the offset (a local window
                // offset, as the address of a local variable is).
                let at = self.frame_locals.get(var).copied().unwrap_or(0) + offset;
                self.zero_extended(inst, g, w, |d| format!("IADD {d}, R1, {};", hex(at)))
            }
            Operand::VarAddr { var, offset }
                if self.epilogue.is_none() && self.params.contains_key(var) =>
            {
                // A kernel parameter's address: its offset in the parameter buffer, as the
                // PTX executor gives it (`ld.param` through a register reads c[0x0] there).
                let at = i64::from(self.params.get(var).copied().unwrap_or(0)) + offset;
                self.zero_extended(inst, g, w, |d| format!("MOV32I {d}, {};", hex(at)))
            }
            Operand::VarAddr { var, offset } if self.globals.contains_key(var) => {
                let d = self.dst(inst)?;
                let (lo, hi) = if w == 64 {
                    let (dl, dh) = self.pair(d)?;
                    (dl, Some(dh))
                } else {
                    (self.gpr(d)?, None)
                };
                self.global_address(g, *var, *offset, &lo, hi.as_deref());
                Ok(())
            }
            Operand::VarAddr { var, offset } => {
                // A window offset: shared, local, or c[0x2] (as `mov` of a variable gives
                // its address in its own space).
                let base = *self
                    .shared
                    .get(var)
                    .or_else(|| self.local.get(var))
                    .or_else(|| self.consts.get(var))
                    .ok_or(
                        "the address of a function, or of a .global variable whose initializer holds addresses, has no selection rule yet",
                    )?;
                let v = i64::from(base) + offset;
                let d = self.dst(inst)?;
                if w == 64 {
                    // A shared-window offset, zero-extended: only `ld/st.shared` read it.
                    let (dl, dh) = self.pair(d)?;
                    self.emit(g, format!("MOV32I {dl}, {};", hex(v)));
                    self.emit(g, format!("MOV {dh}, RZ;"));
                } else {
                    let d = self.gpr(d)?;
                    self.emit(g, format!("MOV32I {d}, {};", hex(v)));
                }
                Ok(())
            }
            Operand::Vector(parts) if w == 64 && parts.len() == 2 => {
                // mov.b64 d, {lo, hi}: pack two 32-bit halves.
                let (dl, dh) = self.pair(self.dst(inst)?)?;
                let lo = self.reg32(&parts[0], g, SCRATCH)?;
                let hi = self.reg32(&parts[1], g, SCRATCH_PAIR)?;
                self.emit(g, format!("MOV {dl}, {lo};"));
                self.emit(g, format!("MOV {dh}, {hi};"));
                Ok(())
            }
            Operand::Reg(r)
                if w == 64
                    && matches!(inst.operands.first(), Some(Operand::Vector(v)) if v.len() == 2) =>
            {
                // mov.b64 {lo, hi}, s: unpack.
                let Some(Operand::Vector(parts)) = inst.operands.first() else {
                    return Err("unexpected destination".into());
                };
                let (sl, sh) = self.pair(*r)?;
                for (part, half) in parts.iter().zip([sl, sh]) {
                    match part {
                        Operand::Reg(p) => {
                            let p = self.gpr(*p)?;
                            self.emit(g, format!("MOV {p}, {half};"));
                        }
                        Operand::Sink => {}
                        _ => return Err("unexpected unpack destination".into()),
                    }
                }
                Ok(())
            }
            Operand::Reg(_) | Operand::Imm(_) if w == 32 || w == 64 || w == 16 || w == 8 => {
                if w < 32 {
                    if let Operand::Imm(v) = src {
                        // A 16-bit register holds its value zero-extended in the 32-bit slot
                        // only as far as its own bits are read; keep the exact bits.
                        let d = self.gpr(self.dst(inst)?)?;
                        self.emit(g, format!("MOV32I {d}, {};", hex(*v as u32 as i32 as i64)));
                        return Ok(());
                    }
                }
                self.copy(inst, g, w)
            }
            _ => Err("this mov form has no selection rule yet".into()),
        }
    }

    pub(super) fn pred_src(&mut self, o: &Operand) -> R<String> {
        match o {
            Operand::Reg(r) => self.pred(*r),
            Operand::NotPred(r) => Ok(format!("!{}", self.pred(*r)?)),
            Operand::Imm(1) => Ok("pt".into()),
            Operand::Imm(0) => Ok("!pt".into()),
            _ => Err("unsupported predicate operand".into()),
        }
    }

    /// `and/or/xor/not/mov .pred` as `PSETP.op.AND d, pt, a, b, pt` ((a op b) and true).
    pub(super) fn pred_logic(&mut self, inst: &Inst, g: &str) -> R<()> {
        let d = self.pred(self.dst(inst)?)?;
        let a = self.pred_src(Self::opnd(inst, 1)?)?;
        let (op, b) = match inst.op {
            Opcode::Not => ("AND", format!("!{}", a)),
            Opcode::Mov => ("AND", a.clone()),
            Opcode::And => ("AND", self.pred_src(Self::opnd(inst, 2)?)?),
            Opcode::Or => ("OR", self.pred_src(Self::opnd(inst, 2)?)?),
            _ => ("XOR", self.pred_src(Self::opnd(inst, 2)?)?),
        };
        let a = if inst.op == Opcode::Not {
            "pt".to_string()
        } else {
            a
        };
        let b = b.replace("!!", "");
        self.emit(g, format!("PSETP.{op}.AND {d}, pt, {a}, {b}, pt;"));
        Ok(())
    }

    /// Writes a 32-bit address, `low(d)`'s instruction into the destination's register (its
    /// low word when 64-bit, the high word then zero): function, frame and parameter
    /// addresses all fit 32 bits.
    fn zero_extended(
        &mut self,
        inst: &Inst,
        g: &str,
        w: u32,
        low: impl Fn(&str) -> String,
    ) -> R<()> {
        let d = self.dst(inst)?;
        if w == 64 {
            let (dl, dh) = self.pair(d)?;
            self.emit(g, low(&dl));
            self.emit(g, format!("MOV {dh}, RZ;"));
        } else {
            let d = self.gpr(d)?;
            self.emit(g, low(&d));
        }
        Ok(())
    }
}
