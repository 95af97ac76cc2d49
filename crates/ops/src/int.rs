//! int
