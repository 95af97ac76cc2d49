//! carry
