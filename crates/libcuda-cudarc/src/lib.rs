//! Tests only: `tests/examples.rs` runs cudarc's examples against ptxvm's `libcuda.so`.
