//! The PTX abstract syntax tree.
//!
//! The tree mirrors the text, not its meaning: the parser knows the grammar of directives,
//! declarations and operands, but not what an opcode or a modifier does. The checker gives
//! meaning to opcodes, modifiers, names and constant expressions.
//!
//! Every node carries a [`Span`] into the source file it was parsed from. Names are never copied:
//! an [`Ident`] is a span, and `ident.text(src)` borrows the name from the source text. All
//! `text`/iterator helpers take the source text (`&file.text`) for that reason.
//!
//! Equality: the derived `PartialEq` compares spans too. To compare two trees parsed from
//! different texts (e.g. a file and its `fmt` output) use [`crate::same_module`], which ignores
//! spans and compares names by text.

use diag::Span;

/// A whole `.ptx` file: its top-level statements in source order.
#[derive(Clone, Debug, PartialEq)]
pub struct Module {
    pub statements: Vec<Statement>,
    pub span: Span,
}

/// An identifier (register, variable, label, function, struct or target name). The text is
/// `&src[span]`; it may begin with `%` or `$` (spec 1.1 §4.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ident {
    pub span: Span,
}

impl Ident {
    #[inline]
    pub fn text<'s>(&self, src: &'s str) -> &'s str {
        span_text(src, self.span)
    }
}

/// The source text of a span (empty if the span does not fit the text).
#[inline]
pub fn span_text(src: &str, span: Span) -> &str {
    src.get(span.range()).unwrap_or("")
}

/// A name as used in an operand or expression, with the dotted suffix written directly after
/// it: `%tid.x`, `r.b0`, `v.xyzw`, `p.field.x`, `%r1` (no suffix).
///
/// The parser does not decide whether a suffix is a vector element, a swizzle, a video
/// selector or a struct member: that needs declarations, so it is the checker's job.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Name {
    pub ident: Ident,
    /// The suffix including its leading dot (`.x`, `.b7654`, `.field.x`), or `None`.
    pub suffix: Option<Span>,
}

impl Name {
    /// The whole name as written, suffix included (`%tid.x`).
    pub fn text<'s>(&self, src: &'s str) -> &'s str {
        span_text(src, self.span())
    }

    #[inline]
    pub fn span(&self) -> Span {
        match self.suffix {
            Some(s) => self.ident.span.to(s),
            None => self.ident.span,
        }
    }
    /// The components of the suffix without their dots: `"x"` for `%tid.x`,
    /// `"field", "x"` for `p.field.x`, each with its span (which excludes the dot).
    pub fn suffix_parts<'s>(&self, src: &'s str) -> DottedParts<'s> {
        match self.suffix {
            Some(s) => DottedParts::new(src, s),
            None => DottedParts::empty(src),
        }
    }
}

/// A statement: a directive, declaration, label, instruction or `{ }` block. The same type is
/// used at module level and inside bodies; the checker reports statements in the wrong place
/// (e.g. an `.entry` inside a body is a parse error, but an instruction at module level —
/// which 1.1 §9.1 allows as the anonymous entry — is left to the checker).
#[derive(Clone, Debug, PartialEq)]
pub enum Statement {
    /// `.version major.minor`
    Version(Version),
    /// `.target sm_20, map_f64_to_f32, texmode_unified, debug`
    Target(Target),
    /// `.address_size 32|64`
    AddressSize(AddressSize),
    /// `.entry` or `.func`, with or without a body.
    Function(Box<Function>),
    /// A variable declaration in any state space (module level or in a body). Boxed because
    /// it is large and instructions, the common statement, are small.
    Variable(Box<VariableDecl>),
    /// `.struct name { … };` / `.union name { … };`
    Struct(StructDecl),
    /// `name:` — a label; in bodies it labels the next instruction.
    Label(Label),
    /// `[@[!]p] opcode{.mod}* operands;`
    Instruction(Instruction),
    /// `{ … }` — an instruction group / nested scope.
    Block(Block),
    /// `name: .callprototype (ret) _ (params);`
    CallPrototype(Box<CallPrototype>),
    /// `name: .branchtargets L1, L2, …;`
    BranchTargets(Box<BranchTargets>),
    /// `name: .calltargets f1, f2, …;`
    CallTargets(Box<CallTargets>),
    /// `.pragma "string", …;`
    Pragma(Pragma),
    /// `.file N "name" {, timestamp, size}` (1.1: `.file "name"`).
    File(FileDirective),
    /// `.loc file line column {, key value}`
    Loc(Loc),
    /// `.section name, attrs…` or `.section name { data }`
    Section(Section),
    /// `.byte 1, 2, 3` and data lines inside sections (`.b8`, `.b16`, `.b32`, `.b64`, …).
    Data(Data),
    /// 1.1 §9.3: `.extern foo` / `.visible foo` (linkage of a name declared elsewhere).
    LinkageName(LinkageName),
}

