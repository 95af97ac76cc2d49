//! Whole-vector operands of ptx-isa-1.1 §6.4.3 and the conversions of §6.5.3 Table 10, as the
//! checker lowers them: every form becomes one element register (or immediate) per lane, in
//! the order the spec's correspondence table gives (`V.0 = V.x = V.r`, ... `V.3 = V.w = V.a`).

use ir::{Operand, RegId};

fn lower(body: &str) -> ir::Function {
    let text = format!(".version 1.1\n.target sm_10\n.entry k\n{{\n{body}\nexit;\n}}\n");
    let file = diag::SourceFile::new("t.ptx", &text);
    let (m, diags) = check::check_source(&file);
    assert!(!diag::has_errors(&diags), "{}", diag::render(&file, &diags));
    m.expect("module").functions.remove(0)
}

fn reg(f: &ir::Function, name: &str) -> RegId {
    RegId(
        f.regs
            .iter()
            .position(|r| r.name == name)
            .unwrap_or_else(|| panic!("no {name}")) as u32,
    )
}

/// The (destination, source) vectors of the function's first `mov`.
fn mov_operands(f: &ir::Function) -> (Vec<Operand>, Vec<Operand>) {
    let i = f
        .insts()
        .iter()
        .find(|i| i.op == ir::Opcode::Mov)
        .expect("a mov");
    match (&i.operands[0], &i.operands[1]) {
        (Operand::Vector(d), Operand::Vector(a)) => (d.to_vec(), a.to_vec()),
        other => panic!("not vectors: {other:?}"),
    }
}

fn regs(f: &ir::Function, names: &[&str]) -> Vec<Operand> {
    names.iter().map(|n| Operand::Reg(reg(f, n))).collect()
}

#[test]
fn swizzles_in_every_spelling_name_the_same_elements() {
    for sw in ["wzyx", "abgr", "3210"] {
        let f = lower(&format!(".reg .v4 .f32 v, w;\nmov.v4.f32 w, v.{sw};"));
        let (d, a) = mov_operands(&f);
        assert_eq!(d, regs(&f, &["w.x", "w.y", "w.z", "w.w"]), "{sw}");
        assert_eq!(a, regs(&f, &["v.w", "v.z", "v.y", "v.x"]), "{sw}");
    }
    let f = lower(".reg .v4 .u32 v, w;\nmov.v4.u32 w, v.xxzy;");
    assert_eq!(mov_operands(&f).1, regs(&f, &["v.x", "v.x", "v.z", "v.y"]));
}

#[test]
fn table_10_scalar_to_vector_spreads() {
    let f = lower(".reg .v3 .f32 v;\n.reg .f32 s;\nmov.v3.f32 v, s;");
    assert_eq!(mov_operands(&f).1, regs(&f, &["s", "s", "s"]));
    let f = lower(".reg .v2 .u32 v;\nmov.v2.u32 v, 9;");
    assert_eq!(mov_operands(&f).1, vec![Operand::Imm(9), Operand::Imm(9)]);
    let f = lower(".reg .v4 .u32 v, w;\nmov.v4.u32 w, v.b;");
    assert_eq!(mov_operands(&f).1, regs(&f, &["v.z"; 4]));
}

#[test]
fn table_10_vector_to_vector_extends_with_zero_and_truncates() {
    let f = lower(".reg .v2 .f32 h;\n.reg .v4 .f32 v;\nmov.v4.f32 v, h;");
    let mut want = regs(&f, &["h.x", "h.y"]);
    want.extend([Operand::Imm(0), Operand::Imm(0)]);
    assert_eq!(mov_operands(&f).1, want);
    let f = lower(".reg .v4 .f32 v;\n.reg .v3 .f32 t;\nmov.v3.f32 t, v;");
    assert_eq!(mov_operands(&f).1, regs(&f, &["v.x", "v.y", "v.z"]));
}

#[test]
fn elements_are_scalar_operands_everywhere() {
    let f = lower(".reg .v4 .s32 v;\nadd.s32 v.w, v.r, v.1;");
    let i = f.insts().iter().find(|i| i.op == ir::Opcode::Add).unwrap();
    assert_eq!(i.operands.to_vec(), regs(&f, &["v.w", "v.x", "v.y"]));
}
