//! `.f16`/`.bf16`/`.f16x2`/`.bf16x2` `atom`/`red` `.add.noftz` and `atom.cas.b16` (32-bit CAS
//! or `LDSLK`/`STSUL` loops on the containing word), and atomics with semantics and scopes
//! (fences around the access): per-row kernels with edge values on both executors, buffers
//! equal bit for bit; many threads adding to one half, checked against the sum computed
//! here (round to nearest even after each addition, written out for binary16 and bfloat16);
//! every pair of edge halves through the shared (`LDSLK`/`STSUL`) and global paths, with 64-
//! and 32-bit addressing, against a half adder written here.

mod common;
use common::*;

/// Half-precision edge patterns (f16 and bf16 zeros, subnormals, normals, maxima,
/// infinities, NaNs).
const EDGES: [u32; 16] = [
    0x0000, 0x8000, 0x0001, 0x03ff, 0x0400, 0x3c00, 0x7bff, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0xfbff,
    0x3f80, 0x7f7f, 0x7f80, 0x0080,
];

fn target_sm90(text: String) -> String {
    text.replace(".version 7.0\n.target sm_20", ".version 7.8\n.target sm_90")
}

/// Words with edge halves in both positions: every (i, j) pair.
fn edge_words() -> (Vec<u32>, Vec<u32>) {
    let mut a = Vec::new();
    let mut b = Vec::new();
    for i in 0..16 {
        for j in 0..16 {
            a.push(EDGES[i] | EDGES[(i + 3) % 16] << 16);
            b.push(EDGES[j] | EDGES[(j + 5) % 16] << 16);
        }
    }
    (a, b)
}

#[test]
fn half_atomics_on_edge_values_agree() {
    // Row of thread t (8 words): w0–w4 start as a; then the atomics; w5–w7 the old values.
    let body = "\tst.global.v4.u32 [%rd7], {%r5, %r5, %r5, %r5};\n\
        \tst.global.u32 [%rd7+16], %r5;\n\
        \tmov.b32 {%h1, %h2}, %r6;\n\tmov.b32 {%h4, %h5}, %r5;\n\
        \tatom.global.add.noftz.f16 %h3, [%rd7], %h1;\n\
        \tred.global.add.noftz.bf16 [%rd7+6], %h2;\n\
        \tatom.global.add.noftz.f16x2 %r7, [%rd7+8], %r6;\n\
        \tred.global.add.noftz.bf16x2 [%rd7+12], %r6;\n\
        \tand.b32 %r8, %r4, 1;\n\tsetp.ne.u32 %p1, %r8, 0;\n\tselp.b16 %h6, %h5, %h1, %p1;\n\
        \tatom.global.cas.b16 %h7, [%rd7+18], %h6, %h2;\n\
        \tcvt.u32.u16 %r9, %h3;\n\tst.global.u32 [%rd7+20], %r9;\n\
        \tst.global.u32 [%rd7+24], %r7;\n\
        \tcvt.u32.u16 %r9, %h7;\n\tst.global.u32 [%rd7+28], %r9;\n\
        \tatom.global.add.noftz.bf16 %h3, [%rd7+16], 0x3f80;\n";
    let text = target_sm90(row_kernel(
        "hatom",
        "\t.reg .b32 %r<10>;\n\t.reg .b64 %rd<8>;\n\t.reg .b16 %h<8>;\n\t.reg .pred %p<2>;\n",
        &[("u32", "%r5", 4), ("u32", "%r6", 4)],
        32,
        body,
    ));
    let (a, b) = edge_words();
    let out = run_row_pairs("hatom", &text, 8, &a, &b);
    // A few rows against the definitions: 1.0 + 1.0 = 2.0 (f16 0x4000), max + max = inf.
    for (i, (&x, &y)) in a.iter().zip(&b).enumerate() {
        let row = &out[8 * i..8 * i + 8];
        assert_eq!(row[5], x & 0xffff, "atom returns the old half");
        assert_eq!(row[6], x, "atom.f16x2 returns the old word");
        if x & 0xffff == 0x3c00 && y & 0xffff == 0x3c00 {
            assert_eq!(row[0] & 0xffff, 0x4000);
        }
        if x & 0xffff == 0x7bff && y & 0xffff == 0x7bff {
            assert_eq!(row[0] & 0xffff, 0x7c00);
        }
        // inf + -inf is the canonical NaN.
        if x & 0xffff == 0x7c00 && y & 0xffff == 0xfc00 {
            assert_eq!(row[0] & 0xffff, 0x7fff);
        }
        // The half an f16 atom does not address is untouched.
        assert_eq!(row[0] >> 16, x >> 16);
        assert_eq!(row[1] & 0xffff, x & 0xffff);
    }
}

