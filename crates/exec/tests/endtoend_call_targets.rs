//! End-to-end: indirect calls with a target list (`tests/kernels/call_targets.ptx`), through
//! a `.calltargets` list and through a call table. Lanes of one warp call different listed
//! functions (the expected values rerun the functions in Rust); a lane whose pointer is a
//! function of the right signature that the list does not name faults, naming the address.

mod endtoend_common;
use endtoend_common::*;
use exec::{ExecError, FaultKind};
#[path = "../../../tests/support/call_targets.rs"]
mod call_targets;
use call_targets::*;

const FILE: &str = "call_targets.ptx";

/// The PTX executor's address of function `name`.
fn addr(name: &str) -> u64 {
    let src = diag::SourceFile::new(FILE, kernel_text(FILE));
    let m = check::check_source(&src).0.expect("the kernel checks");
    func_address(&m, name)
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
    given("given_list", &LIST);
}

#[test]
fn lanes_call_different_functions_of_a_call_table() {
    given("given_table", &TABLE);
    let n = 48usize;
    let out = run_all_threads(
        FILE,
        "from_table",
        &cfg([1, 1, 1], [n as u32, 1, 1]),
        &[zbuf::<u32>(n)],
    );
    // The table indexed by t % 3.
    let want: Vec<u32> = (0..n as u32)
        .map(|t| TABLE[(t % 3) as usize].1(t))
        .collect();
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
    unlisted_faults("given_list", "halve", LIST_OUTSIDER, "// list call");
}

#[test]
fn a_pointer_to_a_function_outside_the_call_table_faults() {
    unlisted_faults("given_table", "add_seven", TABLE_OUTSIDER, "// table call");
}
