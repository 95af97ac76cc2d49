//! `--sanitize`: one kernel per check that must be reported with the exact thread, line and
//! address, and a correct twin of each that must report nothing. Expected threads and
//! addresses are worked out from the kernel text and the executor's documented scheduling
//! (warps of a CTA run in order until a barrier or exit; the first allocation is at 0x10000).

use exec::sanitize::{Check, Finding, Sanitizer};
use exec::{Arg, Device, ExecError, LaunchConfig, RunOptions};

mod sanitize_common;
use sanitize_common::*;

/// Run `kernel(out: *u32)` of `text` with one zeroed buffer of `n` u32 under the sanitizer.
fn run(text: &str, block: u32, n: u64) -> Outcome {
    run_with(text, 1, block, n, false, 1 << 20)
}

fn tid(f: &Finding, i: usize) -> [u32; 3] {
    f.threads[i].tid
}

const HEAD: &str = ".version 6.0\n.target sm_60\n.address_size 64\n";

/// Each thread t stores t in s[t], a barrier, then reads s[(t+32) % 64] and stores it back
/// into s[t]; `SYNC` is where the fix puts a second barrier.
fn race_kernel(fixed: bool) -> String {
    let sync = if fixed { "bar.sync 0;" } else { "" };
    format!(
        "{HEAD}.visible .entry k(.param .u64 out)
{{
    .reg .b32 %r<8>;
    .reg .b64 %rd<4>;
    .shared .align 4 .u32 s[64];
    mov.u32 %r1, %tid.x;
    mov.u32 %r6, s;
    shl.b32 %r2, %r1, 2;
    add.u32 %r3, %r6, %r2;
    st.shared.u32 [%r3], %r1;
    bar.sync 0;
    add.u32 %r4, %r1, 32;
    rem.u32 %r4, %r4, 64;
    shl.b32 %r4, %r4, 2;
    add.u32 %r4, %r6, %r4;
    ld.shared.u32 %r5, [%r4]; // LOAD
    {sync}
    st.shared.u32 [%r3], %r5; // STORE
    ld.param.u64 %rd1, [out];
    cvt.u64.u32 %rd2, %r2;
    add.u64 %rd1, %rd1, %rd2;
    st.global.u32 [%rd1], %r5;
    ret;
}}
"
    )
}

#[test]
fn racecheck_reports_shared_hazards_between_warps_without_a_barrier() {
    let text = race_kernel(false);
    let o = run(&text, 64, 64);
    o.result.expect("the racy kernel runs");
    let races: Vec<&Finding> = o
        .findings
        .iter()
        .filter(|f| f.check == Check::Racecheck)
        .collect();
    // Warp 0 reads s[32..64] and writes s[0..32]; then warp 1 reads s[0..32] (just written
    // by warp 0: read-after-write) and writes s[32..64] (just read by warp 0:
    // write-after-read). Thread 32 meets both first, at byte 0 and byte 128 of `s`.
    assert_eq!(races.len(), 2, "{races:#?}");
    let raw = races
        .iter()
        .find(|f| f.title == "read-after-write hazard")
        .expect("RAW");
    assert_eq!(raw.line, line_of(&text, "// LOAD"));
    assert_eq!(tid(raw, 0), [32, 0, 0]);
    assert_eq!(tid(raw, 1), [0, 0, 0]);
    assert_eq!(raw.threads[1].line, line_of(&text, "// STORE"));
    assert_eq!(raw.address, Some(0));
    // 32 threads x 4 bytes.
    assert_eq!(raw.occurrences, 128);
    let war = races
        .iter()
        .find(|f| f.title == "write-after-read hazard")
        .expect("WAR");
    assert_eq!(war.line, line_of(&text, "// STORE"));
    assert_eq!(tid(war, 0), [32, 0, 0]);
    assert_eq!(tid(war, 1), [0, 0, 0]);
    assert_eq!(war.threads[1].line, line_of(&text, "// LOAD"));
    assert_eq!(war.address, Some(128));
    assert_eq!(o.findings.len(), 2, "{:#?}", o.findings);
}

