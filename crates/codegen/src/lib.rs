//! PTX → Fermi (sm_20) machine code, over the checked IR.
//!
//! The pipeline, per `.entry`:
//! 1. `opt`: clean-ups on the checked IR (copy and constant propagation with `ops`, CSE,
//!    dead code, sinking and rematerialization of parameter loads, if-conversion);
//! 2. `cfg`: basic blocks, dominators and post-dominators, natural loops, and the
//!    reconvergence plan (`SSY` before divergent branches, `NOP.S` at their immediate
//!    post-dominator, `PBK`/`BRK` for loops whose several exits SSYs cannot map);
//! 3. `ra` and `regs`: SSA values allocated by `regalloc2` (pairs for 64-bit values, spill
//!    code to local memory), with its checker on in debug builds;
//! 4. `select`: each PTX instruction to cuobjdump-style Fermi text;
//! 5. emission: layout, then the `fermi` crate's table parses and encodes every line, and the
//!    kernel goes into a cubin with the parameter layout and sizes `.nv.info` records.
//!
//! What is not translated is an error naming the instruction and the reason; see
//! docs/codegen.md for what is and is not covered.

mod body;
mod calls;
mod cfg;
mod compact;
pub mod coverage;
mod flow;
mod fold;
mod funnel;
mod module_globals;
mod opt;
mod ra;
mod regs;
pub mod report;
mod select;
mod stream;
pub use stream::check_and_compile;

use diag::{Diagnostic, SourceFile, Span};
use fermi::cubin::{self, AddressSize, Arch, Kernel, Param};
use ir::{FuncKind, Function, Module, Space};
use rayon::prelude::*;
use rustc_hash::FxHashMap as HashMap;
use select::Line;

/// The translation of one module.
#[derive(Clone, Debug)]
pub struct Compiled {
    pub cubin: cubin::Module,
    /// Warnings (e.g. a `.target` above sm_20).
    pub warnings: Vec<Diagnostic>,
    /// Per kernel (in `cubin.kernels`' order), its spill code, for `-v`.
    pub spills: Vec<report::Spills>,
}

/// Translates every `.entry` of `module` (checked from `file`) to sm_20 code.
pub fn compile_module(module: &Module, file: &SourceFile) -> Result<Compiled, Vec<Diagnostic>> {
    compile_remaining(module, file, Shared::new(module), HashMap::default())
}

/// Translates the entries of `module` that `done` has no result for, and assembles the
/// cubin from both: [`compile_module`], and the end of `check_and_compile`'s pipeline (which
/// translated some entries while the file was still being checked).
fn compile_remaining(
    module: &Module,
    file: &SourceFile,
    shared: Shared,
    mut done: HashMap<ir::FuncId, EntryResult>,
) -> Result<Compiled, Vec<Diagnostic>> {
    let warnings = target_warnings(module, file);
    // Entries are independent (each translates its own copy of the `.func`s it calls), so
    // they are translated in parallel; results are kept in declaration order, so the cubin
    // and the order of errors do not depend on the scheduling.
    let entries: Vec<(ir::FuncId, &Function)> = module
        .functions
        .iter()
        .enumerate()
        .filter(|(_, f)| f.kind == FuncKind::Entry && f.body.is_some())
        .map(|(i, f)| (ir::FuncId(i as u32), f))
        .collect();
    let todo: Vec<(ir::FuncId, &Function)> = entries
        .iter()
        .filter(|(id, _)| !done.contains_key(id))
        .copied()
        .collect();
    let left: Vec<(ir::FuncId, EntryResult)> = todo
        .par_iter()
        .with_min_len(16)
        .map(|&(id, f)| (id, shared.compile_entry(module, f, file)))
        .collect();
    done.extend(left);
    let results = entries
        .iter()
        .filter_map(|(id, _)| done.remove(id))
        .collect();
    assemble_module(module, shared, results, warnings)
}

/// One entry's translation: the kernel and its spill code, or why it is not translated.
type EntryResult = Result<(Kernel, report::Spills), Vec<Diagnostic>>;

/// What the translation of every entry of a module reads beyond the IR.
struct Shared {
    consts: HashMap<ir::VarId, u32>,
    constant2: Vec<u8>,
    globals: HashMap<ir::VarId, u32>,
    global_data: cubin::GlobalData,
    /// The functions whose address the module takes ([`calls::address_taken`]), sorted:
    /// read only by entries that reach an indirect call without a target list.
    taken: Vec<ir::FuncId>,
}

impl Shared {
    fn new(module: &Module) -> Shared {
        Shared::with_taken(module, calls::address_taken(module))
    }

    /// What `module`'s entries read, with `taken` for the address-taken functions (the
    /// streamed pipeline collects them as bodies arrive: the bodies are gone by the end).
    fn with_taken(module: &Module, taken: Vec<ir::FuncId>) -> Shared {
        let (consts, constant2) = constant_bank(module);
        let (globals, global_data) = module_globals::global_data(module);
        Shared {
            consts,
            constant2,
            globals,
            global_data,
            taken,
        }
    }

