//! What the rows imply, computed at build time by `const fn`s: each row's fixed bits and mask,
//! its fields in the form the hot paths read, and the dispatch from a word to the row it may
//! be: by the opcode bits (0–3 and 58–63) plus the few other bits that tell apart the rows
//! sharing them (`route_key`). `decode.rs` and `encode.rs` instantiate their field code once
//! per row with that row's `RowInfo` as a constant ([`per_row!`]), so each row gets a decoder
//! and an encoder whose positions, widths and operand shapes are folded in.

use super::bits::{gather, get, mask, parse_template, scatter};
use super::rows::ROWS;
use super::schema::{Kind, Mod, Opd, Row, Source, NONE};
use super::types::{DecodeError, MAX_MODS, MAX_OPERANDS};

/// The guard predicate (3 bits) and its negation bit.
pub const GUARD_LO: u8 = 10;
/// `.S` (cuobjdump's scheduling/join flag), bit 4, on every row.
pub const SCHED_BIT: u8 = 4;

/// The most rows the per-row decoders and encoders are instantiated for.
pub const MAX_ROWS: usize = 256;
const _: () = assert!(
    ROWS.len() <= MAX_ROWS,
    "more rows than per-row codecs: raise MAX_ROWS (and the per_row! table)"
);

pub struct RowInfo {
    /// The mnemonic, for errors. (A decoded `Inst` points at the row in `ROWS` itself: a
    /// compiled constant may hold a copy of the row at another address.)
    pub name: &'static str,
    pub fixed: u64,
    pub mask: u64,
    /// Copied from the row so the per-row code reads it as a constant.
    pub guarded: bool,
    /// The modifier groups of the row, in order (the first `nmods` entries).
    pub nmods: usize,
    pub mods: [ModInfo; MAX_MODS],
    /// The operands of the row, in order (the first `nops` entries).
    pub nops: usize,
    pub ops: [OpInfo; MAX_OPERANDS],
    /// Whether some modifier group has a value without a spelling (else none needs checking).
    check_mods: bool,
    /// The index of the composite operand, whose selector and stray bits need checking.
    comp: Option<u8>,
}

impl RowInfo {
    #[inline(always)]
    pub fn mods(&self) -> &[ModInfo] {
        self.mods.get(..self.nmods).unwrap_or(&[])
    }

    #[inline(always)]
    pub fn ops(&self) -> &[OpInfo] {
        self.ops.get(..self.nops).unwrap_or(&[])
    }

    /// Whether a word with this row's fixed bits holds only encodings the table describes:
    /// every modifier value has a spelling, and the composite selector is a register (with no
    /// stray bits above it), a constant or an immediate.
    #[inline(always)]
    pub fn check(&self, bits: u64) -> Result<(), DecodeError> {
        if self.check_mods {
            for m in self.mods() {
                let v = m.get(bits);
                if !m.is_valid(v) {
                    return Err(DecodeError::BadModifier {
                        mnemonic: self.name,
                        what: m.src.what,
                        value: v as u8,
                    });
                }
            }
        }
        if let Some(index) = self.comp {
            let ok = match get(bits, 46, 2) {
                0 => get(bits, 32, 14) == 0,
                sel => sel != 2,
            };
            if !ok {
                return Err(DecodeError::BadOperand {
                    mnemonic: self.name,
                    index,
                });
            }
        }
        Ok(())
    }
}

/// An operand's shape without its text, small enough to copy on the hot paths.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Code {
    #[default]
    Reg,
    Pred,
    Comp,
    Imm,
    Mem,
    Cmem,
    Const,
    SplitPred,
    Sreg,
    Target,
    AbsTarget,
    Text,
    AtomMem,
    MemWords,
}

/// An operand prepared for the hot paths: its shape, position and width, and its decoration
/// bit positions (64 when the operand lacks one, which `bit_mask` turns into 0), so the hot
/// paths need no "has this bit?" branches.
#[derive(Clone, Copy, Debug)]
pub struct OpInfo {
    pub code: Code,
    pub at: u8,
    pub width: u8,
    pub signed: bool,
    neg: u8,
    not: u8,
    abs: u8,
    cc: u8,
}

