//! Differential tests: PTX on the PTX executor against `ptxvm compile`'s code on the Fermi
//! executor, bit for bit, over edge values. For the integer kernel each result is also checked
//! against an independent Rust computation of the PTX semantics written here.

mod common;
use common::*;

const INT32: &str = r#"
.version 7.0
.target sm_20
.address_size 64
.visible .entry int32_ops(.param .u64 vals, .param .u64 out)
{
	.reg .pred %p<4>;
	.reg .b32 %r<12>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [vals];
	ld.param.u64 %rd2, [out];
	mov.u32 %r1, %ctaid.x;
	mov.u32 %r2, %ntid.x;
	mov.u32 %r3, %tid.x;
	mad.lo.s32 %r4, %r1, %r2, %r3;
	shr.u32 %r5, %r4, 5;
	and.b32 %r6, %r4, 31;
	mul.wide.u32 %rd3, %r5, 4;
	add.s64 %rd4, %rd1, %rd3;
	ld.global.u32 %r7, [%rd4];
	mul.wide.u32 %rd3, %r6, 4;
	add.s64 %rd4, %rd1, %rd3;
	ld.global.u32 %r8, [%rd4];
	mul.wide.u32 %rd5, %r4, 4;
	add.s64 %rd6, %rd2, %rd5;
	setp.gt.u32 %p1, %r7, %r8;
	setp.ne.s32 %p2, %r7, 0;
	add.s32 %r10, %r7, %r8;
	st.global.u32 [%rd6+0], %r10;
	sub.s32 %r10, %r7, %r8;
	st.global.u32 [%rd6+4096], %r10;
	mul.lo.s32 %r10, %r7, %r8;
	st.global.u32 [%rd6+8192], %r10;
	mul.hi.s32 %r10, %r7, %r8;
	st.global.u32 [%rd6+12288], %r10;
	mul.hi.u32 %r10, %r7, %r8;
	st.global.u32 [%rd6+16384], %r10;
	and.b32 %r10, %r7, %r8;
	st.global.u32 [%rd6+20480], %r10;
	or.b32 %r10, %r7, %r8;
	st.global.u32 [%rd6+24576], %r10;
	xor.b32 %r10, %r7, %r8;
	st.global.u32 [%rd6+28672], %r10;
	not.b32 %r10, %r7;
	st.global.u32 [%rd6+32768], %r10;
	shl.b32 %r10, %r7, %r8;
	st.global.u32 [%rd6+36864], %r10;
	shr.s32 %r10, %r7, %r8;
	st.global.u32 [%rd6+40960], %r10;
	shr.u32 %r10, %r7, %r8;
	st.global.u32 [%rd6+45056], %r10;
	min.s32 %r10, %r7, %r8;
	st.global.u32 [%rd6+49152], %r10;
	max.u32 %r10, %r7, %r8;
	st.global.u32 [%rd6+53248], %r10;
	min.u32 %r10, %r7, %r8;
	st.global.u32 [%rd6+57344], %r10;
	max.s32 %r10, %r7, %r8;
	st.global.u32 [%rd6+61440], %r10;
	mad.lo.s32 %r10, %r7, %r8, %r7;
	st.global.u32 [%rd6+65536], %r10;
	setp.lt.s32 %p1, %r7, %r8;
	selp.b32 %r10, %r7, %r8, %p1;
	st.global.u32 [%rd6+69632], %r10;
	setp.hi.u32 %p1, %r7, %r8;
	selp.u32 %r10, 1, 0, %p1;
	st.global.u32 [%rd6+73728], %r10;
	add.s32 %r10, %r7, 1000000;
	st.global.u32 [%rd6+77824], %r10;
	sub.s32 %r10, %r7, 5;
	st.global.u32 [%rd6+81920], %r10;
	shl.b32 %r10, %r7, 3;
	st.global.u32 [%rd6+86016], %r10;
	add.s32 %r10, %r7, -7;
	st.global.u32 [%rd6+90112], %r10;
	setp.ne.s32 %p2, %r7, 0;
	setp.ge.s32.and %p3, %r7, %r8, %p2;
	selp.b32 %r10, 11, 22, %p3;
	st.global.u32 [%rd6+94208], %r10;
	setp.le.u32.or %p3, %r7, %r8, %p2;
	selp.b32 %r10, 11, 22, %p3;
	st.global.u32 [%rd6+98304], %r10;
	mul.lo.u32 %r10, %r7, 74565;
	st.global.u32 [%rd6+102400], %r10;
	mov.u32 %r10, 0x12345678;
	@%p1 add.s32 %r10, %r7, %r8;
	st.global.u32 [%rd6+106496], %r10;
	setp.eq.u32 %p1, %r7, %r8;
	@!%p1 xor.b32 %r10, %r7, 0xfffff;
	@%p1 mov.u32 %r10, 99;
	st.global.u32 [%rd6+110592], %r10;
	ret;
}
"#;

/// The PTX semantics of each row of `INT32`, in order.
const INT32_EXPECT: &[fn(u32, u32) -> u32] = &[
    |a: u32, b: u32| -> u32 {
        let _ = b;
        a.wrapping_add(b)
    },
    |a: u32, b: u32| -> u32 {
        let _ = b;
        a.wrapping_sub(b)
    },
    |a: u32, b: u32| -> u32 {
        let _ = b;
        a.wrapping_mul(b)
    },
    |a: u32, b: u32| -> u32 {
        let _ = b;
        ((a as i32 as i64 * b as i32 as i64) >> 32) as u32
    },
    |a: u32, b: u32| -> u32 {
        let _ = b;
        ((a as u64 * b as u64) >> 32) as u32
    },
    |a: u32, b: u32| -> u32 {
        let _ = b;
        a & b
    },
    |a: u32, b: u32| -> u32 {
        let _ = b;
        a | b
    },
    |a: u32, b: u32| -> u32 {
        let _ = b;
        a ^ b
    },
    |a: u32, b: u32| -> u32 {
        let _ = b;
        !a
    },
    |a: u32, b: u32| -> u32 {
        let _ = b;
        if b > 31 {
            0
        } else {
            a << b
        }
    },
    |a: u32, b: u32| -> u32 {
        let _ = b;
        ((a as i32) >> b.min(31)) as u32
    },
    |a: u32, b: u32| -> u32 {
        let _ = b;
        if b > 31 {
            0
        } else {
            a >> b
        }
    },
    |a: u32, b: u32| -> u32 {
        let _ = b;
        (a as i32).min(b as i32) as u32
    },
    |a: u32, b: u32| -> u32 {
        let _ = b;
        a.max(b)
    },
    |a: u32, b: u32| -> u32 {
        let _ = b;
        a.min(b)
    },
    |a: u32, b: u32| -> u32 {
        let _ = b;
        (a as i32).max(b as i32) as u32
    },
    |a: u32, b: u32| -> u32 {
        let _ = b;
        a.wrapping_mul(b).wrapping_add(a)
    },
    |a: u32, b: u32| -> u32 {
        let _ = b;
        if (a as i32) < (b as i32) {
            a
        } else {
            b
        }
    },
    |a: u32, b: u32| -> u32 {
        let _ = b;
        u32::from(a > b)
    },
    |a: u32, b: u32| -> u32 {
        let _ = b;
        a.wrapping_add(1_000_000)
    },
    |a: u32, b: u32| -> u32 {
        let _ = b;
        a.wrapping_sub(5)
    },
    |a: u32, b: u32| -> u32 {
        let _ = b;
        a << 3
    },
    |a: u32, b: u32| -> u32 {
        let _ = b;
        a.wrapping_add(-7i32 as u32)
    },
    |a: u32, b: u32| -> u32 {
        let _ = b;
        if a != 0 && (a as i32) >= (b as i32) {
            11
        } else {
            22
        }
    },
    |a: u32, b: u32| -> u32 {
        let _ = b;
        if a <= b || a != 0 {
            11
        } else {
            22
        }
    },
    |a: u32, b: u32| -> u32 {
        let _ = b;
        a.wrapping_mul(74565)
    },
    |a: u32, b: u32| -> u32 {
        let _ = b;
        if a > b {
            a.wrapping_add(b)
        } else {
            0x12345678
        }
    },
    |a: u32, b: u32| -> u32 {
        let _ = b;
        if a == b {
            99
        } else {
            a ^ 0xfffff
        }
    },
];

