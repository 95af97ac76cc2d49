//! Spilling to local memory: bodies that need more registers than Fermi has (R4–R62 for
//! values, P0–P6) compile, run on both executors with the same output, and the `-v` report
//! shows their spill code.

mod common;
use common::*;

/// The `-v` report's spill figures of kernel `name` (stores, loads).
fn spill_figures(name: &str, text: &str, kernel: &str) -> (u32, u32, String) {
    let (m, file) = checked(name, text);
    let c = codegen::compile_module(&m, &file)
        .unwrap_or_else(|e| panic!("{name} does not compile:\n{}", diag::render(&file, &e)));
    let i = c
        .cubin
        .kernels
        .iter()
        .position(|k| k.name == kernel)
        .expect("the kernel");
    let report = codegen::report::print_report(&c.cubin.kernels[i], c.spills[i]);
    // Read the figures back from the report's text, as a user of `-v` would.
    let line = report
        .lines()
        .find(|l| l.contains("bytes spill stores"))
        .expect("the properties line")
        .trim()
        .to_string();
    let nums: Vec<u32> = line
        .split(|c: char| !c.is_ascii_digit())
        .filter(|w| !w.is_empty())
        .map(|w| w.parse().expect("a number"))
        .collect();
    (nums[1], nums[2], line)
}

const V: usize = 64;
const W: usize = 4;
const P: usize = 8;
const TRIPS: u32 = 3;
/// Bytes each thread writes: the 32-bit values, the 64-bit ones, the predicates as words.
const STRIDE: usize = 4 * V + 8 * W + 4 * P;

/// 64 32-bit values, 4 64-bit values and 8 predicates (plus the loop's own) live across a
/// loop and a divergent if: more than R4–R62 and P0–P6 hold.
fn pressure_kernel() -> String {
    let mut s = String::from(
        ".version 7.0\n.target sm_20\n.address_size 64\n\
         .visible .entry pressure(.param .u64 pin, .param .u64 pout, .param .u32 n)\n{\n\
         \t.reg .pred %p<8>;\n\t.reg .pred %q;\n\t.reg .b32 %v<64>;\n\t.reg .b64 %w<4>;\n\
         \t.reg .b32 %t<4>;\n\t.reg .b64 %a<4>;\n\
         \tld.param.u64 %a0, [pin];\n\tld.param.u64 %a1, [pout];\n\tld.param.u32 %t0, [n];\n\
         \tmov.u32 %t1, %tid.x;\n\tmul.wide.u32 %a2, %t1, 256;\n\tadd.s64 %a0, %a0, %a2;\n",
    );
    for k in 0..V {
        s += &format!("\tld.global.u32 %v{k}, [%a0+{}];\n", 4 * k);
    }
    for k in 0..W {
        s += &format!("\tmul.wide.u32 %w{k}, %v{k}, %v{};\n", k + 4);
    }
    for k in 0..P {
        s += &format!("\tsetp.lt.u32 %p{k}, %v{k}, %v{};\n", k + 8);
    }
    s += "\tmov.u32 %t2, 0;\nLOOP:\n\tsetp.ge.u32 %q, %t2, %t0;\n\t@%q bra DONE;\n";
    for k in 0..V {
        s += &format!("\tadd.u32 %v{k}, %v{k}, %v{};\n", (k + 1) % V);
    }
    for k in 0..W {
        s += &format!("\tcvt.u64.u32 %a3, %v{k};\n\tadd.u64 %w{k}, %w{k}, %a3;\n");
    }
    for k in 0..P {
        s += &format!("\t@%p{k} xor.b32 %v{k}, %v{k}, %t2;\n");
    }
    s += "\tadd.u32 %t2, %t2, 1;\n\tbra LOOP;\nDONE:\n\
          \tand.b32 %t3, %t1, 1;\n\tsetp.ne.u32 %q, %t3, 0;\n\t@%q bra ODD;\n";
    for k in (0..V).step_by(2) {
        s += &format!("\tmul.lo.u32 %v{k}, %v{k}, 3;\n");
    }
    s += "\tbra JOIN;\nODD:\n";
    for k in 0..W {
        s += &format!("\tmov.b64 %a3, 81985529216486895;\n\txor.b64 %w{k}, %w{k}, %a3;\n");
    }
    s += &format!("JOIN:\n\tmul.wide.u32 %a2, %t1, {STRIDE};\n\tadd.s64 %a1, %a1, %a2;\n");
    for k in 0..V {
        s += &format!("\tst.global.u32 [%a1+{}], %v{k};\n", 4 * k);
    }
    for k in 0..W {
        s += &format!("\tst.global.u64 [%a1+{}], %w{k};\n", 4 * V + 8 * k);
    }
    for k in 0..P {
        s += &format!(
            "\tselp.u32 %t3, 1, 0, %p{k};\n\tst.global.u32 [%a1+{}], %t3;\n",
            4 * V + 8 * W + 4 * k
        );
    }
    s += "\tret;\n}\n";
    s
}

