//! Functions and entries: headers, parameters, prototypes, and the walk over bodies with their
//! `{ }` scopes, register declarations and labels.

use crate::ctx::Checker;
use crate::decl::{ir_linkage, isa_type};
use crate::scope::{FastMap, FuncScope, LocalSym, ModSym};
use diag::{Diagnostic, Span};
use ir::{
    FuncId, FuncKind, InstIdx, Param, PerfDirectives, ProtoId, ProtoParam, Prototype, Reg, RegId,
    RegName, VarId, VarScope,
};
use isa::Type;
use syntax::ast::{self, StateSpace};

/// Registers one function may have after `%r<N>` expansion; more is an error, not an
/// allocation the size of the request.
const MAX_REGS_PER_FUNCTION: usize = 1 << 20;

/// Registers a whole module may declare (after expansion), so many large functions cannot
/// exhaust memory either.
pub(crate) const MAX_REGS_PER_MODULE: u64 = 1 << 21;

/// A `.branchtargets` list: its name, the name's span, its labels with their spans, and the
/// `{ }` block it is declared in (numbered like labels' blocks).
pub(crate) type TargetList<'a> = (&'a str, Span, Vec<(&'a str, Span)>, u32);

/// A `.calltargets` list: its name, the name's span, its function names with their spans, and
/// the `{ }` block it is declared in.
pub(crate) type CallList<'a> = (&'a str, Span, Vec<(&'a str, Span)>, u32);

/// The state of the function body being checked.
pub(crate) struct Body<'a> {
    pub id: FuncId,
    pub scope: FuncScope<'a>,
    pub regs: Vec<Reg>,
    pub locals: Vec<VarId>,
    pub insts: Vec<ir::Inst>,
    /// Each label's first definition, with the `{ }` block it is in (blocks are numbered in
    /// source order, the body itself being 0).
    pub labels: FastMap<&'a str, (InstIdx, Span, u32)>,
    /// Later definitions of a name already defined in another, non-nested block (ptxas scopes
    /// labels by block: NVIDIA's libraries write `waitLoop:` in two sibling blocks).
    /// With each, where it is defined.
    pub sibling_labels: Vec<(&'a str, u32, InstIdx, Span)>,
    /// The blocks enclosing the statement being checked, innermost last, and the number of
    /// blocks entered so far (both follow the numbering of `labels`).
    pub block_stack: Vec<u32>,
    pub blocks_seen: u32,
    pub check_blocks_seen: u32,
    pub label_list: Vec<(String, InstIdx)>,
    pub protos: FastMap<&'a str, ProtoId>,
    /// `name: .branchtargets L1, L2, …;` lists of this body: name, its span, the labels.
    pub target_lists: Vec<TargetList<'a>>,
    /// `name: .calltargets f1, f2, …;` lists of this body: name, its span, the functions.
    pub call_lists: Vec<CallList<'a>>,
    /// `mov`s that give `.reg` declarations their initial values, placed before the body.
    pub reg_inits: Vec<ir::Inst>,
    /// ptx-isa-1.1 entries declare their parameters as `.param` variables in the body.
    pub body_params: Vec<Param>,
    /// How many variables the module had when the body's check began: the body's own come
    /// after.
    pub vars_at_start: usize,
    /// An `.entry` written without a parameter list (ptx-isa-1.1 style): its top-level
    /// `.param` declarations are its parameters.
    pub legacy_entry: bool,
    /// For each instruction the checker inserted (address computations of `a[r]`), the
    /// number of written instructions before it: labels count written instructions only.
    pub setup_insts: Vec<u32>,
}

/// Of the `items` named `name`, the one declared in the innermost block of `chain`.
fn innermost<'l, T>(
    items: &'l [T],
    chain: &[u32],
    key: impl Fn(&T) -> (&str, u32),
    name: &str,
) -> Option<&'l T> {
    chain
        .iter()
        .rev()
        .find_map(|&b| items.iter().find(|it| key(it) == (name, b)))
}

/// The reusable parts of a [`Body`].
#[derive(Default)]
pub(crate) struct Scratch<'a> {
    scope: FuncScope<'a>,
    labels: FastMap<&'a str, (InstIdx, Span, u32)>,
    protos: FastMap<&'a str, ProtoId>,
    /// Without [`Checker::keep_ir`], a body's instruction and register tables are emptied and
    /// reused for the next body instead of being handed to the module.
    insts: Vec<ir::Inst>,
    regs: Vec<Reg>,
    label_list: Vec<(String, InstIdx)>,
}

