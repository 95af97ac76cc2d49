//! Instruction selection: one PTX instruction → Fermi instructions as cuobjdump text, which the
//! `fermi` crate's table parses and encodes (so the text and the words come from one row).
//!
//! Anything this selector cannot translate exactly returns an error naming the instruction and
//! the reason; it never emits an approximation.

mod approx64;
mod arith;
mod atomic;
mod atomic64;
mod atomic_half;
mod barrier;
mod bitfield64;
mod bits;
mod bits64;
mod brx;
mod call;
mod carry_flow;
mod cluster;
pub(crate) use cluster::shared_cluster_as_shared;
mod convert;
mod cvt_sat64;
mod ddiv;
mod divide;
mod dsqrt;
mod fclass;
mod fdiv;
mod folded;
mod fsqrt;
mod indirect_call;
mod isspacep;
mod legacy;
mod legacy_wide;
mod memory;
mod minmax_nan;
mod minmax_xorsign;
mod moves;
mod mufu;
mod saturate;
mod shared_atomic64;
mod special;
mod subword;
mod texture;
mod vector_mov;
pub(crate) use vector_mov::split_wide_pred_moves;
mod video;
mod video_sat;
mod vmad;
mod vmad_wide;
mod wide;
mod wide_forms;

use crate::regs::{Loc, RegMap, SCRATCH, SCRATCH_PAIR, SCRATCH_PRED};
pub use carry_flow::carry_in;
use ir::{AddrBase, Address, Function, Inst, Opcode, Operand, RegId, Space, Type, VarId};
use isa::Flag;
use isa::{BoolOp, CmpOp, MulMode, Rounding};
use rustc_hash::FxHashMap as HashMap;

/// Separates an instruction's text from its relocation mark, `kind index addend` (kind `lo`,
/// `hi` or `abs`), which `assemble_lines` turns into a cubin relocation. Lower case, so that
/// no pass reading register names (`compact`) mistakes it for one.
pub const RELOC_MARK: &str = " #reloc ";

/// The relocation of the instruction at byte `at` from its mark (see [`RELOC_MARK`]).
pub fn parse_reloc_mark(
    mark: &str,
    at: u32,
) -> Result<(u32, fermi::cubin::RelocKind, u32, i64), String> {
    use fermi::cubin::RelocKind;
    let bad = || format!("malformed relocation mark `{mark}`");
    let mut parts = mark.split(' ');
    let kind = match parts.next() {
        Some("lo") => RelocKind::Abs32LoAt26,
        Some("hi") => RelocKind::Abs32HiAt26,
        Some("abs") => RelocKind::Abs32At26,
        _ => return Err(bad()),
    };
    let index = parts.next().and_then(|p| p.parse().ok()).ok_or_else(bad)?;
    let addend = parts.next().and_then(|p| p.parse().ok()).ok_or_else(bad)?;
    Ok((at, kind, index, addend))
}

/// One line of the output: a label or an instruction's text (guard included).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    Label(String),
    Inst(String),
}

pub struct Selector<'a> {
    pub func: &'a Function,
    /// The module (texture units are its `texture_slot`s).
    pub module: &'a ir::Module,
    pub regs: RegMap,
    pub out: Vec<Line>,
    /// Offsets in the parameter bank, relative to `c[0x0][0x20]`.
    pub params: HashMap<VarId, u32>,
    /// Offsets in the CTA's shared window.
    pub shared: HashMap<VarId, u32>,
    /// Offsets in the thread's local window.
    pub local: HashMap<VarId, u32>,
    /// Offsets of module `.const` variables in `c[0x2]`.
    pub consts: HashMap<VarId, u32>,
    /// Module `.global` variables: their index among the cubin's global symbols, which the
    /// relocations of the `MOV32I`s that materialize their addresses name.
    pub globals: HashMap<VarId, u32>,
    /// `.param` variables on the stack (a `.func`'s own parameters, call-site arguments and
    /// results), as offsets from R1.
    pub stack_params: HashMap<VarId, i64>,
    /// The argument blocks of the `.func`s this kernel calls.
    pub layouts: HashMap<ir::FuncId, crate::calls::ArgLayout>,
    /// In a `.func`: what `ret` runs (restores, R1 back, `RET`); `None` in an entry.
    pub epilogue: Option<Vec<String>>,
    /// Prefix of the labels this body's sequences define (unique per function).
    pub label_prefix: String,
    /// A `.func`'s `.local` variables: offsets in its frame, from R1.
    pub frame_locals: HashMap<VarId, i64>,
    pub a64: bool,
    /// The barriers the code uses, as the cubin counts them: the highest barrier number
    /// plus one, 16 when a number is in a register, 0 when none (`select/barrier.rs`).
    pub bar_count: u8,
    /// Whether Fermi's carry flag holds a PTX carry (`Add`) or borrow (`Sub`) chain's state
    /// since the last `.cc` in this block. Fermi's flag after a subtraction is the complement
    /// of PTX's borrow, so chains are translated only when producer and consumer agree.
    pub carry: Option<Chain>,
    /// Whether PTX's carry flag still holds its initial 0 here (no producer on any path):
    /// a consumer then sets Fermi's CC for it first (`carry_flow.rs`).
    pub carry_zero: bool,
    /// Entry parameters and shared variables' addresses that `add`s take as operands
    /// (`c [0x0] [off]`, the window offset) instead of a register (`fold.rs`). Their
    /// `ld.param` / `mov` emits nothing.
    pub folded: rustc_hash::FxHashMap<RegId, crate::fold::Folded>,
    /// `mul.wide` results selected with the `add` that reads them (`fold::Scaled`): the
    /// `mul.wide` emits nothing.
    pub scaled: rustc_hash::FxHashMap<RegId, crate::fold::Scaled>,
    /// 64-bit registers whose high word is zero (`fold::zero_high`).
    pub zero_high: rustc_hash::FxHashSet<RegId>,
    /// Zero extensions only shifts read (`fold::narrowed_extensions`): extended register →
    /// its 32-bit source; the `cvt` emits nothing and the shifts read the source.
    pub narrowed: rustc_hash::FxHashMap<RegId, RegId>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chain {
    Add,
    Sub,
}

