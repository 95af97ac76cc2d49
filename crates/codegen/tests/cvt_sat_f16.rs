//! `cvt` forms with `.sat` from and to floats, 64-bit integer `cvt.sat`, and `.f16`
//! conversions on both executors, bit for bit, over all pairs of mixed edge values (`%r5` the
//! f32 / f16 / low word, `%r6` the high word of the 64-bit source), against values computed
//! here: PTX ISA `cvt` (§9.7.9.21): `.sat` on a float result clamps to [0.0, 1.0] with NaN → +0;
//! a float → integer conversion clamps to the destination's range (NaN → 0); integer `.sat`
//! clamps to the destination's MININT..MAXINT; `.f16` is IEEE binary16.

mod common;
use common::*;

/// Each row computes `%r7`; 64-bit results are split over two rows (`lo`, `hi`).
const ROWS: &[&str] = &[
    "cvt.sat.f32.f32 %f2, %f1;\n\tmov.b32 %r7, %f2;",
    "cvt.ftz.sat.f32.f32 %f2, %f1;\n\tmov.b32 %r7, %f2;",
    "cvt.rni.sat.f32.f32 %f2, %f1;\n\tmov.b32 %r7, %f2;",
    "cvt.rn.sat.f32.f64 %f2, %fd1;\n\tmov.b32 %r7, %f2;",
    "cvt.sat.f64.f32 %fd2, %f1;\n\tmov.b64 {%r7, %r8}, %fd2;",
    "cvt.sat.f64.f32 %fd2, %f1;\n\tmov.b64 {%r8, %r7}, %fd2;",
    "cvt.rzi.sat.s32.f32 %r7, %f1;",
    "cvt.rni.sat.u32.f32 %r7, %f1;",
    "cvt.rmi.sat.s16.f32 %rs2, %f1;\n\tcvt.u32.u16 %r7, %rs2;",
    "cvt.rn.sat.f32.s32 %f2, %r5;\n\tmov.b32 %r7, %f2;",
    "cvt.rz.sat.f32.u32 %f2, %r5;\n\tmov.b32 %r7, %f2;",
    "cvt.rn.sat.f64.s32 %fd2, %r5;\n\tmov.b64 {%r7, %r8}, %fd2;",
    "cvt.rn.sat.f64.s32 %fd2, %r5;\n\tmov.b64 {%r8, %r7}, %fd2;",
    "cvt.sat.u64.s64 %rd6, %rd5;\n\tmov.b64 {%r7, %r8}, %rd6;",
    "cvt.sat.u64.s64 %rd6, %rd5;\n\tmov.b64 {%r8, %r7}, %rd6;",
    "cvt.sat.s64.u64 %rd6, %rd5;\n\tmov.b64 {%r7, %r8}, %rd6;",
    "cvt.sat.s64.u64 %rd6, %rd5;\n\tmov.b64 {%r8, %r7}, %rd6;",
    "cvt.sat.s32.s64 %r7, %rd5;",
    "cvt.sat.u32.s64 %r7, %rd5;",
    "cvt.sat.s16.s64 %r7, %rd5;",
    "cvt.sat.u8.s64 %r7, %rd5;",
    "cvt.sat.s32.u64 %r7, %rd5;",
    "cvt.sat.u16.u64 %r7, %rd5;",
    "cvt.sat.u32.u64 %r7, %rd5;",
    "cvt.sat.u64.s32 %rd6, %r5;\n\tmov.b64 {%r7, %r8}, %rd6;",
    "cvt.sat.u64.s32 %rd6, %r5;\n\tmov.b64 {%r8, %r7}, %rd6;",
    "cvt.sat.s8.u64 %r7, %rd5;",
    "cvt.sat.u64.s16 %rd6, %rs1;\n\tmov.b64 {%r7, %r8}, %rd6;",
    "cvt.sat.s64.u64 %rd6, %rd5;\n\tcvt.sat.s8.s64 %r7, %rd6;",
    "cvt.f32.f16 %f2, %rs1;\n\tmov.b32 %r7, %f2;",
    "cvt.rn.f16.f32 %rs2, %f1;\n\tcvt.u32.u16 %r7, %rs2;",
    "cvt.rz.f16.f32 %rs2, %f1;\n\tcvt.u32.u16 %r7, %rs2;",
    "cvt.rm.f16.f32 %rs2, %f1;\n\tcvt.u32.u16 %r7, %rs2;",
    "cvt.rp.f16.f32 %rs2, %f1;\n\tcvt.u32.u16 %r7, %rs2;",
    "cvt.rn.f16.f64 %rs2, %fd1;\n\tcvt.u32.u16 %r7, %rs2;",
    "cvt.f64.f16 %fd2, %rs1;\n\tmov.b64 {%r8, %r7}, %fd2;",
    "cvt.rzi.s32.f16 %r7, %rs1;",
    "cvt.rn.f16.s32 %rs2, %r5;\n\tcvt.u32.u16 %r7, %rs2;",
    "cvt.rn.sat.f16.f32 %rs2, %f1;\n\tcvt.u32.u16 %r7, %rs2;",
    "cvt.rni.sat.f16.f16 %rs2, %rs1;\n\tcvt.u32.u16 %r7, %rs2;",
];