impl<'a> Body<'a> {
    pub fn new_reg(&mut self, ty: Type, name: RegName) -> RegId {
        let id = RegId(u32::try_from(self.regs.len()).unwrap_or(u32::MAX));
        self.regs.push(Reg { ty, name });
        id
    }
    /// Records that the next instruction pushed was made up by the checker. (In a
    /// diagnostics-only check written instructions are not kept, and these records are wrong
    /// and unused.)
    pub fn note_setup_inst(&mut self) {
        let written = self.insts.len().saturating_sub(self.setup_insts.len());
        self.setup_insts
            .push(u32::try_from(written).unwrap_or(u32::MAX));
    }
    /// The instruction a label names from the current block: the definition in the innermost
    /// enclosing block that has one. Labels are scoped by `{ }` block like variables (ptxas
    /// 12.9 answers a branch to a label of a block that does not enclose it with "Unknown
    /// symbol"), so a name defined only in such blocks resolves to nothing.
    pub fn label(&self, name: &str) -> Option<InstIdx> {
        self.label_from(name, &self.block_stack)
    }
    /// Like [`Body::label`], from the block innermost in `chain` (its enclosing blocks, the
    /// body first).
    pub fn label_from(&self, name: &str, chain: &[u32]) -> Option<InstIdx> {
        let &(first, _, first_block) = self.labels.get(name)?;
        if self.sibling_labels.is_empty() {
            return chain.contains(&first_block).then_some(first);
        }
        for &b in chain.iter().rev() {
            if b == first_block {
                return Some(first);
            }
            if let Some(&(_, _, at, _)) = self
                .sibling_labels
                .iter()
                .find(|&&(n, nb, _, _)| n == name && nb == b)
            {
                return Some(at);
            }
        }
        None
    }
    /// Whether `name` is a label of any block of the body (for messages).
    pub fn has_label_anywhere(&self, name: &str) -> bool {
        self.labels.contains_key(name)
    }
    /// Where label `name` is first defined, in whichever block (for messages).
    pub fn label_declared_at(&self, name: &str) -> Option<Span> {
        self.labels.get(name).map(|l| l.1)
    }
    /// Where label `name` is defined in `block` itself, if it is.
    pub fn label_span_in(&self, name: &str, block: u32) -> Option<Span> {
        match self.labels.get(name) {
            Some(&(_, span, b)) if b == block => Some(span),
            Some(_) => self
                .sibling_labels
                .iter()
                .find(|s| s.0 == name && s.1 == block)
                .map(|s| s.3),
            None => None,
        }
    }
    /// The `.branchtargets` list `name` visible from the current block: the one of the
    /// innermost enclosing block that declares one.
    pub fn target_list(&self, name: &str) -> Option<&TargetList<'a>> {
        innermost(&self.target_lists, &self.block_stack, |l| (l.0, l.3), name)
    }
    /// The `.calltargets` list `name` visible from the current block.
    pub fn call_list(&self, name: &str) -> Option<&CallList<'a>> {
        innermost(&self.call_lists, &self.block_stack, |l| (l.0, l.3), name)
    }
    pub fn reg_ty(&self, r: RegId) -> Option<Type> {
        self.regs.get(r.index()).map(|r| r.ty)
    }
}

impl<'a> Checker<'a> {
    /// Declares an `.entry`/`.func` (header and parameters) at module scope.
    pub(crate) fn declare_function(&mut self, f: &'a ast::Function) -> Option<FuncId> {
        let name = f.name.text(self.src);
        let kind = match f.kind {
            ast::FunctionKind::Entry => FuncKind::Entry,
            ast::FunctionKind::Func => FuncKind::Func,
        };
        if kind == FuncKind::Entry && f.returns.is_some() {
            self.error(f.name.span, "an `.entry` cannot have return parameters");
        }
        let existing = self.syms.get(name);
        let id = match existing {
            Some((ModSym::Func(prev), prev_span)) => {
                let prev_fn = self.functions.get(prev.index());
                let redefinition = self.defined.contains(&prev) && f.body.is_some();
                let kind_differs = prev_fn.is_some_and(|p| p.kind != kind);
                if redefinition || kind_differs {
                    self.push(
                        Diagnostic::error(f.name.span, format!("`{name}` is already defined"))
                            .with_label(prev_span, "previous definition here"),
                    );
                    return None;
                }
                prev
            }
            Some((_, prev_span)) => {
                self.push(
                    Diagnostic::error(f.name.span, format!("`{name}` is already declared"))
                        .with_label(prev_span, "previous declaration here"),
                );
                return None;
            }
            None => {
                let id = FuncId(u32::try_from(self.functions.len()).unwrap_or(u32::MAX));
                self.functions.push(ir::Function::declared(
                    name.to_string(),
                    kind,
                    ir_linkage(f.linkage),
                    f.name.span,
                ));
                self.syms.set(name, ModSym::Func(id), f.name.span);
                id
            }
        };
        if f.body.is_some() {
            self.defined.insert(id);
        }
        let mut regs = Vec::new();
        let (mut ret_lanes, mut param_lanes) = (Vec::new(), Vec::new());
        let rets = self.lower_params(
            id,
            f.returns.as_ref(),
            &mut regs,
            kind,
            (true, &mut ret_lanes),
        );
        let params = self.lower_params(
            id,
            f.params.as_ref(),
            &mut regs,
            kind,
            (false, &mut param_lanes),
        );
        if ret_lanes.iter().chain(&param_lanes).any(|&l| l > 1) {
            self.param_lanes.insert(id, (ret_lanes, param_lanes));
        } else {
            self.param_lanes.remove(&id);
        }
        if existing.is_some() {
            // A declaration followed by its definition: the signatures must agree.
            let prev = self.functions.get(id.index());
            let same =
                prev.is_some_and(|p| p.params.len() == params.len() && p.rets.len() == rets.len());
            if !same {
                self.error(
                    f.name.span,
                    format!("`{name}` does not match its earlier declaration's parameters"),
                );
            }
        }
        let perf = self.lower_perf(&f.attributes);
        let cta_dims = self.lower_cta_dims(&f.cta_dims);
        let linkage = ir_linkage(f.linkage);
        if let Some(func) = self.functions.get_mut(id.index()) {
            func.params = params;
            func.rets = rets;
            func.regs = regs;
            func.perf = perf;
            func.cta_dims = cta_dims;
            if f.body.is_some() || existing.is_none() {
                func.linkage = linkage;
                func.span = f.name.span;
            }
        }
        Some(id)
    }

