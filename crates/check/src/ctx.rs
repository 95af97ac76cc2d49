//! The checker's state for one module and the module-level pass.

use crate::scope::{FastMap, FastSet, ModuleSyms};
use crate::structs::StructLayout;
use diag::{Diagnostic, SourceFile, Span};
use ir::{AddressSize, FuncId, PtxVersion, Target, VarId};
use std::collections::HashMap;
use syntax::ast;

/// Every form a spelling matches (table order) and whether the first passes the module's
/// gates, or why the spelling matches nothing.
pub(crate) type MatchResult = Result<(std::rc::Rc<[isa::Match]>, bool), isa::MatchError>;

/// Most diagnostics one file produces; the rest are counted as one final error.
pub(crate) const MAX_DIAGNOSTICS: usize = 1000;

/// Everything the checker accumulates while walking one module.
pub(crate) struct Checker<'a> {
    pub file: &'a SourceFile,
    pub src: &'a str,
    pub diags: Vec<Diagnostic>,
    pub version: PtxVersion,
    pub version_seen: Option<Span>,
    pub target: Target,
    pub target_seen: Option<Span>,
    pub address_size: AddressSize,
    pub vars: Vec<ir::Variable>,
    pub globals: Vec<VarId>,
    pub functions: Vec<ir::Function>,
    pub prototypes: Vec<ir::Prototype>,
    pub syms: ModuleSyms<'a>,
    pub structs: HashMap<&'a str, StructLayout>,
    /// Texture ids handed out to `.tex` variables without an explicit `[i]` (1.1 §5.1.8).
    pub next_tex_id: u32,
    /// Instruction spellings already matched against the table: compiler output repeats a
    /// small set of spellings, so this makes table matching nearly free.
    pub match_cache: FastMap<&'a str, MatchResult>,
    /// Module-scope initializers are lowered after every module-scope name is known, so a
    /// variable may be initialised with the address of one declared later.
    pub pending_inits: Vec<(VarId, &'a ast::Initializer)>,
    /// How many elements the initializer list of a one-dimensional array wrote (a call
    /// table must name a function in each of them: a written `0` is not a target, while
    /// the zeros after the list are only padding).
    pub written_elements: FastMap<VarId, usize>,
    /// Set by `lookup_name` when it already reported why a name did not resolve.
    pub reported_lookup: bool,
    /// Per-function tables kept between functions so their allocations are reused.
    pub scratch: Option<crate::func::Scratch<'a>>,
    /// Registers declared so far by `%r<N>` declarations (module-wide budget).
    pub regs_declared: u64,
    /// Initializer bytes built so far (module-wide budget).
    pub init_bytes: u64,
    /// Functions whose body has been seen (a second body is a redefinition).
    pub defined: FastSet<FuncId>,
    /// Whether function bodies are lowered into the module (`false` when only the
    /// diagnostics are wanted: each body's IR is then dropped once it is checked).
    pub keep_ir: bool,
    /// For functions with vector `.reg` parameters (`.func f(.reg .v2 .u32 a)`): the elements
    /// of each declared return value and parameter. Such a parameter is one IR register per
    /// element, so calls and `ret` need nothing new; the checker keeps the grouping to bind
    /// names and check calls.
    pub param_lanes: FastMap<FuncId, (Vec<u8>, Vec<u8>)>,
    /// The same for `.callprototype`s with vector `.reg` parameters.
    pub proto_lanes: FastMap<ir::ProtoId, (Vec<u8>, Vec<u8>)>,
    /// Call argument lists that name vector registers: the list's span and the elements of
    /// each written argument (the lowered list has one operand per element).
    pub list_lanes: Vec<(Span, Vec<u8>)>,
}

impl<'a> Checker<'a> {
    pub fn new(file: &'a SourceFile) -> Self {
        Checker {
            file,
            src: &file.text,
            diags: Vec::new(),
            version: PtxVersion::new(1, 0),
            version_seen: None,
            target: Target::default(),
            target_seen: None,
            address_size: AddressSize::Bits32,
            vars: Vec::new(),
            globals: Vec::new(),
            functions: Vec::new(),
            prototypes: Vec::new(),
            syms: ModuleSyms::default(),
            structs: HashMap::new(),
            next_tex_id: 0,
            match_cache: FastMap::default(),
            pending_inits: Vec::new(),
            written_elements: FastMap::default(),
            param_lanes: FastMap::default(),
            proto_lanes: FastMap::default(),
            list_lanes: Vec::new(),
            defined: Default::default(),
            regs_declared: 0,
            init_bytes: 0,
            scratch: None,
            reported_lookup: false,
            keep_ir: true,
        }
    }

