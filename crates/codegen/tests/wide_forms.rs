//! `min/max` of 64-bit integers, 64-bit shifts by a register amount, `setp.f64`, 64-bit
//! `setp` with a complement output or combining with its own destination, and signed 32-bit
//! `div`/`rem` that are guarded or name their destination as a source: on both executors,
//! and against Rust's arithmetic and PTX's rules (ptx-isa §9.7.1: shift amounts above the
//! width clamp; §9.7.3 `setp` with `p|q`: `q = !(a cmp b) op c`).

mod common;
use common::*;

#[test]
fn sixty_four_bit_min_max_agree_with_rust() {
    const OPS: &[&str] = &["min.s64", "max.s64", "min.u64", "max.u64"];
    let mut body = String::new();
    for (i, op) in OPS.iter().enumerate() {
        body += &format!(
            "\t{op} %rd1, %rd5, %rd6;\n\tst.global.u64 [%rd7+{}], %rd1;\n",
            8 * i
        );
    }
    // An immediate second operand.
    body += &format!(
        "\tmin.s64 %rd1, %rd5, -3;\n\tst.global.u64 [%rd7+{}], %rd1;\n",
        8 * OPS.len()
    );
    let text = row_kernel(
        "mm64",
        "\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<8>;\n",
        &[("u64", "%rd5", 8), ("u64", "%rd6", 8)],
        8 * (OPS.len() + 1),
        &body,
    );
    let (a, b) = all_pairs(&int64_edges(16, 0));
    let n = a.len();
    let stride = OPS.len() + 1;
    let out = run_both(
        "mm64.ptx",
        &text,
        &spec(
            "mm64",
            n as u32 / 64,
            64,
            vec![u64s(&a), u64s(&b), zeros32(2 * stride * n)],
        ),
    );
    let got: Vec<u64> = words64(&out[2]);
    for i in 0..n {
        let (x, y) = (a[i], b[i]);
        let (sx, sy) = (x as i64, y as i64);
        let want = [
            sx.min(sy) as u64,
            sx.max(sy) as u64,
            x.min(y),
            x.max(y),
            sx.min(-3) as u64,
        ];
        assert_eq!(
            &got[stride * i..stride * (i + 1)],
            &want,
            "a = {x:#x}, b = {y:#x}"
        );
    }
}

#[test]
fn sixty_four_bit_shifts_by_a_register_clamp_as_ptx_says() {
    const OPS: &[&str] = &["shl.b64", "shr.u64", "shr.s64"];
    let amounts: Vec<u32> = vec![
        0,
        1,
        4,
        31,
        32,
        33,
        40,
        63,
        64,
        65,
        100,
        0x7fff_ffff,
        0x8000_0000,
        0xffff_ffe0,
        0xffff_ffff,
        17,
    ];
    let mut body = String::new();
    for (i, op) in OPS.iter().enumerate() {
        body += &format!(
            "\t{op} %rd1, %rd5, %r5;\n\tst.global.u64 [%rd7+{}], %rd1;\n",
            8 * i
        );
    }
    // Guarded (lanes with an odd amount keep the old value, 7) and into its own source.
    body += &format!(
        "\tmov.u64 %rd1, 7;\n\tand.b32 %r6, %r5, 1;\n\tsetp.eq.u32 %p1, %r6, 0;\n\
         \t@%p1 shr.s64 %rd1, %rd5, %r5;\n\tst.global.u64 [%rd7+{}], %rd1;\n\
         \tmov.u64 %rd2, %rd5;\n\tshl.b64 %rd2, %rd2, %r5;\n\tst.global.u64 [%rd7+{}], %rd2;\n",
        8 * OPS.len(),
        8 * OPS.len() + 8
    );
    let text = row_kernel(
        "sh64",
        "\t.reg .pred %p<2>;\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<8>;\n",
        &[("u64", "%rd5", 8), ("u32", "%r5", 4)],
        8 * (OPS.len() + 2),
        &body,
    );
    let values = int64_edges(16, 0);
    let (a, s): (Vec<u64>, Vec<u32>) = values
        .iter()
        .flat_map(|&v| amounts.iter().map(move |&s| (v, s)))
        .unzip();
    let n = a.len();
    let stride = OPS.len() + 2;
    let out = run_both(
        "sh64.ptx",
        &text,
        &spec(
            "sh64",
            n as u32 / 64,
            64,
            vec![u64s(&a), u32s(&s), zeros32(2 * stride * n)],
        ),
    );
    let got: Vec<u64> = words64(&out[2]);
    for i in 0..n {
        let (x, k) = (a[i], s[i]);
        // Amounts above 63 clamp: everything shifted out, or the sign everywhere.
        let c = k.min(64);
        let shl = if c == 64 { 0 } else { x << c };
        let shr = if c == 64 { 0 } else { x >> c };
        let sar = ((x as i64) >> c.min(63)) as u64;
        let guarded = if k % 2 == 0 { sar } else { 7 };
        let want = [shl, shr, sar, guarded, shl];
        assert_eq!(
            &got[stride * i..stride * (i + 1)],
            &want,
            "x = {x:#x}, n = {k}"
        );
    }
}

