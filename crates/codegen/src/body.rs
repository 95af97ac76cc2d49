//! One function body to Fermi text: control flow on the reconvergence stack, register
//! allocation, selection, and (for a `.func`) the frame prologue and epilogue of the calling
//! convention in `calls.rs`.

use crate::calls::ArgLayout;
use crate::select::{Line, Selector};
use crate::{alloc, cfg, regs, unsupported};
use diag::{Diagnostic, SourceFile, Span};
use ir::{FuncId, Function, Module, Opcode, VarId};
use rustc_hash::FxHashMap as HashMap;

/// Which kind of body: the kernel's entry, or a called `.func`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Entry,
    Func(FuncId),
}

/// What every body of one kernel shares.
pub struct Env<'a> {
    pub module: &'a Module,
    pub file: &'a SourceFile,
    pub params: HashMap<VarId, u32>,
    pub shared: HashMap<VarId, u32>,
    pub local: HashMap<VarId, u32>,
    pub consts: HashMap<VarId, u32>,
    /// Module `.global` variables: their index among the cubin's global symbols.
    pub globals: HashMap<VarId, u32>,
    pub layouts: HashMap<FuncId, ArgLayout>,
    /// Per body (`None`: the entry), its call-site `.param` variables at their slots and the
    /// size of its outgoing argument block.
    pub outgoing: HashMap<Option<FuncId>, (HashMap<VarId, u32>, u32)>,
}

/// A translated body.
pub struct Body {
    pub lines: Vec<Line>,
    pub max_gpr: u8,
    /// The cubin's barrier count (`Selector::bar_count`).
    pub bar_count: u8,
    /// The frame the body's prologue allocates.
    pub frame: u32,
}

/// Translates `f` after the clean-ups of `opt`. A body whose cleaned-up form selection cannot
/// take (an immediate where a rule wants a register, say) is translated as written, so the
/// clean-ups never make a translatable body an error.
pub fn compile_body(env: &Env, f: &Function, role: Role) -> Result<Body, Vec<Diagnostic>> {
    let cleaned = crate::opt::optimize(f);
    compile_body_as_written(env, &cleaned, role).or_else(|_| compile_body_as_written(env, f, role))
}

