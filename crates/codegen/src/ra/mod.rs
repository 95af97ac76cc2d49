//! Register allocation with `regalloc2`.
//!
//! `ssa.rs` builds the body in `regalloc2`'s terms (one instruction per PTX instruction, SSA
//! values, block parameters). Register classes (`regalloc2` has no aliasing between
//! classes, its issue #247, so the file is split per body):
//! - `Int`: 32-bit values (and 8/16-bit ones) in single registers `Rn`;
//! - `Float`: 64-bit values in aligned pairs, preg `k` = `R2k:R2k+1`;
//! - `Vector`: predicates, preg `k` = `Pk`.
//!
//! R0, R2:R3 and P6 are the per-class scratch registers: the selector uses them inside the
//! sequence of one PTX instruction, `regalloc2` between instructions (its moves). R1 is the
//! stack pointer. The rest of R4–R62 is split between pairs (low, from R4 or R14 up) and
//! single registers (above them) by the peak pressure of each class; `regalloc2` spreads
//! values over every register it is given, so it is given only as many as the pressure
//! needs, and more (every split) only when that spills.

mod bits;
mod operands;
mod pressure;
mod rename;
mod spill;
mod ssa;

pub(crate) use operands::uses_defs;

use crate::cfg::Cfg;
use crate::regs::Loc;
use ir::Function;
use regalloc2::{
    Allocation, Block, Edit, Inst, InstRange, MachineEnv, Operand, PReg, PRegSet, RegClass,
    RegallocOptions, VReg,
};
pub use spill::{render, SpillBytes};
pub use ssa::{Kind, RaFunc};

impl regalloc2::Function for RaFunc {
    fn num_insts(&self) -> usize {
        self.kinds.len()
    }
    fn num_blocks(&self) -> usize {
        self.blocks.len()
    }
    fn entry_block(&self) -> Block {
        Block::new(0)
    }
    fn block_insns(&self, block: Block) -> InstRange {
        let b = &self.blocks[block.index()];
        InstRange::new(Inst::new(b.first as usize), Inst::new(b.end as usize))
    }
    fn block_succs(&self, block: Block) -> &[Block] {
        self.succs(block.index())
    }
    fn block_preds(&self, block: Block) -> &[Block] {
        self.preds(block.index())
    }
    fn block_params(&self, block: Block) -> &[VReg] {
        self.params(block.index())
    }
    fn is_ret(&self, insn: Inst) -> bool {
        self.kinds[insn.index()] == Kind::Ret
    }
    fn is_branch(&self, insn: Inst) -> bool {
        self.kinds[insn.index()] == Kind::Branch
    }
    fn branch_blockparams(&self, block: Block, _insn: Inst, succ_idx: usize) -> &[VReg] {
        self.args(block.index(), succ_idx)
    }
    fn inst_operands(&self, insn: Inst) -> &[Operand] {
        self.inst_ops(insn.index())
    }
    fn inst_clobbers(&self, _insn: Inst) -> PRegSet {
        PRegSet::empty()
    }
    fn num_vregs(&self) -> usize {
        self.num_vregs
    }
    fn spillslot_size(&self, regclass: RegClass) -> usize {
        match regclass {
            RegClass::Float => 2,
            _ => 1,
        }
    }
}

thread_local! {
    static CTX: std::cell::RefCell<regalloc2::Ctx> = std::cell::RefCell::new(regalloc2::Ctx::default());
}

/// One move `regalloc2` asks for between two instructions.
#[derive(Clone, Copy, Debug)]
pub enum Place {
    Reg(Loc),
    /// A 4-byte spill slot (an 8-byte value takes two, aligned).
    Slot(u32),
}

/// A move of `regalloc2`'s: (instruction, after it, from, to).
pub type Move = (u32, bool, Place, Place);

/// The allocation of one body.
pub struct Allocated {
    pub func: RaFunc,
    /// Per instruction, the location of each operand (`func.ops`' order).
    pub allocs: Vec<Loc>,
    pub alloc_start: Vec<u32>,
    /// `(instruction, after it, from, to)`, in program order.
    pub moves: Vec<Move>,
    pub spill_slots: u32,
}

