//! The forms added to the table after the executor's first version: `ISETP.X`/`ISET.X` (64-bit
//! compares), the constant in the fourth position of `IMAD`/`FFMA`/`DFMA`, `FMNMX`, `DMNMX`,
//! `FSET`, `DSET`, `RRO` before `MUFU`, `ISAD`, `BPT.DRAIN`. Expected values are computed here
//! with Rust's own integer and IEEE arithmetic.

mod common;
use common::*;
use fermi_exec::{run_module, Options};

/// Runs `insts` in one thread with `R2` = the output buffer (`out` words, zeroed) and the
/// registers of `init` set; `c[0x0][0x24]` holds `k32` and `c[0x0][0x28]` the 64-bit `k64`.
/// Returns the buffer.
fn run(init: &[(u8, u32)], insts: &[String], out: usize, k32: u32, k64: u64) -> Vec<u32> {
    let mut lines = vec!["MOV R2, c [0x0] [0x20];".to_string()];
    lines.extend(init.iter().map(|(r, v)| format!("MOV32I R{r}, {v:#x};")));
    lines.extend(insts.iter().cloned());
    lines.push("EXIT;".into());
    let m = kernel_module(assemble(&lines), &[4, 4, 8]);
    let k64p = exec::ParamSpec::Value {
        ty: exec::ElemType::U64,
        bytes: k64.to_le_bytes().to_vec(),
    };
    let params = vec![u32s(&vec![0; out]), value_u32(k32), k64p];
    let r = run_module(&m, &spec("k", 1, 1, params), &Options::default())
        .unwrap_or_else(|e| panic!("{insts:?}: {e}"));
    words(&r, 0)
}

fn s(v: &[&str]) -> Vec<String> {
    v.iter().map(|x| x.to_string()).collect()
}

/// Instructions (each ending in `;`) writing R4 from R5, R6 (and R7).
fn r4(a: u32, b: u32, c: u32, inst: &str) -> u32 {
    let mut insts: Vec<String> = inst
        .split_inclusive(';')
        .map(|t| t.trim().to_string())
        .collect();
    insts.push("ST [R2], R4;".into());
    run(&[(5, a), (6, b), (7, c), (4, 0)], &insts, 1, 0, 0)[0]
}

const OPS: [&str; 6] = ["LT", "EQ", "LE", "GT", "NE", "GE"];

fn cmp64<T: PartialOrd>(op: &str, a: T, b: T) -> bool {
    match op {
        "LT" => a < b,
        "EQ" => a == b,
        "LE" => a <= b,
        "GT" => a > b,
        "NE" => a != b,
        _ => a >= b,
    }
}

#[test]
fn extended_compares_order_64_bit_values() {
    let vals: [u64; 11] = [
        0,
        1,
        u64::MAX, // -1
        0x7fff_ffff,
        0x8000_0000,
        0xffff_ffff,
        1 << 32,
        (1 << 32) + 1,
        (-(1i64 << 32)) as u64,
        i64::MIN as u64,
        i64::MAX as u64,
    ];
    for unsigned in [false, true] {
        let ty = if unsigned { ".U32" } else { "" };
        let mut insts = s(&["IADD RZ.CC, R10, -R4;"]);
        for (k, op) in OPS.iter().enumerate() {
            insts.push(format!("ISETP.{op}{ty}.X.AND P1, pt, R3, R5, pt;"));
            insts.push(format!("@P1 ST [R2+{:#x}], R11;", 4 * k));
            insts.push(format!("ISET.{op}{ty}.X.AND R9, R3, R5, pt;"));
            insts.push(format!("ST [R2+{:#x}], R9;", 4 * (k + 6)));
        }
        for &a in &vals {
            for &b in &vals {
                let init = [
                    (10, a as u32),
                    (3, (a >> 32) as u32),
                    (4, b as u32),
                    (5, (b >> 32) as u32),
                    (11, 1),
                ];
                let got = run(&init, &insts, 12, 0, 0);
                for (k, op) in OPS.iter().enumerate() {
                    let want = if unsigned {
                        cmp64(op, a, b)
                    } else {
                        cmp64(op, a as i64, b as i64)
                    };
                    let what = format!("{op}{ty} {a:#x} {b:#x}");
                    assert_eq!(got[k], u32::from(want), "ISETP {what}");
                    assert_eq!(got[k + 6], if want { u32::MAX } else { 0 }, "ISET {what}");
                }
            }
        }
    }
}

