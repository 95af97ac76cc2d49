//! PTX → Fermi (sm_20) machine code, over the checked IR.
//!
//! The pipeline, per `.entry`:
//! 1. [`cfg`]: basic blocks, dominators and post-dominators, natural loops, and the
//!    reconvergence plan (`SSY` before divergent branches, `NOP.S` at their immediate
//!    post-dominator);
//! 2. [`regs`]: a Fermi register for every PTX register used (pairs for 64-bit values);
//! 3. [`select`]: each PTX instruction to cuobjdump-style Fermi text;
//! 4. emission: layout, then the `fermi` crate's table parses and encodes every line, and the
//!    kernel goes into a cubin with the parameter layout and sizes `.nv.info` records.
//!
//! What is not translated is an error naming the instruction and the reason; see
//! docs/codegen.md for what is and is not covered.

pub mod alloc;
pub mod cfg;
pub mod coverage;
pub mod regs;
pub mod report;
pub mod select;

use diag::{Diagnostic, SourceFile, Span};
use fermi::cubin::{self, AddressSize, Arch, Kernel, Param};
use ir::{FuncKind, Function, Module, Opcode, Space};
use select::{Line, Selector};
use std::collections::HashMap;

/// The translation of one module.
#[derive(Clone, Debug)]
pub struct Compiled {
    pub cubin: cubin::Module,
    /// Warnings (e.g. a `.target` above sm_20).
    pub warnings: Vec<Diagnostic>,
}

