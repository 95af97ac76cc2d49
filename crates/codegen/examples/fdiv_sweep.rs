//! `cargo run --release -p codegen --example fdiv_sweep [PAIRS]`: the translated IEEE f32
//! division (`div.rn/.rz/.rm/.rp.f32`, see src/select/fdiv.rs) against the PTX executor, bit
//! for bit, and the `.rn` quotient against Rust's `/`, over PAIRS random operand pairs
//! (default 10^7: random bit patterns, half of them with quotients near or in the subnormal
//! range). Too slow for the default test suite, which runs edge classes and 16384 pairs.

use exec::{ElemType, LaunchSpec, ParamSpec};

const KERNEL: &str = r#".version 7.0
.target sm_20
.address_size 64
.visible .entry fdiv(.param .u64 pa, .param .u64 pb, .param .u64 out)
{
	.reg .b32 %r<6>;
	.reg .f32 %f<4>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [pa];
	ld.param.u64 %rd2, [pb];
	ld.param.u64 %rd3, [out];
	mov.u32 %r1, %ctaid.x;
	mov.u32 %r2, %ntid.x;
	mov.u32 %r3, %tid.x;
	mad.lo.s32 %r4, %r1, %r2, %r3;
	mul.wide.u32 %rd4, %r4, 4;
	add.s64 %rd7, %rd1, %rd4;
	ld.global.f32 %f1, [%rd7];
	add.s64 %rd7, %rd2, %rd4;
	ld.global.f32 %f2, [%rd7];
	mul.wide.u32 %rd4, %r4, 16;
	add.s64 %rd7, %rd3, %rd4;
	div.rn.f32 %f3, %f1, %f2;
	st.global.f32 [%rd7], %f3;
	div.rz.f32 %f3, %f1, %f2;
	st.global.f32 [%rd7+4], %f3;
	div.rm.f32 %f3, %f1, %f2;
	st.global.f32 [%rd7+8], %f3;
	div.rp.f32 %f3, %f1, %f2;
	st.global.f32 [%rd7+12], %f3;
	ret;
}
"#;

fn buf(v: &[u32]) -> ParamSpec {
    ParamSpec::Buffer {
        ty: ElemType::U32,
        bytes: v.iter().flat_map(|x| x.to_le_bytes()).collect(),
    }
}

fn main() {
    let pairs: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000_000);
    let file = diag::SourceFile::new("fdiv.ptx", KERNEL);
    let (m, d) = check::check_source(&file);
    assert!(!diag::has_errors(&d));
    let m = m.expect("module");
    let cubin = codegen::compile_module(&m, &file).expect("compiles").cubin;
    let chunk = 1 << 18;
    let mut s = 0x9e37_79b9u32;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        s
    };
    let (mut done, mut mismatches) = (0usize, 0usize);
    let start = std::time::Instant::now();
    while done < pairs {
        let n = chunk.min(pairs - done).next_multiple_of(128);
        let (mut a, mut b) = (Vec::with_capacity(n), Vec::with_capacity(n));
        for k in 0..n {
            let (x, y) = (next(), next());
            if k % 2 == 0 {
                a.push(x);
                b.push(y);
            } else {
                // Quotients around the bottom of the range.
                a.push(x & 0x83ff_ffff);
                b.push(y & 0x807f_ffff | 0x7c00_0000);
            }
        }
        let spec = LaunchSpec {
            kernel: Some("fdiv".into()),
            grid: [(n / 128) as u32, 1, 1],
            block: [128, 1, 1],
            shared_bytes: 0,
            params: vec![buf(&a), buf(&b), buf(&vec![0; 4 * n])],
            textures: Vec::new(),
        };
        let ptx = exec::run(&m, &file, &spec, &exec::RunOptions::default()).expect("PTX run");
        let sass = fermi_exec::run_module(&cubin, &spec, &fermi_exec::Options::default())
            .expect("Fermi run");
        let (pb, sb) = (ptx.buffers[2].bytes(), sass.buffers[2].bytes());
        for k in 0..n {
            let w = |v: &[u8], j: usize| {
                let o = 16 * k + 4 * j;
                u32::from_le_bytes([v[o], v[o + 1], v[o + 2], v[o + 3]])
            };
            let q = f32::from_bits(a[k]) / f32::from_bits(b[k]);
            let rust_ok = q.is_nan() || w(&sb, 0) == q.to_bits();
            if (0..4).any(|j| w(&pb, j) != w(&sb, j)) || !rust_ok {
                mismatches += 1;
                if mismatches <= 10 {
                    eprintln!(
                        "mismatch: {:#010x} / {:#010x}: PTX {:08x?} Fermi {:08x?}",
                        a[k],
                        b[k],
                        (0..4).map(|j| w(&pb, j)).collect::<Vec<_>>(),
                        (0..4).map(|j| w(&sb, j)).collect::<Vec<_>>()
                    );
                }
            }
        }
        done += n;
    }
    println!(
        "{done} pairs x 4 roundings: {mismatches} mismatches ({:.1} s)",
        start.elapsed().as_secs_f64()
    );
    if mismatches > 0 {
        std::process::exit(1);
    }
}