#[test]
fn constant_in_the_fourth_position() {
    // NVIDIA's text: IMAD.U32.U32 R2.CC, R3, R4, c [0x0] [0x38] (here c[0x0][0x24]), then
    // IADD.X consumes the carry of the low-word multiply-add.
    let insts = s(&[
        "IMAD.U32.U32 R8.CC, R5, R6, c [0x0] [0x24];",
        "IADD.X R9, RZ, RZ;",
        "ST.64 [R2], R8;",
    ]);
    let (a, b, k) = (0x1234_5678u32, 0x10u32, 0xfff0_0000u32);
    let got = run(&[(5, a), (6, b)], &insts, 2, k, 0);
    let full = u64::from(a.wrapping_mul(b)) + u64::from(k);
    assert_eq!(got, [full as u32, (full >> 32) as u32]);

    // FFMA with the product negated on the second source, register and constant forms.
    let f = |x: f32| x.to_bits();
    let (a, b, c) = (1.5f32, 2.5f32, 10.0f32);
    assert_eq!(r4(f(a), f(b), f(c), "FFMA R4, R5, -R6, R7;"), f(c - a * b));
    let insts = s(&["FFMA R4, R5, -R6, c [0x0] [0x24];", "ST [R2], R4;"]);
    assert_eq!(
        run(&[(5, f(a)), (6, f(b))], &insts, 1, f(c), 0)[0],
        f(c - a * b)
    );
    let insts = s(&["FFMA R4, R5, R6, -c [0x0] [0x24];", "ST [R2], R4;"]);
    assert_eq!(
        run(&[(5, f(a)), (6, f(b))], &insts, 1, f(c), 0)[0],
        f(a * b - c)
    );

    // DFMA R8, R4, R6, c[0x0][0x28]: a * b + k in one rounding (f64::mul_add).
    let (a, b, k) = (1.0f64 + 2f64.powi(-30), 1.0f64 - 2f64.powi(-30), -1.0f64);
    let insts = s(&["DFMA R8, R4, R6, c [0x0] [0x28];", "ST.64 [R2], R8;"]);
    let init = [
        (4, a.to_bits() as u32),
        (5, (a.to_bits() >> 32) as u32),
        (6, b.to_bits() as u32),
        (7, (b.to_bits() >> 32) as u32),
    ];
    let got = run(&init, &insts, 2, 0, k.to_bits());
    let want = a.mul_add(b, k).to_bits();
    assert_eq!(got, [want as u32, (want >> 32) as u32]);
    assert_ne!(
        want,
        (a * b + k).to_bits(),
        "the test needs a fused rounding"
    );
}

#[test]
fn float_min_max_and_set() {
    let f = |x: f32| x.to_bits();
    assert_eq!(r4(f(1.5), f(-2.0), 0, "FMNMX R4, R5, R6, pt;"), f(-2.0));
    assert_eq!(r4(f(1.5), f(-2.0), 0, "FMNMX R4, R5, R6, !pt;"), f(1.5));
    assert_eq!(r4(f(1.5), f(-2.0), 0, "FMNMX R4, R5, |R6|, !pt;"), f(2.0));
    assert_eq!(r4(f(1.5), f(-2.0), 0, "FMNMX R4, -R5, R6, !pt;"), f(-1.5));
    // A NaN operand gives the other one.
    assert_eq!(r4(f(f32::NAN), f(3.0), 0, "FMNMX R4, R5, R6, pt;"), f(3.0));
    // .FTZ: a subnormal counts as zero of its sign.
    let tiny = f32::from_bits(5);
    assert_eq!(r4(f(tiny), f(0.0), 0, "FMNMX.FTZ R4, R5, R6, !pt;"), f(0.0));
    assert_eq!(r4(f(tiny), f(0.0), 0, "FMNMX R4, R5, R6, !pt;"), f(tiny));

    assert_eq!(
        r4(f(2.0), f(1.0), 0, "FSET.GT.AND R4, R5, R6, pt;"),
        u32::MAX
    );
    assert_eq!(r4(f(2.0), f(1.0), 0, "FSET.LT.AND R4, R5, R6, pt;"), 0);
    assert_eq!(
        r4(f(2.0), f(1.0), 0, "FSET.BF.GT.AND R4, R5, R6, pt;"),
        f(1.0)
    );
    assert_eq!(
        r4(f(f32::NAN), f(1.0), 0, "FSET.GTU.AND R4, R5, R6, pt;"),
        u32::MAX
    );
    assert_eq!(r4(f(f32::NAN), f(1.0), 0, "FSET.GT.AND R4, R5, R6, pt;"), 0);
    assert_eq!(r4(f(2.0), f(1.0), 0, "FSET.GT.AND R4, R5, R6, !pt;"), 0);
    assert_eq!(r4(f(2.0), f(1.0), 0, "FSET.LT.OR R4, R5, R6, !pt;"), 0);
    assert_eq!(
        r4(f(2.0), f(1.0), 0, "FSET.LT.XOR R4, R5, R6, pt;"),
        u32::MAX
    );
}

