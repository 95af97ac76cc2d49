//! Indirect calls with a target list (`tests/kernels/call_targets.ptx`): the translator's
//! dispatch candidates are exactly the listed functions, including `halve`, which only the
//! `.calltargets` list names (its address is never taken). Both flist forms run on both
//! executors bit for bit, against the functions rerun here; a pointer to a function of the
//! call's signature outside the list traps on the Fermi executor and faults on the PTX one.

mod common;
use common::*;

const FILE: &str = "call_targets.ptx";

fn text() -> String {
    std::fs::read_to_string("../../tests/kernels/call_targets.ptx")
        .expect("tests/kernels/call_targets.ptx")
}

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

/// The PTX executor's address of function `name` (docs/spec-notes.md: 0xF000_0000 + 16 · its
/// position in the module), computed here from the module.
fn func_address(m: &ir::Module, name: &str) -> u64 {
    let id = m
        .functions
        .iter()
        .position(|f| f.name == name)
        .unwrap_or_else(|| panic!("no function {name}"));
    0xF000_0000 + 16 * id as u64
}

fn pick(t: usize, n: usize) -> usize {
    if t < 12 {
        t / 5 % n
    } else {
        (t * 7 + t / 3) % n
    }
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
    given(
        "given_list",
        &[
            ("add_seven", add_seven),
            ("times_three", times_three),
            ("halve", halve),
        ],
        "xor_mask",
    );
}

#[test]
fn a_call_table_dispatches_over_its_functions_only() {
    given(
        "given_table",
        &[
            ("xor_mask", xor_mask),
            ("add_seven", add_seven),
            ("times_three", times_three),
        ],
        "halve",
    );
    let n = 48u32;
    let out = run_both(
        FILE,
        &text(),
        &spec("from_table", 1, n, vec![zeros32(n as usize)]),
    );
    // jmptbl = { xor_mask, add_seven, times_three }, indexed by t % 3.
    let table: [fn(u32) -> u32; 3] = [xor_mask, add_seven, times_three];
    let want: Vec<u32> = (0..n).map(|t| table[(t % 3) as usize](t)).collect();
    assert_eq!(words(&out[0]), want);
}