/// PTX's float saturation: NaN → +0, else clamped to [0, 1] (−0 → +0).
fn sat(x: f64) -> f64 {
    if x > 0.0 {
        x.min(1.0)
    } else {
        0.0
    }
}

/// IEEE binary16 → f64, from the format's fields.
fn f16_value(h: u16) -> Option<f64> {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let (e, m) = (i32::from(h >> 10 & 0x1f), f64::from(h & 0x3ff));
    match e {
        0 => Some(sign * m * 2f64.powi(-24)),
        31 if m == 0.0 => Some(sign * f64::INFINITY),
        31 => None,
        _ => Some(sign * (1.0 + m / 1024.0) * 2f64.powi(e - 15)),
    }
}

/// f64 → binary16 rounded to nearest even, for values whose result is normal or infinite
/// (`None` elsewhere: the executors' agreement covers those).
fn f16_rn(x: f64) -> Option<u16> {
    if x.is_nan() {
        return None;
    }
    let s: u16 = if x.is_sign_negative() { 0x8000 } else { 0 };
    let a = x.abs();
    if a >= 65520.0 {
        return Some(s | 0x7c00);
    }
    if a < 2f64.powi(-14) {
        return if a == 0.0 { Some(s) } else { None };
    }
    let e = a.log2().floor() as i32;
    // 10 fraction bits: scale to an integer significand in [1024, 2048) and round it.
    let m = (a * 2f64.powi(10 - e)).round_ties_even();
    let (m, e) = if m >= 2048.0 { (1024.0, e + 1) } else { (m, e) };
    if e > 15 {
        return Some(s | 0x7c00);
    }
    Some(s | (((e + 15) as u16) << 10) | (m as u16 - 1024))
}

fn f32_bits(x: f64) -> u32 {
    (x as f32).to_bits()
}

fn expect(row: usize, a: u32, b: u32) -> Option<u32> {
    let f = f32::from_bits(a);
    let x = f64::from(f);
    let d = f64::from_bits(u64::from(b) << 32 | u64::from(a));
    let s64 = (u64::from(b) << 32 | u64::from(a)) as i64;
    let u64v = u64::from(b) << 32 | u64::from(a);
    let lo = |v: u64| v as u32;
    let hi = |v: u64| (v >> 32) as u32;
    let clamp = |v: i128, lo: i128, hi: i128| v.clamp(lo, hi);
    let h = a as u16;
    Some(match row {
        0 => f32_bits(sat(x)),
        // .ftz: a subnormal source is a (signed) zero first.
        1 => f32_bits(if f.is_subnormal() { 0.0 } else { sat(x) }),
        2 => f32_bits(sat(x.round_ties_even())),
        3 => f32_bits(sat(d)),
        4 => lo(sat(x).to_bits()),
        5 => hi(sat(x).to_bits()),
        6 => f.trunc() as i32 as u32,
        7 => f.round_ties_even() as u32,
        8 => u32::from(f.floor() as i16 as u16),
        9 => f32_bits(if (a as i32) > 0 { 1.0 } else { 0.0 }),
        10 => f32_bits(if a > 0 { 1.0 } else { 0.0 }),
        11 => lo(if (a as i32) > 0 { 1f64 } else { 0f64 }.to_bits()),
        12 => hi(if (a as i32) > 0 { 1f64 } else { 0f64 }.to_bits()),
        13 => lo(s64.max(0) as u64),
        14 => hi(s64.max(0) as u64),
        15 => lo(u64v.min(i64::MAX as u64)),
        16 => hi(u64v.min(i64::MAX as u64)),
        17 => clamp(i128::from(s64), i128::from(i32::MIN), i128::from(i32::MAX)) as u32,
        18 => clamp(i128::from(s64), 0, i128::from(u32::MAX)) as u32,
        19 => clamp(i128::from(s64), -32768, 32767) as i32 as u32,
        20 => clamp(i128::from(s64), 0, 255) as u32,
        21 => u64v.min(i32::MAX as u64) as u32,
        22 => u64v.min(0xffff) as u32,
        23 => u64v.min(u64::from(u32::MAX)) as u32,
        24 => (a as i32).max(0) as u32,
        25 => 0,
        26 => u64v.min(127) as u32,
        27 => (a as u16 as i16).max(0) as u16 as u32,
        28 => clamp(i128::from(u64v.min(i64::MAX as u64)), -128, 127) as i32 as u32,
        29 => return f16_value(h).map(f32_bits),
        30 => return f16_rn(x).map(u32::from),
        35 => return f16_value(h).map(|v| hi(v.to_bits())),
        36 => {
            return f16_value(h).map(|v| v.trunc().clamp(-2147483648.0, 2147483647.0) as i32 as u32)
        }
        37 => {
            let v = a as i32;
            return (v.unsigned_abs() < 1 << 11).then(|| u32::from(f16_rn(f64::from(v)).unwrap()));
        }
        38 => return f16_rn(sat(x)).map(u32::from),
        39 => {
            return f16_value(h)
                .and_then(|v| f16_rn(sat(v.round_ties_even())))
                .map(u32::from)
        }
        _ => return None,
    })
}