    fn lower_params(
        &mut self,
        id: FuncId,
        list: Option<&'a ast::ParamList>,
        regs: &mut Vec<Reg>,
        kind: FuncKind,
        (rets, lanes): (bool, &mut Vec<u8>),
    ) -> Vec<Param> {
        let mut out = Vec::new();
        let Some(list) = list else {
            return out;
        };
        for decl in &list.params {
            match decl.space {
                StateSpace::Reg if kind == FuncKind::Func => {
                    for d in &decl.declarators {
                        let Some((ty, n)) = self.param_reg_type(decl) else {
                            continue;
                        };
                        let name = d.name.text(self.src);
                        // A vector parameter is one register per element (`a.x`, `a.y`, …).
                        for c in ["x", "y", "z", "w"].iter().take(usize::from(n)) {
                            let r = RegId(u32::try_from(regs.len()).unwrap_or(u32::MAX));
                            let name = if n > 1 {
                                RegName::new(&format!("{name}.{c}"))
                            } else {
                                RegName::new(name)
                            };
                            regs.push(Reg { ty, name });
                            out.push(Param::Reg(r));
                        }
                        lanes.push(n);
                    }
                }
                StateSpace::Param => {
                    for d in &decl.declarators {
                        lanes.push(1);
                        if let Some(v) = self.lower_variable(decl, d, VarScope::Param(id)) {
                            if d.init.is_some() {
                                self.error(d.span, "parameters cannot have initializers");
                            }
                            out.push(Param::Var(self.new_var(v)));
                        }
                    }
                }
                s => {
                    let what = if rets {
                        "return parameters"
                    } else {
                        "parameters"
                    };
                    let allowed = if kind == FuncKind::Entry {
                        "`.param`"
                    } else {
                        "`.reg` or `.param`"
                    };
                    self.error(
                        decl.space_span,
                        format!("{what} must be {allowed}, not `{}`", s.as_str()),
                    );
                }
            }
        }
        out
    }

    /// The type and element count of a `.reg` parameter: ptxas 12.9 takes `.v2`/`.v4`
    /// vectors of non-predicate types of at most 128 bits (`.func f(.reg .v2 .u32 a)`).
    fn param_reg_type(&mut self, decl: &ast::VariableDecl) -> Option<(Type, u8)> {
        let ts = decl.ty?;
        match ts.base {
            ast::BaseType::Scalar(st) => match isa_type(st) {
                Some(t) => {
                    let n = ts.vector.map_or(1, |v| v.lanes());
                    if n > 1 && (n == 3 || n > 4 || t == Type::Pred) {
                        self.error(
                            ts.span,
                            "a vector register parameter is a `.v2` or `.v4` of a non-predicate \
                             type",
                        );
                        return None;
                    }
                    self.check_decl_type(t, ts.vector, ts.span)
                        .then_some((t, u8::try_from(n).unwrap_or(4)))
                }
                None => {
                    self.error(ts.span, format!("`{}` cannot be a register", st.as_str()));
                    None
                }
            },
            _ => {
                self.error(
                    ts.span,
                    "register parameters must have a fundamental type (ptx-isa-1.1 §9.1 Table 69)",
                );
                None
            }
        }
    }

