//! One row of the instruction table: an instruction form as the manual writes it.

use crate::mods::ModClass;
use crate::opcode::Opcode;
use crate::types::Type;

/// A PTX ISA version, `major.minor`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct PtxVersion {
    pub major: u8,
    pub minor: u8,
}

impl PtxVersion {
    pub const fn new(major: u8, minor: u8) -> PtxVersion {
        PtxVersion { major, minor }
    }
}

impl std::fmt::Display for PtxVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// The target and ISA version an instruction needs ("PTX ISA Notes" and "Target ISA Notes" of
/// each instruction). `min_sm` is the `sm_NN` number (`sm_20` → 20). `max_sm`, when set, is the
/// first architecture that no longer accepts the form (e.g. `vote` without `.sync` on sm_70);
/// `max_ptx`, when set, the first ISA version that no longer has it (forms only ptx-isa-1.1
/// documents, such as `div.wide`, end at PTX ISA 2.0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Gate {
    pub min_sm: u32,
    pub min_ptx: PtxVersion,
    pub max_sm: Option<u32>,
    pub max_ptx: Option<PtxVersion>,
    /// Architecture-specific forms (`gate ... arch sm_100f sm_103f`): the only targets that
    /// accept the form, as ptxas gates them ("Instruction 'redux.f32' not supported on .target
    /// 'sm_100'"). `None`: any target from `min_sm` on.
    pub arch: Option<&'static [ArchTarget]>,
}

/// One entry of an architecture-specific gate. PTX ISA 8.8 §5.1 (`.target`): an `sm_NNa`
/// target has every feature of its family `sm_NNf` and more, so `family` (written `sm_NNf`)
/// accepts the targets `sm_NNa` and `sm_NNf`, and an `sm_NNa` entry accepts `sm_NNa` alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ArchTarget {
    pub sm: u32,
    pub family: bool,
}

impl ArchTarget {
    /// Whether a file's `.target sm_NN{a,f}` is this entry.
    pub fn admits(&self, sm: u32, suffix: Option<char>) -> bool {
        sm == self.sm
            && match suffix {
                Some('a') => true,
                Some('f') => self.family,
                _ => false,
            }
    }
}

impl std::fmt::Display for ArchTarget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.family {
            write!(f, "sm_{}a or sm_{}f", self.sm, self.sm)
        } else {
            write!(f, "sm_{}a", self.sm)
        }
    }
}

impl Gate {
    pub const NONE: Gate = Gate {
        min_sm: 10,
        min_ptx: PtxVersion::new(1, 0),
        max_sm: None,
        max_ptx: None,
        arch: None,
    };

    /// The minimum target and version of the gate against a file's, for a subject named
    /// `what` (the maxima are for instruction forms, whose check adds them and the reasons).
    #[inline]
    pub fn check_min(&self, what: &str, sm: u32, ptx: PtxVersion) -> Result<(), crate::GateError> {
        if sm < self.min_sm {
            return Err(crate::GateError::Sm {
                what: what.to_string(),
                need: self.min_sm,
                have: sm,
                reason: None,
            });
        }
        if ptx < self.min_ptx {
            return Err(crate::GateError::Ptx {
                what: what.to_string(),
                need: self.min_ptx,
                have: ptx,
                reason: None,
            });
        }
        Ok(())
    }

    /// The stricter of two gates.
    pub fn join(self, other: Gate) -> Gate {
        Gate {
            min_sm: self.min_sm.max(other.min_sm),
            min_ptx: self.min_ptx.max(other.min_ptx),
            max_sm: match (self.max_sm, other.max_sm) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            },
            max_ptx: match (self.max_ptx, other.max_ptx) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            },
            // A conditional gate's list is the narrower one (the tables write it only on the
            // forms that need it), so the later gate's list wins.
            arch: other.arch.or(self.arch),
        }
    }
}

impl Default for Gate {
    fn default() -> Gate {
        Gate::NONE
    }
}