    /// Whether `self` and `other` agree in everything but the address-taken functions.
    fn same_data(&self, other: &Shared) -> bool {
        self.consts == other.consts
            && self.constant2 == other.constant2
            && self.globals == other.globals
            && self.global_data == other.global_data
    }

    fn compile_entry(&self, module: &Module, f: &Function, file: &SourceFile) -> EntryResult {
        compile_entry(
            module,
            f,
            file,
            &self.consts,
            &self.globals,
            &self.global_data,
            &self.taken,
        )
    }
}

/// The module's warnings: a `.target` above sm_20.
fn target_warnings(module: &Module, file: &SourceFile) -> Vec<Diagnostic> {
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
    warnings
}

/// The cubin of the entries' results (in declaration order), or every entry's errors.
fn assemble_module(
    module: &Module,
    shared: Shared,
    results: Vec<EntryResult>,
    warnings: Vec<Diagnostic>,
) -> Result<Compiled, Vec<Diagnostic>> {
    let mut errors = Vec::new();
    let mut kernels = Vec::with_capacity(results.len());
    let mut spills = Vec::with_capacity(results.len());
    for r in results {
        match r {
            Ok((k, s)) => {
                kernels.push(k);
                spills.push(s);
            }
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
            constant2: shared.constant2,
            constants: Vec::new(),
            globals: shared.global_data,
        },
        warnings,
        spills,
    })
}

