//! Symbol tables: module scope, and per-function scopes for registers and variables declared in
//! bodies and nested `{ }` blocks (ptx-isa-1.1 §7.7.6 Table 45: "any variable declared within a
//! scope is not available outside the scope").

use diag::Span;
use ir::{FuncId, ProtoId, RegId, VarId};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// The Fx hash (rustc's): names are short and trusted to be non-adversarial enough, and the
/// checker does a hash lookup for nearly every operand.
#[derive(Default, Clone, Copy)]
pub(crate) struct FxHasher(u64);

impl Hasher for FxHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        const K: u64 = 0x51_7c_c1_b7_27_22_0a_95;
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(w)).wrapping_mul(K);
        }
        for &b in chunks.remainder() {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(K);
        }
    }
}

pub(crate) type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;

/// A module-scope name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ModSym {
    Var(VarId),
    Func(FuncId),
    Proto(ProtoId),
}

#[derive(Default)]
pub(crate) struct ModuleSyms<'a> {
    map: FastMap<&'a str, (ModSym, Span)>,
}

impl<'a> ModuleSyms<'a> {
    pub fn get(&self, name: &str) -> Option<(ModSym, Span)> {
        self.map.get(name).copied()
    }
    /// Declares a name; on a clash returns the earlier declaration's span.
    pub fn declare(&mut self, name: &'a str, sym: ModSym, span: Span) -> Result<(), Span> {
        if let Some((_, prev)) = self.map.get(name) {
            return Err(*prev);
        }
        self.map.insert(name, (sym, span));
        Ok(())
    }
    pub fn set(&mut self, name: &'a str, sym: ModSym, span: Span) {
        self.map.insert(name, (sym, span));
    }
}

/// A name declared in a function (parameters, registers, body variables).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LocalSym {
    Reg(RegId),
    /// A `.reg .vN` vector register: `len` consecutive registers from `first`.
    VecReg {
        first: RegId,
        len: u8,
    },
    Var(VarId),
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    sym: LocalSym,
    depth: u32,
    span: Span,
}

/// `%r<N>`: registers `%r0 … %r{N-1}`, ids `base .. base+N`.
#[derive(Clone, Copy, Debug)]
struct RangeDecl<'a> {
    prefix: &'a str,
    count: u32,
    base: RegId,
    depth: u32,
    span: Span,
}

/// The scopes of one function body, flattened into one map with an undo log so entering and
/// leaving a `{ }` block costs nothing per name outside it.
#[derive(Default)]
pub(crate) struct FuncScope<'a> {
    names: FastMap<&'a str, Entry>,
    ranges: Vec<RangeDecl<'a>>,
    /// (name, shadowed entry) in declaration order, undone on scope exit.
    log: Vec<(&'a str, Option<Entry>)>,
    /// Per open scope: log length and range count at entry.
    marks: Vec<(usize, usize)>,
    depth: u32,
}

impl<'a> FuncScope<'a> {
    /// Empties the scope but keeps its allocations for the next function.
    pub fn clear(&mut self) {
        self.names.clear();
        self.ranges.clear();
        self.log.clear();
        self.marks.clear();
        self.depth = 0;
    }

    pub fn enter(&mut self) {
        self.marks.push((self.log.len(), self.ranges.len()));
        self.depth += 1;
    }

    pub fn leave(&mut self) {
        let Some((log_len, ranges_len)) = self.marks.pop() else {
            return;
        };
        while self.log.len() > log_len {
            if let Some((name, prev)) = self.log.pop() {
                match prev {
                    Some(e) => {
                        self.names.insert(name, e);
                    }
                    None => {
                        self.names.remove(name);
                    }
                }
            }
        }
        self.ranges.truncate(ranges_len);
        self.depth = self.depth.saturating_sub(1);
    }

