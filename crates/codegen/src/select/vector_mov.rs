//! Whole-vector `mov.v2`/`.v4` (ptx-isa-1.1 §6.4.3; swizzles, spread scalars and brace lists
//! arrive as one source per lane, §6.5.3 Table 10). The lanes are one parallel copy: every
//! source is read before any destination is written (`mov.v4 v, {v.y, v.x, v.w, v.z}`
//! swaps), and a destination lane may share a register with another lane's source. The copy
//! is sequenced: a move whose destination no pending move still reads goes first; when only
//! cycles remain, one destination's old value is saved in the scratch register (R0; R2:R3 for
//! 64-bit lanes; R0 as 0/1 for predicates) and its readers read it there.

use super::{bits, hex, Selector, R};
use crate::regs::{Loc, SCRATCH, SCRATCH_PAIR};
use ir::{Function, Inst, Opcode, Operand, Type};

/// Fermi's predicate registers that hold values (P0–P6; PT is the constant true).
const PREDICATES: usize = 7;

/// `f` with each whole-vector `mov` that names more predicates than Fermi has (`mov.v4.pred`
/// between eight distinct predicates: the allocator cannot place one instruction's operands)
/// split into one single-lane `mov` per lane, when doing the lanes one after another reads
/// what the parallel copy reads (no lane writes a register a later lane or the guard reads);
/// `None` when nothing is split. Labels and branch targets are renumbered.
pub(crate) fn split_wide_pred_moves(f: &Function) -> Option<Function> {
    let body = f.body.as_ref()?;
    if !body.iter().any(|i| needs_split(f, i)) {
        return None;
    }
    let mut new_index = Vec::with_capacity(body.len() + 1);
    let mut out = Vec::with_capacity(body.len() + 8);
    for inst in body {
        new_index.push(out.len() as u32);
        match (needs_split(f, inst), &inst.operands[..]) {
            (true, [Operand::Vector(d), Operand::Vector(s)]) => {
                for (d, s) in d.iter().zip(s.iter()) {
                    if *d == Operand::Sink {
                        continue;
                    }
                    let mut lane = inst.clone();
                    lane.operands[0] = Operand::Vector(Box::new([d.clone()]));
                    lane.operands[1] = Operand::Vector(Box::new([s.clone()]));
                    out.push(lane);
                }
            }
            _ => out.push(inst.clone()),
        }
    }
    new_index.push(out.len() as u32);
    let at = |t: u32| new_index[(t as usize).min(new_index.len() - 1)];
    for inst in out.iter_mut() {
        for o in inst.operands.iter_mut() {
            match o {
                Operand::Label(t) => t.0 = at(t.0),
                Operand::TargetList(ts) => ts.iter_mut().for_each(|t| t.0 = at(t.0)),
                _ => {}
            }
        }
    }
    let mut g = f.clone();
    for (_, l) in g.labels.iter_mut() {
        l.0 = at(l.0);
    }
    g.body = Some(out);
    Some(g)
}

/// Whether `inst` is a vector `mov` naming more predicates than Fermi has whose lanes may
/// be done one after another.
fn needs_split(f: &Function, inst: &Inst) -> bool {
    let (Opcode::Mov, [Operand::Vector(d), Operand::Vector(s)]) = (inst.op, &inst.operands[..])
    else {
        return false;
    };
    if predicates_named(f, inst) <= PREDICATES || d.len() != s.len() {
        return false;
    }
    // Lane by lane equals the parallel copy when no lane writes a register that a later
    // lane's source or the guard reads.
    d.iter().enumerate().all(|(i, di)| match di {
        Operand::Reg(r) => {
            inst.guard.is_none_or(|g| g.reg != *r)
                && !s[i + 1..].iter().any(|x| x == &Operand::Reg(*r))
        }
        _ => true,
    })
}