impl Statement {
    /// The source range of the whole statement.
    pub fn span(&self) -> Span {
        match self {
            Statement::Version(x) => x.span,
            Statement::Target(x) => x.span,
            Statement::AddressSize(x) => x.span,
            Statement::Function(x) => x.span,
            Statement::Variable(x) => x.span,
            Statement::Struct(x) => x.span,
            Statement::Label(x) => x.span,
            Statement::Instruction(x) => x.span,
            Statement::Block(x) => x.span,
            Statement::CallPrototype(x) => x.span,
            Statement::BranchTargets(x) => x.span,
            Statement::CallTargets(x) => x.span,
            Statement::Pragma(x) => x.span,
            Statement::File(x) => x.span,
            Statement::Loc(x) => x.span,
            Statement::Section(x) => x.span,
            Statement::Data(x) => x.span,
            Statement::LinkageName(x) => x.span,
        }
    }
}

/// `.version major.minor`
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Version {
    pub major: u32,
    pub minor: u32,
    pub span: Span,
}

/// `.target a, b, c` — the target specifiers as written (`sm_20`, `compute_10`,
/// `map_f64_to_f32`, `texmode_unified`, `texmode_independent`, `debug`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    pub targets: Vec<Ident>,
    pub span: Span,
}

/// `.address_size N` (the checker accepts 32 and 64).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AddressSize {
    pub size: IntLit,
    pub span: Span,
}

/// `.entry` or `.func`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FunctionKind {
    Entry,
    Func,
}

/// Linkage / visibility directive in front of a declaration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LinkageKind {
    Extern,
    Visible,
    Weak,
    Common,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Linkage {
    pub kind: LinkageKind,
    pub span: Span,
}

/// An `.entry` or `.func` definition or declaration.
///
/// ```text
/// [linkage] .entry name [dims]* [(params)] {perf-directive}* ( { body } | ; )
/// [linkage] .func [(returns)] name [(params)] {perf-directive}* ( { body } | ; )
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    pub linkage: Option<Linkage>,
    pub kind: FunctionKind,
    /// Span of the `.entry`/`.func` keyword.
    pub kind_span: Span,
    pub name: Ident,
    /// `.func (.reg .b32 r) f …` — `None` when there are no return parentheses.
    pub returns: Option<ParamList>,
    /// `None` when the name is not followed by parentheses (1.1 style).
    pub params: Option<ParamList>,
    /// 1.1 §9.1 CTA dimensions `.entry k [NTID.2][NTID.1][NTID.0]`, in source order
    /// (outermost first); `None` for an empty bracket pair `[]`.
    pub cta_dims: Vec<Option<Expr>>,
    /// `.maxntid`, `.reqntid`, `.minnctapersm`, `.maxnreg`, `.maxnctapersm`, `.noreturn`,
    /// `.pragma` and the cluster directives written between the header and the body, in
    /// source order.
    pub attributes: Vec<FunctionAttribute>,
    /// `None` for a prototype/declaration ending in `;`.
    pub body: Option<Block>,
    pub span: Span,
}

/// A parenthesised parameter list `( decl, decl, … )`.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamList {
    pub params: Vec<VariableDecl>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum FunctionAttribute {
    Performance(PerformanceDirective),
    Pragma(Pragma),
    /// `.explicitcluster`, `.reqnctapercluster X, Y, Z`, `.maxclusterrank N` (sm_90 thread-block
    /// clusters).
    Cluster(ClusterDirective),
}