#[test]
fn int32_rows_agree_on_both_executors_and_with_the_spec() {
    let vals = int_edges(32, 0x9e37_79b9);
    let n_ops = INT32_EXPECT.len();
    let out = run_both(
        "int32_ops",
        INT32,
        &spec(
            "int32_ops",
            4,
            256,
            vec![u32s(&vals), zeros32(1024 * n_ops)],
        ),
    );
    let got = words(&out[1]);
    for (k, f) in INT32_EXPECT.iter().enumerate() {
        for t in 0..1024 {
            let (a, b) = (vals[t >> 5], vals[t & 31]);
            assert_eq!(got[k * 1024 + t], f(a, b), "row {k}, a={a:#x} b={b:#x}");
        }
    }
}

/// Loads a = vals[t >> 5], b = vals[t & 31] (32-bit elements) and the address of out[t] into
/// %r7, %r8 and %rd6, for kernels over every ordered pair of 32 values.
const PAIR_PROLOGUE_32: &str = r#"
	ld.param.u64 %rd1, [vals];
	ld.param.u64 %rd2, [out];
	mov.u32 %r1, %ctaid.x;
	mov.u32 %r2, %ntid.x;
	mov.u32 %r3, %tid.x;
	mad.lo.s32 %r4, %r1, %r2, %r3;
	shr.u32 %r5, %r4, 5;
	and.b32 %r6, %r4, 31;
	mul.wide.u32 %rd3, %r5, 4;
	add.s64 %rd4, %rd1, %rd3;
	ld.global.f32 %f1, [%rd4];
	mul.wide.u32 %rd3, %r6, 4;
	add.s64 %rd4, %rd1, %rd3;
	ld.global.f32 %f2, [%rd4];
	mul.wide.u32 %rd5, %r4, 4;
	add.s64 %rd6, %rd2, %rd5;
"#;

const F32_ROWS: &[&str] = &[
    "add.rn.f32 %f3, %f1, %f2;",
    "add.rz.f32 %f3, %f1, %f2;",
    "add.rm.f32 %f3, %f1, %f2;",
    "add.rp.f32 %f3, %f1, %f2;",
    "add.f32 %f3, %f1, %f2;",
    "add.rn.ftz.f32 %f3, %f1, %f2;",
    "sub.rn.f32 %f3, %f1, %f2;",
    "sub.rz.f32 %f3, %f1, %f2;",
    "sub.rn.f32 %f3, %f1, 0f00000000;",
    "mul.rn.f32 %f3, %f1, %f2;",
    "mul.rz.f32 %f3, %f1, %f2;",
    "mul.rm.ftz.f32 %f3, %f1, %f2;",
    "mul.rn.f32 %f3, %f1, 0f40400000;",
    "fma.rn.f32 %f3, %f1, %f2, %f1;",
    "fma.rz.f32 %f3, %f1, %f2, %f2;",
    "fma.rp.ftz.f32 %f3, %f1, %f1, %f2;",
    "mad.rm.f32 %f3, %f2, %f2, %f1;",
    "setp.lt.f32 %p1, %f1, %f2;\n\tselp.f32 %f3, %f1, %f2, %p1;",
    "setp.equ.f32 %p1, %f1, %f2;\n\tselp.f32 %f3, 0f3f800000, 0f00000000, %p1;",
    "setp.nan.f32 %p1, %f1, %f2;\n\tselp.f32 %f3, 0f3f800000, 0f00000000, %p1;",
    "setp.ge.ftz.f32 %p1, %f1, %f2;\n\tselp.f32 %f3, 0f3f800000, 0f00000000, %p1;",
    "setp.neu.f32 %p1, %f1, %f2;\n\tselp.f32 %f3, 0f3f800000, 0f00000000, %p1;",
    "setp.num.f32 %p1, %f1, %f2;\n\tselp.f32 %f3, 0f3f800000, 0f00000000, %p1;",
];

fn f32_kernel() -> String {
    let mut body = String::new();
    for (i, row) in F32_ROWS.iter().enumerate() {
        body.push_str(&format!(
            "\t{row}\n\tst.global.f32 [%rd6+{}], %f3;\n",
            i * 4096
        ));
    }
    format!(
        ".version 7.0\n.target sm_20\n.address_size 64\n.visible .entry f32_ops(.param .u64 vals, .param .u64 out)\n{{\n\t.reg .pred %p<4>;\n\t.reg .b32 %r<12>;\n\t.reg .f32 %f<4>;\n\t.reg .b64 %rd<8>;\n{PAIR_PROLOGUE_32}{body}\tret;\n}}\n"
    )
}

#[test]
fn f32_rows_agree_on_both_executors_over_edge_classes() {
    let vals = f32_edges(32, 0x2545_f491);
    let out = run_both(
        "f32_ops",
        &f32_kernel(),
        &spec(
            "f32_ops",
            4,
            256,
            vec![u32s(&vals), zeros32(1024 * F32_ROWS.len())],
        ),
    );
    // Independent spot checks of the first row (IEEE round-to-nearest-even addition, which
    // Rust's f32 `+` is): every pair whose sum is not a NaN has the bits Rust computes.
    let got = words(&out[1]);
    for t in 0..1024 {
        let (a, b) = (f32::from_bits(vals[t >> 5]), f32::from_bits(vals[t & 31]));
        let s = a + b;
        if !s.is_nan() {
            assert_eq!(got[t], s.to_bits(), "add.rn {a:e} + {b:e}");
        }
    }
}