/// The single-bit mask of position `p`, 0 for `p >= 64`.
#[inline(always)]
const fn bit_mask(p: u8) -> u64 {
    match 1u64.checked_shl(p as u32) {
        Some(m) => m,
        None => 0,
    }
}

/// A decoration bit position, or 64 for none.
const fn position(b: u8) -> u8 {
    if b == NONE {
        64
    } else {
        b
    }
}

impl OpInfo {
    const EMPTY: OpInfo = OpInfo {
        code: Code::Text,
        at: 0,
        width: 0,
        signed: false,
        neg: 64,
        not: 64,
        abs: 64,
        cc: 64,
    };

    pub const fn new(o: &Opd) -> OpInfo {
        let (code, width, signed) = match o.kind {
            Kind::Reg => (Code::Reg, 6, false),
            Kind::Pred => (Code::Pred, 3, false),
            Kind::Comp => (Code::Comp, 22, false),
            Kind::Imm { width, signed } => (Code::Imm, width, signed),
            Kind::Mem { width } => (Code::Mem, width, true),
            Kind::Cmem => (Code::Cmem, 16, false),
            Kind::Const => (Code::Const, 20, false),
            Kind::SplitPred => (Code::SplitPred, 3, false),
            Kind::Sreg => (Code::Sreg, 8, false),
            Kind::Target { width } => (Code::Target, width, true),
            Kind::AbsTarget { width } => (Code::AbsTarget, width, false),
            Kind::Text(_) => (Code::Text, 0, false),
            // A named field is an unsigned immediate to the codec; only its text differs.
            Kind::Named { width, .. } => (Code::Imm, width, false),
            Kind::AtomMem => (Code::AtomMem, 20, true),
            Kind::MemWords { width } => (Code::MemWords, width, true),
        };
        OpInfo {
            code,
            at: o.at,
            width,
            signed,
            neg: position(o.neg),
            not: position(o.not),
            abs: position(o.abs),
            cc: position(o.cc),
        }
    }
    #[inline(always)]
    pub fn neg(&self) -> u64 {
        bit_mask(self.neg)
    }
    #[inline(always)]
    pub fn not(&self) -> u64 {
        bit_mask(self.not)
    }
    #[inline(always)]
    pub fn abs(&self) -> u64 {
        bit_mask(self.abs)
    }
    #[inline(always)]
    pub fn cc(&self) -> u64 {
        bit_mask(self.cc)
    }
}

/// A modifier group prepared for the hot paths: adjacent bits become a shift and mask, and the
/// values that have a spelling (all fit a byte) become a 256-bit set.
#[derive(Clone, Copy, Debug)]
pub struct ModInfo {
    /// Whether the group's bits are adjacent and in order (then `lo`/`width` describe them).
    run: bool,
    lo: u8,
    width: u8,
    valid: [u64; 4],
    src: &'static Mod,
}

/// Stands in for the groups a row does not have.
const NO_MOD: Mod = Mod {
    what: "",
    bits: &[],
    names: &[],
    legacy: &[],
};

impl ModInfo {
    const EMPTY: ModInfo = ModInfo::new(&NO_MOD);

    const fn new(m: &'static Mod) -> ModInfo {
        let first = match m.bits.first() {
            Some(&b) => b,
            None => 0,
        };
        let mut run = true;
        let mut next = first as usize;
        let mut bits = m.bits;
        while let Some((&b, rest)) = bits.split_first() {
            run &= b as usize == next;
            next += 1;
            bits = rest;
        }
        let mut valid = [0u64; 4];
        let mut names = m.names;
        while let Some((&(v, _), rest)) = names.split_first() {
            let bit = 1u64 << (v & 63);
            match v >> 6 {
                0 => valid[0] |= bit,
                1 => valid[1] |= bit,
                2 => valid[2] |= bit,
                _ => valid[3] |= bit,
            }
            names = rest;
        }
        ModInfo {
            run,
            lo: first,
            width: m.bits.len() as u8,
            valid,
            src: m,
        }
    }

