//! Integer rows the listings already cover, checked against Mesa's Fermi emitter as a second
//! source: each `emit_*` transcribes the function of the same name in Mesa 22.3.6 (Debian
//! source package), `src/nouveau/codegen/nv50_ir_emit_nvc0.cpp`, reproduces a listed word, and
//! then drives the modifiers the listings do not show.

mod mesa;

use mesa::{check, emit_form_a, emit_predicate, word, Src};

/// `emitLogicOp`, 8-byte register form: AND 0, OR 1, XOR 2, PASS_B 3 at bit 6.
fn emit_lop(sub_op: u32, not_a: bool, not_b: bool, dst: u32, a: u32, b: u32) -> u64 {
    let (mut c0, c1) = emit_form_a(0x68000000_00000003, dst, a, Src::Reg(b), None);
    c0 |= sub_op << 6;
    if not_a {
        c0 |= 1 << 9;
    }
    if not_b {
        c0 |= 1 << 8;
    }
    word(c0, c1)
}

#[test]
fn lop_is_mesas() {
    assert_eq!(emit_lop(1, false, false, 44, 25, 23), 0x5d9b1c4368000000);
    check("LOP.OR R44, R25, R23", 0x5d9b1c4368000000);
    for (op, name) in [(0, "AND"), (1, "OR"), (2, "XOR"), (3, "PASS_B")] {
        check(
            &format!("LOP.{name} R1, ~R2, ~R3"),
            emit_lop(op, true, true, 1, 2, 3),
        );
    }
}

#[test]
fn popc_bfe_flo_bfi_are_mesas() {
    // emitPOPC: HEX64(54000000, 00000004), `~` bits 9 and 8.
    let (c0, c1) = emit_form_a(0x54000000_00000004, 4, 4, Src::Reg(4), None);
    assert_eq!(word(c0, c1), 0x10411c0454000000);
    check("POPC R4, R4, R4", 0x10411c0454000000);
    let (c0, c1) = emit_form_a(0x54000000_00000004, 1, 2, Src::Reg(3), None);
    check("POPC R1, ~R2, ~R3", word(c0 | (1 << 9) | (1 << 8), c1));
    // emitEXTBF: HEX64(70000000, 00000003), signed bit 5.
    let (c0, c1) = emit_form_a(0x70000000_00000003, 16, 8, Src::Reg(13), None);
    assert_eq!(word(c0, c1), 0x34841c0370000000);
    check("BFE.U32 R16, R8, R13", word(c0, c1));
    check("BFE R16, R8, R13", word(c0 | (1 << 5), c1));
    // emitBFIND (emitForm_B: source at 26): HEX64(78000000, 00000003), signed bit 5, `~` 8.
    let c0 = 0x3 | emit_predicate(None) | (46 << 14) | (5 << 26);
    assert_eq!(word(c0, 0x78000000), 0x140b9c0378000000);
    check("FLO.U32 R46, R5", word(c0, 0x78000000));
    check("FLO R46, ~R5", word(c0 | (1 << 5) | (1 << 8), 0x78000000));
    // emitINSBF: HEX64(28000000, 00000003).
    let (c0, c1) = emit_form_a(0x28000000_00000003, 5, 12, Src::Imm(0x808), Some(63));
    assert_eq!(word(c0, c1), 0x20c15c03287ec020);
    check("BFI R5, R12, 0x808, RZ", word(c0, c1));
}

#[test]
fn prmt_modes_are_mesas() {
    // emitPERMT: HEX64(24000000, 00000004) | subOp << 5; NV50_IR_SUBOP_PERMT_F4E 1, B4E 2,
    // RC8 3, ECL 4, ECR 5, RC16 6.
    let (c0, c1) = emit_form_a(0x24000000_00000004, 3, 25, Src::Imm(0x4140), Some(63));
    assert_eq!(word(c0, c1), 0x0190dc04247ec105);
    check("PRMT R3, R25, 0x4140, RZ", word(c0, c1));
    let modes = [
        (1, ".F4E"),
        (2, ".B4E"),
        (3, ".RC8"),
        (4, ".ECL"),
        (5, ".ECR"),
        (6, ".RC16"),
    ];
    for (sub_op, name) in modes {
        let (c0, c1) = emit_form_a(0x24000000_00000004, 1, 2, Src::Reg(3), Some(4));
        check(
            &format!("PRMT{name} R1, R2, R3, R4"),
            word(c0 | (sub_op << 5), c1),
        );
    }
}

#[test]
fn shifts_wrap_bit_is_named_the_other_way_round() {
    // emitShift: SHL HEX64(60000000, 00000003); Mesa's default (no NV50_IR_SUBOP_SHIFT_WRAP)
    // leaves bit 9 clear, which the listings print as `SHL.W`; SHIFT_WRAP sets bit 9, which
    // they print as plain `SHL`. The table follows the listings' text (see the spec notes).
    let (c0, c1) = emit_form_a(0x60000000_00000003, 27, 29, Src::Imm(2), None);
    assert_eq!(word(c0, c1), 0x09d6dc036000c000);
    check("SHL.W R27, R29, 0x2", word(c0, c1));
    check("SHL R27, R29, 0x2", word(c0 | (1 << 9), c1));
    // SHR: HEX64(58000000, 00000003), signed 0x20.
    let (c0, c1) = emit_form_a(0x58000000_00000023, 1, 2, Src::Reg(3), None);
    check("SHR.W R1, R2, R3", word(c0, c1));
    check("SHR.U32 R1, R2, R3", word((c0 & !0x20) | (1 << 9), c1));
}
