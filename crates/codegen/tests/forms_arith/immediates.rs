//! Immediate operands translated in round s25: the combining predicate of `setp`/`set` as a
//! literal 1 or 0 (PT / !PT), `copysign` and `testp` of an immediate, the f64 approximations
//! `rcp.approx.ftz.f64`/`rsqrt.approx.ftz.f64` of an immediate, and `slct.ftz` with a 64-bit
//! result. Both executors run the code; expected values are written here from the spec's
//! definitions, and an approximation of an immediate must equal the same instruction's result
//! on a register holding that value.

use crate::common::*;

const DECLS: &str = "\t.reg .b32 %r<12>;\n\t.reg .b64 %rd<12>;\n\t.reg .pred %p<4>;\n\
                     \t.reg .f32 %f<4>;\n\t.reg .f64 %fd<4>;\n";

/// `p + 2q` of a `setp` with two outputs, into `%rd9`.
const PQ: &str = "selp.u32 %r9, 1, 0, %p1;\n\tselp.u32 %r10, 2, 0, %p2;\n\tor.b32 %r9, %r9, %r10;\n\tcvt.u64.u32 %rd9, %r9;";

fn rows() -> Vec<String> {
    let b = |p: &str| format!("selp.u32 %r9, 1, 0, {p};");
    vec![
        format!("setp.ne.or.b64 %p1|%p2, %rd5, %rd6, 0;\n\t{PQ}"),
        format!("setp.lt.and.s64 %p1|%p2, %rd5, %rd6, 1;\n\t{PQ}"),
        format!("setp.lt.xor.s32 %p1|%p2, %r5, %r6, 1;\n\t{PQ}"),
        format!("setp.gt.or.f32 %p1|%p2, %f1, %f2, 0;\n\t{PQ}"),
        format!("setp.le.and.f64 %p1|%p2, %fd1, %fd2, 1;\n\t{PQ}"),
        "set.ge.or.u32.s64 %r9, %rd5, %rd6, 0;\n\tcvt.u64.u32 %rd9, %r9;".into(),
        "set.ge.and.s32.s64 %r9, %rd5, %rd6, 1;\n\tcvt.u64.u32 %rd9, %r9;".into(),
        "copysign.f32 %f3, 0fBF800000, %f2;\n\tmov.b32 %r9, %f3;\n\tcvt.u64.u32 %rd9, %r9;"
            .into(),
        "copysign.f32 %f3, %f1, 0f40490FDB;\n\tmov.b32 %r9, %f3;\n\tcvt.u64.u32 %rd9, %r9;"
            .into(),
        "copysign.f64 %fd3, 0dBFF0000000000000, %fd2;\n\tmov.b64 %rd9, %fd3;".into(),
        "copysign.f64 %fd3, %fd1, 0d400921FB54442D18;\n\tmov.b64 %rd9, %fd3;".into(),
        "copysign.f64 %fd3, %fd1, 0d0000000012345678;\n\tmov.b64 %rd9, %fd3;".into(),
        // testp of constants, one bit each.
        format!(
            "testp.finite.f64 %p1, 0d7FF0000000000000;\n\t{}\n\t\
             testp.notanumber.f32 %p1, 0f7FC00000;\n\tselp.u32 %r10, 2, 0, %p1;\n\tor.b32 %r9, %r9, %r10;\n\t\
             testp.subnormal.f64 %p1, 0d0000000000000001;\n\tselp.u32 %r10, 4, 0, %p1;\n\tor.b32 %r9, %r9, %r10;\n\t\
             testp.normal.f32 %p1, 0f3F800000;\n\tselp.u32 %r10, 8, 0, %p1;\n\tor.b32 %r9, %r9, %r10;\n\t\
             testp.infinite.f32 %p1, 0fFF800000;\n\tselp.u32 %r10, 16, 0, %p1;\n\tor.b32 %r9, %r9, %r10;\n\t\
             testp.number.f64 %p1, 0dFFF8000000000000;\n\tselp.u32 %r10, 32, 0, %p1;\n\tor.b32 %r9, %r9, %r10;\n\tcvt.u64.u32 %rd9, %r9;",
            b("%p1")
        ),
        "rcp.approx.ftz.f64 %fd3, 0d3FF8000000000000;\n\tmov.b64 %rd9, %fd3;".into(),
        "mov.b64 %fd3, 0d3FF8000000000000;\n\trcp.approx.ftz.f64 %fd3, %fd3;\n\tmov.b64 %rd9, %fd3;"
            .into(),
        "rsqrt.approx.ftz.f64 %fd3, 0d4000000012345678;\n\tmov.b64 %rd9, %fd3;".into(),
        "mov.b64 %fd3, 0d4000000012345678;\n\trsqrt.approx.ftz.f64 %fd3, %fd3;\n\tmov.b64 %rd9, %fd3;"
            .into(),
        "rcp.approx.ftz.f64 %fd3, 0d0000000012345678;\n\tmov.b64 %rd9, %fd3;".into(),
        "slct.ftz.u64.f32 %rd9, %rd5, %rd6, %f2;".into(),
    ]
}

