//! The file-level assembler and disassembler.