#[test]
fn racecheck_is_quiet_when_a_barrier_orders_the_accesses() {
    let o = run(&race_kernel(true), 64, 64);
    o.result.expect("runs");
    assert!(o.findings.is_empty(), "{:#?}", o.findings);
    // And the fix computes what the kernel means: out[t] = (t + 32) % 64.
    assert_eq!(o.out, (0..64).map(|t| (t + 32) % 64).collect::<Vec<u32>>());
}

/// Threads 0..32 store to out[t]; with `racy`, every thread also stores to out[0], so
/// warps 0 and 1 write the same global bytes without a barrier.
fn global_race_kernel(racy: bool) -> String {
    let extra = if racy {
        "st.global.u32 [%rd1], %r1; // SAME"
    } else {
        ""
    };
    format!(
        "{HEAD}.visible .entry k(.param .u64 out)
{{
    .reg .b32 %r<4>;
    .reg .b64 %rd<4>;
    mov.u32 %r1, %tid.x;
    ld.param.u64 %rd1, [out];
    mul.wide.u32 %rd2, %r1, 4;
    add.u64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r1;
    {extra}
    ret;
}}
"
    )
}

#[test]
fn racecheck_reports_global_write_after_write_between_warps() {
    let text = global_race_kernel(true);
    let o = run(&text, 64, 64);
    o.result.expect("runs");
    // Warp 1's thread 32 is the first to overwrite what thread 31 of warp 0 wrote last
    // (lanes store in lane order); and inside warp 0's store, lane 1 stores 1 over lane 0's
    // 0 in the same instruction (two values for one byte: a race in any order).
    assert_eq!(o.findings.len(), 2, "{:#?}", o.findings);
    let f = o
        .findings
        .iter()
        .find(|f| f.title == "write-after-write hazard")
        .expect("WAW between warps");
    assert_eq!(f.check, Check::Racecheck);
    assert_eq!(f.line, line_of(&text, "// SAME"));
    assert_eq!(tid(f, 0), [32, 0, 0]);
    assert_eq!(tid(f, 1), [31, 0, 0]);
    assert_eq!(f.address, Some(FIRST_BASE));
    let f = o
        .findings
        .iter()
        .find(|f| f.title == "write-after-write hazard within one instruction")
        .expect("WAW inside one instruction");
    assert_eq!(f.line, line_of(&text, "// SAME"));
    assert_eq!((tid(f, 0), tid(f, 1)), ([1, 0, 0], [0, 0, 0]));
    assert_eq!(f.address, Some(FIRST_BASE));
    let clean = run(&global_race_kernel(false), 64, 64);
    assert!(clean.findings.is_empty(), "{:#?}", clean.findings);
}

