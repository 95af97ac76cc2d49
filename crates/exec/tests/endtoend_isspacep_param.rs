//! Generic addressing of kernel parameters: `cvta.param` gives a generic address in the
//! parameter window, a generic `ld` through it reads the parameter, `isspacep.param` is true for
//! it and false for global and shared addresses, and a generic store to it faults (read-only).

mod endtoend_common;
use endtoend_common::*;
use exec::program::Space;
use exec::{Arg, ExecError, FaultKind};

const KERNEL: &str = r#"
.version 8.3
.target sm_90
.address_size 64

.visible .entry q(
	.param .u64 pout,
	.param .u32 pval
)
{
	.reg .pred 	%p<4>;
	.reg .b32 	%r<12>;
	.reg .b64 	%rd<6>;
	.shared .u32 s;

	ld.param.u64 	%rd1, [pout];
	isspacep.param 	%p1, %rd1;
	isspacep.param::entry 	%p2, %rd1;
	isspacep.global 	%p3, %rd1;
	selp.u32 	%r1, 1, 0, %p1;
	selp.u32 	%r2, 1, 0, %p2;
	selp.u32 	%r3, 1, 0, %p3;
	mov.u64 	%rd2, s;
	cvta.shared.u64 	%rd2, %rd2;
	isspacep.param 	%p1, %rd2;
	selp.u32 	%r4, 1, 0, %p1;
	st.global.v4.u32 	[%rd1], {%r1, %r2, %r3, %r4};
	cvta.param.u64 	%rd3, pval;
	isspacep.param 	%p1, %rd3;
	isspacep.global 	%p2, %rd3;
	selp.u32 	%r5, 1, 0, %p1;
	selp.u32 	%r6, 1, 0, %p2;
	ld.u32 	%r7, [%rd3];
	cvta.to.param.u64 	%rd4, %rd3;
	ld.param.u32 	%r8, [%rd4];
	st.global.v4.u32 	[%rd1+16], {%r5, %r6, %r7, %r8};
	st.u32 	[%rd3], %r8;  // STORE
	ret;
}
"#;

#[test]
fn generic_addresses_of_kernel_parameters() {
    let (mut dev, m) = load_text("isspacep_param.ptx", KERNEL);
    let out = dev.alloc(32).unwrap();
    let err = dev
        .launch(
            &m,
            "q",
            &cfg([1, 1, 1], [1, 1, 1]),
            &[Arg::ptr(out), Arg::u32(0xC0FFEE)],
            &opts(1),
        )
        .expect_err("the final generic store to a parameter must fault");
    // isspacep.{param, param::entry, global} of a global address; .param of a shared one;
    // .param and .global of the cvta.param address; the parameter read generically and back
    // through cvta.to.param.
    assert_eq!(
        download::<u32>(&dev, out, 8),
        vec![0, 0, 1, 0, 1, 0, 0xC0FFEE, 0xC0FFEE]
    );
    let ExecError::Fault(f) = err else {
        panic!("expected a fault: {err}")
    };
    assert!(
        matches!(
            f.kind,
            FaultKind::ReadOnly {
                space: Space::Param,
                ..
            }
        ),
        "{:?}",
        f.kind
    );
    assert_eq!(f.line, line_of(KERNEL, "// STORE"));
}
