//! Packed `.f32x2` arithmetic (sm_100, PTX ISA 8.x §9.7.3): each half is the `.f32`
//! instruction with the same modifiers. Expected values are worked out in the comments.

mod common;
use common::*;
use exec::Arg;

fn pair(lo: u32, hi: u32) -> [u32; 2] {
    [lo, hi]
}

#[test]
fn each_half_computes_the_scalar_instruction() {
    let text = r#"
.version 8.6
.target sm_100
.address_size 64
.visible .entry k(.param .u64 pin, .param .u64 pout)
{
	.reg .b64 %rd<12>;
	ld.param.u64 %rd1, [pin];
	ld.param.u64 %rd9, [pout];
	ld.global.b64 %rd2, [%rd1];
	ld.global.b64 %rd3, [%rd1+8];
	ld.global.b64 %rd4, [%rd1+16];
	add.f32x2 %rd5, %rd2, %rd3;
	add.rp.f32x2 %rd6, %rd2, %rd3;
	sub.rm.f32x2 %rd7, %rd2, %rd3;
	fma.rn.f32x2 %rd8, %rd2, %rd3, %rd2;
	mul.rn.ftz.f32x2 %rd10, %rd4, %rd3;
	st.global.v2.b64 [%rd9], {%rd5, %rd6};
	st.global.v2.b64 [%rd9+16], {%rd7, %rd8};
	st.global.b64 [%rd9+32], %rd10;
	ret;
}
"#;
    let (mut dev, m) = load("f32x2.ptx", text);
    let two24 = 16_777_216f32;
    let mut input = Vec::new();
    input.extend(pair(1.5f32.to_bits(), two24.to_bits())); // a
    input.extend(pair(2.25f32.to_bits(), 1f32.to_bits())); // b
    input.extend(pair(1, 2f32.to_bits())); // low half: the smallest subnormal
    let pin = upload_u32(&mut dev, &input);
    let pout = upload_u32(&mut dev, &[0; 10]);
    launch(
        &dev,
        &m,
        "k",
        &cfg([1, 1, 1], [1, 1, 1]),
        &[Arg::ptr(pin), Arg::ptr(pout)],
    )
    .unwrap();
    let f = |x: f32| x.to_bits();
    let expect = [
        // add (.rn by default): 3.75; 2^24 + 1 is a tie, to the even 2^24.
        f(3.75),
        f(two24),
        // add.rp: 3.75; 2^24 + 1 rounds up to 2^24 + 2.
        f(3.75),
        f(two24 + 2.0),
        // sub.rm: -0.75; 2^24 - 1 is exact.
        f(-0.75),
        f(16_777_215.0),
        // fma.rn a*b + a: 1.5 * 2.25 + 1.5 = 4.875; 2^24 * 1 + 2^24 = 2^25.
        f(4.875),
        f(33_554_432.0),
        // mul.ftz: the subnormal input flushes to +0, so +0 * 2.25 = +0; 2 * 1 = 2.
        0,
        f(2.0),
    ];
    assert_eq!(read_u32(&dev, pout, 10), expect);
}
