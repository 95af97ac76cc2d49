//! Issue 16's front-end constructs run as ptxas means them: `-1` as a predicate immediate is
//! true, a one-register brace list is that register, a label defined in two sibling blocks
//! names the one in the branch's own block, and a 64-bit immediate on a 32-bit instruction is
//! truncated to its low 32 bits. Expected values are worked out in the comments from those
//! rules, not taken from a run.

mod common;
use common::*;
use exec::Arg;

#[test]
fn compiler_constructs_of_issue_16_run_as_ptxas_means_them() {
    let text = std::fs::read_to_string(format!(
        "{}/../../tests/corpus/issue16_constructs.ptx",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let (mut dev, m) = load("issue16_constructs.ptx", &text);
    let p = upload_u32(&mut dev, &[41, 0]);
    launch(
        &dev,
        &m,
        "issue16_constructs",
        &cfg([1, 1, 1], [1, 1, 1]),
        &[Arg::ptr(p)],
    )
    .unwrap();
    // out[0]: `ld { %r1 }` read 41, plus one, stored through `st [..], { %r1 }`.
    // out[1]: the first block's loop counts 1, 2, 3 and leaves at 3 (3 < 3 fails); had its
    // `bra waitLoop` gone to the second block's label, the counter would step by 10. The
    // second block's loop then adds 10 until the counter is no longer below 30: 13, 23, 33.
    // The store is guarded by `%p1`, set from `-1`: it must happen.
    assert_eq!(read_u32(&dev, p, 2), vec![42, 33]);
}

#[test]
fn a_64_bit_immediate_on_a_32_bit_add_is_truncated() {
    let text = r#"
.version 7.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 p)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<2>;
	ld.param.u64 %rd1, [p];
	add.cc.u32 %r1, 0xffffffffffffffffU, 1;
	addc.u32 %r2, 0, 0;
	add.u32 %r3, %r1, 0x100000005;
	st.global.v2.u32 [%rd1], {%r1, %r2};
	st.global.u32 [%rd1+8], %r3;
	ret;
}
"#;
    let (mut dev, m) = load("truncate.ptx", text);
    let p = upload_u32(&mut dev, &[7, 7, 7]);
    launch(&dev, &m, "k", &cfg([1, 1, 1], [1, 1, 1]), &[Arg::ptr(p)]).unwrap();
    // 0xffffffffffffffff truncated to 32 bits is 0xffffffff; + 1 = 0 with a carry out of 1.
    // 0x100000005 truncated is 5; 0 + 5 = 5.
    assert_eq!(read_u32(&dev, p, 3), vec![0, 1, 5]);
}

#[test]
fn register_plus_immediate_sources_are_the_sum() {
    // ptxas accepts `reg + imm` / `reg - imm` / `imm + reg` where an instruction reads a value
    // and means the sum, wrapping at the operand's width.
    let text = r#"
.version 7.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 p)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [p];
	ld.global.u64 %rd2, [%rd1];
	ld.global.u32 %r1, [%rd1+8];
	st.global.u64 [%rd1+16], %rd2 + 5;
	st.global.u32 [%rd1+24], %r1 - 3;
	add.u32 %r2, 7 + %r1, 1;
	st.global.u32 [%rd1+28], %r2;
	ret;
}
"#;
    let (mut dev, m) = load("reg_plus_imm.ptx", text);
    // [0..8) = 0xffff_ffff_ffff_fffe, [8..12) = 1, the rest 0.
    let p = upload_u32(&mut dev, &[0xffff_fffe, 0xffff_ffff, 1, 0, 0, 0, 0, 0]);
    launch(&dev, &m, "k", &cfg([1, 1, 1], [1, 1, 1]), &[Arg::ptr(p)]).unwrap();
    let got = read_u32(&dev, p, 8);
    // 0xffff_ffff_ffff_fffe + 5 wraps to 3; 1 - 3 wraps to 0xffff_fffe; 7 + 1 + 1 = 9.
    assert_eq!(&got[4..8], &[3, 0, 0xffff_fffe, 9]);
}