    /// The group's value in `bits`.
    #[inline(always)]
    pub fn get(&self, bits: u64) -> u64 {
        if self.run {
            get(bits, self.lo, self.width)
        } else {
            gather(bits, self.src.bits)
        }
    }

    /// The group's value placed in its bits.
    #[inline(always)]
    pub fn put(&self, v: u64) -> u64 {
        if self.run {
            (v & mask(0, self.width)) << self.lo
        } else {
            scatter(self.src.bits, v)
        }
    }

    /// Whether `v` has a spelling.
    #[inline(always)]
    pub const fn is_valid(&self, v: u64) -> bool {
        let word = match v >> 6 {
            0 => self.valid[0],
            1 => self.valid[1],
            2 => self.valid[2],
            3 => self.valid[3],
            _ => return false,
        };
        (word >> (v & 63)) & 1 == 1
    }

    /// Whether every value of the group's bits has a spelling.
    const fn is_total(&self) -> bool {
        if self.width > 8 {
            return false;
        }
        let mut v = 0u64;
        while v < 1 << self.width {
            if !self.is_valid(v) {
                return false;
            }
            v += 1;
        }
        true
    }
}

/// The bits an operand field occupies (value plus decorations).
pub const fn operand_mask(o: &Opd) -> u64 {
    let value = match o.kind {
        Kind::Reg => mask(o.at, 6),
        Kind::Pred => mask(o.at, 3),
        Kind::Comp => mask(26, 22),
        Kind::Imm { width, .. } => mask(o.at, width),
        Kind::Mem { width } => mask(20, 6) | mask(26, width),
        Kind::Cmem => mask(20, 6) | mask(26, 21),
        Kind::Const => mask(26, 20),
        Kind::SplitPred => mask(8, 2) | mask(58, 1),
        Kind::Sreg => mask(26, 8),
        Kind::Target { width } | Kind::AbsTarget { width } => mask(26, width),
        Kind::Text(_) => 0,
        Kind::Named { width, .. } => mask(o.at, width),
        Kind::AtomMem => mask(20, 6) | mask(26, 17) | mask(55, 3),
        Kind::MemWords { width } => mask(20, 6) | mask(o.at, width),
    };
    value
        | bit_mask(position(o.neg))
        | bit_mask(position(o.not))
        | bit_mask(position(o.abs))
        | bit_mask(position(o.cc))
}

/// Every bit any field of the row (or the guard and `.S`) occupies.
pub const fn field_mask(row: &Row) -> u64 {
    let mut used = 1 << SCHED_BIT;
    if row.guarded {
        used |= mask(GUARD_LO, 4);
    }
    let mut mods = row.mods;
    while let Some((m, rest)) = mods.split_first() {
        let mut bits = m.bits;
        while let Some((&b, more)) = bits.split_first() {
            used |= bit_mask(b);
            bits = more;
        }
        mods = rest;
    }
    let mut ops = row.operands;
    while let Some((o, rest)) = ops.split_first() {
        used |= operand_mask(o);
        ops = rest;
    }
    used
}

