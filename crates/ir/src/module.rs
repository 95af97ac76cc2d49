//! The module: what a whole `.ptx` file checks to.

use crate::{FuncId, Function, ProtoId, Prototype, PtxVersion, Space, VarId, VarType, Variable};

/// A checked, fully resolved PTX module.
///
/// Everything an executor or code generator touches is a handle or a decoded value; names are
/// kept beside for messages only.
#[derive(Clone, Debug, PartialEq)]
pub struct Module {
    /// The file name the module was read from (for messages: `file:line`).
    pub source_name: String,
    /// `.version major.minor`.
    pub version: PtxVersion,
    /// `.target` (the checker supplies a default and warns when the directive is missing).
    pub target: Target,
    /// `.address_size 32|64`; 32 when the directive is absent (ptx-isa-1.1 has no such
    /// directive and its addresses are 32-bit).
    pub address_size: AddressSize,
    /// Every variable of the module: module scope, parameters and function-body declarations.
    pub vars: Vec<Variable>,
    /// The module-scope variables in declaration order (a subset of `vars`).
    pub globals: Vec<VarId>,
    /// Entries and functions in declaration order. A prototype declared and later defined is
    /// one function (the definition fills in the body).
    pub functions: Vec<Function>,
    /// `.callprototype` declarations, referenced by indirect calls.
    pub prototypes: Vec<Prototype>,
}

impl Module {
    pub fn var(&self, id: VarId) -> Option<&Variable> {
        self.vars.get(id.index())
    }
    /// The texture unit a `.tex`/`.texref` variable is bound to at launch: a `.tex` variable's
    /// id (`.tex[i]`, or assigned sequentially, ptx-isa-1.1 §5.1.8); for a `.texref`, its
    /// position among the module's texture references (ptxvm's binding convention, see
    /// docs/spec-notes.md). `None` for any other variable.
    pub fn texture_slot(&self, v: VarId) -> Option<u32> {
        let var = self.var(v)?;
        if let Some(id) = var.tex_id {
            return Some(id);
        }
        let is_texref =
            |x: &Variable| x.ty == VarType::Opaque && x.tex_id.is_none() && x.space != Space::Surf;
        if !is_texref(var) {
            return None;
        }
        self.globals
            .iter()
            .filter(|g| self.var(**g).is_some_and(is_texref))
            .position(|g| *g == v)
            .map(|p| p as u32)
    }
    pub fn function(&self, id: FuncId) -> Option<&Function> {
        self.functions.get(id.index())
    }
    pub fn prototype(&self, id: ProtoId) -> Option<&Prototype> {
        self.prototypes.get(id.index())
    }
    /// The function with this name (linear search: for tools and tests, not hot paths).
    pub fn function_by_name(&self, name: &str) -> Option<FuncId> {
        self.functions
            .iter()
            .position(|f| f.name == name)
            .and_then(|i| u32::try_from(i).ok())
            .map(FuncId)
    }
    /// The `.entry` kernels in declaration order.
    pub fn entries(&self) -> impl Iterator<Item = (FuncId, &Function)> {
        self.functions
            .iter()
            .enumerate()
            .filter(|(_, f)| f.kind == crate::FuncKind::Entry)
            .filter_map(|(i, f)| u32::try_from(i).ok().map(|i| (FuncId(i), f)))
    }
}

/// The `.target` directive, decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// The architecture number: `sm_61` and `compute_61` → 61; `sm_90a` → 90.
    pub sm: u32,
    /// `sm_90a`-style architecture-specific suffix (`a` or `f`), if any.
    pub arch_suffix: Option<char>,
    /// `map_f64_to_f32`: double-precision instructions are executed in single precision
    /// (ptx-isa-1.1 §9.3 `.target`).
    pub map_f64_to_f32: bool,
    /// `texmode_unified` (the default) or `texmode_independent`.
    pub texmode: TexMode,
    /// `debug` was listed.
    pub debug: bool,
}

impl Default for Target {
    fn default() -> Self {
        Target {
            sm: 10,
            arch_suffix: None,
            map_f64_to_f32: false,
            texmode: TexMode::Unified,
            debug: false,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum TexMode {
    #[default]
    Unified,
    Independent,
}

/// `.address_size`: the width of addresses and of generic pointers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum AddressSize {
    #[default]
    Bits32,
    Bits64,
}

impl AddressSize {
    pub fn bits(self) -> u32 {
        match self {
            AddressSize::Bits32 => 32,
            AddressSize::Bits64 => 64,
        }
    }
    pub fn bytes(self) -> u64 {
        u64::from(self.bits() / 8)
    }
}
