//! Fermi (sm_20/sm_21) machine code: one instruction table from which encoding, decoding,
//! assembly text parsing and cuobjdump-style printing derive; the assembler and disassembler
//! for whole files; the cubin (ELF) container.

pub mod asm;
pub mod cubin;
pub mod isa;
pub mod disasm;
pub mod listing;
pub mod verify;
