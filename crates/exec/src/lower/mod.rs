//! Lowering a checked [`ir::Module`] into the decoded [`Program`] (once, at load time).
//!
//! Layout decisions made here: every function's registers get their own slots in the three
//! banks; module `.global` variables become device allocations; `.const` variables are laid
//! out in one constant bank; `.shared` variables (module or body scope) get static offsets in
//! the CTA's shared memory with `extern` unsized arrays after them; module `.local`
//! variables sit at the start of each thread's local memory and each function's `.local`
//! and `.param` variables in its frame after them.

mod control;
mod inst;
mod matrix;
mod mbarrier;
mod mem;
mod operand;
mod wmma;

use crate::error::LoadError;
use crate::memory::GlobalMemory;
use crate::program::*;
use diag::SourceFile;
use ir::{FuncKind, Param as IrParam, Space as IrSpace, VarScope};

/// Per-thread local bytes when the call graph has a cycle (the depth is unknown).
pub const RECURSIVE_STACK_BYTES: u32 = 16 * 1024;
/// Largest `.local` frame (variables plus call stack) one thread may have.
pub const MAX_LOCAL_BYTES_PER_THREAD: u64 = 512 * 1024;
/// Base of the values that stand for function addresses (`mov.u64 %rd, f`); defined in `ir`
/// so that compiled code (crates/codegen) gives the same values.
pub const FUNC_ADDR_BASE: u64 = ir::FUNC_ADDR_BASE;

/// Where a variable lives after layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum VarLoc {
    Global(u64),
    Const(u64),
    Shared(u64),
    /// Module-scope `.local`: an absolute offset in each thread's local memory.
    Local(u64),
    /// A `.local`/`.param` of a function body, or a `.func` parameter: frame-relative.
    Frame(u32),
    /// A kernel parameter: offset in the parameter buffer.
    KernelParam(u32),
    Tex(u32),
    /// Not addressable (should not be referenced).
    None,
}

/// A register after slot assignment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Slot {
    pub reg: Reg,
    pub ty: ir::Type,
}

pub(crate) struct Lowerer<'a> {
    pub m: &'a ir::Module,
    pub src: &'a SourceFile,
    pub prog: Program,
    pub regs: Vec<Vec<Slot>>,
    pub vars: Vec<VarLoc>,
    pub frames: Vec<u32>,
    pub scratch32: Vec<R32>,
    pub scratch64: Vec<R64>,
    pub scratch_pred: Vec<Pred>,
}

/// `x` as a u32, or `u32::MAX` when it does not fit.
fn sat_u32(x: u64) -> u32 {
    u32::try_from(x).unwrap_or(u32::MAX)
}

fn align_up(x: u64, a: u32) -> u64 {
    x.next_multiple_of(u64::from(a.max(1)))
}

impl<'a> Lowerer<'a> {
    pub(crate) fn err(&self, span: diag::Span, msg: impl Into<String>) -> LoadError {
        let (line, _) = self.src.line_col(span.start);
        LoadError {
            file: self.src.name.clone(),
            line: line as u32,
            span,
            message: msg.into(),
        }
    }

    fn new_slot(&mut self, ty: ir::Type) -> Reg {
        if ty == ir::Type::Pred {
            self.prog.n_pred += 1;
            Reg::Pred(Pred(self.prog.n_pred - 1))
        } else if ty.size_bits() > 32 {
            // A 128-bit register is two consecutive 64-bit slots, low half first.
            let n = if ty.size_bits() == 128 { 2 } else { 1 };
            self.prog.n_r64 += n;
            Reg::R64(R64(self.prog.n_r64 - n))
        } else {
            self.prog.n_r32 += 1;
            Reg::R32(R32(self.prog.n_r32 - 1))
        }
    }