type R<T> = Result<T, String>;

fn hex(v: i64) -> String {
    if v < 0 {
        format!("-0x{:x}", v.unsigned_abs())
    } else {
        format!("0x{v:x}")
    }
}

fn is_signed(ty: Type) -> bool {
    matches!(ty, Type::S8 | Type::S16 | Type::S32 | Type::S64)
}

fn bits(ty: Type) -> u32 {
    crate::regs::width_of(ty).unwrap_or(0)
}

fn rounding_suffix(r: Option<Rounding>) -> R<&'static str> {
    Ok(match r {
        None | Some(Rounding::Rn) => "",
        Some(Rounding::Rz) => ".RZ",
        Some(Rounding::Rm) => ".RM",
        Some(Rounding::Rp) => ".RP",
        Some(other) => {
            return Err(format!(
                "rounding {} has no Fermi float form",
                other.spelling()
            ))
        }
    })
}

/// Why a form without a rule here is refused when the isa table gates it above sm_20.
fn newer_form(inst: &Inst) -> Option<String> {
    let sm = inst.form.gate.min_sm;
    (sm > 20).then(|| format!("requires sm_{sm} or later: sm_20 has no instruction for this form"))
}

fn int_cmp(c: CmpOp, signed: bool) -> R<(&'static str, bool)> {
    Ok(match c {
        CmpOp::Eq => ("EQ", signed),
        CmpOp::Ne => ("NE", signed),
        CmpOp::Lt => ("LT", signed),
        CmpOp::Le => ("LE", signed),
        CmpOp::Gt => ("GT", signed),
        CmpOp::Ge => ("GE", signed),
        CmpOp::Lo => ("LT", false),
        CmpOp::Ls => ("LE", false),
        CmpOp::Hi => ("GT", false),
        CmpOp::Hs => ("GE", false),
        other => {
            return Err(format!(
                "comparison {} is not an integer comparison",
                other.spelling()
            ))
        }
    })
}

fn float_cmp(c: CmpOp) -> &'static str {
    match c {
        CmpOp::Eq => "EQ",
        CmpOp::Ne => "NE",
        CmpOp::Lt => "LT",
        CmpOp::Le => "LE",
        CmpOp::Gt => "GT",
        CmpOp::Ge => "GE",
        CmpOp::Lo => "LT",
        CmpOp::Ls => "LE",
        CmpOp::Hi => "GT",
        CmpOp::Hs => "GE",
        CmpOp::Equ => "EQU",
        CmpOp::Neu => "NEU",
        CmpOp::Ltu => "LTU",
        CmpOp::Leu => "LEU",
        CmpOp::Gtu => "GTU",
        CmpOp::Geu => "GEU",
        CmpOp::Num => "NUM",
        CmpOp::Nan => "NAN",
    }
}

fn bool_op(b: Option<BoolOp>) -> &'static str {
    match b {
        None | Some(BoolOp::And) => "AND",
        Some(BoolOp::Or) => "OR",
        Some(BoolOp::Xor) => "XOR",
    }
}

impl<'a> Selector<'a> {
    fn emit(&mut self, guard: &str, text: String) {
        self.out.push(Line::Inst(format!("{guard}{text}")));
    }

    fn loc(&mut self, r: RegId) -> R<Loc> {
        self.regs.loc(self.func, r)
    }

    fn gpr(&mut self, r: RegId) -> R<String> {
        match self.loc(r)? {
            Loc::Gpr(n) => Ok(format!("R{n}")),
            _ => Err("expected a 32-bit register".into()),
        }
    }

    fn pair(&mut self, r: RegId) -> R<(String, String)> {
        match self.loc(r)? {
            Loc::Pair(n) => Ok((format!("R{n}"), format!("R{}", n + 1))),
            _ => Err("expected a 64-bit register".into()),
        }
    }

    fn pred(&mut self, r: RegId) -> R<String> {
        match self.loc(r)? {
            Loc::Pred(n) => Ok(format!("P{n}")),
            _ => Err("expected a predicate register".into()),
        }
    }

    /// A 32-bit integer source: a register, a 20-bit immediate, or a 32-bit one moved into the
    /// scratch register `scratch` first (`MOV32I`).
    fn src32(&mut self, o: &Operand, g: &str, scratch: u8, imm20_ok: bool) -> R<String> {
        match o {
            Operand::Reg(r) if imm20_ok && self.folded.contains_key(r) => {
                Ok(self.folded[r].halves().0)
            }
            Operand::Reg(r) => self.gpr(*r),
            Operand::Imm(v) => {
                let v32 = *v as u32 as i32 as i64;
                if *v as u32 == 0 {
                    return Ok("RZ".into());
                }
                if imm20_ok && (-(1 << 19)..(1 << 19)).contains(&v32) {
                    Ok(hex(v32))
                } else {
                    self.emit(g, format!("MOV32I R{scratch}, {};", hex(v32)));
                    Ok(format!("R{scratch}"))
                }
            }
            _ => Err("unsupported operand kind".into()),
        }
    }

    /// A register-only 32-bit source (immediates through `MOV32I` into `scratch`).
    fn reg32(&mut self, o: &Operand, g: &str, scratch: u8) -> R<String> {
        self.src32(o, g, scratch, false)
    }

    /// A 64-bit source as (low, high) registers; immediates through the scratch pair.
    fn src64(&mut self, o: &Operand, g: &str) -> R<(String, String)> {
        match o {
            Operand::Reg(r) => self.pair(*r),
            Operand::Imm(v) => {
                let (lo, hi) = (*v as u32, (*v >> 32) as u32);
                let mut part = |x: u32, n: u8| {
                    if x == 0 {
                        "RZ".to_string()
                    } else {
                        self.emit(g, format!("MOV32I R{n}, {};", hex(x as i32 as i64)));
                        format!("R{n}")
                    }
                };
                Ok((part(lo, SCRATCH_PAIR), part(hi, SCRATCH_PAIR + 1)))
            }
            _ => Err("unsupported operand kind".into()),
        }
    }