#[test]
fn setp_f64_agrees_with_ieee_comparisons() {
    const OPS: &[&str] = &[
        "eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan",
    ];
    let mut body = String::new();
    for (i, op) in OPS.iter().enumerate() {
        body += &format!(
            "\tsetp.{op}.f64 %p1, %fd5, %fd6;\n\tselp.u32 %r7, 1, 0, %p1;\n\tst.global.u32 [%rd7+{}], %r7;\n",
            4 * i
        );
    }
    // p|q with a combining predicate, and an immediate operand.
    body += &format!(
        "\tsetp.ne.u32 %p3, %r4, 0;\n\tsetp.lt.or.f64 %p1|%p2, %fd5, %fd6, %p3;\n\
         \tselp.u32 %r7, 1, 0, %p1;\n\tselp.u32 %r6, 2, 0, %p2;\n\tor.b32 %r7, %r7, %r6;\n\
         \tst.global.u32 [%rd7+{}], %r7;\n\
         \tsetp.gt.f64 %p1, %fd5, 0d3FF0000000000000;\n\tselp.u32 %r7, 1, 0, %p1;\n\
         \tst.global.u32 [%rd7+{}], %r7;\n",
        4 * OPS.len(),
        4 * OPS.len() + 4
    );
    let text = row_kernel(
        "dsetp",
        "\t.reg .pred %p<4>;\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<8>;\n\t.reg .f64 %fd<8>;\n",
        &[("f64", "%fd5", 8), ("f64", "%fd6", 8)],
        4 * (OPS.len() + 2),
        &body,
    );
    let (a, b) = all_pairs(&f64_edges(24, 0));
    let n = a.len();
    let stride = OPS.len() + 2;
    let out = run_both(
        "dsetp.ptx",
        &text,
        &spec(
            "dsetp",
            n as u32 / 64,
            64,
            vec![u64s(&a), u64s(&b), zeros32(stride * n)],
        ),
    );
    let got = words(&out[2]);
    for i in 0..n {
        let (x, y) = (f64::from_bits(a[i]), f64::from_bits(b[i]));
        let unordered = x.is_nan() || y.is_nan();
        let ordered = [x == y, x != y && !unordered, x < y, x <= y, x > y, x >= y];
        let mut want: Vec<u32> = ordered.iter().map(|&t| u32::from(t)).collect();
        // The `u` forms are true when either operand is NaN.
        want.extend(ordered.iter().enumerate().map(|(k, &t)| {
            let t = if k == 1 {
                x != y || unordered
            } else {
                t || unordered
            };
            u32::from(t)
        }));
        want.push(u32::from(!unordered));
        want.push(u32::from(unordered));
        // Thread i's %r4 is its global index: the combining predicate is `i != 0`.
        let c = i != 0;
        let lt = x < y;
        want.push(u32::from(lt || c) | (2 * u32::from(!lt || c)));
        want.push(u32::from(x > 1.0));
        assert_eq!(
            &got[stride * i..stride * (i + 1)],
            &want[..],
            "a = {x:e}, b = {y:e}"
        );
    }
}

