//! Calls: which `.func`s an entry reaches, and the stack layout of their parameters.
//!
//! The calling convention (ptxvm's, on sm_20's ABI machinery: `CAL`/`RET`, the stack pointer
//! R1 growing down in local memory):
//! - a caller passes arguments and receives results in an argument block at `[R1+0…]` of its
//!   own frame: the callee's return parameters first, then its input parameters, each at its
//!   alignment (`.param` variables of the call site are placed at the slot they bind);
//! - the callee lowers R1 by its frame, saves every general register it allocates (R4 up) and
//!   every predicate it uses in the frame, reads its parameters at `[R1+frame+slot]`, and
//!   restores them and R1 before `RET`. So all registers are callee-saved, and recursion works
//!   (each activation has its own frame);
//! - R0, R2, R3 and P6 are scratch within one instruction's sequence, never live across a call.

use ir::{FuncId, Function, Module, Opcode, Operand, Param, VarId};
use rustc_hash::FxHashMap as HashMap;

/// The argument block of a `.func`: a slot per return parameter, then per input parameter.
#[derive(Clone, Debug, Default)]
pub struct ArgLayout {
    /// Offsets and sizes of the return slots, then the parameter slots.
    pub slots: Vec<(u32, u32)>,
    pub rets: usize,
    /// The callee's own `.param` variables and their slot offsets.
    pub vars: HashMap<VarId, u32>,
    /// The callee's register parameters (PTX 1.x `.reg` parameters) and their slot offsets:
    /// loaded by its prologue (inputs) or stored by its epilogue (returns).
    pub reg_params: Vec<(ir::RegId, u32, bool)>,
    pub size: u32,
    /// Whether the module takes the function's address ([`address_taken`]): only such
    /// functions are candidates of indirect calls.
    pub address_taken: bool,
}

fn align_up(x: u32, a: u32) -> u32 {
    x.div_ceil(a.max(1)) * a.max(1)
}

pub fn arg_layout(module: &Module, f: &Function) -> Result<ArgLayout, String> {
    let mut l = ArgLayout {
        rets: f.rets.len(),
        ..ArgLayout::default()
    };
    for (i, p) in f.rets.iter().chain(f.params.iter()).enumerate() {
        let (size, align) = match p {
            Param::Var(v) => {
                let var = module.var(*v).ok_or("bad parameter")?;
                let size = u32::try_from(var.size).map_err(|_| "parameter too large")?;
                (size, var.align.max(4))
            }
            Param::Reg(r) => {
                let reg = f.reg(*r).ok_or("bad parameter")?;
                match crate::regs::width_of(reg.ty) {
                    Some(64) => (8, 8),
                    Some(1) | None => {
                        return Err(format!(
                        "`{}` has a predicate or .b128 register parameter, which is not translated",
                        f.name
                    ))
                    }
                    Some(_) => (4, 4),
                }
            }
        };
        let off = align_up(l.size, align);
        l.slots.push((off, size));
        match p {
            Param::Var(v) => {
                l.vars.insert(*v, off);
            }
            Param::Reg(r) => l.reg_params.push((*r, off, i < f.rets.len())),
        }
        l.size = off.checked_add(size).ok_or("parameters too large")?;
    }
    l.size = align_up(l.size, 8);
    Ok(l)
}

/// The `.func`s `f` may call: direct targets, and the candidates of its indirect calls among
/// `taken` (an error is placed at the call).
pub fn callees(
    module: &Module,
    taken: &[FuncId],
    f: &Function,
) -> Result<Vec<FuncId>, (diag::Span, String)> {
    let mut out = Vec::new();
    for inst in f.insts() {
        if inst.op != Opcode::Call {
            continue;
        }
        let ids = match direct_target(inst) {
            Some(id) => vec![id],
            None => indirect_candidates(module, taken, inst).map_err(|m| (inst.span, m))?,
        };
        for id in ids {
            if !out.contains(&id) {
                out.push(id);
            }
        }
    }
    Ok(out)
}

/// The target of a direct call (`None` for a call through a register).
pub fn direct_target(inst: &ir::Inst) -> Option<FuncId> {
    inst.operands.iter().find_map(|o| match o {
        Operand::Func(id) => Some(*id),
        _ => None,
    })
}