    fn dst(&self, inst: &Inst) -> R<RegId> {
        inst.operands
            .first()
            .and_then(Operand::as_reg)
            .ok_or_else(|| "destination is not a plain register".to_string())
    }

    fn opnd(inst: &Inst, i: usize) -> R<&Operand> {
        inst.operands
            .get(i)
            .ok_or_else(|| "missing operand".to_string())
    }

    fn guard(&mut self, inst: &Inst) -> R<String> {
        Ok(match inst.guard {
            None => String::new(),
            Some(g) => {
                let p = self.pred(g.reg)?;
                format!("@{}{p} ", if g.negated { "!" } else { "" })
            }
        })
    }

    /// Selects `inst`; `Err` is the reason it cannot be translated, and then the selector is
    /// as it was before (its lines, the carry chain's state, the barrier count), so a caller
    /// may retry another way (`flow::select_or_around_guard`).
    pub fn select(&mut self, inst: &Inst) -> R<()> {
        let before = (self.carry, self.carry_zero);
        let (start, bar_count) = (self.out.len(), self.bar_count);
        self.materialize_zero_carry(inst);
        let keeps_chain = self.prepare_guarded_producer(inst);
        let mark = self.out.len();
        let mut done = self.select_inst(inst);
        // Sequences that use the carry flag for themselves (64-bit negation, address and
        // atomic loops, ...) would lose a pending chain's carry: only the chain rules and
        // wide.rs's products, which keep or restore it, may write CC then.
        if done.is_ok()
            && before.0.is_some()
            && !matches!(
                inst.op,
                Opcode::Add
                    | Opcode::Sub
                    | Opcode::Addc
                    | Opcode::Subc
                    | Opcode::Mul
                    | Opcode::Mad
                    | Opcode::Madc
            )
            && self.out[mark..]
                .iter()
                .any(|l| matches!(l, Line::Inst(t) if t.contains(".CC,")))
        {
            done =
                Err("this sequence would overwrite the carry flag of a pending .cc chain".into());
        }
        if done.is_err() {
            self.out.truncate(start);
            (self.carry, self.carry_zero) = before;
            self.bar_count = bar_count;
            return done;
        }
        self.track_zero_carry(inst);
        if !keeps_chain {
            self.carry = None;
        }
        if inst.op == Opcode::Call {
            // A callee may write Fermi's CC: no chain is kept across a call.
            self.carry = None;
        }
        done
    }

