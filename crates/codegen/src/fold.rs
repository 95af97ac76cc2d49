//! Parameters as `c [0x0] [0x20+]` operands: an entry's `ld.param` whose register is read only
//! where a rule takes a constant-bank composite operand (see [`foldable_sources`]: integer
//! `add`s, the second source of 32-bit `sub`, `mul`, `mad`, logic, shifts, `min`/`max`,
//! `setp`, `selp`, and of `.f32` `add`/`sub`/`mul`/`fma`/`setp`) is not loaded at all; each reader takes the
//! parameter from the constant bank, as NVIDIA's code does (`IADD R2.CC, R2, c [0x0] [0x20]`,
//! `ISETP.GE.U32.AND P0, pt, R0, c [0x0] [0x28], pt`). The bank holds the launch's parameters for
//! the whole kernel, so the distance between the load and the use does not matter, nor a
//! guard on the load (lanes it skips hold no defined value). Likewise a `mov` of a shared
//! variable's address (a constant window offset, zero-extended in 64-bit code) read only by
//! `add`s becomes their immediate operand (`IADD R4.CC, R6, 0x40; IADD.X R5, R7, RZ`).

use crate::ra::uses_defs;
use ir::{AddrBase, Function, Inst, Opcode, Operand, RegId, Space, VarId};
use rustc_hash::{FxHashMap, FxHashSet};

/// What an `add` reads in place of a folded register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Folded {
    /// A parameter: its byte offset in `c[0x0]`.
    Bank(i64),
    /// A shared variable's address: its offset in the CTA's window (below 48 KiB, so a
    /// 20-bit immediate).
    Shared(i64),
}

impl Folded {
    /// The operand text of the low and the high 32 bits.
    pub fn halves(self) -> (String, String) {
        match self {
            Folded::Bank(at) => (
                format!("c [0x0] [{:#x}]", at),
                format!("c [0x0] [{:#x}]", at + 4),
            ),
            Folded::Shared(0) => ("RZ".into(), "RZ".into()),
            Folded::Shared(off) => (format!("{off:#x}"), "RZ".into()),
        }
    }
}

/// Registers `add`s read as operands instead (see the module comment).
pub fn add_operands(
    f: &Function,
    params: &FxHashMap<VarId, u32>,
    shared: &FxHashMap<VarId, u32>,
) -> FxHashMap<RegId, Folded> {
    let body = f.insts();
    let n = f.regs.len();
    let mut defs = vec![0u32; n];
    // Reads outside a foldable position disqualify a register.
    let mut other_reads = vec![false; n];
    // Reads where only a parameter fits (an f32 operand).
    let mut bank_reads = vec![false; n];
    let mut at: Vec<Option<Folded>> = vec![None; n];
    let (mut u, mut d) = (Vec::new(), Vec::new());
    for inst in body {
        uses_defs(inst, &mut u, &mut d);
        for &r in &d {
            defs[r] += 1;
        }
        if let Some((r, what)) = param_load(inst, params).or_else(|| shared_address(inst, shared)) {
            at[r.index()] = Some(what);
            continue;
        }
        let (foldable, bank_only) = foldable_sources(inst);
        for &r in &u {
            if bank_only.contains(&r) {
                bank_reads[r] = true;
            } else if !foldable.contains(&r) {
                other_reads[r] = true;
            }
        }
    }
    let mut out = FxHashMap::default();
    for r in 0..n {
        let fits = |f: &Folded| !bank_reads[r] || matches!(f, Folded::Bank(_));
        if let Some(off) = at[r].filter(|f| defs[r] == 1 && !other_reads[r] && fits(f)) {
            out.insert(RegId(r as u32), off);
        }
    }
    // An `add` of two folded parameters needs one in a register: keep the first source loaded.
    for inst in body {
        let [Some(a), Some(b)] = [1, 2].map(|k| inst.operands.get(k).and_then(Operand::as_reg))
        else {
            continue;
        };
        if inst.op == Opcode::Add && out.contains_key(&a) && out.contains_key(&b) {
            out.remove(&a);
        }
    }
    out
}

/// `d` and its bank offset for an entry `ld.param` of a whole 32- or 64-bit value.
fn param_load(inst: &Inst, params: &FxHashMap<VarId, u32>) -> Option<(RegId, Folded)> {
    if inst.op != Opcode::Ld || inst.mods.vec.is_some() {
        return None;
    }
    if !matches!(inst.mods.space, Some(Space::Param | Space::ParamEntry)) {
        return None;
    }
    if !matches!(inst.ty().and_then(crate::regs::width_of), Some(32 | 64)) {
        return None;
    }
    let (Some(Operand::Reg(d)), Some(Operand::Address(a))) =
        (inst.operands.first(), inst.operands.get(1))
    else {
        return None;
    };
    let AddrBase::Var(v) = a.base else {
        return None;
    };
    let off = 0x20 + i64::from(*params.get(&v)?) + a.offset;
    Some((*d, Folded::Bank(off)))
}

