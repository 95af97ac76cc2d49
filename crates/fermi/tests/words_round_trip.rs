//! `verify::words_round_trip`: the check the translator's tests and the compile fuzz target
//! run on every emitted word.

use fermi::cubin::{Kernel, Module};
use fermi::isa::{assemble_text, disassemble_word, INVALID};
use fermi::verify::words_round_trip;

fn module(code: Vec<u64>) -> Module {
    Module {
        kernels: vec![Kernel {
            name: "k".into(),
            code,
            ..Kernel::default()
        }],
        ..Module::default()
    }
}

fn word(text: &str) -> u64 {
    assemble_text(text, 0, &|_| None).expect("assembles")
}

#[test]
fn assembled_words_round_trip() {
    let code = vec![
        word("MOV R2, R3;"),
        word("IADD R0, R1, 0x10;"),
        word("EXIT;"),
    ];
    assert_eq!(words_round_trip(&module(code)), Ok(()));
}

#[test]
fn the_first_word_that_does_not_decode_is_reported() {
    // A word the table does not decode (found by asking it, not assumed).
    let bad = (0..64)
        .map(|i| u64::MAX >> i)
        .find(|&w| disassemble_word(w, 8).starts_with(INVALID))
        .expect("some word does not decode");
    let code = vec![word("EXIT;"), bad, bad];
    let m = words_round_trip(&module(code)).expect_err("an invalid word");
    assert_eq!((m.kernel.as_str(), m.addr, m.word), ("k", 8, bad));
    assert!(m.back.is_err());
    assert!(
        m.to_string().starts_with("k @0x8: ") && m.to_string().contains("does not disassemble"),
        "{m}"
    );
}
