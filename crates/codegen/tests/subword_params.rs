//! Sub-word kernel parameters (`.param .u8/.s8/.u16/.s16/.b8`, CUDA's `char`/`short`
//! arguments): `ld.param` of each into 32- and 64-bit registers, on both executors, against
//! PTX's rule that a load into a wider register zero-extends unsigned and bit-size types and
//! sign-extends signed ones (ptx-isa §9.7.9.8 `ld`). The parameters sit at every byte offset of
//! their words, so the field extraction is exercised at positions 0, 8, 16 and 24.

mod common;
use common::*;
use exec::{ElemType, ParamSpec};

const KERNEL: &str = r#".version 7.0
.target sm_20
.address_size 64
.visible .entry k(.param .u64 out, .param .u8 a, .param .s8 b, .param .u16 c, .param .s16 d,
    .param .b8 e, .param .s8 f, .param .s16 h, .param .u8 i)
{
	.reg .b32 %r<10>;
	.reg .b64 %rd<6>;
	ld.param.u64 %rd1, [out];
	ld.param.u8 %r1, [a];
	ld.param.s8 %r2, [b];
	ld.param.u16 %r3, [c];
	ld.param.s16 %r4, [d];
	ld.param.b8 %r5, [e];
	ld.param.s8 %r6, [f];
	ld.param.s16 %rd2, [h];
	ld.param.u8 %rd3, [i];
	st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};
	st.global.v2.u32 [%rd1+16], {%r5, %r6};
	st.global.u64 [%rd1+24], %rd2;
	st.global.u64 [%rd1+32], %rd3;
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
fn sub_word_parameters_extend_as_ptx_loads_do() {
    let (a, b, c, d, e, f, h, i) = (
        0xf3u8, 0x81u8, 0xbeefu16, 0x8001u16, 0xa5u8, 0x7fu8, 0xfffeu16, 0x80u8,
    );
    let s = spec(
        "k",
        1,
        1,
        vec![
            zeros32(10),
            value(ElemType::U8, &[a]),
            value(ElemType::S8, &[b]),
            value(ElemType::U16, &c.to_le_bytes()),
            value(ElemType::S16, &d.to_le_bytes()),
            value(ElemType::B8, &[e]),
            value(ElemType::S8, &[f]),
            value(ElemType::S16, &h.to_le_bytes()),
            value(ElemType::U8, &[i]),
        ],
    );
    let out = run_both("subword_params.ptx", KERNEL, &s);
    let w = words(&out[0]);
    let want32 = [
        u32::from(a),
        b as i8 as i32 as u32,
        u32::from(c),
        d as i16 as i32 as u32,
        u32::from(e),
        f as i8 as i32 as u32,
    ];
    assert_eq!(&w[..6], &want32);
    let q = words64(&out[0][24..40]);
    assert_eq!(q, [h as i16 as i64 as u64, u64::from(i)]);
}
