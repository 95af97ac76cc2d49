//! 64-bit `atom`/`red` on `.shared` (`LDSLK.64`/`STSUL.64` loop) on both executors, against
//! PTX's definitions written here: per-thread words over all pairs of 16 64-bit edge values
//! (old values and final memory, every operation), and words every thread of the CTA updates
//! at once (colliding addresses): a 64-bit counter whose increments carry across the halves,
//! a signed maximum, an f64 sum of small integers (exact, so order-independent) and an XOR.

mod common;
use common::*;

const ROWS: &[&str] = &[
    "atom.shared.add.u64 %rd12, [%r7], %rd11;",
    "atom.shared.min.u64 %rd12, [%r7], %rd11;",
    "atom.shared.min.s64 %rd12, [%r7], %rd11;",
    "atom.shared.max.u64 %rd12, [%r7], %rd11;",
    "atom.shared.max.s64 %rd12, [%r7], %rd11;",
    "atom.shared.and.b64 %rd12, [%r7], %rd11;",
    "atom.shared.or.b64 %rd12, [%r7], %rd11;",
    "atom.shared.xor.b64 %rd12, [%r7], %rd11;",
    "atom.shared.exch.b64 %rd12, [%r7], %rd11;",
    // Compare with b: stores 0x1234 only where old == b (the diagonal of the pairs).
    "atom.shared.cas.b64 %rd12, [%r7], %rd11, 0x1234;",
    // Compare with the old value itself: always stores b.
    "atom.shared.cas.b64 %rd12, [%r7], %rd10, %rd11;",
    "red.shared.add.u64 [%r7], %rd11;",
    "red.shared.max.s64 [%r7], 0x7fffffff00000000;",
    "red.shared.xor.b64 [%r7], %rd11;",
];

fn apply(row: usize, x: u64, y: u64) -> u64 {
    match row {
        0 | 11 => x.wrapping_add(y),
        1 => x.min(y),
        2 => (x as i64).min(y as i64) as u64,
        3 => x.max(y),
        4 => (x as i64).max(y as i64) as u64,
        12 => (x as i64).max(0x7fff_ffff_0000_0000) as u64,
        5 => x & y,
        6 => x | y,
        7 | 13 => x ^ y,
        9 if x == y => 0x1234,
        9 => x,
        _ => y,
    }
}

const EDGES: [u64; 16] = [
    0,
    1,
    0xffff_ffff,
    0x1_0000_0000,
    0x1_0000_0001,
    0x7fff_ffff,
    0x8000_0000,
    0x7fff_ffff_ffff_ffff,
    0x8000_0000_0000_0000,
    0x8000_0000_0000_0001,
    0xffff_ffff_0000_0000,
    0xffff_ffff_ffff_fffe,
    0xffff_ffff_ffff_ffff,
    0x0123_4567_89ab_cdef,
    0xfedc_ba98_7654_3210,
    0x7fff_ffff_0000_0000,
];

