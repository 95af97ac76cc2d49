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
            Opcode::Bfind if w == Some(32) => (|| {
                // .shiftamt: 31 − FLO, which is FLO ^ 31 for 0..=31; FLO's 0xffffffff (no bit
                // found) must stay, so OR in FLO's sign (SHR by 31, arithmetic).
                let u = if is_signed(ty) { "" } else { ".U32" };
                let d = self.gpr(self.dst(inst)?)?;
                let a = self.reg32(Self::opnd(inst, 1)?, g, SCRATCH)?;
                self.emit(g, format!("FLO{u} R{SCRATCH}, {a};"));
                self.shiftamt_from(g, &d, 0x1f);
                Ok(())
            })(),
            Opcode::Brev if w == Some(32) => (|| {
                let d = self.gpr(self.dst(inst)?)?;
                let a = self.reg32(Self::opnd(inst, 1)?, g, SCRATCH_PAIR)?;
                self.reverse32(g, &d, &a);
                Ok(())
            })(),
            Opcode::Brev if w == Some(64) => (|| {
                // d.lo = brev(a.hi), d.hi = brev(a.lo); pairs are aligned, so d.lo can only
                // be a.lo: a.lo is reversed into R3 first, then d.hi takes it last.
                let (dl, dh) = self.pair(self.dst(inst)?)?;
                if let Operand::Imm(v) = Self::opnd(inst, 1)? {
                    // Folded through `ops` (the scratch pair would hold the halves).
                    let r = ops::int::brev_b64(*v);
                    self.emit(g, format!("MOV32I {dl}, {};", hex(r as u32 as i32 as i64)));
                    self.emit(
                        g,
                        format!("MOV32I {dh}, {};", hex((r >> 32) as u32 as i32 as i64)),
                    );
                    return Ok(());
                }
                let (al, ah) = self.src64(Self::opnd(inst, 1)?, g)?;
                let t = format!("R{}", SCRATCH_PAIR + 1);
                self.reverse32(g, &t, &al);
                self.reverse32(g, &dl, &ah);
                self.emit(g, format!("MOV {dh}, {t};"));
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

impl Selector<'_> {
    /// `d = R0 == 0xffffffff ? 0xffffffff : msb − R0` for `R0` in `0..=msb` (`msb` 31 or 63, all
    /// ones): `R0 ^ msb`, with R0's sign ORed in. Reads R0, uses R2.
    pub(super) fn shiftamt_from(&mut self, g: &str, d: &str, msb: u32) {
        self.emit(g, format!("SHR R{SCRATCH_PAIR}, R{SCRATCH}, 0x1f;"));
        self.emit(
            g,
            format!("LOP.XOR {d}, R{SCRATCH}, {};", hex(i64::from(msb))),
        );
        self.emit(g, format!("LOP.OR {d}, {d}, R{SCRATCH_PAIR};"));
    }

    /// `d = brev(a)` (32 bits): adjacent bits, pairs and nibbles swapped with masks, then the
    /// bytes reversed by `PRMT` (selector 0x0123). Uses R0; `a` is read before `d` is
    /// written, so they may be one register (not R0).
    fn reverse32(&mut self, g: &str, d: &str, a: &str) {
        let mut src = a.to_string();
        for (k, mask) in [(1, 0x5555_5555u32), (2, 0x3333_3333), (4, 0x0f0f_0f0f)] {
            // d = ((src >> k) & mask) | ((src & mask) << k)
            self.emit(g, format!("SHR.U32 R{SCRATCH}, {src}, {};", hex(k)));
            self.emit(
                g,
                format!("LOP32I.AND R{SCRATCH}, R{SCRATCH}, {:#x};", mask),
            );
            self.emit(g, format!("LOP32I.AND {d}, {src}, {:#x};", mask));
            self.emit(g, format!("ISCADD {d}, {d}, R{SCRATCH}, {};", hex(k)));
            src = d.to_string();
        }
        self.emit(g, format!("PRMT {d}, {d}, 0x123, RZ;"));
    }
}
