//! End-to-end: indirect calls with a target list (`tests/kernels/call_targets.ptx`), through
//! a `.calltargets` list and through a call table. Lanes of one warp call different listed
//! functions (the expected values rerun the functions in Rust); a lane whose pointer is a
//! function of the right signature that the list does not name faults, naming the address.

mod endtoend_common;
use endtoend_common::*;
use exec::{ExecError, FaultKind};

const FILE: &str = "call_targets.ptx";

/// A function of the kernel by name, and what it computes.
type Named<'a> = (&'a str, fn(u32) -> u32);

fn add_seven(a: u32) -> u32 {
    a.wrapping_add(7)
}
fn times_three(a: u32) -> u32 {
    a.wrapping_mul(3)
}
fn xor_mask(a: u32) -> u32 {
    a ^ 0x5a5a
}
fn halve(a: u32) -> u32 {
    a >> 1
}

/// The address the PTX executor gives function `name`: 0xF000_0000 + 16 · its position in
/// the module (docs/spec-notes.md), computed here from the checked module.
fn addr(name: &str) -> u64 {
    let src = diag::SourceFile::new(FILE, kernel_text(FILE));
    let m = check::check_source(&src).0.expect("the kernel checks");
    let id = m
        .functions
        .iter()
        .position(|f| f.name == name)
        .unwrap_or_else(|| panic!("no function {name}"));
    0xF000_0000 + 16 * id as u64
}

/// Lane t's choice among `funcs`: runs of one function, then alternation within the warp.
fn pick(t: usize, n: usize) -> usize {
    if t < 12 {
        t / 5 % n
    } else {
        (t * 7 + t / 3) % n
    }
}

fn given(kernel: &str, funcs: &[Named]) {
    let n = 64usize;
    let ptrs: Vec<u64> = (0..n)
        .map(|t| addr(funcs[pick(t, funcs.len())].0))
        .collect();
    let out = run_all_threads(
        FILE,
        kernel,
        &cfg([1, 1, 1], [n as u32, 1, 1]),
        &[zbuf::<u32>(n), buf(&ptrs)],
    );
    let got: Vec<u32> = decode(&out[0]);
    let want: Vec<u32> = (0..n)
        .map(|t| funcs[pick(t, funcs.len())].1(t as u32))
        .collect();
    assert_eq!(got, want, "{kernel}");
}

#[test]
fn lanes_call_different_functions_of_a_calltargets_list() {
    given(
        "given_list",
        &[
            ("add_seven", add_seven),
            ("times_three", times_three),
            ("halve", halve),
        ],
    );
}

#[test]
fn lanes_call_different_functions_of_a_call_table() {
    given(
        "given_table",
        &[
            ("xor_mask", xor_mask),
            ("add_seven", add_seven),
            ("times_three", times_three),
        ],
    );
    let n = 48usize;
    let out = run_all_threads(
        FILE,
        "from_table",
        &cfg([1, 1, 1], [n as u32, 1, 1]),
        &[zbuf::<u32>(n)],
    );
    // jmptbl = { xor_mask, add_seven, times_three }, indexed by t % 3.
    let table: [fn(u32) -> u32; 3] = [xor_mask, add_seven, times_three];
    let want: Vec<u32> = (0..n as u32).map(|t| table[(t % 3) as usize](t)).collect();
    assert_eq!(decode::<u32>(&out[0]), want);
}

/// Lane 37 holds `outsider`, a function of the call's signature the flist does not name.
fn unlisted_faults(kernel: &str, listed: &str, outsider: &str, marker: &str) {
    let n = 64usize;
    let mut ptrs = vec![addr(listed); n];
    ptrs[37] = addr(outsider);
    let err = run_once(
        FILE,
        kernel,
        &cfg([1, 1, 1], [n as u32, 1, 1]),
        &[zbuf::<u32>(n), buf(&ptrs)],
        1,
    )
    .expect_err("a call outside the list must fault");
    let ExecError::Fault(f) = err else {
        panic!("expected a fault, got {err}");
    };
    assert_eq!(
        f.kind,
        FaultKind::UnlistedCallTarget {
            addr: addr(outsider)
        }
    );
    assert_eq!(f.tid, [37, 0, 0]);
    assert_eq!(f.line, line_of(&kernel_text(FILE), marker));
    assert!(
        f.to_string()
            .contains("which is not a function of the call's target list defined in this module"),
        "{f}"
    );
}

#[test]
fn a_pointer_to_a_function_outside_the_calltargets_list_faults() {
    unlisted_faults("given_list", "halve", "xor_mask", "// list call");
}

#[test]
fn a_pointer_to_a_function_outside_the_call_table_faults() {
    unlisted_faults("given_table", "add_seven", "halve", "// table call");
}
