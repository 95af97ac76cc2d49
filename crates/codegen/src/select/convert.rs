//! `cvt` between integer and float types: `MOV`/`SHR` for 32↔64 bits, `I2I` for 8/16-bit
//! types, `I2F`, `F2I`, `F2F` with PTX's rounding modifiers, `.sat` and `.f16` (IEEE
//! binary16 in the low half of a register, Fermi's `.F16`).

use super::{bits, i2i_type, is_signed, ty_spelling, Selector, R};
use crate::regs::Loc;
use ir::{Inst, Operand, PtxVersion, Type};
use isa::{Flag, Rounding};

impl Selector<'_> {
    pub(super) fn cvt(&mut self, inst: &Inst, g: &str) -> R<()> {
        let (dt, st) = (
            inst.type_slot(0).ok_or("no type")?,
            inst.type_slot(1).ok_or("no type")?,
        );
        let m = &inst.mods;
        if [dt, st]
            .iter()
            .any(|t| matches!(t, Type::Bf16 | Type::Tf32))
        {
            return Err(format!(
                "cvt{}{} has no sm_20 instruction: Fermi converts no .bf16/.tf32 (sm_80 forms)",
                ty_spelling(dt),
                ty_spelling(st)
            ));
        }
        let float = |t: Type| matches!(t, Type::F16 | Type::F32 | Type::F64);
        let any_int = |t: Type| {
            matches!(
                t,
                Type::U8
                    | Type::S8
                    | Type::U16
                    | Type::S16
                    | Type::U32
                    | Type::S32
                    | Type::U64
                    | Type::S64
            )
        };
        if (float(dt) || float(st)) && (float(dt) || any_int(dt)) && (float(st) || any_int(st)) {
            return self.cvt_float(inst, g, dt, st);
        }
        if any_int(dt)
            && any_int(st)
            && m.has(Flag::Sat)
            && m.rounding.is_none()
            && !m.has(Flag::Ftz)
        {
            return self.cvt_sat_int(inst, g, dt, st);
        }
        if m.rounding.is_some() || m.has(Flag::Sat) || m.has(Flag::Ftz) {
            return Err("cvt with rounding/.sat/.ftz has no selection rule yet".into());
        }
        if let Operand::Special { .. } = Self::opnd(inst, 1)? {
            if bits(dt) == 32 {
                return self.mov(inst, g, 32);
            }
        }
        let small = |t: Type| {
            matches!(
                t,
                Type::U8 | Type::S8 | Type::U16 | Type::S16 | Type::U32 | Type::S32
            )
        };
        if small(dt) && small(st) && (bits(dt) < 32 || bits(st) < 32) {
            let d = self.gpr(self.dst(inst)?)?;
            let a = match Self::opnd(inst, 1)? {
                Operand::Reg(r) => self.gpr(*r)?,
                _ => return Err("an immediate cvt source".into()),
            };
            self.emit(g, format!("I2I{}{} {d}, {a};", i2i_type(dt), i2i_type(st)));
            return Ok(());
        }
        let sub = |t: Type| bits(t) < 32;
        let wide = |t: Type| matches!(t, Type::U64 | Type::S64);
        if (sub(dt) && wide(st)) || (wide(dt) && sub(st)) {
            return self.cvt_sub_word_64(inst, g, dt, st);
        }
        let int = |t: Type| {
            matches!(
                t,
                Type::U32 | Type::S32 | Type::U64 | Type::S64 | Type::B32 | Type::B64
            )
        };
        if !int(dt) || !int(st) {
            return Err(format!(
                "cvt{}{} has no selection rule yet",
                ty_spelling(dt),
                ty_spelling(st)
            ));
        }
        let d = self.dst(inst)?;
        let a = match Self::opnd(inst, 1)? {
            Operand::Reg(r) => *r,
            _ => return Err("an immediate cvt source".into()),
        };
        match (bits(dt), bits(st)) {
            (32, 32) => {
                let (d, a) = (self.gpr(d)?, self.gpr(a)?);
                self.emit(g, format!("MOV {d}, {a};"));
            }
            (32, 64) => {
                let d = self.gpr(d)?;
                let (al, _) = self.pair(a)?;
                self.emit(g, format!("MOV {d}, {al};"));
            }
            (64, 32) => {
                let (dl, dh) = self.pair(d)?;
                let a = self.gpr(a)?;
                self.emit(g, format!("MOV {dl}, {a};"));
                if is_signed(st) {
                    self.emit(g, format!("SHR {dh}, {a}, 0x1f;"));
                } else {
                    self.emit(g, format!("MOV {dh}, RZ;"));
                }
            }
            _ => {
                let (dl, dh) = self.pair(d)?;
                let (al, ah) = self.pair(a)?;
                self.emit(g, format!("MOV {dl}, {al};"));
                self.emit(g, format!("MOV {dh}, {ah};"));
            }
        }
        Ok(())
    }

    /// `cvt` between a 64-bit and an 8- or 16-bit integer (PTX ISA §9.7.9.21: integer
    /// conversions truncate or extend by the source type). Narrowing reads only the low
    /// word, so it is the 32-bit narrowing `I2I` of that word; widening extends the part to
    /// 32 bits by the source's signedness (`I2I.S32`/`.U32`) and fills the high word with
    /// that word's sign or zero.
    fn cvt_sub_word_64(&mut self, inst: &Inst, g: &str, dt: Type, st: Type) -> R<()> {
        let d = self.dst(inst)?;
        let a = match Self::opnd(inst, 1)? {
            Operand::Reg(r) => *r,
            _ => return Err("an immediate cvt source".into()),
        };
        if bits(st) == 64 {
            let d = self.gpr(d)?;
            let (al, _) = self.pair(a)?;
            let word = if is_signed(st) { Type::S32 } else { Type::U32 };
            self.emit(
                g,
                format!("I2I{}{} {d}, {al};", i2i_type(dt), i2i_type(word)),
            );
        } else {
            let (dl, dh) = self.pair(d)?;
            let a = self.gpr(a)?;
            let word = if is_signed(st) { Type::S32 } else { Type::U32 };
            self.emit(
                g,
                format!("I2I{}{} {dl}, {a};", i2i_type(word), i2i_type(st)),
            );
            if is_signed(st) {
                self.emit(g, format!("SHR {dh}, {dl}, 0x1f;"));
            } else {
                self.emit(g, format!("MOV {dh}, RZ;"));
            }
        }
        Ok(())
    }

    /// A register operand as text, the low register of a pair for 64-bit values.
    fn any_reg(&mut self, o: &Operand) -> R<String> {
        match o {
            Operand::Reg(r) => match self.loc(*r)? {
                Loc::Gpr(n) | Loc::Pair(n) => Ok(format!("R{n}")),
                Loc::Pred(_) => Err("a predicate operand".into()),
            },
            _ => Err("an immediate cvt source".into()),
        }
    }

    /// Conversions with a float on either side: `I2F`, `F2I`, `F2F`, whose rounding
    /// modifiers are PTX's (`.rn/.rz/.rm/.rp` for float results, `.rni/.rzi/.rmi/.rpi` for
    /// integer results and float-to-float rounding to an integer).
    fn cvt_float(&mut self, inst: &Inst, g: &str, dt: Type, st: Type) -> R<()> {
        let fty = |t: Type| match t {
            Type::F16 => ".F16",
            Type::F32 => ".F32",
            Type::F64 => ".F64",
            Type::U8 => ".U8",
            Type::S8 => ".S8",
            Type::U16 => ".U16",
            Type::S16 => ".S16",
            Type::U32 => ".U32",
            Type::S32 => ".S32",
            Type::U64 => ".U64",
            _ => ".S64",
        };
        if (dt == Type::F16 || st == Type::F16) && self.module.version < PtxVersion::new(2, 0) {
            // PTX 1.x's `.f16` has no infinities or NaNs (maximum 131008, ops::cvt's
            // `F16Rules::Ptx11`); Fermi's F2F/I2F/F2I `.F16` is IEEE binary16.
            return Err(
                "a PTX 1.x .f16 (no infinities or NaNs) has no sm_20 conversion: Fermi's .F16 is IEEE binary16"
                    .into(),
            );
        }
        let ftz = if inst.mods.has(Flag::Ftz) { ".FTZ" } else { "" };
        let float = |t: Type| matches!(t, Type::F16 | Type::F32 | Type::F64);
        // `.sat` of a float result: F2F's own `.SAT`; I2F has none, so an integer source is
        // converted, then saturated by `F2F.SAT` in place (an integer converts to a value of
        // at least 1 or at most 0, which saturate to exactly ops' 1.0 and +0). A float→integer
        // conversion saturates with or without `.sat` (ops::cvt; F2I clamps the same way).
        let sat = inst.mods.has(Flag::Sat) && float(dt);
        let d = self.any_reg(Self::opnd(inst, 0)?)?;
        let a = self.any_reg(Self::opnd(inst, 1)?)?;
        let r = inst.mods.rounding;
        let text = if !float(st) {
            let rnd = match r {
                Some(Rounding::Rn) => "",
                Some(Rounding::Rz) => ".RZ",
                Some(Rounding::Rm) => ".RM",
                Some(Rounding::Rp) => ".RP",
                _ => return Err("integer-to-float cvt needs .rn/.rz/.rm/.rp".into()),
            };
            let text = format!("I2F{}{}{rnd} {d}, {a};", fty(dt), fty(st));
            if sat {
                self.emit(g, text);
                format!("F2F{}{}.SAT {d}, {d};", fty(dt), fty(dt))
            } else {
                text
            }
        } else if !float(dt) {
            let rnd = match r {
                Some(Rounding::Rni) => "",
                Some(Rounding::Rzi) => ".TRUNC",
                Some(Rounding::Rmi) => ".FLOOR",
                Some(Rounding::Rpi) => ".CEIL",
                _ => return Err("float-to-integer cvt needs .rni/.rzi/.rmi/.rpi".into()),
            };
            format!("F2I{ftz}{}{}{rnd} {d}, {a};", fty(dt), fty(st))
        } else {
            let rnd = match r {
                None | Some(Rounding::Rn) => "",
                Some(Rounding::Rz) => ".RZ",
                Some(Rounding::Rm) => ".RM",
                Some(Rounding::Rp) => ".RP",
                Some(Rounding::Rni) => ".ROUND",
                Some(Rounding::Rzi) => ".TRUNC",
                Some(Rounding::Rmi) => ".FLOOR",
                Some(Rounding::Rpi) => ".CEIL",
                Some(_) => return Err("this rounding has no F2F form".into()),
            };
            let sat = if sat { ".SAT" } else { "" };
            format!("F2F{ftz}{}{}{rnd}{sat} {d}, {a};", fty(dt), fty(st))
        };
        self.emit(g, text);
        Ok(())
    }
}
