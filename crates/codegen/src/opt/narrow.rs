//! 32-bit arithmetic for 64-bit window addresses: a `.shared` or `.local` access reads only
//! the low word of its address register (`LDS`/`STS`/`LDL`/`STL` take a 32-bit offset in the
//! CTA's or thread's window: `select.rs`, `address`), so the 64-bit `add`/`shl`/`mul.wide`
//! chain NVRTC's 64-bit PTX builds for such an address can be computed on low words alone.
//! The low 32 bits of a 64-bit sum, difference-by-constant, left shift or product depend only
//! on the low 32 bits of the operands (arithmetic modulo 2^32), and the low word of a
//! zero- or sign-extension is its source: the narrowed address is the same word, bit for bit,
//! as the one the access reads today.
//!
//! Values are kept as `base + constant` while walking the chain, so a constant in the index
//! (`(i − 1)·4`) ends in the access's offset (`LDS R, [R2+-0x4]`, NVIDIA's form) and one
//! scaled index serves every access (the temporaries are shared by key). Each temporary is
//! placed right after the definition of its latest input, which dominates every use.
//! The 64-bit chain then has no readers left but the ones outside a window (dead code
//! removes the rest).

use super::Facts;
use ir::{AddrBase, Flag, Inst, Opcode, Operand, RegId, Space, Type};
use isa::MulMode;
use std::collections::HashMap;

/// `base + off` (mod 2^32): `base` a 32-bit register and the index after which it holds the
/// value, or nothing for a constant.
#[derive(Clone, Copy)]
struct Lin {
    base: Option<(RegId, usize)>,
    off: u32,
}

/// What a temporary computes, for sharing one between accesses.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Key {
    Shl(RegId, u32),
    Mul(RegId, u32),
    Add(RegId, RegId),
    /// The low word of a variable's address, defined by the 64-bit `mov` at this index.
    Var(usize),
}

struct Narrow<'a> {
    body: &'a [Inst],
    facts: &'a Facts,
    regs: &'a mut Vec<ir::Reg>,
    memo: HashMap<Key, (RegId, usize)>,
    /// New instructions to insert after each body index, in creation order.
    after: Vec<Vec<Inst>>,
}

fn int_bits(t: Option<Type>) -> Option<u32> {
    match t? {
        Type::U32 | Type::S32 | Type::B32 => Some(32),
        Type::U64 | Type::S64 | Type::B64 => Some(64),
        _ => None,
    }
}

/// Unguarded, no carry, no saturation.
fn plain(inst: &Inst) -> bool {
    inst.guard.is_none() && !inst.mods.has(Flag::Cc) && !inst.mods.has(Flag::Sat)
}