impl Allocated {
    /// The location of every PTX register instruction `i` names.
    pub fn names(&self, i: usize) -> impl Iterator<Item = (usize, Loc)> + '_ {
        let f = &self.func;
        let (a, b) = (f.name_start[i] as usize, f.name_start[i + 1] as usize);
        f.names[a..b].iter().map(move |&(r, k)| {
            (
                r as usize,
                self.allocs[self.alloc_start[i] as usize + k as usize],
            )
        })
    }
}

pub struct AllocError {
    pub inst: usize,
    pub message: String,
}

fn loc_of(a: Allocation, class: RegClass) -> Option<Place> {
    if let Some(p) = a.as_reg() {
        let k = p.hw_enc() as u8;
        return Some(Place::Reg(match class {
            RegClass::Int => Loc::Gpr(k),
            RegClass::Float => Loc::Pair(2 * k),
            RegClass::Vector => Loc::Pred(k),
        }));
    }
    a.as_stack().map(|s| Place::Slot(s.index() as u32))
}

/// The machine for `singles` 32-bit registers from `first` up and `pairs` 64-bit pairs
/// above them (singles first, so a body without pairs starts at `first`, which `compact.rs`
/// can then move down to R2; an odd count of singles gets the register below the pairs).
fn machine(first: u8, pairs: usize, singles: usize, p6_free: bool) -> MachineEnv {
    let singles = if pairs > 0 {
        singles.next_multiple_of(2)
    } else {
        singles
    };
    let int0 = usize::from(first);
    let pair0 = (int0 + singles).div_ceil(2);
    MachineEnv {
        preferred_regs_by_class: [
            (int0..(int0 + singles).min(63))
                .map(|k| PReg::new(k, RegClass::Int))
                .collect(),
            (pair0..(pair0 + pairs).min(31))
                .map(|k| PReg::new(k, RegClass::Float))
                .collect(),
            (0..crate::regs::SCRATCH_PRED as usize + usize::from(p6_free))
                .map(|k| PReg::new(k, RegClass::Vector))
                .collect(),
        ],
        non_preferred_regs_by_class: [Vec::new(), Vec::new(), Vec::new()],
        scratch_by_class: [
            Some(PReg::new(usize::from(crate::regs::SCRATCH), RegClass::Int)),
            Some(PReg::new(
                usize::from(crate::regs::SCRATCH_PAIR) / 2,
                RegClass::Float,
            )),
            (!p6_free).then(|| PReg::new(usize::from(crate::regs::SCRATCH_PRED), RegClass::Vector)),
        ],
        fixed_stack_slots: Vec::new(),
    }
}

/// Moves to and from spill slots in `out`.
fn spill_moves(out: &regalloc2::Output) -> usize {
    out.edits
        .iter()
        .filter(|(_, Edit::Move { from, to })| from.is_stack() || to.is_stack())
        .count()
}

