//! `cvt.pack.sat` to `.u4`/`.s4`/`.u2`/`.s2` (PTX ISA 8.x §9.7.9.21, sm_75): each thread packs
//! its own `a`, `b`, `c` four ways; the expected words are computed here from the manual's
//! definition (clamp each source to the type's range, `b` low, `a` above it, `c` above both).

mod common;
use common::*;
use exec::Arg;

const KERNEL: &str = r#"
.version 6.5
.target sm_75
.address_size 64
.visible .entry k(.param .u64 pin, .param .u64 pout)
{
	.reg .b32 %r<9>;
	.reg .b64 %rd<6>;
	ld.param.u64 %rd1, [pin];
	ld.param.u64 %rd2, [pout];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd3, %r1, 16;
	add.s64 %rd4, %rd1, %rd3;
	add.s64 %rd5, %rd2, %rd3;
	ld.global.v4.b32 {%r1, %r2, %r3, %r4}, [%rd4];
	cvt.pack.sat.u4.s32.b32 %r5, %r1, %r2, %r3;
	cvt.pack.sat.s4.s32.b32 %r6, %r1, %r2, %r3;
	cvt.pack.sat.u2.s32.b32 %r7, %r1, %r2, %r3;
	cvt.pack.sat.s2.s32.b32 %r8, %r1, %r2, 0x5a5a5a5a;
	st.global.v4.b32 [%rd5], {%r5, %r6, %r7, %r8};
	ret;
}
"#;

fn clamp(x: i32, bits: u32, signed: bool) -> u32 {
    let (lo, hi) = if signed {
        (-(1i64 << (bits - 1)), (1i64 << (bits - 1)) - 1)
    } else {
        (0, (1i64 << bits) - 1)
    };
    (i64::from(x).clamp(lo, hi) as u32) & ((1 << bits) - 1)
}

fn pack(a: i32, b: i32, c: u32, bits: u32, signed: bool) -> u32 {
    c.wrapping_shl(2 * bits) | clamp(a, bits, signed) << bits | clamp(b, bits, signed)
}

#[test]
fn sub_byte_packs_clamp_and_place_each_field() {
    // Pairs around every bound of the four ranges (-8..7, 0..15, -2..1, 0..3) and the s32
    // extremes; 64 threads.
    let vals = [
        i32::MIN,
        -9,
        -8,
        -7,
        -3,
        -2,
        -1,
        0,
        1,
        2,
        3,
        4,
        7,
        8,
        15,
        16,
        17,
        i32::MAX,
    ];
    let mut inp = Vec::new();
    for t in 0..64usize {
        let a = vals[t % vals.len()];
        let b = vals[(t * 7 + 3) % vals.len()];
        let c = 0x9e37_79b9u32.wrapping_mul(t as u32 + 1);
        inp.extend([a as u32, b as u32, c, 0]);
    }
    let (mut dev, m) = load("pack.ptx", KERNEL);
    let pin = upload_u32(&mut dev, &inp);
    let pout = upload_u32(&mut dev, &[0; 256]);
    launch(
        &dev,
        &m,
        "k",
        &cfg([1, 1, 1], [64, 1, 1]),
        &[Arg::ptr(pin), Arg::ptr(pout)],
    )
    .unwrap();
    let mut want = Vec::new();
    for t in inp.chunks(4) {
        let (a, b, c) = (t[0] as i32, t[1] as i32, t[2]);
        want.extend([
            pack(a, b, c, 4, false),
            pack(a, b, c, 4, true),
            pack(a, b, c, 2, false),
            pack(a, b, 0x5a5a_5a5a, 2, true),
        ]);
    }
    assert_eq!(read_u32(&dev, pout, 256), want);
}