#[test]
fn immediate_operands_agree_with_the_spec() {
    let rows = rows();
    let mut body = String::from(
        "\tcvt.u32.u64 %r5, %rd5;\n\tcvt.u32.u64 %r6, %rd6;\n\tmov.b32 %f1, %r5;\n\t\
         mov.b32 %f2, %r6;\n\tmov.b64 %fd1, %rd5;\n\tmov.b64 %fd2, %rd6;\n",
    );
    for (i, r) in rows.iter().enumerate() {
        body += &format!("\t{r}\n\tst.global.u64 [%rd7+{}], %rd9;\n", 8 * i);
    }
    let text = row_kernel(
        "imm",
        DECLS,
        &[("u64", "%rd5", 8), ("u64", "%rd6", 8)],
        8 * rows.len(),
        &body,
    );
    let mut edges = int64_edges(20, 0x5eed_1234_abcd_0001);
    edges.extend(f64_edges(24, 0x0bad_cafe_f00d_0001));
    // Low words that are f32 edges (the f32 rows read the low word).
    edges.extend(
        f32_edges(20, 0x1357_2468)
            .iter()
            .map(|&w| u64::from(w) | 0x1234_0000_0000_0000),
    );
    edges.extend([0x8000_0001, 0x807f_ffff]);
    let (mut a, mut b) = all_pairs(&edges);
    while a.len() % 64 != 0 {
        a.push(0);
        b.push(0);
    }
    let n = a.len();
    let launch = spec(
        "imm",
        (n / 64) as u32,
        64,
        vec![u64s(&a), u64s(&b), zeros32(2 * rows.len() * n)],
    );
    let got = words64(&run_both("imm.ptx", &text, &launch)[2]);
    let testp_bits = u64::from(f64::INFINITY.is_finite())
        | u64::from(f32::from_bits(0x7fc0_0000).is_nan()) << 1
        | u64::from(f64::from_bits(1).is_subnormal()) << 2
        | u64::from(1.0f32.is_normal()) << 3
        | u64::from(f32::NEG_INFINITY.is_infinite()) << 4
        | u64::from(!f64::from_bits(0xfff8_0000_0000_0000).is_nan()) << 5;
    assert_eq!(testp_bits, 0b011110, "the constants' classes, written out");
    for i in 0..n {
        let (x, y) = (a[i], b[i]);
        let (x32, y32) = (x as u32, y as u32);
        let (fx, fy) = (f32::from_bits(x32), f32::from_bits(y32));
        let (dx, dy) = (f64::from_bits(x), f64::from_bits(y));
        let pq = |p: bool, q: bool| u64::from(p) | u64::from(q) << 1;
        let (sx, sy) = (x as i64, y as i64);
        let want: Vec<u64> = vec![
            pq(x != y, x == y),
            pq(sx < sy, sx >= sy),
            // xor with true: p = !(a < b), q = a < b.
            pq((x32 as i32) >= (y32 as i32), (x32 as i32) < (y32 as i32)),
            // Ordered: NaN makes both comparisons false, so q = !(a > b) is true.
            pq(
                fx > fy,
                fx.partial_cmp(&fy) != Some(std::cmp::Ordering::Greater),
            ),
            pq(dx <= dy, dx.partial_cmp(&dy).is_none_or(|o| o.is_gt())),
            u64::from(if sx >= sy { u32::MAX } else { 0 }),
            u64::from(if sx >= sy { u32::MAX } else { 0 }),
            u64::from(y32 & 0x7fff_ffff | 0x8000_0000),
            u64::from(0x4049_0fdb | x32 & 0x8000_0000),
            y & !(1 << 63) | 1 << 63,
            0x4009_21fb_5444_2d18 | x & 1 << 63,
            0x0000_0000_1234_5678 | x & 1 << 63,
            testp_bits,
        ];
        let at = |r: usize| got[rows.len() * i + r];
        for (r, w) in want.iter().enumerate() {
            assert_eq!(at(r), *w, "{}: a = {x:#x}, b = {y:#x}", rows[r]);
        }
        assert_eq!(
            at(13),
            at(14),
            "rcp.approx.ftz.f64 of an immediate and of a register"
        );
        assert_eq!(
            at(15),
            at(16),
            "rsqrt.approx.ftz.f64 of an immediate and of a register"
        );
        // 1.5: the high word 0x3ff80000 alone, 1/1.5 rounded at 20 fraction bits.
        assert_eq!(at(13), 0x3fe5_5555_0000_0000, "1/1.5 in the high word");
        // 0d4000000012345678: the high word alone is 2.0; 1/sqrt(2) rounded to nearest even
        // at 20 fraction bits (PTX: `d[63:32] = 1.0 / sqrt(tmp)`, `d[31:0] = 0`), from the
        // f64 value computed here.
        let r = (1.0 / 2f64.sqrt()).to_bits();
        let (high, low) = (r & !0xffff_ffff, r & 0xffff_ffff);
        let up = low > 1 << 31 || (low == 1 << 31 && high & 1 << 32 != 0);
        let rsqrt = if up { high + (1 << 32) } else { high };
        assert_eq!(at(15), rsqrt, "1/sqrt(2) in the high word");
        // A subnormal (high word zero) flushes to +0: 1/+0 = +inf.
        assert_eq!(
            at(17),
            f64::INFINITY.to_bits(),
            "rcp.approx.ftz.f64 of a subnormal"
        );
        // slct.ftz: a subnormal selector flushes to a signed zero, which is >= 0.
        let c = if fy.is_subnormal() { 0.0 } else { fy };
        assert_eq!(
            at(18),
            if c >= 0.0 { x } else { y },
            "slct.ftz {x:#x} {y:#x}"
        );
    }
}