const F64_ROWS: &[&str] = &[
    "add.rn.f64 %fd3, %fd1, %fd2;",
    "add.rz.f64 %fd3, %fd1, %fd2;",
    "add.rm.f64 %fd3, %fd1, %fd2;",
    "add.rp.f64 %fd3, %fd1, %fd2;",
    "sub.rn.f64 %fd3, %fd1, %fd2;",
    "sub.rn.f64 %fd3, %fd1, 0d3ff8000000000000;",
    "mul.rn.f64 %fd3, %fd1, %fd2;",
    "mul.rp.f64 %fd3, %fd1, %fd2;",
    "fma.rn.f64 %fd3, %fd1, %fd2, %fd1;",
    "fma.rm.f64 %fd3, %fd2, %fd2, %fd1;",
];

fn f64_kernel() -> String {
    let mut body = String::new();
    for (i, row) in F64_ROWS.iter().enumerate() {
        body.push_str(&format!(
            "\t{row}\n\tst.global.f64 [%rd6+{}], %fd3;\n",
            i * 8192
        ));
    }
    format!(
        r#".version 7.0
.target sm_20
.address_size 64
.visible .entry f64_ops(.param .u64 vals, .param .u64 out)
{{
	.reg .b32 %r<12>;
	.reg .f64 %fd<4>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [vals];
	ld.param.u64 %rd2, [out];
	mov.u32 %r1, %ctaid.x;
	mov.u32 %r2, %ntid.x;
	mov.u32 %r3, %tid.x;
	mad.lo.s32 %r4, %r1, %r2, %r3;
	shr.u32 %r5, %r4, 5;
	and.b32 %r6, %r4, 31;
	mul.wide.u32 %rd3, %r5, 8;
	add.s64 %rd4, %rd1, %rd3;
	ld.global.f64 %fd1, [%rd4];
	mul.wide.u32 %rd3, %r6, 8;
	add.s64 %rd4, %rd1, %rd3;
	ld.global.f64 %fd2, [%rd4];
	mul.wide.u32 %rd5, %r4, 8;
	add.s64 %rd6, %rd2, %rd5;
{body}	ret;
}}
"#
    )
}

#[test]
fn f64_rows_agree_on_both_executors_over_edge_classes() {
    let vals = f64_edges(32, 0x1234_5678_9abc_def1);
    let out = run_both(
        "f64_ops",
        &f64_kernel(),
        &spec(
            "f64_ops",
            4,
            256,
            vec![u64s(&vals), u64s(&vec![7; 1024 * F64_ROWS.len()])],
        ),
    );
    let got: Vec<u64> = words64(&out[1]);
    for t in 0..1024 {
        let (a, b) = (f64::from_bits(vals[t >> 5]), f64::from_bits(vals[t & 31]));
        if !(a * b).is_nan() {
            assert_eq!(got[6 * 1024 + t], (a * b).to_bits(), "mul.rn {a:e} * {b:e}");
        }
    }
}

const INT64: &str = r#"
.version 7.0
.target sm_20
.address_size 64
.visible .entry int64_ops(.param .u64 vals, .param .u64 out)
{
	.reg .pred %p<2>;
	.reg .b32 %r<12>;
	.reg .b64 %rd<12>;
	ld.param.u64 %rd1, [vals];
	ld.param.u64 %rd2, [out];
	mov.u32 %r1, %ctaid.x;
	mov.u32 %r2, %ntid.x;
	mov.u32 %r3, %tid.x;
	mad.lo.s32 %r4, %r1, %r2, %r3;
	shr.u32 %r5, %r4, 5;
	and.b32 %r6, %r4, 31;
	mul.wide.u32 %rd3, %r5, 4;
	add.s64 %rd4, %rd1, %rd3;
	ld.global.u32 %r7, [%rd4];
	mul.wide.u32 %rd3, %r6, 4;
	add.s64 %rd4, %rd1, %rd3;
	ld.global.u32 %r8, [%rd4];
	mul.wide.u32 %rd5, %r4, 8;
	add.s64 %rd6, %rd2, %rd5;
	mul.wide.s32 %rd7, %r7, %r8;
	st.global.u64 [%rd6], %rd7;
	mul.wide.u32 %rd8, %r7, %r8;
	st.global.u64 [%rd6+8192], %rd8;
	cvt.s64.s32 %rd9, %r7;
	cvt.u64.u32 %rd10, %r8;
	add.s64 %rd11, %rd9, %rd10;
	st.global.u64 [%rd6+16384], %rd11;
	add.s64 %rd11, %rd7, 0x123456789;
	st.global.u64 [%rd6+24576], %rd11;
	xor.b64 %rd11, %rd7, %rd8;
	st.global.u64 [%rd6+32768], %rd11;
	setp.lt.s32 %p1, %r7, %r8;
	selp.b64 %rd11, %rd7, %rd9, %p1;
	st.global.u64 [%rd6+40960], %rd11;
	cvt.u32.u64 %r9, %rd7;
	st.global.u32 [%rd6+49152], %r9;
	mov.u64 %rd11, -2;
	add.s64 %rd11, %rd11, %rd9;
	st.global.u64 [%rd6+57344], %rd11;
	ret;
}
"#;

#[test]
fn int64_rows_agree_on_both_executors_and_with_the_spec() {
    let vals = int_edges(32, 0x0bad_5eed);
    let out = run_both(
        "int64_ops",
        INT64,
        &spec(
            "int64_ops",
            4,
            256,
            vec![u32s(&vals), u64s(&vec![5; 1024 * 8])],
        ),
    );
    let got: Vec<u64> = words64(&out[1]);
    for t in 0..1024 {
        let (a, b) = (vals[t >> 5], vals[t & 31]);
        let ws = (a as i32 as i64).wrapping_mul(b as i32 as i64) as u64;
        assert_eq!(got[t], ws, "mul.wide.s32 {a:#x} {b:#x}");
        assert_eq!(got[1024 + t], a as u64 * b as u64, "mul.wide.u32");
        assert_eq!(
            got[2048 + t],
            (a as i32 as i64 as u64).wrapping_add(b as u64)
        );
        assert_eq!(got[3072 + t], ws.wrapping_add(0x1_2345_6789));
        assert_eq!(got[7168 + t], (a as i32 as i64 as u64).wrapping_sub(2));
    }
}

