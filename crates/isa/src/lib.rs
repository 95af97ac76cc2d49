//! isa