/// Lanes 0..16 set %r2; all lanes read it. `fixed` sets it in the other lanes too.
fn uninit_reg_kernel(fixed: bool) -> String {
    let other = if fixed { "@!%p1 mov.u32 %r2, 0;" } else { "" };
    format!(
        "{HEAD}.visible .entry k(.param .u64 out)
{{
    .reg .pred %p<2>;
    .reg .b32 %r<4>;
    .reg .b64 %rd<4>;
    mov.u32 %r1, %tid.x;
    setp.lt.u32 %p1, %r1, 16;
    @%p1 mov.u32 %r2, 7;
    {other}
    add.u32 %r3, %r2, 1; // USE
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
fn initcheck_reports_a_register_read_before_any_write() {
    let text = uninit_reg_kernel(false);
    let o = run(&text, 32, 32);
    o.result.expect("runs");
    assert_eq!(o.findings.len(), 1, "{:#?}", o.findings);
    let f = &o.findings[0];
    assert_eq!(
        (f.check, f.title.as_str()),
        (Check::Initcheck, "read of an uninitialised register")
    );
    assert_eq!(f.line, line_of(&text, "// USE"));
    // Lanes 16..32 never wrote %r2; the first of them is reported.
    assert_eq!(tid(f, 0), [16, 0, 0]);
    assert!(
        f.detail.contains("%r2") && f.detail.contains("16 lanes"),
        "{}",
        f.detail
    );
    let clean = run(&uninit_reg_kernel(true), 32, 32);
    assert!(clean.findings.is_empty(), "{:#?}", clean.findings);
}

/// Thread t reads s[t] (and l[0] of its .local array); `fixed` writes both first.
fn uninit_mem_kernel(fixed: bool) -> String {
    let init = if fixed {
        "st.shared.u32 [%r3], %r1;\n    st.local.u32 [l], %r1;"
    } else {
        ""
    };
    format!(
        "{HEAD}.visible .entry k(.param .u64 out)
{{
    .reg .b32 %r<8>;
    .reg .b64 %rd<4>;
    .shared .align 4 .u32 s[64];
    .local .align 4 .u32 l[4];
    mov.u32 %r1, %tid.x;
    mov.u32 %r6, s;
    shl.b32 %r2, %r1, 2;
    add.u32 %r3, %r6, %r2;
    {init}
    ld.shared.u32 %r4, [%r3]; // SHARED
    ld.local.u32 %r5, [l]; // LOCAL
    add.u32 %r4, %r4, %r5;
    ld.param.u64 %rd1, [out];
    mul.wide.u32 %rd2, %r1, 4;
    add.u64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r4;
    ret;
}}
"
    )
}

#[test]
fn initcheck_reports_never_written_shared_and_local_bytes() {
    let text = uninit_mem_kernel(false);
    let o = run(&text, 32, 32);
    o.result.expect("runs");
    assert_eq!(o.findings.len(), 2, "{:#?}", o.findings);
    let shared = &o.findings[0];
    assert_eq!(
        (shared.check, shared.title.as_str()),
        (Check::Initcheck, "read of uninitialised shared memory")
    );
    assert_eq!(shared.line, line_of(&text, "// SHARED"));
    assert_eq!(tid(shared, 0), [0, 0, 0]);
    assert_eq!(shared.address, Some(0));
    // 32 threads x 4 bytes.
    assert_eq!(shared.occurrences, 128);
    let local = &o.findings[1];
    assert_eq!(local.title, "read of uninitialised local memory");
    assert_eq!(local.line, line_of(&text, "// LOCAL"));
    assert_eq!(tid(local, 0), [0, 0, 0]);
    assert_eq!(local.occurrences, 32);
    let clean = run(&uninit_mem_kernel(true), 32, 32);
    assert!(clean.findings.is_empty(), "{:#?}", clean.findings);
    assert_eq!(clean.out, (0..32).map(|t| 2 * t).collect::<Vec<u32>>());
}

/// sm_60: lanes 16..32 execute the first bar.sync without lanes 0..16 (which branch past
/// it); `fixed` has every lane execute one barrier together.
fn warp_barrier_kernel(fixed: bool) -> String {
    let branch = if fixed {
        ""
    } else {
        "@%p1 bra SKIP; // BRANCH"
    };
    format!(
        "{HEAD}.visible .entry k(.param .u64 out)
{{
    .reg .pred %p<2>;
    .reg .b32 %r<4>;
    mov.u32 %r1, %tid.x;
    setp.lt.u32 %p1, %r1, 16;
    {branch}
    bar.sync 0; // FIRST
SKIP:
    ret;
}}
"
    )
}

#[test]
fn synccheck_reports_a_barrier_reached_by_part_of_a_warp_before_sm70() {
    let text = warp_barrier_kernel(false);
    let o = run(&text, 32, 1);
    o.result.expect("runs");
    assert_eq!(o.findings.len(), 1, "{:#?}", o.findings);
    let f = &o.findings[0];
    assert_eq!(
        (f.check, f.title.as_str()),
        (Check::Synccheck, "barrier divergence inside a warp")
    );
    assert_eq!(f.line, line_of(&text, "// FIRST"));
    assert_eq!(tid(f, 0), [16, 0, 0]);
    assert_eq!(tid(f, 1), [0, 0, 0]);
    assert_eq!(f.threads[1].line, line_of(&text, "ret;"));
    let clean = run(&warp_barrier_kernel(true), 32, 1);
    assert!(clean.findings.is_empty(), "{:#?}", clean.findings);
}

/// Warp 0 waits at one bar.sync, warp 1 at another (`fixed`: both at the same one).
fn cta_barrier_kernel(fixed: bool) -> String {
    let second = if fixed {
        "bar.sync 0; // B"
    } else {
        "@%p1 bra A;\n    bar.sync 0; // B\n    bra.uni DONE;\nA:\n    bar.sync 0; // A"
    };
    format!(
        "{HEAD}.visible .entry k(.param .u64 out)
{{
    .reg .pred %p<2>;
    .reg .b32 %r<4>;
    mov.u32 %r1, %tid.x;
    setp.lt.u32 %p1, %r1, 32;
    {second}
DONE:
    ret;
}}
"
    )
}

#[test]
fn synccheck_reports_warps_waiting_for_one_barrier_at_different_places() {
    let text = cta_barrier_kernel(false);
    let o = run(&text, 64, 1);
    o.result.expect("runs");
    assert_eq!(o.findings.len(), 1, "{:#?}", o.findings);
    let f = &o.findings[0];
    assert_eq!(
        (f.check, f.title.as_str()),
        (Check::Synccheck, "divergent barrier")
    );
    // Warp 0 (threads 0..32) arrives first at line A; warp 1 then at line B.
    assert_eq!(f.line, line_of(&text, "// B"));
    assert_eq!(tid(f, 0), [32, 0, 0]);
    assert_eq!(tid(f, 1), [0, 0, 0]);
    assert_eq!(f.threads[1].line, line_of(&text, "// A"));
    let clean = run(&cta_barrier_kernel(true), 64, 1);
    assert!(clean.findings.is_empty(), "{:#?}", clean.findings);
}

/// sm_60 `vote.any` (no .sync) executed by lanes 0..8 only (`fixed`: by the whole warp).
fn vote_kernel(fixed: bool) -> String {
    let branch = if fixed { "" } else { "@!%p1 bra END;" };
    format!(
        "{HEAD}.visible .entry k(.param .u64 out)
{{
    .reg .pred %p<4>;
    .reg .b32 %r<4>;
    mov.u32 %r1, %tid.x;
    setp.lt.u32 %p1, %r1, 8;
    {branch}
    vote.any.pred %p2, %p1; // VOTE
END:
    ret;
}}
"
    )
}

#[test]
fn synccheck_reports_a_collective_of_a_diverged_warp_before_sm70() {
    let text = vote_kernel(false);
    let o = run(&text, 32, 1);
    o.result.expect("runs");
    assert_eq!(o.findings.len(), 1, "{:#?}", o.findings);
    let f = &o.findings[0];
    assert_eq!(
        (f.check, f.title.as_str()),
        (Check::Synccheck, "divergent warp collective (vote)")
    );
    assert_eq!(f.line, line_of(&text, "// VOTE"));
    assert_eq!(tid(f, 0), [0, 0, 0]);
    assert_eq!(tid(f, 1), [8, 0, 0]);
    let clean = run(&vote_kernel(true), 32, 1);
    assert!(clean.findings.is_empty(), "{:#?}", clean.findings);
}

/// Thread t writes out[t + shift] of a 64-element buffer.
fn oob_kernel(shift: u32) -> String {
    format!(
        "{HEAD}.visible .entry k(.param .u64 out)
{{
    .reg .b32 %r<4>;
    .reg .b64 %rd<4>;
    mov.u32 %r1, %tid.x;
    add.u32 %r2, %r1, {shift};
    ld.param.u64 %rd1, [out];
    mul.wide.u32 %rd2, %r2, 4;
    add.u64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r1; // STORE
    ret;
}}
"
    )
}

#[test]
fn memcheck_reports_the_nearest_allocation_and_the_distance_past_its_end() {
    let text = oob_kernel(3);
    let o = run(&text, 64, 64);
    // The executor still faults on the first bad lane; the report comes with it.
    assert!(
        matches!(o.result, Err(ExecError::Fault(_))),
        "{:?}",
        o.result.err()
    );
    assert_eq!(o.findings.len(), 1, "{:#?}", o.findings);
    let f = &o.findings[0];
    assert_eq!(
        (f.check, f.title.as_str()),
        (Check::Memcheck, "invalid .global write of size 4")
    );
    assert_eq!(f.line, line_of(&text, "// STORE"));
    // Thread 61 writes out[64], the first word past the 256-byte buffer; threads 62 and 63
    // write 4 and 8 bytes further.
    assert_eq!(tid(f, 0), [61, 0, 0]);
    assert_eq!(f.address, Some(FIRST_BASE + 256));
    assert_eq!(f.occurrences, 3);
    assert!(
        f.detail
            .contains("0 bytes after the end of the nearest allocation (256 bytes at 0x10000)"),
        "{}",
        f.detail
    );
    let clean = run(&oob_kernel(0), 64, 64);
    clean.result.expect("in bounds");
    assert!(clean.findings.is_empty(), "{:#?}", clean.findings);
}

#[test]
fn the_suites_barrier_reductions_are_clean_and_unchanged() {
    // tests/kernels/reduce_shared.ptx's tree reduction (bar.sync between every step) over 2 CTAs of
    // 256 threads: no finding, and the sums a plain Rust loop computes.
    let path = format!(
        "{}/../../tests/kernels/reduce_shared.ptx",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).expect("reduce_shared.ptx");
    let src = diag::SourceFile::new("reduce_shared.ptx", text.as_str());
    let (m, _) = check::check_source(&src);
    let mut dev = Device::new();
    let module = dev.load(&m.expect("checks"), &src).expect("loads");
    let n = 1000u32;
    let input: Vec<u32> = (0..1024u32)
        .map(|i| i.wrapping_mul(2_654_435_761))
        .collect();
    let bytes: Vec<u8> = input.iter().flat_map(|x| x.to_le_bytes()).collect();
    let inp = dev.alloc(4096).expect("alloc");
    dev.write(inp, &bytes).expect("write");
    let out = dev.alloc(8).expect("alloc");
    let san = Sanitizer::new();
    let cfg = LaunchConfig {
        grid: [2, 1, 1],
        block: [256, 1, 1],
        ..LaunchConfig::default()
    };
    let opts = RunOptions {
        sanitize: Some(&san),
        ..RunOptions::default()
    };
    dev.launch(
        &module,
        "reduce_sum",
        &cfg,
        &[Arg::ptr(inp), Arg::ptr(out), Arg::u32(n)],
        &opts,
    )
    .expect("runs");
    assert!(san.findings().is_empty(), "{:#?}", san.findings());
    let got = dev.read(out, 8).expect("read");
    for b in 0..2usize {
        let want = input[b * 512..(b + 1) * 512]
            .iter()
            .enumerate()
            .filter(|(i, _)| ((b * 512 + i) as u32) < n)
            .fold(0u32, |a, (_, &x)| a.wrapping_add(x));
        let g = u32::from_le_bytes(got[4 * b..4 * b + 4].try_into().unwrap());
        assert_eq!(g, want, "CTA {b}");
    }
}
