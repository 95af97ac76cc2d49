//! `atom`/`red` `.add.noftz` on `.f16`/`.bf16` (and the packed `.f16x2`/`.bf16x2`), which
//! sm_20 has no atomic for: a 32-bit compare-and-swap loop on the aligned word that holds
//! the value, as `atomic64.rs` does with a 64-bit CAS. The arithmetic is `ops::atom::
//! atom_add_h`'s: round to nearest even once, subnormals kept, a NaN result the canonical
//! `0x7fff`. Fermi has no half arithmetic; the sum is taken in f32 and rounded to the half
//! format: both halves convert to f32 exactly, and rounding the f32 sum (24 bits) to a format
//! of p ≤ 11 bits equals rounding the exact sum once, since 24 ≥ 2p + 2 (double rounding is
//! innocuous then: S. A. Figueroa, "When is double rounding innocuous?", SIGNUM 1995; sums
//! below the half format's normal range are exact in f32 and in the half format alike).
//! `.f16` rounds with `F2F.F16.F32`; `.bf16` (an f32's upper half) by integer rounding to
//! nearest even of the f32 bits (`(x + 0x7fff + bit16) >> 16`).
//!
//! `atom.cas.b16` takes the same loop: the new half is `c` where the old one equals `b`.
//!
//! Global and generic addresses use `ATOM.CAS`; shared ones NVIDIA's `LDSLK`/`STSUL` lock
//! loop (`atomic.rs`). A scalar value's word is its address with bits 0–1 cleared and the
//! half at bit `(address & 2) · 8`; an odd address traps (the PTX executor faults on the
//! misaligned access). Registers: R4(:R5) the word's address, R6 the half's position (`pos |
//! 16 << 8` for `BFE`/`BFI`), R7 a scalar operand, R8 the old word, R9 the new one, R10–R13
//! and R0 temporaries (R4–R13 kept free by `needs_f64_scratch`), P6.

use super::{hex, Selector, R};
use crate::regs::{Loc, SCRATCH_PRED};
use ir::{Inst, Opcode, Operand, Space, Type};

/// Whether `ty` is one of this module's types.
fn is_half(ty: Option<Type>) -> bool {
    matches!(
        ty,
        Some(Type::F16 | Type::Bf16 | Type::F16x2 | Type::Bf16x2)
    )
}

/// Whether `inst` is a half-precision `atom`/`red` or `atom.cas.b16` (this module's loops).
pub fn is_half_atomic(inst: &Inst) -> bool {
    matches!(inst.op, Opcode::Atom | Opcode::Red)
        && (is_half(inst.ty())
            || inst.ty() == Some(Type::B16) && inst.mods.atom_op == Some(isa::AtomOp::Cas))
}