/// Half-precision comparisons are sm_53 forms: refused with the target they need, never
/// taken as 16- or 32-bit integer comparisons (which would make `+0 == -0` false).
#[test]
fn half_precision_comparisons_are_refused_with_their_target() {
    for (decl, line) in [
        (".f16", "setp.eq.f16 %p1, %h1, %h2;"),
        (".f16", "setp.neu.ftz.f16 %p1|%p2, %h1, %h2;"),
        (".b16", "setp.lt.or.bf16 %p1, %h1, %h2, 1;"),
        (".b32", "set.eq.u32.f16x2 %h3, %h1, %h2;"),
        (".b32", "set.num.s32.bf16x2 %h3, %h1, %h2;"),
    ] {
        // The result is stored, so the comparison is not dead code.
        let keep = if line.starts_with("setp") {
            "selp.u32 %r1, 1, 0, %p1;\n\tst.global.u32 [%rd1], %r1;"
        } else {
            "st.global.b32 [%rd1], %h3;"
        };
        let text = format!(
            ".version 7.8\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 out)\n{{\n\
             \t.reg {decl} %h<4>;\n\t.reg .pred %p<3>;\n\t.reg .b64 %rd<2>;\n\t.reg .b32 %r<2>;\n\
             \tld.param.u64 %rd1, [out];\n\tld.global.b16 %h1, [%rd1];\n\tld.global.b16 %h2, [%rd1+2];\n\
             \t{line}\n\t{keep}\n\tret;\n}}\n"
        )
        .replace("ld.global.b16 %h1, [%rd1];\n\tld.global.b16 %h2, [%rd1+2];", if decl == ".b32" {
            "ld.global.b32 %h1, [%rd1];\n\tld.global.b32 %h2, [%rd1+4];"
        } else {
            "ld.global.b16 %h1, [%rd1];\n\tld.global.b16 %h2, [%rd1+2];"
        });
        let (m, file) = checked("half.ptx", &text);
        let err = match codegen::compile_module(&m, &file) {
            Ok(_) => panic!("`{line}` must be refused for sm_20"),
            Err(e) => diag::render(&file, &e),
        };
        assert!(err.contains("requires sm_"), "`{line}`: {err}");
    }
}
