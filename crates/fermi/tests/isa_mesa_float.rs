//! Float and conversion modifiers checked against Mesa's Fermi emitter: each `emit_*` is a
//! line-by-line transcription of the function of the same name in Mesa 22.3.6 (Debian source
//! package), `src/nouveau/codegen/nv50_ir_emit_nvc0.cpp`; the expected word is
//! `code[0] << 32 | code[1]`. Listed words of the same forms are reproduced first.

mod mesa;

use mesa::{check, emit_form_a, emit_predicate, word, Src};

// ---- float and conversion modifiers (rows whose bits asfermi's conventions had guessed) ----

/// `roundMode_A`: N 0, M 1, P 2, Z 3 at `code[1]` bit 23.
fn round_mode_a(rnd: u32) -> u32 {
    rnd << 23
}

/// `emitFMUL`, 8-byte register/constant form, no post factor.
fn emit_fmul(rnd: u32, neg: bool, sat: bool, ftz: bool, dst: u32, a: u32, b: Src) -> u64 {
    let (mut c0, mut c1) = emit_form_a(0x58000000_00000000, dst, a, b, None);
    c1 |= round_mode_a(rnd);
    if neg {
        c1 ^= 1 << 25;
    }
    if sat {
        c0 |= 1 << 5;
    }
    if ftz {
        c0 |= 1 << 6;
    }
    word(c0, c1)
}

#[test]
fn fmul_saturation_and_flush_bits_are_mesas() {
    assert_eq!(
        emit_fmul(0, false, false, false, 3, 3, Src::Const(0, 0x30)),
        0xc030dc0058004000
    );
    check("FMUL R3, R3, c [0x0] [0x30]", 0xc030dc0058004000);
    check(
        "FMUL.FTZ R1, R2, R3",
        emit_fmul(0, false, false, true, 1, 2, Src::Reg(3)),
    );
    check(
        "FMUL.SAT R1, R2, R3",
        emit_fmul(0, false, true, false, 1, 2, Src::Reg(3)),
    );
    check(
        "FMUL.FTZ.RZ.SAT R1, R2, -c [0x2] [0x44]",
        emit_fmul(3, true, true, true, 1, 2, Src::Const(2, 0x44)),
    );
    check(
        "FMUL.RP R1, R2, -R3",
        emit_fmul(2, true, false, false, 1, 2, Src::Reg(3)),
    );
}

/// `emitFMUL` / `emitFADD` with a 32-bit immediate (`LIMM`): `setImmediate`'s LIMM branch.
fn emit_limm(opc: u64, dst: u32, a: u32, imm: u32) -> (u32, u32) {
    let mut c0 = opc as u32;
    let mut c1 = (opc >> 32) as u32;
    c0 |= emit_predicate(None);
    c0 |= dst << 14;
    c0 |= a << 20;
    c0 |= (imm & 0x3f) << 26;
    c1 |= imm >> 6;
    (c0, c1)
}

#[test]
fn fmul32i_and_fadd32i_are_mesas() {
    for (sat, ftz, text) in [
        (false, false, ""),
        (false, true, ".FTZ"),
        (true, false, ".SAT"),
        (true, true, ".FTZ.SAT"),
    ] {
        let (mut c0, c1) = emit_limm(0x30000000_00000002, 1, 2, 0x3f80_0001);
        if sat {
            c0 |= 1 << 5;
        }
        if ftz {
            c0 |= 1 << 6;
        }
        check(&format!("FMUL32I{text} R1, R2, 0x3f800001"), word(c0, c1));
    }
    // FADD32I: |a| bit 7, -a bit 9, .FTZ bit 5.
    let (c0, c1) = emit_limm(0x28000000_00000002, 1, 2, 0xbf80_0001);
    let c0 = c0 | (1 << 7) | (1 << 9) | (1 << 5);
    check("FADD32I.FTZ R1, -|R2|, -0x407fffff", word(c0, c1));
}

/// `emitSFnOp`, 8-byte form.
fn emit_sfn(sub_op: u32, sat: bool, abs: bool, neg: bool, dst: u32, src: u32) -> u64 {
    let mut c0: u32 = sub_op << 26;
    let c1: u32 = 0xc8000000;
    c0 |= emit_predicate(None);
    c0 |= dst << 14;
    c0 |= src << 20;
    if sat {
        c0 |= 1 << 5;
    }
    if abs {
        c0 |= 1 << 7;
    }
    if neg {
        c0 |= 1 << 9;
    }
    word(c0, c1)
}

#[test]
fn mufu_functions_and_saturation_are_mesas() {
    // emitInstruction: COS 0, SIN 1, EX2 2, LG2 3, RCP 4 + 2 * subOp, RSQ 5 + 2 * subOp.
    let functions = [
        (0, "COS"),
        (1, "SIN"),
        (2, "EX2"),
        (3, "LG2"),
        (4, "RCP"),
        (5, "RSQ"),
        (6, "RCP64H"),
        (7, "RSQ64H"),
    ];
    for (sub_op, name) in functions {
        check(
            &format!("MUFU.{name} R1, R2"),
            emit_sfn(sub_op, false, false, false, 1, 2),
        );
        check(
            &format!("MUFU.{name}.SAT R1, -|R2|"),
            emit_sfn(sub_op, true, true, true, 1, 2),
        );
    }
}

