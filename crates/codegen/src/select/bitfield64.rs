//! `bfe.{u64,s64}` with a register position or length, and `bfi.b64` (ptx-isa §9.7.1.19–20,
//! `ops::int::bfe`/`bfi` the definition). Both clamp `pos = b & 0xff` and `len = c & 0xff`
//! first. The sequences use R0, R2:R3 and R4–R7 (kept free by `needs_f64_scratch`) and no
//! predicate, so every instruction simply takes the guard.
//!
//! - `bfe`: `present = max(0, min(len, 64 − pos))` field bits; the result is `a << up` then
//!   shifted down by `64 − present` (arithmetically when signed), with `up = max(0, 64 − pos
//!   − present)`. When `pos ≥ 64` that is `a >> 64`: 0, or the sign of `a` (the spec's
//!   `a[min(pos+len−1, 63)]`) when signed. A signed `len = 0` must give 0, so `up` is 64 then
//!   (`a << 64 = 0`).
//! - `bfi`: the low word is Fermi's 32-bit `BFI` of `a`'s low word at `pos` (`ops::int::bfi`
//!   clips the field at bit 31 and leaves the word when `pos ≥ 32`); the high word a `BFI` at
//!   `hpos = max(pos − 32, 0)` of `hlen = max(pos + len − 32 − hpos, 0)` bits of the high
//!   word of `a << pos` (`a`'s low word when `pos ≥ 32`, else `ah << pos | al >> (32 − pos)`).

use super::{hex, Selector, R};
use ir::{Inst, Opcode, Operand, Type};

/// Whether `inst` is one of this module's forms (the allocator keeps R4–R13 free then).
pub fn needs_scratch(inst: &Inst) -> bool {
    match (inst.op, inst.ty()) {
        (Opcode::Bfe, Some(Type::U64 | Type::S64)) => !matches!(
            (inst.operands.get(2), inst.operands.get(3)),
            (Some(Operand::Imm(_)), Some(Operand::Imm(_)))
        ),
        (Opcode::Bfi, Some(Type::B64)) => true,
        _ => false,
    }
}