#[test]
fn double_min_max_and_set() {
    let pair = |x: f64| [(x.to_bits() as u32), (x.to_bits() >> 32) as u32];
    let go = |a: f64, b: f64, inst: &str| {
        let [a0, a1] = pair(a);
        let [b0, b1] = pair(b);
        let insts = s(&[inst, "ST.64 [R2], R8;"]);
        let w = run(&[(4, a0), (5, a1), (6, b0), (7, b1)], &insts, 2, 0, 0);
        u64::from(w[0]) | u64::from(w[1]) << 32
    };
    let d = |x: f64| x.to_bits();
    assert_eq!(go(1e300, -3.0, "DMNMX R8, R4, R6, pt;"), d(-3.0));
    assert_eq!(go(1e300, -3.0, "DMNMX R8, R4, R6, !pt;"), d(1e300));
    assert_eq!(go(1e300, -3.0, "DMNMX R8, -R4, |R6|, pt;"), d(-1e300));
    assert_eq!(go(f64::NAN, -3.0, "DMNMX R8, R4, R6, !pt;"), d(-3.0));
    // DSET writes one register (R8); R9 stays zero.
    assert_eq!(
        go(1.0, 1.0 + f64::EPSILON, "DSET.LT.AND R8, R4, R6, pt;"),
        0xffff_ffff
    );
    assert_eq!(
        go(1.0, 1.0 + f64::EPSILON, "DSET.GE.AND R8, R4, R6, pt;"),
        0
    );
    assert_eq!(
        go(f64::NAN, 0.0, "DSET.BF.NEU.AND R8, R4, R6, pt;"),
        u64::from(1.0f32.to_bits())
    );
}

#[test]
fn range_reduction_then_mufu_computes_the_function_of_the_input() {
    let f = |x: f32| x.to_bits();
    for x in [0.5f32, -2.0, 3.0, 0.0] {
        let sin = f32::from_bits(r4(f(x), 0, 0, "RRO.SINCOS R7, R5; MUFU.SIN R4, R7;"));
        let cos = f32::from_bits(r4(f(x), 0, 0, "RRO.SINCOS R7, R5; MUFU.COS R4, R7;"));
        // sin/cos.approx.f32: absolute error at most 2^-20.5 in [-pi, pi] (PTX ISA).
        assert!((sin - x.sin()).abs() <= 2f32.powf(-20.5), "sin {x}: {sin}");
        assert!((cos - x.cos()).abs() <= 2f32.powf(-20.5), "cos {x}: {cos}");
        let negsin = f32::from_bits(r4(f(x), 0, 0, "RRO.SINCOS R7, -R5; MUFU.SIN R4, R7;"));
        assert!(
            (negsin + x.sin()).abs() <= 2f32.powf(-20.5),
            "sin -{x}: {negsin}"
        );
    }
    for x in [0.0f32, 3.5, -1.25] {
        let e = f32::from_bits(r4(f(x), 0, 0, "RRO.EX2 R7, R5; MUFU.EX2 R4, R7;"));
        let want = x.exp2();
        // ex2.approx.f32: relative error at most 2^-22.5 (PTX ISA), plus rounding.
        assert!(((e - want) / want).abs() <= 2f32.powi(-21), "ex2 {x}: {e}");
    }
}

#[test]
fn integer_sum_of_absolute_difference() {
    assert_eq!(r4(3, 10, 5, "ISAD R4, R5, R6, R7;"), 12);
    assert_eq!(r4(10, 3, 5, "ISAD R4, R5, R6, R7;"), 12);
    let m3 = (-3i32) as u32;
    // Signed: |-3 - 4| + 1 = 8; unsigned: 0xfffffffd - 4 + 1.
    assert_eq!(r4(m3, 4, 1, "ISAD R4, R5, R6, R7;"), 8);
    assert_eq!(r4(m3, 4, 1, "ISAD.U32 R4, R5, R6, R7;"), 0xffff_fffa);
}

#[test]
fn bpt_drain_is_a_no_op() {
    assert_eq!(r4(7, 0, 0, "BPT.DRAIN 0x0; MOV R4, R5;"), 7);
}

/// A guarded instruction whose guard no lane satisfies does nothing, `BPT.TRAP` included;
/// with the guard true it traps.
#[test]
fn bpt_trap_obeys_its_guard() {
    let never = "ISETP.NE.U32.AND P0, pt, R5, R5, pt; @P0 BPT.TRAP 0x1; MOV R4, R5;";
    assert_eq!(r4(7, 0, 0, never), 7);
    assert_eq!(r4(9, 0, 0, "@!pt BPT.TRAP 0x1; MOV R4, R5;"), 9);
    let insts: Vec<String> = "ISETP.EQ.U32.AND P0, pt, R5, R5, pt; @P0 BPT.TRAP 0x1;"
        .split_inclusive(';')
        .map(|t| t.trim().to_string())
        .collect();
    let caught = std::panic::catch_unwind(|| run(&[(5, 1)], &insts, 1, 0, 0));
    let msg = caught.expect_err("a selected BPT.TRAP faults");
    let msg = msg.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(msg.contains("BPT.TRAP"), "{msg}");
}
