//! Assembling many instruction texts that repeat: a translator emits the same text again and
//! again (every kernel of a file loads its parameters the same way), and parsing a text is
//! most of what assembling it costs. [`TextAssembler`] remembers each text's word — the word
//! `parse` + `encode` gave it the first time, so the table stays the only definition — when
//! that word depends on the text alone.

use super::parse::parse_placed;
use super::{encode, raw_word, AsmError, Dialect};
use rustc_hash::FxHashMap;

/// How many texts are remembered at most; past that the memory starts afresh (a bound on
/// memory for any input; a file's repeating texts number in the hundreds).
const CAPACITY: usize = 1 << 15;

/// [`assemble_text`](super::assemble_text) with a memory of the texts already assembled.
///
/// A text is remembered only when no row of its mnemonic takes a branch target: the address
/// and the labels reach the parser through those operands alone, so for every other text the
/// word is a function of the text. Branches (whose words depend on where they sit) and texts
/// that fail are parsed every time, and errors are the parser's own.
#[derive(Debug, Default)]
pub struct TextAssembler {
    words: FxHashMap<Box<str>, u64>,
}

impl TextAssembler {
    pub fn new() -> Self {
        TextAssembler::default()
    }

    /// The word of `text` at byte address `addr` (as [`assemble_text`](super::assemble_text)).
    pub fn assemble(
        &mut self,
        text: &str,
        addr: u64,
        labels: &dyn Fn(&str) -> Option<u64>,
    ) -> Result<u64, AsmError> {
        if let Some(&word) = self.words.get(text) {
            return Ok(word);
        }
        if let Some(raw) = raw_word(text) {
            return Ok(raw);
        }
        let (inst, placed) = parse_placed(text, addr, labels, Dialect::Current)?;
        let word = encode(&inst);
        if !placed {
            if self.words.len() >= CAPACITY {
                self.words.clear();
            }
            self.words.insert(text.into(), word);
        }
        Ok(word)
    }
}
