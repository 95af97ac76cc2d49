//! End-to-end: every fault kind stops the launch with an error (never a panic, never success)
//! whose message names the kernel, the PTX file:line, the thread (ctaid, tid), and for memory
//! faults the address and the state space.

mod endtoend_common;
use endtoend_common::*;
use exec::{Arg, ExecError, LaunchConfig, RunOptions};

const FILE: &str = "faults.ptx";

/// Launch a kernel of faults.ptx that must fault; returns the error and its message.
fn launch_fault(
    kernel: &str,
    cfg: &LaunchConfig,
    args: &[Arg],
    opts: &RunOptions<'_>,
) -> (ExecError, String) {
    let (dev, m) = load_kernel(FILE);
    let err = match dev.launch(&m, kernel, cfg, args, opts) {
        Ok(_) => panic!("{kernel}: a faulting launch reported success"),
        Err(e) => e,
    };
    let msg = err.to_string();
    assert_eq!(
        err.exit_code(),
        3,
        "{kernel}: a fault is exit code 3: {msg}"
    );
    (err, msg)
}

/// The message names the kernel and `tests/kernels/faults.ptx:<line of the FAULT marker>`.
fn assert_names_kernel_and_line(msg: &str, kernel: &str, marker: &str) {
    let line = line_of(&kernel_text(FILE), &format!("FAULT: {marker}"));
    assert!(
        msg.contains(kernel),
        "message does not name kernel `{kernel}`: {msg}"
    );
    let loc = format!("{}:{line}", kernel_path(FILE));
    assert!(msg.contains(&loc), "message does not name {loc}: {msg}");
}

/// The message names the thread: `ctaid` followed by (x,y,z), and `tid` followed by (x,y,z),
/// whatever the spacing.
fn assert_names_thread(msg: &str, ctaid: [u32; 3], tid: [u32; 3]) {
    let flat: String = msg.chars().filter(|c| !c.is_whitespace()).collect();
    for (what, v) in [("ctaid", ctaid), ("tid", tid)] {
        let want = format!("({},{},{})", v[0], v[1], v[2]);
        let found = flat.match_indices(what).any(|(i, _)| {
            flat[i + what.len()..]
                .trim_start_matches(['=', ':'])
                .starts_with(&want)
        });
        assert!(found, "message does not name {what}={want}: {msg}");
    }
}

fn assert_names_address_and_space(msg: &str, addr: u64, space: &str) {
    let hex = format!("{addr:#x}");
    assert!(
        msg.to_lowercase().contains(&hex),
        "message does not name address {hex}: {msg}"
    );
    assert!(
        msg.contains(space),
        "message does not name the {space} space: {msg}"
    );
}

#[test]
fn fault_out_of_bounds_global_in_3d_grid() {
    let grid = [2, 3, 2];
    let block = [4u32, 2, 3];
    let threads = 12 * 24;
    // The faulting thread: ctaid (1,2,1), tid (3,1,2).
    let fc = (3 + 2) * 2 + 1u32; // (cz*ny + cy)*nx + cx = (1*3 + 2)*2 + 1
    let ft = (2 * 2 + 1) * 4 + 3u32; // (tz*ny + ty)*nx + tx
    for t in THREAD_COUNTS {
        let (mut dev, m) = load_kernel(FILE);
        let p = zeros::<u32>(&mut dev, threads);
        // Just past the end of the allocation: no allocation can start there
        // if allocations are separated, and it is outside `p` in any case.
        let bad = p.0 + 4 * threads as u64 + 0x10_0000;
        let err = dev
            .launch(
                &m,
                "oob_global",
                &cfg(grid, block),
                &[Arg::ptr(p), Arg::u64(bad), Arg::u32(fc), Arg::u32(ft)],
                &opts(t),
            )
            .expect_err("an out-of-bounds load must fault");
        let msg = err.to_string();
        assert_eq!(err.exit_code(), 3, "{msg}");
        assert_names_kernel_and_line(&msg, "oob_global", "oob_global");
        assert_names_thread(&msg, [1, 2, 1], [3, 1, 2]);
        assert_names_address_and_space(&msg, bad, "global");
    }
}