/// One term of a [`Condition`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Term {
    /// `.u64|.s64`: one of these spellings is present.
    AnyOf(Vec<&'static str>),
    /// `!.rn|.rz`: none of these spellings is present.
    NoneOf(Vec<&'static str>),
    /// `.atype=.f32|.f64`: the named type slot holds one of these types.
    SlotIs {
        slot: &'static str,
        types: Vec<Type>,
    },
    /// `!.atype=.f32|.f64`: the named type slot holds none of these types (or is absent).
    SlotIsNot {
        slot: &'static str,
        types: Vec<Type>,
    },
    /// `.a|.b<.c`: one of `first` is written before one of `then`. Modifiers match in any
    /// order, but ptxas reads a few only in one place (`tcgen05.mma.ws.sp`, not `.sp.ws`).
    WrittenBefore {
        first: Vec<&'static str>,
        then: Vec<&'static str>,
    },
}

/// Whether, in `spelled` (the modifiers in source order), one of `first` comes before the
/// first of `then`.
pub(crate) fn written_before(
    spelled: &[&str],
    first: &[&'static str],
    then: &[&'static str],
) -> bool {
    let Some(at) = spelled.iter().position(|s| then.contains(s)) else {
        return false;
    };
    spelled
        .get(..at)
        .is_some_and(|before| before.iter().any(|s| first.contains(s)))
}

/// A condition on the modifiers and types an instruction spells: every term must hold
/// (`.cc .u64|.s64` = `.cc` and a 64-bit type).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Condition {
    pub terms: Vec<Term>,
    /// For each `AnyOf`/`NoneOf` term, its spellings as ids (matching tests bits).
    pub(crate) sets: Vec<crate::spell::SpellSet>,
}

impl Condition {
    pub fn new(terms: Vec<Term>) -> Condition {
        let sets = terms
            .iter()
            .map(|t| {
                let mut set = crate::spell::SpellSet::default();
                if let Term::AnyOf(sp) | Term::NoneOf(sp) = t {
                    for id in sp.iter().filter_map(|s| crate::spell::spelling_id(s)) {
                        set.insert(id);
                    }
                }
                set
            })
            .collect();
        Condition { terms, sets }
    }

    /// `spelled`: the modifiers and types written; `slot_type`: the type chosen for a named
    /// type slot of the form.
    pub fn holds(&self, spelled: &[&str], slot_type: impl Fn(&str) -> Option<Type>) -> bool {
        self.terms.iter().all(|t| match t {
            Term::AnyOf(alts) => alts.iter().any(|a| spelled.contains(a)),
            Term::NoneOf(alts) => !alts.iter().any(|a| spelled.contains(a)),
            Term::SlotIs { slot, types } => slot_type(slot).is_some_and(|t| types.contains(&t)),
            Term::SlotIsNot { slot, types } => !slot_type(slot).is_some_and(|t| types.contains(&t)),
            Term::WrittenBefore { first, then } => written_before(spelled, first, then),
        })
    }
}

/// A gate that applies only when the condition holds
/// (ptx-extended-precision.md §add.cc: "64-bit add.cc introduced in PTX ISA version 4.3").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CondGate {
    pub when: Condition,
    pub gate: Gate,
    /// Why, when the spec gives a reason (`a rounding modifier is required`).
    pub reason: Option<&'static str>,
}

/// A combination the spec excludes although the syntax line would admit it
/// (`mul.wide` on 64-bit types: ptx-integer-arithmetic.md §mul ".wide … 16-bit and 32-bit").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exclusion {
    pub when: Condition,
    pub reason: &'static str,
}

/// What a modifier slot holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SlotKind {
    /// A modifier of the given class, admitting these spellings.
    Mod {
        class: ModClass,
        spellings: Vec<&'static str>,
    },
    /// A type suffix admitting these types.
    Type { types: Vec<Type> },
}

/// One dotted position of the syntax line: `.type`, `{.sat}`, `.s32`, `{.rnd}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slot {
    /// As written in the syntax line, without braces (`.type`, `.sat`).
    pub name: &'static str,
    pub optional: bool,
    pub kind: SlotKind,
    /// The spellings admitted, as ids (see `spell.rs`).
    pub(crate) ids: crate::spell::SpellSet,
}

impl Slot {
    pub fn is_type(&self) -> bool {
        matches!(self.kind, SlotKind::Type { .. })
    }

    /// Whether this slot admits the spelling with this id.
    pub(crate) fn admits_id(&self, id: u16) -> bool {
        self.ids.contains(id)
    }

    /// Whether this slot admits the spelling.
    pub fn admits(&self, spelling: &str) -> bool {
        match &self.kind {
            SlotKind::Mod { spellings, .. } => spellings.contains(&spelling),
            SlotKind::Type { types } => types.iter().any(|t| t.suffix() == spelling),
        }
    }

