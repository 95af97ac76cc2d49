//! `--sanitize`, second round: races between lanes of one warp, between CTAs and past a
//! named barrier some warps skip; barriers that exited threads never reach or that never
//! complete; reads of global buffers the host never filled. Each kernel has the exact
//! thread, line and address expected, worked out from the kernel text and the executor's
//! documented scheduling (warps of a CTA run in order until a barrier or exit, lanes of an
//! instruction in lane order, CTAs in order with one worker); each has a correct twin that
//! must report nothing.

use exec::sanitize::{Check, Finding, Sanitizer};
use exec::{Arg, Device, ExecError, LaunchConfig, RunOptions};

mod sanitize_common;
use sanitize_common::*;

/// Run `kernel(out: *u32)` of `text` over `grid` CTAs of `block` threads with one buffer of
/// `n` u32 (zeroed; `uninit`: registered as never written by the host).
fn run(text: &str, grid: u32, block: u32, n: u64, uninit: bool) -> Outcome {
    run_with(text, grid, block, n, uninit, 1 << 24)
}

fn only<'a>(o: &'a Outcome, title: &str) -> &'a Finding {
    assert_eq!(o.findings.len(), 1, "{:#?}", o.findings);
    let f = &o.findings[0];
    assert_eq!(f.title, title, "{f:#?}");
    f
}

fn tids(f: &Finding) -> Vec<[u32; 3]> {
    f.threads.iter().map(|p| p.tid).collect()
}

/// Lane 0 stores 5 to `s[0]`; every lane then loads `s[0]` (`sync`: with `bar.warp.sync`
/// in between) and stores it to out[tid].
fn warp_handoff_kernel(target: u32, sync: bool) -> String {
    let sync = if sync { "bar.warp.sync -1;" } else { "" };
    format!(
        ".version 6.4\n.target sm_{target}\n.address_size 64\n.visible .entry k(.param .u64 out)
{{
    .reg .pred %p<2>;
    .reg .b32 %r<4>;
    .reg .b64 %rd<4>;
    .shared .align 4 .u32 s[1];
    mov.u32 %r1, %tid.x;
    setp.eq.u32 %p1, %r1, 0;
    mov.u32 %r2, 5;
    @%p1 st.shared.u32 [s], %r2; // STORE
    {sync}
    ld.shared.u32 %r3, [s]; // LOAD
    ld.param.u64 %rd1, [out];
    mul.wide.u32 %rd2, %r1, 4;
    add.u64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r3;
    ret;
}}
"
    )
}

#[test]
fn racecheck_reports_lanes_of_one_warp_unsynchronised_on_sm70() {
    let text = warp_handoff_kernel(70, false);
    let o = run(&text, 1, 32, 32, false);
    o.result.as_ref().expect("runs");
    // Lane 0's own load follows its store; lane 1 is the first other lane to load the byte
    // lane 0 stored with no __syncwarp in between: byte 0 of `s` (shared offset 0).
    let f = only(&o, "read-after-write hazard");
    assert_eq!(f.check, Check::Racecheck);
    assert_eq!(f.line, line_of(&text, "// LOAD"));
    assert_eq!(tids(f), [[1, 0, 0], [0, 0, 0]]);
    assert_eq!(f.threads[1].line, line_of(&text, "// STORE"));
    assert_eq!(f.address, Some(0));
    // 31 lanes x 4 bytes.
    assert_eq!(f.occurrences, 124);
    // __syncwarp orders the lanes; before sm_70 a warp runs in lock-step.
    for (target, sync) in [(70, true), (60, false)] {
        let o = run(&warp_handoff_kernel(target, sync), 1, 32, 32, false);
        o.result.as_ref().expect("runs");
        assert!(o.findings.is_empty(), "sm_{target}: {:#?}", o.findings);
    }
}

/// Every lane stores `value(tid)` to out[0] in one instruction.
fn one_store_kernel(same_value: bool) -> String {
    let v = if same_value {
        "mov.u32 %r2, 7;"
    } else {
        "mov.u32 %r2, %r1;"
    };
    format!(
        ".version 6.0\n.target sm_60\n.address_size 64\n.visible .entry k(.param .u64 out)
{{
    .reg .b32 %r<4>;
    .reg .b64 %rd<2>;
    mov.u32 %r1, %tid.x;
    {v}
    ld.param.u64 %rd1, [out];
    st.global.u32 [%rd1], %r2; // STORE
    ret;
}}
"
    )
}

