//! PTX 1.x arithmetic forms translated in round s25: 16-bit `div`/`rem`, `div.wide`/`rem.wide`,
//! `sad` on 16 and 64 bits and on `.f32`/`.f64`, `slct` with 16- and 64-bit results, `div.f64`
//! without a rounding modifier (`.rn`), `rsqrt.f64` without `.approx` and `div.sat.s32` (no
//! integer saturation: `div.s32`). Both executors run
//! the translated code; the expected values are the spec's definitions written here (ptx-isa-1.1
//! Tables 22–24: `x / 0` all ones and `x % 0` = `x` as ptxvm defines the "unspecified" value,
//! `MIN / -1` wrapping).

use crate::common::*;

/// A PTX 1.3 kernel: thread `i` loads word (or double word, `wide`) `i` of `pa` and `pb` into
/// `%r5`/`%r6` (`%rd1`/`%rd2`, `%f1`/`%f2`, `%fd1`/`%fd2`, `%h1`/`%h2` their low halves)
/// and runs `rows`, each storing `%r7` (`%rd3`) to its slot of its row of `out`.
fn kernel(name: &str, rows: &[&str], wide: bool) -> String {
    let (size, st, val) = if wide {
        (8, "u64", "%rd3")
    } else {
        (4, "u32", "%r7")
    };
    let mut body = String::new();
    for (i, row) in rows.iter().enumerate() {
        body += &format!("\t{row}\n\tst.global.{st} [%r10+{}], {val};\n", size * i);
    }
    let load = if wide {
        "ld.global.u64 %rd1, [%r8];\n\tld.global.u64 %rd2, [%r9];\n\tcvt.u32.u64 %r5, %rd1;\n\tcvt.u32.u64 %r6, %rd2;\n\tmov.b64 %fd1, %rd1;\n\tmov.b64 %fd2, %rd2;"
    } else {
        "ld.global.u32 %r5, [%r8];\n\tld.global.u32 %r6, [%r9];"
    };
    format!(
        r#".version 1.3
.target sm_13
.entry {name}(.param .u32 pa, .param .u32 pb, .param .u32 out)
{{
	.reg .u32 %r<12>;
	.reg .u16 %h<4>;
	.reg .u64 %rd<4>;
	.reg .f32 %f<4>;
	.reg .f64 %fd<4>;
	ld.param.u32 %r8, [pa];
	ld.param.u32 %r9, [pb];
	ld.param.u32 %r10, [out];
	mov.u32 %r1, %ctaid.x;
	mov.u32 %r2, %ntid.x;
	mov.u32 %r3, %tid.x;
	mad.lo.s32 %r4, %r1, %r2, %r3;
	mul.lo.u32 %r11, %r4, {size};
	add.u32 %r8, %r8, %r11;
	add.u32 %r9, %r9, %r11;
	{load}
	mov.b32 %f1, %r5;
	mov.b32 %f2, %r6;
	cvt.u16.u32 %h1, %r5;
	cvt.u16.u32 %h2, %r6;
	mul.lo.u32 %r11, %r4, {stride};
	add.u32 %r10, %r10, %r11;
{body}	ret;
}}
"#,
        stride = size * rows.len()
    )
}

/// Runs `text` over every pair of `edges` (padded to whole CTAs); returns (a, b, out).
fn run_pairs<T: Copy + Default>(
    name: &str,
    text: &str,
    edges: &[T],
    spec_of: impl Fn(&[T]) -> exec::ParamSpec,
    out_words: usize,
) -> (Vec<T>, Vec<T>, Vec<u8>) {
    let (mut a, mut b) = all_pairs(edges);
    while a.len() % 64 != 0 {
        a.push(T::default());
        b.push(T::default());
    }
    let n = a.len();
    let launch = spec(
        name,
        (n / 64) as u32,
        64,
        vec![spec_of(&a), spec_of(&b), zeros32(out_words * n)],
    );
    let out = run_both(&format!("{name}.ptx"), text, &launch).swap_remove(2);
    (a, b, out)
}