    /// Declares a name in the innermost scope; on a clash in the same scope returns the
    /// earlier declaration's span.
    pub fn declare(&mut self, name: &'a str, sym: LocalSym, span: Span) -> Result<(), Span> {
        if let Some(prev) = self.lookup_entry(name) {
            if prev.depth == self.depth {
                return Err(prev.span);
            }
        }
        let prev = self.names.insert(
            name,
            Entry {
                sym,
                depth: self.depth,
                span,
            },
        );
        self.log.push((name, prev));
        Ok(())
    }

    /// Declares `prefix<count>`, registers `base ..`.
    pub fn declare_range(
        &mut self,
        prefix: &'a str,
        count: u32,
        base: RegId,
        span: Span,
    ) -> Result<(), Span> {
        if let Some(prev) = self
            .ranges
            .iter()
            .rev()
            .find(|r| r.prefix == prefix && r.depth == self.depth)
        {
            return Err(prev.span);
        }
        self.ranges.push(RangeDecl {
            prefix,
            count,
            base,
            depth: self.depth,
            span,
        });
        Ok(())
    }

    pub fn lookup(&self, name: &str) -> Option<LocalSym> {
        self.lookup_entry(name).map(|e| e.sym)
    }

    fn lookup_entry(&self, name: &str) -> Option<Entry> {
        let direct = self.names.get(name).copied();
        // Ranges are pushed in scope order, so the last one is the innermost: a direct hit at
        // least that deep cannot be shadowed by a range.
        let innermost_range = self.ranges.last().map(|r| r.depth);
        if let Some(d) = direct {
            if innermost_range.is_none_or(|rd| d.depth >= rd) {
                return Some(d);
            }
        }
        let ranged = self.lookup_range(name);
        match (direct, ranged) {
            (Some(d), Some(r)) => Some(if r.depth > d.depth { r } else { d }),
            (d, r) => d.or(r),
        }
    }

    fn lookup_range(&self, name: &str) -> Option<Entry> {
        if self.ranges.is_empty() {
            return None;
        }
        let digits_at = name
            .bytes()
            .rposition(|b| !b.is_ascii_digit())
            .map_or(0, |i| i + 1);
        let (prefix, digits) = name.split_at(digits_at);
        if digits.is_empty() || (digits.len() > 1 && digits.starts_with('0')) {
            return None;
        }
        let n: u32 = digits.parse().ok()?;
        let r = self
            .ranges
            .iter()
            .rev()
            .find(|r| r.prefix == prefix && n < r.count)?;
        Some(Entry {
            sym: LocalSym::Reg(RegId(r.base.0.checked_add(n)?)),
            depth: r.depth,
            span: r.span,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shadowing_and_scope_exit() {
        let mut s = FuncScope::default();
        let sp = Span::new(0, 1);
        s.declare("%a", LocalSym::Reg(RegId(0)), sp).unwrap();
        s.enter();
        s.declare("%a", LocalSym::Reg(RegId(1)), sp).unwrap();
        assert_eq!(s.lookup("%a"), Some(LocalSym::Reg(RegId(1))));
        assert!(s.declare("%a", LocalSym::Reg(RegId(2)), sp).is_err());
        s.leave();
        assert_eq!(s.lookup("%a"), Some(LocalSym::Reg(RegId(0))));
    }

    #[test]
    fn parameterized_ranges() {
        let mut s = FuncScope::default();
        let sp = Span::new(0, 1);
        s.declare_range("%r", 29, RegId(10), sp).unwrap();
        assert_eq!(s.lookup("%r0"), Some(LocalSym::Reg(RegId(10))));
        assert_eq!(s.lookup("%r28"), Some(LocalSym::Reg(RegId(38))));
        assert_eq!(s.lookup("%r29"), None);
        assert_eq!(s.lookup("%r01"), None);
        assert_eq!(s.lookup("%rd1"), None);
        s.enter();
        s.declare("%r3", LocalSym::Reg(RegId(99)), sp).unwrap();
        assert_eq!(s.lookup("%r3"), Some(LocalSym::Reg(RegId(99))));
        s.leave();
        assert_eq!(s.lookup("%r3"), Some(LocalSym::Reg(RegId(13))));
    }
}
