//! `.shared::cluster` accesses (sm_90) as `.shared` ones (not `cvta`: refused in select.rs,
//! every_form_runs.rs found the PTX executor's results differ). ptxvm runs one-CTA clusters
//! (`exec/src/lower/inst.rs`), so the cluster's shared memory is the CTA's own: the PTX executor maps `.shared::cluster` addresses of `ld`, `st`, `atom`, `red`,
//! `cvta` and `isspacep` to the CTA's shared window exactly as `.shared::cta` ones
//! (`exec/src/lower/operand.rs`), so the translation rewrites the space and selects the
//! `.shared` forms (docs/spec-notes.md, "Round s25 (mem)").

use ir::{Function, Inst, Opcode, Space};

/// Whether `inst` accesses `.shared::cluster` in a way that means the CTA's shared memory.
fn cluster_access(inst: &Inst) -> bool {
    inst.mods.space == Some(Space::SharedCluster)
        && matches!(
            inst.op,
            Opcode::Ld | Opcode::St | Opcode::Atom | Opcode::Red | Opcode::Isspacep
        )
}

/// `f` with its `.shared::cluster` accesses written as `.shared` ones; `None` when it has none.
pub(crate) fn shared_cluster_as_shared(f: &Function) -> Option<Function> {
    if !f.insts().iter().any(cluster_access) {
        return None;
    }
    let mut g = f.clone();
    for inst in g.body.iter_mut().flatten() {
        if cluster_access(inst) {
            inst.mods.space = Some(Space::Shared);
        }
    }
    Some(g)
}
