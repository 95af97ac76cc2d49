//! Verify mode: both directions of the instruction table against a cuobjdump listing.

use crate::isa::Dialect;
use crate::listing::parse_listing_line;
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MismatchKind {
    /// Assembling the listing's text did not give the listing's word.
    Encode,
    /// Disassembling the listing's word did not give the listing's text.
    Decode,
}

/// One disagreement with the listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// 1-based line number in the listing.
    pub line: usize,
    pub kind: MismatchKind,
    /// The listing's text of the instruction.
    pub text: String,
    /// What the listing says (`0x…` word for encode, text for decode).
    pub expected: String,
    /// What ptxvm produced (or the assembler's error message).
    pub got: String,
}

/// The outcome of verifying one listing.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct VerifyReport {
    pub name: String,
    /// The cuobjdump spelling the listing was checked against.
    pub dialect: Dialect,
    /// Instruction lines checked.
    pub lines: usize,
    pub encode_mismatches: usize,
    pub decode_mismatches: usize,
    pub mismatches: Vec<Mismatch>,
}

impl VerifyReport {
    pub fn is_clean(&self) -> bool {
        self.mismatches.is_empty()
    }
}

impl fmt::Display for VerifyReport {
    /// `name:line: encode mismatch: …` per disagreement, then a summary line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for m in &self.mismatches {
            let kind = match m.kind {
                MismatchKind::Encode => "encode",
                MismatchKind::Decode => "decode",
            };
            writeln!(
                f,
                "{}:{}: {kind} mismatch: `{}`: expected {}, got {}",
                self.name, m.line, m.text, m.expected, m.got
            )?;
        }
        let dialect = match self.dialect {
            Dialect::Current => "",
            Dialect::Legacy => " (legacy cuobjdump spelling)",
        };
        writeln!(
            f,
            "{}: {} lines, {} encode mismatches, {} decode mismatches{dialect}",
            self.name, self.lines, self.encode_mismatches, self.decode_mismatches
        )
    }
}

/// Whitespace runs are insignificant in cuobjdump text.
pub(crate) fn normalize_text(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Assembles the text and decodes the word of every instruction line of `text`; branch
/// targets in listings are absolute, so no labels are needed.
///
/// The listings come from two cuobjdump versions that spell some instructions differently
/// ([`Dialect`]); the file is checked in the current spelling and, if that disagrees anywhere,
/// also in the legacy one, and the report with fewer mismatches is returned (it names its
/// dialect).
pub fn verify_listing(name: &str, text: &str) -> VerifyReport {
    let current = verify_listing_with(name, text, Dialect::Current);
    if current.is_clean() {
        return current;
    }
    let legacy = verify_listing_with(name, text, Dialect::Legacy);
    if legacy.mismatches.len() < current.mismatches.len() {
        legacy
    } else {
        current
    }
}

/// [`verify_listing`] in one given dialect.
pub fn verify_listing_with(name: &str, text: &str, dialect: Dialect) -> VerifyReport {
    let mut report = VerifyReport {
        name: name.to_string(),
        dialect,
        ..VerifyReport::default()
    };
    let no_labels = |_: &str| None;
    for (i, line) in text.lines().enumerate() {
        let Some(l) = parse_listing_line(line) else {
            continue;
        };
        report.lines += 1;
        let expected_text = normalize_text(l.text);
        let encoded = crate::isa::assemble_text_with(l.text, l.addr, &no_labels, dialect);
        let got_word = match encoded {
            Ok(w) if w == l.word => None,
            Ok(w) => Some(format!("0x{w:016x}")),
            Err(e) => Some(format!("error: {}", e.message)),
        };
        if let Some(got) = got_word {
            report.encode_mismatches += 1;
            report.mismatches.push(Mismatch {
                line: i + 1,
                kind: MismatchKind::Encode,
                text: expected_text.clone(),
                expected: format!("0x{:016x}", l.word),
                got,
            });
        }
        let decoded = normalize_text(&crate::isa::disassemble_word_with(l.word, l.addr, dialect));
        if decoded != expected_text {
            report.decode_mismatches += 1;
            report.mismatches.push(Mismatch {
                line: i + 1,
                kind: MismatchKind::Decode,
                text: expected_text.clone(),
                expected: format!("`{expected_text}`"),
                got: format!("`{decoded}`"),
            });
        }
    }
    report
}

/// The first word of a module's code that does not survive disassembly and re-assembly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundTripMismatch {
    pub kernel: String,
    /// The word's byte address in the kernel's code.
    pub addr: u64,
    pub word: u64,
    /// Its disassembly.
    pub text: String,
    /// What re-assembling the text gave: another word, or the assembler's error.
    pub back: Result<u64, String>,
}

impl fmt::Display for RoundTripMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (k, a, w, t) = (&self.kernel, self.addr, self.word, &self.text);
        match &self.back {
            _ if t.starts_with(crate::isa::INVALID) => {
                write!(f, "{k} @{a:#x}: {w:#018x} does not disassemble: `{t}`")
            }
            Ok(b) => write!(
                f,
                "{k} @{a:#x}: {w:#018x} disassembles to `{t}`, which re-assembles to {b:#018x}"
            ),
            Err(e) => write!(
                f,
                "{k} @{a:#x}: {w:#018x} disassembles to `{t}`, which does not re-assemble: {e}"
            ),
        }
    }
}

/// Whether every word of every kernel of `module` disassembles to text that assembles back
/// to the same word (the table's two directions agree on the code); the first that does not.
pub fn words_round_trip(module: &crate::cubin::Module) -> Result<(), RoundTripMismatch> {
    for k in &module.kernels {
        for (i, &word) in k.code.iter().enumerate() {
            let addr = 8 * i as u64;
            let text = crate::isa::disassemble_word(word, addr);
            let back = if text.starts_with(crate::isa::INVALID) {
                Err("not an instruction".to_string())
            } else {
                crate::isa::assemble_text(&text, addr, &|_| None).map_err(|e| e.to_string())
            };
            if back != Ok(word) {
                return Err(RoundTripMismatch {
                    kernel: k.name.clone(),
                    addr,
                    word,
                    text,
                    back,
                });
            }
        }
    }
    Ok(())
}