#[test]
fn racecheck_reports_lanes_storing_different_values_to_one_byte_in_one_instruction() {
    let text = one_store_kernel(false);
    let o = run(&text, 1, 32, 1, false);
    o.result.as_ref().expect("runs");
    // Lane 1 stores 1 over lane 0's 0: bytes 0 differ; bytes 1..3 are 0 in every value.
    // Lanes 2..31 differ from their predecessor in byte 0 too (k != k-1 mod 256).
    let f = only(&o, "write-after-write hazard within one instruction");
    assert_eq!(f.line, line_of(&text, "// STORE"));
    assert_eq!(tids(f), [[1, 0, 0], [0, 0, 0]]);
    assert_eq!(f.address, Some(FIRST_BASE));
    assert_eq!(f.occurrences, 31);
    let o = run(&one_store_kernel(true), 1, 32, 1, false);
    o.result.as_ref().expect("runs");
    assert!(o.findings.is_empty(), "{:#?}", o.findings);
}

/// Every thread of every CTA stores its CTA index to out[tid] (`racy`), or to
/// out[ctaid * 32 + tid], or adds it atomically to out[tid].
fn cta_kernel(how: &str) -> String {
    let (index, op) = match how {
        "racy" => ("mov.u32 %r3, %r1;", "st.global.u32 [%rd3], %r2;"),
        "atomic" => ("mov.u32 %r3, %r1;", "atom.global.add.u32 %r4, [%rd3], %r2;"),
        _ => (
            "mad.lo.u32 %r3, %r2, 32, %r1;",
            "st.global.u32 [%rd3], %r2;",
        ),
    };
    format!(
        ".version 6.0\n.target sm_60\n.address_size 64\n.visible .entry k(.param .u64 out)
{{
    .reg .b32 %r<6>;
    .reg .b64 %rd<4>;
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, %ctaid.x;
    {index}
    ld.param.u64 %rd1, [out];
    mul.wide.u32 %rd2, %r3, 4;
    add.u64 %rd3, %rd1, %rd2;
    {op} // STORE
    ret;
}}
"
    )
}

#[test]
fn racecheck_reports_ctas_storing_to_the_same_global_bytes() {
    let text = cta_kernel("racy");
    let o = run(&text, 2, 32, 64, false);
    o.result.as_ref().expect("runs");
    let f = only(&o, "write-after-write hazard between CTAs");
    assert_eq!(f.line, line_of(&text, "// STORE"));
    let who: Vec<([u32; 3], [u32; 3])> = f.threads.iter().map(|p| (p.ctaid, p.tid)).collect();
    assert_eq!(who, [([0, 0, 0], [0, 0, 0]), ([1, 0, 0], [0, 0, 0])]);
    assert_eq!(f.address, Some(FIRST_BASE));
    // 32 threads x 4 bytes, found when CTA 1 is merged.
    assert_eq!(f.occurrences, 128);
    for how in ["disjoint", "atomic"] {
        let o = run(&cta_kernel(how), 2, 32, 64, false);
        o.result.as_ref().expect("runs");
        assert!(o.findings.is_empty(), "{how}: {:#?}", o.findings);
    }
}

/// Warp 0 stores s[lane]; warps 0 and 2 meet at `bar.sync 1, 64`; warps 1 and 2 then load
/// s[lane]. `fixed`: all three warps take part in `bar.sync 1, 96`.
fn named_barrier_kernel(fixed: bool) -> String {
    let (skip, bar) = if fixed {
        ("", "bar.sync 1, 96;")
    } else {
        ("@%p2 bra SKIP;", "bar.sync 1, 64;")
    };
    format!(
        ".version 6.0\n.target sm_60\n.address_size 64\n.visible .entry k(.param .u64 out)
{{
    .reg .pred %p<4>;
    .reg .b32 %r<8>;
    .reg .b64 %rd<4>;
    .shared .align 4 .u32 s[32];
    mov.u32 %r1, %tid.x;
    shr.u32 %r2, %r1, 5;
    and.b32 %r3, %r1, 31;
    shl.b32 %r4, %r3, 2;
    mov.u32 %r5, s;
    add.u32 %r5, %r5, %r4;
    setp.ne.u32 %p1, %r2, 0;
    @%p1 bra NOTW0;
    st.shared.u32 [%r5], %r1; // STORE
NOTW0:
    setp.eq.u32 %p2, %r2, 1;
    {skip}
    {bar}
SKIP:
    setp.eq.u32 %p3, %r2, 0;
    @%p3 bra DONE;
    ld.shared.u32 %r6, [%r5]; // LOAD
    ld.param.u64 %rd1, [out];
    mul.wide.u32 %rd2, %r1, 4;
    add.u64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r6;
DONE:
    ret;
}}
"
    )
}

