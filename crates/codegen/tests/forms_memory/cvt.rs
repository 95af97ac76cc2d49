//! `cvt` between 64-bit and 8/16-bit integers (round s25; found by `forms_memory/cvt_sweep.rs`):
//! narrowing keeps the low bits, widening extends by the source type's signedness (PTX ISA
//! §9.7.9.21, cvt: "sign-extended or zero-extended ... based on the source format"). Every
//! combination on 64-bit edge values, both executors, against plain Rust casts.

use crate::common::*;

const WIDE: &[&str] = &["u64", "s64"];
const NARROW: &[&str] = &["u8", "s8", "u16", "s16"];

fn kernel() -> String {
    let mut body = String::new();
    // Widening: the part read from the low bytes of the thread's value.
    let mut k = 0;
    for d in WIDE {
        for s in NARROW {
            body += &format!(
                "\tld.global.{s} %h, [%rd2];\n\tcvt.{d}.{s} %w, %h;\n\
                 \tst.global.u64 [%rd3+{}], %w;\n",
                8 * k
            );
            k += 1;
        }
    }
    // Narrowing: the part stored at its width.
    let mut at = 8 * k;
    for s in WIDE {
        for d in NARROW {
            let w = if d.ends_with('8') { 1 } else { 2 };
            let st = if w == 1 { "u8" } else { "u16" };
            body += &format!("\tcvt.{d}.{s} %h, %v;\n\tst.global.{st} [%rd3+{at}], %h;\n");
            at += 2;
        }
    }
    format!(
        ".version 7.0\n.target sm_20\n.address_size 64\n\
         .entry cv (.param .u64 in, .param .u64 out)\n{{\n\
         \t.reg .b16 %h;\n\t.reg .u32 %r1;\n\t.reg .b64 %w, %v;\n\t.reg .u64 %rd<6>;\n\
         \tld.param.u64 %rd2, [in];\n\tld.param.u64 %rd3, [out];\n\tmov.u32 %r1, %tid.x;\n\
         \tmul.wide.u32 %rd4, %r1, 8;\n\tadd.u64 %rd2, %rd2, %rd4;\n\
         \tmul.wide.u32 %rd4, %r1, 80;\n\tadd.u64 %rd3, %rd3, %rd4;\n\
         \tld.global.u64 %v, [%rd2];\n{body}\tret;\n}}\n"
    )
}

#[test]
fn wide_and_sub_word_integer_conversions_agree_with_casts() {
    let n = 64usize;
    let input = int64_edges(n, 0x5eed_c0de);
    let s = spec("cv", 1, n as u32, vec![u64s(&input), zeros32(20 * n)]);
    let out = run_both("s25_cvt", &kernel(), &s);
    let bytes = &out[1];
    for (t, &x) in input.iter().enumerate() {
        let row = &bytes[80 * t..80 * t + 80];
        let q = words64(&row[..64]);
        // Widening: u8, s8, u16, s16 parts, extended (the destination's own signedness
        // does not matter: the bits are the source's extension).
        let parts = [
            u64::from(x as u8),
            x as u8 as i8 as i64 as u64,
            u64::from(x as u16),
            x as u16 as i16 as i64 as u64,
        ];
        assert_eq!(q[..4], parts, "thread {t}: cvt.u64.*");
        assert_eq!(q[4..], parts, "thread {t}: cvt.s64.*");
        // Narrowing: the low 8 or 16 bits, from either source signedness.
        let narrow = [x as u8 as u16, x as u8 as u16, x as u16, x as u16];
        for (i, (w, want)) in [1, 1, 2, 2]
            .iter()
            .cycle()
            .zip(narrow.iter().cycle())
            .take(8)
            .enumerate()
        {
            let at = 64 + 2 * i;
            let got = if *w == 1 {
                u16::from(row[at])
            } else {
                u16::from_le_bytes([row[at], row[at + 1]])
            };
            assert_eq!(
                got,
                *want & if *w == 1 { 0xff } else { 0xffff },
                "thread {t}: narrowing {i}"
            );
        }
    }
}
