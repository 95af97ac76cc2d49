//! What the sanitizer needs to know about a loaded program: the target architecture and,
//! for initcheck, which registers each PTX instruction reads and writes.
//!
//! The register lists come from the instruction table's operand roles (a destination role is
//! written, every other register operand is read), so they cover every instruction the
//! table has without a list per executor operation. They are attached to the first decoded
//! instruction of each PTX instruction, the one branches land on.

use crate::program::{Pred, Reg};
use isa::OperandKind;

/// Registers one PTX instruction reads and writes (slots after register assignment).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RegUse {
    /// The guard predicate (read by every running lane) and whether it is negated.
    pub guard: Option<(Pred, bool)>,
    /// Read by the lanes the guard lets through.
    pub reads: Box<[Reg]>,
    /// Written by the lanes the guard lets through.
    pub writes: Box<[Reg]>,
}

/// Per-program facts for the sanitizer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProgramInfo {
    /// The module's `.target` architecture (`sm_61` → 61); 0 when unknown (hand-built
    /// programs), which counts as before sm_70.
    pub sm: u32,
    /// Indexed by decoded instruction; empty entries for helper instructions.
    pub uses: Vec<RegUse>,
    /// PTX names of the register slots (`%r3`), per bank, for reports.
    pub names: [Vec<String>; 3],
}

impl ProgramInfo {
    /// The register use of the PTX instruction starting at decoded index `pc`.
    #[inline]
    pub fn at(&self, pc: u32) -> Option<&RegUse> {
        self.uses.get(pc as usize)
    }

    /// The PTX name of a register slot (`%r3`), or a description of the slot.
    pub fn name(&self, r: Reg) -> String {
        let (bank, i) = match r {
            Reg::R32(r) => (0, r.0),
            Reg::R64(r) => (1, r.0),
            Reg::Pred(p) => (2, p.0),
        };
        self.names
            .get(bank)
            .and_then(|v| v.get(i as usize))
            .filter(|n| !n.is_empty())
            .cloned()
            .unwrap_or_else(|| format!("{r:?}"))
    }

    /// Remember the PTX name of a register slot.
    pub(crate) fn set_name(&mut self, r: Reg, name: String) {
        let (bank, i) = match r {
            Reg::R32(r) => (0, r.0),
            Reg::R64(r) => (1, r.0),
            Reg::Pred(p) => (2, p.0),
        };
        if let Some(v) = self.names.get_mut(bank) {
            let i = i as usize;
            if v.len() <= i {
                v.resize(i + 1, String::new());
            }
            if let Some(n) = v.get_mut(i) {
                *n = name;
            }
        }
    }
}

/// Collect the registers of one operand into `out`.
fn regs_of(op: &ir::Operand, out: &mut Vec<ir::RegId>) {
    use ir::Operand as O;
    match op {
        O::Reg(r) | O::NotPred(r) | O::Neg(r) => out.push(*r),
        O::NegSelected { reg, .. } | O::Selected { reg, .. } => out.push(*reg),
        O::PredPair(a, b) => {
            out.push(*a);
            out.extend(b.iter().copied());
        }
        O::Vector(v) | O::List(v) => v.iter().for_each(|o| regs_of(o, out)),
        O::Address(a) => {
            if let ir::AddrBase::Reg(r) = a.base {
                out.push(r);
            }
        }
        O::Texture { coords, .. } => coords.iter().for_each(|o| regs_of(o, out)),
        O::Imm(_)
        | O::Special { .. }
        | O::VarAddr { .. }
        | O::Label(_)
        | O::TargetList(_)
        | O::Func(_)
        | O::Proto(_)
        | O::CallTargets(_)
        | O::Sink
        | O::Omitted => {}
    }
}

/// The register use of one IR instruction, with `slot` mapping the function's registers.
pub(crate) fn reg_use(inst: &ir::Inst, slot: &dyn Fn(ir::RegId) -> Option<Reg>) -> RegUse {
    let (mut reads, mut writes) = (Vec::new(), Vec::new());
    let mut lists_seen = 0;
    for (k, op) in inst.operands.iter().enumerate() {
        let kind = inst.form.operands.get(k).map(|o| o.kind);
        // `call (ret), f, (args)`: the first parenthesised list receives the results.
        let dest = match kind {
            Some(OperandKind::ParamList) => {
                lists_seen += 1;
                lists_seen == 1 && inst.op == ir::Opcode::Call && call_has_results(inst)
            }
            Some(k) => k.is_destination(),
            None => false,
        };
        let mut regs = Vec::new();
        regs_of(op, &mut regs);
        let to = if dest { &mut writes } else { &mut reads };
        to.extend(regs.into_iter().filter_map(slot));
    }
    let guard = inst.guard.and_then(|g| match slot(g.reg) {
        Some(Reg::Pred(p)) => Some((p, g.negated)),
        _ => None,
    });
    RegUse {
        guard,
        reads: reads.into(),
        writes: writes.into(),
    }
}

/// Whether a `call`'s first parenthesised list is its result list (`call (r), f, (a);`)
/// rather than its argument list (`call f, (a);`): results come before the callee.
fn call_has_results(inst: &ir::Inst) -> bool {
    let first_list = inst
        .form
        .operands
        .iter()
        .position(|o| o.kind == OperandKind::ParamList);
    let callee = inst
        .form
        .operands
        .iter()
        .position(|o| o.kind == OperandKind::Func);
    match (first_list, callee) {
        (Some(l), Some(f)) => {
            l < f
                && inst
                    .operands
                    .get(l)
                    .is_some_and(|o| !matches!(o, ir::Operand::Omitted))
        }
        _ => false,
    }
}