impl FunctionAttribute {
    pub fn span(&self) -> Span {
        match self {
            FunctionAttribute::Performance(p) => p.span,
            FunctionAttribute::Pragma(p) => p.span,
            FunctionAttribute::Cluster(c) => c.span,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClusterKind {
    Explicitcluster,
    Reqnctapercluster,
    Maxclusterrank,
}

impl ClusterKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ClusterKind::Explicitcluster => ".explicitcluster",
            ClusterKind::Reqnctapercluster => ".reqnctapercluster",
            ClusterKind::Maxclusterrank => ".maxclusterrank",
        }
    }
}

/// A cluster directive and its (constant expression) arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct ClusterDirective {
    pub kind: ClusterKind,
    pub args: Vec<Expr>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PerformanceKind {
    Maxntid,
    Reqntid,
    Minnctapersm,
    Maxnreg,
    Maxnctapersm,
    Noreturn,
}

/// `.maxntid 256, 1, 1` and friends: the directive and its (constant expression) arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct PerformanceDirective {
    pub kind: PerformanceKind,
    pub args: Vec<Expr>,
    pub span: Span,
}

/// `name: .branchtargets L1, L2, …;` — the label names the list `brx.idx` indexes.
#[derive(Clone, Debug, PartialEq)]
pub struct BranchTargets {
    pub name: Ident,
    pub labels: Vec<Ident>,
    pub span: Span,
}

/// `name: .calltargets f1, f2, …;` — the label names the list of functions an indirect
/// `call` through it may reach (PTX ISA §9.7.12.5, `call`'s `flist` operand).
#[derive(Clone, Debug, PartialEq)]
pub struct CallTargets {
    pub name: Ident,
    pub funcs: Vec<Ident>,
    pub span: Span,
}

/// `name: .callprototype [(ret)] _ (params) [.noreturn];` — the label is the prototype's name.
#[derive(Clone, Debug, PartialEq)]
pub struct CallPrototype {
    pub name: Ident,
    pub returns: Option<ParamList>,
    /// The placeholder written where a function name would go (normally `_`).
    pub placeholder: Ident,
    pub params: Option<ParamList>,
    pub attributes: Vec<FunctionAttribute>,
    pub span: Span,
}

/// `{ statements }`
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    pub statements: Vec<Statement>,
    pub span: Span,
}

/// `name:`
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Label {
    pub name: Ident,
    pub span: Span,
}

/// State spaces, spelled as in spec 1.1 Table 4.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StateSpace {
    Reg,
    Sreg,
    Const,
    Global,
    Local,
    Param,
    Shared,
    Surf,
    Tex,
}

impl StateSpace {
    pub fn as_str(self) -> &'static str {
        match self {
            StateSpace::Reg => ".reg",
            StateSpace::Sreg => ".sreg",
            StateSpace::Const => ".const",
            StateSpace::Global => ".global",
            StateSpace::Local => ".local",
            StateSpace::Param => ".param",
            StateSpace::Shared => ".shared",
            StateSpace::Surf => ".surf",
            StateSpace::Tex => ".tex",
        }
    }
    pub fn from_directive(s: &str) -> Option<StateSpace> {
        Some(match s {
            ".reg" => StateSpace::Reg,
            ".sreg" => StateSpace::Sreg,
            ".const" => StateSpace::Const,
            ".global" => StateSpace::Global,
            ".local" => StateSpace::Local,
            ".param" => StateSpace::Param,
            ".shared" => StateSpace::Shared,
            ".surf" => StateSpace::Surf,
            ".tex" => StateSpace::Tex,
            _ => return None,
        })
    }
}

/// Fundamental types (spec 1.1 Table 6) plus the types later PTX versions added, and the
/// opaque handle types. The parser accepts all; the checker gates them by `.version`/`.target`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScalarType {
    S8,
    S16,
    S32,
    S64,
    U8,
    U16,
    U32,
    U64,
    F16,
    F16x2,
    Bf16,
    Bf16x2,
    Tf32,
    F32,
    F64,
    B8,
    B16,
    B32,
    B64,
    B128,
    Pred,
    Texref,
    Samplerref,
    Surfref,
}

