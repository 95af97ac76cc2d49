//! End-to-end: every `vmad` operand-negation combination ptxas accepts, and `.po`, against the
//! pseudo-code of ptx-video.md §9.7.18.1.3 transcribed here line by line (i128 arithmetic).

mod endtoend_common;
use endtoend_common::*;

struct Form {
    a_signed: bool,
    b_signed: bool,
    sat: bool,
    shift: u32,
}

/// The spec's pseudo-code for one `vmad`.
fn vmad_ref(f: &Form, a: u32, b: u32, c: u32, neg: [bool; 3], po: bool) -> u32 {
    let ta: i128 = if f.a_signed {
        i128::from(a as i32)
    } else {
        i128::from(a)
    };
    let tb: i128 = if f.b_signed {
        i128::from(b as i32)
    } else {
        i128::from(b)
    };
    let signed_final = f.a_signed || f.b_signed || (neg[0] ^ neg[1]) || neg[2];
    let mut tmp: i128 = ta * tb;
    let mut c = c;
    let mut lsb = 0;
    if po {
        lsb = 1;
    } else if neg[0] ^ neg[1] {
        tmp = !tmp;
        lsb = 1;
    } else if neg[2] {
        c = !c;
        lsb = 1;
    }
    let c128: i128 = if signed_final {
        i128::from(c as i32)
    } else {
        i128::from(c)
    };
    let tmp = tmp + c128 + lsb;
    // Sign-extended shift when the final result is signed, zero-extended otherwise.
    let shifted = if signed_final {
        tmp >> f.shift
    } else {
        ((tmp as u128) >> f.shift) as i128
    };
    let result = shifted as u64;
    let result = if !f.sat {
        result
    } else if signed_final {
        (result as i64).clamp(i32::MIN as i64, i32::MAX as i64) as u64
    } else {
        result.min(u32::MAX as u64)
    };
    result as u32
}

#[test]
fn vmad_every_accepted_negation_and_po() {
    let n = 96usize;
    let mut rng = Rng(0x7a4d);
    let mut input: Vec<u32> = (0..3 * n).map(|_| rng.next_u32()).collect();
    // Edge rows: extremes that saturate and products that overflow 32 bits.
    input[..3].copy_from_slice(&[u32::MAX, u32::MAX, u32::MAX]);
    input[3..6].copy_from_slice(&[0x8000_0000, 0x7fff_ffff, 0x8000_0000]);
    input[6..9].copy_from_slice(&[0, 0, 0]);
    let out = run_all_threads(
        "vmad_negations.ptx",
        "vmad_negations",
        &cfg([1, 1, 1], [n as u32, 1, 1]),
        &[buf(&input), zbuf::<u32>(14 * n)],
    );
    let got: Vec<u32> = decode(&out[1]);
    let negs = [0u32, 1, 2, 3, 4, 7].map(|k| [k & 1 != 0, k & 2 != 0, k & 4 != 0]);
    let forms = [
        Form {
            a_signed: false,
            b_signed: false,
            sat: false,
            shift: 0,
        },
        Form {
            // vmad.s32.u32.s32: .dtype s32, .atype u32, .btype s32.
            a_signed: false,
            b_signed: true,
            sat: true,
            shift: 7,
        },
    ];
    for t in 0..n {
        let (a, b, c) = (input[3 * t], input[3 * t + 1], input[3 * t + 2]);
        let mut want = Vec::new();
        for f in &forms {
            for neg in negs {
                want.push(vmad_ref(f, a, b, c, neg, false));
            }
            want.push(vmad_ref(f, a, b, c, [false; 3], true));
        }
        assert_eq!(
            &got[14 * t..14 * t + 14],
            &want[..],
            "thread {t} a={a:#x} b={b:#x} c={c:#x}"
        );
    }
}

/// `-a.h1` and `-b.b2`: a negated operand keeps its selector (the selected part is extended
/// by the operand's type, then the product is negated).
#[test]
fn vmad_negated_operands_with_selectors() {
    let text = r#"
.version 7.0
.target sm_61
.address_size 64
.visible .entry k(.param .u64 in, .param .u64 out)
{
	.reg .b32 %r<8>;
	.reg .b64 %rd<6>;
	ld.param.u64 	%rd1, [in];
	ld.param.u64 	%rd2, [out];
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd3, %r1, 12;
	add.s64 	%rd4, %rd1, %rd3;
	ld.global.u32 	%r2, [%rd4];
	ld.global.u32 	%r3, [%rd4+4];
	ld.global.u32 	%r4, [%rd4+8];
	vmad.s32.s32.s32 	%r5, -%r2.h1, %r3.b2, %r4;
	vmad.s32.u32.s32 	%r6, %r2.b3, -%r3.h0, %r4;
	vmad.s32.s32.s32 	%r7, -%r2.b1, -%r3.h1, -%r4;
	mul.wide.u32 	%rd3, %r1, 12;
	add.s64 	%rd5, %rd2, %rd3;
	st.global.u32 	[%rd5], %r5;
	st.global.u32 	[%rd5+4], %r6;
	st.global.u32 	[%rd5+8], %r7;
	ret;
}
"#;
    let (mut dev, m) = load_text("vmad_neg_sel.ptx", text);
    let n = 64usize;
    let mut rng = Rng(0x5e1);
    let mut input: Vec<u32> = (0..3 * n).map(|_| rng.next_u32()).collect();
    input[..3].copy_from_slice(&[0x8000_0000, 0x0080_8000, 0x7fff_ffff]);
    let pin = upload(&mut dev, &input);
    let pout = zeros::<u32>(&mut dev, 3 * n);
    dev.launch(
        &m,
        "k",
        &cfg([1, 1, 1], [n as u32, 1, 1]),
        &[exec::Arg::ptr(pin), exec::Arg::ptr(pout)],
        &opts(1),
    )
    .unwrap();
    let got = download::<u32>(&dev, pout, 3 * n);
    let half = |x: u32, k: u32, signed: bool| {
        let h = (x >> (16 * k)) & 0xffff;
        if signed {
            h as u16 as i16 as i32 as u32
        } else {
            h
        }
    };
    let byte = |x: u32, k: u32, signed: bool| {
        let b = (x >> (8 * k)) & 0xff;
        if signed {
            b as u8 as i8 as i32 as u32
        } else {
            b
        }
    };
    let signed = Form {
        a_signed: true,
        b_signed: true,
        sat: false,
        shift: 0,
    };
    let mixed = Form {
        a_signed: false,
        b_signed: true,
        sat: false,
        shift: 0,
    };
    for t in 0..n {
        let (a, b, c) = (input[3 * t], input[3 * t + 1], input[3 * t + 2]);
        let want = [
            vmad_ref(
                &signed,
                half(a, 1, true),
                byte(b, 2, true),
                c,
                [true, false, false],
                false,
            ),
            vmad_ref(
                &mixed,
                byte(a, 3, false),
                half(b, 0, true),
                c,
                [false, true, false],
                false,
            ),
            vmad_ref(
                &signed,
                byte(a, 1, true),
                half(b, 1, true),
                c,
                [true, true, true],
                false,
            ),
        ];
        assert_eq!(
            &got[3 * t..3 * t + 3],
            &want[..],
            "thread {t} a={a:#x} b={b:#x} c={c:#x}"
        );
    }
}
