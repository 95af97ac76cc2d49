//! Pure, allocation-free, bit-exact semantics of every PTX instruction in `shared/spec/`.
//!
//! One definition of what each instruction computes; the executor, the Fermi translator's
//! constant folding and its SASS cross-checker all call these functions.

// Integer, carry-chain and video instructions.
pub mod atom;
pub mod carry;
pub mod int;
pub mod video;

// Floating point, comparison, logic/shift, selection, conversion, transcendental, prmt.
pub mod cmp;
pub mod cvt;
pub mod float;
pub mod fp8;
pub mod half;
pub mod logic;
pub mod mbarrier;
pub mod mma;
pub mod mx;
pub mod prmt;
pub mod tex;
pub mod transcend;
pub mod warp;
pub mod wmma;