impl ScalarType {
    /// All types, for tables and tests.
    pub const ALL: [ScalarType; 24] = [
        ScalarType::S8,
        ScalarType::S16,
        ScalarType::S32,
        ScalarType::S64,
        ScalarType::U8,
        ScalarType::U16,
        ScalarType::U32,
        ScalarType::U64,
        ScalarType::F16,
        ScalarType::F16x2,
        ScalarType::Bf16,
        ScalarType::Bf16x2,
        ScalarType::Tf32,
        ScalarType::F32,
        ScalarType::F64,
        ScalarType::B8,
        ScalarType::B16,
        ScalarType::B32,
        ScalarType::B64,
        ScalarType::B128,
        ScalarType::Pred,
        ScalarType::Texref,
        ScalarType::Samplerref,
        ScalarType::Surfref,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ScalarType::S8 => ".s8",
            ScalarType::S16 => ".s16",
            ScalarType::S32 => ".s32",
            ScalarType::S64 => ".s64",
            ScalarType::U8 => ".u8",
            ScalarType::U16 => ".u16",
            ScalarType::U32 => ".u32",
            ScalarType::U64 => ".u64",
            ScalarType::F16 => ".f16",
            ScalarType::F16x2 => ".f16x2",
            ScalarType::Bf16 => ".bf16",
            ScalarType::Bf16x2 => ".bf16x2",
            ScalarType::Tf32 => ".tf32",
            ScalarType::F32 => ".f32",
            ScalarType::F64 => ".f64",
            ScalarType::B8 => ".b8",
            ScalarType::B16 => ".b16",
            ScalarType::B32 => ".b32",
            ScalarType::B64 => ".b64",
            ScalarType::B128 => ".b128",
            ScalarType::Pred => ".pred",
            ScalarType::Texref => ".texref",
            ScalarType::Samplerref => ".samplerref",
            ScalarType::Surfref => ".surfref",
        }
    }

    /// Parses a type directive including its dot (`".u32"`).
    pub fn from_directive(s: &str) -> Option<ScalarType> {
        // A `match` (not a search of `ALL` by `as_str`): the compiler dispatches on length and
        // bytes, and this runs for every declaration and parameter.
        Some(match s {
            ".s8" => ScalarType::S8,
            ".s16" => ScalarType::S16,
            ".s32" => ScalarType::S32,
            ".s64" => ScalarType::S64,
            ".u8" => ScalarType::U8,
            ".u16" => ScalarType::U16,
            ".u32" => ScalarType::U32,
            ".u64" => ScalarType::U64,
            ".f16" => ScalarType::F16,
            ".f16x2" => ScalarType::F16x2,
            ".bf16" => ScalarType::Bf16,
            ".bf16x2" => ScalarType::Bf16x2,
            ".tf32" => ScalarType::Tf32,
            ".f32" => ScalarType::F32,
            ".f64" => ScalarType::F64,
            ".b8" => ScalarType::B8,
            ".b16" => ScalarType::B16,
            ".b32" => ScalarType::B32,
            ".b64" => ScalarType::B64,
            ".b128" => ScalarType::B128,
            ".pred" => ScalarType::Pred,
            ".texref" => ScalarType::Texref,
            ".samplerref" => ScalarType::Samplerref,
            ".surfref" => ScalarType::Surfref,
            _ => return None,
        })
    }
}

/// `.v2`, `.v4`, `.v8` … vector prefix of a type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VectorWidth {
    V2,
    V3,
    V4,
    V8,
}

impl VectorWidth {
    pub fn lanes(self) -> u32 {
        match self {
            VectorWidth::V2 => 2,
            VectorWidth::V3 => 3,
            VectorWidth::V4 => 4,
            VectorWidth::V8 => 8,
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            VectorWidth::V2 => ".v2",
            VectorWidth::V3 => ".v3",
            VectorWidth::V4 => ".v4",
            VectorWidth::V8 => ".v8",
        }
    }
    pub fn from_directive(s: &str) -> Option<VectorWidth> {
        Some(match s {
            ".v2" => VectorWidth::V2,
            ".v3" => VectorWidth::V3,
            ".v4" => VectorWidth::V4,
            ".v8" => VectorWidth::V8,
            _ => return None,
        })
    }
}

/// The element type of a declaration: a fundamental type or a `.struct`/`.union` name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BaseType {
    Scalar(ScalarType),
    Named(Ident),
}

/// `[.vN] base` with the span of the whole type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TypeSpec {
    pub vector: Option<VectorWidth>,
    pub base: BaseType,
    pub span: Span,
}

/// `.ptr [.space] [.align N]` on a kernel parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct PtrAttribute {
    pub space: Option<StateSpace>,
    pub align: Option<Expr>,
    pub span: Span,
}

