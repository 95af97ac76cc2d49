//! End-to-end: the anonymous entry point of ptx-isa-1.1 §9.1 (instructions outside any
//! function, `tests/kernels/anonymous_entry_ptx11.ptx`) runs as the kernel
//! `check::ANONYMOUS_ENTRY`; a second launch of a named entry on the same device reads the
//! global it wrote.

mod endtoend_common;
use endtoend_common::*;
use exec::Arg;

#[test]
fn anonymous_entry_runs_and_falls_into_the_appended_exit() {
    for threads in THREAD_COUNTS {
        let (mut dev, m) = load_kernel("anonymous_entry_ptx11.ptx");
        let one_cta = cfg([1, 1, 1], [64, 1, 1]);
        dev.launch(&m, check::ANONYMOUS_ENTRY, &one_cta, &[], &opts(threads))
            .unwrap_or_else(|e| panic!("anonymous entry: {e}"));
        let out = zeros::<u32>(&mut dev, 64);
        dev.launch(&m, "dump", &one_cta, &[Arg::ptr(out)], &opts(threads))
            .unwrap_or_else(|e| panic!("dump: {e}"));
        let got: Vec<u32> = download(&dev, out, 64);
        let want: Vec<u32> = (0..64u32)
            .map(|t| if t < 3 { 0 } else { t * t + 11 })
            .collect();
        assert_eq!(got, want, "{threads} worker threads");
    }
}
