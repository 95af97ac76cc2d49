//! Operands folded into `add`s (src/fold.rs) and values moved into R2:R3 (src/compact.rs):
//! parameters as `c [0x0] [0x20+]` operands (64-bit and 32-bit, either source position), a
//! shared variable's address as the window offset, and `mul.wide.u32/.s32` by a power of two
//! plus a 64-bit add as `SHR` + `ISCADD.CC` + `IADD.X`, and shifts of zero extensions (the
//! extension dropped when only shifts read it). Every row runs over integer edges on
//! both executors, is checked against 64-bit arithmetic written here, and the listing must
//! show the folded forms (so the test fails if a fold silently stops happening).

mod common;
use common::*;
use exec::{ElemType, ParamSpec};

const P64: u64 = 0xffff_fff0_8000_0004; // carries out of the low word for most products
const P64B: u64 = 0x0000_0001_ffff_fffc;
const P32: u32 = 0x8000_0001;

fn value_u64(v: u64) -> ParamSpec {
    ParamSpec::Value {
        ty: ElemType::U64,
        bytes: v.to_le_bytes().to_vec(),
    }
}

const KERNEL: &str = r#"
.version 7.0
.target sm_20
.address_size 64
.visible .entry fold(.param .u64 in, .param .u64 out, .param .u64 p, .param .u64 q, .param .u32 w, .param .u64 r)
{
	.reg .b32 %r<12>;
	.reg .b64 %rd<40>;
	.shared .align 4 .b8 smem[1024];
	ld.param.u64 %rd1, [in];
	ld.param.u64 %rd2, [out];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd3, %r1, 4;
	add.s64 %rd4, %rd1, %rd3;
	ld.global.u32 %r2, [%rd4];
	mul.wide.u32 %rd5, %r1, 72;
	add.s64 %rd6, %rd2, %rd5;
	// 1: unsigned by 4, the parameter second
	ld.param.u64 %rd7, [p];
	mul.wide.u32 %rd8, %r2, 4;
	add.s64 %rd9, %rd7, %rd8;
	st.global.u64 [%rd6], %rd9;
	// 2: signed by 2^30, the parameter first
	ld.param.u64 %rd10, [q];
	mul.wide.s32 %rd11, %r2, 1073741824;
	add.s64 %rd12, %rd11, %rd10;
	st.global.u64 [%rd6+8], %rd12;
	// 3: signed by 2, an immediate addend
	mul.wide.s32 %rd13, %r2, 2;
	add.s64 %rd14, %rd13, 9223372036854775807;
	st.global.u64 [%rd6+16], %rd14;
	// 4: a 32-bit parameter in a 32-bit add
	ld.param.u32 %r3, [w];
	add.u32 %r4, %r3, %r2;
	st.global.u32 [%rd6+24], %r4;
	// 5: a shared address plus a scaled index, through shared memory
	mov.u64 %rd15, smem;
	mul.wide.u32 %rd16, %r1, 8;
	add.s64 %rd17, %rd15, %rd16;
	st.shared.u32 [%rd17+4], %r2;
	bar.sync 0;
	xor.b32 %r5, %r1, 1;
	mul.wide.u32 %rd18, %r5, 8;
	add.s64 %rd19, %rd15, %rd18;
	ld.shared.u32 %r6, [%rd19+4];
	st.global.u32 [%rd6+28], %r6;
	// 6: a parameter register read by a subtraction too: stays loaded
	ld.param.u64 %rd20, [r];
	add.s64 %rd21, %rd20, %rd3;
	sub.s64 %rd22, %rd21, %rd20;
	st.global.u64 [%rd6+32], %rd22;
	st.global.u64 [%rd6+40], %rd21;
	// 7: shifts of a zero-extended value (the two-instruction form) and of a sign-extended one
	cvt.u64.u32 %rd30, %r2;
	shl.b64 %rd31, %rd30, 3;
	st.global.u64 [%rd6+48], %rd31;
	cvt.s64.s32 %rd32, %r2;
	shl.b64 %rd33, %rd32, 31;
	st.global.u64 [%rd6+56], %rd33;
	// 8: a zero extension read by a shift and an add keeps its registers
	cvt.u64.u32 %rd34, %r2;
	shl.b64 %rd35, %rd34, 5;
	add.s64 %rd36, %rd35, %rd34;
	st.global.u64 [%rd6+64], %rd36;
	ret;
}
"#;