/// A variable (or parameter) declaration:
///
/// ```text
/// [linkage] .space[[bank]] [.align N] [.vN] type [.ptr …] declarator {, declarator} ;
/// ```
///
/// `.align` and `.vN` may come in either order (compilers emit both), `.const[2]` and
/// `.tex[3]` bindings are `binding`. `.tex` variables may have no type (1.1 §5.3.1).
#[derive(Clone, Debug, PartialEq)]
pub struct VariableDecl {
    pub linkage: Option<Linkage>,
    pub space: StateSpace,
    pub space_span: Span,
    /// `.const[N]` bank or `.tex[N]` texture id.
    pub binding: Option<Expr>,
    /// `.attribute(.managed)` — the attribute directives inside the parentheses, as written.
    pub attributes: Vec<Span>,
    pub align: Option<Expr>,
    pub ty: Option<TypeSpec>,
    pub ptr: Option<PtrAttribute>,
    pub declarators: Vec<Declarator>,
    pub span: Span,
}

/// One declared name: `name`, `%r<29>`, `a[4][8]`, `b[] = {1, 2}`.
#[derive(Clone, Debug, PartialEq)]
pub struct Declarator {
    pub name: Ident,
    /// `%r<N>` — parameterized register declaration: names `%r0` … `%r{N-1}`.
    pub range: Option<Expr>,
    /// Array dimensions in source order; `None` for `[]` (sized by the initializer).
    pub dims: Vec<Option<Expr>>,
    pub init: Option<Initializer>,
    pub span: Span,
}

/// `= expr` or `= { … }` (nested to match the dimensions).
#[derive(Clone, Debug, PartialEq)]
pub enum Initializer {
    Expr(Expr),
    List(Vec<Initializer>, Span),
}

