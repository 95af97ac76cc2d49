//! 64-bit atomics without an sm_20 `ATOM` form (`min/max .s64/.u64`, `and/or/xor .b64`,
//! `add .f64`), translated to a compare-and-swap loop, on colliding addresses.
//!
//! Each CTA is one warp with its own words; lane `l` works on word `l % 3` of each operation,
//! so about eleven lanes collide on every word, and lanes with `l % 4 == 3` skip the atomics
//! (the loop runs inside a divergent region). Both executors apply a warp's atomics to one
//! address in ascending lane order, and the loop keeps that order (in each round the lowest
//! waiting lane's CAS succeeds, the others see a changed word, unless nothing changed), so the
//! returned old values and final words must agree bit for bit — and with the same updates
//! applied one lane after another in Rust, written here. The same operations as `red` leave
//! the same final words.

mod common;
use common::*;

const OPS: &[&str] = &[
    "min.s64", "max.s64", "min.u64", "max.u64", "and.b64", "or.b64", "xor.b64", "add.f64",
];
const WORDS: usize = 3;
const CTAS: usize = 6;

fn apply(op: &str, old: u64, b: u64) -> u64 {
    match op {
        "min.s64" => (old as i64).min(b as i64) as u64,
        "max.s64" => (old as i64).max(b as i64) as u64,
        "min.u64" => old.min(b),
        "max.u64" => old.max(b),
        "and.b64" => old & b,
        "or.b64" => old | b,
        "xor.b64" => old ^ b,
        // A NaN sum is the canonical f64 NaN on NVIDIA GPUs and in ptxvm (docs/spec-notes.md),
        // not Rust's propagated payload.
        _ => {
            let r = f64::from_bits(old) + f64::from_bits(b);
            if r.is_nan() {
                0x7fff_ffff_ffff_ffff
            } else {
                r.to_bits()
            }
        }
    }
}

/// 64-bit edges (integer extremes, word boundaries, f64 zeros, subnormals, infinities,
/// NaNs, values that round when added) and a pseudo-random tail.
fn edges() -> Vec<u64> {
    let mut v: Vec<u64> = vec![
        0,
        1,
        0xffff_ffff,
        0x1_0000_0000,
        0x7fff_ffff_ffff_ffff,
        0x8000_0000_0000_0000,
        0xffff_ffff_ffff_ffff,
        -7i64 as u64,
        0xffff_ffff_0000_0000,
        1.0f64.to_bits(),
        (-0.0f64).to_bits(),
        f64::INFINITY.to_bits(),
        f64::NEG_INFINITY.to_bits(),
        0x7ff8_0000_0000_0001,
        0x000f_ffff_ffff_ffff,
        (1.0f64 + f64::EPSILON).to_bits(),
        (-1e300f64).to_bits(),
        1e-300f64.to_bits(),
        0x3ca0_0000_0000_0000,
    ];
    let mut s = 0x9e37_79b9_7f4a_7c15u64;
    while v.len() < 32 * CTAS {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        v.push(s >> (s % 48));
    }
    v
}

fn kernel() -> String {
    let mut body = String::new();
    for (i, op) in OPS.iter().enumerate() {
        body += &format!(
            "\tadd.s64 %rd8, %rd6, {};\n\tatom.global.{op} %rd9, [%rd8], %rd5;\n\
             \tst.global.u64 [%rd7+{}], %rd9;\n",
            8 * WORDS * i,
            8 * i
        );
    }
    format!(
        r#".version 7.0
.target sm_70
.address_size 64
.visible .entry atom64(.param .u64 vals, .param .u64 mem, .param .u64 old)
{{
	.reg .pred %p<2>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<12>;
	ld.param.u64 %rd1, [vals];
	ld.param.u64 %rd2, [mem];
	ld.param.u64 %rd3, [old];
	mov.u32 %r1, %ctaid.x;
	mov.u32 %r2, %tid.x;
	mad.lo.u32 %r3, %r1, 32, %r2;
	mul.wide.u32 %rd4, %r3, 8;
	add.s64 %rd5, %rd1, %rd4;
	ld.global.u64 %rd5, [%rd5];
	mul.wide.u32 %rd4, %r3, {old_row};
	add.s64 %rd7, %rd3, %rd4;
	rem.u32 %r4, %r2, {WORDS};
	mad.lo.u32 %r5, %r1, {cta_words}, %r4;
	mul.wide.u32 %rd4, %r5, 8;
	add.s64 %rd6, %rd2, %rd4;
	and.b32 %r6, %r2, 3;
	setp.eq.u32 %p1, %r6, 3;
	@%p1 bra SKIP;
{body}SKIP:
	ret;
}}
"#,
        old_row = 8 * OPS.len(),
        cta_words = WORDS * OPS.len(),
    )
}

