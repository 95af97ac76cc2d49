//! One warp's architectural state and the CTA's memories, with the operand reads and writes
//! every instruction shares.

use crate::error::{FaultKind, Space};
use crate::image::Decoded;
use crate::image::Image;
use crate::memory::Global;
use crate::stack::Stack;
use fermi::isa::{Flags, Gpr, Operand, Pred};

pub const WARP_SIZE: u32 = 32;
/// `RZ`: reads as zero, writes are dropped.
const RZ: usize = 63;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Running,
    /// Waiting at `BAR` until every live warp of the CTA arrives.
    AtBarrier,
    Done,
}

/// One of a CTA's barriers between its first arrival and its completion.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Barrier {
    /// Threads that arrived (a warp counts its lanes that have not exited), and those of them
    /// whose `BAR.RED` predicate held.
    pub arrived: u32,
    pub held: u32,
    /// The thread count the arrivals named (`None`: the whole CTA, i.e. every thread that has
    /// not exited).
    pub count: Option<u32>,
    /// Which use of the barrier this is: a barrier whose thread count is reached completes,
    /// and the arrivals after it start the next generation (PTX `bar`: "the barrier is
    /// reinitialized" once complete), even within one turn.
    pub generation: u32,
}

impl Barrier {
    /// Completes this generation: returns what its waiting warps receive (barrier `id`'s
    /// reduction) and resets the barrier for the next generation.
    pub fn complete(&mut self, id: u8) -> Completed {
        let done = Completed {
            id,
            generation: self.generation,
            held: self.held,
            arrived: self.arrived,
        };
        *self = Barrier {
            generation: self.generation.wrapping_add(1),
            ..Barrier::default()
        };
        done
    }
}

/// A barrier generation that completed and whose waiting warps the end of the turn releases
/// with its reduction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Completed {
    pub id: u8,
    pub generation: u32,
    pub held: u32,
    pub arrived: u32,
}

/// The reduction `BAR.RED.*` delivers when the barrier opens: the CTA-wide count of threads
/// whose predicate held (`.POPC`, into `rd`) or its `.AND`/`.OR` (into `pd`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BarResult {
    pub rd: Gpr,
    pub pd: Pred,
    pub op: BarOp,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BarOp {
    Popc,
    And,
    Or,
}

pub struct Warp {
    /// Index of the warp in its CTA; lane `l` is thread `32 * id + l`.
    pub id: u32,
    pub regs: Vec<[u32; 64]>,
    /// Bit `i` is `Pi`; bit 7 (`pt`) is always set.
    pub preds: [u8; 32],
    /// The condition code's carry flag, one bit per lane (`.CC` writes it, `.X` reads it).
    pub carry: u32,
    /// The condition code's zero flag, one bit per lane: `.CC` writers set it when their
    /// 32-bit result is zero; `ISETP.X`/`ISET.X` read it (with the carry) as the outcome of
    /// the low-word compare of a 64-bit comparison.
    pub zero: u32,
    /// The condition code's sign and overflow flags (bit 31 of a `.CC` writer's result; its
    /// exact signed sum did not fit), one bit per lane; condition tests read them (`cc.rs`).
    pub sign: u32,
    pub overflow: u32,
    pub pc: u64,
    /// Address of the instruction fetched last (the one a fault is reported at).
    pub last_pc: u64,
    pub active: u32,
    pub exited: u32,
    pub stack: Stack,
    pub steps: u64,
    pub status: Status,
    /// The result this warp waits for at `BAR`, if it asked for one.
    pub bar: Option<BarResult>,
    /// The barrier this warp waits at (meaningful while `status` is `AtBarrier`).
    pub bar_id: u8,
    /// The generation of that barrier it arrived in.
    pub bar_generation: u32,
}

impl Warp {
    /// A warp whose lanes `present` exist (the last warp of a CTA may be partial).
    pub fn new(id: u32, present: u32, stack_top: u32) -> Warp {
        let mut regs = vec![[0u32; 64]; WARP_SIZE as usize];
        for r in &mut regs {
            // R1 is the stack pointer; the kernel's first instruction loads it anyway.
            r[1] = stack_top;
        }
        Warp {
            id,
            regs,
            preds: [0x80; 32],
            carry: 0,
            zero: 0,
            sign: 0,
            overflow: 0,
            pc: 0,
            last_pc: 0,
            active: present,
            exited: !present,
            stack: Stack::default(),
            steps: 0,
            status: Status::Running,
            bar: None,
            bar_id: 0,
            bar_generation: 0,
        }
    }