/// Divergent control flow: a loop whose trip count differs per thread, an if/else inside it,
/// an early exit, shared memory exchanged across a barrier.
const CONTROL: &str = r#"
.version 7.0
.target sm_20
.address_size 64
.visible .entry control(.param .u64 vals, .param .u64 out)
{
	.reg .pred %p<5>;
	.reg .b32 %r<32>;
	.reg .b64 %rd<8>;
	.shared .align 4 .b32 sh[256];
	ld.param.u64 %rd1, [vals];
	ld.param.u64 %rd2, [out];
	mov.u32 %r3, %tid.x;
	mov.u32 %r1, %ctaid.x;
	mov.u32 %r2, %ntid.x;
	mad.lo.s32 %r4, %r1, %r2, %r3;
	mul.wide.u32 %rd3, %r4, 4;
	add.s64 %rd4, %rd1, %rd3;
	ld.global.u32 %r9, [%rd4];
	mov.u32 %r10, 0;
	mov.u32 %r11, 0;
	and.b32 %r12, %r9, 15;
LOOP:
	setp.ge.u32 %p1, %r11, %r12;
	@%p1 bra END;
	and.b32 %r13, %r11, 1;
	setp.eq.u32 %p2, %r13, 0;
	@%p2 bra EVEN;
	mul.lo.u32 %r14, %r11, 3;
	add.u32 %r10, %r10, %r14;
	bra NEXT;
EVEN:
	xor.b32 %r10, %r10, %r9;
NEXT:
	add.u32 %r11, %r11, 1;
	bra LOOP;
END:
	mov.u32 %r19, sh;
	shl.b32 %r21, %r3, 2;
	add.u32 %r20, %r19, %r21;
	st.shared.u32 [%r20], %r10;
	bar.sync 0;
	mov.u32 %r22, 1020;
	sub.u32 %r23, %r22, %r21;
	add.u32 %r24, %r19, %r23;
	ld.shared.u32 %r25, [%r24];
	setp.lt.u32 %p3, %r3, 100;
	selp.u32 %r26, 7, 11, %p3;
	add.u32 %r27, %r25, %r26;
	add.s64 %rd5, %rd2, %rd3;
	st.global.u32 [%rd5], %r27;
	setp.eq.u32 %p4, %r25, 0;
	@%p4 bra DONE;
	st.global.u32 [%rd5+2048], %r25;
DONE:
	ret;
}
"#;

#[test]
fn divergent_loops_branches_and_barriers_agree() {
    let vals = int_edges(512, 0x51ed_270b);
    let out = run_both(
        "control",
        CONTROL,
        &spec("control", 2, 256, vec![u32s(&vals), zeros32(1024)]),
    );
    // The loop, computed here from the kernel's meaning.
    let acc = |x: u32| {
        let mut acc = 0u32;
        for i in 0..(x & 15) {
            if i & 1 == 1 {
                acc = acc.wrapping_add(i * 3);
            } else {
                acc ^= x;
            }
        }
        acc
    };
    let got = words(&out[1]);
    for cta in 0..2 {
        for tid in 0..256 {
            let other = acc(vals[cta * 256 + 255 - tid]);
            let expect = other.wrapping_add(if tid < 100 { 7 } else { 11 });
            assert_eq!(got[cta * 256 + tid], expect, "cta {cta} tid {tid}");
        }
    }
}

#[test]
fn examples_vector_add_agrees() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let text = std::fs::read_to_string(format!("{root}/examples/vector_add.ptx")).unwrap();
    let json = std::fs::read_to_string(format!("{root}/examples/vector_add.json")).unwrap();
    let s = exec::LaunchSpec::from_json(&json, std::path::Path::new(root)).unwrap();
    let out = run_both("vector_add", &text, &s);
    let c = words(&out[2]);
    // c[i] = a[i] + b[i] with a[i] = i/2, b[i] = 2i (the spec's data), exact in f32.
    for (i, &w) in c.iter().enumerate() {
        assert_eq!(f32::from_bits(w), i as f32 * 0.5 + i as f32 * 2.0);
    }
}

#[test]
fn tests_kernels_vector_add_agrees_on_all_three_entries() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let text = std::fs::read_to_string(format!("{root}/tests/kernels/vector_add.ptx")).unwrap();
    let a: Vec<u32> = f32_edges(1000, 7);
    let b: Vec<u32> = f32_edges(1000, 11).into_iter().rev().collect();
    run_both(
        "vector_add",
        &text,
        &spec(
            "vector_add",
            4,
            256,
            vec![u32s(&a), u32s(&b), zeros32(1000), value_u32(1000)],
        ),
    );
    let a64: Vec<u64> = (0..3000u64)
        .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .collect();
    let b64: Vec<u64> = (0..3000u64).map(|i| !i << 7).collect();
    run_both(
        "vector_add_u64",
        &text,
        &spec(
            "vector_add_u64",
            2,
            128,
            vec![u64s(&a64), u64s(&b64), u64s(&[0; 3000]), value_u32(3000)],
        ),
    );
    let x: Vec<u64> = f64_edges(32, 0x1234_5678_9abc_def1)
        .into_iter()
        .cycle()
        .take(700)
        .collect();
    let y: Vec<u64> = f64_edges(32, 0x1234_5678_9abc_def1)
        .into_iter()
        .rev()
        .cycle()
        .take(700)
        .collect();
    run_both(
        "axpy_f64",
        &text,
        &spec(
            "axpy_f64",
            3,
            256,
            vec![
                u64s(&x),
                u64s(&y),
                exec::ParamSpec::Value {
                    ty: exec::ElemType::F64,
                    bytes: 1.5f64.to_le_bytes().to_vec(),
                },
                value_u32(700),
            ],
        ),
    );
}

