//! 256-bit loads and stores (`.v8` of 32-bit types, `.v4` of 64-bit types: PTX ISA 8.8
//! §9.7.9.8 and §9.7.9.10) and the `.v8` of 8- and 16-bit types ptxas 12.9 takes, from
//! tests/run/wide_vectors.ptx. The expected buffers are the permutations the kernel's comments
//! state, computed here from the input; alignment follows the ISA ("vector accesses are
//! aligned to the vector size": 32 bytes for a 256-bit access).

mod common;
use common::*;
use exec::Arg;

const THREADS: usize = 2;

fn kernel() -> String {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/run/wide_vectors.ptx"
    );
    std::fs::read_to_string(path).expect("tests/run/wide_vectors.ptx")
}

/// Input word `i` holds the bytes 4i+16 .. 4i+19, so every byte is distinct.
fn input() -> Vec<u32> {
    (0..8 * THREADS as u32)
        .map(|i| {
            let b = (4 * i + 16) as u8;
            u32::from_le_bytes([b, b + 1, b + 2, b + 3])
        })
        .collect()
}

fn expected(inp: &[u32]) -> Vec<u8> {
    let bytes: Vec<u8> = inp.iter().flat_map(|w| w.to_le_bytes()).collect();
    let mut out = vec![0u8; 12288 + 32 * THREADS];
    let put32 = |out: &mut Vec<u8>, at: usize, v: u32| {
        out[at..at + 4].copy_from_slice(&v.to_le_bytes());
    };
    for t in 0..THREADS {
        let w = &inp[8 * t..8 * t + 8];
        let blk = &bytes[32 * t..32 * t + 32];
        // .v8.f32, rotated by one.
        for k in 0..8 {
            put32(&mut out, 32 * t + 4 * k, w[(k + 1) % 8]);
        }
        // .v4.f64, reversed.
        for j in 0..4 {
            let src = &blk[8 * (3 - j)..8 * (3 - j) + 8];
            let at = 4096 + 32 * t + 8 * j;
            out[at..at + 8].copy_from_slice(src);
        }
        // .v8.b32 with element 5 sunk: {e7, e6, t, e4, e3, e2, e1, e0}.
        let v8b32 = [w[7], w[6], t as u32, w[4], w[3], w[2], w[1], w[0]];
        for (k, v) in v8b32.iter().enumerate() {
            put32(&mut out, 8192 + 32 * t + 4 * k, *v);
        }
        // .v8.b16 of the first 16 bytes, reversed.
        for k in 0..8 {
            let at = 12288 + 32 * t + 2 * k;
            let src = 2 * (7 - k);
            out[at..at + 2].copy_from_slice(&blk[src..src + 2]);
        }
        // .v8.u8 of bytes 16..24, reversed, the first being (e7 + e0) mod 256.
        let e = &blk[16..24];
        let at = 12304 + 32 * t;
        out[at] = e[7].wrapping_add(e[0]);
        for k in 1..8 {
            out[at + k] = e[7 - k];
        }
    }
    out
}

#[test]
fn wide_vectors_move_every_element_where_the_kernel_says() {
    let (mut dev, m) = load("wide_vectors.ptx", &kernel());
    let inp = input();
    let pin = upload_u32(&mut dev, &inp);
    let pout = upload_u32(&mut dev, &vec![0; (12288 + 32 * THREADS) / 4]);
    launch(
        &dev,
        &m,
        "wide",
        &cfg([1, 1, 1], [THREADS as u32, 1, 1]),
        &[Arg::ptr(pin), Arg::ptr(pout)],
    )
    .unwrap();
    let got = dev.read(pout, (12288 + 32 * THREADS) as u64).unwrap();
    assert_eq!(got, expected(&inp));
}

/// A 256-bit access at an address that is 16- but not 32-byte aligned faults, naming the
/// 32 bytes; so does a `.v8.b16` (16 bytes) at an 8-byte-aligned address.
#[test]
fn wide_vectors_fault_unless_aligned_to_their_size() {
    for (line, size) in [
        (
            "ld.global.v8.f32 {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, [%rd1+16];",
            32,
        ),
        (
            "st.global.v8.f32 [%rd1+16], {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8};",
            32,
        ),
        ("ld.global.v4.f64 {%fd1, %fd2, %fd3, %fd4}, [%rd1+16];", 32),
        ("st.global.v4.u64 [%rd1+48], {%rd1, %rd1, %rd1, %rd1};", 32),
        (
            "st.global.v8.b16 [%rd1+8], {%h1, %h1, %h1, %h1, %h1, %h1, %h1, %h1};",
            16,
        ),
    ] {
        let text = format!(
            ".version 8.8\n.target sm_100\n.address_size 64\n\
             .visible .entry k(.param .u64 p)\n{{\n\
             .reg .f32 %f<9>;\n.reg .f64 %fd<5>;\n.reg .b64 %rd<2>;\n.reg .b16 %h<2>;\n\
             ld.param.u64 %rd1, [p];\nmov.b16 %h1, 7;\nmov.f32 %f1, 0f00000000;\n\
             mov.f32 %f2, %f1;\nmov.f32 %f3, %f1;\nmov.f32 %f4, %f1;\nmov.f32 %f5, %f1;\n\
             mov.f32 %f6, %f1;\nmov.f32 %f7, %f1;\nmov.f32 %f8, %f1;\n{line}\nret;\n}}\n"
        );
        let (mut dev, m) = load("misaligned.ptx", &text);
        let p = upload_u32(&mut dev, &[0; 32]);
        let err =
            launch(&dev, &m, "k", &cfg([1, 1, 1], [1, 1, 1]), &[Arg::ptr(p)]).expect_err(line);
        let exec::ExecError::Fault(f) = err else {
            panic!("expected a fault for `{line}`: {err}")
        };
        assert!(
            matches!(f.kind, exec::FaultKind::Misaligned { size: s, .. } if s == size),
            "`{line}`: {:?}",
            f.kind
        );
    }
}
