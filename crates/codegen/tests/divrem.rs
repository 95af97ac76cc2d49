//! Integer `div`/`rem` on both executors, bit for bit, and against the PTX semantics written
//! here (truncating division; `x / 0` all ones, `x % 0 = x`; `MIN / -1 = MIN`, `MIN % -1 = 0`,
//! as docs/spec-notes.md records): every pair of integer edge values plus random pairs.

mod common;
use common::*;

const KERNEL: &str = r#"
.version 7.0
.target sm_20
.address_size 64
.visible .entry divrem(.param .u64 pa, .param .u64 pb, .param .u64 out, .param .u32 n)
{
	.reg .pred %p<3>;
	.reg .b32 %r<12>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [pa];
	ld.param.u64 %rd2, [pb];
	ld.param.u64 %rd3, [out];
	ld.param.u32 %r9, [n];
	mov.u32 %r1, %ctaid.x;
	mov.u32 %r2, %ntid.x;
	mov.u32 %r3, %tid.x;
	mad.lo.s32 %r4, %r1, %r2, %r3;
	setp.ge.u32 %p1, %r4, %r9;
	@%p1 bra DONE;
	mul.wide.u32 %rd4, %r4, 4;
	add.s64 %rd5, %rd1, %rd4;
	ld.global.u32 %r5, [%rd5];
	add.s64 %rd5, %rd2, %rd4;
	ld.global.u32 %r6, [%rd5];
	mul.wide.u32 %rd4, %r4, 40;
	add.s64 %rd6, %rd3, %rd4;
	div.u32 %r7, %r5, %r6;
	st.global.u32 [%rd6+0], %r7;
	rem.u32 %r7, %r5, %r6;
	st.global.u32 [%rd6+4], %r7;
	div.s32 %r7, %r5, %r6;
	st.global.u32 [%rd6+8], %r7;
	rem.s32 %r7, %r5, %r6;
	st.global.u32 [%rd6+12], %r7;
	div.s32 %r7, %r5, -7;
	st.global.u32 [%rd6+16], %r7;
	rem.u32 %r7, %r5, 10;
	st.global.u32 [%rd6+20], %r7;
	div.s32 %r7, -2147483648, %r6;
	st.global.u32 [%rd6+24], %r7;
	rem.s32 %r7, 1000003, %r6;
	st.global.u32 [%rd6+28], %r7;
	setp.lt.u32 %p2, %r5, %r6;
	mov.u32 %r7, 77;
	@%p2 div.u32 %r7, %r6, %r5;
	st.global.u32 [%rd6+32], %r7;
	div.u32 %r7, %r5, 0;
	rem.s32 %r8, %r5, 0;
	add.s32 %r7, %r7, %r8;
	st.global.u32 [%rd6+36], %r7;
DONE:
	ret;
}
"#;

fn sdiv(a: u32, b: u32) -> u32 {
    match b {
        0 => u32::MAX,
        _ => (a as i32).wrapping_div(b as i32) as u32,
    }
}

fn srem(a: u32, b: u32) -> u32 {
    match b {
        0 => a,
        _ => (a as i32).wrapping_rem(b as i32) as u32,
    }
}

fn udiv(a: u32, b: u32) -> u32 {
    a.checked_div(b).unwrap_or(u32::MAX)
}

fn urem(a: u32, b: u32) -> u32 {
    a.checked_rem(b).unwrap_or(a)
}

/// Each row's meaning, in the kernel's order.
fn expect(a: u32, b: u32) -> [u32; 10] {
    [
        udiv(a, b),
        urem(a, b),
        sdiv(a, b),
        srem(a, b),
        sdiv(a, -7i32 as u32),
        urem(a, 10),
        sdiv(0x8000_0000, b),
        srem(1_000_003, b),
        if a < b { udiv(b, a) } else { 77 },
        udiv(a, 0).wrapping_add(srem(a, 0)),
    ]
}

