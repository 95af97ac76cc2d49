//! One warp step: fetch the decoded instruction at the warp's pc, run it for the lanes whose
//! guard holds, and move the warp on — control flow and the reconvergence stack live here
//! (the model is in docs/fermi-exec.md).

use crate::alu::each;
use crate::error::{FaultKind, LaneFault};
use crate::image::Decoded;
use crate::stack::{EntryKind, Leave};
use crate::warp::{
    dst_pred, dst_reg, has, lanes, mod_named, only_mods, opd, src32, src_pred, BarOp, BarResult,
    CtaMem, Status, Warp,
};
use fermi::isa::{branch_target, Operand};

/// Runs the instruction at the warp's pc. `Ok(n)`: `n` lanes were active.
pub fn step(w: &mut Warp, m: &mut CtaMem<'_>, max_steps: u64) -> Result<u32, LaneFault> {
    w.last_pc = w.pc;
    if w.steps >= max_steps {
        return Err(LaneFault::warp(FaultKind::StepBudget { max_steps }));
    }
    w.steps += 1;
    let pc = w.pc;
    // A branch may land between words: that is outside the code too.
    let slot = pc
        .is_multiple_of(8)
        .then(|| usize::try_from(pc / 8).ok())
        .flatten();
    // The image outlives this borrow of `m`: the instruction is read in place.
    let img = m.img;
    let inst = match slot.and_then(|i| img.insts.get(i)) {
        Some(Ok(inst)) => inst,
        Some(Err(why)) => {
            return Err(LaneFault::warp(FaultKind::Unsupported(format!(
                "the word does not decode ({why})"
            ))))
        }
        None => return Err(LaneFault::warp(FaultKind::PcOutOfRange { pc })),
    };
    let active = w.active.count_ones();
    let mask = cc_lanes(w, inst, w.guarded(inst))?;
    let next = pc.wrapping_add(8);
    if control(w, m, inst, mask, next)? {
        return Ok(active);
    }
    let handled = crate::alu::exec(w, m, inst, mask)?
        || crate::fpu::exec(w, m, inst, mask)?
        || crate::mem::exec(w, m, inst, mask)?
        || crate::atom::exec(w, m, inst, mask)?
        || misc(w, m, inst, mask)?
        || crate::tex::exec(w, m, inst, mask)?;
    if !handled {
        return Err(LaneFault::warp(FaultKind::Unsupported(format!(
            "{} is not implemented by the Fermi executor",
            inst.mnemonic()
        ))));
    }
    w.pc = next;
    if inst.sched {
        // `.S`: the lanes that executed it arrive at the reconvergence point; the others
        // (guard false) go on.
        leave(w, mask, Leave::Sync)?;
    }
    Ok(active)
}

/// Lanes `gone` leave the active mask; when none is left the stack decides who runs next.
fn leave(w: &mut Warp, gone: u32, why: Leave) -> Result<(), LaneFault> {
    w.active &= !gone;
    if w.active == 0 {
        resume(w, why)?;
    }
    Ok(())
}

/// Pops the reconvergence stack until some waiting lanes can run; the warp is done when
/// every lane has exited.
fn resume(w: &mut Warp, why: Leave) -> Result<(), LaneFault> {
    match w.stack.pop_live(w.exited, why).map_err(LaneFault::warp)? {
        Some((mask, pc)) => {
            w.active = mask;
            w.pc = pc;
        }
        None if w.exited == u32::MAX => w.status = Status::Done,
        None => {
            return Err(LaneFault::warp(FaultKind::Discipline(format!(
                "lanes {:#010x} wait for reconvergence but the warp's stack is empty \
                 (a .S, BRK, CONT or RET without its SSY, PBK, PCNT or CAL)",
                !w.exited
            ))))
        }
    }
    Ok(())
}

fn unsupported(why: String) -> LaneFault {
    LaneFault::warp(FaultKind::Unsupported(why))
}

/// The lanes of `mask` whose condition-code test holds (`BRA CC.NE`, `EXIT CC.LT`: the
/// test is a second guard, read from each lane's flags; `cc.rs`).
fn cc_lanes(w: &Warp, inst: &Decoded, mask: u32) -> Result<u32, LaneFault> {
    match inst.cc {
        None | Some(15) => Ok(mask),
        Some(code) => {
            let mut out = 0;
            for l in lanes(mask) {
                match crate::cc::holds(code, w.cc(l)) {
                    Some(true) => out |= 1 << l,
                    Some(false) => {}
                    None => {
                        return Err(unsupported(format!(
                            "{} on condition code {code:#x}, which no source names",
                            inst.mnemonic()
                        )))
                    }
                }
            }
            Ok(out)
        }
    }
}