#[test]
fn sixty_four_bit_setp_with_a_complement_or_its_own_predicate() {
    let body = "\tand.b32 %r6, %r4, 1;\n\tsetp.eq.u32 %p1, %r6, 0;\n\
        \tsetp.lt.and.s64 %p1, %rd5, %rd6, %p1;\n\tselp.u32 %r7, 1, 0, %p1;\n\
        \tst.global.u32 [%rd7], %r7;\n\
        \tsetp.hi.xor.u64 %p1|%p2, %rd5, %rd6, %p3;\n\tselp.u32 %r7, 1, 0, %p1;\n\
        \tselp.u32 %r6, 2, 0, %p2;\n\tor.b32 %r7, %r7, %r6;\n\tst.global.u32 [%rd7+4], %r7;\n";
    let text = row_kernel(
        "cmp64b",
        "\t.reg .pred %p<4>;\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<8>;\n",
        &[("u64", "%rd5", 8), ("u64", "%rd6", 8)],
        8,
        &format!("\tsetp.gt.u32 %p3, %r4, 100;\n{body}"),
    );
    let (a, b) = all_pairs(&int64_edges(16, 0));
    let n = a.len();
    let out = run_both(
        "cmp64b.ptx",
        &text,
        &spec(
            "cmp64b",
            n as u32 / 64,
            64,
            vec![u64s(&a), u64s(&b), zeros32(2 * n)],
        ),
    );
    let got = words(&out[2]);
    for i in 0..n {
        let (x, y) = (a[i], b[i]);
        let even = i % 2 == 0;
        let p3 = i > 100;
        let hi = x > y;
        let want = [
            u32::from(((x as i64) < (y as i64)) && even),
            u32::from(hi ^ p3) | (2 * u32::from(!hi ^ p3)),
        ];
        assert_eq!(
            &got[2 * i..2 * i + 2],
            &want,
            "a = {x:#x}, b = {y:#x}, i = {i}"
        );
    }
}

#[test]
fn signed_div_rem_into_a_source_or_under_a_guard() {
    // Thread i: %r5 = a, %r6 = b; rows: rem a into a, div into b, guarded rem of an
    // immediate, guarded div (odd lanes keep 99).
    let body = "\tmov.u32 %r1, %r5;\n\trem.s32 %r1, %r1, -7;\n\tst.global.u32 [%rd7], %r1;\n\
        \tmov.u32 %r2, %r6;\n\tdiv.s32 %r2, %r5, %r2;\n\tst.global.u32 [%rd7+4], %r2;\n\
        \tand.b32 %r3, %r4, 1;\n\tsetp.eq.u32 %p1, %r3, 0;\n\tmov.u32 %r1, 99;\n\
        \t@%p1 rem.s32 %r1, -2000000001, %r6;\n\tst.global.u32 [%rd7+8], %r1;\n\
        \tmov.u32 %r2, 99;\n\t@%p1 div.s32 %r2, %r5, %r6;\n\tst.global.u32 [%rd7+12], %r2;\n";
    let text = row_kernel(
        "sdiv",
        "\t.reg .pred %p<2>;\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<8>;\n",
        &[("u32", "%r5", 4), ("u32", "%r6", 4)],
        16,
        body,
    );
    let edges: Vec<u32> = vec![
        0,
        1,
        2,
        7,
        0xffff_ffff,
        0xffff_fffe,
        0x8000_0000,
        0x7fff_ffff,
        0xffff_fff9,
        100,
        0xffff_ff9c,
        3,
        0x8000_0001,
        13,
        0xffff_fff3,
        6,
    ];
    let (a, b) = all_pairs(&edges);
    let got = run_row_pairs("sdiv", &text, 4, &a, &b);
    // ops::int: division by zero gives all ones (rem: the dividend); MIN / -1 wraps.
    let div = |x: i32, y: i32| if y == 0 { -1 } else { x.wrapping_div(y) };
    let rem = |x: i32, y: i32| if y == 0 { x } else { x.wrapping_rem(y) };
    for i in 0..a.len() {
        let (x, y) = (a[i] as i32, b[i] as i32);
        let even = i % 2 == 0;
        let want = [
            rem(x, -7),
            div(x, y),
            if even { rem(-2_000_000_001, y) } else { 99 },
            if even { div(x, y) } else { 99 },
        ]
        .map(|v| v as u32);
        assert_eq!(&got[4 * i..4 * i + 4], &want, "a = {x}, b = {y}, i = {i}");
    }
}