/// Compiles one row. Runs at build time for the table's rows, at run time only for a row
/// built outside the table.
pub const fn compile_row(row: &'static Row) -> RowInfo {
    // A malformed template is caught by the table tests; here it just never matches.
    let t = match parse_template(row.template) {
        Some(t) => t,
        None => u64::MAX,
    };
    let m = !field_mask(row);
    let mut mods = [ModInfo::EMPTY; MAX_MODS];
    let mut check_mods = false;
    let mut nmods = 0;
    {
        let mut slots: &mut [ModInfo] = &mut mods;
        let mut src = row.mods;
        while let (Some((slot, slots_rest)), Some((md, src_rest))) =
            (slots.split_first_mut(), src.split_first())
        {
            *slot = ModInfo::new(md);
            check_mods |= !slot.is_total();
            nmods += 1;
            slots = slots_rest;
            src = src_rest;
        }
    }
    let mut ops = [OpInfo::EMPTY; MAX_OPERANDS];
    let mut comp = None;
    let mut nops = 0;
    {
        let mut slots: &mut [OpInfo] = &mut ops;
        let mut src = row.operands;
        while let (Some((slot, slots_rest)), Some((o, src_rest))) =
            (slots.split_first_mut(), src.split_first())
        {
            *slot = OpInfo::new(o);
            if matches!(o.kind, Kind::Comp) && comp.is_none() {
                comp = Some(nops as u8);
            }
            nops += 1;
            slots = slots_rest;
            src = src_rest;
        }
    }
    RowInfo {
        name: row.name,
        fixed: t & m,
        mask: m,
        guarded: row.guarded,
        nmods,
        mods,
        nops,
        ops,
        check_mods,
        comp,
    }
}

/// Stands in for the rows beyond the table in the per-row instantiations (never dispatched to).
const NO_ROW: Row = Row {
    name: "",
    template: "",
    mods: &[],
    operands: &[],
    guarded: false,
    po: false,
    source: Source::Listings,
};

/// Row `i` of the table compiled, for the per-row codecs (`NO_ROW` past the end).
pub const fn row_info(i: usize) -> RowInfo {
    match ROWS.split_at_checked(i) {
        Some((_, [row, ..])) => compile_row(row),
        _ => compile_row(&NO_ROW),
    }
}

/// The position of `row` in `ROWS`, if it is one of the table's rows.
#[inline]
pub fn row_index(row: &'static Row) -> Option<usize> {
    let base = ROWS.as_ptr() as usize;
    let index = (row as *const Row as usize).wrapping_sub(base) / std::mem::size_of::<Row>();
    ROWS.get(index)
        .filter(|r| std::ptr::eq(*r, row))
        .map(|_| index)
}

/// The 10 opcode bits (0–3, 58–63) as a dispatch index.
#[inline(always)]
pub const fn key(bits: u64) -> usize {
    ((bits & 0xf) | ((bits >> 58) << 4)) as usize
}

/// The most rows that share one value of the opcode bits.
pub const MAX_CANDIDATES: usize = 8;
/// Marks an unused dispatch slot: past the rows, its `FIXED` entry matches no word.
pub const NO_CANDIDATE: u16 = MAX_ROWS as u16;

/// Each row's (mask, fixed bits) by index, then (0, 1), which no word matches, for
/// `NO_CANDIDATE` and beyond.
const FIXED: [(u64, u64); MAX_ROWS + 1] = fixed_bits();

const fn fixed_bits() -> [(u64, u64); MAX_ROWS + 1] {
    let mut out = [(0, 1); MAX_ROWS + 1];
    let mut slots: &mut [(u64, u64)] = &mut out;
    let mut rows = ROWS;
    while let (Some((slot, slots_rest)), Some((row, rows_rest))) =
        (slots.split_first_mut(), rows.split_first())
    {
        let r = compile_row(row);
        *slot = (r.mask, r.fixed);
        slots = slots_rest;
        rows = rows_rest;
    }
    out
}

/// For each 10-bit opcode key, the rows (in table order) whose fixed opcode bits agree with it.
pub static DISPATCH: [[u16; MAX_CANDIDATES]; 1024] = BUILT_DISPATCH.0;

/// The dispatch table and the most rows any key has.
const BUILT_DISPATCH: ([[u16; MAX_CANDIDATES]; 1024], usize) = dispatch();
const _: () = assert!(
    BUILT_DISPATCH.1 <= MAX_CANDIDATES,
    "more rows share opcode bits than MAX_CANDIDATES: raise it"
);

/// `a[i]`, without a panic path (`<[T]>::get_mut` is not `const` yet).
const fn slot<T>(a: &mut [T], i: usize) -> Option<&mut T> {
    match a.split_at_mut_checked(i) {
        Some((_, [x, ..])) => Some(x),
        _ => None,
    }
}

