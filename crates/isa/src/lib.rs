//! The PTX instruction table: one row per instruction form, written like the manual's syntax
//! blocks (`src/table/*.isa`, read once at first use), with the modifier, type and operand slots
//! each admits, the target/ISA gates and the spec section. The checker matches instructions
//! against it; `docs/instructions.md` and the coverage tests are generated from it.
//!
//! ```
//! let m = isa::match_form("add", &[".sat", ".s32"]).unwrap();
//! assert!(m.mods.has(isa::Flag::Sat));
//! assert_eq!(m.ty(), Some(isa::Type::S32));
//! let e = isa::match_form("add", &[".sat", ".u32"]).unwrap_err();
//! assert_eq!(e.message, "`.sat` is not allowed on `add.u32`");
//! ```
//!
//! # How a checker uses it
//!
//! 1. Split the instruction as written into the opcode (`shfl`) and its dotted parts, types
//!    included, in source order (`[".sync", ".bfly", ".b32"]`; keep `::` sub-spaces whole:
//!    `".shared::cta"`). Modifiers may come in any order, as ptxas allows; type suffixes fill
//!    the type slots left to right (`cvt.f32.s32`: `.dtype` then `.atype`).
//!    Or pass the head as written to [`match_head`]`("shfl.sync.bfly.b32")`, or through a
//!    [`MatchCache`] that remembers each distinct head (files repeat a few dozen heads).
//! 2. [`match_form`] returns the first form that fits, or a [`MatchError`] whose `message` is
//!    user-facing and whose `index` says which modifier to underline. When several forms take
//!    the same modifiers and differ in operands (`mov.b32 d, a` / `mov.b32 d, {a, b}`, the
//!    `call` forms, 1.x and modern `tex`), [`match_all`] lists them all: pick by operand shape
//!    ([`Operand::kind`], [`Operand::vector`], [`Form::required_operands`]).
//! 3. Operand `i` of the form has a role ([`OperandKind`]: destination, source register or
//!    immediate, address, label, …), optional negation (`{!}p`, vmad's `{-}a`), a video
//!    selector ([`Selector::admits`] validates `.b0`, `.h10`, `.b3210`) and a type
//!    [`Match::operand_type`] — compare declared register types with [`compatible`] (§6.1),
//!    or [`compatible_ld_st`] for the `ld`/`st` value register.
//! 4. [`Match::check_gate`] with the file's `.target sm_NN` and `.version` gives the
//!    "requires sm_61 or higher (file targets sm_52)" errors, including modifier-dependent
//!    gates (`add.u16x2`, 64-bit `add.cc`) and forms only PTX ISA 1.x has.
//! 5. Special registers: [`lookup_special_reg`]`("%tid.x")`, with
//!    [`SpecialRegInfo::type_for`] the file's PTX version.
//!
//! Decoded modifiers are in [`Match::mods`] ([`Mods`]: one typed field per class —
//! `rounding`, `cmp`, `space`, `cache`, `vec`, `atom_op`, … — and a [`Flags`] set for
//! single-spelling modifiers such as `.sat`, `.ftz`, `.cc`, `.approx`, `.uni`).

mod decl;
mod docs;
mod dsl;
mod form;
mod matching;
mod mods;
mod mods_tcgen05;
mod mods_wgmma;
mod opcode;
mod spell;
mod sreg;
mod table;
mod types;

pub use decl::{check_declaration_type, declaration_type_rule, DeclTypeRule};
pub use docs::print_instructions_md;
pub use dsl::TableError;
pub use form::{
    ArchTarget, CondGate, Condition, Exclusion, Form, Gate, Negate, Operand, OperandKind,
    PtxVersion, Selector, Slot, SlotKind, Term, TypeRef, VecRule,
};
pub use matching::{
    lookup, match_all, match_form, match_head, resolve_type_ref, GateError, Match, MatchCache,
    MatchError, MatchErrorKind, MAX_SPELLED, MAX_TYPE_SLOTS, NOT_SUPPORTED,
};
pub use mods::{
    ALayout, AtomOp, BLayout, BoolOp, CacheLevel, CacheOp, ClampMode, CmpOp, CtaGroup, Eviction,
    Flag, Flags, Geom, ModClass, ModValue, Mods, MulMode, Multicast, PrefetchSize, PrmtMode,
    Rounding, Scope, Sem, ShfDir, ShflMode, Space, SrcSpace, Tcgen05Completion, TensorOp, TestpOp,
    TexQuery, VecWidth, VideoOp2, VideoScale, VoteMode, WgmmaShape,
};
pub use mods::{
    Collector, LoadMode, ScaleVec, Tcgen05Kind, Tcgen05Num, Tcgen05Shape, Tcgen05SrcFmt,
    Tcgen05Variant, TensorDim,
};
pub use mods::{WmmaFrag, WmmaOp, WmmaShape, WmmaSubType, WmmaSubTypeB};
pub use opcode::Opcode;
pub use sreg::{lookup_special_reg, SpecialReg, SpecialRegInfo, SPECIAL_REGS};
pub use table::{all_forms, forms_of, try_load, TABLE_FILES};
pub use types::{compatible, compatible_cvt, compatible_ld_st, BasicType, Type};
