//! Instructions and operands (spec 1.1 §4.3.2, chapter 6, §7.2–7.3, video selectors of
//! ptx-video.md, and the call forms compilers emit).

mod common;
use common::*;
use syntax::ast::*;

fn name_text<'a>(f: &'a diag::SourceFile, op: &Operand) -> &'a str {
    let n = op.as_name().unwrap_or_else(|| panic!("not a name: {op:?}"));
    text(f, n.span())
}

#[test]
fn guard_opcode_and_modifiers() {
    let (i, f) = inst("@!%p1 ld.global.nc.L1::evict_last.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1+16];");
    let g = i.guard.unwrap();
    assert!(g.negated);
    assert_eq!(text(&f, g.predicate.span()), "%p1");
    assert_eq!(i.opcode.text(&f.text), "ld");
    let mods: Vec<&str> = i.modifiers(&f.text).map(|m| m.1).collect();
    assert_eq!(mods, [".global", ".nc", ".L1::evict_last", ".v4", ".f32"]);
    let (i, f) = inst("@p bra $L__BB0_2;");
    assert!(!i.guard.unwrap().negated);
    assert_eq!(i.modifiers(&f.text).count(), 0);
    assert_eq!(name_text(&f, &i.operands[0]), "$L__BB0_2");
}

#[test]
fn modifiers_written_apart_from_the_opcode() {
    // ptxas accepts `add .s32` (whitespace and comments between).
    let (i, f) = inst("add .s32 /* c */ .sat %r1, %r2, %r3;");
    let mods: Vec<(&str, &str)> = i
        .modifiers(&f.text)
        .map(|(s, m)| (text(&f, s), m))
        .collect();
    assert_eq!(mods, [(".s32", ".s32"), (".sat", ".sat")]);
    assert_eq!(i.operands.len(), 3);
}

#[test]
fn zero_to_four_operands() {
    for (line, n) in [
        ("ret;", 0),
        ("bar.sync 0;", 1),
        ("mov.u32 %r1, %r2;", 2),
        ("add.u32 %r1, %r2, 1;", 3),
        ("mad.lo.s32 %r1, %r2, %r3, %r4;", 4),
        ("vadd4.u32.u32.u32.sat.add %r1, %r2, %r3, %r4;", 4),
    ] {
        assert_eq!(inst(line).0.operands.len(), n, "{line}");
    }
}

#[test]
fn negated_operands_are_unary_expressions() {
    // ptx-video.md: vmad operand negation; §7.3: `!p` predicate operands.
    let (i, f) = inst("vmad.s32.s32.u32.sat %r1, -%r2.h0, %r3.b1, %r4;");
    let Operand::Expr(Expr::Unary(u)) = &i.operands[1] else {
        panic!("{:?}", i.operands[1])
    };
    assert_eq!(u.op, UnaryOp::Neg);
    let Expr::Name(n) = &u.operand else { panic!() };
    assert_eq!(n.ident.text(&f.text), "%r2");
    let parts: Vec<&str> = n.suffix_parts(&f.text).map(|p| p.1).collect();
    assert_eq!(parts, ["h0"]);
    let (i, _) = inst("selp.b32 %r1, 1, 0, !%p1;");
    assert!(matches!(
        &i.operands[3],
        Operand::Expr(Expr::Unary(u)) if u.op == UnaryOp::Not
    ));
}

#[test]
fn element_suffixes_swizzles_and_video_selectors() {
    for (operand, base, parts) in [
        ("%tid.x", "%tid", vec!["x"]),
        ("%tid.0", "%tid", vec!["0"]),
        ("V.r", "V", vec!["r"]),
        ("V.wzyx", "V", vec!["wzyx"]),
        ("V.0123", "V", vec!["0123"]),
        ("%r1.b0", "%r1", vec!["b0"]),
        ("%r1.h1", "%r1", vec!["h1"]),
        ("%r1.b7654", "%r1", vec!["b7654"]),
        ("%r1.h10", "%r1", vec!["h10"]),
        ("p.inner.x", "p", vec!["inner", "x"]),
    ] {
        let (i, f) = inst(&format!("mov.u32 %r9, {operand};"));
        let n = i.operands[1].as_name().unwrap();
        assert_eq!(n.ident.text(&f.text), base, "{operand}");
        let got: Vec<&str> = n.suffix_parts(&f.text).map(|p| p.1).collect();
        assert_eq!(got, parts, "{operand}");
    }
}

#[test]
fn vector_operands_and_bit_bucket() {
    let (i, f) = inst("ld.v4.f32 {a, _, c, d}, [Vmem];");
    let Operand::Vector(v) = &i.operands[0] else {
        panic!()
    };
    assert_eq!(v.elements.len(), 4);
    assert!(matches!(v.elements[1], Operand::BitBucket(_)));
    assert_eq!(name_text(&f, &v.elements[3]), "d");
    let (i, _) = inst("mad24.lo.s32 _, %r1, %r2, %r3;");
    assert!(matches!(i.operands[0], Operand::BitBucket(_)));
}

