//! The repository's big-integer kernels, which translate since `mad.cc`/`madc` are selected:
//! tests/run/bigint.ptx and the four entries of tests/corpus/bigint_carry.ptx run on both
//! executors bit for bit; the 128×128 → 256-bit product is also checked against a
//! schoolbook product computed here.

mod common;
use common::*;

fn read(path: &str) -> String {
    std::fs::read_to_string(format!("../../{path}")).expect(path)
}

fn values(n: usize, seed: u64) -> Vec<u64> {
    let mut v: Vec<u64> = vec![
        0,
        1,
        u64::MAX,
        u64::MAX - 1,
        0x8000_0000_0000_0000,
        0xffff_ffff,
        0x1_0000_0000,
        0x7fff_ffff_ffff_ffff,
    ];
    let mut s = seed | 1;
    while v.len() < n {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        v.push(s);
    }
    v.truncate(n);
    v
}

/// The 256-bit product of two 128-bit numbers given as little-endian 32-bit limbs.
fn product(a: &[u32], b: &[u32]) -> [u32; 8] {
    let mut r = [0u64; 8];
    for (i, &x) in a.iter().enumerate() {
        let mut carry = 0u64;
        for (j, &y) in b.iter().enumerate() {
            let t = r[i + j] + u64::from(x) * u64::from(y) + carry;
            r[i + j] = t & 0xffff_ffff;
            carry = t >> 32;
        }
        r[i + 4] += carry;
    }
    r.map(|x| x as u32)
}

#[test]
fn run_bigint_agrees() {
    let threads = 64;
    let input = values(8 * threads, 0x9e37_79b9_7f4a_7c15);
    let text = read("tests/run/bigint.ptx");
    run_both(
        "tests/run/bigint.ptx",
        &text,
        &spec(
            "bigint",
            1,
            threads as u32,
            vec![u64s(&input), u64s(&vec![0; 24 * threads])],
        ),
    );
}

#[test]
fn corpus_bigint_carry_entries_agree_and_multiply_right() {
    let text = read("tests/corpus/bigint_carry.ptx");
    let n = 96usize;
    let a = values(4 * n, 0x2545_f491_4f6c_dd1d);
    let b = values(4 * n, 0xd1b5_4a32_d192_ed03);
    for kernel in ["bigint_add256", "bigint_sub256"] {
        run_both(
            "tests/corpus/bigint_carry.ptx",
            &text,
            &spec(
                kernel,
                (n as u32).div_ceil(32),
                32,
                vec![
                    u64s(&a),
                    u64s(&b),
                    u64s(&vec![0; 4 * n]),
                    value_u32(n as u32),
                ],
            ),
        );
    }
    run_both(
        "tests/corpus/bigint_carry.ptx",
        &text,
        &spec(
            "bigint_add128_u64",
            1,
            n as u32,
            vec![u64s(&a[..2 * n]), u64s(&b[..2 * n]), u64s(&vec![0; 2 * n])],
        ),
    );
    let out = run_both(
        "tests/corpus/bigint_carry.ptx",
        &text,
        &spec(
            "bigint_mul128",
            (n as u32).div_ceil(32),
            32,
            vec![
                u64s(&a[..2 * n]),
                u64s(&b[..2 * n]),
                u64s(&vec![0; 4 * n]),
                value_u32(n as u32),
            ],
        ),
    );
    let (aw, bw, got) = (
        words(&u64_bytes(&a[..2 * n])),
        words(&u64_bytes(&b[..2 * n])),
        words(&out[2]),
    );
    for i in 0..n {
        let want = product(&aw[4 * i..4 * i + 4], &bw[4 * i..4 * i + 4]);
        assert_eq!(&got[8 * i..8 * i + 8], &want, "thread {i}");
    }
}

fn u64_bytes(v: &[u64]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}
