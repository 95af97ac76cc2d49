//! Helpers shared by the tests that check the table against transcriptions of Mesa's Fermi
//! emitter (`isa_mesa.rs`, `isa_mesa_float.rs`, `isa_mesa_integer.rs`).
#![allow(dead_code)]

use fermi::isa::{assemble_text, disassemble_word};

pub fn no_labels(_: &str) -> Option<u64> {
    None
}

/// The word cuobjdump prints for Mesa's `code[0]`, `code[1]`.
pub fn word(c0: u32, c1: u32) -> u64 {
    (u64::from(c0) << 32) | u64::from(c1)
}

/// `text` assembles to `want` and `want` disassembles to `text`.
pub fn check(text: &str, want: u64) {
    let got = assemble_text(text, 0, &no_labels).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(
        got, want,
        "{text}: got {got:#018x}, Mesa gives {want:#018x}"
    );
    assert_eq!(disassemble_word(want, 0), format!("{text};"));
}

/// `text` does not assemble; the message contains `says`.
pub fn refused(text: &str, says: &str) {
    match assemble_text(text, 0, &no_labels) {
        Ok(w) => panic!("{text}: assembled to {w:#018x}"),
        Err(e) => assert!(e.message.contains(says), "{text}: `{}`", e.message),
    }
}

/// `emitPredicate`: guard `(predicate, negated)`, or none (`0x1c00`, pt).
pub fn emit_predicate(guard: Option<(u32, bool)>) -> u32 {
    match guard {
        Some((p, not)) => (p << 10) | if not { 0x2000 } else { 0 },
        None => 0x1c00,
    }
}
