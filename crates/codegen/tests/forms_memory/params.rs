//! Kernel parameters read through a register (round s25): `mov.u64 %rd, p` is the
//! parameter's offset in the parameter buffer (as the PTX executor gives it) and
//! `ld.param{,::entry,::func}` through it read the buffer there
//! (`LDC c[0x0][R+0x20+offset]`), sub-word loads extended by the type. One lane picks its
//! parameter by `tid`, so the address is not a constant. Both executors, against the values
//! passed, extended here.

use crate::common::*;
use exec::{ElemType, ParamSpec};

const KERNEL: &str = r#"
.version 8.3
.target sm_20
.address_size 64
.entry pr (.param .u64 out, .param .u8 a, .param .u32 b, .param .u64 c, .param .s16 e)
{
	.reg .u16 %h<2>;
	.reg .u32 %r<10>;
	.reg .u64 %rd<12>;
	.reg .pred %p;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd2, %r1, 32;
	add.u64 %rd1, %rd1, %rd2;
	mov.u64 %rd3, a;
	mov.u64 %rd4, b;
	mov.u64 %rd5, c;
	mov.u64 %rd6, e;
	and.b32 %r2, %r1, 1;
	setp.eq.u32 %p, %r2, 0;
	selp.b64 %rd7, %rd4, %rd5, %p;
	ld.param.u32 %r3, [%rd7];
	ld.param::entry.u8 %r4, [%rd3];
	ld.param.s16 %r5, [%rd6];
	ld.param::func.u64 %rd8, [%rd5];
	ld.param.v2.u32 {%r6, %r7}, [%rd5];
	ld.param.u16 %h1, [%rd5+6];
	cvt.u32.u16 %r8, %h1;
	ld.param.s8 %rd9, [%rd3];
	st.global.v4.u32 [%rd1], {%r3, %r4, %r5, %r8};
	st.global.v2.u32 [%rd1+16], {%r6, %r7};
	st.global.u64 [%rd1+24], %rd8;
	add.u64 %rd9, %rd9, %rd8;
	st.global.u64 [%rd1+24], %rd9;
	ret;
}
"#;

fn value(ty: ElemType, bytes: &[u8]) -> ParamSpec {
    ParamSpec::Value {
        ty,
        bytes: bytes.to_vec(),
    }
}

#[test]
fn parameters_read_through_registers_are_the_values_passed() {
    let (a, b, c, e) = (0xf0u8, 0x1234_5678u32, 0x1122_3344_5566_7788u64, -3i16);
    let n = 8u32;
    let s = spec(
        "pr",
        1,
        n,
        vec![
            zeros32(8 * n as usize),
            value(ElemType::U8, &[a]),
            value(ElemType::U32, &b.to_le_bytes()),
            value(ElemType::U64, &c.to_le_bytes()),
            value(ElemType::S16, &e.to_le_bytes()),
        ],
    );
    let out = run_both("s25_params", KERNEL, &s);
    let w = words(&out[0]);
    for t in 0..n as usize {
        let row = &w[8 * t..8 * t + 8];
        let picked = if t % 2 == 0 { b } else { c as u32 };
        let sum = (i64::from(a as i8) as u64).wrapping_add(c);
        let want = [
            picked,
            u32::from(a),
            i32::from(e) as u32,
            (c >> 48) as u32 & 0xffff,
            c as u32,
            (c >> 32) as u32,
            sum as u32,
            (sum >> 32) as u32,
        ];
        assert_eq!(row, want, "thread {t}");
    }
}

/// `st.param` in an entry through a register holding a kernel parameter's address, under
/// `@p` for the lanes `tid < reach` (the checker refuses a store naming the parameter:
/// ptx-isa-1.1 §5.1 Table 5, kernel parameters are read-only).
fn store_kernel(space: &str) -> String {
    let target = "[%rd2]";
    format!(
        ".version 8.3\n.target sm_20\n.address_size 64\n\
         .entry sp (.param .u64 out, .param .u32 b, .param .u32 reach)\n{{\n\
         \t.reg .u32 %r<4>;\n\t.reg .u64 %rd<4>;\n\t.reg .pred %p;\n\
         \tld.param.u64 %rd1, [out];\n\tld.param.u32 %r2, [reach];\n\
         \tmov.u32 %r1, %tid.x;\n\tmov.u64 %rd2, b;\n\
         \tsetp.lt.u32 %p, %r1, %r2;\n\t@%p st{space}.u32 {target}, %r1;\n\
         \tmul.wide.u32 %rd3, %r1, 4;\n\tadd.u64 %rd1, %rd1, %rd3;\n\
         \tld.param.u32 %r3, [b];\n\tst.global.u32 [%rd1], %r3;\n\tret;\n}}\n"
    )
}

#[test]
fn a_store_to_kernel_parameters_faults_on_both_executors() {
    for space in [".param", ".param::func"] {
        let text = store_kernel(space);
        let launch = |reach: u32| {
            spec(
                "sp",
                1,
                32,
                vec![zeros32(32), value_u32(0x600d), value_u32(reach)],
            )
        };
        // No lane stores: the parameter reads back as passed.
        let out = run_both("s25_param_store", &text, &launch(0));
        assert_eq!(words(&out[0]), vec![0x600d; 32]);
        let (m, file, cubin) = compile("s25_param_store", &text);
        let s = launch(3);
        let ptx = exec::run(&m, &file, &s, &exec::RunOptions::default());
        assert!(ptx.is_err(), "{space}: the PTX executor must fault");
        match fermi_exec::run_module(&cubin, &s, &fermi_exec::Options::default()) {
            Err(e) => assert!(format!("{e:?}").contains("Trap"), "{e:?}"),
            Ok(_) => panic!("{space}: the Fermi executor must trap"),
        }
    }
}