impl Selector<'_> {
    pub(super) fn atomic_half(&mut self, inst: &Inst, g: &str, ty: Type) -> R<()> {
        if !g.is_empty() {
            // Runs unguarded behind a branch (`flow::around_guard`).
            return Err("a guarded half-precision atomic".into());
        }
        let m = &inst.mods;
        let cas = m.atom_op == Some(isa::AtomOp::Cas) && ty == Type::B16;
        if !cas && m.atom_op.is_some_and(|op| op != isa::AtomOp::Add) {
            return Err("a half-precision atomic other than add".into());
        }
        let bf = matches!(ty, Type::Bf16 | Type::Bf16x2);
        let x2 = matches!(ty, Type::F16x2 | Type::Bf16x2);
        let red = inst.op == Opcode::Red;
        let (ai, bi) = if red { (0, 1) } else { (1, 2) };
        let Operand::Address(addr) = Self::opnd(inst, ai)? else {
            return Err("unexpected address operand".into());
        };
        let shared = matches!(m.space, Some(Space::Shared | Space::SharedCta));
        if !shared && !matches!(m.space, None | Some(Space::Global)) {
            return Err("atomics on this space have no selection rule".into());
        }
        let (base, off) = self.address(addr, m.space)?;
        let wide = self.a64 && !shared;
        let e = |s: &mut Self, t: String| s.emit("", t);
        // R4(:R5) = the address.
        if off == 0 {
            e(self, format!("MOV R4, {base};"));
        } else {
            e(
                self,
                format!("MOV32I R0, {};", hex(off as u32 as i32 as i64)),
            );
            let cc = if wide { ".CC" } else { "" };
            e(self, format!("IADD R4{cc}, {base}, R0;"));
        }
        if wide {
            let n: u8 = base
                .strip_prefix('R')
                .and_then(|n| n.parse().ok())
                .ok_or("an unexpected address register")?;
            let hi = format!("R{}", n + 1);
            if off == 0 {
                e(self, format!("MOV R5, {hi};"));
            } else {
                e(
                    self,
                    format!("MOV32I R0, {};", hex((off >> 32) as u32 as i32 as i64)),
                );
                e(self, format!("IADD.X R5, {hi}, R0;"));
            }
        }
        let p = format!("P{SCRATCH_PRED}");
        let b = match Self::opnd(inst, bi)? {
            Operand::Imm(v) => {
                let v = if x2 { *v as u32 } else { *v as u32 & 0xffff };
                e(self, format!("MOV32I R7, {};", hex(v as i32 as i64)));
                "R7".to_string()
            }
            Operand::Reg(r) => {
                let r = self.gpr(*r)?;
                if x2 {
                    r
                } else {
                    e(self, format!("LOP32I.AND R7, {r}, 0xffff;"));
                    "R7".to_string()
                }
            }
            _ => return Err("unsupported operand kind".into()),
        };
        if cas {
            // c, in R12 (b is in R7).
            match Self::opnd(inst, 3)? {
                Operand::Imm(v) => e(self, format!("MOV32I R12, {};", hex(i64::from(*v as u16)))),
                Operand::Reg(r) => {
                    let r = self.gpr(*r)?;
                    e(self, format!("LOP32I.AND R12, {r}, 0xffff;"));
                }
                _ => return Err("unsupported operand kind".into()),
            }
        }
        if !x2 {
            // An odd address faults; R6 = the half's position and length for BFE/BFI.
            e(self, "LOP32I.AND R0, R4, 0x1;".into());
            e(self, format!("ISETP.NE.U32.AND {p}, pt, R0, RZ, pt;"));
            e(self, format!("@{p} BPT.TRAP 0x1;"));
            e(self, "LOP32I.AND R6, R4, 0x2;".into());
            e(self, "SHL R6, R6, 0x3;".into());
            e(self, "LOP32I.OR R6, R6, 0x1000;".into());
            e(self, "LOP32I.AND R4, R4, 0xfffffffc;".into());
        }
        let k = self.out.len();
        let (top, after) = (
            format!("{}H{k}L", self.label_prefix),
            format!("{}H{k}T", self.label_prefix),
        );
        let ex = if wide { ".E" } else { "" };
        if !shared {
            e(self, format!("LD{ex} R8, [R4];"));
        }
        e(self, format!("SSY {after};"));
        self.out.push(super::Line::Label(top.clone()));
        if shared {
            // The lock bit in R13: the sum's NaN test below needs P6.
            e(self, format!("LDSLK {p}, R8, [R4];"));
            e(self, format!("SEL R13, RZ, 0x1, !{p};"));
        }
        // R9 = the new word.
        if x2 {
            e(self, "LOP32I.AND R10, R8, 0xffff;".into());
            e(self, format!("LOP32I.AND R11, {b}, 0xffff;"));
            self.half_add("R10", "R11", "R12", bf);
            e(self, "SHR.U32 R11, R8, 0x10;".into());
            e(self, format!("SHR.U32 R12, {b}, 0x10;"));
            self.half_add("R11", "R12", "R0", bf);
            e(self, "ISCADD R9, R11, R10, 0x10;".into());
        } else if cas {
            // ops::atom_int's cas on the 16 bits: c where the old value equals b.
            e(self, "BFE.U32 R10, R8, R6;".into());
            e(self, format!("ISETP.EQ.U32.AND {p}, pt, R10, {b}, pt;"));
            e(self, format!("SEL R10, R12, R10, {p};"));
            e(self, "BFI R9, R10, R6, R8;".into());
        } else {
            e(self, "BFE.U32 R10, R8, R6;".into());
            self.half_add("R10", &b, "R11", bf);
            e(self, "BFI R9, R10, R6, R8;".into());
        }
        if shared {
            e(self, format!("ISETP.NE.U32.AND {p}, pt, R13, RZ, pt;"));
            e(self, format!("@{p} STSUL [R4], R9;"));
            e(self, format!("@!{p} BRA {top};"));
        } else {
            e(self, format!("ATOM{ex}.CAS R10, [R4], R8, R9;"));
            e(self, format!("ISETP.NE.U32.AND {p}, pt, R10, R8, pt;"));
            e(self, "MOV R8, R10;".into());
            e(self, format!("@{p} BRA {top};"));
        }
        e(self, "NOP.S CC.T;".into());
        self.out.push(super::Line::Label(after));
        if !red {
            let d = match self.loc(self.dst(inst)?)? {
                Loc::Gpr(n) => format!("R{n}"),
                _ => return Err("a half-precision atomic's destination".into()),
            };
            if x2 {
                e(self, format!("MOV {d}, R8;"));
            } else {
                e(self, format!("BFE.U32 {d}, R8, R6;"));
            }
        }
        Ok(())
    }

    /// `x = round_half(f32(x) + f32(y))` on the halves in the low bits of `x` and `y` (upper
    /// bits zero), `t` a temporary; a NaN sum gives the canonical NaN `0x7fff`.
    fn half_add(&mut self, x: &str, y: &str, t: &str, bf: bool) {
        let p = format!("P{SCRATCH_PRED}");
        let mut e = |s: String| self.emit("", s);
        if bf {
            e(format!("SHL {x}, {x}, 0x10;"));
            e(format!("SHL {t}, {y}, 0x10;"));
        } else {
            e(format!("F2F.F32.F16 {x}, {x};"));
            e(format!("F2F.F32.F16 {t}, {y};"));
        }
        e(format!("FADD {x}, {x}, {t};"));
        e(format!("FSETP.NAN.AND {p}, pt, {x}, {x}, pt;"));
        if bf {
            e(format!("SHR.U32 {t}, {x}, 0x10;"));
            e(format!("LOP32I.AND {t}, {t}, 0x1;"));
            e(format!("IADD {t}, {t}, {x};"));
            e(format!("IADD {t}, {t}, 0x7fff;"));
            e(format!("SHR.U32 {x}, {t}, 0x10;"));
        } else {
            e(format!("F2F.F16.F32 {x}, {x};"));
            e(format!("LOP32I.AND {x}, {x}, 0xffff;"));
        }
        e(format!("@{p} MOV32I {x}, 0x7fff;"));
    }
}
