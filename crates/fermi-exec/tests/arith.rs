//! One instruction at a time: R5 and R6 are loaded with constants, the instruction under
//! test writes R4, thread 0 stores it. Expected values come from IEEE arithmetic in Rust or
//! from the meaning of the instruction, worked out here.

mod common;
use common::*;
use fermi_exec::{run_module, Options};

/// `insts` is one or more instructions, each ending in `;`.
fn result(a: u32, b: u32, insts: &str) -> u32 {
    let mut lines = vec![
        format!("MOV32I R5, {:#x};", a),
        format!("MOV32I R6, {:#x};", b),
        "MOV32I R4, 0x0;".to_string(),
    ];
    lines.extend(insts.split_inclusive(';').map(|s| s.trim().to_string()));
    lines.extend(["MOV R2, c [0x0] [0x20];", "ST [R2], R4;", "EXIT;"].map(String::from));
    let m = kernel_module(assemble(&lines), &[4]);
    let r = run_module(&m, &spec("k", 1, 1, vec![u32s(&[0])]), &Options::default())
        .unwrap_or_else(|e| panic!("{insts}: {e}"));
    words(&r, 0)[0]
}

fn f(x: f32) -> u32 {
    x.to_bits()
}

#[test]
fn integer_forms() {
    assert_eq!(result(7, 5, "IADD R4, R5, -R6;"), 2);
    assert_eq!(result(7, 5, "IADD R4, -R5, R6;"), (-2i32) as u32);
    assert_eq!(
        result(0x7fff_fff0, 0x20, "IADD.SAT R4, R5, R6;"),
        0x7fff_ffff
    );
    assert_eq!(result(3, 4, "ISCADD R4, R5, R6, 0x4;"), 3 * 16 + 4);
    assert_eq!(result(0xffff_ffff, 2, "IMUL.U32.U32.HI R4, R5, R6;"), 1);
    assert_eq!(result(0xffff_ffff, 2, "IMUL.HI R4, R5, R6;"), 0xffff_ffff); // -1 * 2 = -2
    assert_eq!(
        result(0xffff_ffff, 2, "IMUL.S32.U32.HI R4, R5, R6;"),
        0xffff_ffff
    );
    assert_eq!(result(6, 7, "IMAD R4, R5, R6, R5;"), 48);
    assert_eq!(result(0xf0, 0x0804, "BFE.U32 R4, R5, R6;"), 0xf);
    assert_eq!(result(0x80, 0x0107, "BFE R4, R5, R6;"), 0xffff_ffff); // bit 7 alone, signed
    assert_eq!(result(0x80, 0x0807, "BFE R4, R5, R6;"), 1); // bits 7-14: sign bit 14 clear
    assert_eq!(result(0x1, 0x0404, "BFI R4, R5, R6, RZ;"), 0x10);
    assert_eq!(result(0x0001_0000, 0, "FLO.U32 R4, R5;"), 16);
    assert_eq!(result(0, 0, "FLO.U32 R4, R5;"), 0xffff_ffff);
    assert_eq!(result(0xff00_ff00, 0x0f0f_0f0f, "POPC R4, R5, R6;"), 8);
    assert_eq!(
        result(0xf0, 0x0f, "LOP.OR R4, R5, ~R6;"),
        0xffff_fff0 | 0xf0
    );
    assert_eq!(result(0x8000_0000, 31, "SHR R4, R5, R6;"), 0xffff_ffff);
    assert_eq!(result(0x8000_0000, 31, "SHR.U32 R4, R5, R6;"), 1);
    assert_eq!(result(1, 33, "SHL R4, R5, R6;"), 0);
    assert_eq!(result(1, 33, "SHL.W R4, R5, R6;"), 2);
    assert_eq!(result(5, 9, "IMNMX R4, R5, R6, pt;"), 5);
    assert_eq!(result(5, 0xffff_fff0, "IMNMX R4, R5, R6, !pt;"), 5); // signed max(5, -16)
    assert_eq!(
        result(5, 0xffff_fff0, "IMNMX.U32 R4, R5, R6, !pt;"),
        0xffff_fff0
    );
    assert_eq!(result(3, 4, "ICMP.EQ.U32 R4, R5, R6, RZ;"), 3);
    assert_eq!(result(3, 4, "ICMP.NE.U32 R4, R5, R6, RZ;"), 4);
    assert_eq!(
        result(0x1122_3344, 0x5566_7788, "PRMT R4, R5, 0x4321, R6;"),
        0x8811_2233
    );
}