#[test]
fn folded_operands_agree_with_both_executors_and_with_64_bit_arithmetic() {
    let a = int_edges(64, 0x5eed_f01d);
    let s = spec(
        "fold",
        1,
        64,
        vec![
            u32s(&a),
            ParamSpec::Buffer {
                ty: ElemType::U32,
                bytes: vec![0; 64 * 72],
            },
            value_u64(P64),
            value_u64(P64B),
            value_u32(P32),
            value_u64(P64B),
        ],
    );
    let out = run_both("fold", KERNEL, &s);
    let got = &out[1];
    let u64_at = |o: usize| u64::from_le_bytes(got[o..o + 8].try_into().unwrap());
    let u32_at = |o: usize| u32::from_le_bytes(got[o..o + 4].try_into().unwrap());
    for (t, &x) in a.iter().enumerate() {
        let row = 72 * t;
        let sx = i64::from(x as i32);
        assert_eq!(
            u64_at(row),
            P64.wrapping_add(u64::from(x) * 4),
            "row 1, a = {x:#x}"
        );
        assert_eq!(
            u64_at(row + 8),
            (sx.wrapping_mul(1 << 30) as u64).wrapping_add(P64B),
            "row 2, a = {x:#x}"
        );
        assert_eq!(
            u64_at(row + 16),
            ((sx * 2) as u64).wrapping_add(i64::MAX as u64),
            "row 3, a = {x:#x}"
        );
        assert_eq!(u32_at(row + 24), P32.wrapping_add(x), "row 4, a = {x:#x}");
        assert_eq!(u32_at(row + 28), a[t ^ 1], "row 5, thread {t}");
        assert_eq!(u64_at(row + 32), 4 * t as u64, "row 6, thread {t}");
        assert_eq!(u64_at(row + 40), P64B + 4 * t as u64, "row 6, thread {t}");
        assert_eq!(u64_at(row + 48), u64::from(x) << 3, "row 7, a = {x:#x}");
        assert_eq!(u64_at(row + 56), (sx as u64) << 31, "row 7, a = {x:#x}");
        assert_eq!(u64_at(row + 64), u64::from(x) * 33, "row 8, a = {x:#x}");
    }

    let (_, _, cubin) = compile("fold", KERNEL);
    let listing: Vec<String> = disassembly(&cubin.kernels[0]);
    let has = |p: &dyn Fn(&str) -> bool| listing.iter().any(|l| p(l));
    let text = listing.join("\n");
    assert!(
        has(&|l| l.starts_with("ISCADD") && l.contains(".CC") && l.contains("c [0x0] [0x30]")),
        "row 1 as ISCADD.CC with the parameter from the bank:\n{text}"
    );
    assert!(
        has(&|l| l.starts_with("IADD.X") && l.contains("c [0x0] [0x3c]")),
        "row 2's high word from the bank:\n{text}"
    );
    assert!(
        has(&|l| l.starts_with("IADD ") && l.contains("c [0x0] [0x40]")),
        "row 4 from the bank:\n{text}"
    );
    assert!(
        !listing
            .iter()
            .any(|l| l.starts_with("MOV R") && l.contains("c [0x0] [0x38]")),
        "parameter q is never loaded:\n{text}"
    );
    assert!(
        has(&|l| l.starts_with("SHR.U32") && l.ends_with(", 0x1d;")),
        "row 7's zero-extended shift takes the high word from the low one:\n{text}"
    );
    assert!(
        !has(&|l| l.starts_with("ISCADD") && l.contains(", RZ,")),
        "row 5's scaled index with a zero shared base is two shifts:\n{text}"
    );
    assert!(
        listing
            .iter()
            .any(|l| l.contains("c [0x0] [0x48]") && l.starts_with("MOV ")),
        "row 6's parameter, also read by a subtraction, is loaded:\n{text}"
    );
}

/// A kernel with no sequence that needs the scratch pair keeps its values from R2 up.
#[test]
fn values_start_at_r2_without_scratch_pair_sequences() {
    let text = r#"
.version 7.0
.target sm_20
.address_size 64
.visible .entry copy(.param .u64 in, .param .u64 out)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [in];
	ld.param.u64 %rd2, [out];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd3, %r1, 4;
	add.s64 %rd4, %rd1, %rd3;
	ld.global.u32 %r2, [%rd4];
	add.u32 %r3, %r2, %r1;
	mul.wide.u32 %rd5, %r1, 4;
	add.s64 %rd6, %rd2, %rd5;
	st.global.u32 [%rd6], %r3;
	ret;
}
"#;
    let a = int_edges(32, 7);
    let s = spec("copy", 1, 32, vec![u32s(&a), zeros32(32)]);
    let out = run_both("copy", text, &s);
    let want: Vec<u32> = a
        .iter()
        .enumerate()
        .map(|(t, &x)| x.wrapping_add(t as u32))
        .collect();
    assert_eq!(words(&out[1]), want);
    let (_, _, cubin) = compile("copy", text);
    let listing: Vec<String> = disassembly(&cubin.kernels[0]);
    assert!(
        listing.iter().any(|l| l.starts_with("S2R R2,")),
        "the first value lives in R2:\n{}",
        listing.join("\n")
    );
}