/// Control-flow instructions; `Ok(false)` if `inst` is not one.
fn control(
    w: &mut Warp,
    m: &mut CtaMem<'_>,
    inst: &Decoded,
    mask: u32,
    next: u64,
) -> Result<bool, LaneFault> {
    let name = inst.mnemonic();
    let target =
        || branch_target(inst, w.pc).ok_or_else(|| unsupported(format!("{name} without a target")));
    match name {
        "SSY" | "PBK" | "PCNT" => {
            let kind = match name {
                "SSY" => EntryKind::Sync,
                "PBK" => EntryKind::Break,
                _ => EntryKind::Cont,
            };
            let t = target()?;
            w.stack.push(kind, w.active, t).map_err(LaneFault::warp)?;
            w.pc = next;
        }
        "CAL" | "JCAL" => {
            let t = target()?;
            w.stack
                .push(EntryKind::Call, w.active, next)
                .map_err(LaneFault::warp)?;
            w.pc = t;
        }
        "PRET" => {
            let t = target()?;
            w.stack
                .push(EntryKind::Call, w.active, t)
                .map_err(LaneFault::warp)?;
            w.pc = next;
        }
        "BRA" | "JMP" => {
            only_mods(inst, &[".U"]).map_err(LaneFault::warp)?;
            if matches!(opd(inst, 1), Operand::CMem { .. }) {
                // `BRA c[bank][Rn+off]`: the constant is a target relative to the next
                // instruction (envydis `bra pcrel c[]`), read per lane as BRX reads its
                // jump table (docs/spec-notes.md, "Indirect BRA").
                brx(w, m, inst, mask, next)?;
                return Ok(true);
            }
            let t = target()?;
            if has(inst, ".U") {
                // Uniform: taken only when every active lane's guard holds.
                w.pc = if mask == w.active { t } else { next };
            } else if mask == w.active {
                w.pc = t;
            } else if mask == 0 {
                w.pc = next;
            } else {
                // Divergent: the taken lanes go first; the others wait on the stack.
                w.stack
                    .push(EntryKind::Div, w.active & !mask, next)
                    .map_err(LaneFault::warp)?;
                w.active = mask;
                w.pc = t;
            }
        }
        "EXIT" => {
            w.exited |= mask;
            w.pc = next;
            leave(w, mask, Leave::Other)?;
        }
        "BRK" | "CONT" | "RET" => {
            let kind = match name {
                "BRK" => EntryKind::Break,
                "CONT" => EntryKind::Cont,
                _ => EntryKind::Call,
            };
            w.stack
                .leave_for(kind, mask, name)
                .map_err(LaneFault::warp)?;
            w.pc = next;
            leave(w, mask, Leave::Other)?;
        }
        "BAR" => {
            only_mods(inst, &[".RED.POPC", ".RED.AND", ".RED.OR", ".SYNC", ".ARV"])
                .map_err(LaneFault::warp)?;
            let waits = bar(w, m, inst, mask)?;
            w.pc = next;
            if waits {
                w.status = Status::AtBarrier;
            }
        }
        "BPT" => {
            let op = mod_named(inst, "breakpoint operation").unwrap_or("");
            // `.DRAIN` waits for outstanding memory operations: nothing is outstanding here.
            // Like every guarded instruction, a breakpoint no lane's guard selects does nothing.
            // `.INT` interrupts to a debugger; none is attached, so execution goes on (the
            // PTX executor's `brkpt` is a no-op for the same reason, docs/spec-notes.md).
            if op == ".DRAIN" || op == ".INT" || mask == 0 {
                w.pc = next;
            } else {
                return Err(LaneFault::warp(FaultKind::Trap {
                    what: format!("BPT{op}"),
                }));
            }
        }
        "BRX" => {
            only_mods(inst, &[]).map_err(LaneFault::warp)?;
            brx(w, m, inst, mask, next)?;
        }
        "LONGJMP" | "PLONGJMP" => {
            return Err(unsupported(format!(
                "{name} (indirect or long jumps are not implemented by the Fermi executor)"
            )))
        }
        _ => return Ok(false),
    }
    if inst.sched && name != "BAR" {
        return Err(unsupported(format!("{name}.S")));
    }
    Ok(true)
}