    fn layout_vars(&mut self, global: &mut GlobalMemory) -> Result<(), LoadError> {
        let m = self.m;
        self.vars = vec![VarLoc::None; m.vars.len()];
        let mut shared_end = 0u64;
        let mut const_end = 0u64;
        let mut local_end = 0u64;
        let mut frame_end = vec![0u64; m.functions.len()];
        let mut kparam_end = vec![0u64; m.functions.len()];
        let mut externs = Vec::new();
        let mut v1_params: Vec<Vec<ir::VarId>> = vec![Vec::new(); m.functions.len()];
        // Kernel parameters first, in declaration order, so their offsets follow the ABI.
        for (fi, f) in m.functions.iter().enumerate() {
            for p in &f.params {
                let IrParam::Var(v) = *p else { continue };
                let Some(var) = m.var(v) else { continue };
                let loc = if f.kind == FuncKind::Entry {
                    let off = align_up(kparam_end[fi], var.align);
                    kparam_end[fi] = off + var.size;
                    VarLoc::KernelParam(off as u32)
                } else {
                    let off = align_up(frame_end[fi], var.align);
                    frame_end[fi] = off + var.size;
                    VarLoc::Frame(off as u32)
                };
                self.vars[v.index()] = loc;
            }
            for p in &f.rets {
                let IrParam::Var(v) = *p else { continue };
                let Some(var) = m.var(v) else { continue };
                let off = align_up(frame_end[fi], var.align);
                frame_end[fi] = off + var.size;
                self.vars[v.index()] = VarLoc::Frame(off as u32);
            }
        }
        for (vi, var) in m.vars.iter().enumerate() {
            if self.vars[vi] != VarLoc::None {
                continue;
            }
            let body_of = match var.scope {
                VarScope::Body(f) => Some(f.index()),
                VarScope::Param(_) => continue,
                VarScope::Module => None,
            };
            let loc = match var.space {
                IrSpace::Global => {
                    let addr = global.alloc(var.size.max(1)).ok_or_else(|| {
                        self.err(
                            var.span,
                            format!(
                                "cannot allocate `{}` ({} bytes): the device has {} bytes of global memory",
                                var.name,
                                var.size,
                                global.limit()
                            ),
                        )
                    })?;
                    if let Some(init) = &var.init {
                        let _ = global.write(addr, &init.bytes);
                    }
                    VarLoc::Global(addr)
                }
                IrSpace::Const => {
                    let off = align_up(const_end, var.align);
                    const_end = off + var.size;
                    VarLoc::Const(off)
                }
                IrSpace::Shared | IrSpace::SharedCta | IrSpace::SharedCluster => {
                    if var.size == 0 && var.dims.first() == Some(&0) {
                        externs.push(vi);
                        continue;
                    }
                    let off = align_up(shared_end, var.align);
                    shared_end = off + var.size;
                    VarLoc::Shared(off)
                }
                IrSpace::Param | IrSpace::ParamEntry
                    if body_of.is_some_and(|fi| self.is_v1_entry(fi)) =>
                {
                    // ptx-isa-1.1 §9.1: `.param` declared in an entry's braces are the
                    // kernel's parameters.
                    let fi = body_of.unwrap_or(0);
                    let off = align_up(kparam_end[fi], var.align);
                    kparam_end[fi] = off + var.size;
                    v1_params[fi].push(ir::VarId(vi as u32));
                    VarLoc::KernelParam(off as u32)
                }
                IrSpace::Local | IrSpace::Param | IrSpace::ParamFunc | IrSpace::ParamEntry => {
                    match body_of {
                        Some(fi) if fi < frame_end.len() => {
                            let off = align_up(frame_end[fi], var.align);
                            frame_end[fi] = off + var.size;
                            VarLoc::Frame(off as u32)
                        }
                        _ => {
                            let off = align_up(local_end, var.align);
                            local_end = off + var.size;
                            VarLoc::Local(off)
                        }
                    }
                }
                IrSpace::Tex => VarLoc::Tex(var.tex_id.unwrap_or(0)),
                _ => VarLoc::None,
            };
            self.vars[vi] = loc;
        }
        let dyn_base = align_up(shared_end, 16);
        for vi in externs {
            self.vars[vi] = VarLoc::Shared(dyn_base);
        }
        // Constant bank contents and relocations of every initializer.
        let mut bank = vec![0u8; const_end as usize];
        for (vi, var) in m.vars.iter().enumerate() {
            let Some(init) = &var.init else { continue };
            let mut bytes = init.bytes.clone();
            for r in &init.relocs {
                let target = match r.target {
                    ir::RelocTarget::Var(v) => self.var_value(v, r.generic),
                    ir::RelocTarget::Func(f) => ir::func_addr(f),
                };
                let v = target.wrapping_add(r.addend as u64).to_le_bytes();
                let o = r.offset as usize;
                let w = (r.width as usize).min(8);
                if let (Some(dst), Some(src)) = (bytes.get_mut(o..o + w), v.get(..w)) {
                    dst.copy_from_slice(src);
                }
            }
            match self.vars[vi] {
                VarLoc::Const(off) => {
                    let o = off as usize;
                    if let Some(dst) = bank.get_mut(o..o + bytes.len()) {
                        dst.copy_from_slice(&bytes);
                    }
                }
                VarLoc::Global(addr) if !init.relocs.is_empty() => {
                    let _ = global.write(addr, &bytes);
                }
                _ => {}
            }
        }
        self.prog.const_bank = bank;
        // Saturated, not wrapped: a size of 2^32 bytes or more must fail the limits below and at
        // launch instead of passing them modulo 2^32.
        self.frames = frame_end
            .iter()
            .map(|&x| sat_u32(align_up(x, 16)))
            .collect();
        self.prog.local_bytes = sat_u32(align_up(local_end, 16));
        // Kernel infos.
        for (fi, f) in m.functions.iter().enumerate() {
            if f.kind != FuncKind::Entry || f.body.is_none() {
                continue;
            }
            let mut params = Vec::new();
            let declared = f.params.iter().filter_map(|p| match *p {
                IrParam::Var(v) => Some(v),
                IrParam::Reg(_) => None,
            });
            for v in declared.chain(v1_params[fi].iter().copied()) {
                let Some(var) = m.var(v) else { continue };
                let VarLoc::KernelParam(off) = self.vars[v.index()] else {
                    continue;
                };
                let ty = match &var.ty {
                    ir::VarType::Scalar { ty, vector: 1 } => scalar_of(*ty),
                    _ => None,
                };
                params.push(ParamInfo {
                    name: var.name.clone(),
                    offset: off,
                    size: var.size as u32,
                    ty,
                });
            }
            self.prog.kernels.push(KernelInfo {
                func: fi as u32,
                params,
                param_bytes: kparam_end[fi] as u32,
                shared_bytes: sat_u32(dyn_base),
                maxntid: f.perf.maxntid,
                reqntid: f.perf.reqntid,
                cta_dims: f.cta_dims,
            });
        }
        Ok(())
    }

