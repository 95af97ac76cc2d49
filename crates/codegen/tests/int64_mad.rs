//! Signed 64-bit `div`/`rem`, 64-bit `mul.hi`, `mad` beyond `IMAD` (`.hi`, `.wide`, 64-bit)
//! and the carry-chain multiply-adds `mad.cc`/`madc` on both executors, bit for bit, and
//! against PTX's definitions written here with 128-bit arithmetic (`x / 0` all ones, `x % 0`
//! is `x`, `MIN / -1` wraps, as docs/spec-notes.md records for `div`/`rem`).

mod common;
use common::*;

const KERNEL: &str = r#".version 7.0
.target sm_20
.address_size 64
.visible .entry wide(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 out)
{
	.reg .b32 %r<24>;
	.reg .b64 %rd<24>;
	ld.param.u64 %rd1, [pa];
	ld.param.u64 %rd2, [pb];
	ld.param.u64 %rd3, [pc];
	ld.param.u64 %rd20, [out];
	mov.u32 %r1, %ctaid.x;
	mov.u32 %r2, %ntid.x;
	mov.u32 %r3, %tid.x;
	mad.lo.s32 %r4, %r1, %r2, %r3;
	mul.wide.u32 %rd4, %r4, 8;
	add.s64 %rd7, %rd1, %rd4;
	ld.global.u64 %rd5, [%rd7];
	add.s64 %rd7, %rd2, %rd4;
	ld.global.u64 %rd6, [%rd7];
	add.s64 %rd7, %rd3, %rd4;
	ld.global.u64 %rd8, [%rd7];
	mul.wide.u32 %rd4, %r4, 160;
	add.s64 %rd7, %rd20, %rd4;
	div.s64 %rd9, %rd5, %rd6;
	st.global.u64 [%rd7], %rd9;
	rem.s64 %rd9, %rd5, %rd6;
	st.global.u64 [%rd7+8], %rd9;
	div.s64 %rd9, %rd5, -7;
	st.global.u64 [%rd7+16], %rd9;
	rem.s64 %rd9, %rd5, 10;
	st.global.u64 [%rd7+24], %rd9;
	mul.hi.u64 %rd9, %rd5, %rd6;
	st.global.u64 [%rd7+32], %rd9;
	mul.hi.s64 %rd9, %rd5, %rd6;
	st.global.u64 [%rd7+40], %rd9;
	mul.hi.s64 %rd9, %rd5, -3;
	st.global.u64 [%rd7+48], %rd9;
	mad.lo.u64 %rd9, %rd5, %rd6, %rd8;
	st.global.u64 [%rd7+56], %rd9;
	mad.hi.s64 %rd9, %rd5, %rd6, %rd8;
	st.global.u64 [%rd7+64], %rd9;
	// (a·b + c) as 128 bits through a 64-bit chain.
	mad.lo.cc.u64 %rd9, %rd5, %rd6, %rd8;
	madc.hi.u64 %rd10, %rd5, %rd6, 0;
	st.global.u64 [%rd7+72], %rd9;
	st.global.u64 [%rd7+80], %rd10;
	// 32-bit: (al·bl + cl) + (ah·bl + ch)·2^32 style chain, its final carry as a word.
	mov.b64 {%r5, %r6}, %rd5;
	mov.b64 {%r7, %r8}, %rd6;
	mov.b64 {%r9, %r10}, %rd8;
	mad.lo.cc.u32 %r11, %r5, %r7, %r9;
	madc.hi.cc.u32 %r12, %r5, %r7, %r10;
	addc.u32 %r13, 0, 0;
	mov.b64 %rd11, {%r11, %r12};
	st.global.u64 [%rd7+88], %rd11;
	mad.hi.u32 %r14, %r5, %r7, %r9;
	mad.hi.s32 %r15, %r6, %r8, %r10;
	mov.b64 %rd11, {%r14, %r15};
	st.global.u64 [%rd7+96], %rd11;
	mad.wide.s32 %rd12, %r6, %r8, %rd8;
	st.global.u64 [%rd7+104], %rd12;
	mad.wide.u32 %rd12, %r5, %r7, %rd8;
	st.global.u64 [%rd7+112], %rd12;
	// A carry kept across a 64-bit high product and a plain 64-bit mad inside the chain.
	add.cc.u32 %r16, %r5, %r7;
	mul.hi.u64 %rd13, %rd5, %rd6;
	mad.lo.s64 %rd14, %rd5, %rd6, 12345;
	addc.cc.u32 %r17, %r6, %r8;
	madc.lo.u32 %r18, %r5, %r8, %r13;
	mov.b64 %rd11, {%r16, %r17};
	st.global.u64 [%rd7+120], %rd11;
	xor.b64 %rd15, %rd13, %rd14;
	st.global.u64 [%rd7+128], %rd15;
	mov.b64 %rd11, {%r18, %r13};
	st.global.u64 [%rd7+136], %rd11;
	// madc with a signed high product and an immediate addend.
	mad.hi.cc.s32 %r19, %r6, %r8, %r9;
	madc.lo.cc.s64 %rd16, %rd5, -5, %rd8;
	madc.hi.s32 %r20, %r8, %r6, 7;
	st.global.u64 [%rd7+144], %rd16;
	mov.b64 %rd11, {%r19, %r20};
	st.global.u64 [%rd7+152], %rd11;
	ret;
}
"#;