    fn select_inst(&mut self, inst: &Inst) -> R<()> {
        if inst.op == Opcode::Cvt && self.dst(inst).is_ok_and(|t| self.narrowed.contains_key(&t)) {
            return Ok(());
        }
        // A product or shift selected inside the `add` that reads it (`fold::Scaled`).
        if matches!(inst.op, Opcode::Mul | Opcode::Shl)
            && self.dst(inst).is_ok_and(|t| self.scaled.contains_key(&t))
        {
            return Ok(());
        }
        let g = self.guard(inst)?;
        let ty = inst.ty().unwrap_or(Type::B32);
        let w = bits(ty);
        let mods = &inst.mods;
        let unsupported_mods = [Flag::Sat, Flag::Cc, Flag::Ftz, Flag::Approx];
        let has = |f: Flag| mods.has(f);
        if matches!(
            inst.op,
            Opcode::Set | Opcode::Slct | Opcode::Cnot | Opcode::Mul24 | Opcode::Mad24 | Opcode::Sad
        ) {
            if let Some(done) = self.legacy_int(inst, &g) {
                return done;
            }
            if let Some(done) = self.legacy_wide(inst, &g) {
                return done;
            }
        }
        if matches!(
            inst.op,
            Opcode::Bfind
                | Opcode::Brev
                | Opcode::Clz
                | Opcode::Bfe
                | Opcode::Prmt
                | Opcode::Popc
                | Opcode::Min
                | Opcode::Max
        ) {
            if let Some(done) = self.bits(inst, &g, ty) {
                return done;
            }
            if let Some(done) = self.bits64(inst, &g, ty) {
                return done;
            }
            if matches!(inst.op, Opcode::Min | Opcode::Max)
                && ty == Type::F32
                && has(Flag::NaN)
                && !has(Flag::Xorsign)
            {
                return self.minmax_nan(inst, &g);
            }
            if matches!(inst.op, Opcode::Min | Opcode::Max) && ty == Type::F32 && has(Flag::Xorsign)
            {
                return self.minmax_xorsign(inst, &g);
            }
        }
        // Packed and narrow float types fit a 32-bit register but are not 32-bit integers:
        // no 32-bit rule may take them (add.u16x2 is not IADD). Only copies keep their bits.
        if matches!(
            ty,
            Type::U16x2 | Type::S16x2 | Type::F16x2 | Type::Bf16x2 | Type::Tf32
        ) && !matches!(
            inst.op,
            Opcode::Mov | Opcode::Ld | Opcode::Ldu | Opcode::St | Opcode::Atom | Opcode::Red
        ) {
            return Err(format!(
                "{} arithmetic has no sm_20 instruction (sm_53/sm_90 packed forms)",
                ty_spelling(ty)
            ));
        }
        // Modifiers no rule here implements: refused rather than translated as the plain
        // form (every_form_runs.rs found each one dropped).
        if ty == Type::F32x2
            && !matches!(inst.op, Opcode::Mov | Opcode::Ld | Opcode::Ldu | Opcode::St)
        {
            return Err(
                ".f32x2 arithmetic has no sm_20 instruction (sm_100's packed float pairs)".into(),
            );
        }
        if matches!(inst.op, Opcode::Min | Opcode::Max) && has(Flag::Relu) {
            return Err(
                "min/max .relu (sm_80) has no rule here that clamps the result at zero".into(),
            );
        }
        if inst.op == Opcode::Cvt && has(Flag::Pack) {
            return Err(
                "cvt.pack (sm_72) has no rule here that packs both saturated halves".into(),
            );
        }
        // 16-bit div/rem and PTX 1.x's div.wide/rem.wide (divide.rs).
        if matches!(inst.op, Opcode::Div | Opcode::Rem) && !ty_is_float(ty) {
            let (rem, signed) = (inst.op == Opcode::Rem, is_signed(ty));
            if mods.mul_mode == Some(MulMode::Wide) && w == 32 {
                return self.divrem_wide32(inst, &g, rem, signed);
            }
            if w == 16 {
                return self.divrem16(inst, &g, ty, rem);
            }
        }
        if w == 16 && inst.op != Opcode::Cvt && inst.op != Opcode::Mov {
            if let Some(done) = self.subword(inst, &g, ty) {
                return done;
            }
        }
        if w == 64 {
            if let Some(done) = self.wide_forms(inst, &g, ty) {
                return done;
            }
        }
        match inst.op {
            Opcode::Mov if mods.vec.is_some() => self.mov_vector(inst, &g, ty),
            Opcode::Mov if Self::is_imm_unpack(inst) => self.imm_unpack(inst, &g, w),
            Opcode::Mov if Self::is_half_pack(inst, w) => self.half_pack(inst, &g, w),
            Opcode::Add | Opcode::Sub if ty == Type::F32 => self.float_bin(inst, &g, "FADD"),
            Opcode::Mul if ty == Type::F32 => self.float_bin(inst, &g, "FMUL"),
            Opcode::Add | Opcode::Sub | Opcode::Mul if ty == Type::F64 => {
                let name = if inst.op == Opcode::Mul {
                    "DMUL"
                } else {
                    "DADD"
                };
                self.double_bin(inst, &g, name)
            }
            Opcode::Fma | Opcode::Mad if ty == Type::F32 || ty == Type::F64 => {
                self.fma(inst, &g, ty)
            }
            Opcode::Add | Opcode::Sub | Opcode::Addc | Opcode::Subc
                if (w == 32 || w == 64)
                    && (has(Flag::Cc) || matches!(inst.op, Opcode::Addc | Opcode::Subc)) =>
            {
                self.carry_chain(inst, &g, w)
            }
            Opcode::Add | Opcode::Sub if ty == Type::S32 && has(Flag::Sat) && !has(Flag::Cc) => {
                self.add_sat(inst, &g)
            }
            Opcode::Add | Opcode::Sub if w == 32 && !has(Flag::Cc) && !has(Flag::Sat) => {
                let d = self.dst(inst)?;
                let d = self.gpr(d)?;
                if let Some(done) = self.scaled_add32(inst, &g, &d)? {
                    return Ok(done);
                }
                let (a, b) = self.bank_second(inst)?;
                let a = self.reg32(a, &g, SCRATCH)?;
                let b = if inst.op == Opcode::Sub {
                    match b {
                        Operand::Imm(v) => {
                            let neg = (*v as u32).wrapping_neg() as u64;
                            self.src32(&Operand::Imm(neg), &g, SCRATCH_PAIR, true)?
                        }
                        _ => format!("-{}", self.src32(b, &g, SCRATCH_PAIR, true)?),
                    }
                } else {
                    self.src32(b, &g, SCRATCH_PAIR, true)?
                };
                if inst.op == Opcode::Add && b == "RZ" {
                    // A copy (the allocator coalesces an `add` of a folded zero).
                    self.emit(&g, format!("MOV {d}, {a};"));
                } else {
                    self.emit(&g, format!("IADD {d}, {a}, {b};"));
                }
                Ok(())
            }
            Opcode::Add | Opcode::Sub if w == 64 && !has(Flag::Cc) && !has(Flag::Sat) => {
                if self.carry.is_some() {
                    return Err(
                        "a 64-bit add would overwrite the carry flag of a pending .cc chain".into(),
                    );
                }
                if matches!(Self::opnd(inst, 1)?, Operand::Imm(x) if *x != 0)
                    && matches!(Self::opnd(inst, 2)?, Operand::Imm(x) if *x != 0)
                {
                    return Err("a 64-bit add/sub of two immediates".into());
                }
                let (dl, dh) = self.pair(self.dst(inst)?)?;
                if let Some(done) = self.scaled_add(inst, &g, &dl, &dh)? {
                    return Ok(done);
                }
                let (a, b) = self.bank_second(inst)?;
                let (al, ah) = self.src64(a, &g)?;
                let (bl, bh) = match b {
                    Operand::Reg(r) if self.folded.contains_key(r) => self.folded[r].halves(),
                    _ => self.src64(b, &g)?,
                };
                // Subtraction as in the tested `sub.cc` chains: a negated operand is its two's
                // complement on the low half and its complement plus the carry on the high.
                if inst.op == Opcode::Add && bl == "RZ" && bh == "RZ" {
                    // A copy (the allocator coalesces an `add` of a folded zero).
                    self.emit(&g, format!("MOV {dl}, {al};"));
                    self.emit(&g, format!("MOV {dh}, {ah};"));
                    return Ok(());
                }
                let neg = if inst.op == Opcode::Sub { "-" } else { "" };
                self.emit(&g, format!("IADD {dl}.CC, {al}, {neg}{bl};"));
                self.emit(&g, format!("IADD.X {dh}, {ah}, {neg}{bh};"));
                Ok(())
            }
            _ if Self::is_wide_mad(inst, ty) => self.wide_mad(inst, &g, ty),
            Opcode::Mul | Opcode::Mad if w == 32 => self.int_mul(inst, &g, ty),
            Opcode::Mul
                if w == 64
                    && !ty_is_float(ty)
                    && matches!(mods.mul_mode, None | Some(MulMode::Lo)) =>
            {
                // The low 64 bits: lo = al·bl, hi = umulhi(al, bl) + al·bh + ah·bl.
                let (dl, dh) = self.pair(self.dst(inst)?)?;
                let (al, ah) = match Self::opnd(inst, 1)? {
                    Operand::Reg(r) => self.pair(*r)?,
                    _ => return Err("an immediate first factor".into()),
                };
                let (bl, bh) = self.src64(Self::opnd(inst, 2)?, &g)?;
                self.emit(&g, format!("IMUL.U32.U32.HI R{SCRATCH}, {al}, {bl};"));
                self.emit(
                    &g,
                    format!("IMAD.U32.U32 R{SCRATCH}, {al}, {bh}, R{SCRATCH};"),
                );
                self.emit(&g, format!("IMAD.U32.U32 {dh}, {ah}, {bl}, R{SCRATCH};"));
                self.emit(&g, format!("IMUL.U32.U32 {dl}, {al}, {bl};"));
                Ok(())
            }
            Opcode::Div | Opcode::Rcp
                if ty == Type::F32 && has(Flag::Approx) && has(Flag::Ftz) && !has(Flag::Sat) =>
            {
                self.div_approx_ftz(inst, &g)
            }
            Opcode::Div | Opcode::Rcp
                if ty == Type::F32 && has(Flag::Approx) && !has(Flag::Ftz) && !has(Flag::Sat) =>
            {
                // ops: a × (1/b) and 1/a, the reciprocal being what MUFU.RCP computes.
                let d = self.gpr(self.dst(inst)?)?;
                let last = if inst.op == Opcode::Rcp { 1 } else { 2 };
                let b = self.reg32(Self::opnd(inst, last)?, &g, SCRATCH)?;
                if inst.op == Opcode::Rcp {
                    self.emit(&g, format!("MUFU.RCP {d}, {b};"));
                } else {
                    self.emit(&g, format!("MUFU.RCP R{SCRATCH}, {b};"));
                    let a = self.reg32(Self::opnd(inst, 1)?, &g, SCRATCH_PAIR)?;
                    self.emit(&g, format!("FMUL {d}, {a}, R{SCRATCH};"));
                }
                Ok(())
            }
            _ if approx64::is_approx_f64(inst) => self.approx_f64(inst, &g),
            Opcode::Div | Opcode::Rcp if ty == Type::F64 && !has(Flag::Approx) => {
                self.div_f64(inst, &g)
            }
            Opcode::Sqrt if ty == Type::F64 && mods.rounding.is_some() => self.sqrt_f64(inst, &g),
            Opcode::Div if ty == Type::F32 && !has(Flag::Approx) => self.div_f32(inst, &g),
            Opcode::Rcp if ty == Type::F32 && mods.rounding.is_some() => self.div_f32(inst, &g),
            // ptxvm defines sqrt.approx.f32 as the correctly rounded .rn result (ops::transcend):
            // the .rn sequence computes exactly that.
            Opcode::Sqrt if ty == Type::F32 && (mods.rounding.is_some() || has(Flag::Approx)) => {
                self.sqrt_f32(inst, &g)
            }
            Opcode::Div | Opcode::Rem if matches!(ty, Type::U64 | Type::B64 | Type::S64) => {
                self.divrem64(inst, &g, inst.op == Opcode::Rem, ty == Type::S64)
            }
            Opcode::Div | Opcode::Rem
                if w == 32 && matches!(ty, Type::U32 | Type::S32 | Type::B32) =>
            {
                self.divrem32(inst, &g, ty, inst.op == Opcode::Rem)
            }
            Opcode::And | Opcode::Or | Opcode::Xor | Opcode::Not if ty == Type::Pred => {
                self.pred_logic(inst, &g)
            }
            Opcode::Mov if ty == Type::Pred => self.pred_logic(inst, &g),
            Opcode::And | Opcode::Or | Opcode::Xor if w == 32 || w == 64 => {
                let op = match inst.op {
                    Opcode::And => "AND",
                    Opcode::Or => "OR",
                    _ => "XOR",
                };
                let d = self.dst(inst)?;
                if w == 32 {
                    let d = self.gpr(d)?;
                    let a = self.reg32(Self::opnd(inst, 1)?, &g, SCRATCH)?;
                    let b = self.src32(Self::opnd(inst, 2)?, &g, SCRATCH_PAIR, true)?;
                    self.emit(&g, format!("LOP.{op} {d}, {a}, {b};"));
                } else {
                    let (dl, dh) = self.pair(d)?;
                    let (al, ah) = self.src64(Self::opnd(inst, 1)?, &g)?;
                    match Self::opnd(inst, 2)? {
                        Operand::Reg(r) => {
                            let (bl, bh) = self.pair(*r)?;
                            self.emit(&g, format!("LOP.{op} {dl}, {al}, {bl};"));
                            self.emit(&g, format!("LOP.{op} {dh}, {ah}, {bh};"));
                        }
                        // An immediate: each half by LOP32I (halves are independent, so the
                        // destination may be the first source).
                        Operand::Imm(v) => {
                            for (d, a, half) in [(dl, al, *v as u32), (dh, ah, (*v >> 32) as u32)] {
                                let k = hex(i64::from(half as i32));
                                self.emit(&g, format!("LOP32I.{op} {d}, {a}, {k};"));
                            }
                        }
                        _ => return Err("unsupported operand kind".into()),
                    }
                }
                Ok(())
            }
            Opcode::Not if w == 32 => {
                let d = self.gpr(self.dst(inst)?)?;
                let a = self.reg32(Self::opnd(inst, 1)?, &g, SCRATCH)?;
                self.emit(&g, format!("LOP.PASS_B {d}, RZ, ~{a};"));
                Ok(())
            }
            Opcode::Shl | Opcode::Shr if w == 64 => self.shift64(inst, &g, ty),
            Opcode::Shl | Opcode::Shr if w == 32 => {
                let d = self.gpr(self.dst(inst)?)?;
                let a = self.reg32(Self::opnd(inst, 1)?, &g, SCRATCH)?;
                let b = self.src32(Self::opnd(inst, 2)?, &g, SCRATCH_PAIR, true)?;
                let name = match (inst.op, is_signed(ty)) {
                    (Opcode::Shl, _) => "SHL",
                    (_, true) => "SHR",
                    (_, false) => "SHR.U32",
                };
                self.emit(&g, format!("{name} {d}, {a}, {b};"));
                Ok(())
            }
            Opcode::Min | Opcode::Max if w == 32 && ty != Type::F32 => {
                let d = self.gpr(self.dst(inst)?)?;
                let a = self.reg32(Self::opnd(inst, 1)?, &g, SCRATCH)?;
                let b = self.src32(Self::opnd(inst, 2)?, &g, SCRATCH_PAIR, true)?;
                let u = if is_signed(ty) { "" } else { ".U32" };
                let sel = if inst.op == Opcode::Min { "pt" } else { "!pt" };
                self.emit(&g, format!("IMNMX{u} {d}, {a}, {b}, {sel};"));
                Ok(())
            }
            Opcode::Neg | Opcode::Abs if w == 32 && !has(Flag::Ftz) => {
                let d = self.gpr(self.dst(inst)?)?;
                let a = self.reg32(Self::opnd(inst, 1)?, &g, SCRATCH)?;
                let text = match (inst.op, ty) {
                    // Sign-bit operations: exact for every input, -0 and NaNs included.
                    (Opcode::Neg, Type::F32) => format!("LOP32I.XOR {d}, {a}, 0x80000000;"),
                    (Opcode::Abs, Type::F32) => format!("LOP32I.AND {d}, {a}, 0x7fffffff;"),
                    (Opcode::Neg, _) => format!("IADD {d}, RZ, -{a};"),
                    (Opcode::Abs, _) => format!("I2I.S32.S32 {d}, |{a}|;"),
                    _ => return Err("unexpected form".into()),
                };
                self.emit(&g, text);
                Ok(())
            }
            Opcode::Bfi if w == 32 => {
                // Fermi's BFI takes position and length packed in one operand (bits 0-7 and
                // 8-15), which is exactly PTX's `c & 0xff` and `d & 0xff`.
                let d = self.gpr(self.dst(inst)?)?;
                let packed = match (Self::opnd(inst, 3)?, Self::opnd(inst, 4)?) {
                    (Operand::Imm(p), Operand::Imm(l)) => {
                        hex(((p & 0xff) | (l & 0xff) << 8) as i64)
                    }
                    (Operand::Reg(p), Operand::Reg(l)) => {
                        let (p, l) = (self.gpr(*p)?, self.gpr(*l)?);
                        self.emit(&g, format!("BFI R{SCRATCH}, {l}, 0x808, {p};"));
                        format!("R{SCRATCH}")
                    }
                    (Operand::Imm(p), Operand::Reg(l)) if p & 0xff == 0 => {
                        let l = self.gpr(*l)?;
                        self.emit(&g, format!("BFI R{SCRATCH}, {l}, 0x808, RZ;"));
                        format!("R{SCRATCH}")
                    }
                    (Operand::Imm(p), Operand::Reg(l)) => {
                        let l = self.gpr(*l)?;
                        self.emit(
                            &g,
                            format!("MOV32I R{SCRATCH}, {};", hex((p & 0xff) as i64)),
                        );
                        self.emit(&g, format!("BFI R{SCRATCH}, {l}, 0x808, R{SCRATCH};"));
                        format!("R{SCRATCH}")
                    }
                    (Operand::Reg(p), Operand::Imm(l)) => {
                        let p = self.gpr(*p)?;
                        self.emit(&g, format!("LOP32I.AND R{SCRATCH}, {p}, 0xff;"));
                        self.emit(
                            &g,
                            format!(
                                "LOP32I.OR R{SCRATCH}, R{SCRATCH}, {};",
                                hex(((l & 0xff) << 8) as i64)
                            ),
                        );
                        format!("R{SCRATCH}")
                    }
                    _ => return Err("unexpected bfi operands".into()),
                };
                let a = self.reg32(Self::opnd(inst, 1)?, &g, SCRATCH_PAIR)?;
                let b = self.reg32(Self::opnd(inst, 2)?, &g, SCRATCH_PAIR + 1)?;
                self.emit(&g, format!("BFI {d}, {a}, {packed}, {b};"));
                Ok(())
            }
            Opcode::Popc if w == 32 => {
                let d = self.gpr(self.dst(inst)?)?;
                let a = self.reg32(Self::opnd(inst, 1)?, &g, SCRATCH)?;
                // POPC counts the bits of a & b.
                self.emit(&g, format!("POPC {d}, {a}, {a};"));
                Ok(())
            }
            Opcode::Vote if !has(Flag::Sync) => {
                let a = self.pred_src(Self::opnd(inst, 1)?)?;
                let d = self.dst(inst)?;
                let text = match inst.mods.vote_mode {
                    Some(isa::VoteMode::Ballot) => {
                        let d = self.gpr(d)?;
                        format!("VOTE.ANY {d}, pt, {a};")
                    }
                    Some(mode) => {
                        let p = self.pred(d)?;
                        let m = match mode {
                            isa::VoteMode::All => "ALL",
                            isa::VoteMode::Any => "ANY",
                            _ => "EQ",
                        };
                        format!("VOTE.{m} RZ, {p}, {a};")
                    }
                    None => return Err("vote without a mode".into()),
                };
                self.emit(&g, text);
                Ok(())
            }
            Opcode::Fence => self.fence(inst, &g),
            Opcode::Membar => {
                let level = match inst.mods.scope.map(|s| s.spelling()) {
                    Some(".cta") => "CTA",
                    Some(".gl") => "GL",
                    Some(".sys") => "SYS",
                    _ => return Err("this membar level has no selection rule yet".into()),
                };
                self.emit(&g, format!("MEMBAR.{level};"));
                Ok(())
            }
            Opcode::Setp => self.setp(inst, &g, ty),
            Opcode::Selp if w == 32 || w == 64 => {
                let d = self.dst(inst)?;
                let p = match Self::opnd(inst, 3)? {
                    Operand::Reg(r) => self.pred(*r)?,
                    Operand::NotPred(r) => format!("!{}", self.pred(*r)?),
                    Operand::Imm(v) => if *v != 0 { "pt" } else { "!pt" }.to_string(),
                    _ => return Err("an unsupported selector predicate".into()),
                };
                let (a_op, b_op) = (Self::opnd(inst, 1)?, Self::opnd(inst, 2)?);
                let imm20 = |o: &Operand| match o {
                    Operand::Imm(v) => (-(1 << 19)..(1 << 19)).contains(&(*v as u32 as i32)),
                    _ => false,
                };
                // `selp d, imm, b, p` is `SEL d, b, imm, !p`: only the second source takes an
                // immediate, and a zero `b` is RZ (NVIDIA's `SEL R4, RZ, 0x1, !P0`).
                let swap = w == 32
                    && ty != Type::F32
                    && imm20(a_op)
                    && match b_op {
                        Operand::Reg(r) => !self.folded.contains_key(r),
                        Operand::Imm(v) => *v == 0,
                        _ => false,
                    };
                if swap {
                    let d = self.gpr(d)?;
                    let b = self.reg32(b_op, &g, SCRATCH)?;
                    let a = self.src32(a_op, &g, SCRATCH_PAIR, true)?;
                    let np = p
                        .strip_prefix('!')
                        .map_or_else(|| format!("!{p}"), str::to_string);
                    self.emit(&g, format!("SEL {d}, {b}, {a}, {np};"));
                } else if w == 32 {
                    let d = self.gpr(d)?;
                    let a = self.reg32(Self::opnd(inst, 1)?, &g, SCRATCH)?;
                    let b = self.src32(Self::opnd(inst, 2)?, &g, SCRATCH_PAIR, ty != Type::F32)?;
                    self.emit(&g, format!("SEL {d}, {a}, {b}, {p};"));
                } else {
                    let (dl, dh) = self.pair(d)?;
                    let (al, ah) = match Self::opnd(inst, 1)? {
                        Operand::Reg(r) => self.pair(*r)?,
                        _ => return Err("a 64-bit immediate first source".into()),
                    };
                    let (bl, bh) = self.src64(Self::opnd(inst, 2)?, &g)?;
                    self.emit(&g, format!("SEL {dl}, {al}, {bl}, {p};"));
                    self.emit(&g, format!("SEL {dh}, {ah}, {bh}, {p};"));
                }
                Ok(())
            }
            Opcode::Mov => self.mov(inst, &g, w),
            Opcode::Cvta => match mods.space {
                Some(Space::Global) => self.copy(inst, &g, w),
                Some(Space::Shared | Space::SharedCta) => {
                    self.cvta_window(inst, &g, w, has(Flag::To), 0x0)
                }
                Some(Space::Local) => self.cvta_window(inst, &g, w, has(Flag::To), 0x4),
                // The PTX executor's `.shared::cluster` addresses are not its `.shared` ones
                // (every_form_runs.rs: `cvta.shared::cluster` of 0xff is 0xfe0000ff there, the
                // `.shared` window's 0x10000ff here): refused until the two agree.
                Some(Space::SharedCluster) => Err(
                    "cvta of .shared::cluster (sm_90): the PTX executor's cluster addresses differ from the CTA's shared window this translation uses".into(),
                ),
                _ => {
                    Err("sm_20's generic address space has no constant or parameter window (docs/spec-notes.md)".into())
                }
            },
            Opcode::Cvt => self.cvt(inst, &g),
            // ldu reads the same value as ld (it only promises the address is warp-uniform and
            // read-only); LD serves both.
            Opcode::Ld | Opcode::Ldu | Opcode::St => self.ordered_access(inst, &g, ty),
            // A warp barrier is not a CTA barrier: its operand is a member mask, not a
            // barrier number (every_form_runs.rs found it emitted as `BAR` on the mask).
            Opcode::Bar if has(Flag::Warp) => Err(
                "bar.warp.sync (sm_30) has no sm_20 instruction (Fermi has no warp barrier)".into(),
            ),
            Opcode::Bar | Opcode::Barrier if !has(Flag::Red) => self.barrier(inst, &g),
            Opcode::Vadd
            | Opcode::Vsub
            | Opcode::Vmin
            | Opcode::Vmax
            | Opcode::Vshl
            | Opcode::Vshr
            | Opcode::Vabsdiff
            | Opcode::Vset => self.video(inst, &g),
            Opcode::Vmad => self.vmad(inst, &g),
            Opcode::Sin | Opcode::Cos | Opcode::Lg2 | Opcode::Ex2 | Opcode::Rsqrt
                if ty == Type::F32 =>
            {
                self.mufu(inst, &g)
            }
            Opcode::Testp | Opcode::Copysign if matches!(ty, Type::F32 | Type::F64) => {
                self.fclass(inst, &g, ty)
            }
            Opcode::Trap => self.trap(&g),
            Opcode::Brkpt | Opcode::Pmevent => self.debug_event(inst, &g),
            Opcode::Isspacep => self.isspacep(inst, &g),
            Opcode::Tex => self.tex(inst, &g),
            Opcode::Txq => self.txq(inst, &g),
            Opcode::Exit => {
                self.emit(&g, "EXIT;".into());
                Ok(())
            }
            Opcode::Bar | Opcode::Barrier if has(Flag::Red) && !has(Flag::Arrive) => {
                self.bar_red(inst, &g)
            }
            Opcode::Ret => {
                if !g.is_empty() && self.epilogue.is_some() {
                    // `flow::around_guard` branches the other lanes past the epilogue first.
                    return Err("internal error: a guarded ret in a .func reached selection".into());
                }
                for l in self.end_lines() {
                    self.emit(&g, l);
                }
                Ok(())
            }
            Opcode::Call => self.call(inst, &g),
            Opcode::Atom | Opcode::Red => self.atomic(inst, &g, ty),
            Opcode::Bra => Ok(()), // emitted by the caller, which knows the layout
            // A prefetch has no effect on any value (ptx-isa §9.7.9.15): nothing to emit.
            Opcode::Prefetch | Opcode::Prefetchu => Ok(()),
            _ => {
                // An opcode sm_20 cannot express at all says why (coverage's reason).
                if let Some(why) = crate::coverage::refusal(inst.op) {
                    return Err(why);
                }
                // So does a form of a newer target than sm_20 (`vote.sync`, `set.f16x2`).
                if let Some(why) = newer_form(inst) {
                    return Err(why);
                }
                let why = if unsupported_mods.iter().any(|f| has(*f)) {
                    "its modifiers have no selection rule yet"
                } else {
                    "this type or form has no selection rule yet"
                };
                Err(format!("{why} (see docs/codegen.md)"))
            }
        }
    }
}