impl Narrow<'_> {
    /// The single unguarded definition of `r`, if it dominates instruction `at`.
    fn def_before(&self, r: RegId, at: usize) -> Option<usize> {
        let d = self.facts.value_def(r)?;
        (d != at && self.facts.dominates(d, at)).then_some(d)
    }

    fn imm_or(&mut self, o: &Operand, at: usize, wide: bool) -> Option<Lin> {
        match o {
            Operand::Imm(c) => Some(Lin {
                base: None,
                off: *c as u32,
            }),
            Operand::Reg(r) if wide => self.lin64(*r, at),
            Operand::Reg(r) => self.lin32(*r, at),
            _ => None,
        }
    }

    /// The low word of 64-bit register `v` as read at instruction `at`.
    fn lin64(&mut self, v: RegId, at: usize) -> Option<Lin> {
        let d = self.def_before(v, at)?;
        let inst = &self.body[d];
        let wide_mul = inst.op == Opcode::Mul && inst.mods.mul_mode == Some(MulMode::Wide);
        // The first type slot is the destination's (`cvt.u64.u32`), or for `mul.wide` the
        // sources'.
        let want = if wide_mul { 32 } else { 64 };
        if !plain(inst) || int_bits(inst.ty()) != Some(want) {
            return None;
        }
        let ops: Vec<Operand> = inst.operands.iter().cloned().collect();
        match inst.op {
            Opcode::Cvt
                if int_bits(inst.type_slot(1)) == Some(32) && inst.mods.rounding.is_none() =>
            {
                match ops.get(1)? {
                    Operand::Reg(r) => self.lin32(*r, d),
                    _ => None,
                }
            }
            Opcode::Mov => match ops.get(1)? {
                Operand::Imm(c) => Some(Lin {
                    base: None,
                    off: *c as u32,
                }),
                o @ Operand::VarAddr { .. } => {
                    let (t, pos) = match self.memo.get(&Key::Var(d)) {
                        Some(&hit) => hit,
                        None => {
                            let t = self.temp(d, Opcode::Mov, Type::U32, vec![o.clone()], d);
                            self.memo.insert(Key::Var(d), (t, d));
                            (t, d)
                        }
                    };
                    Some(Lin {
                        base: Some((t, pos)),
                        off: 0,
                    })
                }
                _ => None,
            },
            Opcode::Add => {
                let a = self.imm_or(ops.get(1)?, d, true)?;
                let b = self.imm_or(ops.get(2)?, d, true)?;
                self.sum(a, b)
            }
            Opcode::Sub => {
                let a = self.imm_or(ops.get(1)?, d, true)?;
                match ops.get(2)? {
                    Operand::Imm(c) => Some(Lin {
                        base: a.base,
                        off: a.off.wrapping_sub(*c as u32),
                    }),
                    _ => None,
                }
            }
            Opcode::Shl => match ops.get(2)? {
                Operand::Imm(s) if *s < 32 => {
                    let a = self.imm_or(ops.get(1)?, d, true)?;
                    self.scale(a, 1u32 << *s)
                }
                _ => None,
            },
            Opcode::Mul if wide_mul => {
                let (a, k) = match (ops.get(1)?, ops.get(2)?) {
                    (Operand::Reg(r), Operand::Imm(k)) | (Operand::Imm(k), Operand::Reg(r)) => {
                        (self.lin32(*r, d)?, *k as u32)
                    }
                    _ => return None,
                };
                self.scale(a, k)
            }
            _ => None,
        }
    }

    /// 32-bit register `r` as read at `at`: itself, or `x + c` when `r` is such a sum.
    fn lin32(&mut self, r: RegId, at: usize) -> Option<Lin> {
        let d = self.def_before(r, at)?;
        let inst = &self.body[d];
        if inst.op == Opcode::Add && plain(inst) && int_bits(inst.ty()) == Some(32) {
            let ops: Vec<Operand> = inst.operands.iter().cloned().collect();
            if let (Some(Operand::Reg(x)), Some(Operand::Imm(c)))
            | (Some(Operand::Imm(c)), Some(Operand::Reg(x))) = (ops.get(1), ops.get(2))
            {
                if let Some(l) = self.lin32(*x, d) {
                    return Some(Lin {
                        base: l.base,
                        off: l.off.wrapping_add(*c as u32),
                    });
                }
            }
        }
        Some(Lin {
            base: Some((r, d)),
            off: 0,
        })
    }

    fn sum(&mut self, a: Lin, b: Lin) -> Option<Lin> {
        let off = a.off.wrapping_add(b.off);
        let base = match (a.base, b.base) {
            (None, x) | (x, None) => x,
            (Some(x), Some(y)) => {
                let (x, y) = if x.0 .0 <= y.0 .0 { (x, y) } else { (y, x) };
                let pos = x.1.max(y.1);
                Some(self.shared(Key::Add(x.0, y.0), pos, |n| {
                    n.temp_op(Opcode::Add, Type::U32, x.0, Operand::Reg(y.0), pos)
                }))
            }
        };
        Some(Lin { base, off })
    }

    /// `a · k` for a constant `k`: a shift for powers of two, else `mul.lo`.
    fn scale(&mut self, a: Lin, k: u32) -> Option<Lin> {
        let off = a.off.wrapping_mul(k);
        let base = match a.base {
            None => None,
            Some(x) if k == 1 => Some(x),
            Some(x) if k.is_power_of_two() => {
                let s = k.trailing_zeros();
                Some(self.shared(Key::Shl(x.0, s), x.1, |n| {
                    n.temp_op(Opcode::Shl, Type::B32, x.0, Operand::Imm(u64::from(s)), x.1)
                }))
            }
            Some(x) => Some(self.shared(Key::Mul(x.0, k), x.1, |n| {
                n.temp_op(Opcode::Mul, Type::U32, x.0, Operand::Imm(u64::from(k)), x.1)
            })),
        };
        Some(Lin { base, off })
    }

    /// The temporary for `key`, made by `make` after `pos` the first time.
    fn shared(
        &mut self,
        key: Key,
        pos: usize,
        make: impl FnOnce(&mut Self) -> RegId,
    ) -> (RegId, usize) {
        if let Some(&hit) = self.memo.get(&key) {
            return hit;
        }
        let t = make(self);
        self.memo.insert(key, (t, pos));
        (t, pos)
    }

    fn temp_op(&mut self, op: Opcode, ty: Type, a: RegId, b: Operand, pos: usize) -> RegId {
        self.temp(pos, op, ty, vec![Operand::Reg(a), b], pos)
    }

    /// A new 32-bit register defined by `op.ty d, srcs…` inserted after `pos` (modelled on
    /// the instruction at `like`, whose form has its destination first).
    fn temp(&mut self, like: usize, op: Opcode, ty: Type, srcs: Vec<Operand>, pos: usize) -> RegId {
        let t = RegId(self.regs.len() as u32);
        let mut reg = self.regs[0].clone();
        if let Some(Operand::Reg(d)) = self.body[like].operands.first() {
            reg = self.regs[d.index()].clone();
        }
        reg.ty = ty;
        self.regs.push(reg);
        let template = &self.body[like];
        let form = isa::forms_of(op)
            .iter()
            .find(|f| f.operands.first().is_some_and(|o| o.kind.is_destination()))
            .unwrap_or(template.form);
        let mut inst = template.clone();
        inst.op = op;
        inst.form = form;
        inst.guard = None;
        inst.mods = ir::Mods::default();
        if op == Opcode::Mul {
            inst.mods.mul_mode = Some(MulMode::Lo);
        }
        inst.types = Default::default();
        inst.types[0] = Some(ty);
        inst.operands = std::iter::once(Operand::Reg(t)).chain(srcs).collect();
        self.after[pos].push(inst);
        t
    }
}