#[test]
fn div_and_rem_agree_on_both_executors_and_with_the_spec() {
    let edges = int_edges(40, 0x2545_f491);
    let mut a = Vec::new();
    let mut b = Vec::new();
    for &x in &edges {
        for &y in &edges {
            a.push(x);
            b.push(y);
        }
    }
    // Random pairs, with divisors of every magnitude (a random value shifted right by a
    // random amount) so small and large quotients both occur.
    let mut s = 0x9e37_79b9u32;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        s
    };
    while a.len() < 32768 {
        let x = next() >> (next() % 32);
        let y = next() >> (next() % 32);
        a.push(x);
        b.push(y);
    }
    let n = a.len() as u32;
    let spec = spec(
        "divrem",
        n.div_ceil(256),
        256,
        vec![u32s(&a), u32s(&b), zeros32(10 * a.len()), value_u32(n)],
    );
    let out = run_both("divrem.ptx", KERNEL, &spec);
    let got = words(&out[2]);
    for i in 0..a.len() {
        let want = expect(a[i], b[i]);
        assert_eq!(
            &got[10 * i..10 * i + 10],
            &want,
            "a = {:#x}, b = {:#x}",
            a[i],
            b[i]
        );
    }
}

#[test]
fn sixty_four_bit_unsigned_div_and_rem_agree_with_the_spec() {
    let text = r#".version 7.0
.target sm_20
.address_size 64
.visible .entry divrem64(.param .u64 pa, .param .u64 pb, .param .u64 out)
{
	.reg .b32 %r<6>;
	.reg .b64 %rd<12>;
	ld.param.u64 %rd1, [pa];
	ld.param.u64 %rd2, [pb];
	ld.param.u64 %rd3, [out];
	mov.u32 %r1, %ctaid.x;
	mov.u32 %r2, %ntid.x;
	mov.u32 %r3, %tid.x;
	mad.lo.s32 %r4, %r1, %r2, %r3;
	mul.wide.u32 %rd4, %r4, 8;
	add.s64 %rd7, %rd1, %rd4;
	ld.global.u64 %rd5, [%rd7];
	add.s64 %rd7, %rd2, %rd4;
	ld.global.u64 %rd6, [%rd7];
	mul.wide.u32 %rd4, %r4, 24;
	add.s64 %rd7, %rd3, %rd4;
	div.u64 %rd8, %rd5, %rd6;
	st.global.u64 [%rd7], %rd8;
	rem.u64 %rd8, %rd5, %rd6;
	st.global.u64 [%rd7+8], %rd8;
	rem.u64 %rd8, %rd5, 1000;
	st.global.u64 [%rd7+16], %rd8;
	ret;
}
"#;
    let mut edges: Vec<u64> = vec![
        0,
        1,
        2,
        3,
        7,
        1000,
        0xffff_ffff,
        0x1_0000_0000,
        0x1_0000_0001,
        0x7fff_ffff_ffff_ffff,
        0x8000_0000_0000_0000,
        0xffff_ffff_ffff_fffe,
        0xffff_ffff_ffff_ffff,
    ];
    let mut s = 0x2545_f491_4f6c_dd1du64;
    while edges.len() < 32 {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        edges.push(s >> (s % 64));
    }
    let (a, b) = all_pairs(&edges);
    let n = a.len();
    let out = run_both(
        "divrem64.ptx",
        text,
        &spec(
            "divrem64",
            n as u32 / 64,
            64,
            vec![u64s(&a), u64s(&b), zeros32(6 * n)],
        ),
    );
    let got = words(&out[2]);
    for i in 0..n {
        let w = |k: usize| u64::from(got[6 * i + 2 * k]) | u64::from(got[6 * i + 2 * k + 1]) << 32;
        let (x, y) = (a[i], b[i]);
        assert_eq!(
            w(0),
            x.checked_div(y).unwrap_or(u64::MAX),
            "{x:#x} / {y:#x}"
        );
        assert_eq!(w(1), x.checked_rem(y).unwrap_or(x), "{x:#x} % {y:#x}");
        assert_eq!(w(2), x % 1000, "{x:#x} % 1000");
    }
}