/// Whether `inst`'s sequence uses the scratch predicate P6 (the allocator keeps it free then).
pub fn needs_scratch_pred(inst: &Inst) -> bool {
    match inst.op {
        Opcode::Div | Opcode::Rem | Opcode::Rcp | Opcode::Sqrt | Opcode::Brx => true,
        Opcode::Rsqrt => inst.ty() == Some(Type::F64),
        Opcode::Isspacep => inst.mods.space == Some(Space::Global),
        Opcode::Min | Opcode::Max => {
            inst.mods.has(Flag::NaN)
                || inst.mods.has(Flag::Xorsign)
                || wide_forms::needs_scratch_pred(inst)
        }
        Opcode::Atom | Opcode::Red => {
            matches!(inst.mods.space, Some(Space::Shared | Space::SharedCta))
                || atomic_half::is_half_atomic(inst)
                || inst
                    .mods
                    .atom_op
                    .zip(inst.ty())
                    .is_some_and(|(op, t)| atomic64::emulated(op, t))
        }
        Opcode::Setp => inst
            .ty()
            .is_some_and(|t| bits(t) == 64 && !matches!(t, Type::F64)),
        Opcode::Vmad => vmad::needs_whole_product(inst),
        // `set` other than ISET's 32-bit integers, `slct` on an .f32 selector (legacy.rs).
        Opcode::Set => {
            !(inst
                .type_slot(0)
                .zip(inst.type_slot(1))
                .is_some_and(|(d, s)| {
                    bits(d) == 32 && bits(s) == 32 && !ty_is_float(d) && !ty_is_float(s)
                }))
        }
        Opcode::Slct => {
            inst.type_slot(1) == Some(Type::F32) || legacy_wide::needs_scratch_pred(inst)
        }
        Opcode::Sad => legacy_wide::needs_scratch_pred(inst),
        Opcode::Vshl => video_sat::needs_scratch_pred(inst),
        _ => wide::needs_scratch_pred(inst) || wide_forms::needs_scratch_pred(inst),
    }
}