/// Round-to-nearest-even of an f64 to binary16 or bfloat16 bits (finite, positive values
/// with a normal result suffice here).
fn round_half(v: f64, frac_bits: u32, bias: i32) -> u32 {
    let e = v.log2().floor() as i32;
    let ulp = 2f64.powi(e - frac_bits as i32);
    let q = v / ulp;
    let r = q.floor()
        + if q - q.floor() > 0.5 || (q - q.floor() == 0.5 && q.floor() % 2.0 == 1.0) {
            1.0
        } else {
            0.0
        };
    let v = r * ulp;
    let e = v.log2().floor() as i32;
    let frac = (v / 2f64.powi(e) - 1.0) * 2f64.powi(frac_bits as i32);
    (((e + bias) as u32) << frac_bits) | frac as u32
}

fn half_value(bits: u32, frac_bits: u32, bias: i32) -> f64 {
    let e = (bits >> frac_bits) as i32 - bias;
    (1.0 + f64::from(bits & ((1 << frac_bits) - 1)) / 2f64.powi(frac_bits as i32)) * 2f64.powi(e)
}

const MANY: &str = r#".version 7.8
.target sm_90
.address_size 64
.visible .entry many(.param .u64 out, .param .u64 olds)
{
	.reg .b32 %r<10>;
	.reg .b64 %rd<8>;
	.reg .b16 %h<4>;
	.reg .pred %p<2>;
	.shared .align 4 .b32 s[2];
	ld.param.u64 %rd1, [out];
	ld.param.u64 %rd2, [olds];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %ntid.x;
	mad.lo.u32 %r4, %r2, %r3, %r1;
	setp.eq.u32 %p1, %r1, 0;
	@%p1 st.shared.u32 [s], 0;
	@%p1 st.shared.u32 [s+4], 0;
	bar.sync 0;
	mov.b16 %h1, 0x3c00;
	atom.global.add.noftz.f16 %h2, [%rd1], %h1;
	red.global.add.noftz.bf16 [%rd1+2], 0x3f80;
	atom.shared.add.noftz.f16 %h3, [s+2], %h1;
	mov.b32 %r8, 0x3f803f80;
	red.shared.add.noftz.bf16x2 [s+4], %r8;
	atom.acq_rel.gpu.global.add.u32 %r5, [%rd1+4], 1;
	red.release.cta.shared.add.u32 [s], 1;
	cvt.u32.u16 %r6, %h2;
	mul.wide.u32 %rd3, %r4, 4;
	add.s64 %rd4, %rd2, %rd3;
	st.global.u32 [%rd4], %r6;
	bar.sync 0;
	@%p1 ld.shared.u32 %r6, [s];
	@%p1 ld.shared.u32 %r7, [s+4];
	@%p1 red.global.add.u32 [%rd1+8], %r6;
	@%p1 st.global.u32 [%rd1+12], %r7;
	ret;
}
"#;

