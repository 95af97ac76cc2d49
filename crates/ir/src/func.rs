//! Functions, entries, their registers and parameters.

use crate::{Inst, InstIdx, Linkage, RegId, Type, VarId};
use diag::Span;
use std::borrow::Cow;
use std::fmt;

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
    /// A function as its header declares it: no parameters, registers or body yet, no
    /// performance directives or CTA dimensions.
    pub fn declared(name: String, kind: FuncKind, linkage: Linkage, span: Span) -> Function {
        Function {
            name,
            kind,
            linkage,
            params: Vec::new(),
            rets: Vec::new(),
            regs: Vec::new(),
            locals: Vec::new(),
            body: None,
            labels: Vec::new(),
            perf: PerfDirectives::default(),
            cta_dims: None,
            span,
        }
    }

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

/// A register's source name. Short names (all that compilers emit: `%r12`, `%rd3`, `%f151`) are
/// stored inline: a function declares hundreds of registers, and an allocation each was a
/// large part of checking time. A register of a parameterized declaration (`%r<29>`) keeps its
/// prefix and number, and is spelled out only when asked: its name is wanted for messages
/// alone, and formatting every one of them was a tenth of checking a function.
#[derive(Clone)]
pub struct RegName(Repr);

#[derive(Clone)]
enum Repr {
    /// `bytes[..len]` is the name (valid UTF-8); the rest is zero.
    Inline {
        len: u8,
        bytes: [u8; INLINE],
    },
    /// `prefix[..len]` (valid UTF-8) followed by the decimal `index`.
    Indexed {
        len: u8,
        prefix: [u8; INDEXED_PREFIX],
        index: u32,
    },
    Heap(Box<str>),
}

/// Longest name stored inline (keeps `Reg` at 32 bytes).
const INLINE: usize = 22;

/// Longest prefix of an indexed name stored inline (with the index, as large as `INLINE`).
const INDEXED_PREFIX: usize = 14;

impl RegName {
    /// A name as written (`%p`, `v.x`).
    #[inline]
    pub fn new(name: &str) -> Self {
        let mut bytes = [0u8; INLINE];
        match bytes.get_mut(..name.len()) {
            Some(dst) => {
                dst.copy_from_slice(name.as_bytes());
                RegName(Repr::Inline {
                    len: name.len() as u8,
                    bytes,
                })
            }
            None => RegName(Repr::Heap(name.into())),
        }
    }

    /// Register `index` of the parameterized declaration `prefix<N>` (`%r` and 12 → `%r12`).
    #[inline]
    pub fn indexed(prefix: &str, index: u32) -> Self {
        if prefix.len() > INDEXED_PREFIX {
            return RegName::new(&format!("{prefix}{index}"));
        }
        let mut bytes = [0u8; INDEXED_PREFIX];
        // A byte loop: these prefixes are a few bytes, and `copy_from_slice` calls `memcpy`.
        for (dst, src) in bytes.iter_mut().zip(prefix.bytes()) {
            *dst = src;
        }
        RegName(Repr::Indexed {
            len: prefix.len() as u8,
            prefix: bytes,
            index,
        })
    }

    /// Register `index` of the same parameterized declaration as this name, made without
    /// copying the prefix from text again; `None` unless the name is stored as prefix and index
    /// (a long prefix is not: see [`RegName::indexed`]).
    #[inline]
    pub fn renumbered(&self, index: u32) -> Option<Self> {
        match &self.0 {
            Repr::Indexed { len, prefix, .. } => Some(RegName(Repr::Indexed {
                len: *len,
                prefix: *prefix,
                index,
            })),
            Repr::Inline { .. } | Repr::Heap(_) => None,
        }
    }

    /// The name; borrowed unless it is a parameterized register's, which is spelled out.
    pub fn as_str(&self) -> Cow<'_, str> {
        match &self.0 {
            Repr::Inline { len, bytes } => Cow::Borrowed(utf8_prefix(bytes, *len)),
            Repr::Indexed { .. } => Cow::Owned(self.to_string()),
            Repr::Heap(s) => Cow::Borrowed(s),
        }
    }
}

/// `bytes[..len]` as text ("" if that is not UTF-8, which the constructors rule out).
fn utf8_prefix(bytes: &[u8], len: u8) -> &str {
    bytes
        .get(..usize::from(len))
        .and_then(|b| std::str::from_utf8(b).ok())
        .unwrap_or("")
}

impl fmt::Display for RegName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Repr::Inline { len, bytes } => f.write_str(utf8_prefix(bytes, *len)),
            Repr::Indexed { len, prefix, index } => {
                write!(f, "{}{index}", utf8_prefix(prefix, *len))
            }
            Repr::Heap(s) => f.write_str(s),
        }
    }
}

impl fmt::Debug for RegName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RegName({:?})", self.as_str())
    }
}

/// Names are equal when they spell the same, however they are stored.
impl PartialEq for RegName {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for RegName {}

impl PartialEq<str> for RegName {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for RegName {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
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
    use super::{Reg, RegName};

    #[test]
    fn indexed_names_are_the_prefix_and_the_decimal_index() {
        for prefix in ["%r", "%rd", "%a_very_long_register_prefix_"] {
            for i in [0u32, 7, 10, 99, 12345, u32::MAX] {
                let n = RegName::indexed(prefix, i);
                assert_eq!(n.as_str(), format!("{prefix}{i}"));
                assert_eq!(n.to_string(), format!("{prefix}{i}"));
                assert_eq!(n, RegName::new(&format!("{prefix}{i}")));
                let renumbered = RegName::indexed(prefix, 3).renumbered(i);
                assert_eq!(
                    renumbered.is_some(),
                    prefix.len() <= super::INDEXED_PREFIX,
                    "{prefix}"
                );
                assert!(renumbered.is_none_or(|r| r == n));
            }
        }
    }

    #[test]
    fn names_of_every_length_round_trip() {
        for len in 0..40 {
            let name: String = "%abcdefghijklmnopqrstuvwxyz0123456789.xyzw"
                .chars()
                .take(len)
                .collect();
            let n = RegName::new(&name);
            assert_eq!(n.as_str(), name);
            assert!(n == name.as_str());
        }
        assert_eq!(RegName::new("v.x").as_str(), "v.x");
        assert_eq!(std::mem::size_of::<Reg>(), 32);
    }
}