/// Module-scope `.const` variables (bank 0 in PTX) laid out in declaration order in `c[0x2]`,
/// where NVIDIA's sm_20 code keeps `__constant__` data, with their initial bytes. Variables
/// whose initializers hold addresses (relocations) are left out: reading them is an error.
fn constant_bank(module: &Module) -> (HashMap<ir::VarId, u32>, Vec<u8>) {
    let mut offsets = HashMap::default();
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

/// Module-scope `.global` variables laid out as NVIDIA's sm_20 toolchain does: initialized
/// ones in `.nv.global.init`, the others in the zero-filled `.nv.global`, in declaration order,
/// each named by a symbol that the code's address relocations point at. Returns each
/// variable's index in the symbol list. Variables whose initializers hold addresses are left
/// out: taking their address is an error.
fn align_up(x: u32, a: u32) -> u32 {
    x.div_ceil(a.max(1)) * a.max(1)
}

fn compile_entry(
    module: &Module,
    f: &Function,
    file: &SourceFile,
    consts: &HashMap<ir::VarId, u32>,
    globals: &HashMap<ir::VarId, u32>,
    global_data: &cubin::GlobalData,
    taken: &[ir::FuncId],
) -> Result<(Kernel, report::Spills), Vec<Diagnostic>> {
    let err = |span: Span, m: String| vec![Diagnostic::error(span, m)];
    let body = f.insts();
    // Parameters: in declaration order, each at its own alignment.
    let mut params = Vec::new();
    let mut param_off = HashMap::default();
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
    // The `.func`s the entry calls, directly or not.
    let (funcs, recursive) = calls::reachable(module, taken, f).map_err(|(s, m)| err(s, m))?;
    let func_bodies: Vec<(ir::FuncId, &Function)> = funcs
        .iter()
        .filter_map(|&id| module.function(id).map(|g| (id, g)))
        .collect();
    for (_, g) in &func_bodies {
        if let Some(v) = g.locals.iter().find(|v| {
            module.var(**v).is_some_and(|var| {
                matches!(var.space, Space::Shared | Space::SharedCta)
                    || var.space == Space::Local && var.init.is_some()
            })
        }) {
            let span = module.var(*v).map_or(g.span, |var| var.span);
            return Err(err(
                span,
                format!(
                    "`{}` declares .shared or initialized .local variables, which are not translated in a .func",
                    g.name
                ),
            ));
        }
    }
    // Shared variables the bodies name (module scope or the entry's own), laid out in
    // declaration order: like ptxas, a kernel's window holds only what it uses.
    let named: rustc_hash::FxHashSet<ir::VarId> = body
        .iter()
        .chain(func_bodies.iter().flat_map(|(_, g)| g.insts().iter()))
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
    let mut shared = HashMap::default();
    let mut smem = 0u32;
    // Local variables at fixed offsets of the thread's local window, below the stack (the
    // Fermi executor and the driver put the stack above `local_size`).
    let mut local = HashMap::default();
    let mut lmem = 0u32;
    let mut dynamic = Vec::new();
    for v in module.globals.iter().chain(f.locals.iter()) {
        let Some(var) = module.var(*v) else { continue };
        match var.space {
            // An extern unsized array is the dynamic shared memory: after every static one.
            Space::Shared | Space::SharedCta if named.contains(v) && var.size == 0 => {
                dynamic.push((*v, var.align.max(4)));
            }
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
    for (v, align) in dynamic {
        smem = align_up(smem, align);
        shared.insert(v, smem);
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
    let mut layouts = HashMap::default();
    for &(id, g) in &func_bodies {
        let mut l = calls::arg_layout(module, g).map_err(|m| err(g.span, m))?;
        l.address_taken = taken.binary_search(&id).is_ok();
        layouts.insert(id, l);
    }
    let mut outgoing = HashMap::default();
    outgoing.insert(
        None,
        calls::outgoing(module, f, &layouts).map_err(|m| err(f.span, m))?,
    );
    for &(id, g) in &func_bodies {
        outgoing.insert(
            Some(id),
            calls::outgoing(module, g, &layouts).map_err(|m| err(g.span, m))?,
        );
    }
    let env = body::Env {
        module,
        file,
        params: param_off,
        shared,
        local,
        consts: consts.clone(),
        globals: globals.clone(),
        layouts,
        outgoing,
    };
    let mut errors = Vec::new();
    let mut lines = Vec::new();
    let mut max_gpr = 3u8;
    let mut bar_count = 0u8;
    let mut entry_frame = 0;
    let mut spills = report::Spills::default();
    let mut stack = 0u32;
    for (role, g) in std::iter::once((body::Role::Entry, f))
        .chain(func_bodies.iter().map(|&(id, g)| (body::Role::Func(id), g)))
    {
        match body::compile_body(&env, g, role) {
            Ok(b) => {
                lines.extend(b.lines);
                max_gpr = max_gpr.max(b.max_gpr);
                bar_count = bar_count.max(b.bar_count);
                match role {
                    body::Role::Entry => {
                        entry_frame = b.frame;
                        spills = report::Spills {
                            stores: b.spills.stores,
                            loads: b.spills.loads,
                        };
                    }
                    // Enough for every callee's frame at once (a bound for acyclic call
                    // graphs); recursion relies on the driver's extra stack as well.
                    body::Role::Func(_) => stack += b.frame,
                }
            }
            Err(mut e) => errors.append(&mut e),
        }
    }
    if recursive {
        stack = stack.max(4096);
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let (code, marks) = assemble_lines(&lines).map_err(|m| {
        err(
            f.span,
            format!(
                "internal error: the translator produced text the Fermi assembler rejects: {m}"
            ),
        )
    })?;
    let kernel = Kernel {
        name: f.name.clone(),
        code,
        params,
        param_size: end,
        shared_size: smem,
        local_size: align_up(lmem, 16),
        reg_count: max_gpr + 1,
        bar_count,
        frame_size: entry_frame,
        min_stack_size: stack,
        max_threads: None,
        sync_stack: None,
        constants: Vec::new(),
        relocs: marks
            .into_iter()
            .filter_map(|(offset, kind, var, addend)| {
                let symbol = global_data.vars.get(var as usize)?.name.clone();
                Some(cubin::Reloc {
                    offset,
                    kind,
                    symbol,
                    addend,
                })
            })
            .collect(),
    };
    Ok((kernel, spills))
}

pub(crate) fn unsupported(file: &SourceFile, inst: &ir::Inst, why: &str) -> Diagnostic {
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

/// A relocation the selector attached to an instruction: (byte offset, kind, index of the
/// variable in the module's global symbols, addend).
type RelocMark = (u32, cubin::RelocKind, u32, i64);

/// Lays out `lines` (8 bytes per instruction) and encodes each through the `fermi` table;
/// an instruction's relocation mark (`select::RELOC_MARK`) becomes a relocation entry.
pub fn assemble_lines(lines: &[Line]) -> Result<(Vec<u64>, Vec<RelocMark>), String> {
    let mut labels = HashMap::default();
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
    let mut code = Vec::with_capacity(addr as usize / 8);
    let mut marks = Vec::new();
    ASSEMBLER.with_borrow_mut(|assembler| {
        for l in lines {
            if let Line::Inst(text) = l {
                let at = 8 * code.len() as u64;
                let text = match text.split_once(select::RELOC_MARK) {
                    Some((inst, mark)) => {
                        marks.push(select::parse_reloc_mark(mark, at as u32)?);
                        inst
                    }
                    None => text.as_str(),
                };
                let word = assembler
                    .assemble(text, at, &lookup)
                    .map_err(|e| format!("`{text}`: {e}"))?;
                code.push(word);
            }
        }
        Ok((code, marks))
    })
}

thread_local! {
    /// Each translating thread's memory of the texts it assembled: the selector writes the
    /// same text for the same instruction in every kernel, and parsing it again was a tenth of
    /// the translation (`fermi::isa::TextAssembler` says which texts it keeps).
    static ASSEMBLER: std::cell::RefCell<fermi::isa::TextAssembler> =
        std::cell::RefCell::new(fermi::isa::TextAssembler::new());
}
