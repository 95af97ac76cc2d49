//! `brev.b32/.b64` and `bfind.shiftamt` (32- and 64-bit, signed and unsigned) on both
//! executors, bit for bit, over 64-bit edge values (each 32-bit row reads the low word),
//! against the PTX definitions written here (PTX ISA §9.7.1.16, §9.7.1.18).

mod common;
use common::*;

const ROWS: &[&str] = &[
    "brev.b32 %r8, %r5;\n\tcvt.u64.u32 %rd8, %r8;",
    "brev.b64 %rd8, %rd5;",
    "bfind.shiftamt.u32 %r8, %r5;\n\tcvt.u64.u32 %rd8, %r8;",
    "bfind.shiftamt.s32 %r8, %r5;\n\tcvt.u64.u32 %rd8, %r8;",
    "bfind.shiftamt.u64 %r8, %rd5;\n\tcvt.u64.u32 %rd8, %r8;",
    "bfind.shiftamt.s64 %r8, %rd5;\n\tcvt.u64.u32 %rd8, %r8;",
    // The destination is the source: every step must read before it writes.
    "mov.b64 %rd9, %rd5;\n\tbrev.b64 %rd9, %rd9;\n\tmov.b64 %rd8, %rd9;",
    "mov.b32 %r9, %r5;\n\tbrev.b32 %r9, %r9;\n\tcvt.u64.u32 %rd8, %r9;",
    // An immediate source (folded at translation).
    "brev.b64 %rd8, 0x00000001000000f1;",
];

/// Bit `i` of the result is bit `n − 1 − i` of `a`, written out bit by bit.
fn reversed(a: u64, n: u32) -> u64 {
    (0..n).fold(0, |d, i| d | ((a >> (n - 1 - i)) & 1) << i)
}

/// `bfind.shiftamt`: `msb − p` for the position `p` of the highest bit that differs from the
/// sign (signed) or is set (unsigned), scanning down from the top; `0xffffffff` if none.
fn shiftamt(a: u64, n: u32, signed: bool) -> u64 {
    let sign = (a >> (n - 1)) & 1;
    for p in (0..n).rev() {
        let bit = (a >> p) & 1;
        let found = if signed { bit != sign } else { bit == 1 };
        if found {
            return u64::from(n - 1 - p);
        }
    }
    0xffff_ffff
}

fn expect(row: usize, a: u64) -> u64 {
    let lo = a & 0xffff_ffff;
    match row {
        0 | 7 => reversed(lo, 32),
        1 | 6 => reversed(a, 64),
        8 => reversed(0x1_0000_00f1, 64),
        2 => shiftamt(lo, 32, false),
        3 => shiftamt(lo, 32, true),
        4 => shiftamt(a, 64, false),
        _ => shiftamt(a, 64, true),
    }
}

fn edges() -> Vec<u64> {
    let mut v: Vec<u64> = vec![
        0,
        1,
        2,
        3,
        0x8000_0000,
        0x7fff_ffff,
        0xffff_ffff,
        0xffff_fffe,
        0x4000_0000,
        0x1_0000_0000,
        0x8000_0000_0000_0000,
        0x7fff_ffff_ffff_ffff,
        0xffff_ffff_ffff_ffff,
        0xffff_ffff_0000_0000,
        0xffff_ffff_7fff_ffff,
        0x0000_0001_8000_0000,
        0xc000_0000_0000_0000,
        0x0123_4567_89ab_cdef,
        0xfedc_ba98_7654_3210,
        0x5555_5555_aaaa_aaaa,
    ];
    let mut s = 0x9e37_79b9_7f4a_7c15u64;
    while v.len() < 64 {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        v.push(s >> (s % 64));
    }
    v
}

#[test]
fn brev_and_bfind_shiftamt_agree_with_the_spec() {
    let mut body = String::new();
    for (i, row) in ROWS.iter().enumerate() {
        body += &format!("\t{row}\n\tst.global.u64 [%rd7+{}], %rd8;\n", 8 * i);
    }
    let text = row_kernel(
        "brev",
        "\t.reg .b32 %r<10>;\n\t.reg .b64 %rd<10>;\n",
        &[("u64", "%rd5", 8)],
        8 * ROWS.len(),
        &format!("\tcvt.u32.u64 %r5, %rd5;\n{body}"),
    );
    let a = edges();
    let n = a.len();
    let out = run_both(
        "brev.ptx",
        &text,
        &spec(
            "brev",
            (n / 32) as u32,
            32,
            vec![u64s(&a), u64s(&vec![0; ROWS.len() * n])],
        ),
    );
    let got: Vec<u64> = words64(&out[1]);
    for i in 0..n {
        for (r, row) in ROWS.iter().enumerate() {
            assert_eq!(
                got[ROWS.len() * i + r],
                expect(r, a[i]),
                "{row}: a = {:#x}",
                a[i]
            );
        }
    }
}
