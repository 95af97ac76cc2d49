//! `cvt.sat` with a 64-bit side (`ops::cvt::cvt`: the source's value clamped to the
//! destination's range). Fermi has no 64-bit `I2I`, so the clamps are on the halves:
//! - to 64 bits from at most 32: the source extended to 32 bits, a negative signed source
//!   raised to 0 for `.u64` (`IMNMX … RZ, !pt`), then the high word (sign or zero);
//! - `.s64` → `.u64`: both halves ANDed with the complement of the sign mask; `.u64` →
//!   `.s64`: both halves ORed with the top bit's mask and the high word's top bit cleared;
//! - from 64 bits to at most 32: a 32-bit stand-in with the same clamped value — the low word
//!   when the source fits in 32 bits of the destination's kind of signedness, else the
//!   bound it saturates to — picked by `ICMP.EQ` (`d = c == 0 ? a : b`), then the 32-bit clamp
//!   of `saturate.rs`.

use super::{bits, is_signed, Selector, R};
use crate::regs::{SCRATCH, SCRATCH_PAIR};
use ir::{Inst, Operand, Type};

impl Selector<'_> {
    pub(super) fn cvt_sat_wide(&mut self, inst: &Inst, g: &str, dt: Type, st: Type) -> R<()> {
        let d = self.dst(inst)?;
        let a = match Self::opnd(inst, 1)? {
            Operand::Reg(r) => *r,
            _ => return Err("an immediate cvt.sat source".into()),
        };
        let (s, t) = (format!("R{SCRATCH}"), format!("R{SCRATCH_PAIR}"));
        match (bits(st) == 64, bits(dt) == 64) {
            (false, _) => {
                let a = self.gpr(a)?;
                let x = self.extend32(g, &a, st);
                let (dl, dh) = self.pair(d)?;
                if is_signed(st) && !is_signed(dt) {
                    self.emit(g, format!("IMNMX {dl}, {x}, RZ, !pt;"));
                    self.emit(g, format!("MOV {dh}, RZ;"));
                } else if is_signed(st) {
                    self.emit(g, format!("SHR {t}, {x}, 0x1f;"));
                    self.emit(g, format!("MOV {dl}, {x};"));
                    self.emit(g, format!("MOV {dh}, {t};"));
                } else {
                    self.emit(g, format!("MOV {dl}, {x};"));
                    self.emit(g, format!("MOV {dh}, RZ;"));
                }
            }
            (true, true) => {
                let (al, ah) = self.pair(a)?;
                let (dl, dh) = self.pair(d)?;
                match (is_signed(st), is_signed(dt)) {
                    (true, false) => {
                        self.emit(g, format!("SHR {s}, {ah}, 0x1f;"));
                        self.emit(g, format!("LOP.AND {dl}, {al}, ~{s};"));
                        self.emit(g, format!("LOP.AND {dh}, {ah}, ~{s};"));
                    }
                    (false, true) => {
                        self.emit(g, format!("SHR {s}, {ah}, 0x1f;"));
                        self.emit(g, format!("LOP.OR {dl}, {al}, {s};"));
                        self.emit(g, format!("LOP.OR {dh}, {ah}, {s};"));
                        self.emit(g, format!("LOP32I.AND {dh}, {dh}, 0x7fffffff;"));
                    }
                    _ => {
                        self.emit(g, format!("MOV {dl}, {al};"));
                        self.emit(g, format!("MOV {dh}, {ah};"));
                    }
                }
            }
            (true, false) => {
                let (al, ah) = self.pair(a)?;
                let d = self.gpr(d)?;
                let signed = is_signed(st) && is_signed(dt);
                if signed {
                    // Fits in s32 when the high word is the low word's sign; else S32_MIN or
                    // S32_MAX by the high word's sign.
                    self.emit(g, format!("SHR {s}, {al}, 0x1f;"));
                    self.emit(g, format!("LOP.XOR {s}, {s}, {ah};"));
                    self.emit(g, format!("SHR {t}, {ah}, 0x1f;"));
                    self.emit(g, format!("LOP32I.XOR {t}, {t}, 0x7fffffff;"));
                    self.emit(g, format!("ICMP.EQ {s}, {al}, {t}, {s};"));
                } else if is_signed(st) {
                    // Fits in u32 when the high word is 0; else 0 (negative) or U32_MAX.
                    self.emit(g, format!("SHR {t}, {ah}, 0x1f;"));
                    self.emit(g, format!("LOP.PASS_B {t}, RZ, ~{t};"));
                    self.emit(g, format!("ICMP.EQ {s}, {al}, {t}, {ah};"));
                } else {
                    let max = self.src32(&Operand::Imm(0xffff_ffff), g, SCRATCH_PAIR, true)?;
                    self.emit(g, format!("ICMP.EQ {s}, {al}, {max}, {ah};"));
                }
                self.clamp32(g, &d, s, signed, dt)?;
            }
        }
        Ok(())
    }
}