#[test]
fn racecheck_orders_only_the_warps_that_took_part_in_a_named_barrier() {
    let text = named_barrier_kernel(false);
    let o = run(&text, 1, 96, 96, false);
    o.result.as_ref().expect("runs");
    // Warp 0 waits at barrier 1; warp 1 skips it and loads what thread 0 stored; warp 2
    // completes the barrier with warp 0 and loads in order.
    let f = only(&o, "read-after-write hazard");
    assert_eq!(f.line, line_of(&text, "// LOAD"));
    assert_eq!(tids(f), [[32, 0, 0], [0, 0, 0]]);
    assert_eq!(f.threads[1].line, line_of(&text, "// STORE"));
    assert_eq!(f.address, Some(0));
    // Warp 1's 32 threads x 4 bytes.
    assert_eq!(f.occurrences, 128);
    let o = run(&named_barrier_kernel(true), 1, 96, 96, false);
    o.result.as_ref().expect("runs");
    assert!(o.findings.is_empty(), "{:#?}", o.findings);
}

/// Warp 1 exits early (`early`) while warp 0 waits at `bar.sync 0`.
fn exit_kernel(early: bool) -> String {
    let leave = if early { "@%p1 bra END;" } else { "" };
    format!(
        ".version 6.0\n.target sm_60\n.address_size 64\n.visible .entry k(.param .u64 out)
{{
    .reg .pred %p<2>;
    .reg .b32 %r<2>;
    mov.u32 %r1, %tid.x;
    setp.ge.u32 %p1, %r1, 32;
    {leave}
    bar.sync 0; // BAR
END:
    ret; // RET
}}
"
    )
}

#[test]
fn synccheck_reports_a_barrier_that_exited_threads_never_reach() {
    let text = exit_kernel(true);
    let o = run(&text, 1, 64, 1, false);
    o.result
        .as_ref()
        .expect("the executor completes the barrier without the exited threads");
    let f = only(&o, "barrier not reached by exited threads");
    assert_eq!(f.check, Check::Synccheck);
    assert_eq!(f.line, line_of(&text, "// BAR"));
    assert_eq!(tids(f), [[0, 0, 0], [32, 0, 0]]);
    assert_eq!(f.threads[1].line, line_of(&text, "// RET"));
    assert!(
        f.detail.contains("32 threads of the CTA exited"),
        "{}",
        f.detail
    );
    let o = run(&exit_kernel(false), 1, 64, 1, false);
    o.result.as_ref().expect("runs");
    assert!(o.findings.is_empty(), "{:#?}", o.findings);
}

/// Warp 0 waits at barrier 0, warp 1 at barrier 1 (`fixed`: both at barrier 0).
fn deadlock_kernel(fixed: bool) -> String {
    let other = if fixed { 0 } else { 1 };
    format!(
        ".version 6.0\n.target sm_60\n.address_size 64\n.visible .entry k(.param .u64 out)
{{
    .reg .pred %p<2>;
    .reg .b32 %r<2>;
    mov.u32 %r1, %tid.x;
    setp.ge.u32 %p1, %r1, 32;
    @%p1 bra W1;
    bar.sync 0; // BAR0
    bra.uni END;
W1:
    bar.sync {other}; // BAR1
END:
    ret;
}}
"
    )
}

#[test]
fn synccheck_names_the_waiting_and_the_missing_threads_of_a_barrier_that_never_completes() {
    let text = deadlock_kernel(false);
    let o = run(&text, 1, 64, 1, false);
    assert!(
        matches!(o.result, Err(ExecError::Fault(_))),
        "{:?}",
        o.result
    );
    let f = only(&o, "barrier never completes");
    assert_eq!(f.check, Check::Synccheck);
    assert_eq!(f.line, line_of(&text, "// BAR0"));
    assert_eq!(tids(f), [[0, 0, 0], [32, 0, 0]]);
    assert_eq!(f.threads[1].line, line_of(&text, "// BAR1"));
    // The twin waits for barrier 0 at two instructions: it completes (no deadlock and no
    // "never completes"), and is the first round's "divergent barrier" report only.
    let o = run(&deadlock_kernel(true), 1, 64, 1, false);
    o.result.as_ref().expect("runs");
    assert!(
        o.findings.iter().all(|f| f.title == "divergent barrier"),
        "{:#?}",
        o.findings
    );
}

