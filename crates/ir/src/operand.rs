//! Instruction operands, fully resolved.

use crate::{FuncId, InstIdx, ProtoId, RegId, SpecialReg, VarId};

/// One operand of an instruction. `Inst::operands[i]` always corresponds to
/// `Inst::form.operands[i]` (same length): an optional operand the source left out (`b` in
/// `bar.red.popc.u32 d, a, c`) is [`Operand::Omitted`], so positions never shift.
///
/// For `setp` the `p|q` pair is one [`Operand::PredPair`]. `call` has one form per shape
/// (`call f;`, `call (r), f, (a, b);`, `call (r), %fptr, (a), proto;` ...): the form's operand
/// names (`ret`, `fname`/`fptr`, `params`, `flist`) say which is which; lists are
/// [`Operand::List`], a direct callee is [`Operand::Func`], an indirect one a register.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Operand {
    /// A register (for vector registers: one element register after `.x` etc. resolution).
    Reg(RegId),
    /// An immediate, already converted to the type the instruction form gives this operand and
    /// stored as its bit pattern, zero-extended to 64 bits: `add.s32 d, a, -1` → `0xffff_ffff`;
    /// `add.f32 d, a, 1.5` → `1.5f32.to_bits()`; `add.f64 d, a, 0f3f800000` → `1.0f64` bits.
    /// Predicate immediates are 0 or 1.
    Imm(u64),
    /// `%tid.x`, `%clock64`, `%envreg3`, ...: the special register and which one of it:
    /// the component 0..=2 for `.x/.y/.z` (or 1.1's `.0/.1/.2`) of vector registers, the
    /// number for indexed families (`%envreg3` → 3), 0 otherwise.
    Special { reg: SpecialReg, index: u8 },
    /// A brace list `{a, b, c, d}`, a vector register used whole, or (as the source of a
    /// ptx-isa-1.1 whole-vector `mov.vN`) a swizzle `v.wzyx` or a scalar/shorter vector already
    /// converted per §6.5.3 Table 10 (spread scalars, zero lanes as `Imm(0)`): one element per
    /// lane, each `Reg`, `Imm`, `Special` or `Sink`.
    Vector(Box<[Operand]>),
    /// A memory address `[base + offset]`.
    Address(Address),
    /// The address of a variable (plus a byte offset) used as a value:
    /// `mov.u64 %rd, smem;`, `mov.u32 s, a[1];`, `cvta.global.u64 %rd, gvar;`.
    VarAddr { var: VarId, offset: i64 },
    /// A branch target.
    Label(InstIdx),
    /// A `.branchtargets` list resolved to its targets, in order (`brx.idx`).
    TargetList(Box<[InstIdx]>),
    /// A function used as a call target or as a value (`mov.u64 %rd, f;`).
    Func(FuncId),
    /// The call prototype of an indirect call.
    Proto(ProtoId),
    /// The `flist` of an indirect call (a `.calltargets` list or a call table, an array whose
    /// initializer names functions), resolved to the functions it lists, in order: the only
    /// functions the call may reach (PTX ISA §9.7.12.5).
    CallTargets(Box<[FuncId]>),
    /// A parenthesised list: call return values and arguments. Elements are `Reg`,
    /// `VarAddr` (a `.param` variable passed by name, offset 0) or `Imm` (a constant in the
    /// type of the parameter it binds, as [`Operand::Imm`] describes: `1.5` for an `.f32`
    /// parameter is `1.5f32.to_bits()`; for a parameter without a scalar type — a `.b8` array —
    /// an integer as its 64-bit two's-complement bits and a float as `f64` bits).
    List(Box<[Operand]>),
    /// The bit bucket `_`.
    Sink,
    /// `!p` as a source predicate.
    NotPred(RegId),
    /// `-a` as a source (operand negation of `vmad`).
    Neg(RegId),
    /// `-a.h1`: a negated register with a video selector (`vmad`'s `{-}a{.asel}`).
    NegSelected { reg: RegId, sel: Selector },
    /// A register with a video byte/half-word selector (`a.b0`, `a.h1`, `a.b7654`, `a.h10`).
    Selected { reg: RegId, sel: Selector },
    /// `d|p`: a destination with an optional second one: `setp`'s `p|q` (the complement
    /// predicate), `shfl`'s `d|p` (the in-range predicate). `None` when only `d` is written or
    /// the second is the sink `_`.
    PredPair(RegId, Option<RegId>),
    /// An optional operand of the form that the source did not write.
    Omitted,
    /// A texture/sampler reference with its coordinates: `[tex, {x, y}]` or
    /// `[tex, sampler, {x, y}]`.
    Texture {
        tex: TexRef,
        sampler: Option<TexRef>,
        coords: Box<[Operand]>,
    },
}

/// A texture or sampler: a `.tex`/`.texref`/`.samplerref` variable, or a 64-bit handle held in
/// a register (a texture object, PTX ISA 8.x §9.7.10.3: "a `.u64` register holding the
/// texture handle").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TexRef {
    Var(VarId),
    Reg(RegId),
}

impl Operand {
    /// Whether dropping the operand frees memory (the list-carrying variants). Exhaustive on
    /// purpose: a new variant must say, or [`crate::Operands`] would leak it.
    #[inline]
    pub fn owns_heap(&self) -> bool {
        match self {
            Operand::Vector(_)
            | Operand::List(_)
            | Operand::TargetList(_)
            | Operand::CallTargets(_)
            | Operand::Texture { .. } => true,
            Operand::Reg(_)
            | Operand::Imm(_)
            | Operand::Special { .. }
            | Operand::Address(_)
            | Operand::VarAddr { .. }
            | Operand::Label(_)
            | Operand::Func(_)
            | Operand::Proto(_)
            | Operand::Sink
            | Operand::NotPred(_)
            | Operand::Neg(_)
            | Operand::NegSelected { .. }
            | Operand::Selected { .. }
            | Operand::PredPair(..)
            | Operand::Omitted => false,
        }
    }
    /// The register when the operand is a plain register.
    pub fn as_reg(&self) -> Option<RegId> {
        match self {
            Operand::Reg(r) => Some(*r),
            _ => None,
        }
    }
    pub fn as_imm(&self) -> Option<u64> {
        match self {
            Operand::Imm(v) => Some(*v),
            _ => None,
        }
    }
}

/// A memory address operand `[base + offset]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Address {
    pub base: AddrBase,
    /// Byte offset (constant-folded; `[r-4]` → -4, `a[3]` on a `.u32` array → 12).
    pub offset: i64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AddrBase {
    /// `[%rd1+8]`: the register holds an address in the instruction's state space (a generic
    /// address when the instruction has no space).
    Reg(RegId),
    /// `[gvar+8]`, `[param_0]`: the variable's address in its own state space.
    Var(VarId),
    /// `[0x100]`: an absolute address.
    Absolute,
}

/// A video-instruction operand selector (ptx-video.md): which bytes or half-words of a 32-bit
/// register an operand reads, in the order written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Selector {
    pub kind: SelectorKind,
    /// The lanes as written: `.b7654` → `[7, 6, 5, 4]`, `.h10` → `[1, 0, _, _]`, `.b0` → `[0, ..]`.
    pub lanes: [u8; 4],
    /// How many of `lanes` are used (1, 2 or 4).
    pub len: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SelectorKind {
    /// `.bN`: byte lanes 0..=7 (of the pair of source registers for SIMD forms).
    Byte,
    /// `.hN`: half-word lanes 0..=3.
    Half,
}