const PREDS_CVT: &str = r#"
.version 7.0
.target sm_20
.address_size 64
.visible .entry preds_cvt(.param .u64 vals, .param .u64 out)
{
	.reg .pred %p<8>;
	.reg .b16 %h<4>;
	.reg .b32 %r<16>;
	.reg .b64 %rd<8>;
	.shared .align 8 .b64 slots[256];
	ld.param.u64 %rd1, [vals];
	ld.param.u64 %rd2, [out];
	mov.u32 %r1, %ctaid.x;
	mov.u32 %r2, %ntid.x;
	cvt.u32.u16 %r3, %tid.x;
	mad.lo.s32 %r4, %r1, %r2, %r3;
	shr.u32 %r5, %r4, 5;
	and.b32 %r6, %r4, 31;
	mul.wide.u32 %rd3, %r5, 4;
	add.s64 %rd4, %rd1, %rd3;
	ld.global.u32 %r7, [%rd4];
	mul.wide.u32 %rd3, %r6, 4;
	add.s64 %rd4, %rd1, %rd3;
	ld.global.u32 %r8, [%rd4];
	mul.wide.u32 %rd5, %r4, 4;
	add.s64 %rd6, %rd2, %rd5;
	setp.lt.s32 %p1|%p2, %r7, %r8;
	setp.ne.u32 %p3, %r7, 0;
	and.pred %p4, %p1, %p3;
	or.pred %p5, %p2, %p3;
	xor.pred %p6, %p4, %p5;
	not.pred %p7, %p6;
	selp.u32 %r9, 1, 0, %p1;
	selp.u32 %r10, 2, 0, %p2;
	or.b32 %r9, %r9, %r10;
	selp.u32 %r10, 4, 0, %p4;
	or.b32 %r9, %r9, %r10;
	selp.u32 %r10, 8, 0, %p5;
	or.b32 %r9, %r9, %r10;
	selp.u32 %r10, 16, 0, %p6;
	or.b32 %r9, %r9, %r10;
	selp.u32 %r10, 32, 0, %p7;
	or.b32 %r9, %r9, %r10;
	setp.gt.u32.xor %p1|%p2, %r7, %r8, %p3;
	selp.u32 %r10, 64, 0, %p1;
	or.b32 %r9, %r9, %r10;
	selp.u32 %r10, 128, 0, %p2;
	or.b32 %r9, %r9, %r10;
	st.global.u32 [%rd6], %r9;
	cvt.u16.u32 %h1, %r7;
	cvt.s32.s16 %r11, %h1;
	st.global.u32 [%rd6+4096], %r11;
	cvt.u32.u16 %r11, %h1;
	st.global.u32 [%rd6+8192], %r11;
	cvt.s8.s32 %h2, %r8;
	cvt.s32.s8 %r11, %h2;
	st.global.u32 [%rd6+12288], %r11;
	cvt.u32.u8 %r11, %h2;
	st.global.u32 [%rd6+16384], %r11;
	and.b32 %r12, %r3, 255;
	mov.u64 %rd7, slots;
	mul.wide.u32 %rd3, %r12, 8;
	add.s64 %rd7, %rd7, %rd3;
	cvt.u64.u32 %rd4, %r7;
	st.shared.u64 [%rd7], %rd4;
	ld.shared.u32 %r13, [%rd7];
	st.global.u32 [%rd6+20480], %r13;
	ret;
}
"#;

#[test]
fn predicates_complements_subword_cvt_and_shared_pairs_agree() {
    let vals = int_edges(32, 0x7f4a_7c15);
    let out = run_both(
        "preds_cvt",
        PREDS_CVT,
        &spec("preds_cvt", 4, 256, vec![u32s(&vals), zeros32(1024 * 6)]),
    );
    let got = words(&out[1]);
    for t in 0..1024 {
        let (a, b) = (vals[t >> 5], vals[t & 31]);
        let p1 = (a as i32) < (b as i32);
        let p3 = a != 0;
        let (p4, p5) = (p1 && p3, !p1 || p3);
        let gt = a > b;
        let (q1, q2) = (gt ^ p3, !gt ^ p3);
        let bits = [p1, !p1, p4, p5, p4 ^ p5, !(p4 ^ p5), q1, q2]
            .iter()
            .enumerate()
            .map(|(i, &x)| u32::from(x) << i)
            .sum::<u32>();
        assert_eq!(got[t], bits, "a={a:#x} b={b:#x}");
        assert_eq!(got[1024 + t], a as u16 as i16 as i32 as u32);
        assert_eq!(got[2048 + t], a & 0xffff);
        assert_eq!(got[3072 + t], b as i8 as i32 as u32);
        assert_eq!(got[4096 + t], b & 0xff);
        assert_eq!(got[5120 + t], a, "through a shared u64 slot");
    }
}

/// `.address_size 32`: 32-bit generic addresses (LD/ST without .E).
const ADDR32: &str = r#"
.version 7.0
.target sm_20
.address_size 32
.visible .entry scale(.param .u32 src, .param .u32 dst, .param .u32 n)
{
	.reg .pred %p<2>;
	.reg .b32 %r<12>;
	ld.param.u32 %r1, [src];
	ld.param.u32 %r2, [dst];
	ld.param.u32 %r3, [n];
	mov.u32 %r4, %tid.x;
	mov.u32 %r5, %ctaid.x;
	mov.u32 %r6, %ntid.x;
	mad.lo.u32 %r7, %r5, %r6, %r4;
	setp.ge.u32 %p1, %r7, %r3;
	@%p1 bra DONE;
	shl.b32 %r8, %r7, 2;
	add.u32 %r9, %r1, %r8;
	ld.global.u32 %r10, [%r9];
	mul.lo.u32 %r10, %r10, 3;
	add.u32 %r11, %r2, %r8;
	st.global.u32 [%r11+0], %r10;
DONE:
	exit;
}
"#;

#[test]
fn thirty_two_bit_addressing_agrees() {
    let vals = int_edges(300, 3);
    let out = run_both(
        "scale",
        ADDR32,
        &spec(
            "scale",
            2,
            256,
            vec![u32s(&vals), zeros32(300), value_u32(300)],
        ),
    );
    let got = words(&out[1]);
    for (i, &v) in vals.iter().enumerate() {
        assert_eq!(got[i], v.wrapping_mul(3));
    }
}

/// Carry chains within a block (128-bit add and subtract on 32-bit limbs, 128-bit on 64-bit
/// limbs), vector loads and stores, and 64-bit pack/unpack.
const CHAINS: &str = r#"
.version 7.0
.target sm_20
.address_size 64
.visible .entry chains(.param .u64 in, .param .u64 out)
{
	.reg .b32 %r<40>;
	.reg .b64 %rd<40>;
	ld.param.u64 %rd1, [in];
	ld.param.u64 %rd2, [out];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd3, %r1, 32;
	add.s64 %rd4, %rd1, %rd3;
	mul.wide.u32 %rd5, %r1, 64;
	add.s64 %rd6, %rd2, %rd5;
	ld.global.v4.u32 {%r10, %r11, %r12, %r13}, [%rd4];
	ld.global.v4.u32 {%r14, %r15, %r16, %r17}, [%rd4+16];
	add.cc.u32 %r20, %r10, %r14;
	addc.cc.u32 %r21, %r11, %r15;
	addc.cc.u32 %r22, %r12, %r16;
	addc.u32 %r23, %r13, %r17;
	st.global.v4.u32 [%rd6], {%r20, %r21, %r22, %r23};
	sub.cc.u32 %r20, %r10, %r14;
	subc.cc.u32 %r21, %r11, %r15;
	subc.cc.u32 %r22, %r12, %r16;
	subc.u32 %r23, %r13, %r17;
	st.global.v2.u32 [%rd6+16], {%r20, %r21};
	st.global.v2.u32 [%rd6+24], {%r22, %r23};
	mov.b64 %rd10, {%r10, %r11};
	mov.b64 %rd11, {%r12, %r13};
	mov.b64 %rd12, {%r14, %r15};
	mov.b64 %rd13, {%r16, %r17};
	add.cc.u64 %rd20, %rd10, %rd12;
	addc.u64 %rd21, %rd11, %rd13;
	st.global.v2.u64 [%rd6+32], {%rd20, %rd21};
	sub.cc.u64 %rd20, %rd10, %rd12;
	subc.u64 %rd21, %rd11, %rd13;
	mov.b64 {%r30, %r31}, %rd20;
	mov.b64 {%r32, %r33}, %rd21;
	st.global.v4.u32 [%rd6+48], {%r30, %r31, %r32, %r33};
	ret;
}
"#;

