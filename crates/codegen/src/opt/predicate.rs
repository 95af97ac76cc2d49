//! If-conversion of short regions: `@p bra J; a; b; J:` becomes `@!p a; @!p b; J:` when the
//! skipped instructions are few, unguarded, straight-line, entered only by falling through,
//! leave `p` alone, and each selects to guardable instructions. NVIDIA does the same: a
//! guarded instruction costs nothing where a divergent branch costs `SSY`, `BRA` and `NOP.S`.
//! A guarded definition keeps the old value in lanes whose guard is false, exactly as the
//! skipped instruction would have.

use ir::{Inst, Opcode, Operand};

/// At most this many instructions are predicated instead of branched around.
const MAX_REGION: usize = 6;

/// Instructions whose selection guards every line it emits and uses no predicate of its own.
fn guardable(inst: &Inst) -> bool {
    if inst.guard.is_some() || inst.mods.has(ir::Flag::Cc) {
        return false;
    }
    let ty32 = inst.ty().is_some_and(|t| {
        crate::regs::width_of(t).is_some_and(|w| w == 32 || w == 64) && t != ir::Type::F64
    });
    let simple = match inst.op {
        Opcode::Add | Opcode::Sub | Opcode::And | Opcode::Or | Opcode::Xor | Opcode::Not => true,
        Opcode::Shl | Opcode::Popc | Opcode::Mov | Opcode::Cvta => true,
        Opcode::Mul => matches!(inst.mods.mul_mode, None | Some(isa::MulMode::Lo)),
        Opcode::Ld | Opcode::St => !inst
            .operands
            .iter()
            .any(|o| matches!(o, Operand::Vector(_))),
        _ => false,
    };
    ty32 && simple
}

/// Predicates the regions it can; returns the removed branches (by old index) for
/// compaction.
pub(super) fn run(body: &mut [Inst]) -> Vec<bool> {
    let n = body.len();
    let mut targeted = vec![false; n + 1];
    for inst in body.iter() {
        for o in inst.operands.iter() {
            match o {
                Operand::Label(t) => targeted[t.index().min(n)] = true,
                Operand::TargetList(ts) => {
                    ts.iter().for_each(|t| targeted[t.index().min(n)] = true)
                }
                _ => {}
            }
        }
    }
    let mut removed = vec![false; n];
    let mut k = 0;
    while k < n {
        let inst = &body[k];
        let Some(g) = inst.guard else {
            k += 1;
            continue;
        };
        let target = match (inst.op, inst.operands.first()) {
            (Opcode::Bra, Some(Operand::Label(t))) if !inst.mods.has(isa::Flag::Uni) => t.index(),
            _ => {
                k += 1;
                continue;
            }
        };
        let region = k + 1..target;
        let ok = target > k + 1
            && target - (k + 1) <= MAX_REGION
            && target <= n
            && region.clone().all(|i| !targeted[i] && guardable(&body[i]))
            && region.clone().all(|i| {
                let mut writes_p = false;
                super::visit(&body[i], &mut |r, role| {
                    writes_p |= r == g.reg && role != super::Role::Use;
                });
                !writes_p
            });
        if !ok {
            k += 1;
            continue;
        }
        let guard = ir::Guard {
            reg: g.reg,
            negated: !g.negated,
        };
        for i in region.clone() {
            // A pure value read only inside the region needs no guard: in the lanes that
            // skip, it is computed and never read (loads keep theirs: they may fault).
            let local = super::is_pure(&body[i])
                && body[i].op != Opcode::Ld
                && super::single_dst(&body[i]).is_some_and(|d| {
                    let mut outside = false;
                    let mut defs = 0;
                    for (j, other) in body.iter().enumerate() {
                        super::visit(other, &mut |r, role| {
                            if r == d {
                                match role {
                                    super::Role::Def => defs += 1,
                                    _ => outside |= !region.contains(&j) || j <= i,
                                }
                            }
                        });
                    }
                    defs == 1 && !outside
                });
            if !local {
                body[i].guard = Some(guard);
            }
        }
        removed[k] = true;
        k = target;
    }
    removed
}