/// `d` and the window offset for a `mov` of a shared variable's address (32 or 64 bits).
fn shared_address(inst: &Inst, shared: &FxHashMap<VarId, u32>) -> Option<(RegId, Folded)> {
    if inst.op != Opcode::Mov {
        return None;
    }
    if !matches!(inst.ty().and_then(crate::regs::width_of), Some(32 | 64)) {
        return None;
    }
    let (Some(Operand::Reg(d)), Some(Operand::VarAddr { var, offset })) =
        (inst.operands.first(), inst.operands.get(1))
    else {
        return None;
    };
    let off = i64::from(*shared.get(var)?) + offset;
    (0..1 << 19)
        .contains(&off)
        .then_some((*d, Folded::Shared(off)))
}

/// The sources whose selection takes a constant-bank (or, for integers, immediate) operand
/// in the composite slot, each register appearing once in the instruction: both sources of
/// an integer `add` (32- or 64-bit: the 32-bit `IADD` and the 64-bit `IADD.CC`/`IADD.X`
/// rules, which put the bank second), and the second source of the 32-bit integer rules that
/// read it through `src32` (`IADD` with a negated operand for `sub`, `IMUL`/`IMUL.HI`/`IMAD`,
/// `LOP`, `SHL`/`SHR`, `IMNMX`, `ISETP`, and `SEL` for an integer `selp`). The second list
/// holds the second source of `.f32` `add`/`sub`/`mul`/`setp` and of a rounded `fma`/`mad`
/// (`FADD`/`FMUL`/`FSETP`/`FFMA`), where only a parameter fits (a shared address is no
/// float). No `.cc`/`.sat` forms: their rules read registers.
fn foldable_sources(inst: &Inst) -> (Vec<usize>, Vec<usize>) {
    use ir::{Opcode as O, Type as T};
    let none = (Vec::new(), Vec::new());
    if inst.mods.has(isa::Flag::Cc) || inst.mods.has(isa::Flag::Sat) || inst.mods.vec.is_some() {
        return none;
    }
    let src = |k: usize| inst.operands.get(k).and_then(Operand::as_reg);
    // A register read once by this instruction (else another position reads it too).
    let once = |r: RegId| {
        inst.operands
            .iter()
            .skip(1)
            .filter(|o| o.as_reg() == Some(r))
            .count()
            == 1
    };
    let ty = inst.ty();
    let int32 = matches!(ty, Some(T::U32 | T::S32 | T::B32));
    if inst.op == O::Add && (int32 || matches!(ty, Some(T::U64 | T::S64 | T::B64))) {
        return match (src(1), src(2)) {
            (Some(a), Some(b)) if a == b => none,
            (a, b) => (
                a.into_iter().chain(b).map(RegId::index).collect(),
                Vec::new(),
            ),
        };
    }
    let second: Vec<usize> = src(2)
        .filter(|&b| once(b))
        .map(RegId::index)
        .into_iter()
        .collect();
    let f32_arith = ty == Some(T::F32)
        && !inst.mods.has(isa::Flag::Approx)
        && match inst.op {
            O::Add | O::Sub | O::Mul | O::Setp => true,
            // `FFMA` (with a rounding: PTX 1.x's unfused `mad` reads registers).
            O::Fma | O::Mad => inst.mods.rounding.is_some(),
            _ => false,
        };
    if f32_arith {
        return (Vec::new(), second);
    }
    let int_rule = int32
        && matches!(
            inst.op,
            O::Sub
                | O::And
                | O::Or
                | O::Xor
                | O::Shl
                | O::Shr
                | O::Min
                | O::Max
                | O::Setp
                | O::Mul
                | O::Mad
                | O::Selp
        );
    if int_rule {
        (second, Vec::new())
    } else {
        none
    }
}

/// A scaled value `t = a·2^k` whose only reader is the integer `add` right after it (past
/// folded loads and `mov`s, which emit nothing), selected as part of that `add`, so that `t`
/// takes no registers:
/// - `mul.wide.u32/.s32 t, a, 2^k` read by a 64-bit `add`: `SHR[.U32] R0, a, 32−k` (the
///   product's high word), `ISCADD d.CC, a, x.lo, k` and `IADD.X d.hi, R0, x.hi`, three
///   instructions for four;
/// - `shl.b32 t, a, k` or `mul.lo.u32/.s32 t, a, 2^k` read by a 32-bit `add`: `ISCADD d, a, x,
///   k` (the "`ISCADD` for scaled adds"), one instruction for two; `x` may be a
///   register, an immediate or a folded parameter, as for `IADD`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scaled {
    pub a: RegId,
    pub shift: u8,
    pub signed: bool,
    /// A `mul.wide` product read by a 64-bit `add` (else a 32-bit product or shift).
    pub wide: bool,
}

