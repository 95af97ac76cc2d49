//! Parameters folded into the composite operand of the rules besides `add` (src/fold.rs): the
//! second source of 32-bit `sub`, `mul.lo/.hi`, `mad.lo`, `and`, `shl`/`shr` (amounts past 31
//! included: the bank operand is clamped as a register is), `min`, `setp`, and of `.f32`
//! `add`/`sub`/`mul`/`fma.rn`/`setp`, the second source of a 32-bit `selp`, and the added
//! operand of a scaled add (`ISCADD`). Each row runs over integer edges on both executors, is checked against
//! arithmetic written here, and the listing must show each rule reading `c [0x0] [0x…]`, with
//! no `MOV` of a parameter left (so the test fails if a fold silently stops happening).

mod common;
use common::*;

const K: u32 = 0x8000_0005;
const S: u32 = 7;
const S2: u32 = 40;
const F: f32 = -1.375;

const KERNEL: &str = r#"
.version 7.0
.target sm_20
.address_size 64
.visible .entry rules(.param .u64 in, .param .u64 out, .param .u32 k, .param .u32 s, .param .u32 s2, .param .f32 f)
{
	.reg .pred %p;
	.reg .b32 %r<20>;
	.reg .f32 %f<6>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [in];
	ld.param.u64 %rd2, [out];
	ld.param.u32 %r10, [k];
	ld.param.u32 %r11, [s];
	ld.param.u32 %r12, [s2];
	ld.param.f32 %f1, [f];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd3, %r1, 4;
	add.s64 %rd4, %rd1, %rd3;
	ld.global.u32 %r2, [%rd4];
	mul.wide.u32 %rd5, %r1, 80;
	add.s64 %rd6, %rd2, %rd5;
	sub.s32 %r3, %r2, %r10;
	st.global.u32 [%rd6], %r3;
	mul.lo.u32 %r3, %r2, %r10;
	st.global.u32 [%rd6+4], %r3;
	mad.lo.u32 %r3, %r2, %r10, %r2;
	st.global.u32 [%rd6+8], %r3;
	and.b32 %r3, %r2, %r10;
	st.global.u32 [%rd6+12], %r3;
	shl.b32 %r3, %r2, %r11;
	st.global.u32 [%rd6+16], %r3;
	shr.u32 %r3, %r2, %r11;
	st.global.u32 [%rd6+20], %r3;
	shr.s32 %r3, %r2, %r12;
	st.global.u32 [%rd6+24], %r3;
	min.s32 %r3, %r2, %r10;
	st.global.u32 [%rd6+28], %r3;
	setp.lt.u32 %p, %r2, %r10;
	selp.u32 %r3, 1, 0, %p;
	st.global.u32 [%rd6+32], %r3;
	mul.hi.u32 %r3, %r2, %r10;
	st.global.u32 [%rd6+36], %r3;
	mov.b32 %f2, %r2;
	add.rn.f32 %f3, %f2, %f1;
	st.global.f32 [%rd6+40], %f3;
	mul.rn.f32 %f3, %f2, %f1;
	st.global.f32 [%rd6+44], %f3;
	sub.rn.f32 %f3, %f2, %f1;
	st.global.f32 [%rd6+48], %f3;
	shl.b32 %r3, %r2, %r12;
	st.global.u32 [%rd6+52], %r3;
	fma.rn.f32 %f3, %f2, %f1, %f2;
	st.global.f32 [%rd6+56], %f3;
	setp.gtu.f32 %p, %f2, %f1;
	selp.u32 %r3, 1, 0, %p;
	st.global.u32 [%rd6+60], %r3;
	selp.b32 %r3, %r2, %r10, %p;
	st.global.u32 [%rd6+64], %r3;
	mul.lo.u32 %r13, %r2, 8;
	add.u32 %r3, %r13, %r10;
	st.global.u32 [%rd6+68], %r3;
	ret;
}
"#;

/// Words per thread in `out` (18 rows).
const STRIDE: usize = 20;