/// Allocates registers for `f` (see `ssa::build` for `skip`, `zero`, `extra`).
pub fn allocate(
    f: &Function,
    cfg: &Cfg,
    skip: &[bool],
    zero: &[bool],
    extra: &[Vec<usize>],
) -> Result<Allocated, AllocError> {
    let func = ssa::build(f, cfg, skip, zero, extra).map_err(|e| AllocError {
        inst: e.inst,
        message: e.message,
    })?;
    // R4–R13 are kept free for the f32 division sequence's f64 temporaries where it occurs.
    let first: u8 = if f.insts().iter().any(crate::select::needs_f64_scratch) {
        14
    } else {
        4
    };
    let total = 63 - usize::from(first);
    // P6 is a value register too where no sequence needs it as scratch (regalloc2 then
    // finds a predicate for its own moves, or goes through memory).
    let p6_free = !f.insts().iter().any(crate::select::needs_scratch_pred);
    let ([p32, p64, _], need) = pressure::peak(&func);
    // Splits to try: the pressures (`regalloc2` spreads values over every register it is
    // given, and the renaming below compacts only what its choices allow: the fewer it has,
    // the better they pack), then one spare register (an early definition cannot take a
    // dying source's register), then everything to singles, then every split; the first
    // without spills wins, else the one with the fewest spill moves.
    let fit = |pairs: usize, singles: usize| {
        let pairs = pairs.min(total / 2);
        let room = total - 2 * pairs;
        (pairs, singles.min(if pairs > 0 { room & !1 } else { room }))
    };
    let (p32, p64) = (p32.max(need[0]), p64.max(need[1]));
    let mut tries = vec![
        fit(p64, p32),
        fit(p64, p32 + 1),
        fit(p64 + 1, p32 + 2),
        fit(p64, total),
    ];
    tries.extend((0..=total / 2).rev().map(|p| fit(p, total)));
    let opts = RegallocOptions::default();
    // The result is read straight from the thread's context (no copy of `regalloc2`'s output
    // per body); only a split that spills is kept aside, in case no later one does better.
    let mut best: Option<(usize, Box<regalloc2::Output>)> = None;
    let mut clean: Option<Converted> = None;
    let mut seen = Vec::new();
    for (pairs, singles) in tries {
        if seen.contains(&(pairs, singles)) || singles < need[0] || pairs < need[1] {
            continue;
        }
        seen.push((pairs, singles));
        let env = machine(first, pairs, singles, p6_free);
        // One context per thread, reused: its buffers are most of a small body's cost.
        let run = CTX.with(|ctx| {
            let mut ctx = ctx.borrow_mut();
            // regalloc2 asserts (debug builds) where a class has too few registers for some
            // instruction: that split is then one that does not work.
            let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                regalloc2::run_with_ctx(&func, &env, &opts, &mut ctx).map(|_| ())
            }));
            match ran {
                Ok(Ok(())) => Some(Ok(check_and_keep(&func, &env, &ctx.output, &best))),
                Ok(Err(e)) => Some(Err(e)),
                Err(_) => None,
            }
        });
        let Some(run) = run else { continue };
        match run {
            Ok(Ok(Kept::Clean(c))) => {
                clean = Some(c);
                break;
            }
            Ok(Ok(Kept::Spills(spills, out))) => best = Some((spills, out)),
            Ok(Ok(Kept::Worse)) => {}
            Ok(Err(e)) => return Err(e),
            // Too few registers of a class for one instruction's operands: a larger split.
            Err(regalloc2::RegAllocError::TooManyLiveRegs) => continue,
            Err(e) => {
                return Err(AllocError {
                    inst: 0,
                    message: format!("internal error: regalloc2 rejected the body: {e:?}"),
                })
            }
        }
    }
    let Converted {
        mut allocs,
        alloc_start,
        mut moves,
        spill_slots,
    } = match (clean, best) {
        (Some(c), _) => c,
        (None, Some((_, out))) => convert(&func, &out)?,
        (None, None) => {
            return Err(AllocError {
                inst: 0,
                message: "more values live at once in one instruction than registers".into(),
            })
        }
    };
    rename::rename(&func, &mut allocs, &alloc_start, &mut moves, first);
    Ok(Allocated {
        func,
        allocs,
        alloc_start,
        moves,
        spill_slots,
    })
}

/// One `regalloc2` allocation in this crate's terms.
struct Converted {
    allocs: Vec<Loc>,
    alloc_start: Vec<u32>,
    moves: Vec<Move>,
    spill_slots: u32,
}

/// What one run of `regalloc2` leaves: the allocation when nothing spills, a copy of its
/// output when it spills less than the best so far.
enum Kept {
    Clean(Converted),
    Spills(usize, Box<regalloc2::Output>),
    Worse,
}

/// Checks `out` (debug builds) and keeps what `allocate` needs of it.
fn check_and_keep(
    func: &RaFunc,
    env: &MachineEnv,
    out: &regalloc2::Output,
    best: &Option<(usize, Box<regalloc2::Output>)>,
) -> Result<Kept, AllocError> {
    if cfg!(debug_assertions) {
        // The allocation checker (on in debug builds, so in every test): a wrong
        // allocation is an error, never wrong code.
        let mut checker = regalloc2::checker::Checker::new(func, env);
        checker.prepare(out);
        if let Err(e) = checker.run() {
            if std::env::var_os("PTXVM_RA_DUMP").is_some() {
                dump(func, out);
            }
            return Err(AllocError {
                inst: 0,
                message: format!("internal error: the regalloc2 checker failed: {e:?}"),
            });
        }
    }
    let spills = spill_moves(out);
    Ok(if spills == 0 {
        Kept::Clean(convert(func, out)?)
    } else if best.as_ref().is_none_or(|b| spills < b.0) {
        Kept::Spills(spills, Box::new(out.clone()))
    } else {
        Kept::Worse
    })
}