#[test]
fn many_threads_adding_to_one_half() {
    const CTAS: u32 = 2;
    const THREADS: u32 = 256;
    let n = (CTAS * THREADS) as usize;
    let s = spec("many", CTAS, THREADS, vec![u32s(&[0, 0, 0, 0]), zeros32(n)]);
    // The order in which lanes win differs between the executors (the CAS loop retries), so
    // the old values each thread got may differ; the sums and the set of old values may not.
    let (m, file, cubin) = compile("many.ptx", MANY);
    let ptx = exec::run(&m, &file, &s, &exec::RunOptions::default()).expect("PTX executor");
    let sass = fermi_exec::run_module(&cubin, &s, &fermi_exec::Options::default())
        .expect("Fermi executor");
    let w = words(&ptx.buffers[0].bytes());
    assert_eq!(w, words(&sass.buffers[0].bytes()), "the sums");
    let olds = words(&sass.buffers[1].bytes());
    let mut ptx_olds = words(&ptx.buffers[1].bytes());
    ptx_olds.sort_unstable();
    // f16: 512 additions of 1.0 are exact (512 = 0x6000).
    assert_eq!(w[0] & 0xffff, 0x6000);
    // bf16: x ← round(x + 1) stalls at 256 (257 is a tie, to the even 256).
    let mut x = 0u32;
    for _ in 0..n {
        let v = if x == 0 { 0.0 } else { half_value(x, 7, 127) };
        x = round_half(v + 1.0, 7, 127);
    }
    assert_eq!(x, 0x4380);
    assert_eq!(w[0] >> 16, x);
    assert_eq!(w[1], n as u32, "the ordered 32-bit atom");
    // Each CTA's shared counters: bf16x2 halves stalling at 256.
    let mut y = 0u32;
    for _ in 0..THREADS {
        let v = if y == 0 { 0.0 } else { half_value(y, 7, 127) };
        y = round_half(v + 1.0, 7, 127);
    }
    // s[0]: a u32 count of 256 in its low half, an f16 sum of 256 ones in its high half.
    let per_cta = round_half(f64::from(THREADS), 10, 15) << 16 | THREADS;
    assert_eq!(w[2], per_cta.wrapping_mul(CTAS));
    assert_eq!(w[3], y | y << 16);
    // The old values atom returned: every f16 integer 0..511 once.
    let mut got: Vec<u32> = olds.clone();
    got.sort_unstable();
    let want: Vec<u32> = (0..n as u32)
        .map(|k| {
            if k == 0 {
                0
            } else {
                round_half(f64::from(k), 10, 15)
            }
        })
        .collect();
    let mut want_sorted = want;
    want_sorted.sort_unstable();
    assert_eq!(got, want_sorted);
    assert_eq!(ptx_olds, want_sorted);
}

const ODD: &str = r#".version 7.8
.target sm_90
.address_size 64
.visible .entry odd(.param .u64 out, .param .u32 k)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<4>;
	.reg .b16 %h<4>;
	ld.param.u64 %rd1, [out];
	ld.param.u32 %r1, [k];
	cvt.u64.u32 %rd2, %r1;
	add.s64 %rd3, %rd1, %rd2;
	atom.global.add.noftz.f16 %h1, [%rd3], 0x3c00;
	ret;
}
"#;

#[test]
fn a_misaligned_half_atomic_faults_both_executors() {
    let (m, file, cubin) = compile("odd.ptx", ODD);
    for (k, faults) in [(0u32, false), (2, false), (1, true), (3, true)] {
        let s = spec("odd", 1, 32, vec![u32s(&[0, 0]), value_u32(k)]);
        let ptx = exec::run(&m, &file, &s, &exec::RunOptions::default());
        let sass = fermi_exec::run_module(&cubin, &s, &fermi_exec::Options::default());
        assert_eq!(ptx.is_err(), faults, "PTX executor, offset {k}");
        assert_eq!(
            sass.is_err(),
            faults,
            "Fermi executor, offset {k}: {sass:?}"
        );
    }
}

/// `tests/kernels/atomics16.ptx` (256 threads contending on global and shared halves): the
/// sums, exact whatever the order, on both executors; the first-try old values depend on the
/// order in which lanes win, so only their range is checked.
#[test]
fn the_atomics16_kernel_agrees_with_its_meaning() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/kernels/atomics16.ptx"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let (m, file, cubin) = compile("atomics16.ptx", &text);
    let s = spec("atomics16", 1, 256, vec![u32s(&[0; 6 + 256])]);
    let ptx = exec::run(&m, &file, &s, &exec::RunOptions::default()).expect("PTX executor");
    let sass = fermi_exec::run_module(&cubin, &s, &fermi_exec::Options::default())
        .expect("Fermi executor");
    let f16 = |e: u32| (e + 15) << 10;
    let bf16 = |e: u32| (e + 127) << 7;
    let pair = |lo: u32, hi: u32| lo | hi << 16;
    let want = [
        pair(f16(7), f16(7)),
        pair(f16(8), f16(7)),
        pair(bf16(8), bf16(9)),
        pair(128, 128),
        pair(128, 128),
        pair(f16(5), f16(5)),
    ];
    for g in [
        words(&ptx.buffers[0].bytes()),
        words(&sass.buffers[0].bytes()),
    ] {
        assert_eq!(&g[..6], &want);
        assert!(g[6..].iter().all(|&v| v < 128));
    }
}

