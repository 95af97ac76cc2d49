//! `atom`/`red` on global memory on both executors: each thread works on its own words (so
//! the returned old values are deterministic) with every operation, plus one counter all
//! threads add to; old values and final memory are checked against the PTX definitions.

mod common;
use common::*;

const OPS: &[&str] = &[
    "atom.global.add.u32 %r7, [%rd8], %r6;",
    "atom.global.min.s32 %r7, [%rd8], %r6;",
    "atom.global.max.u32 %r7, [%rd8], %r6;",
    "atom.global.inc.u32 %r7, [%rd8], %r6;",
    "atom.global.dec.u32 %r7, [%rd8], %r6;",
    "atom.global.and.b32 %r7, [%rd8], %r6;",
    "atom.global.or.b32 %r7, [%rd8], %r6;",
    "atom.global.xor.b32 %r7, [%rd8], %r6;",
    "atom.global.exch.b32 %r7, [%rd8], %r6;",
    "atom.global.cas.b32 %r7, [%rd8], %r5, %r6;",
];

fn apply(i: usize, x: u32, y: u32) -> u32 {
    match i {
        0 => x.wrapping_add(y),
        1 => (x as i32).min(y as i32) as u32,
        2 => x.max(y),
        3 => {
            if x >= y {
                0
            } else {
                x + 1
            }
        }
        4 => {
            if x == 0 || x > y {
                y
            } else {
                x - 1
            }
        }
        5 => x & y,
        6 => x | y,
        7 => x ^ y,
        // exch, and cas whose compare value (x) equals the old value: both store y.
        _ => y,
    }
}

#[test]
fn global_atomics_agree_with_the_spec() {
    let mut body = String::new();
    for (i, op) in OPS.iter().enumerate() {
        body += &format!(
            "\tadd.s64 %rd8, %rd6, {};\n\t{op}\n\tst.global.u32 [%rd7+{}], %r7;\n",
            4 * i,
            4 * i
        );
    }
    let n_ops = OPS.len();
    let text = format!(
        r#".version 7.0
.target sm_20
.address_size 64
.visible .entry atomics(.param .u64 pa, .param .u64 pb, .param .u64 mem, .param .u64 old, .param .u64 counter)
{{
	.reg .b32 %r<10>;
	.reg .b64 %rd<10>;
	ld.param.u64 %rd1, [pa];
	ld.param.u64 %rd2, [pb];
	mov.u32 %r1, %ctaid.x;
	mov.u32 %r2, %ntid.x;
	mov.u32 %r3, %tid.x;
	mad.lo.s32 %r4, %r1, %r2, %r3;
	mul.wide.u32 %rd4, %r4, 4;
	add.s64 %rd5, %rd1, %rd4;
	ld.global.u32 %r5, [%rd5];
	add.s64 %rd5, %rd2, %rd4;
	ld.global.u32 %r6, [%rd5];
	mul.wide.u32 %rd4, %r4, {stride};
	ld.param.u64 %rd6, [mem];
	add.s64 %rd6, %rd6, %rd4;
	ld.param.u64 %rd7, [old];
	add.s64 %rd7, %rd7, %rd4;
{body}	ld.param.u64 %rd9, [counter];
	atom.global.add.u32 %r8, [%rd9], 1;
	red.global.add.u32 [%rd9+4], %r4;
	ret;
}}
"#,
        stride = 4 * n_ops
    );
    let edges = int_edges(24, 0x7e57_ab1e);
    let (a, b) = all_pairs(&edges);
    let n = a.len();
    let mem: Vec<u32> = a
        .iter()
        .flat_map(|&x| std::iter::repeat_n(x, n_ops))
        .collect();
    let out = run_both(
        "atomics.ptx",
        &text,
        &spec(
            "atomics",
            n as u32 / 64,
            64,
            vec![
                u32s(&a),
                u32s(&b),
                u32s(&mem),
                zeros32(n_ops * n),
                u32s(&[0, 0]),
            ],
        ),
    );
    let (mem, old, counter) = (words(&out[2]), words(&out[3]), words(&out[4]));
    for t in 0..n {
        for i in 0..n_ops {
            assert_eq!(old[n_ops * t + i], a[t], "op {i} old, thread {t}");
            assert_eq!(
                mem[n_ops * t + i],
                apply(i, a[t], b[t]),
                "op {i} ({}) on {:#x}, {:#x}",
                OPS[i],
                a[t],
                b[t]
            );
        }
    }
    assert_eq!(
        counter,
        vec![n as u32, (0..n as u32).fold(0u32, |s, x| s.wrapping_add(x))]
    );
}

#[test]
fn barrier_reductions_agree_with_the_meaning() {
    // Each thread: popc = number of odd inputs in its CTA, all = every input odd, any = some.
    let text = r#".version 7.0
.target sm_20
.address_size 64
.visible .entry bar_red(.param .u64 in, .param .u64 out)
{
	.reg .pred %p<4>;
	.reg .b32 %r<12>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [in];
	ld.param.u64 %rd4, [out];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %ntid.x;
	mov.u32 %r3, %ctaid.x;
	mad.lo.u32 %r4, %r3, %r2, %r1;
	mul.wide.u32 %rd2, %r4, 4;
	add.s64 %rd3, %rd1, %rd2;
	ld.global.u32 %r5, [%rd3];
	and.b32 %r6, %r5, 1;
	setp.ne.u32 %p1, %r6, 0;
	bar.red.popc.u32 %r7, 0, %p1;
	bar.red.and.pred %p2, 1, %p1;
	bar.red.or.pred %p3, 2, !%p1;
	selp.u32 %r8, 1, 0, %p2;
	selp.u32 %r9, 1, 0, %p3;
	mul.lo.u32 %r10, %r4, 12;
	cvt.u64.u32 %rd5, %r10;
	add.s64 %rd6, %rd4, %rd5;
	st.global.u32 [%rd6], %r7;
	st.global.u32 [%rd6+4], %r8;
	st.global.u32 [%rd6+8], %r9;
	ret;
}
"#;
    // CTA 0: mixed; CTA 1: all odd; CTA 2: all even.
    let mut input = int_edges(128, 0x0dd0_0dd0);
    input.extend((0..128u32).map(|i| 2 * i + 1));
    input.extend((0..128u32).map(|i| 2 * i));
    let out = run_both(
        "bar_red.ptx",
        text,
        &spec("bar_red", 3, 128, vec![u32s(&input), zeros32(3 * 384)]),
    );
    let got = words(&out[1]);
    for cta in 0..3 {
        let odd = input[128 * cta..128 * (cta + 1)]
            .iter()
            .filter(|&&x| x & 1 == 1)
            .count() as u32;
        for t in 0..128 {
            let i = 128 * cta + t;
            assert_eq!(
                &got[3 * i..3 * i + 3],
                &[odd, u32::from(odd == 128), u32::from(odd < 128)],
                "CTA {cta} thread {t}"
            );
        }
    }
}