/// Whether `inst`'s sequence uses the temporaries R4–R13 (IEEE f32 division and square root,
/// 64-bit div/rem): the allocator keeps them free.
pub fn needs_f64_scratch(inst: &Inst) -> bool {
    let wide_int = matches!(inst.op, Opcode::Div | Opcode::Rem)
        && matches!(inst.ty(), Some(Type::U64 | Type::B64 | Type::S64));
    // A 64-bit red emulated by a CAS loop keeps its old value in R4:R5.
    let red64 = inst.op == Opcode::Red
        && inst
            .mods
            .atom_op
            .zip(inst.ty())
            .is_some_and(|(op, t)| atomic64::emulated(op, t));
    // 64-bit shared atomics keep red's old value and immediate operands in R4–R11.
    let shared64 = matches!(inst.op, Opcode::Atom | Opcode::Red)
        && matches!(inst.mods.space, Some(Space::Shared | Space::SharedCta))
        && inst.ty().is_some_and(|t| bits(t) == 64);
    // A texture fetch's consecutive coordinate and result registers are R4–R7.
    wide_int
        || red64
        || atomic64::immediate_operand(inst)
        || memory::immediates_need_spare_pairs(inst)
        || shared64
        || inst.op == Opcode::Tex
        || wide::needs_f64_scratch(inst)
        || matches!(inst.op, Opcode::Div | Opcode::Rcp | Opcode::Sqrt)
            && matches!(inst.ty(), Some(Type::F32 | Type::F64))
            && (!inst.mods.has(Flag::Approx) || inst.op == Opcode::Sqrt)
        || approx64::is_approx_f64(inst)
        || vmad::needs_whole_product(inst)
        || divide::dividend_needs_r4(inst)
        || divide::needs_scratch16(inst)
        || legacy_wide::needs_scratch(inst)
        || video_sat::needs_scratch(inst)
        || bitfield64::needs_scratch(inst)
        || atomic_half::is_half_atomic(inst)
}

fn ty_is_float(t: Type) -> bool {
    matches!(t, Type::F32 | Type::F64 | Type::F16 | Type::Bf16)
}

fn i2i_type(t: Type) -> &'static str {
    match t {
        Type::U8 => ".U8",
        Type::S8 => ".S8",
        Type::U16 => ".U16",
        Type::S16 => ".S16",
        Type::S32 => ".S32",
        _ => ".U32",
    }
}

fn ty_spelling(t: Type) -> String {
    format!(".{t:?}").to_lowercase()
}