/// `a[i]`, without a panic path (`<[T]>::get` is not `const` yet).
pub const fn at<T>(a: &[T], i: usize) -> Option<&T> {
    match a.split_at_checked(i) {
        Some((_, [x, ..])) => Some(x),
        _ => None,
    }
}

const fn dispatch() -> ([[u16; MAX_CANDIDATES]; 1024], usize) {
    let mut out = [[NO_CANDIDATE; MAX_CANDIDATES]; 1024];
    let mut count = [0usize; 1024];
    let mut most = 0;
    let mut i = 0;
    let mut rows = ROWS;
    while let Some((row, rest)) = rows.split_first() {
        let r = compile_row(row);
        // The keys whose fixed bits agree with the row: its fixed key bits with every
        // combination of the key bits it leaves to fields.
        let (fixed, free) = (key(r.fixed), !key(r.mask) & 0x3ff);
        let mut sub = 0;
        loop {
            let k = fixed | sub;
            if let (Some(n), Some(list)) = (slot(&mut count, k), slot(&mut out, k)) {
                if let Some(c) = slot(list, *n) {
                    *c = i as u16;
                }
                *n += 1;
                if *n > most {
                    most = *n;
                }
            }
            if sub == free {
                break;
            }
            sub = sub.wrapping_sub(free) & free;
        }
        rows = rest;
        i += 1;
    }
    (out, most)
}

/// The opcode bits (0–3, 58–63), which the key already holds.
const KEY_BITS: u64 = 0xf | (0x3f << 58);

/// How many bits beyond the opcode bits each opcode key may use to tell its rows apart.
const SUB_BITS: usize = 2;

/// Entries in the routing table: every opcode key with every value of its `SUB_BITS` bits.
pub const ROUTES: usize = 1024 << SUB_BITS;

/// Marks a routing key that several rows may match (each is then tried in turn).
pub const SEVERAL: u16 = MAX_ROWS as u16 + 1;

/// For each opcode key, the positions of the bits that tell apart the rows sharing it (LDL/LDS,
/// STL/STS, the video register/immediate forms, ...), chosen at build time; bit 0, part of the
/// key itself, where none is needed.
pub static SUB_KEY_BITS: [[u8; SUB_BITS]; 1024] = BUILT_ROUTE.0;

/// For each routing key, the one row whose fixed bits may agree with a word of that key,
/// `NO_CANDIDATE` if none, or `SEVERAL`.
pub const ROUTE: [u16; ROUTES] = BUILT_ROUTE.1;

const BUILT_ROUTE: ([[u8; SUB_BITS]; 1024], [u16; ROUTES]) = route();

/// The routing key of a word: its opcode key, then the values of that key's `SUB_KEY_BITS`.
#[inline(always)]
pub fn route_key(bits: u64) -> usize {
    let k = key(bits);
    let [p0, p1] = SUB_KEY_BITS.get(k).copied().unwrap_or([0; SUB_BITS]);
    (k << SUB_BITS)
        | (((bits >> (p0 & 63)) & 1) as usize)
        | ((((bits >> (p1 & 63)) & 1) as usize) << 1)
}

