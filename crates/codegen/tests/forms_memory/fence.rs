//! `fence.sc`/`fence.acq_rel` (round s25; `fence.scope` is `.acq_rel` by default) are `MEMBAR`
//! at the scope's level (`.cta` CTA,
//! `.gpu`/`.cluster` GL, `.sys` SYS; `membar` is `fence.sc`, PTX ISA §9.7.13.4). Neither
//! executor reorders memory, so the choice is checked on the listing, in program order, and
//! the kernel's values on both executors against the stores it makes; `fence.proxy` stays
//! refused.

use crate::common::*;

const KERNEL: &str = r#"
.version 8.6
.target sm_90
.address_size 64
.entry fe (.param .u64 out)
{
	.reg .u32 %r<4>;
	.reg .u64 %rd<4>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd2, %r1, 4;
	add.u64 %rd1, %rd1, %rd2;
	st.global.u32 [%rd1], %r1;
	fence.sc.cta;
	ld.global.u32 %r2, [%rd1];
	fence.acq_rel.gpu;
	add.u32 %r2, %r2, 1;
	fence.cluster;
	st.global.u32 [%rd1], %r2;
	fence.sc.sys;
	ret;
}
"#;

#[test]
fn fences_are_membars_at_their_scope() {
    let (_, _, cubin) = compile("s25_fence", KERNEL);
    let listing = disassembly(&cubin.kernels[0]);
    let levels: Vec<&str> = listing
        .iter()
        .filter_map(|l| l.split_whitespace().find(|w| w.starts_with("MEMBAR")))
        .collect();
    assert_eq!(
        levels,
        ["MEMBAR.CTA;", "MEMBAR.GL;", "MEMBAR.GL;", "MEMBAR.SYS;"],
        "{listing:#?}"
    );
    let n = 32u32;
    let out = run_both(
        "s25_fence",
        KERNEL,
        &spec("fe", 1, n, vec![zeros32(n as usize)]),
    );
    assert_eq!(words(&out[0]), (1..=n).collect::<Vec<u32>>());
}

#[test]
fn a_proxy_fence_is_refused_saying_why() {
    let text = KERNEL.replace("fence.sc.sys;", "fence.proxy.async;");
    let file = diag::SourceFile::new("k.ptx", text);
    let (m, d) = check::check_source(&file);
    assert!(!diag::has_errors(&d), "{}", diag::render(&file, &d));
    let errs = codegen::compile_module(&m.expect("a module"), &file).unwrap_err();
    let shown = diag::render(&file, &errs);
    assert!(
        shown.contains("fence.proxy orders other memory proxies"),
        "{shown}"
    );
}