/// Translates every `.entry` of `module` (checked from `file`) to sm_20 code.
pub fn compile_module(module: &Module, file: &SourceFile) -> Result<Compiled, Vec<Diagnostic>> {
    let mut warnings = Vec::new();
    if module.target.sm > 20 {
        // Point at the directive (the IR keeps no span for it).
        let at = file.text.find(".target").unwrap_or(0);
        let span = Span::from_range(at..at + ".target".len().min(file.text.len() - at));
        warnings.push(Diagnostic::warning(
            span,
            format!(
                "the module targets sm_{}; translating for sm_20, instructions sm_20 cannot express are errors",
                module.target.sm
            ),
        ));
    }
    let (consts, constant2) = constant_bank(module);
    let mut errors = Vec::new();
    let mut kernels = Vec::new();
    for f in &module.functions {
        if f.kind != FuncKind::Entry || f.body.is_none() {
            continue;
        }
        match compile_entry(module, f, file, &consts) {
            Ok(k) => kernels.push(k),
            Err(mut e) => errors.append(&mut e),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(Compiled {
        cubin: cubin::Module {
            arch: Arch::Sm20,
            address_size: match module.address_size {
                ir::AddressSize::Bits32 => AddressSize::Bits32,
                ir::AddressSize::Bits64 => AddressSize::Bits64,
            },
            kernels,
            constant2,
            constants: Vec::new(),
        },
        warnings,
    })
}

/// Module-scope `.const` variables (bank 0 in PTX) laid out in declaration order in `c[0x2]`,
/// where NVIDIA's sm_20 code keeps `__constant__` data, with their initial bytes. Variables
/// whose initializers hold addresses (relocations) are left out: reading them is an error.
fn constant_bank(module: &Module) -> (HashMap<ir::VarId, u32>, Vec<u8>) {
    let mut offsets = HashMap::new();
    let mut bytes = Vec::new();
    for v in &module.globals {
        let Some(var) = module.var(*v) else { continue };
        if var.space != Space::Const || var.const_bank != 0 {
            continue;
        }
        if var.init.as_ref().is_some_and(|i| !i.relocs.is_empty()) {
            continue;
        }
        let off = align_up(bytes.len() as u32, var.align.max(4));
        let Some(end) = u32::try_from(var.size)
            .ok()
            .and_then(|n| off.checked_add(n))
            .filter(|&e| e <= 0x10000)
        else {
            continue; // larger than the 64 KiB bank: its uses are errors
        };
        bytes.resize(end as usize, 0);
        if let Some(init) = &var.init {
            let n = init.bytes.len().min((end - off) as usize);
            bytes[off as usize..off as usize + n].copy_from_slice(&init.bytes[..n]);
        }
        offsets.insert(*v, off);
    }
    (offsets, bytes)
}

fn align_up(x: u32, a: u32) -> u32 {
    x.div_ceil(a.max(1)) * a.max(1)
}

fn compile_entry(
    module: &Module,
    f: &Function,
    file: &SourceFile,
    consts: &HashMap<ir::VarId, u32>,
) -> Result<Kernel, Vec<Diagnostic>> {
    let err = |span: Span, m: String| vec![Diagnostic::error(span, m)];
    let body = f.insts();
    // Parameters: in declaration order, each at its own alignment.
    let mut params = Vec::new();
    let mut param_off = HashMap::new();
    let mut end = 0u32;
    for p in &f.params {
        let ir::Param::Var(v) = p else {
            return Err(err(
                f.span,
                "register parameters of an entry are not translated".into(),
            ));
        };
        let var = module
            .var(*v)
            .ok_or_else(|| err(f.span, "bad parameter".into()))?;
        let size =
            u32::try_from(var.size).map_err(|_| err(var.span, "parameter too large".into()))?;
        let off = align_up(end, var.align.max(1));
        param_off.insert(*v, off);
        params.push(Param { offset: off, size });
        end = off + size;
    }
    if end > 4096 {
        return Err(err(
            f.span,
            format!("{end} bytes of parameters; sm_20 takes at most 4096"),
        ));
    }
    // Shared variables the body names (module scope or the entry's own), laid out in
    // declaration order: like ptxas, a kernel's window holds only what it uses.
    let named: std::collections::HashSet<ir::VarId> = body
        .iter()
        .flat_map(|i| i.operands.iter())
        .filter_map(|o| match o {
            ir::Operand::VarAddr { var, .. } => Some(*var),
            ir::Operand::Address(ir::Address {
                base: ir::AddrBase::Var(v),
                ..
            }) => Some(*v),
            _ => None,
        })
        .collect();
    let mut shared = HashMap::new();
    let mut smem = 0u32;
    // Local variables at fixed offsets of the thread's local window, below the stack (the
    // Fermi executor and the driver put the stack above `local_size`).
    let mut local = HashMap::new();
    let mut lmem = 0u32;
    for v in module.globals.iter().chain(f.locals.iter()) {
        let Some(var) = module.var(*v) else { continue };
        match var.space {
            Space::Shared | Space::SharedCta if named.contains(v) => {
                let size = u32::try_from(var.size).unwrap_or(u32::MAX);
                let off = align_up(smem, var.align.max(4));
                shared.insert(*v, off);
                smem = off.saturating_add(size);
            }
            Space::Local if named.contains(v) => {
                if var.init.is_some() {
                    return Err(err(
                        var.span,
                        "initialized local variables are not translated".into(),
                    ));
                }
                let size = u32::try_from(var.size).unwrap_or(u32::MAX);
                let off = align_up(lmem, var.align.max(4));
                local.insert(*v, off);
                lmem = off.saturating_add(size);
            }
            _ => {}
        }
    }
    if lmem > 512 * 1024 {
        return Err(err(
            f.span,
            format!("{lmem} bytes of local memory per thread; sm_20 has 512 KiB"),
        ));
    }
    if smem > 48 * 1024 {
        return Err(err(
            f.span,
            format!("{smem} bytes of shared memory; sm_20 has 48 KiB per CTA"),
        ));
    }
    let graph = cfg::build_cfg(body);
    let divergent: Vec<usize> = graph
        .blocks
        .iter()
        .enumerate()
        .filter(|(_, b)| {
            b.end > b.start
                && body.get(b.end - 1).is_some_and(|i| {
                    i.op == Opcode::Bra && i.guard.is_some() && !i.mods.has(isa::Flag::Uni)
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
    let plan = cfg::plan_reconvergence(&graph, &divergent).map_err(|e| {
        err(
            block_span(e.block),
            format!(
                "cannot map control flow onto the reconvergence stack: {}",
                e.message
            ),
        )
    })?;

    let assignment = alloc::allocate(f, &graph).map_err(|e| {
        let span = body.get(e.inst).map_or(f.span, |i| i.span);
        err(span, format!("cannot allocate registers: {}", e.message))
    })?;
    let mut sel = Selector {
        module,
        func: f,
        regs: regs::RegMap::from_assignment(assignment),
        out: vec![Line::Inst("MOV R1, c [0x1] [0x100];".into())],
        params: param_off,
        shared,
        local,
        consts: consts.clone(),
        a64: module.address_size == ir::AddressSize::Bits64,
        uses_bar: false,
        carry: None,
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
            Some(i) => format!("S{i}"),
            None => format!("B{t}"),
        }
    };
    for (b, blk) in graph.blocks.iter().enumerate() {
        sel.out.push(Line::Label(format!("B{b}")));
        sel.carry = None;
        // One `NOP.S` per region meeting here, innermost first; after an inner region's lanes
        // reconverge they go on to the enclosing region's `.S`.
        let stubs = stubs_of(b);
        for (k, &i) in stubs.iter().enumerate() {
            sel.out.push(Line::Label(format!("S{i}")));
            sel.out.push(Line::Inst("NOP.S CC.T;".into()));
            sel.out.push(Line::Label(format!("T{i}")));
            let parent = stubs
                .iter()
                .copied()
                .filter(|&j| j != i && plan[j].size() > plan[i].size())
                .find(|&j| (0..n).all(|q| !plan[i].region[q] || plan[j].region[q]));
            let next = stubs.get(k + 1).copied();
            if let Some(pj) = parent {
                if Some(pj) != next {
                    sel.out.push(Line::Inst(format!("BRA S{pj};")));
                }
            }
        }
        let mut ssys: Vec<usize> = (0..plan.len()).filter(|&i| plan[i].at == b).collect();
        // The outer region's SSY first: it must be below the inner one on the stack.
        ssys.sort_by_key(|&i| std::cmp::Reverse(plan[i].size()));
        let insts = body.get(blk.start..blk.end).unwrap_or(&[]);
        let term = insts
            .last()
            .filter(|i| matches!(i.op, Opcode::Bra | Opcode::Ret | Opcode::Exit));
        let plain = if term.is_some() {
            &insts[..insts.len() - 1]
        } else {
            insts
        };
        for inst in plain {
            if let Err(why) = sel.select(inst) {
                errors.push(unsupported(file, inst, &why));
            }
        }
        for &i in &ssys {
            sel.out.push(Line::Inst(format!("SSY T{i};")));
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
                sel.out
                    .push(Line::Inst(format!("{g}BRA {};", edge_label(b, tb))));
            }
            Some(inst) => {
                if let Err(why) = sel.select(inst) {
                    errors.push(unsupported(file, inst, &why));
                }
            }
            None => {}
        }
        // Falling through into a join whose first `.S` is not this block's: branch to it.
        let falls = blk.succs.contains(&(b + 1))
            && term.is_none_or(|t| t.guard.is_some() || t.op != Opcode::Bra);
        if falls {
            let label = edge_label(b, b + 1);
            let first = stubs_of(b + 1).first().map(|i| format!("S{i}"));
            if label.starts_with('S') && Some(&label) != first.as_ref() {
                sel.out.push(Line::Inst(format!("BRA {label};")));
            }
        }
        // The end of the body, or a block falling off into nothing: the thread ends.
        if b + 1 == n
            && (blk.start == blk.end
                || term.is_none_or(|t| t.guard.is_some() || t.op == Opcode::Bra))
        {
            sel.out.push(Line::Inst("EXIT;".into()));
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let code = assemble_lines(&sel.out).map_err(|m| {
        err(
            f.span,
            format!(
                "internal error: the translator produced text the Fermi assembler rejects: {m}"
            ),
        )
    })?;
    Ok(Kernel {
        name: f.name.clone(),
        code,
        params,
        param_size: end,
        shared_size: smem,
        local_size: align_up(lmem, 16),
        reg_count: sel.regs.max_gpr + 1,
        bar_count: u8::from(sel.uses_bar),
        frame_size: 0,
        min_stack_size: 0,
        max_threads: None,
        sync_stack: None,
        constants: Vec::new(),
    })
}

fn unsupported(file: &SourceFile, inst: &ir::Inst, why: &str) -> Diagnostic {
    let text = file
        .text
        .get(inst.span.range())
        .unwrap_or(inst.op.name())
        .trim_end_matches(';')
        .trim();
    Diagnostic::error(
        inst.span,
        format!("cannot translate `{text}` for sm_20: {why}"),
    )
}

/// Lays out `lines` (8 bytes per instruction) and encodes each through the `fermi` table.
pub fn assemble_lines(lines: &[Line]) -> Result<Vec<u64>, String> {
    let mut labels = HashMap::new();
    let mut addr = 0u64;
    for l in lines {
        match l {
            Line::Label(name) => {
                labels.insert(name.as_str(), addr);
            }
            Line::Inst(_) => addr += 8,
        }
    }
    let lookup = |name: &str| labels.get(name).copied();
    let mut code = Vec::new();
    for l in lines {
        if let Line::Inst(text) = l {
            let at = 8 * code.len() as u64;
            let word = fermi::isa::assemble_text(text, at, &lookup)
                .map_err(|e| format!("`{text}`: {e}"))?;
            code.push(word);
        }
    }
    Ok(code)
}