impl Initializer {
    pub fn span(&self) -> Span {
        match self {
            Initializer::Expr(e) => e.span(),
            Initializer::List(_, s) => *s,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AggregateKind {
    Struct,
    Union,
}

/// `.struct name { fields };` — also nested and anonymous (`name: None`) members.
#[derive(Clone, Debug, PartialEq)]
pub struct StructDecl {
    pub kind: AggregateKind,
    pub name: Option<Ident>,
    pub fields: Vec<StructField>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum StructField {
    /// `.f32 x;`, `.f32[4] v;` (dims after the type, 1.1 §5.3.1), `.v4 .u8 c[2];`
    Field(FieldDecl),
    /// A nested (possibly anonymous) struct or union member.
    Nested(StructDecl),
}

#[derive(Clone, Debug, PartialEq)]
pub struct FieldDecl {
    pub ty: TypeSpec,
    /// Dimensions written after the type: `.f32[4] v`.
    pub type_dims: Vec<Option<Expr>>,
    pub name: Ident,
    /// Dimensions written after the name: `.f32 v[4]`.
    pub dims: Vec<Option<Expr>>,
    pub span: Span,
}

/// `[@[!]guard] opcode{.modifier}* operand, …;`
///
/// The opcode and modifiers are kept as spans; [`Instruction::modifiers`] iterates over the
/// modifiers (`".global"`, `".v4"`, `".f32"`, `".L2::cache_hint"`) without allocating.
#[derive(Clone, Debug, PartialEq)]
pub struct Instruction {
    pub guard: Option<Guard>,
    /// The opcode without modifiers (`ld`).
    pub opcode: Ident,
    /// From the first modifier's dot to the end of the last modifier (`.global.v4.f32`);
    /// `None` without modifiers. May contain whitespace/comments when the source separated
    /// modifiers with spaces (`add .s32`), which ptxas accepts.
    pub modifiers: Option<Span>,
    pub operands: Vec<Operand>,
    pub span: Span,
}

impl Instruction {
    /// The modifiers in order, each including its leading dot, with its span.
    pub fn modifiers<'s>(&self, src: &'s str) -> Modifiers<'s> {
        match self.modifiers {
            Some(s) => Modifiers::new(src, s),
            None => Modifiers::new(src, Span::new(0, 0)),
        }
    }
}

/// `@p` / `@!p`
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Guard {
    pub negated: bool,
    pub predicate: Name,
    pub span: Span,
}

/// An instruction operand. Registers, symbols, labels, function names, immediates, `-a` and
/// `!p` are all [`Operand::Expr`]: a lone [`Expr::Name`] is a register/symbol/label, a
/// [`Expr::Unary`] `Neg`/`Not` over a name is a negated register or predicate, anything
/// without names is a constant expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Operand {
    Expr(Expr),
    /// `[ … ]`
    Address(Address),
    /// `a[N-1]`, `a[r]` — array indexing on a named variable (1.1 §6.4.2).
    Indexed(Indexed),
    /// `{a, b, c, d}` vector operand / brace list.
    Vector(VectorOperand),
    /// `p|q` — two destinations (setp, set with predicate out).
    Pair(PredPair),
    /// `(a, b)` — parenthesised argument/return list of `call`. A parenthesised operand is a
    /// list when it is empty, contains a comma, or holds a lone name, and nothing but `,`/`;`
    /// follows it; otherwise it is an expression in parentheses.
    List(OperandList),
    /// `_` — the bit bucket.
    BitBucket(Span),
}

impl Operand {
    pub fn span(&self) -> Span {
        match self {
            Operand::Expr(e) => e.span(),
            Operand::Address(a) => a.span,
            Operand::Indexed(i) => i.span,
            Operand::Vector(v) => v.span,
            Operand::Pair(p) => p.span,
            Operand::List(l) => l.span,
            Operand::BitBucket(s) => *s,
        }
    }
    /// The name if this operand is a plain name (register, symbol, label, function).
    #[inline]
    pub fn as_name(&self) -> Option<&Name> {
        match self {
            Operand::Expr(Expr::Name(n)) => Some(n),
            _ => None,
        }
    }
}

/// `[ expr ]` or `[ expr, operand, … ]` (texture/surface forms `[tex, {x, y}]`).
///
/// `expr` is the whole address expression as written — `%rd1`, `%rd1+8`, `%rd1+-8`, `var`,
/// `var+4`, `0x100` — left for the checker to split into base and offset.
#[derive(Clone, Debug, PartialEq)]
pub struct Address {
    pub expr: Expr,
    /// Further comma-separated operands inside the brackets (texture coordinates etc.).
    pub rest: Vec<Operand>,
    pub span: Span,
}

/// `name[index]`
#[derive(Clone, Debug, PartialEq)]
pub struct Indexed {
    pub base: Name,
    pub index: Expr,
    pub span: Span,
}

/// `{ a, b, … }`
#[derive(Clone, Debug, PartialEq)]
pub struct VectorOperand {
    pub elements: Vec<Operand>,
    pub span: Span,
}

/// `p|q`
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PredPair {
    pub first: Name,
    pub second: Name,
    pub span: Span,
}

/// `( a, b, … )`
#[derive(Clone, Debug, PartialEq)]
pub struct OperandList {
    pub elements: Vec<Operand>,
    pub span: Span,
}

/// An integer literal; `value` is the literal's magnitude (a leading `-` is a unary operator).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct IntLit {
    pub value: u64,
    /// Written with a `U` suffix (`42U`): the constant has an unsigned type (§4.5 of later
    /// PTX versions).
    pub unsigned: bool,
    pub span: Span,
}

/// How a floating-point literal was written and its value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FloatValue {
    /// `0f3F800000`: exact single-precision bits.
    F32Bits(u32),
    /// `0d3FF0000000000000`: exact double-precision bits.
    F64Bits(u64),
    /// `1.5`, `.05`, `1e-3`: decimal, parsed to the nearest f64.
    Decimal(f64),
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FloatLit {
    pub value: FloatValue,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    /// `-`
    Neg,
    /// `+`
    Plus,
    /// `!`
    Not,
    /// `~`
    BitNot,
}

/// Binary operators, C precedence (see [`BinaryOp::precedence`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    Mul,
    Div,
    Rem,
    Add,
    Sub,
    Shl,
    Shr,
    Lt,
    Gt,
    Le,
    Ge,
    Eq,
    Ne,
    BitAnd,
    BitXor,
    BitOr,
    LogAnd,
    LogOr,
}

