//! Functions, entries, their registers and parameters.

use crate::{Inst, InstIdx, Linkage, RegId, Type, VarId};
use diag::Span;
use std::fmt;
use std::sync::Arc;

/// A `.entry` kernel or a `.func`.
#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    pub name: String,
    pub kind: FuncKind,
    pub linkage: Linkage,
    /// Input parameters in order. For a ptx-isa-1.1 `.entry` written without a parameter list,
    /// these are the `.param` variables declared at the top level of its body (§9.1 Table 68,
    /// "per-CTA naming scope … for .shared and .param variable declarations"), in declaration
    /// order, with `VarScope::Param`.
    pub params: Vec<Param>,
    /// Return parameters in order (`.func (.reg .b32 r) f(...)`); empty for entries.
    pub rets: Vec<Param>,
    /// Every register of the function, including parameters passed in registers, with
    /// parameterised declarations (`%r<29>`) expanded and `{ }` scopes flattened: a register
    /// declared in an inner block gets its own id even if its name shadows an outer one.
    /// Vector registers (`.reg .v4 .f32 v`) are expanded to one register per element, in order.
    pub regs: Vec<Reg>,
    /// Variables declared in the body (`.local`, `.shared`, `.param`, ...), ids into
    /// [`Module::vars`](crate::Module::vars).
    pub locals: Vec<VarId>,
    /// The instructions; `None` for a declaration without a body (prototype or `.extern`).
    /// Register declarations with initializers (`.reg .s32 i = 0;`, ptx-isa-1.1 §5.3.1) appear
    /// as `mov` instructions at the start, before the first written instruction.
    pub body: Option<Vec<Inst>>,
    /// Labels with the instruction they mark, for messages and disassembly.
    pub labels: Vec<(String, InstIdx)>,
    pub perf: PerfDirectives,
    /// ptx-isa-1.1 `.entry name [NTID.2][NTID.1][NTID.0]` constants, x first: `None` without
    /// brackets; omitted brackets are 1 and empty brackets 0 (unknown until run time).
    pub cta_dims: Option<[u32; 3]>,
    /// The `.entry`/`.func` header, for messages.
    pub span: Span,
}

impl Function {
    pub fn reg(&self, id: RegId) -> Option<&Reg> {
        self.regs.get(id.index())
    }
    /// The body, or an empty slice for a declaration.
    pub fn insts(&self) -> &[Inst] {
        self.body.as_deref().unwrap_or(&[])
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FuncKind {
    Entry,
    Func,
}

/// One register.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reg {
    /// The declared type (`.pred` for predicates).
    pub ty: Type,
    /// Source name (`%r12`, `v.x` for an element of a vector register).
    pub name: RegName,
}

/// A register's source name. The registers of a parameterized declaration (`%r<152>`) share
/// one allocation of their prefix: compiler output declares hundreds of registers per
/// function, and a `String` each was a large part of checking time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegName {
    base: Arc<str>,
    /// `Some(12)` for `%r12` declared by `%r<N>`: the name is `base` followed by the number.
    index: Option<u32>,
}

impl RegName {
    /// A name written out in full (`%p`, `v.x`).
    pub fn new(name: &str) -> Self {
        RegName {
            base: Arc::from(name),
            index: None,
        }
    }
    /// Register `index` of the declaration `prefix<N>`.
    pub fn indexed(prefix: Arc<str>, index: u32) -> Self {
        RegName {
            base: prefix,
            index: Some(index),
        }
    }
    /// Whether this is the name `s` as written in the source.
    pub fn is(&self, s: &str) -> bool {
        match self.index {
            None => *self.base == *s,
            Some(i) => s.strip_prefix(&*self.base).is_some_and(|d| {
                !d.is_empty()
                    && d.bytes().all(|b| b.is_ascii_digit())
                    && (d == "0" || !d.starts_with('0'))
                    && d.parse::<u32>() == Ok(i)
            }),
        }
    }
}

impl fmt::Display for RegName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.index {
            None => f.write_str(&self.base),
            Some(i) => write!(f, "{}{i}", self.base),
        }
    }
}

impl PartialEq<str> for RegName {
    fn eq(&self, other: &str) -> bool {
        self.is(other)
    }
}

impl PartialEq<&str> for RegName {
    fn eq(&self, other: &&str) -> bool {
        self.is(other)
    }
}

/// A function parameter: a register (ptx-isa-1.1 `.func (.reg .b32 r) f (.reg .b32 a)`) or a
/// `.param` variable (modern ABI; kernel parameters are always `.param`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Param {
    Reg(RegId),
    Var(VarId),
}

/// Performance-tuning directives of an entry or function (PTX ISA 8.x §11.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct PerfDirectives {
    /// `.maxntid nx{, ny{, nz}}`, missing dimensions 1.
    pub maxntid: Option<[u32; 3]>,
    /// `.reqntid nx{, ny{, nz}}`, missing dimensions 1.
    pub reqntid: Option<[u32; 3]>,
    pub minnctapersm: Option<u32>,
    pub maxnctapersm: Option<u32>,
    pub maxnreg: Option<u32>,
}

/// A `.callprototype` declaration: the signature an indirect call must match.
#[derive(Clone, Debug, PartialEq)]
pub struct Prototype {
    pub name: String,
    /// Parameter types in order (size in bytes and alignment for `.b8 x[N]` aggregates).
    pub params: Vec<ProtoParam>,
    pub rets: Vec<ProtoParam>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProtoParam {
    pub ty: Type,
    pub size: u64,
    pub align: u32,
}

#[cfg(test)]
mod tests {
    use super::RegName;
    use std::sync::Arc;

    #[test]
    fn indexed_names_print_and_compare_like_the_written_name() {
        let prefix: Arc<str> = Arc::from("%r");
        for i in [0u32, 7, 10, 99, 12345, u32::MAX] {
            let n = RegName::indexed(prefix.clone(), i);
            let written = format!("%r{i}");
            assert_eq!(n.to_string(), written);
            assert!(n.is(&written));
            assert!(!n.is(&format!("%r0{i}")));
            assert!(!n.is(&format!("%r{}", u64::from(i) + 1)));
            assert!(!n.is(&format!("%rd{i}")));
        }
        assert!(!RegName::indexed(prefix, 5).is("%r+5"));
        let plain = RegName::new("v.x");
        assert_eq!(plain.to_string(), "v.x");
        assert!(plain == "v.x" && plain != "v.y");
    }
}