    /// The spellings this slot admits, in table order.
    pub fn spellings(&self) -> Vec<&'static str> {
        match &self.kind {
            SlotKind::Mod { spellings, .. } => spellings.clone(),
            SlotKind::Type { types } => types.iter().map(|t| t.suffix()).collect(),
        }
    }
}

/// What an operand position accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OperandKind {
    /// A destination register (a brace vector of registers when [`Operand::vector`] says so).
    Dst,
    /// `p|q`: a predicate destination with an optional second (complement) destination.
    DstPair,
    /// A register or an immediate.
    Src,
    /// A register only.
    SrcReg,
    /// An immediate only.
    Imm,
    /// A register, an immediate, or the name of a variable/function whose address is taken
    /// (`mov`, `cvta`, `isspacep`).
    SrcSym,
    /// A memory address `[a]`, `[a+imm]`, `[imm]`, `[var]`.
    Addr,
    /// `[tex, coords]` texture reference with a coordinate vector; the operand's name, type and
    /// vector rule describe the coordinates.
    TexAddr,
    /// A label (`bra`).
    Label,
    /// The name of a `.branchtargets` label list (`brx.idx`).
    TargetList,
    /// A function name or register holding its address (`call`).
    Func,
    /// A parenthesised list of `.param` names (`call`'s return and argument lists).
    ParamList,
    /// A prototype or label list naming call targets (`call`'s last operand for indirect calls).
    Proto,
}

impl OperandKind {
    pub fn is_destination(self) -> bool {
        matches!(self, OperandKind::Dst | OperandKind::DstPair)
    }
}

/// The type an operand must be compatible with, in terms of the matched instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TypeRef {
    /// The type chosen for the n-th type slot of the form (0 = first type slot).
    Slot(u8),
    /// Twice the size of the n-th type slot when the instruction spells `.wide`, else the slot.
    WideIfWide(u8),
    /// Always twice the size of the n-th type slot.
    Wide(u8),
    /// The bit-size type of half the size of the n-th type slot (`mov.b32 d, {a, b}`: `.b16`).
    Half(u8),
    /// The bit-size type of a quarter of the size of the n-th type slot
    /// (`mov.b64 d, {a, b, c, e}`: `.b16`).
    Quarter(u8),
    /// A fixed type.
    Fixed(Type),
    /// `.u32` when both type slots 0 and 1 are `.u32`, else `.s32` (`dp4a`/`dp2a` operand `c`).
    S32UnlessBothU32,
    /// No type constraint (labels, addresses, parameter lists).
    Any,
}

/// Optional negation spelled before an operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Negate {
    None,
    /// `{!}a`: a predicate source that may be negated.
    Not,
    /// `{-}a`: a `vmad` source that may be negated.
    Minus,
}

/// Selector suffix after an operand (video instructions).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Selector {
    None,
    /// `a{.asel}`: optional byte/half selector `.b0 .b1 .b2 .b3 .h0 .h1` (scalar video).
    OptionalByteHalf,
    /// `d.dsel`: required byte/half selector (scalar video data merge).
    RequiredByteHalf,
    /// `a{.asel}` of SIMD2 video: `.hxy` (two half-word lanes `.h00 … .h33` style selectors).
    OptionalHalves,
    /// `a{.asel}` of SIMD4 video: `.bxyzw` (four byte lanes `.b0000 … .b7777`).
    OptionalBytes,
    /// `d{.mask}` of SIMD2 video: `.h0 .h1 .h10`.
    OptionalMask2,
    /// `d{.mask}` of SIMD4 video: `.b0 .b1 .b10 .b2 .b20 .b21 .b210 .b3 …`.
    OptionalMask4,
}