    /// An entry of a PTX 1.x module (whose body `.param`s are its parameters).
    fn is_v1_entry(&self, fi: usize) -> bool {
        self.m.version < ir::PtxVersion::new(2, 0)
            && self
                .m
                .functions
                .get(fi)
                .is_some_and(|f| f.kind == FuncKind::Entry)
    }

    /// The value of a variable's address (space address, or generic with `generic`).
    pub(crate) fn var_value(&self, v: ir::VarId, generic: bool) -> u64 {
        use crate::memory::{CONST_WINDOW, LOCAL_WINDOW, SHARED_WINDOW};
        match self.vars.get(v.index()).copied().unwrap_or(VarLoc::None) {
            VarLoc::Global(a) => a,
            VarLoc::Const(o) => o + if generic { CONST_WINDOW } else { 0 },
            VarLoc::Shared(o) => o + if generic { SHARED_WINDOW } else { 0 },
            VarLoc::Local(o) => o + if generic { LOCAL_WINDOW } else { 0 },
            VarLoc::Frame(o) => o as u64,
            VarLoc::KernelParam(o) => o as u64,
            VarLoc::Tex(t) => t as u64,
            VarLoc::None => 0,
        }
    }

    fn assign_regs(&mut self) {
        let m = self.m;
        self.regs = Vec::with_capacity(m.functions.len());
        for f in &m.functions {
            let mut slots = Vec::with_capacity(f.regs.len());
            for r in &f.regs {
                let reg = self.new_slot(r.ty);
                slots.push(Slot { reg, ty: r.ty });
            }
            self.regs.push(slots);
        }
        for _ in 0..4 {
            let r = self.new_slot(ir::Type::B32);
            if let Reg::R32(r) = r {
                self.scratch32.push(r);
            }
            let r = self.new_slot(ir::Type::B64);
            if let Reg::R64(r) = r {
                self.scratch64.push(r);
            }
            let r = self.new_slot(ir::Type::Pred);
            if let Reg::Pred(r) = r {
                self.scratch_pred.push(r);
            }
        }
        // Scratch predicate 4 holds a predicate immediate (`selp.u16 d, a, b, 1;`).
        if let Reg::Pred(r) = self.new_slot(ir::Type::Pred) {
            self.scratch_pred.push(r);
        }
    }

