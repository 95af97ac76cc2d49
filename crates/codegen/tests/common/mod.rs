//! Shared helpers: compile PTX, check the words round-trip through the disassembler and
//! assembler, and run the same launch on the PTX executor and on the Fermi executor.
#![allow(dead_code)]

use diag::SourceFile;
use exec::{ElemType, LaunchSpec, ParamSpec};

pub fn checked(name: &str, text: &str) -> (ir::Module, SourceFile) {
    let file = SourceFile::new(name, text);
    let (m, diags) = check::check_source(&file);
    assert!(
        !diag::has_errors(&diags),
        "{name} does not check:\n{}",
        diag::render(&file, &diags)
    );
    (m.expect("a module"), file)
}

/// Compiles `text`; panics with the rendered diagnostics on failure.
pub fn compile(name: &str, text: &str) -> (ir::Module, SourceFile, fermi::cubin::Module) {
    let (m, file) = checked(name, text);
    let c = match codegen::compile_module(&m, &file) {
        Ok(c) => c,
        Err(e) => panic!("{name} does not compile:\n{}", diag::render(&file, &e)),
    };
    assert_words_round_trip(&c.cubin);
    (m, file, c.cubin)
}

/// A kernel's code as cuobjdump-style lines (no addresses), for tests that read the listing.
pub fn disassembly(k: &fermi::cubin::Kernel) -> Vec<String> {
    k.code
        .iter()
        .enumerate()
        .map(|(i, &w)| fermi::isa::disassemble_word(w, 8 * i as u64))
        .collect()
}

/// Every emitted word disassembles to text that assembles back to the same word.
pub fn assert_words_round_trip(module: &fermi::cubin::Module) {
    if let Err(m) = fermi::verify::words_round_trip(module) {
        panic!("{m}");
    }
}

pub fn buffer<T: Copy>(ty: ElemType, data: &[T], to_le: impl Fn(T) -> Vec<u8>) -> ParamSpec {
    ParamSpec::Buffer {
        ty,
        bytes: data.iter().flat_map(|&x| to_le(x)).collect(),
    }
}

pub fn u32s(data: &[u32]) -> ParamSpec {
    buffer(ElemType::U32, data, |x| x.to_le_bytes().to_vec())
}

pub fn u64s(data: &[u64]) -> ParamSpec {
    buffer(ElemType::U64, data, |x| x.to_le_bytes().to_vec())
}

pub fn zeros32(n: usize) -> ParamSpec {
    u32s(&vec![0xdead_beef; n])
}

pub fn value_u32(v: u32) -> ParamSpec {
    ParamSpec::Value {
        ty: ElemType::U32,
        bytes: v.to_le_bytes().to_vec(),
    }
}

pub fn spec(kernel: &str, grid: u32, block: u32, params: Vec<ParamSpec>) -> LaunchSpec {
    LaunchSpec {
        kernel: Some(kernel.into()),
        grid: [grid, 1, 1],
        block: [block, 1, 1],
        shared_bytes: 0,
        params,
        textures: Vec::new(),
    }
}

/// Runs `spec` on both executors and requires identical buffers, bit for bit; returns them.
pub fn run_both(name: &str, text: &str, spec: &LaunchSpec) -> Vec<Vec<u8>> {
    let (m, file, cubin) = compile(name, text);
    let ptx = exec::run(&m, &file, spec, &exec::RunOptions::default())
        .unwrap_or_else(|e| panic!("{name}: the PTX executor faulted: {e:?}"));
    let sass = fermi_exec::run_module(&cubin, spec, &fermi_exec::Options::default())
        .unwrap_or_else(|e| panic!("{name}: the Fermi executor faulted: {e:?}"));
    assert_eq!(ptx.buffers.len(), sass.buffers.len());
    for (a, b) in ptx.buffers.iter().zip(&sass.buffers) {
        let (ab, bb) = (a.bytes(), b.bytes());
        if ab != bb {
            let first = ab.iter().zip(&bb).position(|(x, y)| x != y).unwrap_or(0);
            panic!(
                "{name} ({:?}): buffer of parameter {} differs first at byte {first}: PTX {:02x?} vs Fermi {:02x?}",
                spec.kernel,
                a.param,
                &ab[first / 4 * 4..(first / 4 * 4 + 8).min(ab.len())],
                &bb[first / 4 * 4..(first / 4 * 4 + 8).min(bb.len())]
            );
        }
    }
    ptx.buffers.iter().map(|b| b.bytes()).collect()
}

/// 64-bit words of a buffer.
pub fn words64(bytes: &[u8]) -> Vec<u64> {
    bytes
        .chunks_exact(8)
        .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
        .collect()
}