/// The kernel's meaning for one thread, computed here.
fn pressure_reference(t: usize, input: &[u32], n: u32) -> Vec<u8> {
    let mut v: Vec<u32> = input[t * V..(t + 1) * V].to_vec();
    let mut w: Vec<u64> = (0..W)
        .map(|k| u64::from(v[k]) * u64::from(v[k + 4]))
        .collect();
    let p: Vec<bool> = (0..P).map(|k| v[k] < v[k + 8]).collect();
    for i in 0..n {
        // In order: each add reads the neighbour's value as it is at that point.
        for k in 0..V {
            v[k] = v[k].wrapping_add(v[(k + 1) % V]);
        }
        for k in 0..W {
            w[k] = w[k].wrapping_add(u64::from(v[k]));
        }
        for k in 0..P {
            if p[k] {
                v[k] ^= i;
            }
        }
    }
    if t.is_multiple_of(2) {
        for k in (0..V).step_by(2) {
            v[k] = v[k].wrapping_mul(3);
        }
    } else {
        for x in w.iter_mut() {
            *x ^= 0x0123_4567_89ab_cdef;
        }
    }
    let mut out = Vec::with_capacity(STRIDE);
    for x in v {
        out.extend(x.to_le_bytes());
    }
    for x in w {
        out.extend(x.to_le_bytes());
    }
    for x in p {
        out.extend(u32::from(x).to_le_bytes());
    }
    out
}

#[test]
fn a_kernel_needing_more_registers_than_fermi_has_spills_and_agrees() {
    let text = pressure_kernel();
    let threads = 64;
    let input: Vec<u32> = int_edges(threads * V, 13);
    let mut launch = spec(
        "pressure",
        1,
        threads as u32,
        vec![u32s(&input), zeros32(threads * STRIDE / 4)],
    );
    launch.params.push(value_u32(TRIPS));
    let out = run_both("pressure.ptx", &text, &launch);
    let want: Vec<u8> = (0..threads)
        .flat_map(|t| pressure_reference(t, &input, TRIPS))
        .collect();
    assert_eq!(out[1], want, "the kernel's meaning");
    let (stores, loads, line) = spill_figures("pressure.ptx", &text, "pressure");
    assert!(stores > 0 && loads > 0, "no spill code reported: {line}");
}

#[test]
fn bigint_kernels_spill_and_agree_bit_for_bit() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/kernels/bigint.ptx"
    ))
    .expect("tests/kernels/bigint.ptx");
    let n = 64usize;
    let mut any_spills = false;
    for (kernel, limb_bytes, limbs) in [
        ("bigint128_u32", 4usize, 4usize),
        ("bigint256_u32", 4, 8),
        ("bigint256_u64", 8, 4),
    ] {
        let bytes = limb_bytes * limbs;
        let a: Vec<u32> = int_edges(n * bytes / 4, 5);
        let b: Vec<u32> = int_edges(n * bytes / 4, 9);
        let sum = n * (bytes + limb_bytes) / 4;
        let mut launch = spec(
            kernel,
            1,
            n as u32,
            vec![
                u32s(&a),
                u32s(&b),
                zeros32(sum),
                zeros32(sum),
                zeros32(n * 2 * bytes / 4),
            ],
        );
        launch.params.push(value_u32(n as u32));
        // `run_both` compares every buffer of the two executors bit for bit.
        run_both("bigint.ptx", &text, &launch);
        let (stores, loads, _) = spill_figures("bigint.ptx", &text, kernel);
        any_spills |= stores > 0 && loads > 0;
    }
    assert!(any_spills, "bigint.ptx needs more than R4-R62 somewhere");
}
