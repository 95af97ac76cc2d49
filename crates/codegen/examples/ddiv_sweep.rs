//! `cargo run --release -p ptxvm-codegen --example ddiv_sweep [PAIRS]`: the translated IEEE f64
//! division and reciprocal (`div/rcp.rn/.rz/.rm/.rp.f64`, src/select/ddiv.rs) against the PTX
//! executor, bit for bit, and `div.rn`/`rcp.rn` against Rust's `/`, over PAIRS random operand
//! pairs (default 10^6: random bit patterns, a quarter with quotients near the subnormal range
//! and a quarter near overflow), then `sqrt.rn/.rz/.rm/.rp.f64` over as many random values. Too slow for the default suite, which runs edge classes and
//! 8192 pairs (tests/ddiv.rs).

use exec::{ElemType, LaunchSpec, ParamSpec};

/// The kernels of the default suite's tests/ddiv.rs, one file each.
const KERNEL: &str = include_str!("../tests/data/ddiv.ptx");

const SQRT: &str = include_str!("../tests/data/dsqrt.ptx");

fn buf(v: &[u64]) -> ParamSpec {
    ParamSpec::Buffer {
        ty: ElemType::U64,
        bytes: v.iter().flat_map(|x| x.to_le_bytes()).collect(),
    }
}

fn main() {
    let pairs: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000);
    let file = diag::SourceFile::new("ddiv.ptx", KERNEL);
    let (m, d) = check::check_source(&file);
    assert!(!diag::has_errors(&d));
    let m = m.expect("module");
    let cubin = codegen::compile_module(&m, &file).expect("compiles").cubin;
    let chunk = 1 << 16;
    let mut s = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let (mut done, mut mismatches) = (0usize, 0usize);
    let start = std::time::Instant::now();
    while done < pairs {
        let n = chunk.min(pairs - done).next_multiple_of(128);
        let (mut a, mut b) = (Vec::with_capacity(n), Vec::with_capacity(n));
        for k in 0..n {
            let (x, y) = (next(), next());
            match k % 4 {
                0 => {
                    a.push(x & 0x80ff_ffff_ffff_ffff);
                    b.push(y & 0x800f_ffff_ffff_ffff | 0x3ff0_0000_0000_0000);
                }
                1 => {
                    a.push(x | 0x7f00_0000_0000_0000);
                    b.push(y & 0x803f_ffff_ffff_ffff);
                }
                _ => {
                    a.push(x);
                    b.push(y);
                }
            }
        }
        let spec = LaunchSpec {
            kernel: Some("ddiv".into()),
            grid: [(n / 128) as u32, 1, 1],
            block: [128, 1, 1],
            shared_bytes: 0,
            params: vec![buf(&a), buf(&b), buf(&vec![0; 9 * n])],
            textures: Vec::new(),
        };
        let ptx = exec::run(&m, &file, &spec, &exec::RunOptions::default()).expect("PTX run");
        let sass = fermi_exec::run_module(&cubin, &spec, &fermi_exec::Options::default())
            .expect("Fermi run");
        let (pb, sb) = (ptx.buffers[2].bytes(), sass.buffers[2].bytes());
        for k in 0..n {
            let w = |v: &[u8], j: usize| {
                let o = 72 * k + 8 * j;
                u64::from_le_bytes(v[o..o + 8].try_into().expect("8 bytes"))
            };
            let (x, y) = (f64::from_bits(a[k]), f64::from_bits(b[k]));
            let ok = |got: u64, want: f64| want.is_nan() || got == want.to_bits();
            let rust_ok = ok(w(&sb, 0), x / y) && ok(w(&sb, 4), 1.0 / y) && ok(w(&sb, 8), x / 3.0);
            if (0..9).any(|j| w(&pb, j) != w(&sb, j)) || !rust_ok {
                mismatches += 1;
                if mismatches <= 10 {
                    eprintln!(
                        "mismatch: {:#018x} / {:#018x}: PTX {:016x?} Fermi {:016x?}",
                        a[k],
                        b[k],
                        (0..9).map(|j| w(&pb, j)).collect::<Vec<_>>(),
                        (0..9).map(|j| w(&sb, j)).collect::<Vec<_>>()
                    );
                }
            }
        }
        done += n;
    }
    println!(
        "{done} pairs x (4 divisions, 4 reciprocals, 1 by 3.0): {mismatches} mismatches ({:.1} s)",
        start.elapsed().as_secs_f64()
    );
    mismatches += sqrt_sweep(pairs);
    if mismatches > 0 {
        std::process::exit(1);
    }
}

/// `sqrt.rn/.rz/.rm/.rp.f64` over `count` random values (a third subnormal): both executors
/// bit for bit, `.rn` against Rust's `sqrt`. Returns the number of mismatches.
fn sqrt_sweep(count: usize) -> usize {
    let file = diag::SourceFile::new("dsqrt.ptx", SQRT);
    let (m, d) = check::check_source(&file);
    assert!(!diag::has_errors(&d));
    let m = m.expect("module");
    let cubin = codegen::compile_module(&m, &file).expect("compiles").cubin;
    let mut s = 0x5851_f42d_4c95_7f2du64;
    let (mut done, mut mismatches) = (0usize, 0usize);
    let start = std::time::Instant::now();
    while done < count {
        let n = (1usize << 16).min(count - done).next_multiple_of(128);
        let x: Vec<u64> = (0..n)
            .map(|k| {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                if k % 3 == 0 {
                    s & 0x000f_ffff_ffff_ffff
                } else {
                    s & 0x7fff_ffff_ffff_ffff
                }
            })
            .collect();
        let spec = LaunchSpec {
            kernel: Some("dsqrt".into()),
            grid: [(n / 128) as u32, 1, 1],
            block: [128, 1, 1],
            shared_bytes: 0,
            params: vec![buf(&x), buf(&vec![0; 4 * n])],
            textures: Vec::new(),
        };
        let ptx = exec::run(&m, &file, &spec, &exec::RunOptions::default()).expect("PTX run");
        let sass = fermi_exec::run_module(&cubin, &spec, &fermi_exec::Options::default())
            .expect("Fermi run");
        let (pb, sb) = (ptx.buffers[1].bytes(), sass.buffers[1].bytes());
        for (k, &v) in x.iter().enumerate() {
            let w = |b: &[u8], j: usize| {
                let o = 32 * k + 8 * j;
                u64::from_le_bytes(b[o..o + 8].try_into().expect("8 bytes"))
            };
            let r = f64::from_bits(v).sqrt();
            if (0..4).any(|j| w(&pb, j) != w(&sb, j)) || (!r.is_nan() && w(&sb, 0) != r.to_bits()) {
                mismatches += 1;
                if mismatches <= 10 {
                    eprintln!("sqrt mismatch: {v:#018x}");
                }
            }
        }
        done += n;
    }
    println!(
        "{done} values x 4 square roots: {mismatches} mismatches ({:.1} s)",
        start.elapsed().as_secs_f64()
    );
    mismatches
}
