//! Every form round-trips every word: for each row of the table, valid words are built from the
//! row's description (its template's fixed bits, a defined value of every modifier group,
//! every operand field over its whole range, every decoration bit either way, guard and `.S`),
//! and each must decode to that row and satisfy decode → print → assemble → encode == word.
//! The words are built here from the schema's field positions, not by the crate's encoder.

use fermi::isa::{
    assemble_text, assemble_text_with, decode, disassemble_word, disassemble_word_with, encode,
    explain, Dialect, Kind, Opd, Row, ROWS,
};
use proptest::prelude::*;

/// `width` ones at `lo` (instruction bit numbering: bit 0 is the first word's lowest bit).
fn ones(lo: u8, width: u8) -> u64 {
    if width == 0 {
        0
    } else {
        (u64::MAX >> (64 - u32::from(width))) << lo
    }
}

/// The value `v` placed in the bits `at..at+width`.
fn field(at: u8, width: u8, v: u64) -> u64 {
    (v << at) & ones(at, width)
}

/// Least-significant-bit-first template → its `1` bits.
fn template(t: &str) -> u64 {
    t.chars()
        .filter(|c| !c.is_whitespace())
        .enumerate()
        .fold(0, |v, (i, c)| if c == '1' { v | 1 << i } else { v })
}

fn deco_bits(o: &Opd) -> [u8; 4] {
    [o.neg, o.not, o.abs, o.cc]
}

/// The bits of an operand's value field (without its decoration bits).
fn value_mask(o: &Opd) -> u64 {
    match o.kind {
        Kind::Reg => ones(o.at, 6),
        Kind::Pred => ones(o.at, 3),
        Kind::Comp => ones(26, 22),
        Kind::Imm { width, .. } | Kind::Named { width, .. } => ones(o.at, width),
        Kind::Mem { width } => ones(20, 6) | ones(26, width),
        Kind::Cmem => ones(20, 6) | ones(26, 21),
        Kind::Const => ones(26, 20),
        Kind::SplitPred => ones(8, 2) | ones(58, 1),
        Kind::Sreg => ones(26, 8),
        Kind::Target { width } | Kind::AbsTarget { width } => ones(26, width),
        Kind::Text(_) => 0,
        Kind::AtomMem => ones(20, 6) | ones(26, 17) | ones(55, 3),
        Kind::MemWords { width } => ones(20, 6) | ones(o.at, width),
    }
}

/// Every bit a field of `row` occupies (guard, `.S`, modifiers, operands).
fn used_bits(row: &Row) -> u64 {
    let mut used = 1 << 4;
    if row.guarded {
        used |= ones(10, 4);
    }
    for m in row.mods {
        for &b in m.bits {
            used |= 1 << b;
        }
    }
    for o in row.operands {
        used |= value_mask(o);
        for b in deco_bits(o) {
            if b != u8::MAX {
                used |= 1 << b;
            }
        }
    }
    used
}

/// A source of pseudo-random numbers (SplitMix64), seeded by proptest.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Operand bits: each field over its whole range; the composite operand as a register (with
/// nothing above it), a constant or an immediate, the three encodings it has.
fn operand_bits(o: &Opd, r: &mut Rng) -> u64 {
    let mut bits = match o.kind {
        Kind::Comp => match r.below(3) {
            0 => field(26, 6, r.next()),
            1 => field(26, 20, r.next()) | 1 << 46,
            _ => field(26, 20, r.next()) | 3 << 46,
        },
        _ => r.next() & value_mask(o),
    };
    for b in deco_bits(o) {
        if b != u8::MAX && r.next() & 1 == 1 {
            bits |= 1 << b;
        }
    }
    bits
}

/// A valid word of `row` (instruction bits), with modifier group `k` set to its `choice[k]`-th
/// spelled value (`None`: a random one).
fn word_of(row: &Row, r: &mut Rng, choice: &[Option<usize>]) -> u64 {
    let used = used_bits(row);
    let mut bits = template(row.template) & !used;
    bits |= r.next() & (1 << 4);
    if row.guarded {
        bits |= r.next() & ones(10, 4);
    }
    for (k, m) in row.mods.iter().enumerate() {
        let i = choice
            .get(k)
            .copied()
            .flatten()
            .unwrap_or_else(|| r.below(m.names.len()));
        let (v, _) = m.names[i];
        for (j, &b) in m.bits.iter().enumerate() {
            bits |= u64::from((v >> j) & 1) << b;
        }
    }
    for o in row.operands {
        bits |= operand_bits(o, r);
    }
    bits
}

