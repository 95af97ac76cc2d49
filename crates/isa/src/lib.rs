//! The PTX instruction table: one row per instruction form, written like the manual's syntax
//! blocks (`src/table/*.isa`), with the modifier, type and operand slots each admits, the
//! target/ISA gates and the spec section. The checker matches instructions against it with
//! [`match_form`]; docs and coverage tests are generated from it.
//!
//! ```
//! let m = isa::match_form("add", &[".sat", ".s32"]).unwrap();
//! assert!(m.mods.has(isa::Flag::Sat));
//! assert_eq!(m.ty(), Some(isa::Type::S32));
//! let e = isa::match_form("add", &[".sat", ".u32"]).unwrap_err();
//! assert_eq!(e.message, "`.sat` is not allowed on `add.u32`");
//! ```

mod docs;
mod dsl;
mod form;
mod matching;
mod mods;
mod opcode;
mod sreg;
mod table;
mod types;

pub use docs::print_instructions_md;
pub use dsl::TableError;
pub use form::{
    CondGate, Condition, Exclusion, Form, Gate, Negate, Operand, OperandKind, PtxVersion, Selector,
    Slot, SlotKind, Term, TypeRef, VecRule,
};
pub use matching::{
    lookup, match_all, match_form, GateError, Match, MatchError, MatchErrorKind, MAX_SPELLED,
    MAX_TYPE_SLOTS,
};
pub use mods::{
    AtomOp, BoolOp, CacheLevel, CacheOp, ClampMode, CmpOp, Flag, Flags, Geom, ModClass, ModValue,
    Mods, MulMode, PrmtMode, Rounding, Scope, Sem, ShfDir, ShflMode, Space, TestpOp, TexQuery,
    VecWidth, VideoOp2, VideoScale, VoteMode,
};
pub use opcode::Opcode;
pub use sreg::{lookup_special_reg, SpecialReg, SpecialRegInfo, SPECIAL_REGS};
pub use table::{all_forms, forms_of, try_load, TABLE_FILES};
pub use types::{compatible, compatible_cvt, compatible_ld_st, BasicType, Type};