#[test]
fn carry_chains_vectors_and_pack_unpack_agree_with_wide_arithmetic() {
    let limbs = int_edges(64 * 8, 0xc0ff_ee11);
    let out = run_both(
        "chains",
        CHAINS,
        &spec("chains", 1, 64, vec![u32s(&limbs), zeros32(64 * 16)]),
    );
    let got = words(&out[1]);
    let u128_of = |w: &[u32]| {
        w.iter()
            .rev()
            .fold(0u128, |acc, &x| (acc << 32) | u128::from(x))
    };
    for t in 0..64 {
        let a = u128_of(&limbs[t * 8..t * 8 + 4]);
        let b = u128_of(&limbs[t * 8 + 4..t * 8 + 8]);
        let r = &got[t * 16..t * 16 + 16];
        assert_eq!(
            u128_of(&r[0..4]),
            a.wrapping_add(b),
            "128-bit add (u32 limbs)"
        );
        assert_eq!(
            u128_of(&r[4..8]),
            a.wrapping_sub(b),
            "128-bit sub (u32 limbs)"
        );
        assert_eq!(
            u128_of(&r[8..12]),
            a.wrapping_add(b),
            "128-bit add (u64 limbs)"
        );
        assert_eq!(
            u128_of(&r[12..16]),
            a.wrapping_sub(b),
            "128-bit sub (u64 limbs)"
        );
    }
}

#[test]
fn repository_shared_memory_reduction_agrees() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let text = std::fs::read_to_string(format!("{root}/tests/run/reduce_shared.ptx")).unwrap();
    let input = int_edges(4 * 256, 0x1357_9bdf);
    let out = run_both(
        "reduce_shared",
        &text,
        &spec("reduce", 4, 256, vec![u32s(&input), zeros32(4)]),
    );
    let got = words(&out[1]);
    for (cta, &sum) in got.iter().enumerate() {
        let expect = input[cta * 256..cta * 256 + 256]
            .iter()
            .fold(0u32, |s, &x| s.wrapping_add(x));
        assert_eq!(sum, expect, "CTA {cta}");
    }
}

#[test]
fn repository_grid_ids_agree_on_a_3d_launch() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let text = std::fs::read_to_string(format!("{root}/tests/kernels/grid_ids.ptx")).unwrap();
    let s = exec::LaunchSpec {
        kernel: Some("grid_ids".into()),
        grid: [2, 3, 2],
        block: [8, 2, 3],
        shared_bytes: 0,
        params: vec![zeros32(12 * 48 * 16)],
        textures: Vec::new(),
    };
    run_both("grid_ids", &text, &s);
}

#[test]
fn repository_ptx11_constant_cta_dims_agree() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let text = std::fs::read_to_string(format!("{root}/tests/kernels/cta_dims_ptx11.ptx")).unwrap();
    let s = exec::LaunchSpec {
        kernel: Some("tile_ids".into()),
        grid: [1, 1, 1],
        block: [16, 4, 1],
        shared_bytes: 0,
        params: vec![zeros32(64)],
        textures: Vec::new(),
    };
    let out = run_both("cta_dims_ptx11", &text, &s);
    let got = words(&out[0]);
    for y in 0..4u32 {
        for x in 0..16u32 {
            assert_eq!(got[(y * 16 + x) as usize], (y << 8) | x);
        }
    }
}

/// Nested divergent regions meeting at one block (if/else inside if/else, a loop inside an
/// if), which need one `.S` per region at the join.
const NESTED: &str = r#"
.version 7.0
.target sm_20
.address_size 64
.visible .entry nested(.param .u64 vals, .param .u64 out)
{
	.reg .pred %p<6>;
	.reg .b32 %r<20>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [vals];
	ld.param.u64 %rd2, [out];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd3, %r1, 4;
	add.s64 %rd4, %rd1, %rd3;
	ld.global.u32 %r2, [%rd4];
	mov.u32 %r3, 0;
	and.b32 %r4, %r2, 3;
	setp.eq.u32 %p1, %r4, 0;
	@%p1 bra A;
	setp.eq.u32 %p2, %r4, 1;
	@%p2 bra J;
	setp.eq.u32 %p3, %r4, 2;
	@%p3 bra B;
	add.u32 %r3, %r3, 300;
	bra J;
B:
	add.u32 %r3, %r3, 200;
	bra J;
A:
	shr.u32 %r5, %r2, 2;
	and.b32 %r5, %r5, 7;
	mov.u32 %r6, 0;
LOOP:
	setp.ge.u32 %p4, %r6, %r5;
	@%p4 bra J;
	add.u32 %r3, %r3, %r6;
	add.u32 %r3, %r3, 1000;
	add.u32 %r6, %r6, 1;
	bra LOOP;
J:
	add.u32 %r3, %r3, %r4;
	bar.sync 0;
	add.s64 %rd5, %rd2, %rd3;
	st.global.u32 [%rd5], %r3;
	ret;
}
"#;

#[test]
fn nested_regions_meeting_at_one_block_agree_and_reach_the_barrier_together() {
    let vals = int_edges(256, 0xfeed_f00d);
    let out = run_both(
        "nested",
        NESTED,
        &spec("nested", 1, 256, vec![u32s(&vals), zeros32(256)]),
    );
    let got = words(&out[1]);
    for (t, &x) in vals.iter().enumerate() {
        let k = x & 3;
        let r = match k {
            0 => (0..((x >> 2) & 7)).map(|i| i + 1000).sum::<u32>(),
            1 => 0,
            2 => 200,
            _ => 300,
        };
        assert_eq!(got[t], r + k, "x={x:#x}");
    }
}

const SIGN_MINMAX_ROWS: &[&str] = &[
    "neg.f32 %f3, %f1;",
    "abs.f32 %f3, %f1;",
    "mov.b32 %r10, %f1;\n\tneg.s32 %r11, %r10;\n\tmov.b32 %f3, %r11;",
    "mov.b32 %r10, %f1;\n\tabs.s32 %r11, %r10;\n\tmov.b32 %f3, %r11;",
    "membar.cta;\n\tmembar.gl;\n\tmov.f32 %f3, %f2;",
];