/// How far past a product or shift its `add` may be (the optimizer sinks loads between).
const WINDOW: usize = 8;

/// The products and shifts to select as part of the `add` that follows (see [`Scaled`]);
pub fn scaled_adds(f: &Function) -> FxHashMap<RegId, Scaled> {
    use ir::Type as T;
    let body = f.insts();
    let counts = Counts::of(f);
    let (mut u, mut d) = (Vec::new(), Vec::new());
    let mut labelled = vec![false; body.len() + 1];
    for (_, at) in &f.labels {
        labelled[at.index().min(body.len())] = true;
    }
    let labelled = |i: usize| labelled[i];
    let mut out = FxHashMap::default();
    // The adds given a scaled operand: ISCADD scales one source, so an add of two shifts
    // takes the first and reads the other from its register.
    let mut fused = FxHashSet::default();
    for (i, mul) in body.iter().enumerate() {
        if mul.guard.is_some() || mul.mods.has(isa::Flag::Cc) || mul.mods.has(isa::Flag::Sat) {
            continue;
        }
        let (Some(Operand::Reg(t)), Some(Operand::Reg(a)), Some(Operand::Imm(v))) = (
            mul.operands.first(),
            mul.operands.get(1),
            mul.operands.get(2),
        ) else {
            continue;
        };
        let v = *v as u32;
        let wide = mul.mods.mul_mode == Some(isa::MulMode::Wide);
        let (shift, signed) = match (mul.op, mul.ty()) {
            // 2^1 … 2^30: a positive multiplier for both signednesses, a shift below 32.
            (Opcode::Mul, Some(T::U32 | T::S32))
                if wide && v.is_power_of_two() && (2..=1 << 30).contains(&v) =>
            {
                (v.trailing_zeros(), mul.ty() == Some(T::S32))
            }
            // The low word of a product by 2^1 … 2^31 is the shift by 1 … 31, whatever the
            // signedness.
            (Opcode::Mul, Some(T::U32 | T::S32 | T::B32))
                if mul.mods.mul_mode == Some(isa::MulMode::Lo) && v.is_power_of_two() && v >= 2 =>
            {
                (v.trailing_zeros(), false)
            }
            (Opcode::Shl, Some(T::B32 | T::U32 | T::S32)) if (1..=31).contains(&v) => (v, false),
            _ => continue,
        };
        if !counts.single_use(*t) || a == t {
            continue;
        }
        // The reader, a few instructions on in the same block, with `a` unchanged on the way
        // (the allocator keeps `a` live up to it: `extra` reads in body.rs).
        let reader = (i + 1..body.len().min(i + 1 + WINDOW))
            .take_while(|&j| !labelled(j))
            .find_map(|j| {
                let inst = &body[j];
                if inst.operands.iter().skip(1).any(|o| o.as_reg() == Some(*t)) {
                    return Some(Some(j));
                }
                uses_defs(inst, &mut u, &mut d);
                let ends_block = matches!(
                    inst.op,
                    Opcode::Bra | Opcode::Brx | Opcode::Ret | Opcode::Exit | Opcode::Call
                );
                (ends_block || d.contains(&a.index()) || d.contains(&t.index())).then_some(None)
            });
        let Some(Some(at)) = reader else { continue };
        let add = &body[at];
        let add_widths = if wide {
            matches!(add.ty(), Some(T::U64 | T::S64 | T::B64))
        } else {
            matches!(add.ty(), Some(T::U32 | T::S32 | T::B32))
        };
        let plain_add = add.op == Opcode::Add
            && !add.mods.has(isa::Flag::Cc)
            && !add.mods.has(isa::Flag::Sat)
            && add_widths;
        let sources = [1, 2].map(|k| add.operands.get(k).and_then(Operand::as_reg));
        let once = sources.iter().filter(|s| **s == Some(*t)).count() == 1;
        if !plain_add || !once || !fused.insert(at) {
            continue;
        }
        out.insert(
            *t,
            Scaled {
                a: *a,
                shift: shift as u8,
                signed,
                wide,
            },
        );
    }
    out
}

