//! Arithmetic forms the every_form sweep found refused (round s25): carry chains across
//! blocks, immediate operands and predicates, PTX 1.x division and `sad` forms, video `.sat`.
//! Each module runs translated code on both executors against values computed in it.

#[path = "../common/mod.rs"]
mod common;

mod carry_flow;
mod immediates;
mod legacy;
mod video_sat;