    fn lower_perf(&mut self, attrs: &'a [ast::FunctionAttribute]) -> PerfDirectives {
        let mut perf = PerfDirectives::default();
        for a in attrs {
            let ast::FunctionAttribute::Performance(p) = a else {
                continue;
            };
            let mut vals = Vec::with_capacity(p.args.len());
            for e in &p.args {
                match self.eval_count(e, "directive argument") {
                    Some(v) => vals.push(u32::try_from(v).unwrap_or(u32::MAX)),
                    None => return perf,
                }
            }
            let dims = |v: &[u32]| -> Option<[u32; 3]> {
                if v.is_empty() || v.len() > 3 {
                    return None;
                }
                Some([
                    v.first().copied().unwrap_or(1),
                    v.get(1).copied().unwrap_or(1),
                    v.get(2).copied().unwrap_or(1),
                ])
            };
            let one = |v: &[u32]| {
                if v.len() == 1 {
                    v.first().copied()
                } else {
                    None
                }
            };
            let ok = match p.kind {
                ast::PerformanceKind::Maxntid => dims(&vals).map(|d| perf.maxntid = Some(d)),
                ast::PerformanceKind::Reqntid => dims(&vals).map(|d| perf.reqntid = Some(d)),
                ast::PerformanceKind::Minnctapersm => {
                    one(&vals).map(|d| perf.minnctapersm = Some(d))
                }
                ast::PerformanceKind::Maxnctapersm => {
                    one(&vals).map(|d| perf.maxnctapersm = Some(d))
                }
                ast::PerformanceKind::Maxnreg => one(&vals).map(|d| perf.maxnreg = Some(d)),
                ast::PerformanceKind::Noreturn => vals.is_empty().then_some(()),
            };
            if ok.is_none() {
                self.error(p.span, "wrong number of arguments for this directive");
            }
        }
        perf
    }

    /// ptx-isa-1.1 §9.1 Table 68: `[NTID.2][NTID.1][NTID.0]`; omitted bracket pairs are 1,
    /// empty ones 0 (known only at run time).
    fn lower_cta_dims(&mut self, dims: &'a [Option<ast::Expr>]) -> Option<[u32; 3]> {
        if dims.is_empty() {
            return None;
        }
        if dims.len() > 3 {
            self.error(
                dims.get(3)
                    .and_then(|d| d.as_ref())
                    .map_or(Span::default(), |e| e.span()),
                "an `.entry` has at most three CTA dimensions",
            );
            return None;
        }
        let mut out = [1u32; 3];
        // Written outermost (NTID.2) first: reverse into x, y, z.
        for (i, d) in dims.iter().rev().enumerate() {
            let v = match d {
                Some(e) => u32::try_from(self.eval_count(e, "CTA dimension")?).unwrap_or(u32::MAX),
                None => 0,
            };
            if let Some(slot) = out.get_mut(i) {
                *slot = v;
            }
        }
        Some(out)
    }

    /// `name: .callprototype (ret) _ (params);` at module scope.
    pub(crate) fn declare_prototype(&mut self, p: &ast::CallPrototype) {
        let Some(id) = self.lower_prototype(p) else {
            return;
        };
        let name = p.name.text(self.src);
        if let Err(prev) = self.syms.declare(name, ModSym::Proto(id), p.name.span) {
            self.push(
                Diagnostic::error(p.name.span, format!("`{name}` is already declared"))
                    .with_label(prev, "previous declaration here"),
            );
        }
    }

