//! Issue 13, item 3: `div.rn` and `sqrt.rn` in f32 and f64 over 10^7 random operand pairs
//! each, translated and run on the Fermi executor, against Rust's IEEE `/` and `sqrt` (which
//! round to nearest even and keep subnormals, as `.rn` without `.ftz` does). Half the pairs
//! are random bit patterns (every class: zeros, subnormals, infinities, NaNs, negative square
//! roots); the other half give quotients near or in the subnormal range, where the sequences'
//! fix-up paths run. The edge classes themselves, and agreement with the PTX executor bit for
//! bit (NaN payloads included), are in `fdiv.rs`, `ddiv.rs`, `fsqrt.rs` and `dsqrt.rs`; the
//! examples `fdiv_sweep`/`ddiv_sweep` add the other roundings.

mod common;
use common::*;
use exec::{ElemType, LaunchSpec, ParamSpec};

const PAIRS: usize = 10_000_000;
const CHUNK: usize = 1 << 18;

fn kernel(ty: &str, bytes: u32) -> String {
    format!(
        ".version 7.0\n.target sm_20\n.address_size 64\n\
         .visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 out)\n{{\n\
         \t.reg .b32 %r<6>;\n\t.reg .{ty} %v<5>;\n\t.reg .b64 %rd<8>;\n\
         \tld.param.u64 %rd1, [pa];\n\tld.param.u64 %rd2, [pb];\n\tld.param.u64 %rd3, [out];\n\
         \tmov.u32 %r1, %ctaid.x;\n\tmov.u32 %r2, %ntid.x;\n\tmov.u32 %r3, %tid.x;\n\
         \tmad.lo.s32 %r4, %r1, %r2, %r3;\n\
         \tmul.wide.u32 %rd4, %r4, {bytes};\n\
         \tadd.s64 %rd5, %rd1, %rd4;\n\tld.global.{ty} %v1, [%rd5];\n\
         \tadd.s64 %rd5, %rd2, %rd4;\n\tld.global.{ty} %v2, [%rd5];\n\
         \tmul.wide.u32 %rd4, %r4, {};\n\tadd.s64 %rd5, %rd3, %rd4;\n\
         \tdiv.rn.{ty} %v3, %v1, %v2;\n\tst.global.{ty} [%rd5], %v3;\n\
         \tsqrt.rn.{ty} %v4, %v1;\n\tst.global.{ty} [%rd5+{bytes}], %v4;\n\
         \tret;\n}}\n",
        2 * bytes
    )
}

fn buffer(words: &[u64], bytes: usize) -> ParamSpec {
    ParamSpec::Buffer {
        ty: ElemType::U32,
        bytes: words
            .iter()
            .flat_map(|w| w.to_le_bytes()[..bytes].to_vec())
            .collect(),
    }
}

/// Runs `PAIRS` pairs from `pair(k, rng)` through the kernel on the Fermi executor; `check`
/// gets each pair and the two results (quotient, square root) as raw bits.
fn sweep(
    ty: &str,
    bytes: usize,
    mut pair: impl FnMut(usize, &mut Rng) -> (u64, u64),
    check: impl Fn(u64, u64, u64, u64),
) {
    let (_, _, cubin) = compile(&format!("{ty}_sweep.ptx"), &kernel(ty, bytes as u32));
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut done = 0;
    while done < PAIRS {
        let n = CHUNK.min(PAIRS - done).next_multiple_of(128);
        let (a, b): (Vec<u64>, Vec<u64>) = (0..n).map(|k| pair(k, &mut rng)).unzip();
        let spec = LaunchSpec {
            kernel: Some("k".into()),
            grid: [(n / 128) as u32, 1, 1],
            block: [128, 1, 1],
            shared_bytes: 0,
            params: vec![
                buffer(&a, bytes),
                buffer(&b, bytes),
                buffer(&vec![0; 2 * n], bytes),
            ],
            textures: Vec::new(),
        };
        let run = fermi_exec::run_module(&cubin, &spec, &fermi_exec::Options::default())
            .unwrap_or_else(|e| panic!("{ty} sweep: the Fermi executor faulted: {e:?}"));
        let out = run.buffers[2].bytes();
        let word = |i: usize| {
            let mut w = [0u8; 8];
            w[..bytes].copy_from_slice(&out[bytes * i..bytes * (i + 1)]);
            u64::from_le_bytes(w)
        };
        for k in 0..n {
            check(a[k], b[k], word(2 * k), word(2 * k + 1));
        }
        done += n;
    }
}

#[test]
fn f32_div_rn_and_sqrt_rn_over_ten_million_random_pairs_agree_with_ieee() {
    sweep(
        "f32",
        4,
        |k, r| {
            let (x, y) = (r.next(), r.next());
            if k % 2 == 0 {
                (u64::from(x), u64::from(y))
            } else {
                // Small dividends over large divisors: quotients near or below 2^-126.
                (
                    u64::from(x & 0x83ff_ffff),
                    u64::from(y & 0x807f_ffff | 0x7c00_0000),
                )
            }
        },
        |a, b, q, s| {
            let (x, y) = (f32::from_bits(a as u32), f32::from_bits(b as u32));
            let (want_q, want_s) = (x / y, x.sqrt());
            if want_q.is_nan() {
                assert!(
                    f32::from_bits(q as u32).is_nan(),
                    "{a:#010x} / {b:#010x}: {q:#x}"
                );
            } else {
                assert_eq!(q as u32, want_q.to_bits(), "{a:#010x} / {b:#010x}");
            }
            if want_s.is_nan() {
                assert!(f32::from_bits(s as u32).is_nan(), "sqrt {a:#010x}: {s:#x}");
            } else {
                assert_eq!(s as u32, want_s.to_bits(), "sqrt {a:#010x}");
            }
        },
    );
}

#[test]
fn f64_div_rn_and_sqrt_rn_over_ten_million_random_pairs_agree_with_ieee() {
    sweep(
        "f64",
        8,
        |k, r| {
            let x = u64::from(r.next()) << 32 | u64::from(r.next());
            let y = u64::from(r.next()) << 32 | u64::from(r.next());
            if k % 2 == 0 {
                (x, y)
            } else {
                // Small dividends over large divisors: quotients near or below 2^-1022.
                (
                    x & 0x803f_ffff_ffff_ffff,
                    y & 0x800f_ffff_ffff_ffff | 0x7fc0_0000_0000_0000,
                )
            }
        },
        |a, b, q, s| {
            let (x, y) = (f64::from_bits(a), f64::from_bits(b));
            let (want_q, want_s) = (x / y, x.sqrt());
            if want_q.is_nan() {
                assert!(f64::from_bits(q).is_nan(), "{a:#018x} / {b:#018x}: {q:#x}");
            } else {
                assert_eq!(q, want_q.to_bits(), "{a:#018x} / {b:#018x}");
            }
            if want_s.is_nan() {
                assert!(f64::from_bits(s).is_nan(), "sqrt {a:#018x}: {s:#x}");
            } else {
                assert_eq!(s, want_s.to_bits(), "sqrt {a:#018x}");
            }
        },
    );
}