#[test]
fn emulated_64_bit_atomics_on_colliding_addresses_agree_with_sequential_updates() {
    let text = kernel();
    let vals = edges();
    // Initial words: edges again, rotated, so every operation starts from varied values.
    let init: Vec<u64> = (0..CTAS * WORDS * OPS.len())
        .map(|i| vals[(7 * i + 3) % vals.len()])
        .collect();
    let olds = vec![0xdead_beef_dead_beefu64; 32 * CTAS * OPS.len()];
    let s = spec(
        "atom64",
        CTAS as u32,
        32,
        vec![u64s(&vals), u64s(&init), u64s(&olds)],
    );
    let out = run_both("atom64.ptx", &text, &s);
    let q = words64;
    let (mem, old) = (q(&out[1]), q(&out[2]));
    let mut want_mem = init.clone();
    let mut want_old = olds.clone();
    for cta in 0..CTAS {
        for lane in 0..32 {
            if lane % 4 == 3 {
                continue;
            }
            let t = 32 * cta + lane;
            for (i, op) in OPS.iter().enumerate() {
                let w = cta * WORDS * OPS.len() + WORDS * i + lane % WORDS;
                want_old[t * OPS.len() + i] = want_mem[w];
                want_mem[w] = apply(op, want_mem[w], vals[t]);
            }
        }
    }
    for (i, (g, w)) in old.iter().zip(&want_old).enumerate() {
        assert_eq!(
            g,
            w,
            "old value of thread {}, {}",
            i / OPS.len(),
            OPS[i % OPS.len()]
        );
    }
    assert_eq!(mem, want_mem, "final words");
}

#[test]
fn emulated_64_bit_reductions_on_colliding_addresses_agree_with_sequential_updates() {
    // The atom kernel with `red` and no old values: the loop keeps its old value in R4:R5.
    let text = kernel()
        .replace("atom.global.", "red.global.")
        .replace("red.global.min.s64 %rd9, ", "red.global.min.s64 ")
        .lines()
        .filter(|l| !l.contains("[%rd7+"))
        .map(|l| {
            OPS.iter().fold(l.to_string(), |l, op| {
                l.replace(
                    &format!("red.global.{op} %rd9, "),
                    &format!("red.global.{op} "),
                )
            })
        })
        .collect::<Vec<_>>()
        .join("\n");
    assert!(!text.contains("%rd9, ["), "{text}");
    let vals = edges();
    let init: Vec<u64> = (0..CTAS * WORDS * OPS.len())
        .map(|i| vals[(5 * i + 1) % vals.len()])
        .collect();
    let s = spec(
        "atom64",
        CTAS as u32,
        32,
        vec![u64s(&vals), u64s(&init), u64s(&[0])],
    );
    let out = run_both("red64.ptx", &text, &s);
    let mem: Vec<u64> = words64(&out[1]);
    let mut want = init.clone();
    for cta in 0..CTAS {
        for lane in (0..32).filter(|l| l % 4 != 3) {
            for (i, op) in OPS.iter().enumerate() {
                let w = cta * WORDS * OPS.len() + WORDS * i + lane % WORDS;
                want[w] = apply(op, want[w], vals[32 * cta + lane]);
            }
        }
    }
    assert_eq!(mem, want, "final words");
    let (_, _, cubin) = compile("red64.ptx", &text);
    let cas = cubin.kernels[0]
        .code
        .iter()
        .filter(|&&w| fermi::isa::disassemble_word(w, 0).starts_with("ATOM.E.CAS"))
        .count();
    assert_eq!(cas, OPS.len());
}