/// Translates `f` as it is.
pub fn compile_body_as_written(
    env: &Env,
    f: &Function,
    role: Role,
) -> Result<Body, Vec<Diagnostic>> {
    let err = |span: Span, m: String| vec![Diagnostic::error(span, m)];
    let file = env.file;
    let body = f.insts();
    let pre = match role {
        Role::Entry => String::new(),
        Role::Func(id) => format!("F{}_", id.0),
    };
    let graph = cfg::build_cfg(body);
    let divergent: Vec<usize> = graph
        .blocks
        .iter()
        .enumerate()
        .filter(|(_, b)| {
            b.end > b.start
                && body.get(b.end - 1).is_some_and(|i| {
                    (i.op == Opcode::Bra && i.guard.is_some() || i.op == Opcode::Brx)
                        && !i.mods.has(isa::Flag::Uni)
                })
        })
        .map(|(i, _)| i)
        .collect();
    let block_span = |b: usize| {
        graph
            .blocks
            .get(b)
            .and_then(|blk| body.get(blk.start))
            .map_or(f.span, |i| i.span)
    };
    let stack_error = |e: cfg::CfgError| {
        err(
            block_span(e.block),
            format!(
                "cannot map control flow onto the reconvergence stack: {}",
                e.message
            ),
        )
    };
    let flow = crate::flow::Flow::plan(&graph, &divergent, &pre).map_err(stack_error)?;

    // Entry parameters and shared addresses only `add`s read go in those `add`s as operands.
    let folded = match role {
        Role::Entry => crate::fold::add_operands(f, &env.params, &env.shared),
        Role::Func(_) => Default::default(),
    };
    let scaled = match role {
        Role::Entry => crate::fold::scaled_adds(f, &folded),
        Role::Func(_) => Default::default(),
    };
    let zero_high = crate::fold::zero_high(f);
    let (narrowed, extra) = match role {
        Role::Entry => crate::fold::narrowed_extensions(f, &zero_high),
        Role::Func(_) => Default::default(),
    };
    let mut skip = Vec::new();
    let mut zero = Vec::new();
    if !folded.is_empty() || !scaled.is_empty() || !narrowed.is_empty() {
        skip = vec![false; f.regs.len()];
        zero = vec![false; f.regs.len()];
        for r in folded.keys().chain(scaled.keys()).chain(narrowed.keys()) {
            skip[r.index()] = true;
        }
        for (r, what) in &folded {
            zero[r.index()] = *what == crate::fold::Folded::Shared(0);
        }
    }
    let assignment = alloc::allocate(f, &graph, &skip, &zero, &extra).map_err(|e| {
        let span = body.get(e.inst).map_or(f.span, |i| i.span);
        err(span, format!("cannot allocate registers: {}", e.message))
    })?;
    let regs = regs::RegMap::from_assignment(assignment);
    // The frame of a `.func`: its outgoing argument block, then the saved registers.
    let saved_gprs: Vec<u8> = (4..=regs.max_gpr).collect();
    let saved_preds = regs.preds_used();
    // A `.func`'s `.local` variables live in its frame (one copy per activation), above
    // its outgoing argument block: offsets from R1.
    let mut frame_locals: HashMap<VarId, i64> = HashMap::default();
    let mut locals_end = match role {
        Role::Entry => 0,
        Role::Func(id) => env.outgoing.get(&Some(id)).map_or(0, |o| o.1),
    };
    if let Role::Func(_) = role {
        for v in &f.locals {
            let Some(var) = env.module.var(*v) else {
                continue;
            };
            if var.space != ir::Space::Local {
                continue;
            }
            let size = u32::try_from(var.size)
                .ok()
                .filter(|&s| s <= 64 * 1024)
                .ok_or_else(|| err(var.span, "a .local variable over 64 KiB in a .func".into()))?;
            let at = locals_end.next_multiple_of(var.align.clamp(4, 16));
            frame_locals.insert(*v, i64::from(at));
            locals_end = at + size;
        }
    }
    let frame = match role {
        Role::Entry => env.outgoing.get(&None).map_or(0, |o| o.1),
        Role::Func(_) => {
            locals_end.next_multiple_of(4) + 4 * (saved_gprs.len() + saved_preds.len()) as u32
        }
    };
    let frame = frame.next_multiple_of(8);
    let key = match role {
        Role::Entry => None,
        Role::Func(id) => Some(id),
    };
    let mut stack_params: HashMap<ir::VarId, i64> = env
        .outgoing
        .get(&key)
        .map(|o| o.0.iter().map(|(v, off)| (*v, i64::from(*off))).collect())
        .unwrap_or_default();
    let mut out = Vec::new();
    let mut epilogue = Vec::new();
    let save_base = locals_end.next_multiple_of(4);
    match role {
        Role::Entry => {
            out.push(Line::Inst("MOV R1, c [0x1] [0x100];".into()));
            if frame > 0 {
                out.push(Line::Inst(format!("IADD R1, R1, -{frame:#x};")));
            }
        }
        Role::Func(id) => {
            out.push(Line::Label(format!("F{}", id.0)));
            if let Some(l) = env.layouts.get(&id) {
                for (v, off) in &l.vars {
                    stack_params.insert(*v, i64::from(frame + off));
                }
            }
            if frame > 0 {
                out.push(Line::Inst(format!("IADD R1, R1, -{frame:#x};")));
            }
            let mut at = save_base;
            for g in &saved_gprs {
                out.push(Line::Inst(format!("STL [R1+{at:#x}], R{g};")));
                epilogue.push(format!("LDL R{g}, [R1+{at:#x}];"));
                at += 4;
            }
            for p in &saved_preds {
                out.push(Line::Inst(format!("SEL R0, RZ, 0x1, !P{p};")));
                out.push(Line::Inst(format!("STL [R1+{at:#x}], R0;")));
                epilogue.push(format!("LDL R0, [R1+{at:#x}];"));
                epilogue.push(format!("ISETP.NE.AND P{p}, pt, R0, RZ, pt;"));
                at += 4;
            }
            if frame > 0 {
                epilogue.push(format!("IADD R1, R1, {frame:#x};"));
            }
            epilogue.push("RET;".into());
            // Register parameters: inputs loaded after the saves, results stored before the
            // restores.
            if let Some(l) = env.layouts.get(&id) {
                let mut stores = Vec::new();
                for &(r, off, is_ret) in &l.reg_params {
                    let at = frame + off;
                    let (acc, n) = match regs.loc_of(r) {
                        Some(regs::Loc::Gpr(n)) => ("", n),
                        Some(regs::Loc::Pair(n)) => (".64", n),
                        // Never named by the body: nothing to pass.
                        _ => continue,
                    };
                    if is_ret {
                        stores.push(format!("STL{acc} [R1+{at:#x}], R{n};"));
                    } else {
                        out.push(Line::Inst(format!("LDL{acc} R{n}, [R1+{at:#x}];")));
                    }
                }
                stores.append(&mut epilogue);
                epilogue = stores;
            }
        }
    }
    let mut sel = Selector {
        func: f,
        module: env.module,
        regs,
        out,
        params: env.params.clone(),
        shared: env.shared.clone(),
        local: env.local.clone(),
        consts: env.consts.clone(),
        globals: env.globals.clone(),
        stack_params,
        layouts: env.layouts.clone(),
        epilogue: match role {
            Role::Entry => None,
            Role::Func(_) => Some(epilogue),
        },
        label_prefix: pre.clone(),
        frame_locals,
        a64: env.module.address_size == ir::AddressSize::Bits64,
        bar_count: 0,
        carry: None,
        folded,
        scaled,
        zero_high,
        narrowed,
    };
    let mut errors = Vec::new();
    let n = graph.blocks.len();
    for (b, blk) in graph.blocks.iter().enumerate() {
        sel.out.extend(flow.head(b));
        sel.carry = None;
        let insts = body.get(blk.start..blk.end).unwrap_or(&[]);
        let term = insts
            .last()
            .filter(|i| matches!(i.op, Opcode::Bra | Opcode::Brx | Opcode::Ret | Opcode::Exit));
        let plain = if term.is_some() {
            &insts[..insts.len() - 1]
        } else {
            insts
        };
        for (k, inst) in plain.iter().enumerate() {
            let done = if inst.op == Opcode::Call {
                let label = format!("{pre}G{}", blk.start + k);
                crate::flow::around_guard(&mut sel, f, inst, &label, true)
            } else {
                sel.select(inst)
            };
            if let Err(why) = done {
                errors.push(unsupported(file, inst, &why));
            }
        }
        sel.out.extend(flow.tail(b));
        match term {
            Some(inst) if inst.op == Opcode::Bra => {
                let Some(t) = cfg::branch_target(inst) else {
                    errors.push(unsupported(file, inst, "an indirect branch"));
                    continue;
                };
                let tb = graph.block_of_inst.get(t).copied().unwrap_or(usize::MAX);
                match sel.select(inst) {
                    Ok(()) => {}
                    Err(why) => errors.push(unsupported(file, inst, &why)),
                }
                let g = match inst.guard {
                    None => String::new(),
                    Some(gd) => match sel.regs.loc(f, gd.reg) {
                        Ok(regs::Loc::Pred(p)) => {
                            format!("@{}P{p} ", if gd.negated { "!" } else { "" })
                        }
                        _ => {
                            errors.push(unsupported(file, inst, "guard is not a predicate"));
                            continue;
                        }
                    },
                };
                // `bra.uni` promises every active lane agrees: Fermi's uniform form, `BRA.U`
                // (taken only when every active lane's guard holds), as NVIDIA emits it.
                let u = if inst.guard.is_some() && inst.mods.has(isa::Flag::Uni) {
                    ".U"
                } else {
                    ""
                };
                sel.out
                    .push(Line::Inst(flow.jump(&g, &format!("BRA{u}"), b, tb)));
            }
            Some(inst) if inst.op == Opcode::Brx => {
                // One landing pad entry (a `BRA` or `BRK` to the target's edge label) per
                // target, reached by `BRX` at 8 bytes an entry (`select/brx.rs`).
                let pads: Vec<String> = cfg::branch_targets(inst)
                    .into_iter()
                    .map(|t| {
                        let tb = graph.block_of_inst.get(t).copied().unwrap_or(usize::MAX);
                        flow.jump("", "BRA", b, tb)
                    })
                    .collect();
                if let Err(why) = sel.brx(inst, &pads) {
                    errors.push(unsupported(file, inst, &why));
                }
            }
            Some(inst) => {
                let done = if inst.op == Opcode::Ret && matches!(role, Role::Func(_)) {
                    let label = format!("{pre}G{}", blk.end - 1);
                    crate::flow::around_guard(&mut sel, f, inst, &label, false)
                } else {
                    sel.select(inst)
                };
                if let Err(why) = done {
                    errors.push(unsupported(file, inst, &why));
                }
            }
            None => {}
        }
        // Falling through into a block whose lines do not start where the edge lands.
        let falls = blk.succs.contains(&(b + 1))
            && term.is_none_or(|t| t.guard.is_some() || !matches!(t.op, Opcode::Bra | Opcode::Brx));
        if let Some(jump) = falls.then(|| flow.fall(b)).flatten() {
            sel.out.push(Line::Inst(jump));
        }
        // The end of the body, or a block falling off into nothing: the thread ends.
        if b + 1 == n
            && (blk.start == blk.end
                || term.is_none_or(|t| t.guard.is_some() || t.op == Opcode::Bra))
        {
            let end = sel.end_lines();
            sel.out.extend(end.into_iter().map(Line::Inst));
        }
    }
    sel.out.extend(flow.edge_stubs());
    if !errors.is_empty() {
        return Err(errors);
    }
    // Copies whose two sides the allocator coalesced are moves of a register to itself.
    sel.out
        .retain(|l| !matches!(l, Line::Inst(t) if is_self_move(t)));
    // R2:R3 for values where the entry's code needs no scratch pair (`compact.rs`). Not with
    // calls (a callee saves from R4 up and uses R2:R3 as scratch) or the sequences whose
    // fixed temporaries live in R4–R13.
    let mut max_gpr = sel.regs.max_gpr;
    if role == Role::Entry
        && max_gpr >= 4
        && !body
            .iter()
            .any(|i| i.op == Opcode::Call || crate::select::needs_f64_scratch(i))
        && crate::compact::shift_down(&mut sel.out, &sel.regs.allocated_gprs())
    {
        max_gpr -= 2;
    }
    Ok(Body {
        max_gpr,
        bar_count: sel.bar_count,
        lines: sel.out,
        frame,
    })
}

/// `MOV Rn, Rn;` (unguarded, no modifiers): an instruction that does nothing.
fn is_self_move(text: &str) -> bool {
    text.strip_prefix("MOV ")
        .and_then(|t| t.strip_suffix(';'))
        .and_then(|t| t.split_once(", "))
        .is_some_and(|(d, s)| {
            d == s && d.starts_with('R') && d[1..].bytes().all(|b| b.is_ascii_digit())
        })
}
