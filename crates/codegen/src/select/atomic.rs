//! `atom`/`red` on global (and generic) addresses: `ATOM`/`RED` with the operation and type
//! (`.E` for 64-bit addresses). On shared memory sm_20 has no `ATOM`: the read-modify-write
//! is NVIDIA's loop, `LDSLK` (load and take the word's lock), the operation and `STSUL`
//! (store and release) under the lock predicate, lanes without the lock retrying, inside an
//! `SSY` so the warp reconverges after it.

use super::memory::SPARE_PAIRS;
use super::{Selector, R};
use crate::regs::{Loc, SCRATCH, SCRATCH_PAIR};
use ir::{Inst, Opcode, Operand, Space, Type};
use isa::{AtomOp, Flag, Scope, Sem};

/// The `MEMBAR` level of a scope (none: `.gpu`, PTX's default for `atom`/`red`); a cluster
/// (sm_90) is served by the device-wide level, which orders at least as much.
pub(super) fn membar_level(scope: Option<Scope>) -> &'static str {
    match scope {
        Some(Scope::Cta) => "CTA",
        Some(Scope::Sys) => "SYS",
        _ => "GL",
    }
}

/// The fences around a memory operation with semantics `sem` at `scope`: Fermi's memory
/// accesses and atomics are relaxed, so an acquire is the access then `MEMBAR`, a release
/// `MEMBAR` then the access, `.acq_rel` both (docs/spec-notes.md, "forms round s24").
pub(super) fn fences(sem: Option<Sem>, scope: Option<Scope>) -> R<(bool, bool, &'static str)> {
    let level = membar_level(scope);
    Ok(match sem {
        None | Some(Sem::Relaxed | Sem::Weak | Sem::Volatile) => (false, false, level),
        Some(Sem::Acquire) => (false, true, level),
        Some(Sem::Release) => (true, false, level),
        Some(Sem::AcqRel) => (true, true, level),
        Some(other) => {
            return Err(format!(
                "memory semantics {} have no selection rule",
                other.spelling()
            ))
        }
    })
}