/// `BRX c[bank][Rn+off]` / `BRX Rn, off`: each lane jumps by the signed 32-bit value it reads
/// (the jump-table entry, or `Rn + off`), relative to the next instruction as for `BRA`
/// (docs/spec-notes.md, "BRX"). Lanes with different targets diverge: the group of the
/// lowest lane runs first, every other group (and the lanes whose guard was false, at the next
/// instruction) waits on the stack as with a divergent `BRA`.
fn brx(
    w: &mut Warp,
    m: &CtaMem<'_>,
    inst: &Decoded,
    mask: u32,
    next: u64,
) -> Result<(), LaneFault> {
    let mut targets: Vec<(u64, u32)> = Vec::new();
    for l in lanes(w.active) {
        let t = if mask >> l & 1 == 1 {
            let rel = match (opd(inst, 0), opd(inst, 1)) {
                (Operand::Imm(_), Operand::CMem { bank, base, offset }) => {
                    // The condition code is part of `mask` (`cc_lanes`).
                    let off = u64::from(w.reg(l, base).wrapping_add(u32::from(offset)));
                    m.cread(bank, off, 4).map_err(|k| LaneFault::at(l, k))? as u32
                }
                (Operand::Reg(r, _), Operand::Imm(v)) => w.reg(l, r).wrapping_add(v as u32),
                _ => return Err(unsupported("BRX operands".into())),
            };
            next.wrapping_add(i64::from(rel as i32) as u64)
        } else {
            next
        };
        match targets.iter_mut().find(|(x, _)| *x == t) {
            Some((_, lm)) => *lm |= 1 << l,
            None => targets.push((t, 1 << l)),
        }
    }
    let Some((&(first, first_mask), rest)) = targets.split_first() else {
        return Ok(());
    };
    // Pushed last group first, so the groups run in the order of their lowest lanes.
    for &(t, lm) in rest.iter().rev() {
        w.stack
            .push(EntryKind::Div, lm, t)
            .map_err(LaneFault::warp)?;
    }
    w.active = first_mask;
    w.pc = first;
    Ok(())
}

/// `BAR.{RED.POPC,RED.AND,RED.OR,ARV} rd, pd, bar, tcount, c` (`__syncthreads` is
/// `BAR.RED.POPC RZ, RZ`): the whole warp must arrive together. It arrives at barrier `bar`
/// (0–15) for `tcount` threads (0: the whole CTA); each lane adds its predicate `c` to the
/// reduction, delivered when the barrier completes (`cta.rs`). `.ARV` arrives without
/// waiting (PTX `bar.arrive`). `Ok(true)`: the warp waits.
fn bar(w: &mut Warp, m: &mut CtaMem<'_>, inst: &Decoded, mask: u32) -> Result<bool, LaneFault> {
    if mask != w.active || w.active != !w.exited {
        return Err(LaneFault::warp(FaultKind::Discipline(format!(
            "BAR executed by a diverged warp (lanes {mask:#010x} of {:#010x})",
            !w.exited
        ))));
    }
    let threads: u32 = m.ntid.iter().product();
    let first = lanes(mask).next().unwrap_or(0);
    let at = |i| src32(w, m, first, inst, i).map_err(|k| LaneFault::at(first, k));
    let (id, count) = (at(2)?, at(3)?);
    // The operands are registers or immediates; a warp must name one barrier and one count.
    for l in lanes(mask) {
        let lane = |i| src32(w, m, l, inst, i).map_err(|k| LaneFault::at(l, k));
        if lane(2)? != id || lane(3)? != count {
            return Err(LaneFault::at(
                l,
                FaultKind::Discipline(format!(
                    "BAR operands differ between lanes of a warp (barrier {id}, {count} \
                     threads in lane {first})"
                )),
            ));
        }
    }
    if id >= 16 {
        return Err(unsupported(format!("BAR on barrier {id} (there are 16)")));
    }
    // PTX (bar): the count is a multiple of the warp size; a CTA has no more threads.
    let count = match count {
        0 => None,
        c if c % 32 != 0 || c > threads.next_multiple_of(32) => {
            return Err(unsupported(format!(
                "BAR with a thread count of {c} (not a multiple of 32 up to the CTA's {threads} \
                 threads)"
            )))
        }
        c => Some(c),
    };
    let slot = usize::try_from(id).unwrap_or(0);
    let b = m
        .bars
        .get_mut(slot)
        .ok_or_else(|| unsupported("BAR".into()))?;
    if b.arrived > 0 && b.count != count {
        return Err(LaneFault::warp(FaultKind::Discipline(format!(
            "barrier {id} used with two thread counts ({} and {}) at once",
            b.count.unwrap_or(0),
            count.unwrap_or(0)
        ))));
    }
    let mut held = 0;
    for l in lanes(mask) {
        if src_pred(w, l, inst, 4).map_err(|k| LaneFault::at(l, k))? {
            held += 1;
        }
    }
    b.count = count;
    b.arrived += mask.count_ones();
    b.held += held;
    let generation = b.generation;
    // A count reached completes this generation now: a warp arriving later in the same turn
    // starts the next one rather than joining (and enlarging) this one's reduction.
    if count.is_some_and(|c| b.arrived >= c) {
        m.completed.push(b.complete(id as u8));
    }
    let op = mod_named(inst, "barrier operation").unwrap_or("");
    if op == ".ARV" {
        return Ok(false);
    }
    let rd = dst_reg(inst, 0).map_err(LaneFault::warp)?;
    let pd = dst_pred(inst, 1).map_err(LaneFault::warp)?;
    let op = match op {
        ".RED.AND" => BarOp::And,
        ".RED.OR" => BarOp::Or,
        _ => BarOp::Popc,
    };
    w.bar = (rd.index() != 63 || pd.index() != 7).then_some(BarResult { rd, pd, op });
    w.bar_id = id as u8;
    w.bar_generation = generation;
    Ok(true)
}