/// The distinct predicate registers `inst` names (its guard included).
fn predicates_named(f: &Function, inst: &Inst) -> usize {
    let is_pred = |r: &ir::RegId| f.reg(*r).is_some_and(|x| x.ty == Type::Pred);
    let mut preds: Vec<ir::RegId> = inst
        .operands
        .iter()
        .flat_map(|o| match o {
            Operand::Vector(v) => v.to_vec(),
            o => vec![o.clone()],
        })
        .filter_map(|o| match o {
            Operand::Reg(r) if is_pred(&r) => Some(r),
            _ => None,
        })
        .chain(inst.guard.map(|g| g.reg))
        .collect();
    preds.sort_unstable();
    preds.dedup();
    preds.len()
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Src {
    Reg(u8),
    Imm(u64),
    Scratch,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Single,
    Pair,
    Pred,
}

impl Selector<'_> {
    pub(super) fn mov_vector(&mut self, inst: &Inst, g: &str, ty: Type) -> R<()> {
        let Some(Operand::Vector(dst)) = inst.operands.first() else {
            return Err("a vector mov without a vector destination".into());
        };
        if predicates_named(self.func, inst) > PREDICATES {
            // `split_wide_pred_moves` splits every such mov whose lanes can go one by one.
            return Err(format!(
                "a vector mov naming more predicates than Fermi's {PREDICATES} whose lanes \
                 overwrite registers later lanes (or its guard) read"
            ));
        }
        let src: Vec<Operand> = match Self::opnd(inst, 1)? {
            Operand::Vector(v) => v.to_vec(),
            o => vec![o.clone(); dst.len()],
        };
        if src.len() != dst.len() {
            return Err("a vector mov whose source has another length".into());
        }
        let kind = match ty {
            Type::Pred => Kind::Pred,
            t if bits(t) == 64 => Kind::Pair,
            _ => Kind::Single,
        };
        let place = |s: &mut Self, r: ir::RegId| -> R<u8> {
            match (s.loc(r)?, kind) {
                (Loc::Gpr(n), Kind::Single) | (Loc::Pair(n), Kind::Pair) => Ok(n),
                (Loc::Pred(n), Kind::Pred) => Ok(n),
                _ => Err("a vector lane in a register of another kind".into()),
            }
        };
        let mut pending: Vec<(u8, Src)> = Vec::new();
        for (d, s) in dst.iter().zip(&src) {
            let d = match d {
                Operand::Reg(r) => place(self, *r)?,
                Operand::Sink => continue,
                _ => return Err("an unexpected vector mov destination".into()),
            };
            let s = match s {
                Operand::Reg(r) => Src::Reg(place(self, *r)?),
                Operand::Imm(v) => Src::Imm(*v),
                _ => return Err("a vector mov lane from a special register".into()),
            };
            // A later lane writing the same register wins, as in lane order.
            pending.retain(|(e, _)| *e != d);
            if s != Src::Reg(d) {
                pending.push((d, s));
            }
        }
        while !pending.is_empty() {
            let free = pending
                .iter()
                .position(|(d, _)| !pending.iter().any(|(_, s)| *s == Src::Reg(*d)));
            match free {
                Some(i) => {
                    let (d, s) = pending.remove(i);
                    self.vector_lane(g, kind, d, s);
                }
                None => {
                    // Only cycles are left: save one destination's old value.
                    let d = pending[0].0;
                    self.vector_save(g, kind, d);
                    for (_, s) in pending.iter_mut() {
                        if *s == Src::Reg(d) {
                            *s = Src::Scratch;
                        }
                    }
                }
            }
        }
        Ok(())
    }

    fn vector_save(&mut self, g: &str, kind: Kind, r: u8) {
        match kind {
            Kind::Single => self.emit(g, format!("MOV R{SCRATCH}, R{r};")),
            Kind::Pair => {
                self.emit(g, format!("MOV R{SCRATCH_PAIR}, R{r};"));
                self.emit(g, format!("MOV R{}, R{};", SCRATCH_PAIR + 1, r + 1));
            }
            Kind::Pred => self.emit(g, format!("SEL R{SCRATCH}, RZ, 0x1, !P{r};")),
        }
    }

    fn vector_lane(&mut self, g: &str, kind: Kind, d: u8, s: Src) {
        let imm32 = |v: u64| hex(i64::from(v as u32 as i32));
        let text = match (kind, s) {
            (Kind::Single, Src::Reg(r)) => vec![format!("MOV R{d}, R{r};")],
            (Kind::Single, Src::Scratch) => vec![format!("MOV R{d}, R{SCRATCH};")],
            (Kind::Single, Src::Imm(v)) => vec![format!("MOV32I R{d}, {};", imm32(v))],
            (Kind::Pair, Src::Reg(r)) => vec![
                format!("MOV R{d}, R{r};"),
                format!("MOV R{}, R{};", d + 1, r + 1),
            ],
            (Kind::Pair, Src::Scratch) => vec![
                format!("MOV R{d}, R{SCRATCH_PAIR};"),
                format!("MOV R{}, R{};", d + 1, SCRATCH_PAIR + 1),
            ],
            (Kind::Pair, Src::Imm(v)) => vec![
                format!("MOV32I R{d}, {};", imm32(v)),
                format!("MOV32I R{}, {};", d + 1, imm32(v >> 32)),
            ],
            (Kind::Pred, Src::Reg(r)) => vec![format!("PSETP.AND.AND P{d}, pt, P{r}, pt, pt;")],
            (Kind::Pred, Src::Scratch) => {
                vec![format!("ISETP.NE.AND P{d}, pt, R{SCRATCH}, RZ, pt;")]
            }
            (Kind::Pred, Src::Imm(v)) => {
                let p = if v != 0 { "pt" } else { "!pt" };
                vec![format!("PSETP.AND.AND P{d}, pt, {p}, pt, pt;")]
            }
        };
        for t in text {
            self.emit(g, t);
        }
    }
}