#[test]
fn guarded_half_atomics_touch_only_the_lanes_whose_guard_holds() {
    // Odd threads add b's halves to their word (global) and to a shared word; even threads'
    // words stay a.
    let body = "\tst.global.u32 [%rd7], %r5;\n\tand.b32 %r8, %r4, 1;\n\
        \tsetp.ne.u32 %p1, %r8, 0;\n\tmov.b32 {%h1, %h2}, %r6;\n\
        \t@%p1 red.global.add.noftz.f16x2 [%rd7], %r6;\n\
        \tmov.u32 %r9, %tid.x;\n\tshl.b32 %r9, %r9, 2;\n\tmov.u32 %r3, s;\n\
        \tadd.u32 %r9, %r9, %r3;\n\tst.shared.u32 [%r9], %r5;\n\
        \t@%p1 atom.shared.add.noftz.bf16 %h3, [%r9], %h1;\n\
        \tld.shared.u32 %r7, [%r9];\n\tst.global.u32 [%rd7+4], %r7;\n";
    let text = target_sm90(row_kernel(
        "hguard",
        "\t.reg .b32 %r<10>;\n\t.reg .b64 %rd<8>;\n\t.reg .b16 %h<4>;\n\t.reg .pred %p<2>;\n\
         \t.shared .align 4 .b32 s[64];\n",
        &[("u32", "%r5", 4), ("u32", "%r6", 4)],
        8,
        body,
    ));
    let (a, b) = edge_words();
    let out = run_row_pairs("hguard", &text, 2, &a, &b);
    for i in (0..a.len()).step_by(2) {
        assert_eq!(
            &out[2 * i..2 * i + 2],
            &[a[i], a[i]],
            "even thread {i} untouched"
        );
    }
}

/// The bits of an IEEE half format (`frac_bits` fraction bits, exponent `bias`; f16 10/15,
/// bf16 7/127) as an f64 (every such value is one); `None` for NaN.
fn decode_half(bits: u32, frac_bits: u32, bias: i32) -> Option<f64> {
    let exp_max = (1u32 << (15 - frac_bits)) - 1;
    let (e, f) = ((bits >> frac_bits) & exp_max, bits & ((1 << frac_bits) - 1));
    let sign = if bits & 0x8000 != 0 { -1.0 } else { 1.0 };
    let q = 2f64.powi(1 - bias - frac_bits as i32); // the least subnormal
    Some(
        sign * match (e, f) {
            (e, 0) if e == exp_max => f64::INFINITY,
            (e, _) if e == exp_max => return None,
            (0, f) => f64::from(f) * q,
            (e, f) => f64::from(f | 1 << frac_bits) * q * 2f64.powi(e as i32 - 1),
        },
    )
}

/// `v` rounded to nearest even in the half format, subnormals kept, overflow to ∞.
fn encode_half(v: f64, frac_bits: u32, bias: i32) -> u32 {
    let sign = if v.is_sign_negative() { 0x8000 } else { 0 };
    let a = v.abs();
    let exp_max = (1u32 << (15 - frac_bits)) - 1;
    if a.is_infinite() {
        return sign | exp_max << frac_bits;
    }
    // The spacing of the format at `a`: that of the subnormals below the normal range.
    let e = if a == 0.0 {
        1 - bias
    } else {
        ((a.to_bits() >> 52) as i32 - 1023).max(1 - bias)
    };
    let ulp = 2f64.powi(e - frac_bits as i32);
    let x = a / ulp; // exact: a power-of-two scaling, below 2^53
    let mut r = x.floor();
    if x - r > 0.5 || (x - r == 0.5 && r % 2.0 == 1.0) {
        r += 1.0;
    }
    // `r` significand units of `ulp`: below 2^frac_bits a subnormal (its bits are `r`),
    // else a normal number whose rounding may have carried into the next binade.
    let (mut r, mut e) = (r as u32, e);
    if r < 1 << frac_bits {
        return sign | r;
    }
    if r == 2 << frac_bits {
        r >>= 1;
        e += 1;
    }
    let biased = (e + bias) as u32;
    if biased >= exp_max {
        return sign | exp_max << frac_bits;
    }
    sign | biased << frac_bits | (r - (1 << frac_bits))
}