const SLOTS: usize = 20;

fn sdiv(a: i64, b: i64) -> i64 {
    if b == 0 {
        -1
    } else {
        a.wrapping_div(b)
    }
}

fn srem(a: i64, b: i64) -> i64 {
    if b == 0 {
        a
    } else {
        a.wrapping_rem(b)
    }
}

fn uhi(a: u64, b: u64) -> u64 {
    ((u128::from(a) * u128::from(b)) >> 64) as u64
}

fn shi(a: u64, b: u64) -> u64 {
    ((i128::from(a as i64) * i128::from(b as i64)) >> 64) as u64
}

fn lo32(x: u64) -> u32 {
    x as u32
}

fn hi32(x: u64) -> u32 {
    (x >> 32) as u32
}

/// Each slot's meaning, in the kernel's order.
fn expect(a: u64, b: u64, c: u64) -> [u64; SLOTS] {
    let (sa, sb) = (a as i64, b as i64);
    let full = u128::from(a) * u128::from(b) + u128::from(c);
    let (al, ah, bl, bh, cl, ch) = (lo32(a), hi32(a), lo32(b), hi32(b), lo32(c), hi32(c));
    // mad.lo.cc.u32 / madc.hi.cc.u32 / addc: low product + cl, carry into high product + ch.
    let p = u64::from(al) * u64::from(bl);
    let s0 = u64::from(p as u32) + u64::from(cl);
    let s1 = u64::from((p >> 32) as u32) + u64::from(ch) + (s0 >> 32);
    let carry1 = (s1 >> 32) as u32;
    let w = |lo: u32, hi: u32| u64::from(lo) | u64::from(hi) << 32;
    let mad_hi_u32 = ((p >> 32) as u32).wrapping_add(cl);
    let mad_hi_s32 =
        (((i64::from(ah as i32) * i64::from(bh as i32)) >> 32) as u32).wrapping_add(ch);
    // The chain kept across other instructions.
    let t0 = u64::from(al) + u64::from(bl);
    let t1 = u64::from(ah) + u64::from(bh) + (t0 >> 32);
    let madc_lo = al
        .wrapping_mul(bh)
        .wrapping_add(carry1)
        .wrapping_add((t1 >> 32) as u32);
    // mad.hi.cc.s32, madc.lo.cc.s64 with -5, madc.hi.s32 with 7.
    let m0 =
        u64::from(((i64::from(ah as i32) * i64::from(bh as i32)) >> 32) as u32) + u64::from(cl);
    let m1 = u128::from(a.wrapping_mul(-5i64 as u64)) + u128::from(c) + u128::from(m0 >> 32);
    let m2 = (((i64::from(bh as i32) * i64::from(ah as i32)) >> 32) as u32)
        .wrapping_add(7)
        .wrapping_add((m1 >> 64) as u32);
    [
        sdiv(sa, sb) as u64,
        srem(sa, sb) as u64,
        sdiv(sa, -7) as u64,
        srem(sa, 10) as u64,
        uhi(a, b),
        shi(a, b),
        shi(a, -3i64 as u64),
        a.wrapping_mul(b).wrapping_add(c),
        shi(a, b).wrapping_add(c),
        full as u64,
        (full >> 64) as u64,
        w(s0 as u32, s1 as u32),
        w(mad_hi_u32, mad_hi_s32),
        (i64::from(ah as i32) * i64::from(bh as i32)).wrapping_add(c as i64) as u64,
        (u64::from(al) * u64::from(bl)).wrapping_add(c),
        w(t0 as u32, t1 as u32),
        uhi(a, b) ^ a.wrapping_mul(b).wrapping_add(12345),
        w(madc_lo, carry1),
        m1 as u64,
        w(m0 as u32, m2),
    ]
}

