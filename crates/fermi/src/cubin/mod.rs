//! The cubin container.