/// `emitSET` for an F32 comparison to a predicate (FSETP), `pd` its first result, the second
/// pt, the predicate source pt, operation AND.
fn emit_fsetp(cond: u32, ftz: bool, pd: u32, a: u32, b: u32) -> u64 {
    let hi: u64 = 0x10000000;
    let (mut c0, mut c1) = emit_form_a(hi << 32, 0, a, Src::Reg(b), None);
    c1 |= 7 << 17; // srcId(src(2), 32 + 17) with pt
    c1 += 0x10000000;
    c0 &= !0xfc000;
    c0 |= pd << 17;
    c0 |= 0x1c000;
    if ftz {
        c1 |= 1 << 27;
    }
    c1 |= cond << 23;
    word(c0, c1)
}

#[test]
fn fsetp_flush_bit_is_mesas() {
    assert_eq!(emit_fsetp(4, false, 0, 7, 2), 0x0871dc00220e0000);
    check("FSETP.GT.AND P0, pt, R7, R2, pt", 0x0871dc00220e0000);
    check(
        "FSETP.LTU.FTZ.AND P3, pt, R7, R2, pt",
        emit_fsetp(9, true, 3, 7, 2),
    );
}

/// A conversion type: (size in bytes, float, signed).
type CvtTy = (u32, bool, bool);

#[allow(clippy::too_many_arguments)]
/// `emitCVT`, 8-byte form, register source; `rnd` as `roundMode_C` takes it: (bits at
/// `code[1]` 17, integral-rounding bit `code[0]` 7).
fn emit_cvt(
    d: CvtTy,
    s: CvtTy,
    rnd: (u32, bool),
    sat: bool,
    abs: bool,
    neg: bool,
    ftz: bool,
    dst: u32,
    src: u32,
) -> u64 {
    let mut c0: u32 = 0x4;
    let mut c1: u32 = 0x10000000;
    c0 |= emit_predicate(None);
    c0 |= dst << 14;
    c0 |= src << 26;
    c1 |= rnd.0 << 17;
    if rnd.1 {
        c0 |= 1 << 7;
    }
    c0 |= d.0.ilog2() << 20;
    c0 |= s.0.ilog2() << 23;
    if sat {
        c0 |= 0x20;
    }
    if abs {
        c0 |= 1 << 6;
    }
    if neg {
        c0 |= 1 << 8;
    }
    if ftz {
        c1 |= 1 << 23;
    }
    if !d.1 && d.2 {
        c0 |= 0x080;
    }
    if !s.1 && s.2 {
        c0 |= 0x200;
    }
    if d.1 {
        if !s.1 {
            c1 |= 0x08000000;
        }
    } else if s.1 {
        c1 |= 0x04000000;
    } else {
        c1 |= 0x0c000000;
    }
    word(c0, c1)
}

#[test]
fn conversions_are_mesas() {
    const S32: CvtTy = (4, false, true);
    const U16: CvtTy = (2, false, false);
    const U64: CvtTy = (8, false, false);
    const F32: CvtTy = (4, true, false);
    const F64: CvtTy = (8, true, false);
    assert_eq!(
        emit_cvt(S32, S32, (0, false), false, false, true, false, 5, 25),
        0x65215f841c000000
    );
    check("I2I.S32.S32 R5, -R25", 0x65215f841c000000);
    let cases = [
        ("F2F.F32.F64.RZ R1, R2", F32, F64, (3, false), false),
        ("F2F.FTZ.F32.F32.FLOOR R1, R2", F32, F32, (1, true), true),
        ("F2F.F64.F64.ROUND R1, R2", F64, F64, (0, true), false),
        ("F2F.F32.F32.CEIL R1, R2", F32, F32, (2, true), false),
        ("F2F.FTZ.F64.F32.TRUNC R1, R2", F64, F32, (3, true), true),
        ("F2I.FTZ.S32.F32.TRUNC R1, R2", S32, F32, (3, false), true),
        ("F2I.U64.F64.FLOOR R1, R2", U64, F64, (1, false), false),
        ("I2F.F64.S32.RP R1, R2", F64, S32, (2, false), false),
        ("I2F.F32.U64 R1, R2", F32, U64, (0, false), false),
        ("I2I.U16.S32 R1, R2", U16, S32, (0, false), false),
    ];
    for (text, d, s, rnd, ftz) in cases {
        check(text, emit_cvt(d, s, rnd, false, false, false, ftz, 1, 2));
    }
    check(
        "F2F.F32.F32.SAT R1, -|R2|",
        emit_cvt(F32, F32, (0, false), true, true, true, false, 1, 2),
    );
    check(
        "I2I.S32.S32.SAT R1, |R2|",
        emit_cvt(S32, S32, (0, false), true, true, false, false, 1, 2),
    );
}