/// Mixed edges: f32 classes, f16 classes in the low half, f64 high words, integer extremes.
fn edges() -> Vec<u32> {
    let mut v = f32_edges(20, 0xc0ff_ee01);
    v.extend([
        0x3c00,
        0x7c00,
        0xfc00,
        0x7e00,
        0x0001,
        0x03ff,
        0x7bff,
        0xbc00, // f16
        0x3ff0_0000,
        0x7ff0_0000,
        0xfff0_0000,
        0x3fe0_0000,
        0x40f0_0000,
        0x41e0_0000,
        0x43e0_0000,
        0xc1e0_0000,
        0x3f00_0000,
        0x477f_f000,
        0x477f_e000, // f64 high words, f32
    ]);
    for x in int_edges(18, 0x1234_5679) {
        if !v.contains(&x) {
            v.push(x);
        }
    }
    v.extend(int_edges(80, 0x9e37_79b9).into_iter().skip(18));
    v.truncate(48);
    v
}

#[test]
fn float_saturation_wide_integer_saturation_and_f16_agree() {
    let mut body = String::new();
    for (i, row) in ROWS.iter().enumerate() {
        body += &format!("\t{row}\n\tst.global.u32 [%rd7+{}], %r7;\n", 4 * i);
    }
    let setup = "\tmov.b32 %f1, %r5;\n\tmov.b64 %fd1, {%r5, %r6};\n\
                 \tmov.b64 %rd5, {%r5, %r6};\n\tcvt.u16.u32 %rs1, %r5;\n";
    let text = row_kernel(
        "cvtsat",
        "\t.reg .b16 %rs<3>;\n\t.reg .b32 %r<9>;\n\t.reg .f32 %f<3>;\n\t.reg .f64 %fd<3>;\n\t.reg .b64 %rd<8>;\n",
        &[("u32", "%r5", 4), ("u32", "%r6", 4)],
        4 * ROWS.len(),
        &(setup.to_string() + &body),
    );
    let e = edges();
    assert_eq!(e.len(), 48);
    let (a, b) = all_pairs(&e);
    let got = run_row_pairs("cvtsat", &text, ROWS.len(), &a, &b);
    assert_rows(ROWS, &a, &b, &got, expect);
}

/// A PTX 1.x `.f16` has no infinities or NaNs, so its conversions have no Fermi form: the
/// translator names the instruction instead of emitting IEEE conversions.
#[test]
fn ptx1_f16_conversions_are_refused() {
    let text = ".version 1.4\n.target sm_13\n.entry k(.param .u32 p)\n{\n\t.reg .b16 %h<2>;\n\t.reg .f32 %f<2>;\n\t.reg .u32 %r<2>;\n\
                \tld.param.u32 %r1, [p];\n\tcvt.u16.u32 %h1, %r1;\n\tcvt.f32.f16 %f1, %h1;\n\tmov.b32 %r1, %f1;\n\tst.global.u32 [%r1], %r1;\n\texit;\n}\n";
    let (m, file) = checked("f16_ptx1.ptx", text);
    let Err(err) = codegen::compile_module(&m, &file) else {
        panic!("a PTX 1.x .f16 conversion translated");
    };
    let msg = diag::render(&file, &err);
    assert!(
        msg.contains("cvt.f32.f16") && msg.contains("PTX 1.x"),
        "{msg}"
    );
}

/// A `.bf16` conversion has no Fermi form: refused naming the instruction and the reason.
#[test]
fn bf16_conversions_are_refused_with_the_reason() {
    let text = ".version 7.8\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n\t.reg .b16 %h<2>;\n\t.reg .f32 %f<2>;\n\t.reg .b64 %rd<2>;\n\
                \tld.param.u64 %rd1, [p];\n\tld.global.f32 %f1, [%rd1];\n\tcvt.rn.bf16.f32 %h1, %f1;\n\tst.global.b16 [%rd1], %h1;\n\tret;\n}\n";
    let (m, file) = checked("bf16.ptx", text);
    let Err(err) = codegen::compile_module(&m, &file) else {
        panic!("a .bf16 conversion translated");
    };
    let msg = diag::render(&file, &err);
    assert!(
        msg.contains("bf16.ptx:11:2: error: cannot translate `cvt.rn.bf16.f32")
            && msg.contains("no sm_20 instruction"),
        "{msg}"
    );
}