/// `S2R`, `VOTE`, `NOP`, `MEMBAR`; `Ok(false)` if `inst` is none of them.
fn misc(w: &mut Warp, m: &CtaMem<'_>, inst: &Decoded, mask: u32) -> Result<bool, LaneFault> {
    match inst.mnemonic() {
        // PMEVENT signals performance-monitor events: no monitor is attached, as the PTX
        // executor's `pmevent` (docs/spec-notes.md).
        "NOP" | "MEMBAR" | "PMEVENT" => {}
        "S2R" => {
            let Operand::Sreg(sr) = opd(inst, 1) else {
                return Err(unsupported("S2R operand".into()));
            };
            let wid = w.id;
            // The clock counts the warp's executed instructions, this one included, as the
            // PTX executor's `%clock64` counts its own (docs/spec-notes.md).
            let steps = w.steps;
            each(w, mask, |w, l| {
                let t = m.tid(wid * 32 + l);
                // Component `sr - base` (x, y, z) of a three-element special register.
                let xyz =
                    |v: &[u32; 3], base: u8| v.get(usize::from(sr - base)).copied().unwrap_or(0);
                let v = match sr {
                    0x00 => l,
                    0x21..=0x23 => xyz(&t, 0x21),
                    0x25..=0x27 => xyz(&m.ctaid, 0x25),
                    0x29..=0x2b => xyz(&m.ntid, 0x29),
                    0x2d..=0x2f => xyz(&m.nctaid, 0x2d),
                    // The grid id (envydis `gf100.c` names 0x2c `gridid`): launches before
                    // this one on its device, as the PTX executor counts them; a run of this
                    // executor is one launch on a device of its own, so 0.
                    0x2c => 0,
                    0x38 => 1 << l,
                    0x39 => (1u32 << l) - 1,
                    0x3a => ((1u64 << (l + 1)) - 1) as u32,
                    0x3b => !(((1u64 << (l + 1)) - 1) as u32),
                    0x3c => !((1u32 << l) - 1),
                    0x50 => steps as u32,
                    0x51 => (steps >> 32) as u32,
                    _ => {
                        let name = fermi::isa::SREGS.iter().find(|(n, _)| *n == sr);
                        return Err(FaultKind::Unsupported(format!(
                            "S2R of special register {}",
                            name.map_or_else(|| format!("SR{sr}"), |(_, s)| (*s).to_string())
                        )));
                    }
                };
                w.set_reg(l, dst_reg(inst, 0)?, v);
                Ok(())
            })?;
        }
        "VOTE" => {
            only_mods(inst, &[".ALL", ".ANY", ".EQ"]).map_err(LaneFault::warp)?;
            let mode = mod_named(inst, "vote mode").unwrap_or("");
            let mut ballot = 0u32;
            for l in lanes(mask) {
                if src_pred(w, l, inst, 2).map_err(|k| LaneFault::at(l, k))? {
                    ballot |= 1 << l;
                }
            }
            let r = match mode {
                ".ALL" => ballot == mask,
                ".ANY" => ballot != 0,
                _ => ballot == 0 || ballot == mask,
            };
            let rd = dst_reg(inst, 0).map_err(LaneFault::warp)?;
            let pd = dst_pred(inst, 1).map_err(LaneFault::warp)?;
            for l in lanes(mask) {
                w.set_reg(l, rd, ballot);
                w.set_pred(l, pd, r);
            }
        }
        _ => return Ok(false),
    }
    Ok(true)
}