#[test]
fn carry_chain() {
    // 0x1_ffffffff + 1 = 0x2_00000000: the high word gets the carry.
    let code = "IADD R4.CC, R5, R6;";
    assert_eq!(result(0xffff_ffff, 1, code), 0);
    // The carry is consumed by .X in a second instruction.
    assert_eq!(
        result(0xffff_ffff, 1, "IADD RZ.CC, R5, R6; IADD.X R4, RZ, RZ;"),
        1
    );
    assert_eq!(result(1, 2, "IADD RZ.CC, R5, -R6; IADD.X R4, RZ, RZ;"), 0); // borrow
    assert_eq!(result(2, 1, "IADD RZ.CC, R5, -R6; IADD.X R4, RZ, RZ;"), 1); // no borrow
}

#[test]
fn float_forms() {
    assert_eq!(result(f(1.5), f(2.25), "FADD R4, R5, R6;"), f(3.75));
    assert_eq!(result(f(1.5), f(2.25), "FADD R4, R5, -R6;"), f(-0.75));
    assert_eq!(result(f(-1.5), f(2.0), "FADD R4, |R5|, R6;"), f(3.5));
    assert_eq!(result(f(1.5), f(-4.0), "FMUL R4, R5, R6;"), f(-6.0));
    assert_eq!(result(f(0.75), f(4.0), "FMUL.SAT R4, R5, R6;"), f(1.0));
    assert_eq!(result(f(3.0), f(4.0), "FFMA R4, R5, R6, R5;"), f(15.0));
    assert_eq!(result(f(3.0), f(4.0), "FFMA R4, -R5, R6, R5;"), f(-9.0));
    // 1 + 2^-24 rounds to 1 to nearest, to the next float up with .RP.
    let tiny = f32::EPSILON / 2.0;
    assert_eq!(result(f(1.0), f(tiny), "FADD R4, R5, R6;"), f(1.0));
    assert_eq!(
        result(f(1.0), f(tiny), "FADD.RP R4, R5, R6;"),
        f(1.0 + f32::EPSILON)
    );
    assert_eq!(result(f(4.0), 0, "MUFU.RCP R4, R5;"), f(0.25));
    assert_eq!(result(f(4.0), 0, "MUFU.RSQ R4, R5;"), f(0.5));
    assert_eq!(result(f(3.0), 0, "MUFU.EX2 R4, R5;"), f(8.0));
    assert_eq!(result(f(8.0), 0, "MUFU.LG2 R4, R5;"), f(3.0));
    assert_eq!(
        result(
            f(2.0),
            f(1.0),
            "FSETP.GT.AND P0, pt, R5, R6, pt; @P0 MOV32I R4, 0x7;"
        ),
        7
    );
    assert_eq!(
        result(
            f(f32::NAN),
            f(1.0),
            "FSETP.GTU.AND P0, pt, R5, R6, pt; @P0 MOV32I R4, 0x7;"
        ),
        7
    );
}

#[test]
fn conversions() {
    assert_eq!(result((-3i32) as u32, 0, "I2F.F32.S32 R4, R5;"), f(-3.0));
    assert_eq!(
        result(0xffff_ffff, 0, "I2F.F32.U32 R4, R5;"),
        f(4294967296.0)
    );
    assert_eq!(
        result(0xffff_ffff, 0, "I2F.F32.U32.RZ R4, R5;"),
        f(4294967040.0)
    );
    assert_eq!(
        result(f(-2.7), 0, "F2I.S32.F32.TRUNC R4, R5;"),
        (-2i32) as u32
    );
    assert_eq!(result(f(-2.5), 0, "F2I.S32.F32 R4, R5;"), (-2i32) as u32); // to even
    assert_eq!(
        result(f(-2.2), 0, "F2I.S32.F32.FLOOR R4, R5;"),
        (-3i32) as u32
    );
    assert_eq!(
        result(f(1e20), 0, "F2I.S32.F32.TRUNC R4, R5;"),
        i32::MAX as u32
    );
    assert_eq!(result(f(2.5), 0, "F2F.F32.F32.CEIL R4, R5;"), f(3.0));
    assert_eq!(result(0x1ff, 0, "I2I.U8.U32 R4, R5;"), 0xff);
    assert_eq!(result(0x1ff, 0, "I2I.S8.S32.SAT R4, R5;"), 0x7f);
    assert_eq!(result(5, 0, "I2I.S32.S32 R4, -R5;"), (-5i32) as u32);
}