const NARROW: &[&str] = &[
    "div.u16 %h3, %h1, %h2;\n\tcvt.u32.u16 %r7, %h3;",
    "div.s16 %h3, %h1, %h2;\n\tcvt.u32.u16 %r7, %h3;",
    "rem.u16 %h3, %h1, %h2;\n\tcvt.u32.u16 %r7, %h3;",
    "rem.s16 %h3, %h1, %h2;\n\tcvt.u32.u16 %r7, %h3;",
    "div.wide.u16 %h3, %r5, %h2;\n\tcvt.u32.u16 %r7, %h3;",
    "div.wide.s16 %h3, %r5, %h2;\n\tcvt.u32.u16 %r7, %h3;",
    "rem.wide.u16 %h3, %r5, %h2;\n\tcvt.u32.u16 %r7, %h3;",
    "rem.wide.s16 %h3, %r5, %h2;\n\tcvt.u32.u16 %r7, %h3;",
    "sad.u16 %h3, %h1, %h2, %h1;\n\tcvt.u32.u16 %r7, %h3;",
    "sad.s16 %h3, %h1, %h2, 7;\n\tcvt.u32.u16 %r7, %h3;",
    "slct.u16.s32 %h3, %h1, 99, %r6;\n\tcvt.u32.u16 %r7, %h3;",
    "div.s16 %h3, %h1, -3;\n\tcvt.u32.u16 %r7, %h3;",
    "rem.u16 %h3, 1000, %h2;\n\tcvt.u32.u16 %r7, %h3;",
    "div.wide.s16 %h3, -100000, %h2;\n\tcvt.u32.u16 %r7, %h3;",
    "sad.f32 %f3, %f1, %f2, %f1;\n\tmov.b32 %r7, %f3;",
    // ptx-isa-1.1 Table 23: "No integer saturation": .sat leaves div.s32 as it is.
    "div.sat.s32 %r7, %r5, %r6;",
];

fn div16(a: u16, b: u16, signed: bool) -> u16 {
    match (b, signed) {
        (0, _) => u16::MAX,
        (_, true) => (a as i16).wrapping_div(b as i16) as u16,
        _ => a / b,
    }
}

fn rem16(a: u16, b: u16, signed: bool) -> u16 {
    match (b, signed) {
        (0, _) => a,
        (_, true) => (a as i16).wrapping_rem(b as i16) as u16,
        _ => a % b,
    }
}

/// `div.wide`/`rem.wide` on 16 bits: the 32-bit `a` by the 16-bit `b`, the result's low half.
fn divrem_wide16(a: u32, b: u16, signed: bool, rem: bool) -> u16 {
    if b == 0 {
        return if rem { a as u16 } else { u16::MAX };
    }
    let (q, r) = if signed {
        let (a, b) = (a as i32, i32::from(b as i16));
        (a.wrapping_div(b) as u32, a.wrapping_rem(b) as u32)
    } else {
        (a / u32::from(b), a % u32::from(b))
    };
    (if rem { r } else { q }) as u16
}

/// `c + (a < b ? b - a : a - b)`, each step rounded (Rust's f32 arithmetic is IEEE RN).
fn sad_f32(a: f32, b: f32, c: f32) -> f32 {
    c + if a < b { b - a } else { a - b }
}

fn sad_f64(a: f64, b: f64, c: f64) -> f64 {
    c + if a < b { b - a } else { a - b }
}

/// Bits, or any NaN for a NaN (the executors agree bit for bit: `run_both` checks that).
fn same_f32(got: u32, want: f32) -> bool {
    if want.is_nan() {
        f32::from_bits(got).is_nan()
    } else {
        got == want.to_bits()
    }
}

fn same_f64(got: u64, want: f64) -> bool {
    if want.is_nan() {
        f64::from_bits(got).is_nan()
    } else {
        got == want.to_bits()
    }
}

#[test]
fn narrow_div_rem_sad_slct_agree_with_the_spec() {
    let text = kernel("narrow", NARROW, false);
    let mut edges = int_edges(28, 0x2468_1357);
    edges.extend([
        0x8000,
        0xffff_8000,
        0x7fff,
        0xffff,
        0x1_ffff,
        0x8001,
        0xfffe_7961,
        3,
    ]);
    edges.extend(f32_edges(20, 0x1234_5678));
    let (a, b, out) = run_pairs("narrow", &text, &edges, u32s, NARROW.len());
    let got = words(&out);
    for i in 0..a.len() {
        let (x, y) = (a[i], b[i]);
        let (hx, hy) = (x as u16, y as u16);
        let want16 = [
            div16(hx, hy, false),
            div16(hx, hy, true),
            rem16(hx, hy, false),
            rem16(hx, hy, true),
            divrem_wide16(x, hy, false, false),
            divrem_wide16(x, hy, true, false),
            divrem_wide16(x, hy, false, true),
            divrem_wide16(x, hy, true, true),
            hx.abs_diff(hy).wrapping_add(hx),
            (hx as i16).abs_diff(hy as i16).wrapping_add(7),
            if y as i32 >= 0 { hx } else { 99 },
            div16(hx, -3i16 as u16, true),
            rem16(1000, hy, false),
            divrem_wide16(-100000i32 as u32, hy, true, false),
        ];
        for (r, w) in want16.iter().enumerate() {
            assert_eq!(
                got[NARROW.len() * i + r],
                u32::from(*w),
                "{}: a = {x:#x}, b = {y:#x}",
                NARROW[r]
            );
        }
        let s = got[NARROW.len() * i + 14];
        let want = sad_f32(f32::from_bits(x), f32::from_bits(y), f32::from_bits(x));
        assert!(same_f32(s, want), "sad.f32 {x:#x} {y:#x}: {s:#x} vs {want}");
        let q = got[NARROW.len() * i + 15];
        let want = if y == 0 {
            u32::MAX
        } else {
            (x as i32).wrapping_div(y as i32) as u32
        };
        assert_eq!(q, want, "div.sat.s32 {x:#x} {y:#x}");
    }
}