/// `atom.add.noftz` of one half, computed here: the sum of the two values in f64 (exact for
/// f16; for bf16 one rounding to 53 bits, which the final rounding to 8 bits does not
/// disturb since 53 ≥ 2·8 + 2, Figueroa 1995), rounded to nearest even; a NaN result is the
/// canonical `0x7fff` (ops/src/half.rs: what NVIDIA hardware writes).
fn add_half(x: u32, y: u32, bf16: bool) -> u32 {
    let (frac_bits, bias) = if bf16 { (7, 127) } else { (10, 15) };
    match (
        decode_half(x, frac_bits, bias),
        decode_half(y, frac_bits, bias),
    ) {
        (Some(a), Some(b)) if !(a + b).is_nan() => encode_half(a + b, frac_bits, bias),
        _ => 0x7fff,
    }
}

/// Both halves of two words, each added as `add_half` does.
fn add_halves(x: u32, y: u32, bf16_lo: bool, bf16_hi: bool) -> u32 {
    add_half(x & 0xffff, y & 0xffff, bf16_lo) | add_half(x >> 16, y >> 16, bf16_hi) << 16
}

/// Shared half atomics (the `LDSLK`/`STSUL` path) and global ones, with `.address_size`
/// `bits`: 7 words per thread (see [`half_atomics_on_edges_in_shared_memory`]).
fn shared_half_kernel(bits: u32) -> String {
    let a = format!("u{bits}");
    let wide = if bits == 64 {
        "mul.wide.u32"
    } else {
        "mul.lo.u32"
    };
    format!(
        ".version 7.8\n.target sm_90\n.address_size {bits}\n\
         .visible .entry hs(.param .{a} pa, .param .{a} pb, .param .{a} out)\n{{\n\
         \t.reg .b32 %r<12>;\n\t.reg .b{bits} %ra<8>;\n\t.reg .b16 %h<4>;\n\
         \t.shared .align 4 .b32 s[128];\n\
         \tld.param.{a} %ra1, [pa];\n\tld.param.{a} %ra2, [pb];\n\tld.param.{a} %ra3, [out];\n\
         \tmov.u32 %r1, %ctaid.x;\n\tmov.u32 %r2, %ntid.x;\n\tmov.u32 %r3, %tid.x;\n\
         \tmad.lo.s32 %r4, %r1, %r2, %r3;\n\
         \t{wide} %ra4, %r4, 4;\n\
         \tadd.{a} %ra5, %ra1, %ra4;\n\tld.global.u32 %r5, [%ra5];\n\
         \tadd.{a} %ra5, %ra2, %ra4;\n\tld.global.u32 %r6, [%ra5];\n\
         \t{wide} %ra4, %r4, 28;\n\tadd.{a} %ra7, %ra3, %ra4;\n\
         \tmov.u32 %r9, s;\n\tshl.b32 %r10, %r3, 3;\n\tadd.u32 %r9, %r9, %r10;\n\
         \tst.shared.u32 [%r9], %r5;\n\tst.shared.u32 [%r9+4], %r5;\n\
         \tmov.b32 {{%h1, %h2}}, %r6;\n\
         \tatom.shared.add.noftz.f16 %h3, [%r9], %h1;\n\
         \tred.shared.add.noftz.bf16 [%r9+2], %h2;\n\
         \tatom.shared.add.noftz.bf16x2 %r7, [%r9+4], %r6;\n\
         \tld.shared.u32 %r8, [%r9];\n\tst.global.u32 [%ra7], %r8;\n\
         \tld.shared.u32 %r8, [%r9+4];\n\tst.global.u32 [%ra7+4], %r8;\n\
         \tcvt.u32.u16 %r8, %h3;\n\tst.global.u32 [%ra7+8], %r8;\n\
         \tst.global.u32 [%ra7+12], %r7;\n\
         \tst.global.u32 [%ra7+16], %r5;\n\
         \tatom.global.add.noftz.f16x2 %r8, [%ra7+16], %r6;\n\
         \tst.global.u32 [%ra7+20], %r5;\n\
         \tatom.global.add.noftz.bf16 %h3, [%ra7+22], %h2;\n\
         \tcvt.u32.u16 %r8, %h3;\n\tst.global.u32 [%ra7+24], %r8;\n\
         \tret;\n}}\n"
    )
}

