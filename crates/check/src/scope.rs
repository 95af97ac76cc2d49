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
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut rest = bytes;
        while let Some((word, r)) = rest.split_first_chunk::<8>() {
            self.mix(u64::from_le_bytes(*word));
            rest = r;
        }
        if rest.is_empty() {
            return;
        }
        // The last partial word in one step (names are mostly shorter than 8 bytes or just
        // over): the input's last 8 bytes, overlapping the words already mixed, or for a
        // shorter input a few loads that together cover every byte.
        let n = bytes.len();
        let tail = match bytes.last_chunk::<8>() {
            Some(w) => u64::from_le_bytes(*w),
            None if n >= 4 => {
                let lo = bytes
                    .first_chunk::<4>()
                    .map_or(0, |w| u32::from_le_bytes(*w));
                let hi = bytes
                    .last_chunk::<4>()
                    .map_or(0, |w| u32::from_le_bytes(*w));
                u64::from(lo) | u64::from(hi) << 32
            }
            None => {
                let at = |i: usize| u64::from(bytes.get(i).copied().unwrap_or(0));
                at(0) | at(n / 2) << 8 | at(n - 1) << 16
            }
        };
        self.mix(tail ^ (n as u64) << 56);
    }
}

impl FxHasher {
    #[inline]
    fn mix(&mut self, word: u64) {
        const K: u64 = 0x51_7c_c1_b7_27_22_0a_95;
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(K);
    }
}

pub(crate) type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;
pub(crate) type FastSet<T> = std::collections::HashSet<T, BuildHasherDefault<FxHasher>>;

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
        // One probe of a table that holds every function of the module (and is rarely in
        // cache), not a lookup and then an insert.
        match self.map.entry(name) {
            std::collections::hash_map::Entry::Occupied(e) => Err(e.get().1),
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert((sym, span));
                Ok(())
            }
        }
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
    /// `prefix` as a [`head_word`] when it is at most seven bytes (as compilers' `%r`, `%rd`,
    /// `%p` are), so matching a register against the ranges is a compare of words: a name
    /// starts with the prefix when its head word under `mask` is `key`. (`mask` is 0 for a
    /// longer prefix, which is compared as bytes.)
    key: u64,
    mask: u64,
    count: u32,
    base: RegId,
    /// Elements per member: 1 for scalar registers, 2 or 4 for `.reg .v4 .u16 %v<3>;`, whose
    /// member `k` is the vector register of elements `base + k*lanes ..`.
    lanes: u8,
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
    /// Whether a name declared one by one has ever had the shape of a member of a range
    /// declared in this function (`%r3` beside `%r<4>`). Until then a name a range covers
    /// resolves to the range without a hash lookup (most operands are such registers).
    mixed: bool,
}

impl<'a> FuncScope<'a> {
    /// Empties the scope but keeps its allocations for the next function.
    pub fn clear(&mut self) {
        self.names.clear();
        self.ranges.clear();
        self.log.clear();
        self.marks.clear();
        self.depth = 0;
        self.mixed = false;
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
        self.mixed |= self.lookup_range(name).is_some();
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
    #[cfg(test)]
    pub fn declare_range(
        &mut self,
        prefix: &'a str,
        count: u32,
        base: RegId,
        span: Span,
    ) -> Result<(), Span> {
        self.declare_vector_range(prefix, count, base, 1, span)
    }

    /// Declares `prefix<count>` of vector registers of `lanes` elements each, registers
    /// `base ..` (member `k` holds `base + k*lanes ..`).
    pub fn declare_vector_range(
        &mut self,
        prefix: &'a str,
        count: u32,
        base: RegId,
        lanes: u8,
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
        let (key, mask) = if prefix.len() <= 7 {
            (head_word(prefix.as_bytes()), low_bytes(prefix.len()))
        } else {
            (0, 0)
        };
        let range = RangeDecl {
            prefix,
            key,
            mask,
            count,
            base,
            lanes,
            depth: self.depth,
            span,
        };
        // Past a few dozen names, scanning them costs more than the slow lookups it saves.
        self.mixed |= self.names.len() > 64
            || self.names.keys().any(|name| {
                let bytes = name.as_bytes();
                range.index_of(bytes, head_word(bytes)).is_some()
            });
        self.ranges.push(range);
        Ok(())
    }

    pub fn lookup(&self, name: &str) -> Option<LocalSym> {
        self.lookup_entry(name).map(|e| e.sym)
    }

    fn lookup_entry(&self, name: &str) -> Option<Entry> {
        if !self.mixed {
            // No declared name is also a range member: at most one of the two can hit.
            return self
                .lookup_range(name)
                .or_else(|| self.names.get(name).copied());
        }
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
        let bytes = name.as_bytes();
        let word = head_word(bytes);
        // A plain loop (this runs for nearly every operand): later ranges first, since an
        // inner scope's range shadows an outer one's.
        for r in self.ranges.iter().rev() {
            let Some(n) = r.index_of(bytes, word) else {
                continue;
            };
            let sym = if r.lanes > 1 {
                LocalSym::VecReg {
                    first: RegId(r.base.0.checked_add(n.checked_mul(u32::from(r.lanes))?)?),
                    len: r.lanes,
                }
            } else {
                LocalSym::Reg(RegId(r.base.0.checked_add(n)?))
            };
            return Some(Entry {
                sym,
                depth: r.depth,
                span: r.span,
            });
        }
        None
    }
}

impl RangeDecl<'_> {
    /// The member index of the name `bytes` (whose [`head_word`] is `word`) in this range.
    #[inline]
    fn index_of(&self, bytes: &[u8], word: u64) -> Option<u32> {
        let len = self.prefix.len();
        if len >= bytes.len() {
            return None;
        }
        let prefix_matches = if self.mask != 0 {
            word & self.mask == self.key
        } else {
            bytes.starts_with(self.prefix.as_bytes())
        };
        if !prefix_matches {
            return None;
        }
        parse_index(bytes.get(len..)?).filter(|&n| n < self.count)
    }
}

