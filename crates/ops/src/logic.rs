//! logic
