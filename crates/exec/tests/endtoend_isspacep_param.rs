//! `isspacep.param` / `isspacep.param::entry`: no generic address points into the parameter
//! space (generic addressing of `.param` — `cvta.param` — is refused at load), so the answer is
//! false for addresses of every other space, while `isspacep.global` still holds for them.

mod endtoend_common;
use endtoend_common::*;
use exec::Arg;

const KERNEL: &str = r#"
.version 8.3
.target sm_90
.address_size 64

.visible .entry q(
	.param .u64 pout
)
{
	.reg .pred 	%p<4>;
	.reg .b32 	%r<8>;
	.reg .b64 	%rd<4>;
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
	ret;
}
"#;

#[test]
fn isspacep_param_is_false_for_global_and_shared_addresses() {
    let (mut dev, m) = load_text("isspacep_param.ptx", KERNEL);
    let out = dev.alloc(16).unwrap();
    dev.launch(
        &m,
        "q",
        &cfg([1, 1, 1], [1, 1, 1]),
        &[Arg::ptr(out)],
        &opts(1),
    )
    .unwrap();
    assert_eq!(download::<u32>(&dev, out, 4), vec![0, 0, 1, 0]);
}

#[test]
fn cvta_param_is_refused_at_load() {
    let text = KERNEL.replace("mov.u64 \t%rd2, s;", "cvta.param.u64 \t%rd2, pout;");
    let src = diag::SourceFile::new("cvta_param.ptx", text);
    let (m, diags) = check::check_source(&src);
    assert!(
        !diags.iter().any(|d| d.is_error()),
        "{}",
        diag::render(&src, &diags)
    );
    let err = exec::Device::new()
        .load(&m.unwrap(), &src)
        .expect_err("cvta.param has no generic window");
    assert!(err.message.contains("not supported"), "{}", err.message);
}