    pub fn fault_pc(&self) -> u64 {
        self.last_pc
    }

    #[inline]
    pub fn reg(&self, lane: u32, r: Gpr) -> u32 {
        let i = usize::from(r.index());
        if i >= RZ {
            return 0;
        }
        self.regs
            .get(lane as usize)
            .and_then(|l| l.get(i))
            .copied()
            .unwrap_or(0)
    }

    /// Register `r + k` (pairs and quads); past R62 reads as zero.
    #[inline]
    pub fn reg_at(&self, lane: u32, r: Gpr, k: u8) -> u32 {
        match r.index().checked_add(k).and_then(Gpr::new) {
            Some(g) if usize::from(r.index()) < RZ => self.reg(lane, g),
            _ => 0,
        }
    }

    #[inline]
    pub fn set_reg(&mut self, lane: u32, r: Gpr, v: u32) {
        self.set_reg_at(lane, r, 0, v);
    }

    /// Writes register `r + k`; writes to `RZ` (or past it) are dropped.
    #[inline]
    pub fn set_reg_at(&mut self, lane: u32, r: Gpr, k: u8, v: u32) {
        let i = usize::from(r.index()) + usize::from(k);
        if usize::from(r.index()) >= RZ || i >= RZ {
            return;
        }
        if let Some(slot) = self.regs.get_mut(lane as usize).and_then(|l| l.get_mut(i)) {
            *slot = v;
        }
    }

    #[inline]
    pub fn pred(&self, lane: u32, p: Pred) -> bool {
        let bits = self.preds.get(lane as usize).copied().unwrap_or(0x80);
        (bits | 0x80) >> p.index() & 1 == 1
    }

    #[inline]
    pub fn set_pred(&mut self, lane: u32, p: Pred, v: bool) {
        if p == Pred::PT {
            return;
        }
        if let Some(bits) = self.preds.get_mut(lane as usize) {
            let m = 1u8 << p.index();
            *bits = if v { *bits | m } else { *bits & !m };
        }
    }

    #[inline]
    pub fn carry(&self, lane: u32) -> bool {
        self.carry >> lane & 1 == 1
    }

    #[inline]
    pub fn zero(&self, lane: u32) -> bool {
        self.zero >> lane & 1 == 1
    }

    /// Lane `lane`'s condition-code flags.
    #[inline]
    pub fn cc(&self, lane: u32) -> crate::cc::Flags {
        let bit = |m: u32| m >> lane & 1 == 1;
        crate::cc::Flags {
            z: bit(self.zero),
            s: bit(self.sign),
            c: bit(self.carry),
            o: bit(self.overflow),
        }
    }

    /// Sets lane `lane`'s four condition-code flags (a `.CC` writer).
    #[inline]
    pub fn set_cc(&mut self, lane: u32, f: crate::cc::Flags) {
        let m = 1u32 << lane;
        let put = |x: &mut u32, v: bool| *x = if v { *x | m } else { *x & !m };
        put(&mut self.zero, f.z);
        put(&mut self.sign, f.s);
        put(&mut self.carry, f.c);
        put(&mut self.overflow, f.o);
    }

    /// Lane `lane`'s `$flags` word as envytools describes it (`docs/hw/graph/fermi/cuda/
    /// isa.rst`): `P0`–`P6` at bits 0–6, the condition code's zero, sign, carry and overflow
    /// flags at bits 12–15 (P2R reads it).
    pub fn flags_word(&self, lane: u32) -> u32 {
        let p = u32::from(self.preds.get(lane as usize).copied().unwrap_or(0) & 0x7f);
        let f = self.cc(lane);
        p | u32::from(f.z) << 12
            | u32::from(f.s) << 13
            | u32::from(f.c) << 14
            | u32::from(f.o) << 15
    }

    /// Writes lane `lane`'s `$flags` word (R2P): the predicates `P0`–`P6` and the four flags;
    /// other bits are dropped (`pt` stays true).
    pub fn set_flags_word(&mut self, lane: u32, v: u32) {
        if let Some(bits) = self.preds.get_mut(lane as usize) {
            *bits = 0x80 | (v & 0x7f) as u8;
        }
        let bit = |i: u32| v >> i & 1 == 1;
        self.set_cc(
            lane,
            crate::cc::Flags {
                z: bit(12),
                s: bit(13),
                c: bit(14),
                o: bit(15),
            },
        );
    }