    /// Which functions can be re-entered on one thread (in a call-graph cycle), and the
    /// deepest frame chain from each kernel.
    fn call_graph(&mut self) {
        let n = self.m.functions.len();
        let mut callees: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (fi, f) in self.m.functions.iter().enumerate() {
            for i in f.insts() {
                if i.op != ir::Opcode::Call {
                    continue;
                }
                for o in &i.operands {
                    if let ir::Operand::Func(g) = o {
                        callees[fi].push(g.index());
                    }
                }
            }
        }
        // Indirect calls may reach any function whose address is taken; treat every
        // non-entry function as a possible target of them.
        let mut recursive = vec![false; n];
        let mut depth = vec![None::<u64>; n];
        fn visit(
            f: usize,
            callees: &[Vec<usize>],
            frames: &[u32],
            on_stack: &mut Vec<bool>,
            recursive: &mut [bool],
            depth: &mut [Option<u64>],
        ) -> u64 {
            if let Some(d) = depth.get(f).copied().flatten() {
                return d;
            }
            on_stack[f] = true;
            let mut best = 0u64;
            for &g in callees.get(f).map_or(&[][..], |v| v.as_slice()) {
                if on_stack.get(g).copied().unwrap_or(false) {
                    for (i, s) in on_stack.iter().enumerate() {
                        if *s {
                            recursive[i] = true;
                        }
                    }
                    continue;
                }
                best = best.max(visit(g, callees, frames, on_stack, recursive, depth));
            }
            on_stack[f] = false;
            let d = frames.get(f).copied().unwrap_or(0) as u64 + best;
            depth[f] = Some(d);
            d
        }
        let mut on_stack = vec![false; n];
        let mut max_depth = 0u64;
        for (fi, f) in self.m.functions.iter().enumerate() {
            if f.kind == FuncKind::Entry {
                let d = visit(
                    fi,
                    &callees,
                    &self.frames,
                    &mut on_stack,
                    &mut recursive,
                    &mut depth,
                );
                max_depth = max_depth.max(d);
            }
        }
        let any_recursive = recursive.iter().any(|&r| r);
        let has_indirect = self.m.functions.iter().any(|f| {
            f.insts().iter().any(|i| {
                i.op == ir::Opcode::Call
                    && !i.operands.iter().any(|o| matches!(o, ir::Operand::Func(_)))
            })
        });
        let stack = if any_recursive || has_indirect {
            max_depth.max(RECURSIVE_STACK_BYTES as u64)
        } else {
            max_depth
        };
        self.prog.frame0 = self.prog.local_bytes;
        self.prog.local_bytes = (self.prog.local_bytes as u64 + stack).min(u32::MAX as u64) as u32;
        for (fi, info) in self.prog.funcs.iter_mut().enumerate() {
            info.recursive = recursive.get(fi).copied().unwrap_or(false) || has_indirect;
        }
    }

    /// Every lane of every resident warp gets its own `.local` frame, so an unbounded per-thread
    /// size would exhaust the host at launch; refuse it at load, naming the largest variable.
    fn check_local_limit(&self) -> Result<(), LoadError> {
        if u64::from(self.prog.local_bytes) <= MAX_LOCAL_BYTES_PER_THREAD {
            return Ok(());
        }
        let biggest = self
            .m
            .vars
            .iter()
            .filter(|v| v.space == IrSpace::Local)
            .max_by_key(|v| v.size);
        let span = biggest.map_or(diag::Span::default(), |v| v.span);
        Err(self.err(
            span,
            format!(
                "the kernels need {} bytes of .local memory per thread; ptxvm's limit is {} (512 KiB, as on NVIDIA GPUs)",
                self.prog.local_bytes, MAX_LOCAL_BYTES_PER_THREAD
            ),
        ))
    }