impl BinaryOp {
    /// Higher binds tighter; all binary operators are left-associative.
    pub fn precedence(self) -> u8 {
        match self {
            BinaryOp::Mul | BinaryOp::Div | BinaryOp::Rem => 10,
            BinaryOp::Add | BinaryOp::Sub => 9,
            BinaryOp::Shl | BinaryOp::Shr => 8,
            BinaryOp::Lt | BinaryOp::Gt | BinaryOp::Le | BinaryOp::Ge => 7,
            BinaryOp::Eq | BinaryOp::Ne => 6,
            BinaryOp::BitAnd => 5,
            BinaryOp::BitXor => 4,
            BinaryOp::BitOr => 3,
            BinaryOp::LogAnd => 2,
            BinaryOp::LogOr => 1,
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Rem => "%",
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Shl => "<<",
            BinaryOp::Shr => ">>",
            BinaryOp::Lt => "<",
            BinaryOp::Gt => ">",
            BinaryOp::Le => "<=",
            BinaryOp::Ge => ">=",
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "!=",
            BinaryOp::BitAnd => "&",
            BinaryOp::BitXor => "^",
            BinaryOp::BitOr => "|",
            BinaryOp::LogAnd => "&&",
            BinaryOp::LogOr => "||",
        }
    }
}

impl UnaryOp {
    pub fn as_str(self) -> &'static str {
        match self {
            UnaryOp::Neg => "-",
            UnaryOp::Plus => "+",
            UnaryOp::Not => "!",
            UnaryOp::BitNot => "~",
        }
    }
}

/// A constant expression or a name (1.1 §4.5.4). Parentheses are not kept: the tree shape
/// records the grouping. Compound nodes are boxed as a whole (one allocation per operator)
/// so that the common leaves — names and literals — keep `Expr` at 32 bytes.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Int(IntLit),
    Float(FloatLit),
    /// A register, variable, label or function name (possibly with a suffix). In data
    /// directives also a section name such as `.debug_abbrev`.
    Name(Name),
    Unary(Box<UnaryExpr>),
    Binary(Box<BinaryExpr>),
    /// `c ? a : b`
    Conditional(Box<ConditionalExpr>),
    /// `(.s64) expr`
    Cast(Box<CastExpr>),
    /// `generic(name)` in initializers: the generic address of a variable.
    Generic(Box<GenericExpr>),
}

/// `op operand`
#[derive(Clone, Debug, PartialEq)]
pub struct UnaryExpr {
    pub op: UnaryOp,
    pub operand: Expr,
    pub span: Span,
}

/// `lhs op rhs`
#[derive(Clone, Debug, PartialEq)]
pub struct BinaryExpr {
    pub op: BinaryOp,
    pub lhs: Expr,
    pub rhs: Expr,
    pub span: Span,
}

/// `cond ? then : otherwise`
#[derive(Clone, Debug, PartialEq)]
pub struct ConditionalExpr {
    pub cond: Expr,
    pub then: Expr,
    pub otherwise: Expr,
    pub span: Span,
}

/// `(.type) operand`
#[derive(Clone, Debug, PartialEq)]
pub struct CastExpr {
    pub ty: ScalarType,
    pub operand: Expr,
    pub span: Span,
}

/// `generic(name)`
#[derive(Clone, Debug, PartialEq)]
pub struct GenericExpr {
    pub name: Name,
    pub span: Span,
}

impl Expr {
    pub fn span(&self) -> Span {
        match self {
            Expr::Int(i) => i.span,
            Expr::Float(f) => f.span,
            Expr::Name(n) => n.span(),
            Expr::Unary(e) => e.span,
            Expr::Binary(e) => e.span,
            Expr::Conditional(e) => e.span,
            Expr::Cast(e) => e.span,
            Expr::Generic(e) => e.span,
        }
    }
}

/// A string literal; `span` includes the quotes. [`StringLit::text`] gives the contents
/// without quotes (escape sequences are kept as written).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StringLit {
    pub span: Span,
}

impl StringLit {
    pub fn text<'s>(&self, src: &'s str) -> &'s str {
        let s = span_text(src, self.span);
        s.strip_prefix('"')
            .and_then(|s| s.strip_suffix('"'))
            .unwrap_or(s)
    }
}

/// `.pragma "a", "b";`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pragma {
    pub strings: Vec<StringLit>,
    pub span: Span,
}

/// `.file [index] "name" [, timestamp, size]`
#[derive(Clone, Debug, PartialEq)]
pub struct FileDirective {
    pub index: Option<IntLit>,
    pub name: StringLit,
    pub extra: Vec<Expr>,
    pub span: Span,
}