#[test]
fn address_operand_forms() {
    // §6.4.1 / §6.4.2: [var], [reg], [reg+imm], [reg-imm], [imm], [var+imm], a[N-1].
    let cases: [(&str, &str); 7] = [
        ("[x]", "x"),
        ("[%rd1]", "%rd1"),
        ("[%rd1+16]", "%rd1 + 16"),
        ("[%rd1-8]", "%rd1 - 8"),
        ("[%rd1+-8]", "%rd1 + -8"),
        ("[0x100]", "256"),
        ("[tbl+12]", "tbl + 12"),
    ];
    for (operand, want) in cases {
        let (i, f) = inst(&format!("ld.u32 %r1, {operand};"));
        let Operand::Address(a) = &i.operands[1] else {
            panic!("{operand}")
        };
        assert!(a.rest.is_empty());
        assert_eq!(render(&f, &a.expr), want, "{operand}");
        assert_eq!(text(&f, a.span), operand);
    }
    let (i, f) = inst("ld.u32 %r1, a[N-1];");
    let Operand::Indexed(ix) = &i.operands[1] else {
        panic!()
    };
    assert_eq!(ix.base.ident.text(&f.text), "a");
    assert_eq!(render(&f, &ix.index), "N - 1");
    let (i, f) = inst("ld.u32 %r1, a[%r2];");
    let Operand::Indexed(ix) = &i.operands[1] else {
        panic!()
    };
    assert_eq!(render(&f, &ix.index), "%r2");
}

/// A small independent renderer: names by text, literals by value, full parentheses
/// omitted only at the top.
fn render(f: &diag::SourceFile, e: &Expr) -> String {
    match e {
        Expr::Int(i) => i.value.to_string(),
        Expr::Name(n) => text(f, n.span()).to_string(),
        Expr::Unary(u) => format!("{}{}", u.op.as_str(), render(f, &u.operand)),
        Expr::Binary(b) => {
            format!(
                "{} {} {}",
                render(f, &b.lhs),
                b.op.as_str(),
                render(f, &b.rhs)
            )
        }
        other => format!("{other:?}"),
    }
}

#[test]
fn texture_operands() {
    let (i, f) = inst("tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [tex_a, {%f5, %f6}];");
    let Operand::Address(a) = &i.operands[1] else {
        panic!()
    };
    assert_eq!(render(&f, &a.expr), "tex_a");
    assert_eq!(a.rest.len(), 1);
    assert!(matches!(&a.rest[0], Operand::Vector(v) if v.elements.len() == 2));
}

#[test]
fn setp_pair_destinations() {
    // §7.2: `setp.s32.lt p|q, a, b;`
    let (i, f) = inst("setp.lt.s32 p|q, a, b;");
    let Operand::Pair(p) = &i.operands[0] else {
        panic!()
    };
    assert_eq!(p.first.ident.text(&f.text), "p");
    assert_eq!(p.second.ident.text(&f.text), "q");
    let (i, _) = inst("shfl.sync.bfly.b32 %r4|%p2, %r5, 16, 31, -1;");
    assert!(matches!(i.operands[0], Operand::Pair(_)));
    assert_eq!(
        int_value(match &i.operands[4] {
            Operand::Expr(e) => e,
            _ => panic!(),
        }),
        Some(-1)
    );
}

#[test]
fn call_forms() {
    // 1.1 §9.1: `call (fooval), foo, (val0, val1);`
    let (i, f) = inst("call (fooval), foo, (val0, val1);");
    let Operand::List(ret) = &i.operands[0] else {
        panic!()
    };
    assert_eq!(ret.elements.len(), 1);
    assert_eq!(name_text(&f, &i.operands[1]), "foo");
    let Operand::List(args) = &i.operands[2] else {
        panic!()
    };
    assert_eq!(args.elements.len(), 2);
    let (i, f) = inst("call.uni foo, (a);");
    assert_eq!(i.modifiers(&f.text).next().unwrap().1, ".uni");
    assert!(matches!(&i.operands[1], Operand::List(l) if l.elements.len() == 1));
    let (i, f) = inst("call (%r1), %rd_fptr, (%rd3, %r2), prototype_0;");
    assert_eq!(i.operands.len(), 4);
    assert_eq!(name_text(&f, &i.operands[3]), "prototype_0");
    let (i, _) = inst("call f, ();");
    assert!(matches!(&i.operands[1], Operand::List(l) if l.elements.is_empty()));
    let (i, _) = inst("call.uni (_), f, (a);");
    assert!(
        matches!(&i.operands[0], Operand::List(l) if matches!(l.elements[0], Operand::BitBucket(_)))
    );
}

#[test]
fn parenthesised_expressions_stay_expressions() {
    let (i, _) = inst("add.s32 %r1, %r2, (1 + 2) * 3;");
    let Operand::Expr(e) = &i.operands[2] else {
        panic!()
    };
    assert_eq!(eval(e), Some(9));
    let (i, _) = inst("add.s32 %r1, %r2, (4);");
    assert!(matches!(&i.operands[2], Operand::Expr(Expr::Int(_))));
}

#[test]
fn spec_statement_examples() {
    // §4.3 examples verbatim (with the declarations they need).
    let (stmts, _) = body(
        "        .reg     .b32 r1, r2;\n\
                 .global  .f32  array[N];\n\
         start:  mov.b32   r1, %tid.0;\n\
                 shl.b32   r1, r1, 2;        // shift thread id by 2 bits\n\
                 ld.b32    r2, array[r1];    // thread[tid] gets array[tid]\n\
                 add.f32   r2, r2, 0.5;      // add 1/2\n",
    );
    assert_eq!(stmts.len(), 7);
    assert!(matches!(&stmts[2], Statement::Label(_)));
}