#[test]
fn wide_multiply_adds_and_signed_64_bit_division_agree_with_the_spec() {
    let edges = int64_edges(40, 0x2545_f491_4f6c_dd1d);
    let (mut a, mut b, mut c) = (Vec::new(), Vec::new(), Vec::new());
    for (i, &x) in edges.iter().enumerate() {
        for (j, &y) in edges.iter().enumerate() {
            a.push(x);
            b.push(y);
            c.push(edges[(i * 7 + j * 3) % edges.len()]);
        }
    }
    let n = a.len();
    let out = run_both(
        "int64_mad.ptx",
        KERNEL,
        &spec(
            "wide",
            (n as u32).div_ceil(64),
            64,
            vec![u64s(&a), u64s(&b), u64s(&c), zeros32(2 * SLOTS * n)],
        ),
    );
    let got = words(&out[3]);
    for i in 0..n {
        let want = expect(a[i], b[i], c[i]);
        for (k, &wv) in want.iter().enumerate() {
            let at = 2 * (SLOTS * i + k);
            let v = u64::from(got[at]) | u64::from(got[at + 1]) << 32;
            assert_eq!(
                v, wv,
                "slot {k}: a = {:#x}, b = {:#x}, c = {:#x}",
                a[i], b[i], c[i]
            );
        }
    }
}

#[test]
fn carry_clobbering_sequences_inside_a_chain_are_errors() {
    for (inst, ty) in [
        ("div.u64 %rd3, %rd1, %rd2;", "u64"),
        ("rem.s64 %rd3, %rd1, %rd2;", "s64"),
        ("div.rn.f64 %fd3, %fd1, %fd2;", "f64"),
        ("sqrt.rz.f64 %fd3, %fd1;", "f64"),
    ] {
        let text = format!(
            ".version 7.0\n.target sm_20\n.address_size 64\n.visible .entry k(.param .u64 out)\n{{\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n\t.reg .f64 %fd<4>;\n\tld.param.u64 %rd1, [out];\n\tmov.u32 %r1, %tid.x;\n\tmov.b64 %fd1, %rd1;\n\tmov.b64 %fd2, %rd1;\n\tadd.cc.u32 %r2, %r1, %r1;\n\t{inst}\n\taddc.u32 %r3, %r1, %r1;\n\tst.global.u32 [%rd1], %r3;\n\tret;\n}}\n"
        );
        let file = diag::SourceFile::new("k.ptx", &text);
        let (m, d) = check::check_source(&file);
        assert!(!diag::has_errors(&d), "{}", diag::render(&file, &d));
        let errs = codegen::compile_module(&m.expect("module"), &file)
            .err()
            .unwrap_or_else(|| panic!("`{inst}` ({ty}) inside a chain must not translate"));
        let shown = diag::render(&file, &errs);
        assert!(
            shown.contains("carry flag of a pending .cc chain"),
            "{shown}"
        );
    }
}
