//! One function body to Fermi text: control flow on the reconvergence stack, register
//! allocation, selection, and (for a `.func`) the frame prologue and epilogue of the calling
//! convention in `calls.rs`.

use crate::calls::ArgLayout;
use crate::select::{Line, Selector};
use crate::{cfg, ra, regs, unsupported};
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
    /// Bytes of spill stores and loads in the body.
    pub spills: ra::SpillBytes,
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
    // `SSY`s alone first; where they cannot express the control flow, loops with several
    // exits become `PBK`/`BRK` and the rest is planned on the graph without their exits.
    let (plan, breaks) = match cfg::plan_reconvergence(&graph, &divergent) {
        Ok(plan) => (plan, Vec::new()),
        Err(first) => match cfg::plan_breaks(&graph) {
            Ok((breaks, planned)) if !breaks.is_empty() => {
                // A branch with a breaking side is a `BRK`: it needs no `SSY`.
                let divergent: Vec<usize> = divergent
                    .iter()
                    .copied()
                    .filter(|&b| {
                        graph.blocks[b]
                            .succs
                            .iter()
                            .all(|&t| !breaks.iter().any(|l| l.is_break(b, t)))
                    })
                    .collect();
                let plan = cfg::plan_reconvergence(&planned, &divergent).map_err(stack_error)?;
                (plan, breaks)
            }
            _ => return Err(stack_error(first)),
        },
    };
    let is_break = |u: usize, t: usize| breaks.iter().any(|l| l.is_break(u, t));

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
    // A scaled `add` reads the `mul.wide`'s source in place of its product.
    let mut extra = extra;
    if !scaled.is_empty() {
        extra.resize(body.len(), Vec::new());
        for (at, inst) in body.iter().enumerate() {
            for o in &inst.operands {
                if let ir::Operand::Reg(r) = o {
                    if let Some(s) = scaled.get(r) {
                        extra[at].push(s.a.index());
                    }
                }
            }
        }
    }
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
    let alloc = ra::allocate(f, &graph, &skip, &zero, &extra).map_err(|e| {
        let span = body.get(e.inst).map_or(f.span, |i| i.span);
        err(span, format!("cannot allocate registers: {}", e.message))
    })?;
    let mut regs = alloc.regmap();
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
    let below_spills = match role {
        Role::Entry => env.outgoing.get(&None).map_or(0, |o| o.1),
        Role::Func(_) => {
            locals_end.next_multiple_of(4) + 4 * (saved_gprs.len() + saved_preds.len()) as u32
        }
    };
    // Spill slots above the rest of the frame, 8-aligned for pairs.
    let spill_base = below_spills.next_multiple_of(8);
    let frame = (spill_base + 4 * alloc.spill_slots).next_multiple_of(8);
    let mut spills = ra::SpillBytes::default();
    // regalloc2's moves, by (instruction, after it), as Fermi text.
    let mut moves: HashMap<(u32, bool), Vec<String>> = HashMap::default();
    for &(at, after, from, to) in &alloc.moves {
        moves
            .entry((at, after))
            .or_default()
            .extend(ra::render(from, to, spill_base, &mut spills));
    }
    let take_moves = |moves: &mut HashMap<(u32, bool), Vec<String>>, at: u32, after: bool| {
        moves
            .remove(&(at, after))
            .unwrap_or_default()
            .into_iter()
            .map(Line::Inst)
    };
    // The instructions before the first block: the entry's values, then their moves.
    let entry_insts = alloc.func.blocks[0].end - 1;
    regs.set_here((0..entry_insts as usize).flat_map(|i| alloc.names(i)));
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
    let mut param_loads: Vec<(usize, String)> = Vec::new();
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
            // Register parameters: inputs loaded after the saves (into the places the
            // allocation gives them at the body's start); results are stored before the
            // restores at each return (`returning`).
            if let Some(l) = env.layouts.get(&id) {
                for &(r, off, is_ret) in &l.reg_params {
                    let at = frame + off;
                    let (acc, n) = match regs.loc_of(r) {
                        Some(regs::Loc::Gpr(n)) => ("", n),
                        Some(regs::Loc::Pair(n)) => (".64", n),
                        // Never named by the body: nothing to pass.
                        _ => continue,
                    };
                    if !is_ret {
                        param_loads.push((r.index(), format!("LDL{acc} R{n}, [R1+{at:#x}];")));
                    }
                }
            }
        }
    }
    // Each entry instruction's values (a `.func`'s register parameters loaded), then its
    // moves: a later one may reuse the register of a value an earlier one spilled.
    for i in 0..=entry_insts {
        out.extend(take_moves(&mut moves, i, false));
        if i < entry_insts {
            for (r, _) in alloc.names(i as usize) {
                if let Some(k) = param_loads.iter().position(|p| p.0 == r) {
                    out.push(Line::Inst(param_loads.swap_remove(k).1));
                }
            }
            out.extend(take_moves(&mut moves, i, true));
        }
    }
    // The edge from the entry into a first block that is also a loop header: its moves.
    let pads: HashMap<(Option<usize>, usize), u32> = alloc
        .func
        .splits
        .iter()
        .map(|s| ((s.from, s.to), alloc.func.blocks[s.block].first))
        .collect();
    if let Some(&at) = pads.get(&(None, 0)) {
        out.extend(take_moves(&mut moves, at, false));
    }
    // A `.func`'s epilogue at a return: the register results from where they are there.
    let ret_params: Vec<(ir::RegId, u32)> = match role {
        Role::Func(id) => env.layouts.get(&id).map_or_else(Vec::new, |l| {
            l.reg_params
                .iter()
                .filter(|p| p.2)
                .map(|&(r, off, _)| (r, frame + off))
                .collect()
        }),
        Role::Entry => Vec::new(),
    };
    let returning = |regs: &regs::RegMap, restore: &[String]| -> Vec<String> {
        let mut lines = Vec::new();
        for &(r, at) in &ret_params {
            match regs.loc_of(r) {
                Some(regs::Loc::Gpr(n)) => lines.push(format!("STL [R1+{at:#x}], R{n};")),
                Some(regs::Loc::Pair(n)) => lines.push(format!("STL.64 [R1+{at:#x}], R{n};")),
                _ => {}
            }
        }
        lines.extend(restore.iter().cloned());
        lines
    };
    let restore = epilogue.clone();
    let mut sel = Selector {
        func: f,
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
    // Per join block, its regions from the innermost (smallest) out.
    let stubs_of = |x: usize| -> Vec<usize> {
        let mut v: Vec<usize> = (0..plan.len()).filter(|&i| plan[i].join == x).collect();
        v.sort_by_key(|&i| plan[i].size());
        v
    };
    // Where an edge p → t must land: the `.S` of the innermost region around p that
    // reconverges at t, or t itself.
    let edge_label = |p: usize, t: usize| -> String {
        match stubs_of(t).into_iter().find(|&i| plan[i].region[p]) {
            Some(i) => format!("{pre}S{i}"),
            None => format!("{pre}B{t}"),
        }
    };
    // Split edges whose moves need a pad: the branch goes to the pad, which moves, then
    // goes on to where the edge landed.
    let padded: rustc_hash::FxHashSet<(usize, usize)> = alloc
        .func
        .splits
        .iter()
        .filter_map(|s| {
            let p = s.from?;
            let at = alloc.func.blocks[s.block].first;
            moves.contains_key(&(at, false)).then_some((p, s.to))
        })
        .collect();
    let pad_label = |p: usize, t: usize| -> Option<String> {
        padded.contains(&(p, t)).then(|| format!("{pre}E{p}_{t}"))
    };
    for (b, blk) in graph.blocks.iter().enumerate() {
        sel.out.push(Line::Label(format!("{pre}B{b}")));
        sel.carry = None;
        // One `NOP.S` per region meeting here, innermost first; after an inner region's lanes
        // reconverge they go on to the enclosing region's `.S`.
        let stubs = stubs_of(b);
        for (k, &i) in stubs.iter().enumerate() {
            sel.out.push(Line::Label(format!("{pre}S{i}")));
            sel.out.push(Line::Inst("NOP.S CC.T;".into()));
            sel.out.push(Line::Label(format!("{pre}T{i}")));
            let parent = stubs
                .iter()
                .copied()
                .filter(|&j| j != i && plan[j].size() > plan[i].size())
                .find(|&j| (0..n).all(|q| !plan[i].region[q] || plan[j].region[q]));
            let next = stubs.get(k + 1).copied();
            if let Some(pj) = parent {
                if Some(pj) != next {
                    sel.out.push(Line::Inst(format!("BRA {pre}S{pj};")));
                }
            }
        }
        let mut ssys: Vec<usize> = (0..plan.len()).filter(|&i| plan[i].at == b).collect();
        // The outer region's SSY first: it must be below the inner one on the stack.
        ssys.sort_by_key(|&i| std::cmp::Reverse(plan[i].size()));
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
            let at = alloc.func.ra_of_ptx[blk.start + k];
            sel.out.extend(take_moves(&mut moves, at, false));
            sel.regs.set_here(alloc.names(at as usize));
            if let Err(why) = sel.select(inst) {
                errors.push(unsupported(file, inst, &why));
            }
            sel.out.extend(take_moves(&mut moves, at, true));
        }
        // The terminator (the PTX one, else the synthetic one regalloc2 was given): its
        // moves before it, then its registers.
        let ptx_term = term.map(|_| alloc.func.ra_of_ptx[blk.end - 1]);
        let synthetic = alloc.func.term[b];
        if let Some(t) = ptx_term.or(synthetic) {
            sel.out.extend(take_moves(&mut moves, t, false));
            sel.regs.set_here(alloc.names(t as usize));
            if sel.epilogue.is_some() {
                sel.epilogue = Some(returning(&sel.regs, &restore));
            }
        }
        for &i in &ssys {
            sel.out.push(Line::Inst(format!("SSY {pre}T{i};")));
        }
        // Inside any SSY of this block: the loop and its exit are within those regions.
        for l in breaks.iter().filter(|l| l.preheader == b) {
            let target = edge_label(l.header, l.exit);
            sel.out.push(Line::Inst(format!("PBK {target};")));
        }
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
                let text = if let Some(p) = pad_label(b, tb) {
                    format!("{g}BRA{u} {p};")
                } else if is_break(b, tb) {
                    format!("{g}BRK;")
                } else {
                    format!("{g}BRA{u} {};", edge_label(b, tb))
                };
                sel.out.push(Line::Inst(text));
            }
            Some(inst) if inst.op == Opcode::Brx => {
                // One landing pad entry (a `BRA` or `BRK` to the target's edge label) per
                // target, reached by `BRX` at 8 bytes an entry (`select/brx.rs`).
                let pads: Vec<String> = cfg::branch_targets(inst)
                    .into_iter()
                    .map(|t| {
                        let tb = graph.block_of_inst.get(t).copied().unwrap_or(usize::MAX);
                        if let Some(p) = pad_label(b, tb) {
                            format!("BRA {p};")
                        } else if is_break(b, tb) {
                            "BRK;".to_string()
                        } else {
                            format!("BRA {};", edge_label(b, tb))
                        }
                    })
                    .collect();
                if let Err(why) = sel.brx(inst, &pads) {
                    errors.push(unsupported(file, inst, &why));
                }
            }
            Some(inst) => {
                if let Err(why) = sel.select(inst) {
                    errors.push(unsupported(file, inst, &why));
                }
            }
            None => {}
        }
        // After a guarded `exit`/`ret` that ends the block, the synthetic jump's moves.
        if let (Some(t), Some(j)) = (ptx_term, synthetic) {
            sel.out.extend(take_moves(&mut moves, t, true));
            sel.out.extend(take_moves(&mut moves, j, false));
            sel.regs.set_here(alloc.names(j as usize));
            if sel.epilogue.is_some() {
                sel.epilogue = Some(returning(&sel.regs, &restore));
            }
        }
        // Falling through into a join whose first `.S` is not this block's: branch to it.
        let falls = blk.succs.contains(&(b + 1))
            && term.is_none_or(|t| t.guard.is_some() || !matches!(t.op, Opcode::Bra | Opcode::Brx));
        if let Some(p) = pad_label(b, b + 1).filter(|_| falls) {
            sel.out.push(Line::Inst(format!("BRA {p};")));
        } else if falls && is_break(b, b + 1) {
            sel.out.push(Line::Inst("BRK;".into()));
        } else if falls {
            let label = edge_label(b, b + 1);
            let first = stubs_of(b + 1).first().map(|i| format!("{pre}S{i}"));
            // `pre` is the body's label prefix (`F<id>_` in a `.func`): compare after it.
            let to_stub = label
                .strip_prefix(pre.as_str())
                .is_some_and(|l| l.starts_with('S'));
            if to_stub && Some(&label) != first.as_ref() {
                sel.out.push(Line::Inst(format!("BRA {label};")));
            }
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
    // The pads of split edges with moves: after the body, where nothing falls into them.
    for s in &alloc.func.splits {
        let Some(p) = s.from else { continue };
        let at = alloc.func.blocks[s.block].first;
        let lines: Vec<Line> = take_moves(&mut moves, at, false).collect();
        if lines.is_empty() {
            continue;
        }
        sel.out.push(Line::Label(format!("{pre}E{p}_{}", s.to)));
        sel.out.extend(lines);
        sel.out.push(Line::Inst(if is_break(p, s.to) {
            "BRK;".into()
        } else {
            format!("BRA {};", edge_label(p, s.to))
        }));
    }
    // Edges from the entry into blocks it does not reach run nothing.
    for s in alloc.func.splits.iter().filter(|s| s.from.is_none()) {
        moves.remove(&(alloc.func.blocks[s.block].first, false));
    }
    if !moves.is_empty() && errors.is_empty() {
        errors.push(Diagnostic::error(
            f.span,
            "internal error: register allocation moves left unplaced".to_string(),
        ));
    }
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
        spills,
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
