//! `bfe.{u64,s64}` with register fields and `bfi.b64` (register and constant fields): on both
//! executors, and against the spec's definitions written out bit by bit here (ptx-isa
//! §9.7.1.19–20: `pos = b & 0xff`, `len = c & 0xff`; `bfe` reads bits past bit 63 as the sign
//! `a[min(pos+len−1, 63)]` for `.s64` and 0 otherwise, `len = 0` gives 0; `bfi` drops field
//! bits past bit 63, `len = 0` or `pos > 63` gives `b`).

mod common;
use common::*;

/// Positions and lengths as the fields' register values (above 255 to see the masking).
const FIELDS: &[u32] = &[
    0,
    1,
    5,
    31,
    32,
    33,
    40,
    63,
    64,
    65,
    200,
    255,
    0x100,
    0x120,
    0xffff_ff07,
];

fn field_bfe(a: u64, b: u32, c: u32, signed: bool) -> u64 {
    let (pos, len) = (b & 0xff, c & 0xff);
    let sign = signed && len != 0 && (a >> (pos + len - 1).min(63)) & 1 == 1;
    let mut r = 0u64;
    for k in 0..len.min(64) {
        let bit = if pos + k <= 63 {
            (a >> (pos + k)) & 1 == 1
        } else {
            sign
        };
        if bit {
            r |= 1 << k;
        }
    }
    if sign && len < 64 {
        r |= u64::MAX << len;
    }
    r
}

fn field_bfi(a: u64, b: u64, c: u32, d: u32) -> u64 {
    let (pos, len) = (c & 0xff, d & 0xff);
    let mut r = b;
    for k in 0..len {
        if pos + k > 63 {
            break;
        }
        let bit = (a >> k) & 1;
        r = (r & !(1u64 << (pos + k))) | (bit << (pos + k));
    }
    r
}

#[test]
fn bfe_and_bfi_64_with_register_fields_agree_with_the_spec() {
    // %rd5 = a; %rd6 packs pos (low word) and len (high word); b of bfi = !a.
    let body = "\tmov.b64 {%r5, %r6}, %rd6;\n\tnot.b64 %rd2, %rd5;\n\
        \tbfe.u64 %rd1, %rd5, %r5, %r6;\n\tst.global.u64 [%rd7], %rd1;\n\
        \tbfe.s64 %rd1, %rd5, %r5, %r6;\n\tst.global.u64 [%rd7+8], %rd1;\n\
        \tbfe.u64 %rd1, %rd5, 33, %r6;\n\tst.global.u64 [%rd7+16], %rd1;\n\
        \tbfe.s64 %rd1, %rd5, %r5, 12;\n\tst.global.u64 [%rd7+24], %rd1;\n\
        \tmov.b64 %rd1, %rd5;\n\tbfe.s64 %rd1, %rd1, %r5, %r6;\n\tst.global.u64 [%rd7+32], %rd1;\n\
        \tbfi.b64 %rd1, %rd5, %rd2, %r5, %r6;\n\tst.global.u64 [%rd7+40], %rd1;\n\
        \tbfi.b64 %rd1, %rd5, %rd2, 28, 9;\n\tst.global.u64 [%rd7+48], %rd1;\n\
        \tmov.b64 %rd1, %rd2;\n\tbfi.b64 %rd1, %rd5, %rd1, %r5, %r6;\n\tst.global.u64 [%rd7+56], %rd1;\n\
        \tmov.b64 %rd1, %rd5;\n\tbfi.b64 %rd1, %rd1, %rd2, %r5, 40;\n\tst.global.u64 [%rd7+64], %rd1;\n\
        \tbfi.b64 %rd1, 0x123456789, %rd2, %r5, %r6;\n\tst.global.u64 [%rd7+72], %rd1;\n\
        \tbfe.u64 %rd1, -2, %r5, %r6;\n\tst.global.u64 [%rd7+80], %rd1;\n";
    const ROWS: usize = 11;
    let text = row_kernel(
        "bf64",
        "\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<8>;\n",
        &[("u64", "%rd5", 8), ("u64", "%rd6", 8)],
        8 * ROWS,
        body,
    );
    let fields: Vec<u64> = FIELDS
        .iter()
        .flat_map(|&p| {
            FIELDS
                .iter()
                .map(move |&l| u64::from(p) | u64::from(l) << 32)
        })
        .collect();
    let mut a = Vec::new();
    let mut f = Vec::new();
    for &x in &int64_edges(17, 0) {
        for &y in &fields {
            a.push(x);
            f.push(y);
        }
    }
    while a.len() % 64 != 0 {
        a.push(0x0f0f_0f0f_f0f0_f0f0);
        f.push(3 | 70 << 32);
    }
    let n = a.len();
    let out = run_both(
        "bf64.ptx",
        &text,
        &spec(
            "bf64",
            n as u32 / 64,
            64,
            vec![u64s(&a), u64s(&f), zeros32(2 * ROWS * n)],
        ),
    );
    let got: Vec<u64> = words64(&out[2]);
    for i in 0..n {
        let (x, pos, len) = (a[i], f[i] as u32, (f[i] >> 32) as u32);
        let b = !x;
        let want = [
            field_bfe(x, pos, len, false),
            field_bfe(x, pos, len, true),
            field_bfe(x, 33, len, false),
            field_bfe(x, pos, 12, true),
            field_bfe(x, pos, len, true),
            field_bfi(x, b, pos, len),
            field_bfi(x, b, 28, 9),
            field_bfi(x, b, pos, len),
            field_bfi(x, b, pos, 40),
            field_bfi(0x1_2345_6789, b, pos, len),
            field_bfe(u64::MAX - 1, pos, len, false),
        ];
        assert_eq!(
            &got[ROWS * i..ROWS * (i + 1)],
            &want,
            "a = {x:#x}, pos = {pos:#x}, len = {len:#x}"
        );
    }
}