    /// The lanes of the active mask whose guard predicate holds.
    pub fn guarded(&self, inst: &Decoded) -> u32 {
        if !inst.row.guarded {
            return self.active;
        }
        let g = inst.guard;
        lanes(self.active)
            .filter(|&l| self.pred(l, g.pred) != g.not)
            .fold(0, |m, l| m | 1 << l)
    }
}

/// The lane numbers set in `mask`, lowest first.
pub fn lanes(mask: u32) -> impl Iterator<Item = u32> {
    let mut m = mask;
    std::iter::from_fn(move || {
        if m == 0 {
            return None;
        }
        let l = m.trailing_zeros();
        m &= m - 1;
        Some(l)
    })
}

/// What one CTA shares among its warps, and what the launch shares among CTAs.
pub struct CtaMem<'a> {
    pub img: &'a Image,
    pub global: &'a Global,
    pub cbank0: &'a [u8],
    pub cbank1: &'a [u8],
    pub shared: Vec<u8>,
    /// Per thread of the CTA, by linear thread index; empty until the thread's first access.
    pub local: Vec<Vec<u8>>,
    /// Size of each thread's local memory.
    pub local_bytes: usize,
    pub ctaid: [u32; 3],
    pub ntid: [u32; 3],
    pub nctaid: [u32; 3],
    /// The CTA's 16 hardware barriers (`BAR`'s barrier operand).
    pub bars: [Barrier; 16],
    /// Generations that reached their thread count this turn.
    pub completed: Vec<Completed>,
    /// Shared-memory words locked by `LDSLK` and not yet released by `STSUL`: `(word offset,
    /// linear thread index of the owner)`.
    pub shared_locks: Vec<(u64, u32)>,
    /// The launch's textures by unit (`TEX`/`TLD`/`TXQ`'s texture field).
    pub textures: &'a [Option<exec::Texture>],
}

impl CtaMem<'_> {
    /// The `n`-byte little-endian value at `c[bank][off]` (`n` ≤ 8).
    pub fn cread(&self, bank: u8, off: u64, n: u32) -> Result<u64, FaultKind> {
        let data: &[u8] = match bank {
            0 => self.cbank0,
            1 => self.cbank1,
            2 => &self.img.constant2,
            b => self
                .img
                .banks
                .get(usize::from(b))
                .map_or(&[], |v| v.as_slice()),
        };
        let space = Space::Constant { bank };
        crate::memory::check_aligned(space, off, n)?;
        let r = crate::memory::window_range(space, off, n, data.len())?;
        let bytes = data.get(r).unwrap_or(&[]);
        Ok(bytes
            .iter()
            .rev()
            .fold(0u64, |acc, &b| acc << 8 | u64::from(b)))
    }

    /// `LDSLK`'s lock on the shared word at `off` for `thread`: whether it holds it now
    /// (it was free, or already its own).
    pub fn lock_shared(&mut self, off: u64, thread: u32) -> bool {
        let word = off & !3;
        match self.shared_locks.iter().find(|(w, _)| *w == word) {
            Some(&(_, owner)) => owner == thread,
            None => {
                self.shared_locks.push((word, thread));
                true
            }
        }
    }

    /// `STSUL`'s release of the shared word at `off`, if `thread` holds it.
    pub fn unlock_shared(&mut self, off: u64, thread: u32) {
        let word = off & !3;
        self.shared_locks
            .retain(|&(w, owner)| !(w == word && owner == thread));
    }

    /// The CTA's linear index in the grid.
    pub fn cta_index(&self) -> u64 {
        let [x, y, z] = self.ctaid.map(u64::from);
        let [nx, ny, _] = self.nctaid.map(u64::from);
        x + nx * (y + ny * z)
    }

    /// The initial stack pointer, `c[0x1][0x100]`.
    pub fn cbank1_stack_top(&self) -> u32 {
        self.cread(1, 0x100, 4).unwrap_or(0) as u32
    }

    /// The thread index of linear thread `t` of the CTA.
    pub fn tid(&self, t: u32) -> [u32; 3] {
        let [x, y, _] = self.ntid;
        let (x, y) = (x.max(1), y.max(1));
        [t % x, t / x % y, t / (x * y)]
    }
}

/// The decoration flags of a register, constant or immediate operand.
pub fn flags(op: &Operand) -> Flags {
    match op {
        Operand::Reg(_, f) | Operand::Const(_, f) | Operand::Imm20(_, f) | Operand::Pred(_, f) => {
            *f
        }
        _ => Flags::default(),
    }
}