    pub(crate) fn lower_prototype(&mut self, p: &ast::CallPrototype) -> Option<ProtoId> {
        let lower = |list: Option<&ast::ParamList>, cx: &mut Checker<'a>| {
            let mut out = Vec::new();
            let mut lanes: Vec<u8> = Vec::new();
            let Some(list) = list else {
                return (out, lanes);
            };
            for decl in &list.params {
                for d in &decl.declarators {
                    // The prototype's parameters are placeholders: lay them out like a
                    // parameter of a function that is never created.
                    if let Some(v) = cx.lower_variable(decl, d, VarScope::Module) {
                        let (ty, n) = match v.ty {
                            ir::VarType::Scalar { ty, vector } => (ty, u64::from(vector.max(1))),
                            _ => (Type::B64, 1),
                        };
                        // A vector `.reg` parameter is one parameter per element, as in a
                        // `.func` declaration (and as calls pass it).
                        let (n, size) = match decl.space {
                            StateSpace::Reg if n > 1 => (n, v.size / n),
                            _ => (1, v.size),
                        };
                        lanes.push(u8::try_from(n).unwrap_or(4));
                        for _ in 0..n {
                            out.push(ProtoParam {
                                ty,
                                size,
                                align: v.align,
                            });
                        }
                    }
                }
            }
            (out, lanes)
        };
        let (rets, ret_lanes) = lower(p.returns.as_ref(), self);
        let (params, param_lanes) = lower(p.params.as_ref(), self);
        let id = ProtoId(u32::try_from(self.prototypes.len()).unwrap_or(u32::MAX));
        if ret_lanes.iter().chain(&param_lanes).any(|&l| l > 1) {
            self.proto_lanes.insert(id, (ret_lanes, param_lanes));
        }
        self.prototypes.push(Prototype {
            name: p.name.text(self.src).to_string(),
            params,
            rets,
            span: p.name.span,
        });
        Some(id)
    }

    /// Checks and lowers the body of a function declared by `declare_function`.
    pub(crate) fn check_function_body(
        &mut self,
        id: FuncId,
        f: &ast::Function,
        stmts: &[ast::Statement],
    ) {
        let Some(func) = self.functions.get(id.index()) else {
            return;
        };
        let mut scratch = self.scratch.take().unwrap_or_default();
        scratch.scope.clear();
        scratch.labels.clear();
        scratch.protos.clear();
        scratch.insts.clear();
        scratch.regs.clear();
        scratch.regs.extend_from_slice(&func.regs);
        scratch.label_list.clear();
        let mut body = Body {
            id,
            scope: scratch.scope,
            regs: scratch.regs,
            locals: Vec::new(),
            insts: scratch.insts,
            labels: scratch.labels,
            sibling_labels: Vec::new(),
            block_stack: vec![0],
            blocks_seen: 0,
            check_blocks_seen: 0,
            label_list: scratch.label_list,
            target_lists: Vec::new(),
            call_lists: Vec::new(),
            protos: scratch.protos,
            reg_inits: Vec::new(),
            body_params: Vec::new(),
            vars_at_start: self.vars.len(),
            legacy_entry: func.kind == FuncKind::Entry && f.params.is_none(),
            setup_insts: Vec::new(),
        };
        // Parameters are visible in the whole body. (Read by index, not cloned: this runs
        // for every function.)
        let n_rets = func.rets.len();
        let n_params = func.params.len();
        let param_decls = f
            .returns
            .iter()
            .chain(f.params.iter())
            .flat_map(|l| &l.params);
        let names = param_decls.flat_map(|d| &d.declarators).map(|d| d.name);
        // Elements per declared name (a vector `.reg` parameter is several IR parameters).
        let lanes: Vec<u8> = match self.param_lanes.get(&id) {
            Some((r, p)) => r.iter().chain(p).copied().collect(),
            None => Vec::new(),
        };
        let mut k = 0usize;
        for (j, name) in names.enumerate() {
            if k >= n_rets + n_params {
                break;
            }
            let n = lanes.get(j).copied().unwrap_or(1);
            let param = self.functions.get(id.index()).and_then(|func| {
                if k < n_rets {
                    func.rets.get(k)
                } else {
                    func.params.get(k - n_rets)
                }
            });
            k += usize::from(n);
            let sym = match param {
                Some(Param::Reg(r)) if n > 1 => LocalSym::VecReg { first: *r, len: n },
                Some(Param::Reg(r)) => LocalSym::Reg(*r),
                Some(Param::Var(v)) => LocalSym::Var(*v),
                None => break,
            };
            let text = name.text(self.src);
            if let Err(prev) = body.scope.declare(text, sym, name.span) {
                self.push(
                    Diagnostic::error(name.span, format!("duplicate parameter `{text}`"))
                        .with_label(prev, "previous declaration here"),
                );
            }
        }
        let mut count = 0u32;
        let mut regs = 0u64;
        self.collect_labels(stmts, &mut body, (&mut count, &mut regs), &mut vec![0]);
        self.check_list_names(&body);
        if self.keep_ir {
            body.insts.reserve_exact(count as usize);
        }
        // `%r<N>` declarations come one after another; reserving once spares the copies of
        // growing the register table through each of them.
        body.regs
            .reserve(usize::try_from(regs).map_or(0, |r| r.min(MAX_REGS_PER_FUNCTION)));
        // Parameters and the body's top-level declarations share one scope: redeclaring a
        // parameter in the body is a duplicate, not a shadow.
        self.check_statements(stmts, &mut body, true);
        self.finish_body(body);
    }

    /// `.branchtargets` and `.calltargets` lists are named like labels: ptxas 12.9 reports a
    /// list named as a label, or as another list of the other kind, as "Duplicate definition
    /// of label" (same-kind duplicates are reported as they are collected).
    fn check_list_names(&mut self, body: &Body<'a>) {
        let branch = body.target_lists.iter().map(|l| (l.0, l.1, l.3));
        let call = body.call_lists.iter().map(|l| (l.0, l.1, l.3));
        let mut seen: Vec<(&str, Span, u32)> = Vec::new();
        for (name, span, block) in branch.chain(call) {
            // Names clash within one `{ }` block only, as labels' do.
            let prev = body.label_span_in(name, block).or_else(|| {
                seen.iter()
                    .find(|s| s.0 == name && s.2 == block)
                    .map(|s| s.1)
            });
            match prev {
                Some(prev) => self.push(
                    Diagnostic::error(
                        span,
                        format!("`{name}` is already defined as a label or list"),
                    )
                    .with_label(prev, "previous definition here"),
                ),
                None => seen.push((name, span, block)),
            }
        }
    }

    /// Labels (and target lists) are collected first so forward branches resolve; each
    /// keeps its `{ }` block, which scopes it. Also
    /// counts the instructions and (roughly: literal `%r<N>` counts) the registers, for
    /// reserving their tables.
    fn collect_labels(
        &mut self,
        stmts: &[ast::Statement],
        body: &mut Body<'a>,
        (count, regs): (&mut u32, &mut u64),
        blocks: &mut Vec<u32>,
    ) {
        let block = blocks.last().copied().unwrap_or(0);
        for s in stmts {
            match s {
                ast::Statement::Instruction(_) => *count = count.saturating_add(1),
                ast::Statement::Variable(v) if v.space == StateSpace::Reg => {
                    for d in &v.declarators {
                        let n = match &d.range {
                            Some(ast::Expr::Int(n)) => n.value,
                            _ => 1,
                        };
                        *regs = regs.saturating_add(n);
                    }
                }
                ast::Statement::Label(l) => {
                    let name = l.name.text(self.src);
                    if body.labels.contains_key(name) {
                        // The same name in another block is another label; in the same
                        // block it is a duplicate.
                        if let Some(prev) = body.label_span_in(name, block) {
                            self.push(
                                Diagnostic::error(l.name.span, format!("duplicate label `{name}`"))
                                    .with_label(prev, "previous definition here"),
                            );
                            continue;
                        }
                        body.sibling_labels
                            .push((name, block, InstIdx(*count), l.name.span));
                        if self.keep_ir {
                            body.label_list.push((name.to_string(), InstIdx(*count)));
                        }
                        continue;
                    }
                    body.labels
                        .insert(name, (InstIdx(*count), l.name.span, block));
                    if self.keep_ir {
                        // The IR's label names, for messages and disassembly.
                        body.label_list.push((name.to_string(), InstIdx(*count)));
                    }
                }
                ast::Statement::Block(b) => {
                    body.blocks_seen += 1;
                    blocks.push(body.blocks_seen);
                    self.collect_labels(&b.statements, body, (&mut *count, &mut *regs), blocks);
                    blocks.pop();
                }
                ast::Statement::BranchTargets(t) => {
                    let name = t.name.text(self.src);
                    if let Some(prev) = body
                        .target_lists
                        .iter()
                        .find(|l| l.0 == name && l.3 == block)
                    {
                        let prev = prev.1;
                        self.push(
                            Diagnostic::error(
                                t.name.span,
                                format!("duplicate `.branchtargets` list `{name}`"),
                            )
                            .with_label(prev, "previous definition here"),
                        );
                        continue;
                    }
                    let labels = t
                        .labels
                        .iter()
                        .map(|l| (l.text(self.src), l.span))
                        .collect();
                    body.target_lists.push((name, t.name.span, labels, block));
                }
                ast::Statement::CallTargets(t) => {
                    let name = t.name.text(self.src);
                    // ptxas 12.9 names lists like labels: "Duplicate definition of label".
                    if let Some(prev) = body.call_lists.iter().find(|l| l.0 == name && l.3 == block)
                    {
                        let prev = prev.1;
                        self.push(
                            Diagnostic::error(
                                t.name.span,
                                format!("duplicate `.calltargets` list `{name}`"),
                            )
                            .with_label(prev, "previous definition here"),
                        );
                        continue;
                    }
                    let funcs = t.funcs.iter().map(|f| (f.text(self.src), f.span)).collect();
                    body.call_lists.push((name, t.name.span, funcs, block));
                }
                _ => {}
            }
        }
    }

    fn check_statements(&mut self, stmts: &[ast::Statement], body: &mut Body<'a>, top: bool) {
        for s in stmts {
            use ast::Statement as S;
            match s {
                S::Instruction(i) => self.check_instruction(body, i),
                S::Label(_) => {}
                S::Block(b) => {
                    body.scope.enter();
                    body.check_blocks_seen += 1;
                    let n = body.check_blocks_seen;
                    body.block_stack.push(n);
                    self.check_statements(&b.statements, body, false);
                    body.block_stack.pop();
                    body.scope.leave();
                }
                S::Variable(v) => self.declare_body_variable(body, v, top),
                S::CallPrototype(p) => {
                    if let Some(pid) = self.lower_prototype(p) {
                        let name = p.name.text(self.src);
                        if body.protos.insert(name, pid).is_some() {
                            self.error(p.name.span, format!("duplicate prototype `{name}`"));
                        }
                    }
                }
                S::Pragma(_) | S::Loc(_) | S::File(_) | S::Data(_) | S::Section(_) => {}
                S::BranchTargets(t) => self.check_branch_targets(body, t),
                S::CallTargets(t) => self.check_call_targets(t),
                S::Struct(st) => self.error(
                    st.span,
                    "`.struct`/`.union` declarations must be at module scope",
                ),
                S::Version(v) => self.error(v.span, "`.version` is not allowed inside a function"),
                S::Target(t) => self.error(t.span, "`.target` is not allowed inside a function"),
                S::AddressSize(a) => {
                    self.error(a.span, "`.address_size` is not allowed inside a function")
                }
                S::Function(f) => self.error(f.name.span, "functions cannot be nested"),
                S::LinkageName(l) => {
                    self.error(l.span, "linkage directives belong at module scope")
                }
            }
        }
    }

    fn declare_body_variable(&mut self, body: &mut Body<'a>, decl: &ast::VariableDecl, top: bool) {
        match decl.space {
            StateSpace::Reg => return self.declare_registers(body, decl),
            StateSpace::Sreg => return self.check_sreg_declaration(decl),
            StateSpace::Surf => {
                self.error(
                    decl.space_span,
                    "`.surf` declarations are not supported: \"Declarations and instructions \
                     using .surf space are not supported\" (ptx-isa-1.1 §10.5.2); PTX ISA 1.5 \
                     and later declare surfaces as `.global .surfref`",
                );
                return;
            }
            _ => {}
        }
        if decl
            .linkage
            .is_some_and(|l| l.kind != ast::LinkageKind::Extern)
        {
            self.error(
                decl.span,
                "variables declared in a function cannot be `.visible`/`.weak`/`.common`",
            );
        }
        // ptx-isa-1.1 §9.1: `.param` declarations in an entry's per-CTA scope are the
        // entry's parameters.
        let entry_param = decl.space == StateSpace::Param && body.legacy_entry && top;
        let scope = if entry_param {
            VarScope::Param(body.id)
        } else {
            VarScope::Body(body.id)
        };
        for d in &decl.declarators {
            let Some(var) = self.lower_variable(decl, d, scope) else {
                continue;
            };
            let id = self.new_var(var);
            let name = d.name.text(self.src);
            if let Err(prev) = body.scope.declare(name, LocalSym::Var(id), d.name.span) {
                self.push(
                    Diagnostic::error(
                        d.name.span,
                        format!("`{name}` is already declared in this scope"),
                    )
                    .with_label(prev, "previous declaration here"),
                );
                continue;
            }
            if let Some(init) = &d.init {
                self.check_initializable(decl, init.span());
                self.lower_module_init(id, init);
            }
            if entry_param {
                body.body_params.push(Param::Var(id));
            } else {
                body.locals.push(id);
            }
        }
    }

    fn declare_registers(&mut self, body: &mut Body<'a>, decl: &ast::VariableDecl) {
        let Some(ts) = decl.ty else {
            self.error(decl.span, "register declaration needs a type");
            return;
        };
        let st = match ts.base {
            ast::BaseType::Scalar(st) => st,
            ast::BaseType::Named(n) => {
                self.error(n.span, "registers must have a fundamental type");
                return;
            }
        };
        let Some(ty) = isa_type(st) else {
            self.error(
                ts.span,
                format!("`{}` cannot be a register type", st.as_str()),
            );
            return;
        };
        if !self.check_decl_type(ty, ts.vector, ts.span) {
            return;
        }
        let lanes = ts.vector.map_or(1, |v| v.lanes());
        if lanes > 4 {
            self.error(ts.span, "register vectors have at most 4 elements");
            return;
        }
        if let Some(a) = &decl.align {
            self.error(a.span(), "`.align` does not apply to registers");
        }
        for d in &decl.declarators {
            let name = d.name.text(self.src);
            if !d.dims.is_empty() {
                self.error(d.span, "registers cannot be arrays");
                continue;
            }
            if let Some(range) = &d.range {
                let Some(n) = self.eval_count(range, "register count") else {
                    continue;
                };
                // `.reg .v4 .u16 %v<3>;` (ptxas takes it): each vector has `lanes` registers.
                let n_regs = n.saturating_mul(u64::from(lanes));
                let total = body
                    .regs
                    .len()
                    .saturating_add(usize::try_from(n_regs).unwrap_or(usize::MAX));
                let module_total = self.regs_declared.saturating_add(n_regs);
                if total > MAX_REGS_PER_FUNCTION || module_total > MAX_REGS_PER_MODULE {
                    self.error(
                        d.span,
                        format!(
                            "too many registers (limits: {MAX_REGS_PER_FUNCTION} per function, {MAX_REGS_PER_MODULE} per module)"
                        ),
                    );
                    continue;
                }
                self.regs_declared = module_total;
                let base = RegId(u32::try_from(body.regs.len()).unwrap_or(u32::MAX));
                let n = u32::try_from(n).unwrap_or(0);
                let lanes8 = u8::try_from(lanes).unwrap_or(4);
                if let Err(prev) = body
                    .scope
                    .declare_vector_range(name, n, base, lanes8, d.span)
                {
                    self.push(
                        Diagnostic::error(
                            d.span,
                            format!("`{name}<N>` is already declared in this scope"),
                        )
                        .with_label(prev, "previous declaration here"),
                    );
                    continue;
                }
                if lanes > 1 {
                    for i in 0..n {
                        Self::new_vector_register(body, ty, &format!("{name}{i}"), lanes);
                    }
                    if d.init.is_some() {
                        self.error(d.span, "parameterized registers cannot have initializers");
                    }
                    continue;
                }
                let first = RegName::indexed(name, 0);
                body.regs.extend((0..n).map(|i| {
                    Reg {
                        ty,
                        name: first
                            .renumbered(i)
                            .unwrap_or_else(|| RegName::indexed(name, i)),
                    }
                }));
                if d.init.is_some() {
                    self.error(d.span, "parameterized registers cannot have initializers");
                }
                continue;
            }
            if body.regs.len() >= MAX_REGS_PER_FUNCTION {
                self.error(
                    d.span,
                    format!("too many registers (limit {MAX_REGS_PER_FUNCTION} per function)"),
                );
                continue;
            }
            let sym = if lanes > 1 {
                Self::new_vector_register(body, ty, name, lanes)
            } else {
                LocalSym::Reg(body.new_reg(ty, RegName::new(name)))
            };
            if let Err(prev) = body.scope.declare(name, sym, d.name.span) {
                self.push(
                    Diagnostic::error(
                        d.name.span,
                        format!("`{name}` is already declared in this scope"),
                    )
                    .with_label(prev, "previous declaration here"),
                );
                continue;
            }
            if let Some(init) = &d.init {
                self.lower_register_init(body, sym, ty, init, d.span);
            }
        }
    }

    /// The element registers of a vector register `name` (`name.x`, `name.y`, …).
    pub(crate) fn new_vector_register(
        body: &mut Body<'a>,
        ty: ir::Type,
        name: &str,
        lanes: u32,
    ) -> LocalSym {
        let first = RegId(u32::try_from(body.regs.len()).unwrap_or(u32::MAX));
        for c in ["x", "y", "z", "w"].iter().take(lanes as usize) {
            body.new_reg(ty, RegName::new(&format!("{name}.{c}")));
        }
        LocalSym::VecReg {
            first,
            len: u8::try_from(lanes).unwrap_or(4),
        }
    }

    fn finish_body(&mut self, mut body: Body<'a>) {
        if !body.setup_insts.is_empty() {
            // A label before written instruction `w` moves down by the inserted instructions
            // placed before `w`, so it lands on the first of `w`'s own setup instructions.
            let setup = std::mem::take(&mut body.setup_insts);
            let shift = |l: u32| l.saturating_add(setup.partition_point(|&w| w < l) as u32);
            for inst in &mut body.insts {
                for op in &mut inst.operands {
                    match op {
                        ir::Operand::Label(l) => l.0 = shift(l.0),
                        ir::Operand::TargetList(ls) => ls.iter_mut().for_each(|l| l.0 = shift(l.0)),
                        _ => {}
                    }
                }
            }
            for (_, l) in &mut body.label_list {
                l.0 = shift(l.0);
            }
        }
        if !body.reg_inits.is_empty() {
            // The initializing movs run first; every label moves down by their number.
            let k = u32::try_from(body.reg_inits.len()).unwrap_or(0);
            for inst in &mut body.insts {
                for op in &mut inst.operands {
                    match op {
                        ir::Operand::Label(l) => l.0 = l.0.saturating_add(k),
                        ir::Operand::TargetList(ls) => {
                            ls.iter_mut().for_each(|l| l.0 = l.0.saturating_add(k))
                        }
                        _ => {}
                    }
                }
            }
            for (_, l) in &mut body.label_list {
                l.0 = l.0.saturating_add(k);
            }
            let mut insts = std::mem::take(&mut body.reg_inits);
            insts.append(&mut body.insts);
            body.insts = insts;
        }
        let Some(func) = self.functions.get_mut(body.id.index()) else {
            return;
        };
        let has_body_params = !body.body_params.is_empty();
        func.params.extend(body.body_params);
        let (insts, regs, label_list) = if self.keep_ir {
            func.locals = body.locals;
            func.regs = body.regs;
            func.labels = body.label_list;
            func.body = Some(body.insts);
            Default::default()
        } else {
            // Only diagnostics are wanted: the function keeps its header (calls to it are
            // still checked against its parameters) and an empty body, and the body's own
            // variables, visible nowhere else, are dropped. (Not those of a 1.1 entry: its
            // top-level `.param` declarations are its parameters.)
            if has_body_params {
                func.locals = body.locals;
            } else {
                self.vars.truncate(body.vars_at_start);
            }
            func.body = Some(Vec::new());
            (body.insts, body.regs, body.label_list)
        };
        self.scratch = Some(Scratch {
            scope: body.scope,
            labels: body.labels,
            protos: body.protos,
            insts,
            regs,
            label_list,
        });
    }
}