/// Words of a buffer.
pub fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// Integer edge values followed by a deterministic pseudo-random tail.
pub fn int_edges(n: usize, seed: u32) -> Vec<u32> {
    let mut v = vec![
        0,
        1,
        2,
        3,
        31,
        32,
        33,
        63,
        64,
        0x7fff,
        0x8000,
        0xffff,
        0x1_0000,
        0x7fff_ffff,
        0x8000_0000,
        0x8000_0001,
        0xffff_fffe,
        0xffff_ffff,
    ];
    let mut x = seed | 1;
    while v.len() < n {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        v.push(x);
    }
    v.truncate(n);
    v
}

/// f32 edge classes as bits: zeros, subnormals, normals at the extremes, infinities, NaNs,
/// then pseudo-random bit patterns.
pub fn f32_edges(n: usize, seed: u32) -> Vec<u32> {
    let mut v: Vec<u32> = vec![
        0x0000_0000,
        0x8000_0000,
        0x0000_0001,
        0x8000_0001,
        0x007f_ffff,
        0x0080_0000,
        0x8080_0000,
        0x3f80_0000,
        0xbf80_0000,
        0x3f80_0001,
        0x4000_0000,
        0x7f7f_ffff,
        0xff7f_ffff,
        0x7f80_0000,
        0xff80_0000,
        0x7fc0_0000,
        0xffc0_0000,
        0x7f80_0001,
        0x3eaa_aaab,
        0x3400_0000,
    ];
    let mut x = seed | 1;
    while v.len() < n {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        v.push(x);
    }
    v.truncate(n);
    v
}

/// 64-bit integer edges: zero and small values, the word boundaries, the sign bits, all ones,
/// mixed patterns, then a deterministic pseudo-random tail.
pub fn int64_edges(n: usize, seed: u64) -> Vec<u64> {
    let mut v: Vec<u64> = vec![
        0,
        1,
        0xffff_ffff,
        0x1_0000_0000,
        0x7fff_ffff_ffff_ffff,
        0x8000_0000_0000_0000,
        0x8000_0000_0000_0001,
        0xffff_ffff_0000_0000,
        0xffff_ffff_ffff_ffff,
        0x1234_5678_9abc_def0,
        0xfedc_ba98_7654_3210,
        0x0000_0001_ffff_ffff,
        0xffff_fffe_ffff_ffff,
        5,
        -5i64 as u64,
        0x8000_0000,
        0x7fff_ffff_ffff_fffe,
        2,
        3,
        7,
        10,
        -7i64 as u64,
        -10i64 as u64,
        0x1_0000_0001,
        0xffff_ffff_ffff_fffe,
    ];
    v.extend(xorshift64(seed).take(n.saturating_sub(v.len())));
    v.truncate(n);
    v
}

/// f64 edge classes as bits: signed zeros, subnormals, the least normal, values near 1, the
/// largest finite, infinities, quiet and signalling NaNs, inexact fractions, then a
/// deterministic pseudo-random tail.
pub fn f64_edges(n: usize, seed: u64) -> Vec<u64> {
    let mut v: Vec<u64> = vec![
        0,
        1 << 63,
        1,
        (1 << 63) | 1,
        0x000f_ffff_ffff_ffff,
        0x0010_0000_0000_0000,
        0x3ff0_0000_0000_0000,
        0xbff0_0000_0000_0000,
        0x3ff0_0000_0000_0001,
        0x4000_0000_0000_0000,
        0x3fd5_5555_5555_5555,
        0x7fef_ffff_ffff_ffff,
        0xffef_ffff_ffff_ffff,
        0x7ff0_0000_0000_0000,
        0xfff0_0000_0000_0000,
        0x7ff8_0000_0000_0000,
        0xfff8_0000_0000_0001,
        0x7ff0_0000_0000_0001,
        0x3ca0_0000_0000_0000,
        0xbff8_0000_0000_0000,
        0x4008_0000_0000_0000,
        0x3fb9_9999_9999_999a,
        0x4341_2345_6789_abcd,
        0x0123_4567_89ab_cdef,
    ];
    v.extend(xorshift64(seed).take(n.saturating_sub(v.len())));
    v.truncate(n);
    v
}

/// A deterministic stream of pseudo-random words ([`Rng`]'s states).
fn xorshift64(seed: u64) -> impl Iterator<Item = u64> {
    let mut r = Rng(seed | 1);
    std::iter::from_fn(move || Some(r.next_u64()))
}

/// One input of [`row_kernel`]: the PTX load type, the register it is loaded into, and the
/// element size in bytes.
pub type Input<'a> = (&'a str, &'a str, u32);