/// The bits on which some pair of the rows `list` (up to `NO_CANDIDATE`) differs where both
/// are fixed, excluding pairs already told apart by `chosen`: the one that tells apart the most
/// pairs, or `None`. Failing those, a bit fixed in one row of a pair and left to a field in
/// the other: it cannot tell the pair apart for every word, but it sends the words the fixed
/// row cannot have straight to the other (IMAD's composite form and its selector-2 form: bits
/// 46–47 route selectors 0, 1 and 3 to the composite row, only selector 2 tries both).
const fn best_sub_key_bit(list: &[u16; MAX_CANDIDATES], chosen: u64) -> Option<u8> {
    let mut counts = [0u32; 64];
    let mut a: &[u16] = list;
    while let Some((&i, others)) = a.split_first() {
        if i == NO_CANDIDATE {
            break;
        }
        let mut b = others;
        while let Some((&j, more)) = b.split_first() {
            if j == NO_CANDIDATE {
                break;
            }
            if let (Some(&(mi, fi)), Some(&(mj, fj))) =
                (at(&FIXED, i as usize), at(&FIXED, j as usize))
            {
                let mut differ = (fi ^ fj) & mi & mj;
                if differ & chosen == 0 {
                    // Fixed in exactly one of the two (and not chosen yet): weight 1, below
                    // any bit fixed in both (weight 64 per pair; a key has under 64 pairs).
                    let mut half = (mi ^ mj) & !chosen & !KEY_BITS;
                    while differ != 0 {
                        if let Some(c) = slot(&mut counts, differ.trailing_zeros() as usize) {
                            *c += 64;
                        }
                        differ &= differ - 1;
                    }
                    while half != 0 {
                        if let Some(c) = slot(&mut counts, half.trailing_zeros() as usize) {
                            *c += 1;
                        }
                        half &= half - 1;
                    }
                }
            }
            b = more;
        }
        a = others;
    }
    let mut best = None;
    let mut most = 0;
    let mut bit = 0;
    let mut rest: &[u32] = &counts;
    while let Some((&c, more)) = rest.split_first() {
        if c > most {
            most = c;
            best = Some(bit);
        }
        bit += 1;
        rest = more;
    }
    best
}

const fn route() -> ([[u8; SUB_BITS]; 1024], [u16; ROUTES]) {
    let mut sub_bits = [[0u8; SUB_BITS]; 1024];
    {
        let mut slots: &mut [[u8; SUB_BITS]] = &mut sub_bits;
        let mut keys: &[[u16; MAX_CANDIDATES]] = &BUILT_DISPATCH.0;
        while let (Some((positions, slots_rest)), Some((list, keys_rest))) =
            (slots.split_first_mut(), keys.split_first())
        {
            let mut chosen = 0u64;
            let mut round: &mut [u8] = positions;
            while let Some((p, more)) = round.split_first_mut() {
                if let Some(b) = best_sub_key_bit(list, chosen) {
                    *p = b;
                    chosen |= 1 << b;
                }
                round = more;
            }
            slots = slots_rest;
            keys = keys_rest;
        }
    }
    let mut out = [NO_CANDIDATE; ROUTES];
    let mut i = 0;
    let mut rows: &[(u64, u64)] = &FIXED;
    while let Some((&(mask, fixed), rest)) = rows.split_first() {
        if i >= ROWS.len() {
            break;
        }
        // The opcode keys the row's fixed bits agree with: its fixed key bits with every
        // combination of those it leaves to fields; then the values of each key's sub-key
        // bits the row's fixed bits agree with.
        let (k_fixed, k_free) = (key(fixed), !key(mask) & 0x3ff);
        let mut sub = 0;
        loop {
            let k = k_fixed | sub;
            if let Some(&positions) = at(&sub_bits, k) {
                let mut v = 0;
                while v < 1 << SUB_BITS {
                    let mut agree = true;
                    let mut j = 0;
                    let mut pos: &[u8] = &positions;
                    while let Some((&p, more)) = pos.split_first() {
                        let want = ((v >> j) & 1) as u64;
                        if (mask >> p) & 1 == 1 && (fixed >> p) & 1 != want {
                            agree = false;
                        }
                        pos = more;
                        j += 1;
                    }
                    if agree {
                        if let Some(entry) = slot(&mut out, (k << SUB_BITS) | v) {
                            *entry = if *entry == NO_CANDIDATE {
                                i as u16
                            } else {
                                SEVERAL
                            };
                        }
                    }
                    v += 1;
                }
            }
            if sub == k_free {
                break;
            }
            sub = sub.wrapping_sub(k_free) & k_free;
        }
        rows = rest;
        i += 1;
    }
    (sub_bits, out)
}