/// 64-bit registers whose high word is known zero: defined once, by an unguarded
/// `cvt.u64/.s64.u32` (or `.u16`/`.u8`: zero extensions). A left shift of one by 1–31 is then
/// two instructions (`SHR.U32` for the high word, `SHL` for the low) instead of four.
pub fn zero_high(f: &Function) -> rustc_hash::FxHashSet<RegId> {
    use ir::Type as T;
    let defs = Counts::of(f).defs;
    let mut out = rustc_hash::FxHashSet::default();
    for inst in f.insts() {
        let zext = inst.op == Opcode::Cvt
            && inst.guard.is_none()
            && !inst.mods.has(isa::Flag::Sat)
            && inst.operands.len() == 2
            && matches!(inst.type_slot(0), Some(T::U64 | T::S64 | T::B64))
            && matches!(inst.type_slot(1), Some(T::U32 | T::U16 | T::U8));
        if let (true, Some(Operand::Reg(t))) = (zext, inst.operands.first()) {
            out.insert(*t);
        }
    }
    out.retain(|t| defs.get(t.index()) == Some(&1));
    out
}

/// Zero extensions `cvt.u64.u32 t, a` whose every reader is a `shl.b64` of `t` by 1–31 (which
/// reads only the low word, `a`, for a zero-extended `t`, see [`zero_high`]): `t` takes no
/// registers, the `cvt` emits nothing, and the shifts read `a` (defined once, unguarded, so
/// the value the `cvt` saw). Returns `t → a` and, per instruction, the registers it reads in
/// place of `t` (the allocator keeps `a` live up to there).
pub fn narrowed_extensions(
    f: &Function,
    zero_high: &rustc_hash::FxHashSet<RegId>,
) -> (FxHashMap<RegId, RegId>, Vec<Vec<usize>>) {
    let body = f.insts();
    let n = f.regs.len();
    let Counts { reads, defs } = Counts::of(f);
    let mut unguarded_def = vec![true; n];
    let mut shift_reads = vec![0u32; n];
    let mut source: FxHashMap<RegId, RegId> = FxHashMap::default();
    let (mut u, mut d) = (Vec::new(), Vec::new());
    let shifted = |inst: &Inst| -> Option<RegId> {
        let plain = inst.op == Opcode::Shl
            && matches!(
                inst.ty(),
                Some(ir::Type::B64 | ir::Type::U64 | ir::Type::S64)
            );
        match (plain, inst.operands.get(1), inst.operands.get(2)) {
            (true, Some(Operand::Reg(t)), Some(Operand::Imm(1..=31))) => Some(*t),
            _ => None,
        }
    };
    for inst in body {
        uses_defs(inst, &mut u, &mut d);
        for &r in &d {
            unguarded_def[r] &= inst.guard.is_none();
        }
        if let Some(t) = shifted(inst) {
            shift_reads[t.index()] += 1;
        }
        if inst.op == Opcode::Cvt {
            if let (Some(Operand::Reg(t)), Some(Operand::Reg(a))) =
                (inst.operands.first(), inst.operands.get(1))
            {
                if zero_high.contains(t) {
                    source.insert(*t, *a);
                }
            }
        }
    }
    source.retain(|t, a| {
        let (t, a) = (t.index(), a.index());
        reads[t] == shift_reads[t]
            && defs[a] == 1
            && unguarded_def[a]
            && f.regs.get(a).and_then(|r| crate::regs::width_of(r.ty)) == Some(32)
    });
    let mut extra = vec![Vec::new(); if source.is_empty() { 0 } else { body.len() }];
    if !source.is_empty() {
        for (i, inst) in body.iter().enumerate() {
            if let Some(a) = shifted(inst).and_then(|t| source.get(&t)) {
                extra[i].push(a.index());
            }
        }
    }
    (source, extra)
}

/// How many times each register of a function is read and defined (by `ra::uses_defs`,
/// the allocator's view), indexed by register.
struct Counts {
    reads: Vec<u32>,
    defs: Vec<u32>,
}

impl Counts {
    fn of(f: &Function) -> Counts {
        let n = f.regs.len();
        let mut c = Counts {
            reads: vec![0; n],
            defs: vec![0; n],
        };
        let (mut u, mut d) = (Vec::new(), Vec::new());
        for inst in f.insts() {
            uses_defs(inst, &mut u, &mut d);
            for &r in &u {
                if let Some(x) = c.reads.get_mut(r) {
                    *x += 1;
                }
            }
            for &r in &d {
                if let Some(x) = c.defs.get_mut(r) {
                    *x += 1;
                }
            }
        }
        c
    }

    /// Whether `r` is defined once and read once: folding it into its reader leaves
    /// nothing else that needs it.
    fn single_use(&self, r: RegId) -> bool {
        self.reads.get(r.index()) == Some(&1) && self.defs.get(r.index()) == Some(&1)
    }
}