#[test]
fn sign_and_complement_of_64_bit_values() {
    let body = "\tabs.s64 %rd1, %rd5;\n\tst.global.u64 [%rd7], %rd1;\n\
        \tneg.s64 %rd1, %rd5;\n\tst.global.u64 [%rd7+8], %rd1;\n\
        \tnot.b64 %rd1, %rd5;\n\tst.global.u64 [%rd7+16], %rd1;\n\
        \tmov.b64 %fd1, %rd5;\n\tabs.f64 %fd2, %fd1;\n\tst.global.f64 [%rd7+24], %fd2;\n\
        \tneg.f64 %fd2, %fd1;\n\tst.global.f64 [%rd7+32], %fd2;\n\
        \tmov.b64 %rd2, %rd5;\n\tabs.s64 %rd2, %rd2;\n\tst.global.u64 [%rd7+40], %rd2;\n\
        \tmov.b64 %rd2, %rd5;\n\tneg.s64 %rd2, %rd2;\n\tst.global.u64 [%rd7+48], %rd2;\n";
    let text = row_kernel(
        "sign64",
        "\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<8>;\n\t.reg .f64 %fd<4>;\n",
        &[("u64", "%rd5", 8)],
        56,
        body,
    );
    let mut values = int64_edges(40, 0x51);
    values.extend(f64_edges(24, 0));
    let n = values.len();
    let out = run_both(
        "sign64.ptx",
        &text,
        &spec(
            "sign64",
            n as u32 / 64,
            64,
            vec![u64s(&values), zeros32(14 * n)],
        ),
    );
    let got: Vec<u64> = words64(&out[1]);
    for (i, &x) in values.iter().enumerate() {
        let want = [
            (x as i64).wrapping_abs() as u64,
            (x as i64).wrapping_neg() as u64,
            !x,
            x & !(1 << 63),
            x ^ (1 << 63),
            (x as i64).wrapping_abs() as u64,
            (x as i64).wrapping_neg() as u64,
        ];
        assert_eq!(&got[7 * i..7 * i + 7], &want, "x = {x:#x}");
    }
}

#[test]
fn saturating_f32_add_mul_fma_clamp_to_0_1() {
    // ptx-isa §9.7.4: `.sat` clamps the result to [0.0, 1.0], NaN results to +0.0.
    let body = "\tadd.rn.sat.f32 %f1, %f5, %f6;\n\tst.global.f32 [%rd7], %f1;\n\
        \tmul.rz.sat.f32 %f1, %f5, %f6;\n\tst.global.f32 [%rd7+4], %f1;\n\
        \tfma.rn.sat.f32 %f1, %f5, %f6, %f5;\n\tst.global.f32 [%rd7+8], %f1;\n\
        \tsub.sat.f32 %f1, %f5, %f6;\n\tst.global.f32 [%rd7+12], %f1;\n";
    let text = row_kernel(
        "fsat",
        "\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<8>;\n\t.reg .f32 %f<8>;\n",
        &[("f32", "%f5", 4), ("f32", "%f6", 4)],
        16,
        body,
    );
    let edges: Vec<u32> = [
        0.0f32,
        -0.0,
        0.25,
        0.5,
        1.0,
        1.5,
        -0.5,
        2.0,
        0.75,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        1e-30,
        -1e-30,
        3.0,
        0.999_999_9,
    ]
    .iter()
    .map(|f| f.to_bits())
    .collect();
    let (a, b) = all_pairs(&edges);
    let got = run_row_pairs("fsat", &text, 4, &a, &b);
    // Rounding to nearest (or toward zero) then clamping; these operands need no rounding
    // argument beyond what f32 arithmetic gives (the products are exact or far from 0 and 1).
    // -0.0 saturates to +0.0 too (ops::float: `.sat` maps every result at or below zero
    // to +0.0, as NVIDIA's hardware does).
    let sat = |v: f32| {
        if v.is_nan() || v <= 0.0 {
            0.0
        } else {
            v.min(1.0)
        }
    };
    for i in 0..a.len() {
        let (x, y) = (f32::from_bits(a[i]), f32::from_bits(b[i]));
        let want = [sat(x + y), sat(x * y), sat(x.mul_add(y, x)), sat(x - y)];
        for (r, w) in want.iter().enumerate() {
            let g = f32::from_bits(got[4 * i + r]);
            // A clamped zero is +0.0; compare bits except for products that round toward
            // zero differently from Rust's nearest (checked on both executors anyway).
            if r != 1 {
                assert_eq!(g.to_bits(), w.to_bits(), "row {r}: a = {x:e}, b = {y:e}");
            } else {
                assert!(
                    (g - w).abs() <= f32::EPSILON,
                    "row {r}: a = {x:e}, b = {y:e}: {g} vs {w}"
                );
            }
        }
    }
}