/// The functions an indirect call may reach: those its `flist` lists when it has one;
/// otherwise the `.func`s in `taken` (sorted ids of the
/// functions whose address the module takes: a `mov` of the function, or an initializer
/// holding it) with a body, whose return and parameter counts are the call's and sizes its
/// `.callprototype`'s. A pointer to anything else matches no candidate and traps, as the PTX
/// executor faults on a wild call. Every candidate must have the same argument block, so
/// that the caller writes the arguments once, before the dispatch.
pub fn indirect_candidates(
    module: &Module,
    taken: &[FuncId],
    inst: &ir::Inst,
) -> Result<Vec<FuncId>, String> {
    let (rets, args) = call_lists(inst);
    let proto = inst.operands.iter().find_map(|o| match o {
        Operand::Proto(p) => module.prototype(*p),
        _ => None,
    });
    // An flist names the call's targets outright: exactly those are candidates, address
    // taken or not (PTX ISA §9.7.12.5); the checker held them to the call's signature.
    let flist = inst.operands.iter().find_map(|o| match o {
        Operand::CallTargets(fs) => Some(&fs[..]),
        _ => None,
    });
    let mut out: Vec<FuncId> = Vec::new();
    let mut layout: Option<Vec<(u32, u32)>> = None;
    for &id in flist.unwrap_or(taken) {
        if out.contains(&id) {
            continue;
        }
        let Some(f) = module.function(id) else {
            continue;
        };
        if f.kind != ir::FuncKind::Func
            || f.body.is_none()
            || f.params.len() != args.len()
            || f.rets.len() != rets.len()
        {
            continue;
        }
        if let Some(p) = proto {
            let want = p.rets.iter().chain(&p.params).map(|q| Some(q.size));
            if !want.eq(f
                .rets
                .iter()
                .chain(&f.params)
                .map(|q| declared_size(module, f, q)))
            {
                continue;
            }
        }
        let l = arg_layout(module, f)?;
        match &layout {
            Some(first) if *first != l.slots => {
                return Err(format!(
                    "the indirect call's candidates `{}` and `{}` have different argument blocks, which is not translated",
                    module.functions[out[0].0 as usize].name, f.name
                ))
            }
            _ => layout = Some(l.slots),
        }
        out.push(id);
    }
    // No candidate: when no function with a body could be reached at all (a target list of
    // declarations only, or no `.func` of the call's counts in the module), the PTX executor
    // faults on every pointer, and the call translates to a trap (an empty list). A `.func`
    // of the call's counts whose address is not taken could still be reached through a
    // pointer from outside on the PTX executor, so that call stays refused.
    let reachable = flist.is_none()
        && module.functions.iter().any(|f| {
            f.kind == ir::FuncKind::Func
                && f.body.is_some()
                && f.params.len() == args.len()
                && f.rets.len() == rets.len()
        });
    if out.is_empty() && reachable {
        return Err(
            "an indirect call with no candidate: no .func of its signature has its address taken"
                .into(),
        );
    }
    Ok(out)
}

/// The size in bytes a parameter is declared with (a `.reg` parameter's register width), as
/// a `.callprototype` gives it.
fn declared_size(module: &Module, f: &Function, p: &Param) -> Option<u64> {
    match p {
        Param::Var(v) => module.var(*v).map(|v| v.size),
        Param::Reg(r) => f.reg(*r).map(|r| u64::from(r.ty.size_bits()) / 8),
    }
}

/// The functions whose address the module takes (outside direct calls), sorted: computed
/// once per module, as it reads every instruction.
pub fn address_taken(module: &Module) -> Vec<FuncId> {
    let mut out: Vec<FuncId> = module.functions.iter().flat_map(addresses_in).collect();
    out.extend(addresses_in_inits(&module.vars));
    out.sort_unstable();
    out.dedup();
    out
}

/// The functions whose address `f`'s body takes (every function operand but a `call`'s).
pub fn addresses_in(f: &Function) -> impl Iterator<Item = FuncId> + '_ {
    f.insts()
        .iter()
        .filter(|inst| inst.op != Opcode::Call)
        .flat_map(|inst| inst.operands.iter())
        .filter_map(|o| match o {
            Operand::Func(id) => Some(*id),
            _ => None,
        })
}

/// The functions whose address the initializers of `vars` hold.
pub fn addresses_in_inits(vars: &[ir::Variable]) -> impl Iterator<Item = FuncId> + '_ {
    vars.iter()
        .flat_map(|v| v.init.iter().flat_map(|i| i.relocs.iter()))
        .filter_map(|r| match r.target {
            ir::RelocTarget::Func(id) => Some(id),
            _ => None,
        })
}

/// The address-taken functions among those `layouts` describes (every function an entry
/// reaches, so every candidate of its indirect calls), sorted.
pub fn taken_among(layouts: &HashMap<FuncId, ArgLayout>) -> Vec<FuncId> {
    let mut out: Vec<FuncId> = layouts
        .iter()
        .filter(|(_, l)| l.address_taken)
        .map(|(&id, _)| id)
        .collect();
    out.sort_unstable();
    out
}