impl Selector {
    /// Whether `sel` (with its dot, `.b2`, `.h10`, `.b3210`) is a valid selector here
    /// (ptx-video.md §9.7.18.1 `.dsel/.asel/.bsel`, §9.7.18.2.1 `.mask`/`.hxy`,
    /// §9.7.18.2.3 `.mask`/`.bxyzw`).
    pub fn admits(self, sel: &str) -> bool {
        let Some(body) = sel.strip_prefix('.') else {
            return false;
        };
        let lanes = |prefix: char, n: usize, max: u8| {
            body.strip_prefix(prefix).is_some_and(|d| {
                d.len() == n && d.bytes().all(|c| c.is_ascii_digit() && c - b'0' <= max)
            })
        };
        match self {
            Selector::None => false,
            Selector::OptionalByteHalf | Selector::RequiredByteHalf => {
                matches!(body, "b0" | "b1" | "b2" | "b3" | "h0" | "h1")
            }
            Selector::OptionalHalves => lanes('h', 2, 3),
            Selector::OptionalBytes => lanes('b', 4, 7),
            Selector::OptionalMask2 => matches!(body, "h0" | "h1" | "h10"),
            Selector::OptionalMask4 => matches!(
                body,
                "b0" | "b1"
                    | "b10"
                    | "b2"
                    | "b20"
                    | "b21"
                    | "b210"
                    | "b3"
                    | "b30"
                    | "b31"
                    | "b310"
                    | "b32"
                    | "b320"
                    | "b321"
                    | "b3210"
            ),
        }
    }

    pub fn is_optional(self) -> bool {
        !matches!(self, Selector::RequiredByteHalf)
    }
}

/// How many registers a brace vector operand holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VecRule {
    /// A scalar.
    Scalar,
    /// A vector when the instruction spells `.v2`/`.v4`, of that many elements.
    FromVecMod,
    /// Always a vector of this many elements (`tex`'s four results, `mov`'s `{a, b}`).
    Fixed(u8),
    /// A coordinate vector whose length follows the `tex` geometry: `.1d` 1, `.2d` 2, `.3d` 4
    /// (ptx-isa-1.1's own example writes three for `.3d`; PTX ISA 8.x §9.7.10.3 pads to four),
    /// `.a1d` 2, `.a2d` 4, `.cube` 4, `.acube` 4. For the array geometries the first element
    /// is the `.u32` array index, the others have the coordinate type.
    FromGeom,
}

/// One operand position of a form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Operand {
    /// As named in the syntax line (`d`, `a`, `p`, `mask`).
    pub name: &'static str,
    pub kind: OperandKind,
    pub ty: TypeRef,
    /// Written inside `{, …}` in the syntax line.
    pub optional: bool,
    pub negate: Negate,
    pub selector: Selector,
    pub vector: VecRule,
}

/// One instruction form: a line of a syntax block, with its type variables expanded into slots.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Form {
    /// The syntax line as the manual writes it (`add{.sat}.s32 d, a, b;`).
    pub syntax: &'static str,
    pub opcode: Opcode,
    /// Dotted positions in the order the manual writes them.
    pub slots: Vec<Slot>,
    pub operands: Vec<Operand>,
    /// The gate of the form as a whole.
    pub gate: Gate,
    /// A second lowest target and version that also accept the form (`gate or sm_90 ptx 7.8`
    /// in the table): ptxas 12.9 takes fp8 `cvt` on sm_89 from PTX 8.1 and on sm_90 from 7.8.
    pub alt_gate: Option<Gate>,
    /// Gates that apply when particular modifiers or types are spelled.
    pub cond_gates: Vec<CondGate>,
    /// Spelled combinations the spec excludes.
    pub exclusions: Vec<Exclusion>,
    /// Where the manual defines this form (`ptx-integer-arithmetic.md §9.7.1.1 add`).
    pub spec: &'static str,
}

impl Form {
    /// The modifier (non-type) slots, in order.
    pub fn mod_slots(&self) -> impl Iterator<Item = &Slot> {
        self.slots.iter().filter(|s| !s.is_type())
    }

    /// The type slots, in order; [`TypeRef::Slot`] indexes this sequence.
    pub fn type_slots(&self) -> impl Iterator<Item = &Slot> {
        self.slots.iter().filter(|s| s.is_type())
    }

    /// A stable name for the row, for coverage lists (`NOT_SUPPORTED`) in other crates: the
    /// opcode and the syntax line with runs of spaces collapsed (`"vadd: vop.dtype.atype.btype{.sat} d, a{.asel}, b{.bsel};"`).
    pub fn key(&self) -> String {
        let syntax: Vec<&str> = self.syntax.split_whitespace().collect();
        format!("{}: {}", self.opcode.name(), syntax.join(" "))
    }

    /// Number of operands that must be present.
    #[inline]
    pub fn required_operands(&self) -> usize {
        self.operands.iter().filter(|o| !o.optional).count()
    }
}
