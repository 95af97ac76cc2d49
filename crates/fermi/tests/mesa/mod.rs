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

/// The second source of `emitForm_A`.
#[derive(Clone, Copy)]
pub enum Src {
    Reg(u32),
    /// `c[bank][offset]` (`setAddress16`, bank at `code[1]` bits 10-13).
    Const(u32, u32),
    /// `setImmediate`'s integer branch (opcode classes 3 and 4).
    Imm(u32),
}

/// `emitForm_A` after `opc`: guard none, destination at 14, source 0 at 20, source 1 (register
/// at 26, constant or immediate), source 2 at 49 when given.
pub fn emit_form_a(opc: u64, dst: u32, src0: u32, src1: Src, src2: Option<u32>) -> (u32, u32) {
    let mut c0 = opc as u32;
    let mut c1 = (opc >> 32) as u32;
    c0 |= emit_predicate(None);
    c0 |= dst << 14;
    c0 |= src0 << 20;
    match src1 {
        Src::Reg(r) => c0 |= r << 26,
        Src::Const(bank, offset) => {
            c1 |= 0x4000 | (bank << 10);
            c0 |= (offset & 0x003f) << 26;
            c1 |= (offset & 0xffc0) >> 6;
        }
        Src::Imm(u) => {
            let u = u & 0xfffff;
            c0 |= (u & 0x3f) << 26;
            c1 |= 0xc000 | (u >> 6);
        }
    }
    if let Some(r) = src2 {
        c1 |= r << 17;
    }
    (c0, c1)
}
