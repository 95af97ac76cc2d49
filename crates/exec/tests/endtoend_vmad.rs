//! End-to-end: every `vmad` operand-negation combination ptxas accepts, and `.po`, against the
//! pseudo-code of ptx-video.md §9.7.18.1.3 transcribed here line by line (i128 arithmetic).

mod endtoend_common;
use endtoend_common::*;

struct Form {
    a_signed: bool,
    b_signed: bool,
    sat: bool,
    shift: u32,
}

/// The spec's pseudo-code for one `vmad`.
fn vmad_ref(f: &Form, a: u32, b: u32, c: u32, neg: [bool; 3], po: bool) -> u32 {
    let ta: i128 = if f.a_signed {
        i128::from(a as i32)
    } else {
        i128::from(a)
    };
    let tb: i128 = if f.b_signed {
        i128::from(b as i32)
    } else {
        i128::from(b)
    };
    let signed_final = f.a_signed || f.b_signed || (neg[0] ^ neg[1]) || neg[2];
    let mut tmp: i128 = ta * tb;
    let mut c = c;
    let mut lsb = 0;
    if po {
        lsb = 1;
    } else if neg[0] ^ neg[1] {
        tmp = !tmp;
        lsb = 1;
    } else if neg[2] {
        c = !c;
        lsb = 1;
    }
    let c128: i128 = if signed_final {
        i128::from(c as i32)
    } else {
        i128::from(c)
    };
    let tmp = tmp + c128 + lsb;
    // Sign-extended shift when the final result is signed, zero-extended otherwise.
    let shifted = if signed_final {
        tmp >> f.shift
    } else {
        ((tmp as u128) >> f.shift) as i128
    };
    let result = shifted as u64;
    let result = if !f.sat {
        result
    } else if signed_final {
        (result as i64).clamp(i32::MIN as i64, i32::MAX as i64) as u64
    } else {
        result.min(u32::MAX as u64)
    };
    result as u32
}

#[test]
fn vmad_every_accepted_negation_and_po() {
    let n = 96usize;
    let mut rng = Rng(0x7a4d);
    let mut input: Vec<u32> = (0..3 * n).map(|_| rng.next_u32()).collect();
    // Edge rows: extremes that saturate and products that overflow 32 bits.
    input[..3].copy_from_slice(&[u32::MAX, u32::MAX, u32::MAX]);
    input[3..6].copy_from_slice(&[0x8000_0000, 0x7fff_ffff, 0x8000_0000]);
    input[6..9].copy_from_slice(&[0, 0, 0]);
    let out = run_all_threads(
        "vmad_negations.ptx",
        "vmad_negations",
        &cfg([1, 1, 1], [n as u32, 1, 1]),
        &[buf(&input), zbuf::<u32>(14 * n)],
    );
    let got: Vec<u32> = decode(&out[1]);
    let negs = [0u32, 1, 2, 3, 4, 7].map(|k| [k & 1 != 0, k & 2 != 0, k & 4 != 0]);
    let forms = [
        Form {
            a_signed: false,
            b_signed: false,
            sat: false,
            shift: 0,
        },
        Form {
            // vmad.s32.u32.s32: .dtype s32, .atype u32, .btype s32.
            a_signed: false,
            b_signed: true,
            sat: true,
            shift: 7,
        },
    ];
    for t in 0..n {
        let (a, b, c) = (input[3 * t], input[3 * t + 1], input[3 * t + 2]);
        let mut want = Vec::new();
        for f in &forms {
            for neg in negs {
                want.push(vmad_ref(f, a, b, c, neg, false));
            }
            want.push(vmad_ref(f, a, b, c, [false; 3], true));
        }
        assert_eq!(
            &got[14 * t..14 * t + 14],
            &want[..],
            "thread {t} a={a:#x} b={b:#x} c={c:#x}"
        );
    }
}
