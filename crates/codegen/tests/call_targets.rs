//! Indirect calls with a target list (`tests/kernels/call_targets.ptx`): the translator's
//! dispatch candidates are exactly the listed functions, including `halve`, which only the
//! `.calltargets` list names (its address is never taken). Both flist forms run on both
//! executors bit for bit, against the functions rerun here; a pointer to a function of the
//! call's signature outside the list traps on the Fermi executor and faults on the PTX one.

mod common;
use common::*;
#[path = "../../../tests/support/call_targets.rs"]
mod call_targets;
use call_targets::*;

const FILE: &str = "call_targets.ptx";

fn text() -> String {
    std::fs::read_to_string("../../tests/kernels/call_targets.ptx")
        .expect("tests/kernels/call_targets.ptx")
}

/// `kernel` with lane t calling `funcs[pick(t)]`, then with lane 37 calling `outsider`.
fn given(kernel: &str, funcs: &[Named], outsider: &str) {
    let text = text();
    let (m, file, cubin) = compile(FILE, &text);
    let n = 64usize;
    let ptrs: Vec<u64> = (0..n)
        .map(|t| func_address(&m, funcs[pick(t, funcs.len())].0))
        .collect();
    let out = run_both(
        FILE,
        &text,
        &spec(kernel, 1, n as u32, vec![zeros32(n), u64s(&ptrs)]),
    );
    let want: Vec<u32> = (0..n)
        .map(|t| funcs[pick(t, funcs.len())].1(t as u32))
        .collect();
    assert_eq!(words(&out[0]), want, "{kernel}");

    let mut bad = ptrs.clone();
    bad[37] = func_address(&m, outsider);
    let s = spec(kernel, 1, n as u32, vec![zeros32(n), u64s(&bad)]);
    match fermi_exec::run_module(&cubin, &s, &fermi_exec::Options::default()) {
        Err(e) => assert!(format!("{e:?}").contains("Trap"), "{kernel}: {e:?}"),
        Ok(_) => panic!("{kernel}: the Fermi executor must trap on a call outside the list"),
    }
    let ptx = exec::run(&m, &file, &s, &exec::RunOptions::default());
    assert!(ptx.is_err(), "{kernel}: the PTX executor must fault");
}

#[test]
fn a_calltargets_list_dispatches_over_its_functions_only() {
    given("given_list", &LIST, LIST_OUTSIDER);
}

#[test]
fn a_call_table_dispatches_over_its_functions_only() {
    given("given_table", &TABLE, TABLE_OUTSIDER);
    let n = 48u32;
    let out = run_both(
        FILE,
        &text(),
        &spec("from_table", 1, n, vec![zeros32(n as usize)]),
    );
    // The table indexed by t % 3.
    let want: Vec<u32> = (0..n).map(|t| TABLE[(t % 3) as usize].1(t)).collect();
    assert_eq!(words(&out[0]), want);
}