fn expect(x: u32) -> [u32; 18] {
    let (sx, sk) = (x as i32, K as i32);
    let fx = f32::from_bits(x);
    [
        sx.wrapping_sub(sk) as u32,
        x.wrapping_mul(K),
        x.wrapping_mul(K).wrapping_add(x),
        x & K,
        x << S,
        x >> S,
        // PTX clamps shift amounts: an arithmetic shift by 40 leaves the sign.
        (sx >> 31) as u32,
        sx.min(sk) as u32,
        u32::from(x < K),
        ((u64::from(x) * u64::from(K)) >> 32) as u32,
        (fx + F).to_bits(),
        (fx * F).to_bits(),
        (fx - F).to_bits(),
        0,
        fx.mul_add(F, fx).to_bits(),
        // gtu: greater or unordered.
        u32::from(fx.is_nan() || fx > F),
        if fx.is_nan() || fx > F { x } else { K },
        x.wrapping_mul(8).wrapping_add(K),
    ]
}

#[test]
fn parameters_fold_into_every_rule_with_a_bank_operand() {
    let mut inputs = int_edges(48, 0x0f01_d123);
    inputs.extend(
        f32_edges(20, 0x7)
            .into_iter()
            .filter(|v| !f32::from_bits(*v).is_nan()),
    );
    inputs.truncate(64);
    assert_eq!(inputs.len(), 64);
    let s = spec(
        "rules",
        1,
        64,
        vec![
            u32s(&inputs),
            zeros32(STRIDE * 64),
            value_u32(K),
            value_u32(S),
            value_u32(S2),
            value_u32(F.to_bits()),
        ],
    );
    let out = run_both("rules.ptx", KERNEL, &s);
    let got = words(&out[1]);
    for (t, &x) in inputs.iter().enumerate() {
        // NaN inputs: the executors agree bit for bit (run_both); Rust's NaN payloads are not
        // PTX's, so the float rows are not compared here.
        let rows = if f32::from_bits(x).is_nan() { 10 } else { 14 };
        // A NaN result (∞ · F + ∞): any NaN here, its bits checked by run_both.
        let fma = f32::from_bits(expect(x)[14]);
        if !f32::from_bits(x).is_nan() {
            let g = f32::from_bits(got[STRIDE * t + 14]);
            assert!(
                if fma.is_nan() {
                    g.is_nan()
                } else {
                    g.to_bits() == fma.to_bits()
                },
                "input {x:#x}: fma"
            );
        }
        assert_eq!(
            got[STRIDE * t..STRIDE * t + rows],
            expect(x)[..rows],
            "input {x:#x}"
        );
        assert_eq!(got[STRIDE * t + 13], 0, "input {x:#x}: shl by 40");
        assert_eq!(
            got[STRIDE * t + 15..STRIDE * t + 18],
            expect(x)[15..18],
            "input {x:#x}: setp.gtu, selp, the scaled add"
        );
    }
    let (_, _, cubin) = compile("rules.ptx", KERNEL);
    let listing: Vec<String> = disassembly(&cubin.kernels[0]);
    let reads = |name: &str, at: u32| {
        let bank = format!("c [0x0] [{at:#x}]");
        listing
            .iter()
            .any(|l| l.contains(name) && l.contains(&bank))
    };
    for (name, at) in [
        ("IADD", 0x30),
        ("IMUL.U32.U32 R", 0x30),
        ("IMUL.U32.U32.HI", 0x30),
        ("IMAD", 0x30),
        ("LOP.AND", 0x30),
        ("SHL", 0x34),
        ("SHR.U32", 0x34),
        ("SHR ", 0x38),
        ("SHL", 0x38),
        ("IMNMX", 0x30),
        ("ISETP", 0x30),
        ("FADD", 0x3c),
        ("FMUL", 0x3c),
        ("FFMA", 0x3c),
        ("FSETP", 0x3c),
        ("SEL", 0x30),
        ("ISCADD", 0x30),
    ] {
        assert!(
            reads(name, at),
            "no {name} reading c[0x0][{at:#x}]:\n{listing:#?}"
        );
    }
    for at in [0x30, 0x34, 0x38, 0x3c] {
        let mov = "MOV R";
        let bank = format!("c [0x0] [{at:#x}]");
        assert!(
            !listing.iter().any(|l| l.contains(mov) && l.contains(&bank)),
            "a parameter still moved:\n{listing:#?}"
        );
    }
}