#[test]
fn fault_unallocated_low_global_address() {
    let (mut dev, m) = load_kernel(FILE);
    let p = zeros::<u32>(&mut dev, 32);
    let err = dev
        .launch(
            &m,
            "oob_global",
            &cfg([1, 1, 1], [32, 1, 1]),
            &[Arg::ptr(p), Arg::u64(0x40), Arg::u32(0), Arg::u32(17)],
            &opts(1),
        )
        .expect_err("a load from address 0x40 must fault");
    let msg = err.to_string();
    assert_names_kernel_and_line(&msg, "oob_global", "oob_global");
    assert_names_thread(&msg, [0, 0, 0], [17, 0, 0]);
    assert_names_address_and_space(&msg, 0x40, "global");
}

#[test]
fn fault_misaligned_global_load() {
    let (mut dev, m) = load_kernel(FILE);
    let p = zeros::<u32>(&mut dev, 16);
    let err = dev
        .launch(
            &m,
            "misaligned",
            &cfg([1, 1, 1], [8, 1, 1]),
            &[Arg::ptr(p)],
            &opts(2),
        )
        .expect_err("a misaligned load must fault");
    let msg = err.to_string();
    assert_eq!(err.exit_code(), 3);
    assert_names_kernel_and_line(&msg, "misaligned", "misaligned");
    assert_names_thread(&msg, [0, 0, 0], [3, 0, 0]);
    assert_names_address_and_space(&msg, p.0 + 2, "global");
    assert!(
        msg.contains("misaligned"),
        "message does not say misaligned: {msg}"
    );
}

#[test]
fn fault_out_of_bounds_shared_store() {
    let addr = 0x4_0000u32; // past any CTA's shared memory (at most 48 KiB here)
    let (_, msg) = launch_fault(
        "oob_shared",
        &cfg([1, 1, 1], [16, 1, 1]),
        &[Arg::u32(addr)],
        &opts(1),
    );
    assert_names_kernel_and_line(&msg, "oob_shared", "oob_shared");
    assert_names_thread(&msg, [0, 0, 0], [7, 0, 0]);
    assert_names_address_and_space(&msg, u64::from(addr), "shared");
}

#[test]
fn fault_out_of_bounds_local_load() {
    let addr = 0x10_0000u64;
    let (_, msg) = launch_fault(
        "oob_local",
        &cfg([1, 1, 1], [16, 1, 1]),
        &[Arg::u64(addr)],
        &opts(1),
    );
    assert_names_kernel_and_line(&msg, "oob_local", "oob_local");
    assert_names_thread(&msg, [0, 0, 0], [9, 0, 0]);
    assert_names_address_and_space(&msg, addr, "local");
}

#[test]
fn fault_trap_names_the_trapping_thread() {
    for t in THREAD_COUNTS {
        let (_, msg) = launch_fault("trap_kernel", &cfg([4, 1, 1], [64, 1, 1]), &[], &opts(t));
        assert_names_kernel_and_line(&msg, "trap_kernel", "trap");
        assert_names_thread(&msg, [2, 0, 0], [33, 0, 0]);
        assert!(msg.contains("trap"), "message does not say trap: {msg}");
    }
}

#[test]
fn fault_barrier_that_can_never_complete() {
    let (err, msg) = launch_fault(
        "barrier_deadlock",
        &cfg([1, 1, 1], [64, 1, 1]),
        &[],
        &opts(1),
    );
    assert!(msg.contains("barrier_deadlock"), "{msg}");
    assert!(
        msg.contains("barrier"),
        "message does not mention the barrier: {msg}"
    );
    // Either waiting warp may be the one reported; its line and thread must agree.
    let text = kernel_text(FILE);
    let l0 = line_of(&text, "FAULT: barrier 0");
    let l1 = line_of(&text, "FAULT: barrier 1");
    let f = err.fault().expect("a fault");
    assert!(
        f.line == l0 || f.line == l1,
        "line {} is neither barrier: {msg}",
        f.line
    );
    let warp = if f.line == l0 { 0 } else { 1 };
    assert_eq!(
        f.tid[0] / 32,
        warp,
        "reported thread is not waiting at line {}: {msg}",
        f.line
    );
    assert!(
        msg.contains(&format!("{}:{}", kernel_path(FILE), f.line)),
        "{msg}"
    );
    assert_names_thread(&msg, [0, 0, 0], f.tid);
}