#[test]
fn sign_ops_and_membar_agree() {
    let mut body = String::new();
    for (i, row) in SIGN_MINMAX_ROWS.iter().enumerate() {
        body.push_str(&format!(
            "\t{row}\n\tst.global.f32 [%rd6+{}], %f3;\n",
            i * 4096
        ));
    }
    let text = format!(
        ".version 7.0\n.target sm_20\n.address_size 64\n.visible .entry sign_ops(.param .u64 vals, .param .u64 out)\n{{\n\t.reg .pred %p<4>;\n\t.reg .b32 %r<12>;\n\t.reg .f32 %f<4>;\n\t.reg .b64 %rd<8>;\n{PAIR_PROLOGUE_32}{body}\tret;\n}}\n"
    );
    let vals = f32_edges(32, 0x0dd_ba11);
    let out = run_both(
        "sign_ops",
        &text,
        &spec(
            "sign_ops",
            4,
            256,
            vec![u32s(&vals), zeros32(1024 * SIGN_MINMAX_ROWS.len())],
        ),
    );
    let got = words(&out[1]);
    for t in 0..1024 {
        let a = vals[t >> 5];
        assert_eq!(got[t], a ^ 0x8000_0000, "neg.f32 flips the sign bit");
        assert_eq!(got[1024 + t], a & 0x7fff_ffff, "abs.f32 clears it");
        assert_eq!(got[2 * 1024 + t], (a as i32).wrapping_neg() as u32);
        assert_eq!(got[3 * 1024 + t], (a as i32).wrapping_abs() as u32);
    }
}

#[test]
fn corpus_sgemm_tiled_agrees() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let text = std::fs::read_to_string(format!("{root}/tests/corpus/sgemm_tiled.ptx")).unwrap();
    // M = N = K = 48: three 16 x 16 tiles each way, so every loop and bound is exercised
    // whatever the parameter order; values with many significant bits so rounding shows.
    let n = 48usize;
    let mat = |seed: u32| -> Vec<u32> {
        f32_edges(n * n + 20, seed)
            .into_iter()
            .skip(20)
            .map(|b| (b & 0x807f_ffff) | 0x3f00_0000)
            .collect()
    };
    let f32v = |x: f32| exec::ParamSpec::Value {
        ty: exec::ElemType::F32,
        bytes: x.to_le_bytes().to_vec(),
    };
    let s = exec::LaunchSpec {
        kernel: Some("sgemm_tiled".into()),
        grid: [3, 3, 1],
        block: [16, 16, 1],
        shared_bytes: 0,
        params: vec![
            u32s(&mat(1)),
            u32s(&mat(2)),
            u32s(&mat(3)),
            value_u32(n as u32),
            value_u32(n as u32),
            value_u32(n as u32),
            f32v(1.5),
            f32v(-0.75),
        ],
        textures: Vec::new(),
    };
    let out = run_both("sgemm_tiled", &text, &s);
    // Not vacuous: C changed from its initial contents.
    assert_ne!(words(&out[2]), mat(3));
}

const SHIFT64_AMOUNTS: &[u32] = &[0, 1, 13, 31, 32, 33, 63, 64, 100];

#[test]
fn sixty_four_bit_shifts_by_immediates_agree_with_the_spec() {
    let mut body = String::new();
    let mut k = 0;
    for op in ["shl.b64", "shr.u64", "shr.s64"] {
        for s in SHIFT64_AMOUNTS {
            body.push_str(&format!(
                "\t{op} %rd9, %rd8, {s};\n\tst.global.u64 [%rd6+{}], %rd9;\n",
                k * 512
            ));
            k += 1;
        }
    }
    let text = format!(
        r#".version 7.0
.target sm_20
.address_size 64
.visible .entry shifts(.param .u64 vals, .param .u64 out)
{{
	.reg .b32 %r<4>;
	.reg .b64 %rd<10>;
	ld.param.u64 %rd1, [vals];
	ld.param.u64 %rd2, [out];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd3, %r1, 8;
	add.s64 %rd4, %rd1, %rd3;
	ld.global.u64 %rd8, [%rd4];
	add.s64 %rd6, %rd2, %rd3;
{body}	ret;
}}
"#
    );
    let vals: Vec<u64> = [0x8000_0000_0000_0000, 0xffff_ffff_ffff_ffff, 1]
        .into_iter()
        .chain(
            int_edges(128, 99)
                .chunks(2)
                .map(|c| u64::from(c[0]) << 32 | u64::from(c[1])),
        )
        .take(64)
        .collect();
    let out = run_both(
        "shifts",
        &text,
        &spec("shifts", 1, 64, vec![u64s(&vals), u64s(&vec![3; 64 * k])]),
    );
    let got: Vec<u64> = words64(&out[1]);
    for (t, &a) in vals.iter().enumerate() {
        for (j, &s) in SHIFT64_AMOUNTS.iter().enumerate() {
            let n = SHIFT64_AMOUNTS.len();
            let shl = if s > 63 { 0 } else { a << s };
            let shr = if s > 63 { 0 } else { a >> s };
            let sar = ((a as i64) >> s.min(63)) as u64;
            assert_eq!(got[j * 64 + t], shl, "shl {a:#x} {s}");
            assert_eq!(got[(n + j) * 64 + t], shr, "shr.u64 {a:#x} {s}");
            assert_eq!(got[(2 * n + j) * 64 + t], sar, "shr.s64 {a:#x} {s}");
        }
    }
}

const VOTE_POPC: &str = r#"
.version 7.0
.target sm_20
.address_size 64
.visible .entry votes(.param .u64 vals, .param .u64 out)
{
	.reg .pred %p<6>;
	.reg .b32 %r<12>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [vals];
	ld.param.u64 %rd2, [out];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd3, %r1, 4;
	add.s64 %rd4, %rd1, %rd3;
	ld.global.u32 %r2, [%rd4];
	add.s64 %rd6, %rd2, %rd3;
	popc.b32 %r3, %r2;
	st.global.u32 [%rd6], %r3;
	setp.gt.u32 %p1, %r3, 16;
	vote.ballot.b32 %r4, %p1;
	st.global.u32 [%rd6+1024], %r4;
	vote.any.pred %p2, %p1;
	vote.all.pred %p3, !%p1;
	vote.uni.pred %p4, %p1;
	selp.u32 %r5, 1, 0, %p2;
	selp.u32 %r6, 2, 0, %p3;
	selp.u32 %r7, 4, 0, %p4;
	or.b32 %r5, %r5, %r6;
	or.b32 %r5, %r5, %r7;
	st.global.u32 [%rd6+2048], %r5;
	and.b32 %r8, %r2, 1;
	setp.eq.u32 %p5, %r8, 0;
	@%p5 bra SKIP;
	vote.ballot.b32 %r9, %p1;
	st.global.u32 [%rd6+3072], %r9;
SKIP:
	ret;
}
"#;

