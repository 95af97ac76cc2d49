//! Module `.global` variables whose initializers hold addresses (`.global .u64 p = tab;`,
//! `generic(tab)+8`, the address of another such variable, of a zero-filled one, and a 4-byte
//! slot in 32-bit code): the cubin carries `.rela.nv.global.init` (`R_CUDA_64`/`R_CUDA_32`),
//! the Fermi executor's loader writes the addresses, and the kernels read and write through
//! them on both executors with the values computed here (PTX ISA §5.4.4, "Initializers":
//! "the address of a variable ... or generic(var)").

mod common;
use common::*;

const KERNEL64: &str = r#".version 7.0
.target sm_20
.address_size 64
.global .align 4 .u32 tab[4] = {11, 22, 33, 44};
.global .align 8 .u64 p = tab;
.global .align 4 .u32 zz[2];
.global .align 8 .u64 q[3] = {generic(tab)+8, p, zz};
.visible .entry k(.param .u64 out)
{
	.reg .pred %p<2>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<12>;
	ld.param.u64 %rd1, [out];
	ld.global.u64 %rd2, [p];
	ld.u32 %r1, [%rd2+4];
	st.global.u32 [%rd1], %r1;
	ld.global.u64 %rd3, [q];
	ld.u32 %r2, [%rd3];
	st.global.u32 [%rd1+4], %r2;
	ld.global.u64 %rd4, [q+8];
	ld.u64 %rd5, [%rd4];
	ld.u32 %r3, [%rd5+12];
	st.global.u32 [%rd1+8], %r3;
	ld.global.u64 %rd6, [q+16];
	st.u32 [%rd6+4], 77;
	ld.global.u32 %r4, [zz+4];
	st.global.u32 [%rd1+12], %r4;
	mov.u64 %rd7, tab;
	setp.eq.u64 %p1, %rd7, %rd2;
	selp.u32 %r5, 1, 0, %p1;
	st.global.u32 [%rd1+16], %r5;
	mov.u64 %rd8, p;
	setp.eq.u64 %p1, %rd8, %rd4;
	selp.u32 %r6, 1, 0, %p1;
	st.global.u32 [%rd1+20], %r6;
	ret;
}
"#;

const KERNEL32: &str = r#".version 1.4
.target sm_13
.global .align 4 .u32 tab[3] = {5, 6, 7};
.global .align 4 .u32 pp[2] = {tab, tab+8};
.entry k32(.param .u32 out)
{
	.reg .u32 %r<8>;
	ld.param.u32 %r1, [out];
	ld.global.u32 %r2, [pp];
	ld.global.u32 %r3, [%r2+4];
	st.global.u32 [%r1], %r3;
	ld.global.u32 %r4, [pp+4];
	ld.global.u32 %r5, [%r4];
	st.global.u32 [%r1+4], %r5;
	ret;
}
"#;

#[test]
fn addresses_in_initializers_are_relocated_and_followed() {
    let out = run_both("gaddr.ptx", KERNEL64, &spec("k", 1, 1, vec![zeros32(6)]));
    assert_eq!(words(&out[0]), [22, 33, 44, 77, 1, 1]);
    let (_, _, cubin) = common::compile("gaddr.ptx", KERNEL64);
    let relocs: Vec<(u32, &str, i64, bool)> = cubin
        .globals
        .relocs
        .iter()
        .map(|r| (r.offset, r.symbol.as_str(), r.addend, r.wide))
        .collect();
    // tab at 0 (16 bytes), p at 16, q at 24: p = &tab; q = {&tab + 8, &p, &zz}.
    assert_eq!(
        relocs,
        [
            (16, "tab", 0, true),
            (24, "tab", 8, true),
            (32, "p", 0, true),
            (40, "zz", 0, true)
        ]
    );
}

#[test]
fn four_byte_addresses_in_32_bit_code() {
    let out = run_both(
        "gaddr32.ptx",
        KERNEL32,
        &spec("k32", 1, 1, vec![zeros32(2)]),
    );
    assert_eq!(words(&out[0]), [6, 7]);
}
