//! prmt
