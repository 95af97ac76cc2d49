//! video