    fn lower_functions(&mut self) -> Result<(), LoadError> {
        let m = self.m;
        // Entry points first so branch targets can be patched per function.
        let mut bodies: Vec<(usize, Vec<Inst>)> = Vec::new();
        let mut entry = 0u32;
        let mut entries = vec![u32::MAX; m.functions.len()];
        // Two passes: lower each body with local targets, then relocate.
        for (fi, f) in m.functions.iter().enumerate() {
            let Some(body) = &f.body else { continue };
            let (insts, map) = self.lower_body(fi, body)?;
            self.note_reg_uses(fi, body, &map, entry);
            entries[fi] = entry;
            entry += insts.len() as u32;
            bodies.push((fi, relocate(insts, &map)));
        }
        for (fi, f) in m.functions.iter().enumerate() {
            let slots = self.regs.get(fi).cloned().unwrap_or_default();
            let (mut r32, mut r64, mut preds) = (Vec::new(), Vec::new(), Vec::new());
            for s in slots {
                match s.reg {
                    Reg::R32(r) => r32.push(r),
                    Reg::R64(r) => r64.push(r),
                    Reg::Pred(p) => preds.push(p),
                }
            }
            self.prog.funcs.push(FuncInfo {
                name: f.name.clone(),
                entry: entries[fi],
                is_kernel: f.kind == FuncKind::Entry,
                frame_bytes: self.frames.get(fi).copied().unwrap_or(0),
                regs32: r32,
                regs64: r64,
                preds,
                recursive: false,
            });
        }
        for (fi, mut insts) in bodies {
            let base = entries[fi];
            for i in &mut insts {
                match &mut i.op {
                    Op::Bra { target } => *target += base,
                    Op::BrxIdx { targets, .. } => targets.iter_mut().for_each(|t| *t += base),
                    Op::Call { func, .. } => {
                        // Direct calls name the function index; resolved below.
                        let _ = func;
                    }
                    _ => {}
                }
            }
            self.prog.insts.extend(insts);
        }
        Ok(())
    }

    /// Record, for the sanitizer's initcheck, the registers each PTX instruction of a body
    /// reads and writes, at the decoded index where the instruction starts (`base` + `map`).
    fn note_reg_uses(&mut self, fi: usize, body: &[ir::Inst], map: &[u32], base: u32) {
        let slots = self.regs.get(fi).map(Vec::as_slice).unwrap_or(&[]);
        let slot = |r: ir::RegId| slots.get(r.0 as usize).map(|s| s.reg);
        if let Some(f) = self.m.functions.get(fi) {
            for (r, s) in f.regs.iter().zip(slots) {
                self.prog.sanitize.set_name(s.reg, r.name.to_string());
            }
        }
        let uses = &mut self.prog.sanitize.uses;
        for (i, inst) in body.iter().enumerate() {
            let (Some(&at), Some(&next)) = (map.get(i), map.get(i + 1)) else {
                continue;
            };
            if next == at {
                continue;
            }
            let at = (base + at) as usize;
            if uses.len() <= at {
                uses.resize(at + 1, Default::default());
            }
            if let Some(u) = uses.get_mut(at) {
                *u = crate::sanitize::info::reg_use(inst, &slot);
            }
        }
    }

    fn lower_body(
        &mut self,
        fi: usize,
        body: &[ir::Inst],
    ) -> Result<(Vec<Inst>, Vec<u32>), LoadError> {
        let mut out = Vec::with_capacity(body.len() + 1);
        let mut map = Vec::with_capacity(body.len() + 1);
        let entry = self
            .m
            .functions
            .get(fi)
            .is_some_and(|f| f.kind == FuncKind::Entry);
        for inst in body {
            map.push(out.len() as u32);
            self.lower_inst(fi, inst, &mut out)?;
        }
        map.push(out.len() as u32);
        // Falling off the end of a body returns (or exits a kernel).
        let line = body
            .last()
            .map_or(0, |i| self.src.line_col(i.span.start).0 as u32);
        out.push(Inst {
            guard: None,
            op: if entry { Op::Exit } else { Op::Ret },
            line,
            weight: 0,
        });
        Ok((out, map))
    }
}