/// A kernel `name(p0[, p1], out)` whose thread `gid` (`%r4`) loads element `gid` of each
/// input parameter into its register, points `%rd7` at its `stride`-byte row of `out`, then
/// runs `body`. `decls` declares the registers (`%r1`–`%r4` and `%rd1`–`%rd7` are the
/// harness's); the tests write the rows and their expected values.
pub fn row_kernel(name: &str, decls: &str, inputs: &[Input], stride: usize, body: &str) -> String {
    assert!(inputs.len() <= 2, "inputs are %rd1 and %rd2");
    let mut params = String::new();
    let mut param_loads = String::new();
    let mut loads = String::new();
    for (i, (ty, reg, bytes)) in inputs.iter().enumerate() {
        params += &format!(".param .u64 p{i}, ");
        param_loads += &format!("\tld.param.u64 %rd{}, [p{i}];\n", i + 1);
        loads += &format!(
            "\tmul.wide.u32 %rd4, %r4, {bytes};\n\tadd.s64 %rd7, %rd{}, %rd4;\n\tld.global.{ty} {reg}, [%rd7];\n",
            i + 1
        );
    }
    format!(
        ".version 7.0\n.target sm_20\n.address_size 64\n\
         .visible .entry {name}({params}.param .u64 out)\n{{\n{decls}{param_loads}\
         \tld.param.u64 %rd3, [out];\n\tmov.u32 %r1, %ctaid.x;\n\tmov.u32 %r2, %ntid.x;\n\
         \tmov.u32 %r3, %tid.x;\n\tmad.lo.s32 %r4, %r1, %r2, %r3;\n{loads}\
         \tmul.wide.u32 %rd4, %r4, {stride};\n\tadd.s64 %rd7, %rd3, %rd4;\n{body}\tret;\n}}\n"
    )
}

/// Every ordered pair of `edges`, as the two input vectors of a two-operand kernel.
pub fn all_pairs<T: Copy>(edges: &[T]) -> (Vec<T>, Vec<T>) {
    edges
        .iter()
        .flat_map(|&x| edges.iter().map(move |&y| (x, y)))
        .unzip()
}

/// Runs the two-input row kernel `name` (made by `row_kernel`, one output word per row) with
/// thread `i` reading `a[i]` and `b[i]`, 64 threads to a CTA, on both executors; returns the
/// output words, row `r` of thread `i` at `rows * i + r`.
pub fn run_row_pairs(name: &str, text: &str, rows: usize, a: &[u32], b: &[u32]) -> Vec<u32> {
    let n = a.len();
    assert!(
        n.is_multiple_of(64) && b.len() == n,
        "whole CTAs of input pairs"
    );
    let launch = spec(
        name,
        (n / 64) as u32,
        64,
        vec![u32s(a), u32s(b), zeros32(rows * n)],
    );
    words(&run_both(&format!("{name}.ptx"), text, &launch)[2])
}

/// Requires row `r`'s word for pair `i` to be `want(r, a[i], b[i])` wherever that is `Some`.
pub fn assert_rows(
    rows: &[&str],
    a: &[u32],
    b: &[u32],
    got: &[u32],
    want: impl Fn(usize, u32, u32) -> Option<u32>,
) {
    for i in 0..a.len() {
        for (r, row) in rows.iter().enumerate() {
            if let Some(w) = want(r, a[i], b[i]) {
                assert_eq!(
                    got[rows.len() * i + r],
                    w,
                    "{row}: a = {:#x}, b = {:#x}",
                    a[i],
                    b[i]
                );
            }
        }
    }
}

/// A tiny deterministic generator (xorshift) for the random program tests.
pub struct Rng(pub u64);

impl Rng {
    /// The next state (xorshift64).
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn next(&mut self) -> u32 {
        (self.next_u64() >> 16) as u32
    }
    pub fn below(&mut self, n: u32) -> u32 {
        self.next() % n
    }
    pub fn pick<'a, T>(&mut self, v: &'a [T]) -> &'a T {
        &v[self.below(v.len() as u32) as usize]
    }
}

/// PTX's directed roundings (`.rz`, `.rm`, `.rp`), for the references below.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Directed {
    Rz,
    Rm,
    Rp,
}