    pub fn text(&self, span: Span) -> &'a str {
        ast::span_text(self.src, span)
    }

    pub fn error(&mut self, span: Span, msg: impl Into<String>) {
        self.push(Diagnostic::error(span, msg));
    }

    pub fn warn(&mut self, span: Span, msg: impl Into<String>) {
        self.push(Diagnostic::warning(span, msg));
    }

    /// Records a diagnostic. After [`MAX_DIAGNOSTICS`] the rest are dropped (one final error
    /// says so), so a huge broken file cannot turn into gigabytes of messages.
    pub fn push(&mut self, d: Diagnostic) {
        if self.diags.len() < MAX_DIAGNOSTICS {
            self.diags.push(d);
        } else if self.diags.len() == MAX_DIAGNOSTICS {
            self.diags.push(Diagnostic::error(
                d.span,
                format!("too many problems: stopping after {MAX_DIAGNOSTICS} diagnostics"),
            ));
        }
    }

    pub fn has_errors(&self) -> bool {
        diag::has_errors(&self.diags)
    }

    /// The module pass: directives and declarations in order, then function bodies.
    pub fn check(&mut self, module: &'a ast::Module) {
        self.check_detached(module, Vec::new());
    }

    /// [`Checker::check`] for a module whose function bodies were moved out into `detached`
    /// (by top-level statement index; see [`detach_bodies`]): each body is dropped as soon as
    /// it is checked, so the IR reuses its memory instead of adding to the syntax tree's.
    pub fn check_detached(
        &mut self,
        module: &'a ast::Module,
        mut detached: Vec<Option<Vec<ast::Statement>>>,
    ) {
        let complete = self.check_with_bodies(module, |i, _| {
            match detached.get_mut(i).and_then(Option::take) {
                Some(stmts) => BodySource::Owned(stmts),
                None => BodySource::Tree,
            }
        });
        debug_assert!(complete);
    }

    /// The module pass, with each function body's statements supplied by `body_of` (given
    /// the function's top-level statement index). Returns false when a body was
    /// [`BodySource::Unparsable`]: the check stopped there, and the checker's state is
    /// meaningless.
    pub fn check_with_bodies(
        &mut self,
        module: &'a ast::Module,
        body_of: impl FnMut(usize, &'a ast::Function) -> BodySource,
    ) -> bool {
        self.check_with_bodies_then(module, body_of, &mut |_, _| {})
    }

    /// [`Checker::check_with_bodies`], calling `then` once the module level is checked (with
    /// the functions whose bodies follow, in checking order) and after each body.
    pub fn check_with_bodies_then(
        &mut self,
        module: &'a ast::Module,
        mut body_of: impl FnMut(usize, &'a ast::Function) -> BodySource,
        then: &mut dyn FnMut(&mut Self, Checked),
    ) -> bool {
        self.check_header(&module.statements, module.span);
        self.reserve_module_tables(&module.statements);
        let mut bodies: Vec<(FuncId, &'a ast::Function, usize)> = Vec::new();
        let mut anonymous: Vec<&'a ast::Statement> = Vec::new();
        for (i, stmt) in module.statements.iter().enumerate() {
            self.check_module_statement(stmt, i, &mut bodies, &mut anonymous);
        }
        let pending = std::mem::take(&mut self.pending_inits);
        for (var, init) in pending {
            self.lower_module_init(var, init);
        }
        let order: Vec<FuncId> = bodies.iter().map(|&(id, _, _)| id).collect();
        then(self, Checked::ModuleLevel(&order));
        for (id, f, i) in bodies {
            match body_of(i, f) {
                BodySource::Unparsable => return false,
                BodySource::Owned(stmts) => self.check_function_body(id, f, &stmts),
                BodySource::Tree => {
                    if let Some(b) = &f.body {
                        self.check_function_body(id, f, &b.statements);
                    }
                }
            }
            then(self, Checked::Body(id));
        }
        if !anonymous.is_empty() {
            self.check_anonymous_entry(&anonymous);
        }
        true
    }

    /// Sizes the variable and function tables for the module level (a `Variable` is large,
    /// and growing a table of a hundred thousand of them copied it again and again).
    fn reserve_module_tables(&mut self, stmts: &[ast::Statement]) {
        let (mut funcs, mut vars) = (0usize, 0usize);
        for s in stmts {
            match s {
                ast::Statement::Function(f) => {
                    funcs += 1;
                    let lists = f.returns.iter().chain(f.params.iter());
                    vars += lists
                        .flat_map(|l| &l.params)
                        .map(|d| d.declarators.len())
                        .sum::<usize>();
                }
                ast::Statement::Variable(v) => vars += v.declarators.len(),
                _ => {}
            }
        }
        self.functions.reserve(funcs);
        // Room for the variables of a few bodies besides (a diagnostics-only check drops each
        // body's own when the body is done, so the table never grows past that).
        self.vars.reserve(vars.saturating_add(256));
    }

    fn check_module_statement(
        &mut self,
        stmt: &'a ast::Statement,
        index: usize,
        bodies: &mut Vec<(FuncId, &'a ast::Function, usize)>,
        anonymous: &mut Vec<&'a ast::Statement>,
    ) {
        use ast::Statement as S;
        match stmt {
            // The header was checked by `check_header`.
            S::Version(_) | S::Target(_) | S::AddressSize(_) => {}
            S::Function(f) => {
                if let Some(id) = self.declare_function(f) {
                    if f.body.is_some() {
                        bodies.push((id, f, index));
                    }
                }
            }
            // Module-level registers belong to the anonymous entry (see `anonymous.rs`).
            S::Variable(v) if v.space == ast::StateSpace::Reg => anonymous.push(stmt),
            S::Variable(v) => self.declare_module_variable(v),
            S::Struct(s) => self.declare_struct(s),
            S::CallPrototype(p) => self.declare_prototype(p),
            S::BranchTargets(t) => self.error(
                t.span,
                "`.branchtargets` lists belong inside the function whose labels they name",
            ),
            // ptxas 12.9 answers a module-scope list with "syntax error".
            S::CallTargets(t) => self.error(
                t.span,
                "`.calltargets` lists belong inside the function whose calls use them",
            ),
            // Debug and metadata directives carry nothing the IR needs.
            S::Pragma(_) | S::File(_) | S::Loc(_) | S::Section(_) | S::Data(_) => {}
            S::LinkageName(l) => self.check_linkage_name(l),
            // ptx-isa-1.1 §9.1 Table 68: instructions outside any .entry/.func form an
            // anonymous entry point.
            S::Instruction(_) | S::Label(_) | S::Block(_) => anonymous.push(stmt),
        }
    }

    /// 1.1 §9.3 `.extern foo` / `.visible foo`: the name must be declared somewhere in the
    /// module (its linkage is recorded on the declaration).
    fn check_linkage_name(&mut self, l: &'a ast::LinkageName) {
        let name = l.name.text(self.src);
        if self.syms.get(name).is_none() {
            self.warn(
                l.name.span,
                format!("`{name}` is not declared before this linkage directive"),
            );
        }
    }

    pub fn finish(mut self) -> (Option<ir::Module>, Vec<Diagnostic>) {
        // Keep the diagnostics in source order; the checker visits bodies after declarations.
        self.diags.sort_by_key(|d| d.span.start);
        if self.has_errors() {
            return (None, self.diags);
        }
        let module = ir::Module {
            source_name: self.file.name.clone(),
            version: self.version,
            target: self.target,
            address_size: self.address_size,
            vars: self.vars,
            globals: self.globals,
            functions: self.functions,
            prototypes: self.prototypes,
        };
        (Some(module), self.diags)
    }

    pub fn new_var(&mut self, var: ir::Variable) -> VarId {
        let id = VarId(u32::try_from(self.vars.len()).unwrap_or(u32::MAX));
        self.vars.push(var);
        id
    }
}

/// How far [`Checker::check_with_bodies_then`] got.
pub(crate) enum Checked<'o> {
    /// Directives and declarations; the bodies of these functions follow, in this order.
    ModuleLevel(&'o [FuncId]),
    /// The body of this function.
    Body(FuncId),
}

/// Where the module pass gets the statements of a function body.
pub(crate) enum BodySource {
    /// In the syntax tree.
    Tree,
    /// Moved out of the tree or parsed apart; dropped once checked.
    Owned(Vec<ast::Statement>),
    /// The body does not parse cleanly: stop, the module must be checked another way.
    Unparsable,
}

/// Moves the statements of every function body out of `module`, leaving empty blocks (so the
/// functions still have bodies), indexed by top-level statement.
pub(crate) fn detach_bodies(module: &mut ast::Module) -> Vec<Option<Vec<ast::Statement>>> {
    module
        .statements
        .iter_mut()
        .map(|s| match s {
            ast::Statement::Function(f) => {
                f.body.as_mut().map(|b| std::mem::take(&mut b.statements))
            }
            _ => None,
        })
        .collect()
}