#[test]
fn mul24_and_mad24_hi_are_bits_16_to_47_of_the_48_bit_product() {
    let body = "\tmul24.hi.u32 %r1, %r5, %r6;\n\tst.global.u32 [%rd7], %r1;\n\
        \tmul24.hi.s32 %r1, %r5, %r6;\n\tst.global.u32 [%rd7+4], %r1;\n\
        \tmad24.hi.u32 %r1, %r5, %r6, %r5;\n\tst.global.u32 [%rd7+8], %r1;\n\
        \tmad24.hi.s32 %r1, %r5, 0xfff123, -5;\n\tst.global.u32 [%rd7+12], %r1;\n\
        \tmov.u32 %r2, %r6;\n\tmad24.hi.u32 %r2, %r5, %r6, %r2;\n\tst.global.u32 [%rd7+16], %r2;\n";
    let text = row_kernel(
        "m24hi",
        "\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<8>;\n",
        &[("u32", "%r5", 4), ("u32", "%r6", 4)],
        20,
        body,
    );
    let edges: Vec<u32> = vec![
        0,
        1,
        0xff_ffff,
        0x80_0000,
        0x7f_ffff,
        0xffff_ffff,
        0x1234_5678,
        0x8000_0000,
        0x00ab_cdef,
        0xfe00_0001,
        3,
        0x0080_0001,
        0xdead_beef,
        0x10_0000,
        0xff80_0000,
        0x7fff_ffff,
    ];
    let (a, b) = all_pairs(&edges);
    let got = run_row_pairs("m24hi", &text, 5, &a, &b);
    let u24 = |x: u32| u64::from(x & 0xff_ffff);
    let s24 = |x: u32| i64::from(((x << 8) as i32) >> 8);
    for i in 0..a.len() {
        let (x, y) = (a[i], b[i]);
        let hu = ((u24(x) * u24(y)) >> 16) as u32;
        let hs = ((s24(x) * s24(y)) >> 16) as u32;
        let hs_imm = ((s24(x) * s24(0xfff123)) >> 16) as u32;
        // The last row adds b into the register b was copied to.
        let want = [
            hu,
            hs,
            hu.wrapping_add(x),
            hs_imm.wrapping_sub(5),
            hu.wrapping_add(y),
        ];
        assert_eq!(&got[5 * i..5 * i + 5], &want, "a = {x:#x}, b = {y:#x}");
    }
}