#[test]
fn popc_and_votes_agree_including_inside_a_divergent_branch() {
    let mut vals = int_edges(256, 0xabcd_ef01);
    // Warp 2: every lane has a popcount above 16; warp 3: none has.
    for v in &mut vals[64..96] {
        *v |= 0xffff_f000;
    }
    for v in &mut vals[96..128] {
        *v &= 0xff;
    }
    let out = run_both(
        "votes",
        VOTE_POPC,
        &spec("votes", 1, 256, vec![u32s(&vals), zeros32(1024)]),
    );
    let got = words(&out[1]);
    for w in 0..8 {
        let lanes = &vals[w * 32..w * 32 + 32];
        let ballot = lanes
            .iter()
            .enumerate()
            .filter(|(_, v)| v.count_ones() > 16)
            .fold(0u32, |b, (l, _)| b | 1 << l);
        for (l, v) in lanes.iter().enumerate() {
            let t = w * 32 + l;
            assert_eq!(got[t], v.count_ones());
            assert_eq!(got[256 + t], ballot);
            let flags = u32::from(ballot != 0)
                | u32::from(ballot == 0) << 1
                | u32::from(ballot == 0 || ballot == u32::MAX) << 2;
            assert_eq!(got[512 + t], flags, "warp {w}");
        }
    }
}

const CVT_ROWS: &[&str] = &[
    "cvt.rni.s32.f32 %r10, %f1;",
    "cvt.rzi.s32.f32 %r10, %f1;",
    "cvt.rmi.s32.f32 %r10, %f1;",
    "cvt.rpi.u32.f32 %r10, %f1;",
    "cvt.rzi.ftz.u32.f32 %r10, %f1;",
    "mov.b32 %r9, %f1;\n\tcvt.rn.f32.s32 %f3, %r9;\n\tmov.b32 %r10, %f3;",
    "mov.b32 %r9, %f1;\n\tcvt.rz.f32.u32 %f3, %r9;\n\tmov.b32 %r10, %f3;",
    "mov.b32 %r9, %f1;\n\tcvt.rm.f32.s32 %f3, %r9;\n\tmov.b32 %r10, %f3;",
    "cvt.f64.f32 %fd1, %f1;\n\tcvt.rn.f32.f64 %f3, %fd1;\n\tmov.b32 %r10, %f3;",
    "cvt.f64.f32 %fd1, %f1;\n\tmul.rn.f64 %fd1, %fd1, 0d3fd5555555555555;\n\tcvt.rz.f32.f64 %f3, %fd1;\n\tmov.b32 %r10, %f3;",
    "cvt.rni.f32.f32 %f3, %f1;\n\tmov.b32 %r10, %f3;",
    "cvt.rmi.f32.f32 %f3, %f1;\n\tmov.b32 %r10, %f3;",
];

#[test]
fn float_conversions_agree_over_edge_classes() {
    let mut body = String::new();
    for (i, row) in CVT_ROWS.iter().enumerate() {
        body.push_str(&format!(
            "\t{row}\n\tst.global.u32 [%rd6+{}], %r10;\n",
            i * 4096
        ));
    }
    let text = format!(
        ".version 7.0\n.target sm_20\n.address_size 64\n.visible .entry cvts(.param .u64 vals, .param .u64 out)\n{{\n\t.reg .pred %p<4>;\n\t.reg .b32 %r<12>;\n\t.reg .f32 %f<4>;\n\t.reg .f64 %fd<2>;\n\t.reg .b64 %rd<8>;\n{PAIR_PROLOGUE_32}{body}\tret;\n}}\n"
    );
    let mut vals = f32_edges(32, 0x5eed_1234);
    // Values near integer boundaries and the ends of the integer ranges.
    vals[20..32].copy_from_slice(&[
        2.5f32.to_bits(),
        (-2.5f32).to_bits(),
        3.5f32.to_bits(),
        0.49999997f32.to_bits(),
        (-0.5f32).to_bits(),
        2147483520.0f32.to_bits(),
        2147483648.0f32.to_bits(),
        (-2147483648.0f32).to_bits(),
        4294967040.0f32.to_bits(),
        4294967296.0f32.to_bits(),
        16777217u32,
        0xffff_ff00,
    ]);
    let out = run_both(
        "cvts",
        &text,
        &spec(
            "cvts",
            4,
            256,
            vec![u32s(&vals), zeros32(1024 * CVT_ROWS.len())],
        ),
    );
    let got = words(&out[1]);
    // Spot checks from the spec: .rzi truncates toward zero and saturates; NaN gives 0.
    for t in (0..1024).step_by(32) {
        let a = f32::from_bits(vals[t >> 5]);
        let expect = if a.is_nan() {
            0
        } else {
            a.trunc().clamp(i32::MIN as f32, i32::MAX as f32) as i32
        };
        assert_eq!(got[1024 + t] as i32, expect, "cvt.rzi.s32.f32 {a:e}");
    }
}

#[test]
fn bfi_agrees_with_register_and_immediate_positions() {
    let text = format!(
        ".version 7.0\n.target sm_20\n.address_size 64\n.visible .entry bfis(.param .u64 vals, .param .u64 out)\n{{\n\t.reg .pred %p<4>;\n\t.reg .b32 %r<16>;\n\t.reg .f32 %f<4>;\n\t.reg .b64 %rd<8>;\n{PAIR_PROLOGUE_32}\tmov.b32 %r7, %f1;\n\tmov.b32 %r8, %f2;\n\tand.b32 %r11, %r8, 0x3f;\n\tshr.u32 %r12, %r8, 8;\n\tbfi.b32 %r10, %r7, %r8, %r11, %r12;\n\tst.global.u32 [%rd6], %r10;\n\tbfi.b32 %r10, %r7, %r8, 5, 9;\n\tst.global.u32 [%rd6+4096], %r10;\n\tbfi.b32 %r10, %r8, %r7, 28, %r12;\n\tst.global.u32 [%rd6+8192], %r10;\n\tbfi.b32 %r10, %r8, %r7, %r8, 300;\n\tst.global.u32 [%rd6+12288], %r10;\n\tret;\n}}\n"
    );
    let vals = int_edges(32, 0x600d_cafe);
    let out = run_both(
        "bfis",
        &text,
        &spec("bfis", 4, 256, vec![u32s(&vals), zeros32(4096)]),
    );
    // PTX bfi (ptx-integer-arithmetic): insert the low `len` bits of a into b at `pos`, with
    // pos and len taken mod 256 and the field clipped at bit 31.
    let bfi = |a: u32, b: u32, pos: u32, len: u32| {
        let (pos, len) = (pos & 0xff, len & 0xff);
        let mut d = b;
        for i in 0..len {
            let at = pos + i;
            if at < 32 {
                d = (d & !(1 << at)) | ((a >> i & 1) << at);
            }
        }
        d
    };
    let got = words(&out[1]);
    for t in 0..1024 {
        let (a, b) = (vals[t >> 5], vals[t & 31]);
        assert_eq!(got[t], bfi(a, b, b & 0x3f, b >> 8), "a={a:#x} b={b:#x}");
        assert_eq!(got[1024 + t], bfi(a, b, 5, 9));
        assert_eq!(got[2048 + t], bfi(b, a, 28, b >> 8));
        assert_eq!(got[3072 + t], bfi(b, a, b, 300));
    }
}
