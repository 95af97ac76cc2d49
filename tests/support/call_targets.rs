//! What `tests/kernels/call_targets.ptx`'s functions compute, written again in Rust, and
//! which of them each lane calls: shared by the PTX executor's and the translator's tests
//! (included with `#[path]`).

// Each test crate that includes this file uses a different part of it.
#![allow(dead_code)]

/// A function of the kernel by name, and what it computes.
pub type Named = (&'static str, fn(u32) -> u32);

pub fn add_seven(a: u32) -> u32 {
    a.wrapping_add(7)
}
pub fn times_three(a: u32) -> u32 {
    a.wrapping_mul(3)
}
pub fn xor_mask(a: u32) -> u32 {
    a ^ 0x5a5a
}
pub fn halve(a: u32) -> u32 {
    a >> 1
}

/// `given_list`'s `.calltargets` list (`halve`'s address is never taken in the module), and
/// a function of the call's signature it does not name.
pub const LIST: [Named; 3] = [
    ("add_seven", add_seven),
    ("times_three", times_three),
    ("halve", halve),
];
pub const LIST_OUTSIDER: &str = "xor_mask";

/// `given_table`'s call table `jmptbl = { xor_mask, add_seven, times_three }`, and a function
/// of the call's signature it does not name.
pub const TABLE: [Named; 3] = [
    ("xor_mask", xor_mask),
    ("add_seven", add_seven),
    ("times_three", times_three),
];
pub const TABLE_OUTSIDER: &str = "halve";

/// Lane t's choice among `n` functions: runs of one function, then alternation within the
/// warp.
pub fn pick(t: usize, n: usize) -> usize {
    if t < 12 {
        t / 5 % n
    } else {
        (t * 7 + t / 3) % n
    }
}

/// The PTX executor's address of function `name` (docs/spec-notes.md: 0xF000_0000 + 16 · its
/// position in the module), computed here from the checked module.
pub fn func_address(m: &ir::Module, name: &str) -> u64 {
    let id = m
        .functions
        .iter()
        .position(|f| f.name == name)
        .unwrap_or_else(|| panic!("no function {name}"));
    0xF000_0000 + 16 * id as u64
}
