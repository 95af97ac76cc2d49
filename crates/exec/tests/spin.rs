//! Spin-loop hang detection (`spin.rs`): a proven endless spin faults at once with
//! `FaultKind::Spin`; spins another actor could end, and long loops that make progress, are
//! left to run (and to the step budget).

use exec::{Arg, Device, ExecError, FaultKind, LaunchConfig, RunOptions};

const HEAD: &str = ".version 6.0\n.target sm_60\n.address_size 64\n";

fn launch(body: &str, grid: u32, block: u32, max_steps: u64) -> Result<Vec<u32>, ExecError> {
    let text = format!(
        "{HEAD}.visible .entry k(.param .u64 out)\n{{\n    .reg .pred %p<4>;\n    .reg .b32 %r<8>;\n    .reg .b64 %rd<4>;\n    .shared .align 4 .u32 flag;\n{body}\n}}\n"
    );
    let src = diag::SourceFile::new("spin.ptx", text.as_str());
    let (m, diags) = check::check_source(&src);
    assert!(
        !diags.iter().any(|d| d.is_error()),
        "{}",
        diag::render(&src, &diags)
    );
    let mut dev = Device::new();
    let module = dev.load(&m.unwrap(), &src).unwrap();
    let out = dev.alloc(64).unwrap();
    let cfg = LaunchConfig {
        grid: [grid, 1, 1],
        block: [block, 1, 1],
        ..LaunchConfig::default()
    };
    let opts = RunOptions {
        threads: 1,
        max_steps,
        ..RunOptions::default()
    };
    dev.launch(&module, "k", &cfg, &[Arg::ptr(out)], &opts)?;
    let b = dev.read(out, 64).unwrap();
    Ok(b.chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect())
}

fn line_of(body: &str, marker: &str) -> u32 {
    // The body starts on line 10 of the module (after HEAD, entry, brace, 3 .reg, .shared).
    body.lines().position(|l| l.contains(marker)).unwrap() as u32 + 10
}

/// Warp 0 waits for `flag` to become 1; warp 1 sets it only with `release`, else it waits at
/// a barrier warp 0 never reaches.
fn waiter(release: bool) -> String {
    let set = if release {
        "    mov.u32 %r2, 1;\n    st.volatile.shared.u32 [flag], %r2;"
    } else {
        "    bar.sync 0;"
    };
    format!(
        "    mov.u32 %r1, %tid.x;
    setp.ge.u32 %p1, %r1, 32;
    @%p1 bra OTHER;
SPIN:
    ld.volatile.shared.u32 %r3, [flag]; // HEAD
    setp.eq.u32 %p2, %r3, 0;
    @%p2 bra SPIN;
    bra.uni DONE;
OTHER:
{set}
DONE:
    ret;"
    )
}

#[test]
fn a_spin_that_nothing_can_end_faults_at_once() {
    let body = waiter(false);
    // A budget far beyond what detection needs (two quanta of 4096 instructions).
    let e = launch(&body, 1, 64, 1 << 40).unwrap_err();
    let ExecError::Fault(f) = e else {
        panic!("{e:?}")
    };
    assert_eq!(f.kind, FaultKind::Spin);
    assert_eq!(f.line, line_of(&body, "// HEAD"));
    assert_eq!(f.tid, [0, 0, 0]);
}

#[test]
fn a_spin_another_warp_ends_runs_to_completion() {
    launch(&waiter(true), 1, 64, 1 << 20).expect("warp 1 releases warp 0");
}

#[test]
fn a_spin_on_global_memory_in_a_multi_cta_grid_is_left_to_the_step_budget() {
    // Another CTA could store the flag, so nothing is proven.
    let body = "    ld.param.u64 %rd1, [out];
SPIN:
    ld.volatile.global.u32 %r3, [%rd1+60];
    setp.eq.u32 %p2, %r3, 0;
    @%p2 bra SPIN;
    ret;";
    let e = launch(body, 2, 32, 100_000).unwrap_err();
    let ExecError::Fault(f) = e else {
        panic!("{e:?}")
    };
    assert_eq!(f.kind, FaultKind::StepBudget { max_steps: 100_000 });
    // The same spin in a one-CTA grid is proven.
    let e = launch(body, 1, 32, 1 << 40).unwrap_err();
    let ExecError::Fault(f) = e else {
        panic!("{e:?}")
    };
    assert_eq!(f.kind, FaultKind::Spin);
}

#[test]
fn a_long_loop_that_makes_progress_is_not_a_spin() {
    // 100,000 iterations (300,000 instructions, many quanta) counting down to zero.
    let body = "    mov.u32 %r1, 100000;
    mov.u32 %r2, 0;
LOOP:
    add.u32 %r2, %r2, 3;
    sub.u32 %r1, %r1, 1;
    setp.ne.u32 %p1, %r1, 0;
    @%p1 bra LOOP;
    ld.param.u64 %rd1, [out];
    st.global.u32 [%rd1], %r2;
    ret;";
    let out = launch(body, 1, 32, 1 << 40).expect("terminates");
    assert_eq!(out[0], 300_000);
}
