//! Arithmetic whose selection is more than one row: 64-bit shifts by a constant, f32/f64
//! binary operations and `fma`, 32-bit multiplies (`IMUL`/`IMAD`, `.hi`, `.wide`), `setp`
//! (`ISETP`/`FSETP`/`DSETP` and the 64-bit comparisons), and the carry-chain forms.

use super::*;

impl Selector<'_> {
    /// 64-bit shifts by an immediate, on the two halves (PTX clamps amounts at 64).
    pub(super) fn shift64(&mut self, inst: &Inst, g: &str, ty: Type) -> R<()> {
        let Operand::Imm(s) = Self::opnd(inst, 2)? else {
            return Err("64-bit shifts by a register amount have no selection rule yet".into());
        };
        let s = (*s as u32).min(64) as i64;
        let (dl, dh) = self.pair(self.dst(inst)?)?;
        let (al, ah) = match Self::opnd(inst, 1)? {
            Operand::Reg(r) if self.narrowed.contains_key(r) => {
                let a = self.narrowed[r];
                (self.gpr(a)?, "RZ".to_string())
            }
            Operand::Reg(r) => self.pair(*r)?,
            _ => return Err("an immediate shifted value".into()),
        };
        let high_zero =
            matches!(Self::opnd(inst, 1)?, Operand::Reg(r) if self.zero_high.contains(r));
        let signed = inst.op == Opcode::Shr && is_signed(ty);
        let sra = if signed { "SHR" } else { "SHR.U32" };
        let x = |s: i64| hex(s);
        // The destination pair never shares registers with the source pair (see alloc.rs), so
        // writing one half before reading the other is safe.
        let lines: Vec<String> = match (inst.op, s) {
            (_, 0) => vec![format!("MOV {dl}, {al};"), format!("MOV {dh}, {ah};")],
            // A zero-extended value: the high word is the low word's top bits.
            (Opcode::Shl, 1..=31) if high_zero => vec![
                format!("SHR.U32 {dh}, {al}, {};", x(32 - s)),
                format!("SHL {dl}, {al}, {};", x(s)),
            ],
            (Opcode::Shl, 1..=31) => vec![
                format!("SHL {dh}, {ah}, {};", x(s)),
                format!("SHR.U32 R{SCRATCH}, {al}, {};", x(32 - s)),
                format!("LOP.OR {dh}, {dh}, R{SCRATCH};"),
                format!("SHL {dl}, {al}, {};", x(s)),
            ],
            (Opcode::Shl, 32..=63) => {
                vec![
                    format!("SHL {dh}, {al}, {};", x(s - 32)),
                    format!("MOV {dl}, RZ;"),
                ]
            }
            (Opcode::Shl, _) => vec![format!("MOV {dl}, RZ;"), format!("MOV {dh}, RZ;")],
            (_, 1..=31) => vec![
                format!("SHR.U32 {dl}, {al}, {};", x(s)),
                format!("SHL R{SCRATCH}, {ah}, {};", x(32 - s)),
                format!("LOP.OR {dl}, {dl}, R{SCRATCH};"),
                format!("{sra} {dh}, {ah}, {};", x(s)),
            ],
            (_, 32..=63) if signed => vec![
                format!("SHR {dl}, {ah}, {};", x(s - 32)),
                format!("SHR {dh}, {ah}, 0x1f;"),
            ],
            (_, 32..=63) => {
                vec![
                    format!("SHR.U32 {dl}, {ah}, {};", x(s - 32)),
                    format!("MOV {dh}, RZ;"),
                ]
            }
            (_, _) if signed => vec![
                format!("SHR {dl}, {ah}, 0x1f;"),
                format!("SHR {dh}, {ah}, 0x1f;"),
            ],
            (_, _) => vec![format!("MOV {dl}, RZ;"), format!("MOV {dh}, RZ;")],
        };
        for l in lines {
            self.emit(g, l);
        }
        Ok(())
    }

    pub(super) fn float_bin(&mut self, inst: &Inst, g: &str, name: &str) -> R<()> {
        let m = &inst.mods;
        if m.has(Flag::Approx) {
            return Err(".approx float forms have no selection rule yet".into());
        }
        let rnd = rounding_suffix(m.rounding)?;
        let ftz = if m.has(Flag::Ftz) { ".FTZ" } else { "" };
        // `.sat`: the rows' own bit, ops::float's saturation in both executors.
        let rnd = format!("{rnd}{}", if m.has(Flag::Sat) { ".SAT" } else { "" });
        let d = self.gpr(self.dst(inst)?)?;
        let a = self.reg32(Self::opnd(inst, 1)?, g, SCRATCH)?;
        // a - b is a + (-b) exactly (negation is a sign flip), including b = +0 (RZ).
        let sub = inst.op == Opcode::Sub;
        let (b, folded) = self.fsrc32(Self::opnd(inst, 2)?, g, SCRATCH_PAIR, sub)?;
        let neg = if sub && !folded { "-" } else { "" };
        self.emit(g, format!("{name}{ftz}{rnd} {d}, {a}, {neg}{b};"));
        Ok(())
    }

    pub(super) fn double_bin(&mut self, inst: &Inst, g: &str, name: &str) -> R<()> {
        let rnd = rounding_suffix(inst.mods.rounding)?;
        let (dl, _) = self.pair(self.dst(inst)?)?;
        let a = match Self::opnd(inst, 1)? {
            Operand::Reg(r) => self.pair(*r)?.0,
            _ => return Err("an immediate first f64 source".into()),
        };
        // An immediate goes whole into the scratch pair, so the operand is one aligned pair.
        let b = self.f64_operand(Self::opnd(inst, 2)?, g)?;
        let neg = if inst.op == Opcode::Sub { "-" } else { "" };
        self.emit(g, format!("{name}{rnd} {dl}, {a}, {neg}{b};"));
        Ok(())
    }

    pub(super) fn fma(&mut self, inst: &Inst, g: &str, ty: Type) -> R<()> {
        let m = &inst.mods;
        if m.has(Flag::Sat) && (m.rounding.is_none() || ty != Type::F32) {
            return Err(".sat of an unfused PTX 1.x mad has no selection rule yet".into());
        }
        if m.rounding.is_none() {
            // PTX 1.x `mad` without a rounding modifier (ops::float::mad_f32/mad_f64): the
            // product rounded to nearest, then the add rounded to nearest; not fused.
            if inst.op != Opcode::Mad {
                return Err("fma without a rounding modifier".into());
            }
            if ty == Type::F32 {
                let ftz = if m.has(Flag::Ftz) { ".FTZ" } else { "" };
                let d = self.gpr(self.dst(inst)?)?;
                let a = self.reg32(Self::opnd(inst, 1)?, g, SCRATCH)?;
                let b = self.reg32(Self::opnd(inst, 2)?, g, SCRATCH_PAIR)?;
                self.emit(g, format!("FMUL{ftz} R{SCRATCH}, {a}, {b};"));
                let c = self.reg32(Self::opnd(inst, 3)?, g, SCRATCH_PAIR + 1)?;
                self.emit(g, format!("FADD{ftz} {d}, R{SCRATCH}, {c};"));
            } else {
                let (dl, _) = self.pair(self.dst(inst)?)?;
                let mut part = |i: usize| -> R<String> {
                    match Self::opnd(inst, i)? {
                        Operand::Reg(r) => Ok(self.pair(*r)?.0),
                        _ => Err("an immediate f64 mad operand".to_string()),
                    }
                };
                let (a, b, c) = (part(1)?, part(2)?, part(3)?);
                self.emit(g, format!("DMUL R{SCRATCH_PAIR}, {a}, {b};"));
                self.emit(g, format!("DADD {dl}, R{SCRATCH_PAIR}, {c};"));
            }
            return Ok(());
        }
        let rnd = rounding_suffix(m.rounding)?;
        if ty == Type::F32 {
            let ftz = if m.has(Flag::Ftz) { ".FTZ" } else { "" };
            let d = self.gpr(self.dst(inst)?)?;
            let a = self.reg32(Self::opnd(inst, 1)?, g, SCRATCH)?;
            let (b, _) = self.fsrc32(Self::opnd(inst, 2)?, g, SCRATCH_PAIR, false)?;
            let c = self.reg32(Self::opnd(inst, 3)?, g, SCRATCH_PAIR + 1)?;
            let sat = if m.has(Flag::Sat) { ".SAT" } else { "" };
            self.emit(g, format!("FFMA{ftz}{rnd}{sat} {d}, {a}, {b}, {c};"));
        } else {
            let (dl, _) = self.pair(self.dst(inst)?)?;
            let part = |s: &mut Self, i: usize| -> R<String> {
                match Self::opnd(inst, i)? {
                    Operand::Reg(r) => Ok(s.pair(*r)?.0),
                    _ => Err("an immediate f64 fma operand".to_string()),
                }
            };
            let a = part(self, 1)?;
            let b = part(self, 2)?;
            let c = part(self, 3)?;
            self.emit(g, format!("DFMA{rnd} {dl}, {a}, {b}, {c};"));
        }
        Ok(())
    }

    pub(super) fn int_mul(&mut self, inst: &Inst, g: &str, ty: Type) -> R<()> {
        let m = &inst.mods;
        if inst.op == Opcode::Mad
            && ty == Type::S32
            && m.has(Flag::Sat)
            && m.mul_mode == Some(MulMode::Hi)
            && !m.has(Flag::Cc)
        {
            return self.mad_hi_sat(inst, g);
        }
        if m.has(Flag::Sat) || m.has(Flag::Cc) {
            return Err(".sat/.cc multiply forms have no selection rule yet".into());
        }
        // The low word of a product by 2^k is a shift, whatever the signedness: `SHL`, and
        // `ISCADD` for `mad` (NVIDIA's forms; no multiplier needed).
        if let (Some(MulMode::Lo) | None, Operand::Imm(v)) = (m.mul_mode, Self::opnd(inst, 2)?) {
            let v = *v as u32;
            if v.is_power_of_two() && v >= 2 {
                let k = hex(i64::from(v.trailing_zeros()));
                let a = self.reg32(Self::opnd(inst, 1)?, g, SCRATCH)?;
                let c = match inst.op {
                    Opcode::Mad => Some(self.src32(Self::opnd(inst, 3)?, g, SCRATCH_PAIR, true)?),
                    _ => None,
                };
                let d = self.gpr(self.dst(inst)?)?;
                match c {
                    Some(c) if c != "RZ" => self.emit(g, format!("ISCADD {d}, {a}, {c}, {k};")),
                    _ => self.emit(g, format!("SHL {d}, {a}, {k};")),
                }
                return Ok(());
            }
        }
        let types = if is_signed(ty) { "" } else { ".U32.U32" };
        let d = self.dst(inst)?;
        let a = self.reg32(Self::opnd(inst, 1)?, g, SCRATCH)?;
        let b = self.src32(Self::opnd(inst, 2)?, g, SCRATCH_PAIR, true)?;
        let mad = inst.op == Opcode::Mad;
        let c = if mad {
            Some(self.reg32(Self::opnd(inst, 3)?, g, SCRATCH_PAIR + 1)?)
        } else {
            None
        };
        match (m.mul_mode, c) {
            (Some(MulMode::Lo) | None, None) => {
                let d = self.gpr(d)?;
                self.emit(g, format!("IMUL{types} {d}, {a}, {b};"));
            }
            (Some(MulMode::Hi), None) => {
                let d = self.gpr(d)?;
                self.emit(g, format!("IMUL{types}.HI {d}, {a}, {b};"));
            }
            (Some(MulMode::Lo) | None, Some(c)) => {
                let d = self.gpr(d)?;
                self.emit(g, format!("IMAD{types} {d}, {a}, {b}, {c};"));
            }
            (Some(MulMode::Wide), None) => {
                let (dl, dh) = self.pair(d)?;
                // The high half first would be wrong if dl aliased a source; it cannot (a pair
                // and a 32-bit register never share a register here).
                self.emit(g, format!("IMUL{types} {dl}, {a}, {b};"));
                self.emit(g, format!("IMUL{types}.HI {dh}, {a}, {b};"));
            }
            _ => return Err("mad.hi / mad.wide have no selection rule yet".into()),
        }
        Ok(())
    }

    pub(super) fn setp(&mut self, inst: &Inst, g: &str, ty: Type) -> R<()> {
        let (p, q) = match Self::opnd(inst, 0)? {
            Operand::PredPair(p, q) => (*p, *q),
            Operand::Reg(p) => (*p, None),
            _ => return Err("unexpected destination".into()),
        };
        let p = self.pred(p)?;
        // ISETP/FSETP's second destination is `!(a cmp b) op c`, PTX's `q`.
        let q = match q {
            Some(q) => self.pred(q)?,
            None => "pt".to_string(),
        };
        self.compare(inst, g, ty, p, q)
    }

    /// `setp`'s comparison of operands 1 and 2 (type `ty`), combined with operand 3, into
    /// the predicates named `p` and `q` (`pt` for none): also `set`'s, into the scratch
    /// predicate.
    pub(super) fn compare(
        &mut self,
        inst: &Inst,
        g: &str,
        ty: Type,
        p: String,
        q: String,
    ) -> R<()> {
        let m = &inst.mods;
        let cmp = m.cmp.ok_or("missing comparison")?;
        let c = match inst.operands.get(3) {
            None | Some(Operand::Omitted) => "pt".to_string(),
            // A literal 1 or 0 is PT or !PT (`pred_src`).
            Some(o) => self.pred_src(o)?,
        };
        let bop = bool_op(m.bool_op);
        match ty {
            // Half-precision comparisons are sm_53 forms: sm_20 has no f16 or bf16 FSETP, and
            // the integer rules below must never take their bits (+0 == -0, NaN).
            Type::F16 | Type::Bf16 | Type::F16x2 | Type::Bf16x2 => {
                return Err(super::newer_form(inst).unwrap_or_else(|| {
                    "an f16/bf16 comparison: sm_20 has no half-precision FSETP".into()
                }))
            }
            // DSETP's comparisons and combining are ops::cmp's on both executors.
            Type::F64 => {
                let (a, b) = (Self::opnd(inst, 1)?, Self::opnd(inst, 2)?);
                // An immediate goes through the scratch pair; two would need two.
                if matches!(a, Operand::Imm(_)) && matches!(b, Operand::Imm(_)) {
                    return Err("an f64 setp of two immediates".into());
                }
                let al = self.f64_operand(a, g)?;
                let bl = self.f64_operand(b, g)?;
                let cmp = float_cmp(cmp);
                self.emit(g, format!("DSETP.{cmp}.{bop} {p}, {q}, {al}, {bl}, {c};"));
            }
            Type::F32 => {
                let ftz = if m.has(Flag::Ftz) { ".FTZ" } else { "" };
                let a = self.reg32(Self::opnd(inst, 1)?, g, SCRATCH)?;
                let (b, _) = self.fsrc32(Self::opnd(inst, 2)?, g, SCRATCH_PAIR, false)?;
                self.emit(
                    g,
                    format!(
                        "FSETP.{}{ftz}.{bop} {p}, {q}, {a}, {b}, {c};",
                        float_cmp(cmp)
                    ),
                );
            }
            _ if bits(ty) == 32 => {
                let (name, signed) = int_cmp(cmp, is_signed(ty))?;
                let u = if signed { "" } else { ".U32" };
                let a = self.reg32(Self::opnd(inst, 1)?, g, SCRATCH)?;
                let b = self.src32(Self::opnd(inst, 2)?, g, SCRATCH_PAIR, true)?;
                self.emit(g, format!("ISETP.{name}{u}.{bop} {p}, {q}, {a}, {b}, {c};"));
            }
            // 16-bit: the operands extended to 32 bits by their signedness (subword.rs).
            _ if bits(ty) == 16 => {
                let (name, signed) = int_cmp(cmp, is_signed(ty))?;
                let u = if signed { "" } else { ".U32" };
                let a = self.extend16(Self::opnd(inst, 1)?, g, signed, SCRATCH)?;
                let b = self.extend16(Self::opnd(inst, 2)?, g, signed, SCRATCH_PAIR)?;
                self.emit(g, format!("ISETP.{name}{u}.{bop} {p}, {q}, {a}, {b}, {c};"));
            }
            _ if bits(ty) == 64 && ty != Type::F64 => {
                // With a complement output, or a combining predicate that is also the
                // destination, the comparison goes to the scratch predicate and one PSETP
                // makes `p = t op c` and `q = !t op c` from it.
                let via_scratch = q != "pt" || c.trim_start_matches('!') == p;
                let (name, signed) = int_cmp(cmp, is_signed(ty))?;
                let (al, ah) = self.src64(Self::opnd(inst, 1)?, g)?;
                let (bl, bh) = match Self::opnd(inst, 2)? {
                    Operand::Reg(r) => self.pair(*r)?,
                    Operand::Imm(0) => ("RZ".into(), "RZ".into()),
                    Operand::Imm(_) if al == "R2" || ah == "R3" => {
                        return Err("a 64-bit setp of two immediates".into())
                    }
                    other => self.src64(other, g)?,
                };
                let s = format!("P{SCRATCH_PRED}");
                let u = if signed { "" } else { ".U32" };
                let out = if via_scratch { s.clone() } else { p.clone() };
                let p_final = p;
                let p = out;
                let lines = match name {
                    "EQ" => vec![
                        format!("ISETP.EQ.U32.AND {s}, pt, {al}, {bl}, pt;"),
                        format!("ISETP.EQ.U32.AND {p}, pt, {ah}, {bh}, {s};"),
                    ],
                    "NE" => vec![
                        format!("ISETP.NE.U32.AND {s}, pt, {al}, {bl}, pt;"),
                        format!("ISETP.NE.U32.OR {p}, pt, {ah}, {bh}, {s};"),
                    ],
                    _ => {
                        // (hi strictly ordered) or (hi equal and lo ordered, unsigned).
                        let strict = if name.starts_with('L') { "LT" } else { "GT" };
                        vec![
                            format!("ISETP.{name}.U32.AND {s}, pt, {al}, {bl}, pt;"),
                            format!("ISETP.EQ.U32.AND {s}, pt, {ah}, {bh}, {s};"),
                            format!("ISETP.{strict}{u}.OR {p}, pt, {ah}, {bh}, {s};"),
                        ]
                    }
                };
                for l in lines {
                    self.emit(g, l);
                }
                if via_scratch {
                    self.emit(g, format!("PSETP.AND.{bop} {p_final}, {q}, {s}, pt, {c};"));
                } else if c != "pt" || bop != "AND" {
                    self.emit(g, format!("PSETP.{bop}.AND {p}, pt, {p}, {c}, pt;"));
                }
            }
            _ => return Err(format!("setp{} has no selection rule yet", ty_spelling(ty))),
        }
        Ok(())
    }

    pub(super) fn carry_chain(&mut self, inst: &Inst, g: &str, w: u32) -> R<()> {
        let kind = match inst.op {
            Opcode::Add | Opcode::Addc => Chain::Add,
            _ => Chain::Sub,
        };
        let carry_in = matches!(inst.op, Opcode::Addc | Opcode::Subc);
        if carry_in && self.carry != Some(kind) {
            return Err(match self.carry {
                None => "the carry-in is not one chain's on every path reaching it (a path without a producer, or with the other kind), or a call or a consumer without .cc lies between".into(),
                Some(_) => "a chain mixing additions and subtractions: Fermi's flag after a subtraction is the complement of PTX's borrow".into(),
            });
        }
        let x = if carry_in { ".X" } else { "" };
        let cc = if inst.mods.has(Flag::Cc) { ".CC" } else { "" };
        let neg = if kind == Chain::Sub { "-" } else { "" };
        let d = self.dst(inst)?;
        if w == 32 {
            let d = self.gpr(d)?;
            let a = self.reg32(Self::opnd(inst, 1)?, g, SCRATCH)?;
            let b = self.reg32(Self::opnd(inst, 2)?, g, SCRATCH_PAIR)?;
            self.emit(g, format!("IADD{x} {d}{cc}, {a}, {neg}{b};"));
        } else {
            let (dl, dh) = self.pair(d)?;
            let (al, ah) = self.src64(Self::opnd(inst, 1)?, g)?;
            let (bl, bh) = self.src64(Self::opnd(inst, 2)?, g)?;
            self.emit(g, format!("IADD{x} {dl}.CC, {al}, {neg}{bl};"));
            self.emit(g, format!("IADD.X {dh}{cc}, {ah}, {neg}{bh};"));
        }
        self.carry = if cc.is_empty() { None } else { Some(kind) };
        Ok(())
    }
}