/// Every `.func` reachable from `entry`, in discovery order, with whether any is recursive
/// (reaches itself). Errors are placed at the indirect call they concern, else at `entry`.
pub fn reachable(
    module: &Module,
    taken: &[FuncId],
    entry: &Function,
) -> Result<(Vec<FuncId>, bool), (diag::Span, String)> {
    let mut order: Vec<FuncId> = Vec::new();
    let mut edges: HashMap<FuncId, Vec<FuncId>> = HashMap::default();
    let mut work = callees(module, taken, entry)?;
    while let Some(id) = work.pop() {
        if order.contains(&id) {
            continue;
        }
        let f = module
            .function(id)
            .ok_or((entry.span, "bad callee".to_string()))?;
        if f.body.is_none() {
            return Err((
                entry.span,
                format!(
                    "`{}` is declared without a body here (an .extern function)",
                    f.name
                ),
            ));
        }
        order.push(id);
        let c = callees(module, taken, f)?;
        work.extend(c.iter().copied());
        edges.insert(id, c);
    }
    // A cycle: some function reaches itself.
    let reaches_self = |start: FuncId| {
        let mut seen = vec![start];
        let mut stack = edges.get(&start).cloned().unwrap_or_default();
        while let Some(x) = stack.pop() {
            if x == start {
                return true;
            }
            if !seen.contains(&x) {
                seen.push(x);
                stack.extend(edges.get(&x).cloned().unwrap_or_default());
            }
        }
        false
    };
    let recursive = order.iter().any(|&id| reaches_self(id));
    Ok((order, recursive))
}

/// The call-site `.param` variables of `f` placed at the slots they bind (offsets from the
/// caller's R1), and the size of the largest argument block `f` needs.
pub fn outgoing(
    module: &Module,
    f: &Function,
    layouts: &HashMap<FuncId, ArgLayout>,
) -> Result<(HashMap<VarId, u32>, u32), String> {
    let mut at = HashMap::default();
    let mut size = 0;
    let taken = taken_among(layouts);
    for inst in f.insts() {
        if inst.op != Opcode::Call {
            continue;
        }
        // An indirect call's candidates share one argument block (indirect_candidates).
        let target = match direct_target(inst) {
            Some(id) => id,
            None => {
                match indirect_candidates(module, &taken, inst)?.first() {
                    Some(&id) => id,
                    None => {
                        // No candidate: the call traps. Its `.param` variables still get
                        // slots of their own, for the `st.param`/`ld.param` around it.
                        let mut off = 0;
                        let (rets, args) = call_lists(inst);
                        for o in rets.iter().chain(args.iter()) {
                            if let Operand::VarAddr { var, .. } = o {
                                let v = module.var(*var).ok_or("bad parameter")?;
                                let bytes =
                                    u32::try_from(v.size).map_err(|_| "parameter too large")?;
                                let here = align_up(off, v.align.max(4));
                                if at.insert(*var, here).is_some_and(|o| o != here) {
                                    return Err("one .param variable bound at different positions of two calls".into());
                                }
                                off = here.checked_add(bytes).ok_or("parameters too large")?;
                            }
                        }
                        size = size.max(align_up(off, 8));
                        continue;
                    }
                }
            }
        };
        let Some(l) = layouts.get(&target) else {
            continue;
        };
        size = size.max(l.size);
        let (rets, args) = call_lists(inst);
        for (i, o) in rets.iter().chain(args.iter()).enumerate() {
            let slot = if i < rets.len() {
                l.slots.get(i)
            } else {
                l.slots.get(l.rets + i - rets.len())
            };
            let Some(&(off, _)) = slot else {
                return Err("a call with more arguments than the callee's parameters".into());
            };
            if let Operand::VarAddr { var, .. } = o {
                if at.insert(*var, off).is_some_and(|o| o != off) {
                    return Err(
                        "one .param variable bound at different positions of two calls".into(),
                    );
                }
            }
        }
    }
    Ok((at, size))
}

/// A call's return list and argument list (empty when absent).
pub fn call_lists(inst: &ir::Inst) -> (Vec<Operand>, Vec<Operand>) {
    let mut lists = Vec::new();
    let mut before_func = true;
    let mut rets = Vec::new();
    for o in inst.operands.iter() {
        match o {
            // The callee: a function, or the register of an indirect call.
            Operand::Func(_) | Operand::Reg(_) => before_func = false,
            Operand::List(v) if before_func => rets = v.to_vec(),
            Operand::List(v) => lists.push(v.to_vec()),
            _ => {}
        }
    }
    (rets, lists.into_iter().next().unwrap_or_default())
}