/// Largest offset magnitude folded into a window access (Fermi's 24-bit signed offset).
const MAX_OFFSET: i64 = 1 << 23;

/// Narrows window addresses; returns the map from old instruction indices to new ones when
/// anything was inserted.
pub(super) fn run(
    body: &mut Vec<Inst>,
    regs: &mut Vec<ir::Reg>,
    facts: &Facts,
) -> Option<Vec<u32>> {
    let window = |inst: &Inst| {
        matches!(inst.op, Opcode::Ld | Opcode::St)
            && matches!(
                inst.mods.space,
                Some(Space::Shared | Space::SharedCta | Space::Local)
            )
    };
    if regs.is_empty() || !body.iter().any(window) {
        return None;
    }
    let declared = regs.len();
    let code: &[Inst] = body;
    let mut n = Narrow {
        body: code,
        facts,
        regs,
        memo: HashMap::new(),
        after: vec![Vec::new(); code.len()],
    };
    let mut rewrites: Vec<(usize, usize, RegId, i64)> = Vec::new();
    for (u, inst) in code.iter().enumerate() {
        if !window(inst) {
            continue;
        }
        for (k, o) in inst.operands.iter().enumerate() {
            let Operand::Address(a) = o else { continue };
            let AddrBase::Reg(v) = a.base else { continue };
            if int_bits(n.regs.get(v.index()).map(|r| r.ty)) != Some(64) {
                continue;
            }
            // A temporary made for an address that is then not rewritten is dead code.
            let Some(Lin {
                base: Some((t, _)),
                off,
            }) = n.lin64(v, u)
            else {
                continue;
            };
            let offset = a.offset + i64::from(off as i32);
            if offset.abs() >= MAX_OFFSET {
                continue;
            }
            rewrites.push((u, k, t, offset));
        }
    }
    let after = n.after;
    if rewrites.is_empty() {
        regs.truncate(declared);
        return None;
    }
    for &(u, k, t, offset) in &rewrites {
        if let Some(Operand::Address(a)) = body[u].operands.get_mut(k) {
            a.base = AddrBase::Reg(t);
            a.offset = offset;
        }
    }
    // New order: each instruction, then what goes after it.
    let mut map = Vec::with_capacity(body.len() + 1);
    let mut out = Vec::with_capacity(body.len() + after.iter().map(Vec::len).sum::<usize>());
    for (inst, extra) in std::mem::take(body).into_iter().zip(after) {
        map.push(out.len() as u32);
        out.push(inst);
        out.extend(extra);
    }
    map.push(out.len() as u32);
    for inst in out.iter_mut() {
        for o in inst.operands.iter_mut() {
            match o {
                Operand::Label(t) => t.0 = map[t.index().min(map.len() - 1)],
                Operand::TargetList(ts) => {
                    for t in ts.iter_mut() {
                        t.0 = map[t.index().min(map.len() - 1)];
                    }
                }
                _ => {}
            }
        }
    }
    *body = out;
    Some(map)
}