#[test]
fn guarded_bfe_and_bfi_64_leave_the_destination_where_the_guard_fails() {
    // The guard is the low bit of a: where it is clear, the destination keeps 7.
    let body = "\tmov.b64 {%r5, %r6}, %rd6;\n\tcvt.u32.u64 %r7, %rd5;\n\
        \tand.b32 %r7, %r7, 1;\n\tsetp.ne.u32 %p1, %r7, 0;\n\
        \tmov.u64 %rd1, 7;\n\t@%p1 bfe.s64 %rd1, %rd5, %r5, %r6;\n\tst.global.u64 [%rd7], %rd1;\n\
        \tmov.u64 %rd1, 7;\n\t@%p1 bfi.b64 %rd1, %rd5, %rd6, %r5, %r6;\n\tst.global.u64 [%rd7+8], %rd1;\n";
    let text = row_kernel(
        "bf64g",
        "\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<8>;\n\t.reg .pred %p<2>;\n",
        &[("u64", "%rd5", 8), ("u64", "%rd6", 8)],
        16,
        body,
    );
    let mut a = Vec::new();
    let mut f = Vec::new();
    for i in 0..128u64 {
        a.push(i.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (i << 62));
        let (p, l) = (
            FIELDS[i as usize % FIELDS.len()],
            FIELDS[(i as usize / 3) % FIELDS.len()],
        );
        f.push(u64::from(p) | u64::from(l) << 32);
    }
    let out = run_both(
        "bf64g.ptx",
        &text,
        &spec("bf64g", 2, 64, vec![u64s(&a), u64s(&f), zeros32(4 * 128)]),
    );
    let got: Vec<u64> = words64(&out[2]);
    for i in 0..128 {
        let (x, pos, len) = (a[i], f[i] as u32, (f[i] >> 32) as u32);
        let want = if x & 1 == 1 {
            [field_bfe(x, pos, len, true), field_bfi(x, f[i], pos, len)]
        } else {
            [7, 7]
        };
        assert_eq!(
            &got[2 * i..2 * i + 2],
            &want,
            "a = {x:#x}, pos = {pos:#x}, len = {len:#x}"
        );
    }
}

#[test]
fn sixty_four_bit_logic_with_an_immediate() {
    // and/or/xor.b64 with a 64-bit immediate (refused before: "a 64-bit immediate logic
    // operand"), into a new register and into the source's own.
    let body = "\tand.b64 %rd1, %rd5, 0xf0f0f0f00ff00ff0;\n\tst.global.u64 [%rd7], %rd1;\n\
        \tor.b64 %rd1, %rd5, 0x8000000000000001;\n\tst.global.u64 [%rd7+8], %rd1;\n\
        \tmov.b64 %rd2, %rd5;\n\txor.b64 %rd2, %rd2, -2;\n\tst.global.u64 [%rd7+16], %rd2;\n";
    let text = row_kernel(
        "logic64",
        "\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<8>;\n",
        &[("u64", "%rd5", 8)],
        24,
        body,
    );
    let a = int64_edges(64, 0x9e37);
    let out = run_both(
        "logic64.ptx",
        &text,
        &spec("logic64", 1, 64, vec![u64s(&a), zeros32(6 * 64)]),
    );
    let got: Vec<u64> = words64(&out[1]);
    for (i, &x) in a.iter().enumerate() {
        let want = [
            x & 0xf0f0_f0f0_0ff0_0ff0,
            x | 0x8000_0000_0000_0001,
            x ^ (-2i64 as u64),
        ];
        assert_eq!(&got[3 * i..3 * i + 3], &want, "a = {x:#x}");
    }
}