#[test]
fn fault_step_budget_exceeded() {
    let budget = RunOptions {
        threads: 1,
        max_steps: 10_000,
        ..RunOptions::default()
    };
    let (err, msg) = launch_fault("spin_forever", &cfg([2, 1, 1], [32, 1, 1]), &[], &budget);
    assert!(msg.contains("spin_forever"), "{msg}");
    assert!(
        msg.contains("10000"),
        "message does not give the budget: {msg}"
    );
    let text = kernel_text(FILE);
    let f = err.fault().expect("a fault");
    let lines = [
        line_of(&text, "FAULT: spin"),
        line_of(&text, "FAULT: spin branch"),
    ];
    assert!(
        lines.contains(&f.line),
        "line {} is not in the loop: {msg}",
        f.line
    );
    assert!(
        msg.contains(&format!("{}:{}", kernel_path(FILE), f.line)),
        "{msg}"
    );
    assert_names_thread(&msg, f.ctaid, f.tid);
    assert!(f.ctaid[0] < 2 && f.tid[0] < 32, "{msg}");
}

#[test]
fn fault_unbounded_recursion_is_an_error() {
    let (err, msg) = launch_fault(
        "recurse_forever",
        &cfg([1, 1, 1], [32, 1, 1]),
        &[],
        &opts(1),
    );
    assert!(msg.contains("recurse_forever"), "{msg}");
    let f = err.fault().expect("a fault");
    let line = line_of(&kernel_text(FILE), "FAULT: recursion");
    assert_eq!(f.line, line, "{msg}");
    assert!(
        msg.contains(&format!("{}:{line}", kernel_path(FILE))),
        "{msg}"
    );
}

#[test]
fn fault_misaligned_shared_load() {
    let (_, msg) = launch_fault(
        "misaligned_shared",
        &cfg([1, 1, 1], [8, 1, 1]),
        &[],
        &opts(1),
    );
    assert_names_kernel_and_line(&msg, "misaligned_shared", "misaligned_shared");
    assert_names_thread(&msg, [0, 0, 0], [5, 0, 0]);
    assert!(
        msg.contains("misaligned"),
        "message does not say misaligned: {msg}"
    );
    assert!(
        msg.contains("shared"),
        "message does not name the shared space: {msg}"
    );
}

#[test]
fn fault_out_of_bounds_const_load() {
    let addr = 0x2_0000u64; // past the 64 KiB constant bank
    let (_, msg) = launch_fault(
        "oob_const",
        &cfg([1, 1, 1], [4, 1, 1]),
        &[Arg::u64(addr)],
        &opts(1),
    );
    assert_names_kernel_and_line(&msg, "oob_const", "oob_const");
    assert_names_thread(&msg, [0, 0, 0], [2, 0, 0]);
    assert_names_address_and_space(&msg, addr, "const");
}

#[test]
fn fault_vector_load_straddling_the_end_of_an_allocation() {
    let (mut dev, m) = load_kernel(FILE);
    let p = zeros::<u32>(&mut dev, 10);
    // A 16-byte load at p+32 of a 40-byte allocation: 8 bytes in, 8 bytes out.
    let off = 32u64;
    let err = dev
        .launch(
            &m,
            "oob_vector",
            &cfg([1, 1, 1], [4, 1, 1]),
            &[Arg::ptr(p), Arg::u64(off)],
            &opts(1),
        )
        .expect_err("a vector load past the end of its allocation must fault");
    let msg = err.to_string();
    assert_eq!(err.exit_code(), 3, "{msg}");
    assert_names_kernel_and_line(&msg, "oob_vector", "oob_vector");
    assert_names_thread(&msg, [0, 0, 0], [1, 0, 0]);
    if p.0.is_multiple_of(16) {
        // Either the vector access (p+32) or its first element outside the allocation (p+40).
        let named = [p.0 + off, p.0 + 40]
            .iter()
            .any(|a| msg.contains(&format!("{a:#x}")));
        assert!(
            named,
            "message names neither {:#x} nor {:#x}: {msg}",
            p.0 + off,
            p.0 + 40
        );
        assert!(msg.contains("global"), "{msg}");
        assert!(
            !msg.contains("misaligned"),
            "an aligned access called misaligned: {msg}"
        );
    }
}