/// Every pair of edge halves (±0, subnormals, the least normal, 1.0, the largest finite
/// values, whose sum overflows to ∞, ±∞ and NaNs, of both formats) added by shared and
/// global half atomics, with 64- and 32-bit addressing, on both executors, against
/// `add_half`: words 0–1 the shared words after `atom.f16` on the low half and `red.bf16` on
/// the high one, and after `atom.bf16x2`; 2–3 those atoms' old values; 4 the global word
/// after `atom.f16x2`; 5 after `atom.bf16` on its high half; 6 that atom's old half.
#[test]
fn half_atomics_on_edges_in_shared_memory() {
    let (a, b) = edge_words();
    for bits in [64, 32] {
        let out = run_row_pairs("hs", &shared_half_kernel(bits), 7, &a, &b);
        for (i, (&x, &y)) in a.iter().zip(&b).enumerate() {
            let want = [
                add_halves(x, y, false, true),
                add_halves(x, y, true, true),
                x & 0xffff,
                x,
                add_halves(x, y, false, false),
                x & 0xffff | add_half(x >> 16, y >> 16, true) << 16,
                x >> 16,
            ];
            assert_eq!(
                &out[7 * i..7 * i + 7],
                &want,
                ".address_size {bits}: a = {x:#010x}, b = {y:#010x}"
            );
        }
    }
}

#[test]
fn the_half_reference_rounds_as_ieee_says() {
    // Values fixed by the formats' definitions, independent of the encoder's loop.
    assert_eq!(add_half(0x3c00, 0x3c00, false), 0x4000); // 1 + 1 = 2
    assert_eq!(add_half(0x7bff, 0x7bff, false), 0x7c00); // 65504 · 2 overflows
    assert_eq!(add_half(0x7bff, 0x0001, false), 0x7bff); // + 2^-24: no change
    assert_eq!(add_half(0x03ff, 0x0001, false), 0x0400); // largest subnormal + least = 2^-14
    assert_eq!(add_half(0x8000, 0x0000, false), 0x0000); // −0 + +0 = +0
    assert_eq!(add_half(0x8000, 0x8000, false), 0x8000); // −0 + −0 = −0
    assert_eq!(add_half(0x7c00, 0xfc00, false), 0x7fff); // ∞ − ∞: NaN
    assert_eq!(add_half(0x3c00, 0x1400, false), 0x3c01); // 1 + 2^-10 (one ulp)
    assert_eq!(add_half(0x3c00, 0x0c00, false), 0x3c00); // 1 + 2^-12: below half an ulp
    assert_eq!(add_half(0x3c00, 0x1000, false), 0x3c00); // 1 + 2^-11: a tie, to even 1
    assert_eq!(add_half(0x3c01, 0x1000, false), 0x3c02); // (1 + 2^-10) + 2^-11: to even
    assert_eq!(add_half(0x3f80, 0x3f80, true), 0x4000); // bf16 1 + 1 = 2
    assert_eq!(add_half(0x7f7f, 0x7f7f, true), 0x7f80); // bf16 max · 2 overflows
    assert_eq!(add_half(0x3f80, 0x3b80, true), 0x3f80); // 1 + 2^-8: a tie, to even 1
    assert_eq!(add_half(0x0001, 0x0001, true), 0x0002); // bf16 subnormals add exactly
}