/// The f32 rounding in direction `dir` of an exact value `v + t`, given as an f64 `v` and
/// the sign of a tail `t` smaller than half of `v`'s f64 spacing (the rounding error of an
/// f64 operation on f32 values, which never overflows or underflows in f64).
///
/// Why this is exact: let `y` be `v` rounded to f32 (to nearest). The exact value lies
/// between `y` and one of `y`'s f32 neighbours, the one on the side of `v + t`, so the
/// directed result is `y` or that neighbour, whichever the direction picks; only the side,
/// the sign of `(v - y) + t`, is needed. `v - y` is exact in f64 (two nearby f64 values:
/// Sterbenz, or `y` zero), and when it is not zero it is at least one f64 spacing, larger
/// than `|t|`: the side is the sign of `v - y`, else the sign of `t`. Overflow needs no
/// case: `y` is then ±∞ and its neighbour towards zero ±`f32::MAX`.
pub fn round_f32(v: f64, t: std::cmp::Ordering, dir: Directed) -> f32 {
    use std::cmp::Ordering::*;
    if v.is_nan() {
        return f32::NAN;
    }
    let y = v as f32;
    let side = match v - f64::from(y) {
        d if d > 0.0 => Greater,
        d if d < 0.0 => Less,
        _ if y.is_infinite() => Equal, // an exact infinity (t is zero then)
        _ => t,
    };
    match (dir, side) {
        (_, Equal) => y,
        (Directed::Rp, Greater) => y.next_up(),
        (Directed::Rm, Less) => y.next_down(),
        (Directed::Rp | Directed::Rm, _) => y,
        // Towards zero: `y` when the exact value is further from zero than `y`.
        (Directed::Rz, s) if (s == Greater) == y.is_sign_positive() => y,
        (Directed::Rz, Greater) => y.next_up(),
        (Directed::Rz, _) => y.next_down(),
    }
}

/// `a / b` rounded in direction `dir` (IEEE 754 division; no flushing). The f64 quotient
/// `q` of two f32 values is their exact quotient rounded once, and the residual
/// `a - q·b` is exact in f64 (one FMA); the tail `a/b - q` has the residual's sign times
/// `b`'s.
pub fn div_f32(a: f32, b: f32, dir: Directed) -> f32 {
    let (x, y) = (f64::from(a), f64::from(b));
    let q = x / y;
    if !q.is_finite() || q == 0.0 {
        return q as f32; // ∞, NaN or a zero: exact
    }
    let r = (-q).mul_add(y, x);
    let tail = (r * y.signum())
        .partial_cmp(&0.0)
        .unwrap_or(std::cmp::Ordering::Equal);
    round_f32(q, tail, dir)
}

/// `a / b` in f64 rounded in direction `dir`, where the round-to-nearest quotient `q` and
/// its residual `a - q·b` decide it: the residual is exact (one FMA) unless it underflows
/// (Boldo and Daumas), and `a/b - q` has its sign times `b`'s. `None` for quotients or
/// dividends near the subnormal range, where that may fail. Exact special cases (NaN, ∞ and
/// zero operands) are `q` itself; an overflowing quotient is ±∞ or ±`f64::MAX` by direction.
pub fn div_f64(a: f64, b: f64, dir: Directed) -> Option<f64> {
    use std::cmp::Ordering::*;
    let q = a / b;
    let exact_special = q.is_nan()
        || (q == 0.0 && (a == 0.0 || b.is_infinite()))
        || (q.is_infinite() && (a.is_infinite() || b == 0.0));
    if exact_special {
        return Some(q);
    }
    if q.is_infinite() {
        let up = q > 0.0;
        return Some(match dir {
            Directed::Rz => f64::MAX.copysign(q),
            Directed::Rp if up => q,
            Directed::Rm if !up => q,
            _ => f64::MAX.copysign(q),
        });
    }
    if q.abs() < 2f64.powi(-960) || a.abs() < 2f64.powi(-900) {
        return None;
    }
    let r = (-q).mul_add(b, a);
    let tail = match r * b.signum() {
        t if t > 0.0 => Greater,
        t if t < 0.0 => Less,
        _ => Equal,
    };
    Some(match (dir, tail) {
        (_, Equal) => q,
        (Directed::Rp, Greater) => q.next_up(),
        (Directed::Rm, Less) => q.next_down(),
        (Directed::Rp | Directed::Rm, _) => q,
        (Directed::Rz, Greater) if q < 0.0 => q.next_up(),
        (Directed::Rz, Less) if q > 0.0 => q.next_down(),
        (Directed::Rz, _) => q,
    })
}

/// `a + b` rounded in direction `dir` (IEEE 754 addition; no flushing). The f64 sum and its
/// error (Knuth's TwoSum, exact in f64) give the tail; an exact zero sum of operands of
/// opposite signs is −0 towards −∞ and +0 otherwise (IEEE 754 §6.3).
pub fn add_f32(a: f32, b: f32, dir: Directed) -> f32 {
    let (x, y) = (f64::from(a), f64::from(b));
    let s = x + y;
    if !s.is_finite() {
        return s as f32;
    }
    let bv = s - x;
    let err = (x - (s - bv)) + (y - bv);
    if s == 0.0 && err == 0.0 {
        let both_negative = a.is_sign_negative() && b.is_sign_negative();
        let signs_differ = a.is_sign_negative() != b.is_sign_negative();
        return if both_negative || (dir == Directed::Rm && signs_differ) {
            -0.0
        } else {
            0.0
        };
    }
    let tail = err.partial_cmp(&0.0).unwrap_or(std::cmp::Ordering::Equal);
    round_f32(s, tail, dir)
}