impl Selector<'_> {
    /// `fence.sc`/`fence.acq_rel` at a scope: `MEMBAR` at the scope's level. Fermi's `MEMBAR`
    /// waits for every earlier memory access of the thread to be visible at that level
    /// before any later one, a full fence, which is what a sequentially consistent or
    /// acquire-release fence asks of the thread's own accesses (PTX ISA §9.7.13.4, membar/
    /// fence: "`membar` is a synonym for `fence.sc`"). Proxy fences (`fence.proxy.*`) order
    /// accesses of other proxies (async copies, tensor maps), which sm_20 code has none of,
    /// and stay refused rather than guessed.
    pub(super) fn fence(&mut self, inst: &Inst, g: &str) -> R<()> {
        if inst.mods.has(Flag::Proxy) {
            return Err("fence.proxy orders other memory proxies (async copies, tensor maps), which sm_20 has none of; not translated".into());
        }
        match inst.mods.sem {
            // Without `.sem`, `.acq_rel` is assumed (PTX ISA, fence).
            None | Some(Sem::Sc | Sem::AcqRel) => {
                let level = membar_level(inst.mods.scope);
                self.emit(g, format!("MEMBAR.{level};"));
                Ok(())
            }
            _ => Err(
                "this fence has no selection rule (fence.sc and fence.acq_rel translate)".into(),
            ),
        }
    }

    /// `atom`/`red` with their semantics and scope: fences around the read-modify-write.
    pub(super) fn atomic(&mut self, inst: &Inst, g: &str, ty: Type) -> R<()> {
        if inst.mods.vec.is_some() {
            return Err(super::newer_form(inst)
                .unwrap_or_else(|| "vector atomics have no selection rule".into()));
        }
        let (before, after, level) = fences(inst.mods.sem, inst.mods.scope)?;
        if before {
            self.emit(g, format!("MEMBAR.{level};"));
        }
        if super::atomic_half::is_half_atomic(inst) {
            self.atomic_half(inst, g, ty)?;
        } else {
            self.atomic_plain(inst, g, ty)?;
        }
        if after {
            self.emit(g, format!("MEMBAR.{level};"));
        }
        Ok(())
    }

    fn atomic_plain(&mut self, inst: &Inst, g: &str, ty: Type) -> R<()> {
        let m = &inst.mods;
        if matches!(m.space, Some(Space::Shared | Space::SharedCta)) {
            return self.shared_atomic(inst, g, ty);
        }
        if !matches!(m.space, None | Some(Space::Global)) {
            return Err("atomics on this space have no selection rule".into());
        }
        if m.atom_op.is_none() {
            return Err("an atomic without an operation".into());
        }
        let op = m.atom_op.ok_or("an atomic without an operation")?;
        if super::atomic64::emulated(op, ty) {
            let ai = if inst.op == Opcode::Red { 0 } else { 1 };
            let Operand::Address(addr) = Self::opnd(inst, ai)? else {
                return Err("unexpected address operand".into());
            };
            let (base, off) = self.address(addr, m.space)?;
            return self.atomic_cas_loop(inst, g, op, ty, &base, off);
        }
        let t = match (op, ty) {
            (AtomOp::Add, Type::F32) if !m.has(Flag::NoFtz) => ".F32.FTZ.RN",
            (AtomOp::Add | AtomOp::Min | AtomOp::Max, Type::S32) => ".S32",
            (AtomOp::Min | AtomOp::Max | AtomOp::Add | AtomOp::Inc | AtomOp::Dec, Type::U32) => {
                ".U32"
            }
            (AtomOp::And | AtomOp::Or | AtomOp::Xor | AtomOp::Exch | AtomOp::Cas, Type::B32) => "",
            (AtomOp::Add, Type::U64) => ".U64",
            (AtomOp::Exch | AtomOp::Cas, Type::B64) => ".U64",
            _ => return Err("this atomic operation and type have no ATOM form".into()),
        };
        let name = op.spelling().trim_start_matches('.').to_uppercase();
        let e = if self.a64 { ".E" } else { "" };
        let red = inst.op == Opcode::Red;
        let (ai, bi) = if red { (0, 1) } else { (1, 2) };
        let Operand::Address(addr) = Self::opnd(inst, ai)? else {
            return Err("unexpected address operand".into());
        };
        let (base, off) = self.address(addr, m.space)?;
        let wide = t == ".U64";
        // Immediates take the scratch pair R2:R3 (R0 for a 32-bit `b`), or the spare pairs
        // when it holds a `.global` variable's address or `b` took it
        // (`memory::immediates_need_spare_pairs` keeps those free).
        let pairs = if self.address_in_scratch_pair(addr, m.space) {
            [SPARE_PAIRS[0], SPARE_PAIRS[1]]
        } else {
            [SCRATCH_PAIR, SPARE_PAIRS[0]]
        };
        let b_imm = matches!(Self::opnd(inst, bi)?, Operand::Imm(v) if *v != 0);
        let val = |s: &mut Self, i: usize| -> R<String> {
            // `b` first; `c` after a `b` immediate takes the next register.
            let at = pairs[usize::from(i != bi && b_imm && wide)];
            match Self::opnd(inst, i)? {
                Operand::Reg(r) => match s.loc(*r)? {
                    Loc::Gpr(n) | Loc::Pair(n) => Ok(format!("R{n}")),
                    Loc::Pred(_) => Err("a predicate operand".into()),
                },
                o if !wide && (i == bi || !b_imm) => s.reg32(o, g, SCRATCH),
                o if !wide => s.reg32(o, g, pairs[0]),
                Operand::Imm(v) => Ok(s.imm_pair(*v, g, at)),
                _ => Err("an unexpected atomic operand".into()),
            }
        };
        let b = val(self, bi)?;
        let at = format!("[{base}+{}]", super::hex(off));
        if red {
            self.emit(g, format!("RED{e}.{name}{t} {at}, {b};"));
        } else {
            let d = match self.loc(self.dst(inst)?)? {
                Loc::Gpr(n) | Loc::Pair(n) => format!("R{n}"),
                Loc::Pred(_) => return Err("a predicate destination".into()),
            };
            let c = if op == AtomOp::Cas {
                format!(", {}", val(self, 3)?)
            } else {
                String::new()
            };
            self.emit(g, format!("ATOM{e}.{name}{t} {d}, {at}, {b}{c};"));
        }
        Ok(())
    }

    fn shared_atomic(&mut self, inst: &Inst, g: &str, ty: Type) -> R<()> {
        let m = &inst.mods;
        if !g.is_empty() {
            return Err("a guarded shared atomic has no selection rule yet".into());
        }
        if m.atom_op.is_none() {
            return Err("an atomic without an operation".into());
        }
        let op = m.atom_op.ok_or("an atomic without an operation")?;
        let red = inst.op == Opcode::Red;
        let (ai, bi) = if red { (0, 1) } else { (1, 2) };
        let Operand::Address(addr) = Self::opnd(inst, ai)? else {
            return Err("unexpected address operand".into());
        };
        let (base, off) = self.address(addr, m.space)?;
        let at = format!("[{base}+{}]", super::hex(off));
        if super::bits(ty) == 64 {
            return self.shared_atomic64(inst, op, ty, &at);
        }
        let old = if red {
            format!("R{}", SCRATCH_PAIR + 1)
        } else {
            self.gpr(self.dst(inst)?)?
        };
        let new = format!("R{SCRATCH_PAIR}");
        let b = self.reg32(Self::opnd(inst, bi)?, "", SCRATCH)?;
        let p = format!("P{}", crate::regs::SCRATCH_PRED);
        let signed = matches!(ty, Type::S32);
        let apply = match (op, ty) {
            (AtomOp::Add, Type::U32 | Type::S32) => vec![format!("IADD {new}, {old}, {b};")],
            // atom.add.f32 rounds to nearest and flushes subnormals (as ATOM's .F32.FTZ.RN).
            (AtomOp::Add, Type::F32) if !m.has(Flag::NoFtz) => {
                vec![format!("FADD.FTZ {new}, {old}, {b};")]
            }
            (AtomOp::Min | AtomOp::Max, Type::U32 | Type::S32) => {
                let u = if signed { "" } else { ".U32" };
                let sel = if op == AtomOp::Min { "pt" } else { "!pt" };
                vec![format!("IMNMX{u} {new}, {old}, {b}, {sel};")]
            }
            (AtomOp::And | AtomOp::Or | AtomOp::Xor, Type::B32) => {
                let name = op.spelling().trim_start_matches('.').to_uppercase();
                vec![format!("LOP.{name} {new}, {old}, {b};")]
            }
            (AtomOp::Exch, Type::B32) => vec![format!("MOV {new}, {b};")],
            // inc: (old >= b) ? 0 : old + 1; dec: (old == 0 || old > b) ? b : old - 1, i.e.
            // b when old − 1 (wrapping) is at or above b. ISET's all-ones-or-zero mask picks
            // through ICMP.EQ. atom keeps old (its result) and works in R3; red's old value is
            // dead after the operation, so it is the work register itself.
            (AtomOp::Inc | AtomOp::Dec, Type::U32) => {
                let (w, mask) = if red {
                    (old.clone(), new.clone())
                } else {
                    (
                        format!("R{}", SCRATCH_PAIR + 1),
                        format!("R{}", SCRATCH_PAIR + 1),
                    )
                };
                match (op == AtomOp::Inc, red) {
                    (true, true) => vec![
                        format!("ISET.GE.U32.AND {mask}, {old}, {b}, pt;"),
                        format!("IADD {w}, {old}, 0x1;"),
                        format!("ICMP.EQ.U32 {new}, {w}, RZ, {mask};"),
                    ],
                    (true, false) => vec![
                        format!("ISET.GE.U32.AND {mask}, {old}, {b}, pt;"),
                        format!("IADD {new}, {old}, 0x1;"),
                        format!("ICMP.EQ.U32 {new}, {new}, RZ, {mask};"),
                    ],
                    (false, true) => vec![
                        format!("IADD {w}, {old}, -0x1;"),
                        format!("ISET.GE.U32.AND {mask}, {w}, {b}, pt;"),
                        format!("ICMP.EQ.U32 {new}, {w}, {b}, {mask};"),
                    ],
                    (false, false) => vec![
                        format!("IADD {new}, {old}, -0x1;"),
                        format!("ISET.GE.U32.AND {mask}, {new}, {b}, pt;"),
                        format!("ICMP.EQ.U32 {new}, {new}, {b}, {mask};"),
                    ],
                }
            }
            (AtomOp::Cas, Type::B32) if !red => {
                let c = self.reg32(Self::opnd(inst, 3)?, "", SCRATCH_PAIR + 1)?;
                // new = old - b; then (new == 0) ? c : old.
                vec![
                    format!("IADD {new}, {old}, -{b};"),
                    format!("ICMP.EQ.U32 {new}, {c}, {old}, {new};"),
                ]
            }
            _ => {
                return Err(
                    "this shared atomic operation and type have no selection rule yet".into(),
                )
            }
        };
        let k = self.out.len();
        let (top, after) = (
            format!("{}A{k}L", self.label_prefix),
            format!("{}A{k}T", self.label_prefix),
        );
        self.emit("", format!("SSY {after};"));
        self.out.push(super::Line::Label(top.clone()));
        self.emit("", format!("LDSLK {p}, {old}, {at};"));
        for l in apply {
            self.emit("", format!("@{p} {l}"));
        }
        self.emit("", format!("@{p} STSUL {at}, {new};"));
        self.emit("", format!("@!{p} BRA {top};"));
        self.emit("", "NOP.S CC.T;".into());
        self.out.push(super::Line::Label(after));
        Ok(())
    }
}