const WIDE: &[&str] = &[
    "div.wide.u32 %r7, %rd1, %r6;\n\tcvt.u64.u32 %rd3, %r7;",
    "div.wide.s32 %r7, %rd1, %r6;\n\tcvt.u64.u32 %rd3, %r7;",
    "rem.wide.u32 %r7, %rd1, %r6;\n\tcvt.u64.u32 %rd3, %r7;",
    "rem.wide.s32 %r7, %rd1, %r6;\n\tcvt.u64.u32 %rd3, %r7;",
    "div.wide.s32 %r7, %rd1, -7;\n\tcvt.u64.u32 %rd3, %r7;",
    "rem.wide.u32 %r7, %rd1, 10;\n\tcvt.u64.u32 %rd3, %r7;",
    "sad.u64 %rd3, %rd1, %rd2, %rd1;",
    "sad.s64 %rd3, %rd1, %rd2, 5;",
    "sad.f64 %fd3, %fd1, %fd2, %fd1;\n\tmov.b64 %rd3, %fd3;",
    "slct.u64.s32 %rd3, %rd1, %rd2, %r6;",
    "slct.b64.f32 %rd3, %rd1, 7, %f2;",
    "div.f64 %fd3, %fd1, %fd2;\n\tmov.b64 %rd3, %fd3;",
    "rsqrt.f64 %fd3, %fd1;\n\tmov.b64 %rd3, %fd3;",
];

fn divrem_wide32(a: u64, b: u32, signed: bool, rem: bool) -> u32 {
    if b == 0 {
        return if rem { a as u32 } else { u32::MAX };
    }
    let (q, r) = if signed {
        let (a, b) = (a as i64, i64::from(b as i32));
        (a.wrapping_div(b) as u64, a.wrapping_rem(b) as u64)
    } else {
        (a / u64::from(b), a % u64::from(b))
    };
    (if rem { r } else { q }) as u32
}

#[test]
fn wide_div_rem_sad_slct_and_f64_defaults_agree_with_the_spec() {
    let text = kernel("wide", WIDE, true);
    let mut edges = int64_edges(24, 0x9e37_79b9_7f4a_7c15);
    edges.extend(f64_edges(26, 0x0123_4567_89ab_cdef));
    edges.extend([
        0x7fff_ffff_8000_0000,
        0xffff_ffff_8000_0000,
        0xffff_ffff_7fff_ffff,
    ]);
    let (a, b, out) = run_pairs("wide", &text, &edges, u64s, 2 * WIDE.len());
    let got = words64(&out);
    for i in 0..a.len() {
        let (x, y) = (a[i], b[i]);
        let (fx, fy) = (f64::from_bits(x), f64::from_bits(y));
        let row = |r: usize| got[WIDE.len() * i + r];
        let want = [
            u64::from(divrem_wide32(x, y as u32, false, false)),
            u64::from(divrem_wide32(x, y as u32, true, false)),
            u64::from(divrem_wide32(x, y as u32, false, true)),
            u64::from(divrem_wide32(x, y as u32, true, true)),
            u64::from(divrem_wide32(x, -7i32 as u32, true, false)),
            u64::from(divrem_wide32(x, 10, false, true)),
            x.abs_diff(y).wrapping_add(x),
            (x as i64).abs_diff(y as i64).wrapping_add(5),
        ];
        for (r, w) in want.iter().enumerate() {
            assert_eq!(row(r), *w, "{}: a = {x:#x}, b = {y:#x}", WIDE[r]);
        }
        let sad = sad_f64(fx, fy, fx);
        assert!(
            same_f64(row(8), sad),
            "sad.f64 {x:#x} {y:#x}: {:#x}",
            row(8)
        );
        let s32 = if y as u32 as i32 >= 0 { x } else { y };
        assert_eq!(row(9), s32, "slct.u64.s32 {x:#x} {y:#x}");
        // NaN compares false; -0 >= 0.
        let f32sel = if f32::from_bits(y as u32) >= 0.0 {
            x
        } else {
            7
        };
        assert_eq!(row(10), f32sel, "slct.b64.f32 {x:#x} {y:#x}");
        assert!(
            same_f64(row(11), fx / fy),
            "div.f64 {x:#x} {y:#x}: {:#x}",
            row(11)
        );
        let rsqrt = 1.0 / fx.sqrt();
        assert!(same_f64(row(12), rsqrt), "rsqrt.f64 {x:#x}: {:#x}", row(12));
    }
}