/// Each thread loads out[tid] (`store_first`: after storing tid there).
fn global_init_kernel(store_first: bool) -> String {
    let st = if store_first {
        "st.global.u32 [%rd3], %r1;"
    } else {
        ""
    };
    format!(
        ".version 6.0\n.target sm_60\n.address_size 64\n.visible .entry k(.param .u64 out)
{{
    .reg .b32 %r<4>;
    .reg .b64 %rd<4>;
    mov.u32 %r1, %tid.x;
    ld.param.u64 %rd1, [out];
    mul.wide.u32 %rd2, %r1, 4;
    add.u64 %rd3, %rd1, %rd2;
    {st}
    ld.global.u32 %r2, [%rd3]; // LOAD
    add.u32 %r2, %r2, 1;
    st.global.u32 [%rd3], %r2;
    ret;
}}
"
    )
}

#[test]
fn initcheck_reports_reads_of_global_bytes_the_host_never_filled() {
    let text = global_init_kernel(false);
    let o = run(&text, 1, 32, 32, true);
    o.result.as_ref().expect("runs");
    let f = only(&o, "read of uninitialised global memory");
    assert_eq!(f.check, Check::Initcheck);
    assert_eq!(f.line, line_of(&text, "// LOAD"));
    assert_eq!(tids(f), [[0, 0, 0]]);
    assert_eq!(f.address, Some(FIRST_BASE));
    assert_eq!(f.occurrences, 128);
    // Written by the kernel first, or filled by the host (not registered): silent.
    let o = run(&global_init_kernel(true), 1, 32, 32, true);
    o.result.as_ref().expect("runs");
    assert!(o.findings.is_empty(), "{:#?}", o.findings);
    let o = run(&text, 1, 32, 32, false);
    o.result.as_ref().expect("runs");
    assert!(o.findings.is_empty(), "{:#?}", o.findings);
}

/// Run `text` like [`run`] with the given shadow budgets; the findings and the count of
/// byte accesses not checked.
fn run_budget(text: &str, grid: u32, block: u32, budgets: (usize, usize)) -> (Vec<Finding>, u64) {
    let src = diag::SourceFile::new("san.ptx", text);
    let (m, _) = check::check_source(&src);
    let mut dev = Device::new();
    let module = dev.load(&m.expect("checked"), &src).expect("loads");
    let out = dev.alloc(4096).expect("alloc");
    let san = Sanitizer::with_shadow_budget(budgets.0, budgets.1);
    let cfg = LaunchConfig {
        grid: [grid, 1, 1],
        block: [block, 1, 1],
        ..LaunchConfig::default()
    };
    let opts = RunOptions {
        threads: 1,
        sanitize: Some(&san),
        ..RunOptions::default()
    };
    dev.launch(&module, "k", &cfg, &[Arg::ptr(out)], &opts)
        .expect("runs");
    (san.findings(), san.unchecked_bytes())
}

/// Both warps store their lane number to out[lane]: 128 bytes, two 64-byte shadow pages.
const TWO_WARPS_SAME_WORDS: &str = ".version 6.0\n.target sm_60\n.address_size 64
.visible .entry k(.param .u64 out)
{
    .reg .b32 %r<4>;
    .reg .b64 %rd<4>;
    mov.u32 %r1, %tid.x;
    and.b32 %r2, %r1, 31;
    ld.param.u64 %rd1, [out];
    mul.wide.u32 %rd2, %r2, 4;
    add.u64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r2;
    ret;
}
";

#[test]
fn the_global_shadows_are_bounded_by_their_host_memory_budgets_and_count_what_they_skip() {
    let big = 1 << 30;
    // Default budgets: warp 1 overwrites all 128 bytes warp 0 stored.
    let (f, skipped) = run_budget(TWO_WARPS_SAME_WORDS, 1, 64, (big, big));
    assert_eq!(f.len(), 1, "{f:#?}");
    assert_eq!(
        (f[0].title.as_str(), f[0].occurrences),
        ("write-after-write hazard", 128)
    );
    assert_eq!(skipped, 0);
    // One page of 64 byte shadows of 80 bytes fits in 5,120 host bytes: the second page
    // (out[16..32]) is not checked; each warp's 64 accesses to it are counted.
    let (f, skipped) = run_budget(TWO_WARPS_SAME_WORDS, 1, 64, (64 * 80, big));
    assert_eq!(f.len(), 1, "{f:#?}");
    assert_eq!(f[0].occurrences, 64);
    assert_eq!(skipped, 128);
    // A launch-wide shadow with no room: the race between CTAs is not checked, and the
    // 128 bytes each CTA stored are counted.
    let racy = cta_kernel("racy");
    let (f, skipped) = run_budget(&racy, 2, 32, (big, big));
    assert_eq!(f.len(), 1, "{f:#?}");
    assert_eq!(skipped, 0);
    let (f, skipped) = run_budget(&racy, 2, 32, (big, 0));
    assert!(f.is_empty(), "{f:#?}");
    assert_eq!(skipped, 256);
}