/// The `i`-th operand of `inst` (print order), or `Operand::None`.
pub fn opd(inst: &Decoded, i: usize) -> Operand {
    inst.operands().get(i).copied().unwrap_or_default()
}

/// Whether the `i`-th operand field holds (the top bits of) a float of `width` bits.
fn float_width(inst: &Decoded, i: usize) -> u8 {
    inst.row.operands.get(i).map(|o| o.float).unwrap_or(0)
}

/// A 32-bit source operand: a register, `c[bank][offset]`, or an immediate (a float
/// instruction's 20-bit immediate holds the top bits of the single).
pub fn src32(
    w: &Warp,
    m: &CtaMem<'_>,
    lane: u32,
    inst: &Decoded,
    i: usize,
) -> Result<u32, FaultKind> {
    Ok(match opd(inst, i) {
        Operand::Reg(r, _) => w.reg(lane, r),
        Operand::Const(c, _) => m.cread(c.bank, u64::from(c.offset), 4)? as u32,
        Operand::Imm20(v, _) => {
            if float_width(inst, i) == 32 {
                (v.value() as u32 & 0xf_ffff) << 12
            } else {
                v.value() as u32
            }
        }
        Operand::Imm(v) => v as u32,
        other => return Err(bad_operand(inst, i, &other)),
    })
}

/// A 64-bit source operand: a register pair, 8 constant bytes, or an immediate (a double's
/// 20-bit immediate holds its top bits).
pub fn src64(
    w: &Warp,
    m: &CtaMem<'_>,
    lane: u32,
    inst: &Decoded,
    i: usize,
) -> Result<u64, FaultKind> {
    Ok(match opd(inst, i) {
        Operand::Reg(r, _) => {
            u64::from(w.reg_at(lane, r, 0)) | u64::from(w.reg_at(lane, r, 1)) << 32
        }
        Operand::Const(c, _) => m.cread(c.bank, u64::from(c.offset), 8)?,
        Operand::Imm20(v, _) => {
            if float_width(inst, i) == 64 {
                (v.value() as u64 & 0xf_ffff) << 44
            } else {
                i64::from(v.value()) as u64
            }
        }
        Operand::Imm(v) => i64::from(v) as u64,
        other => return Err(bad_operand(inst, i, &other)),
    })
}

/// A predicate source with its `!`.
pub fn src_pred(w: &Warp, lane: u32, inst: &Decoded, i: usize) -> Result<bool, FaultKind> {
    match opd(inst, i) {
        Operand::Pred(p, f) => Ok(w.pred(lane, p) != f.not),
        other => Err(bad_operand(inst, i, &other)),
    }
}

/// The destination register of operand `i`.
pub fn dst_reg(inst: &Decoded, i: usize) -> Result<Gpr, FaultKind> {
    match opd(inst, i) {
        Operand::Reg(r, _) => Ok(r),
        other => Err(bad_operand(inst, i, &other)),
    }
}

/// The destination predicate of operand `i`.
pub fn dst_pred(inst: &Decoded, i: usize) -> Result<Pred, FaultKind> {
    match opd(inst, i) {
        Operand::Pred(p, _) => Ok(p),
        other => Err(bad_operand(inst, i, &other)),
    }
}

fn bad_operand(inst: &Decoded, i: usize, op: &Operand) -> FaultKind {
    FaultKind::Unsupported(format!(
        "{}: operand {i} ({op:?}) is not a form this executor reads",
        inst.mnemonic()
    ))
}

/// Whether `inst` carries the modifier spelled `name` (`".X"`).
#[inline]
pub fn has(inst: &Decoded, name: &str) -> bool {
    inst.spelled().contains(&name)
}

/// The spelling of the modifier group described as `what` (`""` for the default).
#[inline]
pub fn mod_named(inst: &Decoded, what: &str) -> Option<&'static str> {
    inst.mod_named(what)
}

/// Refuses an instruction that carries a modifier outside `known` (`.S` is the stack's).
pub fn only_mods(inst: &Decoded, known: &[&str]) -> Result<(), FaultKind> {
    match inst
        .spelled()
        .iter()
        .find(|m| **m != ".S" && !known.contains(m))
    {
        Some(m) => Err(FaultKind::Unsupported(format!(
            "{} with modifier {m} is not implemented by the Fermi executor",
            inst.mnemonic()
        ))),
        None => Ok(()),
    }
}