fn kernel() -> String {
    let mut body = String::new();
    for (i, row) in ROWS.iter().enumerate() {
        body += &format!(
            "\tst.shared.u64 [%r7], %rd10;\n\tmov.u64 %rd12, 0;\n\t{row}\n\tld.shared.u64 %rd13, [%r7];\n\
             \tst.global.u64 [%rd6+{}], %rd12;\n\tst.global.u64 [%rd6+{}], %rd13;\n",
            16 * i,
            16 * i + 8
        );
    }
    let per = 16 * ROWS.len() + 8;
    format!(
        r#".version 7.0
.target sm_60
.address_size 64
.visible .entry sa64(.param .u64 pa, .param .u64 pb, .param .u64 out, .param .u64 fin)
{{
	.reg .pred %p<2>;
	.reg .b32 %r<16>;
	.reg .b64 %rd<20>;
	.reg .f64 %fd<4>;
	.shared .align 8 .b64 s[256];
	.shared .align 8 .b64 c[4];
	ld.param.u64 %rd1, [pa];
	ld.param.u64 %rd2, [pb];
	ld.param.u64 %rd3, [out];
	mov.u32 %r3, %tid.x;
	mul.wide.u32 %rd4, %r3, 8;
	add.s64 %rd5, %rd1, %rd4;
	ld.global.u64 %rd10, [%rd5];
	add.s64 %rd5, %rd2, %rd4;
	ld.global.u64 %rd11, [%rd5];
	mov.u32 %r7, s;
	shl.b32 %r8, %r3, 3;
	add.s32 %r7, %r7, %r8;
	setp.eq.u32 %p1, %r3, 0;
	@!%p1 bra START;
	st.shared.u64 [c], 0;
	mov.u64 %rd18, 0x8000000000000000;
	st.shared.u64 [c+8], %rd18;
	st.shared.u64 [c+16], 0;
	st.shared.u64 [c+24], 0;
START:
	bar.sync 0;
	mul.wide.u32 %rd4, %r3, {per};
	add.s64 %rd6, %rd3, %rd4;
{body}	cvt.u64.u32 %rd14, %r3;
	mul.lo.u64 %rd15, %rd14, 0x100000001;
	add.u64 %rd15, %rd15, 0xffffffff;
	atom.shared.add.u64 %rd16, [c], %rd15;
	st.global.u64 [%rd6+{last}], %rd16;
	red.shared.max.s64 [c+8], %rd10;
	cvt.rn.f64.u32 %fd1, %r3;
	red.shared.add.f64 [c+16], %fd1;
	red.shared.xor.b64 [c+24], %rd11;
	bar.sync 0;
	@!%p1 bra DONE;
	ld.param.u64 %rd7, [fin];
	ld.shared.u64 %rd17, [c];
	st.global.u64 [%rd7], %rd17;
	ld.shared.u64 %rd17, [c+8];
	st.global.u64 [%rd7+8], %rd17;
	ld.shared.u64 %rd17, [c+16];
	st.global.u64 [%rd7+16], %rd17;
	ld.shared.u64 %rd17, [c+24];
	st.global.u64 [%rd7+24], %rd17;
DONE:
	ret;
}}
"#,
        last = 16 * ROWS.len()
    )
}

#[test]
fn shared_64_bit_atomics_agree_with_the_spec_and_collide_atomically() {
    let (a, b) = all_pairs(&EDGES);
    let n = a.len();
    assert_eq!(n, 256);
    let per = 2 * ROWS.len() + 1;
    let out = run_both(
        "sa64.ptx",
        &kernel(),
        &spec(
            "sa64",
            1,
            n as u32,
            vec![u64s(&a), u64s(&b), u64s(&vec![0; per * n]), u64s(&[0; 4])],
        ),
    );
    let w: Vec<u64> = words64(&out[2]);
    for i in 0..n {
        let (x, y) = (a[i], b[i]);
        for (r, row) in ROWS.iter().enumerate() {
            let old = if row.starts_with("red") { 0 } else { x };
            assert_eq!(
                (w[per * i + 2 * r], w[per * i + 2 * r + 1]),
                (old, apply(r, x, y)),
                "`{row}` with old {x:#x}, b {y:#x}"
            );
        }
    }
    // The colliding counter: thread t adds v(t) = t·(2^32 + 1) + 0xffffffff; every old value
    // is a distinct partial sum, and old + v is another thread's old value or the total.
    let v = |t: u64| t.wrapping_mul(0x1_0000_0001).wrapping_add(0xffff_ffff);
    let total = (0..n as u64).fold(0u64, |s, t| s.wrapping_add(v(t)));
    let olds: Vec<u64> = (0..n).map(|i| w[per * i + per - 1]).collect();
    let set: std::collections::HashSet<u64> = olds.iter().copied().collect();
    assert_eq!(set.len(), n, "two threads read the same partial sum");
    assert!(set.contains(&0));
    for (t, &o) in olds.iter().enumerate() {
        let next = o.wrapping_add(v(t as u64));
        assert!(
            next == total || set.contains(&next),
            "thread {t}: old {o:#x}"
        );
    }
    let fin: Vec<u64> = words64(&out[3]);
    let max = a.iter().map(|&x| x as i64).max().unwrap() as u64;
    let xor = b.iter().fold(0, |s, &y| s ^ y);
    let fsum = (0..n).map(|t| t as f64).sum::<f64>().to_bits();
    assert_eq!(fin, [total, max, fsum, xor]);
}
