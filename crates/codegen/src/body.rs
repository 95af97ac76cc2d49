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
    let split = crate::select::split_wide_pred_moves(f);
    let f = split.as_ref().unwrap_or(f);
    let shared = crate::select::shared_cluster_as_shared(f);
    let f = shared.as_ref().unwrap_or(f);
    let cleaned = crate::opt::optimize(f);
    compile_body_as_written(env, &cleaned, role).or_else(|_| compile_body_as_written(env, f, role))
}

/// Translates `f` as it is (or, when its control flow does not map as written, rewritten by
/// `funnel.rs`).
pub fn compile_body_as_written(
    env: &Env,
    f: &Function,
    role: Role,
) -> Result<Body, Vec<Diagnostic>> {
    compile_body_once(env, f, role, true)
}

/// Translates `f`; with `rewrite`, tries `funnel.rs`'s rewrites of it, in order, when its
/// control flow does not map as written.
fn compile_body_once(
    env: &Env,
    f: &Function,
    role: Role,
    rewrite: bool,
) -> Result<Body, Vec<Diagnostic>> {
    let err = |span: Span, m: String| vec![Diagnostic::error(span, m)];
    let file = env.file;
    let body = f.insts();
    let pre = match role {
        Role::Entry => String::new(),
        Role::Func(id) => format!("F{}_", id.0),
    };
    let graph = cfg::build_cfg(body);
    let divergent = cfg::divergent_blocks(&graph, body);
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
    let flow = match crate::flow::Flow::plan(&graph, &divergent, &pre) {
        Ok(flow) => flow,
        // Loops whose exits the stack cannot take as written get one exit each, small
        // joins and returns copies of their own (`funnel.rs`); the first that maps wins.
        Err(e) if rewrite => {
            let mut last = None;
            for g in crate::funnel::rewrites(f, role == Role::Entry) {
                match compile_body_once(env, &g, role, false) {
                    Ok(b) => return Ok(b),
                    Err(d) => last = Some(d),
                }
            }
            return Err(last.unwrap_or_else(|| stack_error(e)));
        }
        Err(e) => return Err(stack_error(e)),
    };

    // Entry parameters and shared addresses only `add`s read go in those `add`s as operands.
    let folded = match role {
        Role::Entry => crate::fold::add_operands(f, &env.params, &env.shared),
        Role::Func(_) => Default::default(),
    };
    let scaled = match role {
        Role::Entry => crate::fold::scaled_adds(f),
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
        // A body that could never translate says so at its first instruction sm_20 cannot
        // express, rather than at the allocation its registers made impossible.
        if let Some((inst, why)) = body
            .iter()
            .find_map(|i| crate::coverage::refusal(i.op).map(|why| (i, why)))
        {
            return vec![crate::unsupported(file, inst, &why)];
        }
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
        carry_zero: false,
        folded,
        scaled,
        zero_high,
        narrowed,
    };
    let mut errors = Vec::new();
    let n = graph.blocks.len();
    // Split edges whose moves need a pad: the branch goes to the pad, which moves, then
    // goes on to where the edge landed (`flow.jump`).
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
        padded.contains(&(p, t)).then(|| format!("{pre}M{p}_{t}"))
    };
    // Carry chains continued across blocks (select/carry_flow.rs).
    let carry_in = crate::select::carry_in(&graph, body, matches!(role, Role::Entry));
    for (b, blk) in graph.blocks.iter().enumerate() {
        sel.out.extend(flow.head(b));
        sel.enter_block(carry_in.get(b).copied().flatten());
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
            let label = || format!("{pre}G{}", blk.start + k);
            let done = if inst.op == Opcode::Call {
                crate::flow::around_guard(&mut sel, f, inst, &label(), true)
            } else {
                crate::flow::select_or_around_guard(&mut sel, f, inst, &label())
            };
            if let Err(why) = done {
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
                let text = match pad_label(b, tb) {
                    Some(p) => format!("{g}BRA{u} {p};"),
                    None => flow.jump(&g, &format!("BRA{u}"), b, tb),
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
                        match pad_label(b, tb) {
                            Some(p) => format!("BRA {p};"),
                            None => flow.jump("", "BRA", b, tb),
                        }
                    })
                    .collect();
                // A guarded one: lanes whose guard fails go past the pad to the block's
                // fall-through code, which follows this arm.
                let skip = inst.guard.map(|_| format!("{pre}G{}", blk.end - 1));
                if let Err(why) = sel.brx(f, inst, &pads, skip.as_deref()) {
                    errors.push(unsupported(file, inst, &why));
                }
                if let Some(label) = skip {
                    sel.out.push(Line::Label(label));
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
        // After a guarded `exit`/`ret` that ends the block, the synthetic jump's moves.
        if let (Some(t), Some(j)) = (ptx_term, synthetic) {
            sel.out.extend(take_moves(&mut moves, t, true));
            sel.out.extend(take_moves(&mut moves, j, false));
            sel.regs.set_here(alloc.names(j as usize));
            if sel.epilogue.is_some() {
                sel.epilogue = Some(returning(&sel.regs, &restore));
            }
        }
        // Falling through into a block whose lines do not start where the edge lands.
        let falls = blk.succs.contains(&(b + 1))
            && term.is_none_or(|t| t.guard.is_some() || !matches!(t.op, Opcode::Bra | Opcode::Brx));
        if let Some(p) = pad_label(b, b + 1).filter(|_| falls) {
            sel.out.push(Line::Inst(format!("BRA {p};")));
        } else if let Some(jump) = falls.then(|| flow.fall(b)).flatten() {
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
    // The pads of split edges with moves: after the body, where nothing falls into them.
    for s in &alloc.func.splits {
        let Some(p) = s.from else { continue };
        let at = alloc.func.blocks[s.block].first;
        let lines: Vec<Line> = take_moves(&mut moves, at, false).collect();
        if lines.is_empty() {
            continue;
        }
        sel.out.push(Line::Label(format!("{pre}M{p}_{}", s.to)));
        sel.out.extend(lines);
        sel.out.push(Line::Inst(flow.jump("", "BRA", p, s.to)));
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