#[test]
fn bfe_64_with_constant_fields_agrees_with_the_spec() {
    // ptx-isa §9.7.1.19: len = c & 0xff bits from pos = b & 0xff, zero- or sign-extended;
    // bits past bit 63 read as the sign a[min(pos+len-1, 63)] for .s64, len 0 gives 0.
    const FIELDS: &[(u32, u32)] = &[
        (0, 64),
        (0, 1),
        (3, 5),
        (0, 32),
        (31, 2),
        (32, 32),
        (16, 40),
        (40, 8),
        (60, 10),
        (63, 1),
        (1, 63),
        (64, 4),
        (70, 0),
        (5, 0),
        (0, 255),
        (100, 200),
    ];
    let mut body = String::new();
    for (i, (pos, len)) in FIELDS.iter().enumerate() {
        body += &format!(
            "\tbfe.u64 %rd1, %rd5, {pos}, {len};\n\tst.global.u64 [%rd7+{}], %rd1;\n\
             \tbfe.s64 %rd1, %rd5, {pos}, {len};\n\tst.global.u64 [%rd7+{}], %rd1;\n",
            16 * i,
            16 * i + 8
        );
    }
    // Into its own source register.
    body += &format!(
        "\tmov.b64 %rd2, %rd5;\n\tbfe.s64 %rd2, %rd2, 20, 30;\n\tst.global.u64 [%rd7+{}], %rd2;\n",
        16 * FIELDS.len()
    );
    let stride = 2 * FIELDS.len() + 1;
    let text = row_kernel(
        "bfe64",
        "\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<8>;\n",
        &[("u64", "%rd5", 8)],
        8 * stride,
        &body,
    );
    let values = int64_edges(64, 0x5f);
    let n = values.len();
    let out = run_both(
        "bfe64.ptx",
        &text,
        &spec(
            "bfe64",
            n as u32 / 64,
            64,
            vec![u64s(&values), zeros32(2 * stride * n)],
        ),
    );
    let got: Vec<u64> = words64(&out[1]);
    let field = |a: u64, pos: u32, len: u32, signed: bool| -> u64 {
        let sign = signed && len != 0 && (a >> (pos + len - 1).min(63)) & 1 == 1;
        let mut r = 0u64;
        for k in 0..len {
            let bit = if pos + k <= 63 {
                (a >> (pos + k)) & 1 == 1
            } else {
                sign
            };
            if bit && k < 64 {
                r |= 1 << k;
            }
        }
        if sign && len < 64 {
            r |= u64::MAX << len;
        }
        r
    };
    for (i, &a) in values.iter().enumerate() {
        let mut want = Vec::new();
        for &(pos, len) in FIELDS {
            want.push(field(a, pos, len, false));
            want.push(field(a, pos, len, true));
        }
        want.push(field(a, 20, 30, true));
        assert_eq!(&got[stride * i..stride * (i + 1)], &want[..], "a = {a:#x}");
    }
}

#[test]
fn f64_division_into_its_own_operands_register() {
    // Correctly rounded (.rn) quotients: Rust's `/` on f64 is IEEE division to nearest.
    let body =
        "\tmov.f64 %fd1, %fd5;\n\tdiv.rn.f64 %fd1, %fd1, %fd6;\n\tst.global.f64 [%rd7], %fd1;\n\
        \tmov.f64 %fd2, %fd6;\n\tdiv.rn.f64 %fd2, %fd5, %fd2;\n\tst.global.f64 [%rd7+8], %fd2;\n\
        \tmov.f64 %fd3, %fd6;\n\trcp.rn.f64 %fd3, %fd3;\n\tst.global.f64 [%rd7+16], %fd3;\n";
    let text = row_kernel(
        "ddiv_alias",
        "\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<8>;\n\t.reg .f64 %fd<8>;\n",
        &[("f64", "%fd5", 8), ("f64", "%fd6", 8)],
        24,
        body,
    );
    let (a, b) = all_pairs(&f64_edges(24, 0));
    let n = a.len();
    let out = run_both(
        "ddiv_alias.ptx",
        &text,
        &spec(
            "ddiv_alias",
            n as u32 / 64,
            64,
            vec![u64s(&a), u64s(&b), zeros32(6 * n)],
        ),
    );
    let got: Vec<u64> = words64(&out[2]);
    // NaN results: PTX's canonical NaN (ops::float), whatever the operands' payloads.
    let canon = |v: f64| {
        if v.is_nan() {
            0x7fff_ffff_ffff_ffff
        } else {
            v.to_bits()
        }
    };
    for i in 0..n {
        let (x, y) = (f64::from_bits(a[i]), f64::from_bits(b[i]));
        let want = [canon(x / y), canon(x / y), canon(1.0 / y)];
        let seen = [got[3 * i], got[3 * i + 1], got[3 * i + 2]];
        for k in 0..3 {
            let ok = if f64::from_bits(seen[k]).is_nan() {
                f64::from_bits(want[k]).is_nan()
            } else {
                seen[k] == want[k]
            };
            assert!(
                ok,
                "row {k}: a = {x:e}, b = {y:e}: {:#x} vs {:#x}",
                seen[k], want[k]
            );
        }
    }
}