#[test]
fn launch_errors_are_not_faults() {
    let (mut dev, m) = load_kernel(FILE);
    let p = zeros::<u32>(&mut dev, 8);
    let no_kernel = dev
        .launch(
            &m,
            "no_such_kernel",
            &cfg([1, 1, 1], [1, 1, 1]),
            &[],
            &opts(1),
        )
        .expect_err("an unknown kernel");
    assert_eq!(no_kernel.exit_code(), 2);
    assert!(
        no_kernel.to_string().contains("no_such_kernel"),
        "{no_kernel}"
    );
    let arity = dev
        .launch(&m, "misaligned", &cfg([1, 1, 1], [1, 1, 1]), &[], &opts(1))
        .expect_err("a missing argument");
    assert_eq!(arity.exit_code(), 2, "{arity}");
    let big = dev
        .launch(
            &m,
            "misaligned",
            &cfg([1, 1, 1], [2048, 1, 1]),
            &[Arg::ptr(p)],
            &opts(1),
        )
        .expect_err("a CTA of 2048 threads");
    assert_eq!(big.exit_code(), 2, "{big}");
    let empty = dev
        .launch(
            &m,
            "misaligned",
            &cfg([0, 1, 1], [32, 1, 1]),
            &[Arg::ptr(p)],
            &opts(1),
        )
        .expect_err("an empty grid");
    assert_eq!(empty.exit_code(), 2, "{empty}");
}

#[test]
fn fault_inside_a_device_function_names_the_entry_and_the_function_line() {
    let addr = 0x30u64;
    let (_, msg) = launch_fault(
        "oob_in_func",
        &cfg([1, 1, 1], [8, 1, 1]),
        &[Arg::u64(addr)],
        &opts(1),
    );
    assert_names_kernel_and_line(&msg, "oob_in_func", "in_func");
    assert_names_thread(&msg, [0, 0, 0], [6, 0, 0]);
    assert_names_address_and_space(&msg, addr, "global");
}

#[test]
fn many_faulting_threads_give_the_same_report_for_every_thread_count() {
    let mut first: Option<String> = None;
    for t in THREAD_COUNTS {
        let (err, msg) = launch_fault(
            "trap_many",
            &cfg([12, 1, 1], [96, 1, 1]),
            &[Arg::u32(5)],
            &opts(t),
        );
        assert_names_kernel_and_line(&msg, "trap_many", "trap_many");
        let f = err.fault().expect("a fault");
        assert!(
            f.ctaid[0] >= 5 && f.tid[0] % 7 == 3,
            "not a trapping thread: {msg}"
        );
        match &first {
            None => first = Some(msg),
            Some(m) => assert_eq!(*m, msg, "{t} worker threads report another fault"),
        }
    }
}

#[test]
fn fault_store_through_a_generic_pointer_into_const() {
    let (_, msg) = launch_fault(
        "store_const_generic",
        &cfg([1, 1, 1], [8, 1, 1]),
        &[],
        &opts(1),
    );
    assert_names_kernel_and_line(&msg, "store_const_generic", "store_const");
    assert_names_thread(&msg, [0, 0, 0], [4, 0, 0]);
    assert!(
        msg.contains("const"),
        "message does not name the const space: {msg}"
    );
}

#[test]
fn launches_outside_maxntid_or_reqntid_are_launch_errors() {
    let (mut dev, m) = load_kernel("launch_bounds.ptx");
    let p = zeros::<u32>(&mut dev, 256);
    let go = |kernel: &str, block: [u32; 3]| {
        dev.launch(&m, kernel, &cfg([1, 1, 1], block), &[Arg::ptr(p)], &opts(1))
    };
    go("bounded_max", [64, 1, 1]).expect("64 threads are within .maxntid 64");
    go("bounded_req", [32, 2, 1]).expect("32 x 2 x 1 is the .reqntid shape");
    for (kernel, block) in [
        ("bounded_max", [65, 1, 1]),
        ("bounded_max", [32, 4, 1]),
        ("bounded_req", [64, 1, 1]),
        ("bounded_req", [32, 1, 1]),
    ] {
        match go(kernel, block) {
            Ok(_) => panic!("{kernel} launched with block {block:?}"),
            Err(e) => assert_eq!(e.exit_code(), 2, "{kernel} {block:?}: {e}"),
        }
    }
}