/// Rewrite body-local branch targets (IR instruction indices) to decoded indices.
fn relocate(mut insts: Vec<Inst>, map: &[u32]) -> Vec<Inst> {
    for i in &mut insts {
        match &mut i.op {
            Op::Bra { target } => *target = map.get(*target as usize).copied().unwrap_or(0),
            Op::BrxIdx { targets, .. } => {
                for t in targets.iter_mut() {
                    *t = map.get(*t as usize).copied().unwrap_or(0);
                }
            }
            _ => {}
        }
    }
    insts
}

pub(crate) fn scalar_of(t: ir::Type) -> Option<Scalar> {
    use ir::Type as T;
    Some(match t {
        T::U8 | T::B8 => Scalar::U8,
        T::S8 => Scalar::S8,
        T::U16 | T::B16 => Scalar::U16,
        T::S16 => Scalar::S16,
        T::U32 | T::B32 | T::U16x2 | T::S16x2 | T::F16x2 | T::Bf16x2 => Scalar::U32,
        T::S32 => Scalar::S32,
        T::U64 | T::B64 => Scalar::U64,
        T::S64 => Scalar::S64,
        T::F16 => Scalar::F16,
        T::F32 => Scalar::F32,
        T::F64 => Scalar::F64,
        T::Pred => Scalar::U32,
        _ => return None,
    })
}

/// Lower a checked module, allocating its `.global` variables in `global`.
pub fn lower_module(
    m: &ir::Module,
    src: &SourceFile,
    global: &mut GlobalMemory,
) -> Result<Program, LoadError> {
    lower_module_with_globals(m, src, global).map(|(prog, _)| prog)
}

/// A module-scope variable as placed by the loader: for `.global` its device address, for
/// `.const` its offset in [`Program::const_bank`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GlobalVar {
    pub name: String,
    pub addr: u64,
    pub size: u64,
    /// `true` for a `.const` variable (`addr` is then an offset in the constant bank).
    pub constant: bool,
}

/// [`lower_module`], also giving where each module-scope `.global` and `.const` variable was
/// placed (the driver API's `cuModuleGetGlobal` looks variables up by name).
pub fn lower_module_with_globals(
    m: &ir::Module,
    src: &SourceFile,
    global: &mut GlobalMemory,
) -> Result<(Program, Vec<GlobalVar>), LoadError> {
    let mut l = Lowerer {
        m,
        src,
        prog: Program {
            file: src.name.clone(),
            insts: Vec::new(),
            funcs: Vec::new(),
            kernels: Vec::new(),
            n_r32: 0,
            n_r64: 0,
            n_pred: 0,
            addr64: m.address_size == ir::AddressSize::Bits64,
            const_bank: Vec::new(),
            local_bytes: 0,
            frame0: 0,
            sanitize: crate::sanitize::ProgramInfo {
                sm: m.target.sm,
                ..Default::default()
            },
        },
        regs: Vec::new(),
        vars: Vec::new(),
        frames: Vec::new(),
        scratch32: Vec::new(),
        scratch64: Vec::new(),
        scratch_pred: Vec::new(),
    };
    l.assign_regs();
    l.layout_vars(global)?;
    l.lower_functions()?;
    l.call_graph();
    l.check_local_limit()?;
    let globals = m
        .globals
        .iter()
        .filter_map(|&v| match (l.vars.get(v.index()), m.var(v)) {
            (Some(&VarLoc::Global(addr)), Some(var)) => Some(GlobalVar {
                name: var.name.clone(),
                addr,
                size: var.size,
                constant: false,
            }),
            (Some(&VarLoc::Const(addr)), Some(var)) if var.const_bank == 0 => Some(GlobalVar {
                name: var.name.clone(),
                addr,
                size: var.size,
                constant: true,
            }),
            _ => None,
        })
        .collect();
    Ok((l.prog, globals))
}