/// Decode → print → assemble → encode gives back `bits`, as row `index`.
fn round_trips(index: usize, bits: u64, addr: u64) -> Result<(), String> {
    let row = &ROWS[index];
    let word = bits.rotate_left(32);
    let inst =
        decode(word).map_err(|e| format!("{}: {word:#018x} does not decode: {e}", row.name))?;
    if !std::ptr::eq(inst.row, row) {
        return Err(format!(
            "{} ({}): {word:#018x} decodes as {} ({})",
            row.name, row.template, inst.row.name, inst.row.template
        ));
    }
    if encode(&inst) != word {
        return Err(format!(
            "{}: {word:#018x} re-encodes as {:#018x}",
            row.name,
            encode(&inst)
        ));
    }
    // `sass explain`'s fields cover every bit exactly once.
    let fields = explain(word, addr).map_err(|e| format!("{word:#018x}: explain: {e}"))?;
    let mut seen = 0u64;
    for f in &fields {
        if seen & f.mask != 0 {
            return Err(format!(
                "{}: explain's {} overlaps another field",
                row.name, f.what
            ));
        }
        seen |= f.mask;
    }
    if seen != u64::MAX {
        return Err(format!(
            "{}: explain leaves bits {:#x} out",
            row.name, !seen
        ));
    }
    // The older cuobjdump's spelling (no `.W` on shifts) is accepted too; it may name several
    // words, so what it assembles to must print back to the same text.
    let legacy = disassemble_word_with(word, addr, Dialect::Legacy);
    match assemble_text_with(&legacy, addr, &|_| None, Dialect::Legacy) {
        Ok(w) if disassemble_word_with(w, addr, Dialect::Legacy) == legacy => {}
        Ok(w) => {
            return Err(format!(
                "legacy `{legacy}` assembles to {w:#018x}, which prints otherwise"
            ))
        }
        Err(e) => return Err(format!("legacy `{legacy}` does not assemble: {e}")),
    }
    let text = disassemble_word(word, addr);
    match assemble_text(&text, addr, &|_| None) {
        Ok(w) if w == word => Ok(()),
        Ok(w) => Err(format!("`{text}` ({word:#018x}) assembles to {w:#018x}")),
        Err(e) => Err(format!("`{text}` ({word:#018x}) does not assemble: {e}")),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Every row, random valid words (each case builds one word per row).
    #[test]
    fn every_row_round_trips_random_valid_words(seed in any::<u64>(), addr in (0u64..0x10_0000).prop_map(|a| a * 8)) {
        let mut r = Rng(seed);
        for (index, row) in ROWS.iter().enumerate() {
            let bits = word_of(row, &mut r, &[]);
            if let Err(e) = round_trips(index, bits, addr) {
                prop_assert!(false, "{}", e);
            }
        }
    }
}

/// Every combination of modifier values a row allows (every value of every group where the
/// combinations are too many), each with random operands.
#[test]
fn every_modifier_combination_round_trips() {
    let mut r = Rng(0x5eed);
    let mut checked = 0usize;
    for (index, row) in ROWS.iter().enumerate() {
        let sizes: Vec<usize> = row.mods.iter().map(|m| m.names.len()).collect();
        let total: usize = sizes.iter().product();
        let mut choices: Vec<Vec<Option<usize>>> = Vec::new();
        if total <= 4096 {
            for mut n in 0..total {
                choices.push(
                    sizes
                        .iter()
                        .map(|&s| {
                            let i = n % s;
                            n /= s;
                            Some(i)
                        })
                        .collect(),
                );
            }
        } else {
            for (k, &s) in sizes.iter().enumerate() {
                for i in 0..s {
                    let mut c = vec![None; sizes.len()];
                    c[k] = Some(i);
                    choices.push(c);
                }
            }
        }
        for c in &choices {
            for _ in 0..2 {
                let bits = word_of(row, &mut r, c);
                round_trips(index, bits, 0x100).unwrap_or_else(|e| panic!("{e}"));
                checked += 1;
            }
        }
    }
    assert!(checked >= ROWS.len() * 2, "{checked}");
}
