//! Fermi (sm_20/sm_21) machine code: one instruction table from which encoding, decoding,
//! assembly text parsing and cuobjdump-style printing derive; the assembler and disassembler
//! for whole files; the cubin (ELF) container.
//!
//! Everything here reads untrusted bytes or text, so the panicking shortcuts are denied crate-wide.
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::indexing_slicing
    )
)]

pub mod asm;
pub mod cubin;
pub mod disasm;
pub mod isa;
pub mod listing;
pub mod verify;
