//! Comparison and selection: `set setp selp slct` (`ptx-isa-1.1.txt` §7.3.1, Tables 12–15,
//! §7.7.2, Tables 29–32).
//!
//! Integer operands arrive widened to 64 bits by the caller: sign-extended for `.sN`,
//! zero-extended for `.uN`/`.bN`; the comparison result does not depend on the width then.

use crate::float::flush_f32;

/// Comparison operator `CmpOp` of `set`/`setp` (Tables 12–15).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Lo,
    Ls,
    Hi,
    Hs,
    Equ,
    Neu,
    Ltu,
    Leu,
    Gtu,
    Geu,
    Num,
    Nan,
}

/// Boolean operator `BoolOp` that combines the comparison with `[!]c`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoolOp {
    And,
    Or,
    Xor,
}

/// The ordering an integer or numeric float comparison asks about.
#[derive(Clone, Copy)]
enum Rel {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    /// `num` on numbers (true), `nan` on numbers (false).
    Const(bool),
}

/// Splits an operator into (relation on numbers, result when an operand is NaN).
#[inline]
fn decompose(op: CmpOp) -> (Rel, bool) {
    match op {
        CmpOp::Eq => (Rel::Eq, false),
        CmpOp::Ne => (Rel::Ne, false),
        CmpOp::Lt | CmpOp::Lo => (Rel::Lt, false),
        CmpOp::Le | CmpOp::Ls => (Rel::Le, false),
        CmpOp::Gt | CmpOp::Hi => (Rel::Gt, false),
        CmpOp::Ge | CmpOp::Hs => (Rel::Ge, false),
        CmpOp::Equ => (Rel::Eq, true),
        CmpOp::Neu => (Rel::Ne, true),
        CmpOp::Ltu => (Rel::Lt, true),
        CmpOp::Leu => (Rel::Le, true),
        CmpOp::Gtu => (Rel::Gt, true),
        CmpOp::Geu => (Rel::Ge, true),
        CmpOp::Num => (Rel::Const(true), false),
        CmpOp::Nan => (Rel::Const(false), true),
    }
}

#[inline]
fn holds<T: PartialOrd>(rel: Rel, a: T, b: T) -> bool {
    match rel {
        Rel::Eq => a == b,
        Rel::Ne => a != b,
        Rel::Lt => a < b,
        Rel::Le => a <= b,
        Rel::Gt => a > b,
        Rel::Ge => a >= b,
        Rel::Const(v) => v,
    }
}

/// Signed integer comparison (`.s16 .s32 .s64`). The unsigned spellings `lo ls hi hs` and the
/// unordered ones act as their ordered signed counterparts (integers are never NaN).
#[inline]
pub fn cmp_signed(op: CmpOp, a: i64, b: i64) -> bool {
    holds(decompose(op).0, a, b)
}

/// Unsigned and bit-size comparison (`.uN`, `.bN`; `lt le gt ge` mean `lo ls hi hs` here,
/// as PTX 1.1 Table 78 allows).
#[inline]
pub fn cmp_unsigned(op: CmpOp, a: u64, b: u64) -> bool {
    holds(decompose(op).0, a, b)
}

/// `.f32` comparison; `ftz` (`setp.ftz`) flushes subnormal operands first. Widening to f64 is
/// exact and keeps NaN-ness, so the f64 rules apply unchanged.
#[inline]
pub fn cmp_f32(op: CmpOp, a: f32, b: f32, ftz: bool) -> bool {
    let (a, b) = if ftz {
        (flush_f32(a), flush_f32(b))
    } else {
        (a, b)
    };
    cmp_f64(op, f64::from(a), f64::from(b))
}

/// `.f64` comparison.
#[inline]
pub fn cmp_f64(op: CmpOp, a: f64, b: f64) -> bool {
    let (rel, on_nan) = decompose(op);
    if a.is_nan() || b.is_nan() {
        on_nan
    } else {
        holds(rel, a, b)
    }
}

/// `BoolOp(t, c)`.
#[inline]
pub fn bool_op(op: BoolOp, t: bool, c: bool) -> bool {
    match op {
        BoolOp::And => t & c,
        BoolOp::Or => t | c,
        BoolOp::Xor => t ^ c,
    }
}

/// `setp` destinations from the comparison result `t`: `(p, q) = (BoolOp(t, c), BoolOp(!t, c))`;
/// without a `BoolOp`, pass `None` and get `(t, !t)`. `c` is already negated for `!c`.
#[inline]
pub fn setp(t: bool, combine: Option<(BoolOp, bool)>) -> (bool, bool) {
    match combine {
        None => (t, !t),
        Some((op, c)) => (bool_op(op, t, c), bool_op(op, !t, c)),
    }
}

/// `set` destination bits for a (combined) result: `0xFFFFFFFF`/`0` for `.u32 .s32`,
/// `1.0f`/`0` for `.f32` (Table 29).
#[inline]
pub fn set_bits(r: bool, float_dst: bool) -> u32 {
    match (r, float_dst) {
        (false, _) => 0,
        (true, false) => 0xffff_ffff,
        (true, true) => 1.0f32.to_bits(),
    }
}

/// The per-half "true" of packed `set` (PTX ISA 8.x §9.7.6.1): all ones for a `.u32`/`.s32`
/// destination, 1.0 for a `.f16x2` (0x3c00) or `.bf16x2` (0x3f80) destination.
pub const SET_HALF_TRUE_INT: u16 = 0xffff;
pub const SET_HALF_TRUE_F16: u16 = 0x3c00;
pub const SET_HALF_TRUE_BF16: u16 = 0x3f80;

/// `set.CmpOp.dtype.{f16x2,bf16x2}` (PTX ISA 8.x §9.7.6.1): each 16-bit half of the
/// destination is `one` when the comparison of the matching source halves holds, else 0.
#[inline]
pub fn set_bits_half2(lo: bool, hi: bool, one: u16) -> u32 {
    let one = u32::from(one);
    (u32::from(lo) * one) | (u32::from(hi) * (one << 16))
}

/// `selp.type d, a, b, c` (Table 31): `c ? a : b`.
#[inline]
pub fn selp<T>(a: T, b: T, c: bool) -> T {
    if c {
        a
    } else {
        b
    }
}

/// `slct.dtype.s32 d, a, b, c` (Table 32): `c >= 0 ? a : b`.
#[inline]
pub fn slct_s32<T>(a: T, b: T, c: i32) -> T {
    if c >= 0 {
        a
    } else {
        b
    }
}

/// `slct{.ftz}.dtype.f32 d, a, b, c` (Table 32): `c >= 0 ? a : b`; NaN `c` selects `b`.
/// PTX 1.1 always flushes a subnormal `c` (so it selects `a`): pass `ftz = true` for it, and the
/// modern `.ftz` flag otherwise (without it, a negative subnormal selects `b`).
#[inline]
pub fn slct_f32<T>(a: T, b: T, c: f32, ftz: bool) -> T {
    let c = if ftz { flush_f32(c) } else { c };
    if c >= 0.0 {
        a
    } else {
        b
    }
}

/// `slct.f32.ctype` data rule of PTX 1.1: "for .f32 data selections, denorm results are
/// flushed to zero" — apply to the selected value when `ftz` (always under PTX 1.x).
#[inline]
pub fn slct_data_f32(selected: f32, ftz: bool) -> f32 {
    if ftz {
        flush_f32(selected)
    } else {
        selected
    }
}