impl Selector<'_> {
    /// Whether `inst` packs 16-bit parts into (or unpacks them from) a 32- or 64-bit register:
    /// `mov.b32 d, {a, b}`, `mov.b64 d, {a, b, c, e}` and the reverse (lowest part first).
    pub(super) fn is_half_pack(inst: &Inst, w: u32) -> bool {
        let parts = |o: Option<&Operand>| match o {
            Some(Operand::Vector(v)) => v.len() as u32,
            _ => 0,
        };
        inst.mods.vec.is_none()
            && (w == 32 || w == 64)
            && [parts(inst.operands.first()), parts(inst.operands.get(1))]
                .iter()
                .any(|&n| n > 0 && w / n == 16)
    }

    /// Whether `inst` unpacks an immediate into parts: `mov.b32 {a, b}, 3`,
    /// `mov.b64 {a, b}, 3`, `mov.b64 {a, b, c, e}, 3`.
    pub(super) fn is_imm_unpack(inst: &Inst) -> bool {
        inst.mods.vec.is_none()
            && matches!(inst.operands.first(), Some(Operand::Vector(v)) if !v.is_empty())
            && matches!(inst.operands.get(1), Some(Operand::Imm(_)))
    }

    /// An immediate unpacked: each part is its slice of the immediate's bits, lowest part
    /// first (ptx-isa §9.7.9.5, mov's `{a, b}` destinations), set by `MOV32I` (a 16-bit
    /// part zero-extended in its register, as the register unpacks above leave it).
    pub(super) fn imm_unpack(&mut self, inst: &Inst, g: &str, w: u32) -> R<()> {
        let (Some(Operand::Vector(parts)), Some(Operand::Imm(v))) =
            (inst.operands.first(), inst.operands.get(1))
        else {
            return Err("an unexpected immediate unpack".into());
        };
        let n = parts.len() as u32;
        let width = w / n;
        if width == 0 || width > 32 || width * n != w {
            return Err("an immediate unpacked into parts of no 8-, 16- or 32-bit width".into());
        }
        let mask = if width == 32 {
            u64::from(u32::MAX)
        } else {
            (1u64 << width) - 1
        };
        for (k, part) in parts.iter().enumerate() {
            let value = (*v >> (k as u32 * width)) & mask;
            match part {
                Operand::Reg(r) => {
                    let d = self.gpr(*r)?;
                    self.emit(
                        g,
                        format!("MOV32I {d}, {};", hex(value as u32 as i32 as i64)),
                    );
                }
                Operand::Sink => {}
                _ => return Err("an unexpected unpack destination".into()),
            }
        }
        Ok(())
    }

    /// The halves packed or unpacked: packing masks the low part (a 16-bit register's upper
    /// bits are not its value) and adds the high part shifted (`LOP32I.AND` + `ISCADD`);
    /// unpacking masks or shifts each part out of its word.
    pub(super) fn half_pack(&mut self, inst: &Inst, g: &str, w: u32) -> R<()> {
        let s = format!("R{SCRATCH}");
        match (inst.operands.first(), Self::opnd(inst, 1)?) {
            (Some(Operand::Reg(d)), Operand::Vector(parts)) => {
                let words: Vec<String> = if w == 64 {
                    let (l, h) = self.pair(*d)?;
                    vec![l, h]
                } else {
                    vec![self.gpr(*d)?]
                };
                for (k, word) in words.iter().enumerate() {
                    let lo = self.reg32(&parts[2 * k], g, SCRATCH_PAIR)?;
                    let hi = self.reg32(&parts[2 * k + 1], g, SCRATCH_PAIR + 1)?;
                    self.emit(g, format!("LOP32I.AND {s}, {lo}, 0xffff;"));
                    self.emit(g, format!("ISCADD {word}, {hi}, {s}, 0x10;"));
                }
                Ok(())
            }
            (Some(Operand::Vector(parts)), Operand::Reg(r)) => {
                let words: Vec<String> = if w == 64 {
                    let (l, h) = self.pair(*r)?;
                    vec![l, h]
                } else {
                    vec![self.gpr(*r)?]
                };
                for (i, part) in parts.iter().enumerate() {
                    let word = &words[i / 2];
                    match part {
                        Operand::Reg(p) => {
                            let p = self.gpr(*p)?;
                            if i % 2 == 0 {
                                self.emit(g, format!("LOP32I.AND {p}, {word}, 0xffff;"));
                            } else {
                                self.emit(g, format!("SHR.U32 {p}, {word}, 0x10;"));
                            }
                        }
                        Operand::Sink => {}
                        _ => return Err("an unexpected unpack destination".into()),
                    }
                }
                Ok(())
            }
            _ => Err("this 16-bit pack has no selection rule yet".into()),
        }
    }
}