/// The decimal index after a range's prefix: digits only, no leading zero (the declaration
/// `%r<N>` names `%r0 … %r{N-1}`).
fn parse_index(digits: &[u8]) -> Option<u32> {
    let (&first, rest) = digits.split_first()?;
    if !first.is_ascii_digit() || (first == b'0' && !rest.is_empty()) {
        return None;
    }
    let mut n = u32::from(first - b'0');
    for &d in rest {
        if !d.is_ascii_digit() {
            return None;
        }
        n = n.checked_mul(10)?.checked_add(u32::from(d - b'0'))?;
    }
    Some(n)
}

/// The first eight bytes of `bytes` as a little-endian word, zero-padded; compared under
/// [`low_bytes`], it matches a short range prefix in one step instead of a `memcmp` call.
#[inline]
fn head_word(bytes: &[u8]) -> u64 {
    match bytes.first_chunk::<8>() {
        Some(w) => u64::from_le_bytes(*w),
        None => bytes
            .iter()
            .enumerate()
            .fold(0, |w, (i, &c)| w | u64::from(c) << (8 * i)),
    }
}

/// The low `n` bytes of a word set (`n` ≤ 7).
fn low_bytes(n: usize) -> u64 {
    (1u64 << (8 * n)) - 1
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

    /// A name declared one by one before a range that covers it: the innermost of the two
    /// wins, whichever order they came in.
    #[test]
    fn names_declared_before_a_covering_range() {
        let mut s = FuncScope::default();
        let sp = Span::new(0, 1);
        s.declare("%r3", LocalSym::Reg(RegId(7)), sp).unwrap();
        s.declare("%rd1", LocalSym::Reg(RegId(8)), sp).unwrap();
        assert!(s.declare_range("%r", 4, RegId(20), sp).is_ok());
        // Same scope: the one-by-one name came first and is not shadowed by the range.
        assert_eq!(s.lookup("%r3"), Some(LocalSym::Reg(RegId(7))));
        assert_eq!(s.lookup("%r2"), Some(LocalSym::Reg(RegId(22))));
        s.enter();
        s.declare_range("%r", 8, RegId(40), sp).unwrap();
        assert_eq!(s.lookup("%r3"), Some(LocalSym::Reg(RegId(43))));
        assert_eq!(s.lookup("%rd1"), Some(LocalSym::Reg(RegId(8))));
        s.leave();
        assert_eq!(s.lookup("%r3"), Some(LocalSym::Reg(RegId(7))));
        assert_eq!(s.lookup("%r7"), None);
    }

    /// Long prefixes (not packed into a word) and prefixes that differ only in length.
    #[test]
    fn range_prefixes_compare_exactly() {
        let mut s = FuncScope::default();
        let sp = Span::new(0, 1);
        s.declare_range("%very_long_prefix", 2, RegId(0), sp)
            .unwrap();
        s.declare_range("%r", 2, RegId(10), sp).unwrap();
        s.declare_range("%rd", 2, RegId(20), sp).unwrap();
        assert_eq!(
            s.lookup("%very_long_prefix1"),
            Some(LocalSym::Reg(RegId(1)))
        );
        assert_eq!(s.lookup("%very_long_prefi1"), None);
        assert_eq!(s.lookup("%r1"), Some(LocalSym::Reg(RegId(11))));
        assert_eq!(s.lookup("%rd1"), Some(LocalSym::Reg(RegId(21))));
        assert_eq!(s.lookup("%rd"), None);
    }
    /// A prefix that ends in a digit: `%a1<3>` names `%a10`, `%a11`, `%a12`; where two ranges
    /// both cover a name, the later one wins.
    #[test]
    fn prefixes_ending_in_digits() {
        let mut s = FuncScope::default();
        let sp = Span::new(0, 1);
        s.declare_range("%a", 20, RegId(0), sp).unwrap();
        assert_eq!(s.lookup("%a10"), Some(LocalSym::Reg(RegId(10))));
        s.declare_range("%a1", 3, RegId(100), sp).unwrap();
        assert_eq!(s.lookup("%a10"), Some(LocalSym::Reg(RegId(100))));
        assert_eq!(s.lookup("%a12"), Some(LocalSym::Reg(RegId(102))));
        assert_eq!(s.lookup("%a13"), Some(LocalSym::Reg(RegId(13))));
        assert_eq!(s.lookup("%a1"), Some(LocalSym::Reg(RegId(1))));
        assert_eq!(s.lookup("%a100"), None);
        assert_eq!(s.lookup("%a010"), None);
    }
}