impl Selector<'_> {
    /// A 32-bit position or length operand clamped to `0..=255` in `Rn`.
    fn field_operand(&mut self, inst: &Inst, i: usize, n: u8, g: &str) -> R<String> {
        match Self::opnd(inst, i)? {
            Operand::Imm(v) => self.emit(g, format!("MOV32I R{n}, {};", hex(*v as i64 & 0xff))),
            Operand::Reg(r) => {
                let r = self.gpr(*r)?;
                self.emit(g, format!("LOP32I.AND R{n}, {r}, 0xff;"));
            }
            _ => return Err("unsupported operand kind".into()),
        }
        Ok(format!("R{n}"))
    }

    /// A 64-bit source's halves; an immediate goes to `Rn:Rn+1`.
    fn wide_source(&mut self, inst: &Inst, i: usize, n: u8, g: &str) -> R<(String, String)> {
        match Self::opnd(inst, i)? {
            Operand::Reg(r) => self.pair(*r),
            Operand::Imm(v) => {
                for (k, half) in [*v as u32, (*v >> 32) as u32].into_iter().enumerate() {
                    self.emit(
                        g,
                        format!("MOV32I R{}, {};", n + k as u8, hex(half as i32 as i64)),
                    );
                }
                Ok((format!("R{n}"), format!("R{}", n + 1)))
            }
            _ => Err("unsupported operand kind".into()),
        }
    }

    /// `bfe.{u64,s64}` with a register position or length (see the module comment).
    pub(super) fn bfe64_by_reg(&mut self, inst: &Inst, g: &str, ty: Type) -> R<()> {
        let signed = ty == Type::S64;
        let (dl, dh) = self.pair(self.dst(inst)?)?;
        let (al, ah) = self.wide_source(inst, 1, 6, g)?;
        let pos = self.field_operand(inst, 2, 2, g)?;
        let len = self.field_operand(inst, 3, 3, g)?;
        let mut e = |s: String| self.emit(g, s);
        // R2 = 64 − pos (signed, −191..=64); R0 = present.
        e(format!("IADD {pos}, -{pos}, 0x40;"));
        e(format!("IMNMX R0, {pos}, {len}, pt;"));
        e("IMNMX R0, R0, RZ, !pt;".into());
        // R2 = up; R3 = down = 64 − present.
        e(format!("IADD {pos}, {pos}, -R0;"));
        e(format!("IMNMX {pos}, {pos}, RZ, !pt;"));
        if signed {
            e(format!("ICMP.NE {pos}, {pos}, 0x40, {len};"));
        }
        e(format!("IADD {len}, -R0, 0x40;"));
        // d = a << up (up ≤ 64; Fermi's shifts give 0 for amounts of 32 and more, and
        // negative differences are such amounts). Each destination half is written once
        // its source half is read.
        e(format!("SHL {dh}, {ah}, {pos};"));
        e(format!("IADD R0, -{pos}, 0x20;"));
        e(format!("SHR.U32 R0, {al}, R0;"));
        e(format!("LOP.OR {dh}, {dh}, R0;"));
        e(format!("IADD R0, {pos}, -0x20;"));
        e(format!("SHL R0, {al}, R0;"));
        e(format!("LOP.OR {dh}, {dh}, R0;"));
        e(format!("SHL {dl}, {al}, {pos};"));
        // d >>= down, in place.
        e(format!("SHR.U32 {dl}, {dl}, {len};"));
        e(format!("IADD R0, -{len}, 0x20;"));
        e(format!("SHL R0, {dh}, R0;"));
        e(format!("LOP.OR {dl}, {dl}, R0;"));
        e(format!("IADD R4, {len}, -0x20;"));
        if signed {
            // down ≥ 32: the low word is the high one shifted by down − 32 (arithmetic,
            // which does not vanish), picked by the sign of down − 32.
            e(format!("SHR R0, {dh}, R4;"));
            e(format!("ICMP.GE {dl}, R0, {dl}, R4;"));
            e(format!("SHR {dh}, {dh}, {len};"));
        } else {
            e(format!("SHR.U32 R0, {dh}, R4;"));
            e(format!("LOP.OR {dl}, {dl}, R0;"));
            e(format!("SHR.U32 {dh}, {dh}, {len};"));
        }
        Ok(())
    }

    /// `bfi.b64 d, a, b, pos, len` (see the module comment).
    pub(super) fn bfi64(&mut self, inst: &Inst, g: &str) -> R<()> {
        let (dl, dh) = self.pair(self.dst(inst)?)?;
        let (al, ah) = self.wide_source(inst, 1, 8, g)?;
        let (bl, bh) = self.wide_source(inst, 2, 10, g)?;
        let pos = self.field_operand(inst, 3, 2, g)?;
        let len = self.field_operand(inst, 4, 3, g)?;
        let mut e = |s: String| self.emit(g, s);
        // The low word, in R4.
        e(format!("BFI R4, {len}, 0x808, {pos};"));
        e(format!("BFI R4, {al}, R4, {bl};"));
        // R5 = hpos | hlen << 8.
        e(format!("IADD R5, {pos}, -0x20;"));
        e("IMNMX R5, R5, RZ, !pt;".into());
        e(format!("IADD R6, {pos}, {len};"));
        e("IADD R6, R6, -0x20;".into());
        e("IADD R6, R6, -R5;".into());
        e("IMNMX R6, R6, RZ, !pt;".into());
        e("BFI R5, R6, 0x808, R5;".into());
        // R6 = the high word of a << pos for pos < 32, a's low word otherwise.
        e(format!("SHL R6, {ah}, {pos};"));
        e(format!("IADD R7, -{pos}, 0x20;"));
        e(format!("SHR.U32 R7, {al}, R7;"));
        e("LOP.OR R6, R6, R7;".into());
        e(format!("IADD R7, {pos}, -0x20;"));
        e(format!("ICMP.GE R6, {al}, R6, R7;"));
        // a and b are read: the destination's halves may be theirs.
        e(format!("BFI {dh}, R6, R5, {bh};"));
        e(format!("MOV {dl}, R4;"));
        Ok(())
    }
}
