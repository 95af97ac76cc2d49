//! cmp