/// `.loc file line column [, key value …]` (the trailing `function_name … inlined_at …`
/// attributes of newer PTX are kept as raw text in `rest`).
#[derive(Clone, Debug, PartialEq)]
pub struct Loc {
    pub values: Vec<IntLit>,
    /// Everything after the numbers up to the end of the directive, as written.
    pub rest: Option<Span>,
    pub span: Span,
}

/// `.section name, attr, …` (1.1) or `.section name { data }` (modern DWARF sections).
#[derive(Clone, Debug, PartialEq)]
pub struct Section {
    /// The section name as written (`.debug_info`).
    pub name: Span,
    /// 1.1 form attributes after the name (`""`, `@progbits`) as raw spans.
    pub attributes: Vec<Span>,
    pub body: Option<Block>,
    pub span: Span,
}

/// `.byte 1, 2` / `.b32 label+4` / `.b8 0` — raw data.
#[derive(Clone, Debug, PartialEq)]
pub struct Data {
    /// The directive as written (`.byte`, `.b8`, `.b16`, `.b32`, `.b64`, `.4byte`, …).
    pub directive: Span,
    pub values: Vec<Expr>,
    pub span: Span,
}

/// `.extern foo` / `.visible foo` (1.1 §9.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinkageName {
    pub linkage: Linkage,
    pub name: Ident,
    pub span: Span,
}

/// Iterator over the `.`-separated parts of a dotted span (`Name::suffix_parts`); parts
/// exclude the dot.
#[derive(Clone, Debug)]
pub struct DottedParts<'s> {
    src: &'s str,
    pos: usize,
    end: usize,
}

impl<'s> DottedParts<'s> {
    fn new(src: &'s str, span: Span) -> Self {
        let end = (span.end as usize).min(src.len());
        DottedParts {
            src,
            pos: (span.start as usize).min(end),
            end,
        }
    }
    fn empty(src: &'s str) -> Self {
        DottedParts {
            src,
            pos: 0,
            end: 0,
        }
    }
}

impl<'s> Iterator for DottedParts<'s> {
    type Item = (Span, &'s str);
    fn next(&mut self) -> Option<Self::Item> {
        let bytes = self.src.as_bytes();
        while self.pos < self.end && bytes.get(self.pos) == Some(&b'.') {
            self.pos += 1;
        }
        if self.pos >= self.end {
            return None;
        }
        let start = self.pos;
        while self.pos < self.end && bytes.get(self.pos) != Some(&b'.') {
            self.pos += 1;
        }
        let span = Span::from_range(start..self.pos);
        Some((span, self.src.get(start..self.pos).unwrap_or("")))
    }
}

/// Iterator over instruction modifiers: each item includes its leading dot (`".f32"`).
/// Whitespace and comments between separately written modifiers are skipped.
#[derive(Clone, Debug)]
pub struct Modifiers<'s> {
    src: &'s str,
    pos: usize,
    end: usize,
}

impl<'s> Modifiers<'s> {
    fn new(src: &'s str, span: Span) -> Self {
        let end = (span.end as usize).min(src.len());
        Modifiers {
            src,
            pos: (span.start as usize).min(end),
            end,
        }
    }
}

impl<'s> Iterator for Modifiers<'s> {
    type Item = (Span, &'s str);
    fn next(&mut self) -> Option<Self::Item> {
        let bytes = self.src.as_bytes();
        self.pos = crate::lexer::skip_trivia(bytes, self.pos).min(self.end);
        if self.pos >= self.end || bytes.get(self.pos) != Some(&b'.') {
            return None;
        }
        let start = self.pos;
        self.pos += 1;
        while self.pos < self.end
            && bytes
                .get(self.pos)
                .is_some_and(|&b| crate::lexer::is_suffix_byte(b))
        {
            self.pos += 1;
        }
        let span = Span::from_range(start..self.pos);
        Some((span, self.src.get(start..self.pos).unwrap_or("")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `from_directive` is written apart from `as_str`; each must undo the other.
    #[test]
    fn scalar_type_spellings_round_trip() {
        for t in ScalarType::ALL {
            assert_eq!(ScalarType::from_directive(t.as_str()), Some(t));
        }
        for s in [".u", ".u33", "u32", ".U32", ".b128x", ""] {
            assert_eq!(ScalarType::from_directive(s), None, "{s}");
        }
    }
}