/// Expands to a `[[f; 16]; 16]` table of `$f::<I>` for every row index `I < MAX_ROWS`.
macro_rules! per_row {
    ($f:ident) => {
        $crate::isa::compiled::per_row!(@hi $f [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15])
    };
    (@hi $f:ident [$($h:literal)*]) => {
        [$($crate::isa::compiled::per_row!(@lo $f $h)),*]
    };
    (@lo $f:ident $h:literal) => {
        [
            $f::<{ $h * 16 }>, $f::<{ $h * 16 + 1 }>, $f::<{ $h * 16 + 2 }>,
            $f::<{ $h * 16 + 3 }>, $f::<{ $h * 16 + 4 }>, $f::<{ $h * 16 + 5 }>,
            $f::<{ $h * 16 + 6 }>, $f::<{ $h * 16 + 7 }>, $f::<{ $h * 16 + 8 }>,
            $f::<{ $h * 16 + 9 }>, $f::<{ $h * 16 + 10 }>, $f::<{ $h * 16 + 11 }>,
            $f::<{ $h * 16 + 12 }>, $f::<{ $h * 16 + 13 }>, $f::<{ $h * 16 + 14 }>,
            $f::<{ $h * 16 + 15 }>,
        ]
    };
}
pub(crate) use per_row;

/// Looks up row `i`'s entry in a [`per_row!`] table.
#[inline(always)]
pub fn per_row_entry<T: Copy>(table: &[[T; 16]; 16], i: usize) -> Option<T> {
    table.get(i >> 4).and_then(|t| t.get(i & 15)).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY_MASK: u64 = 0xf | (0x3f << 58);

    /// The build-time dispatch against a direct scan of the rows.
    #[test]
    fn dispatch_lists_exactly_the_rows_whose_opcode_bits_agree() {
        for (k, slot) in DISPATCH.iter().enumerate() {
            let kbits = (k as u64 & 0xf) | ((k as u64 >> 4) << 58);
            let expect: Vec<u16> = (0..ROWS.len())
                .filter(|&i| {
                    let r = compile_row(&ROWS[i]);
                    let m = r.mask & KEY_MASK;
                    kbits & m == r.fixed & m
                })
                .map(|i| i as u16)
                .collect();
            let got: Vec<u16> = slot
                .iter()
                .copied()
                .filter(|&c| c != NO_CANDIDATE)
                .collect();
            assert_eq!(got, expect, "key {k:#x}");
            assert_eq!(key(kbits), k);
        }
    }

    /// Each routing key's entry against the rows whose fixed bits agree with the bits it
    /// stands for, found by a direct scan.
    #[test]
    fn routing_keys_name_the_one_row_that_may_match() {
        let infos: Vec<RowInfo> = ROWS.iter().map(compile_row).collect();
        for (rk, &entry) in ROUTE.iter().enumerate() {
            let k = rk >> SUB_BITS;
            let mut bits = (k as u64 & 0xf) | ((k as u64 >> 4) << 58);
            let mut known = KEY_MASK;
            let mut consistent = true;
            for (j, &p) in SUB_KEY_BITS[k].iter().enumerate() {
                let v = ((rk >> j) & 1) as u64;
                if known >> p & 1 == 1 && (bits >> p) & 1 != v {
                    // A sub-key bit inside the key (bit 0 when none is needed) whose value
                    // contradicts the key: no word has this routing key.
                    consistent = false;
                }
                bits |= v << p;
                known |= 1 << p;
            }
            if !consistent {
                continue;
            }
            assert_eq!(route_key(bits), rk);
            let agree: Vec<u16> = (0..ROWS.len())
                .filter(|&i| (bits ^ infos[i].fixed) & infos[i].mask & known == 0)
                .map(|i| i as u16)
                .collect();
            let expect = match agree[..] {
                [] => NO_CANDIDATE,
                [i] => i,
                _ => SEVERAL,
            };
            assert_eq!(entry, expect, "routing key {rk:#x}");
        }
    }

    #[test]
    fn row_index_finds_table_rows_only() {
        for (i, row) in ROWS.iter().enumerate() {
            assert_eq!(row_index(row), Some(i));
        }
        static OUTSIDE: Row = NO_ROW;
        assert_eq!(row_index(&OUTSIDE), None);
    }
}