/// The locations of every operand and the moves, from `regalloc2`'s output.
fn convert(func: &RaFunc, out: &regalloc2::Output) -> Result<Converted, AllocError> {
    let class_of_op = |o: &Operand| o.vreg().class();
    let mut allocs = Vec::with_capacity(func.ops.len());
    let mut alloc_start = Vec::with_capacity(func.kinds.len() + 1);
    for i in 0..func.kinds.len() {
        alloc_start.push(allocs.len() as u32);
        for (o, a) in func.inst_ops(i).iter().zip(out.inst_allocs(Inst::new(i))) {
            match loc_of(*a, class_of_op(o)) {
                Some(Place::Reg(l)) => allocs.push(l),
                _ => {
                    return Err(AllocError {
                        inst: 0,
                        message: "internal error: regalloc2 gave an operand no register".into(),
                    })
                }
            }
        }
    }
    alloc_start.push(allocs.len() as u32);
    let mut moves: Vec<Move> = Vec::with_capacity(out.edits.len());
    for (at, Edit::Move { from, to }) in &out.edits {
        // A move's class: that of whichever side is a register (a slot-to-slot move goes
        // through the class's scratch register, which `regalloc2` writes as two moves).
        let class = from
            .as_reg()
            .or(to.as_reg())
            .map(|p| p.class())
            .unwrap_or(RegClass::Int);
        let (Some(a), Some(b)) = (loc_of(*from, class), loc_of(*to, class)) else {
            continue;
        };
        if let (Place::Slot(_), Place::Slot(_)) = (a, b) {
            return Err(AllocError {
                inst: 0,
                message: "internal error: regalloc2 asked for a slot-to-slot move".into(),
            });
        }
        moves.push((
            at.inst().index() as u32,
            at.pos() == regalloc2::InstPosition::After,
            a,
            b,
        ));
    }
    Ok(Converted {
        allocs,
        alloc_start,
        moves,
        spill_slots: out.num_spillslots as u32,
    })
}

impl Allocated {
    /// The selector's view: which registers values use (scratch registers not counted).
    pub fn regmap(&self) -> crate::regs::RegMap {
        let mut gprs = [false; 64];
        let mut preds = Vec::new();
        let mut mark = |l: Loc| match l {
            Loc::Gpr(g) if g >= 4 => gprs[usize::from(g) & 63] = true,
            Loc::Pair(g) if g >= 4 => {
                gprs[usize::from(g) & 63] = true;
                gprs[usize::from(g + 1) & 63] = true;
            }
            Loc::Pred(p) => preds.push(p),
            _ => {}
        };
        for &l in &self.allocs {
            mark(l);
        }
        for &(_, _, a, b) in &self.moves {
            for p in [a, b] {
                if let Place::Reg(l) = p {
                    mark(l);
                }
            }
        }
        crate::regs::RegMap::new(gprs, preds)
    }
}

/// The function and its allocation on stderr (debugging aid, `PTXVM_RA_DUMP`).
fn dump(func: &RaFunc, out: &regalloc2::Output) {
    for (b, blk) in func.blocks.iter().enumerate() {
        let args: Vec<&[VReg]> = (0..func.succs(b).len()).map(|k| func.args(b, k)).collect();
        eprintln!(
            "block{b} params {:?} succs {:?} preds {:?} args {:?}",
            func.params(b),
            func.succs(b),
            func.preds(b),
            args
        );
        for i in blk.first..blk.end {
            let i = i as usize;
            let ops = &func.ops[func.op_start[i] as usize..func.op_start[i + 1] as usize];
            eprintln!(
                "  inst{i} {:?} {:?} -> {:?}",
                func.kinds[i],
                ops,
                out.inst_allocs(Inst::new(i))
            );
        }
    }
    for e in &out.edits {
        eprintln!("edit {e:?}");
    }
}
