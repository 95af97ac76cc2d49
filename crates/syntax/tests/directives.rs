//! Directives and declarations (spec 1.1 chapters 5 and 9, and the forms compilers emit).

mod common;
use common::*;
use syntax::ast::*;

fn module(src: &str) -> (Vec<Statement>, diag::SourceFile) {
    let (m, f) = parse_ok(src);
    (m.statements, f)
}

fn only_function(src: &str) -> (Function, diag::SourceFile) {
    let (stmts, f) = module(src);
    let funcs: Vec<Function> = stmts
        .into_iter()
        .filter_map(|s| match s {
            Statement::Function(f) => Some(*f),
            _ => None,
        })
        .collect();
    assert_eq!(funcs.len(), 1);
    (funcs.into_iter().next().unwrap(), f)
}

fn var(src_stmt: &str) -> (VariableDecl, diag::SourceFile) {
    let (stmts, f) = module(src_stmt);
    match stmts.into_iter().next() {
        Some(Statement::Variable(v)) => (*v, f),
        other => panic!("not a variable: {other:?}"),
    }
}

#[test]
fn version_target_address_size() {
    let (s, f) = module(
        ".version 1.1\n.target sm_10, map_f64_to_f32, texmode_unified, debug\n.address_size 64\n",
    );
    let Statement::Version(v) = &s[0] else {
        panic!()
    };
    assert_eq!((v.major, v.minor), (1, 1));
    let Statement::Target(t) = &s[1] else {
        panic!()
    };
    let names: Vec<&str> = t.targets.iter().map(|i| i.text(&f.text)).collect();
    assert_eq!(
        names,
        ["sm_10", "map_f64_to_f32", "texmode_unified", "debug"]
    );
    let Statement::AddressSize(a) = &s[2] else {
        panic!()
    };
    assert_eq!(a.size.value, 64);
    let (s, _) = module(".version 7.10\n");
    let Statement::Version(v) = &s[0] else {
        panic!()
    };
    assert_eq!((v.major, v.minor), (7, 10));
}

#[test]
fn entry_with_ptx11_cta_dimensions_and_scope() {
    // 1.1 §9.1: `.entry filter[16][16] { code; … }` and empty brackets.
    let (f, src) = only_function(".entry filter[16][][8] { exit; }");
    assert_eq!(f.kind, FunctionKind::Entry);
    assert_eq!(f.name.text(&src.text), "filter");
    assert_eq!(f.cta_dims.len(), 3);
    assert_eq!(int_value(f.cta_dims[0].as_ref().unwrap()), Some(16));
    assert!(f.cta_dims[1].is_none());
    assert_eq!(int_value(f.cta_dims[2].as_ref().unwrap()), Some(8));
    assert!(f.params.is_none());
    assert_eq!(f.body.unwrap().statements.len(), 1);
    let (f, _) = only_function(".entry cta_fft[256];");
    assert!(f.body.is_none());
    assert_eq!(f.cta_dims.len(), 1);
}

#[test]
fn modern_entry_with_params_ptr_and_performance_directives() {
    let (f, src) = only_function(
        ".visible .entry k(.param .u64 a, .param .align 8 .b8 s[16],\n\
         .param .u64 .ptr .global .align 16 p)\n\
         .maxntid 256, 1, 1\n.reqntid 128\n.minnctapersm 2\n.maxnreg 32\n.maxnctapersm 4\n\
         .pragma \"nounroll\";\n{ ret; }",
    );
    assert_eq!(f.linkage.unwrap().kind, LinkageKind::Visible);
    let params = f.params.unwrap().params;
    assert_eq!(params.len(), 3);
    assert_eq!(params[0].space, StateSpace::Param);
    assert_eq!(
        params[0].ty.unwrap().base,
        BaseType::Scalar(ScalarType::U64)
    );
    assert_eq!(int_value(params[1].align.as_ref().unwrap()), Some(8));
    assert_eq!(
        int_value(params[1].declarators[0].dims[0].as_ref().unwrap()),
        Some(16)
    );
    let ptr = params[2].ptr.as_ref().unwrap();
    assert_eq!(ptr.space, Some(StateSpace::Global));
    assert_eq!(int_value(ptr.align.as_ref().unwrap()), Some(16));
    assert_eq!(params[2].declarators[0].name.text(&src.text), "p");
    let kinds: Vec<PerformanceKind> = f
        .attributes
        .iter()
        .filter_map(|a| match a {
            FunctionAttribute::Performance(p) => Some(p.kind),
            _ => None,
        })
        .collect();
    assert_eq!(
        kinds,
        [
            PerformanceKind::Maxntid,
            PerformanceKind::Reqntid,
            PerformanceKind::Minnctapersm,
            PerformanceKind::Maxnreg,
            PerformanceKind::Maxnctapersm
        ]
    );
    let FunctionAttribute::Performance(maxntid) = &f.attributes[0] else {
        panic!()
    };
    let dims: Vec<i128> = maxntid.args.iter().filter_map(int_value).collect();
    assert_eq!(dims, [256, 1, 1]);
    let FunctionAttribute::Pragma(p) = &f.attributes[5] else {
        panic!()
    };
    assert_eq!(p.strings[0].text(&src.text), "nounroll");
}

#[test]
fn cluster_directives() {
    let (f, _) = only_function(
        ".visible .entry k() .explicitcluster .reqnctapercluster 2, 1, 1 .maxclusterrank 8 { ret; }",
    );
    let got: Vec<(ClusterKind, Vec<i128>)> = f
        .attributes
        .iter()
        .map(|a| match a {
            FunctionAttribute::Cluster(c) => {
                (c.kind, c.args.iter().filter_map(int_value).collect())
            }
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        got,
        vec![
            (ClusterKind::Explicitcluster, vec![]),
            (ClusterKind::Reqnctapercluster, vec![2, 1, 1]),
            (ClusterKind::Maxclusterrank, vec![8]),
        ]
    );
}

#[test]
fn func_with_return_params_prototypes_and_linkage() {
    let (f, src) = only_function(
        ".func (.reg .b32 rval) foo (.reg .b32 arg0, .reg .f64 arg1)\n{\n mov.b32 rval, arg0;\n ret;\n}",
    );
    assert_eq!(f.kind, FunctionKind::Func);
    let ret = f.returns.unwrap().params;
    assert_eq!(ret[0].space, StateSpace::Reg);
    assert_eq!(ret[0].declarators[0].name.text(&src.text), "rval");
    assert_eq!(f.params.unwrap().params.len(), 2);
    // Declarations without a body.
    let (f, _) = only_function(
        ".extern .func (.param .b32 func_retval0) vprintf (.param .b64 a, .param .b64 b);",
    );
    assert_eq!(f.linkage.unwrap().kind, LinkageKind::Extern);
    assert!(f.body.is_none());
    let (f, _) = only_function(".weak .func w() .noreturn { trap; }");
    assert_eq!(f.linkage.unwrap().kind, LinkageKind::Weak);
    assert!(
        matches!(&f.attributes[0], FunctionAttribute::Performance(p) if p.kind == PerformanceKind::Noreturn)
    );
    let (f, _) = only_function(".func bar;");
    assert!(f.params.is_none() && f.returns.is_none() && f.body.is_none());
}

#[test]
fn call_prototype_is_named_by_its_label() {
    let (stmts, f) =
        body("prototype_0 : .callprototype (.param .b32 _) _ (.param .b64 _, .param .b32 _);");
    let Statement::CallPrototype(c) = &stmts[0] else {
        panic!("{stmts:?}")
    };
    assert_eq!(c.name.text(&f.text), "prototype_0");
    assert_eq!(c.placeholder.text(&f.text), "_");
    assert_eq!(c.returns.as_ref().unwrap().params.len(), 1);
    assert_eq!(c.params.as_ref().unwrap().params.len(), 2);
}

#[test]
fn variables_in_every_state_space() {
    for (space, want) in [
        (".reg", StateSpace::Reg),
        (".sreg", StateSpace::Sreg),
        (".const", StateSpace::Const),
        (".global", StateSpace::Global),
        (".local", StateSpace::Local),
        (".param", StateSpace::Param),
        (".shared", StateSpace::Shared),
        (".surf", StateSpace::Surf),
        (".tex", StateSpace::Tex),
    ] {
        let (v, _) = var(&format!("{space} .u32 x;"));
        assert_eq!(v.space, want);
        assert_eq!(v.ty.unwrap().base, BaseType::Scalar(ScalarType::U32));
    }
}

#[test]
fn every_fundamental_type_and_vector_width() {
    for t in ScalarType::ALL {
        let (v, _) = var(&format!(".global {} x;", t.as_str()));
        assert_eq!(v.ty.unwrap().base, BaseType::Scalar(t));
    }
    for (w, lanes) in [(".v2", 2), (".v3", 3), (".v4", 4), (".v8", 8)] {
        let (v, _) = var(&format!(".reg {w} .f32 x;"));
        assert_eq!(v.ty.unwrap().vector.unwrap().lanes(), lanes);
    }
}

#[test]
fn bindings_align_arrays_and_initializers() {
    // §5.1.3 banks, §5.1.8 `.tex[2]`, §5.3.3 arrays, §5.3.5 initializers, §5.3.6 align.
    let (v, _) = var(".const[2] .align 4 .b8 bar[8] = {0,0,0,0,2,0,0,0};");
    assert_eq!(v.space, StateSpace::Const);
    assert_eq!(int_value(v.binding.as_ref().unwrap()), Some(2));
    assert_eq!(int_value(v.align.as_ref().unwrap()), Some(4));
    let Some(Initializer::List(items, _)) = &v.declarators[0].init else {
        panic!()
    };
    let vals: Vec<i128> = items
        .iter()
        .map(|i| match i {
            Initializer::Expr(e) => int_value(e).unwrap(),
            _ => panic!(),
        })
        .collect();
    assert_eq!(vals, [0, 0, 0, 0, 2, 0, 0, 0]);

    let (v, _) = var(".tex[2] tex_b;");
    assert!(v.ty.is_none());
    assert_eq!(int_value(v.binding.as_ref().unwrap()), Some(2));

    let (v, _) = var(".shared .s32 offset[][] = { {-1, 0}, {0, -1}, {1, 0}, {0, 1} };");
    let d = &v.declarators[0];
    assert_eq!(d.dims, vec![None, None]);
    let Some(Initializer::List(rows, _)) = &d.init else {
        panic!()
    };
    assert_eq!(rows.len(), 4);
    assert!(matches!(&rows[0], Initializer::List(r, _) if r.len() == 2));

    let (v, _) = var(".local .u16 kernel[19][19];");
    let dims: Vec<i128> = v.declarators[0]
        .dims
        .iter()
        .map(|d| int_value(d.as_ref().unwrap()).unwrap())
        .collect();
    assert_eq!(dims, [19, 19]);

    let (v, _) = var(".global .v3 .u8 rgb[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};");
    assert_eq!(v.ty.unwrap().vector, Some(VectorWidth::V3));
}

#[test]
fn several_declarators_parameterized_registers_and_address_initializers() {
    let (v, f) = var(".reg .b32 r1, r2, %r<29>;");
    let names: Vec<&str> = v.declarators.iter().map(|d| d.name.text(&f.text)).collect();
    assert_eq!(names, ["r1", "r2", "%r"]);
    assert_eq!(
        int_value(v.declarators[2].range.as_ref().unwrap()),
        Some(29)
    );
    let (v, f) = var(".global .u32 tbl[2] = {a, b+4};");
    let Some(Initializer::List(items, _)) = &v.declarators[0].init else {
        panic!()
    };
    let Initializer::Expr(Expr::Binary(b)) = &items[1] else {
        panic!()
    };
    assert_eq!(b.op, BinaryOp::Add);
    assert!(matches!(&b.lhs, Expr::Name(n) if n.ident.text(&f.text) == "b"));
    let (v, f) = var(".global .align 8 .u64 p[1] = {generic(x)};");
    let Some(Initializer::List(items, _)) = &v.declarators[0].init else {
        panic!()
    };
    assert!(
        matches!(&items[0], Initializer::Expr(Expr::Generic(g)) if g.name.ident.text(&f.text) == "x")
    );
}

#[test]
fn extern_shared_and_linkage_of_variables() {
    let (v, f) = var(".extern .shared .align 16 .b8 smem[];");
    assert_eq!(v.linkage.unwrap().kind, LinkageKind::Extern);
    assert_eq!(v.space, StateSpace::Shared);
    assert_eq!(v.declarators[0].dims, vec![None]);
    assert_eq!(v.declarators[0].name.text(&f.text), "smem");
    let (v, _) = var(".visible .global .u32 g;");
    assert_eq!(v.linkage.unwrap().kind, LinkageKind::Visible);
    let (v, f) = var(".global .attribute(.managed) .align 4 .u32 m;");
    let attrs: Vec<&str> = v.attributes.iter().map(|s| text(&f, *s)).collect();
    assert_eq!(attrs, [".managed"]);
    let (v, _) = var(".common .global .u32 g;");
    assert_eq!(v.linkage.unwrap().kind, LinkageKind::Common);
    // 1.1 §9.3: bare `.extern foo` / `.visible foo`, Table 74/75 examples verbatim.
    let (s, _) = module(
        ".extern foo  // variable foo is declared in another file\n.b32 foo;\n\
         .visible foo  // variable foo will be externally visible\n.b32 foo;\n",
    );
    assert!(matches!(&s[1], Statement::Data(d) if d.values.len() == 1));
    assert_eq!(s.len(), 4);
    let (s, f) = module(".extern foo\n.visible bar;\n");
    let Statement::LinkageName(l) = &s[0] else {
        panic!()
    };
    assert_eq!(l.linkage.kind, LinkageKind::Extern);
    assert_eq!(l.name.text(&f.text), "foo");
    assert!(matches!(&s[1], Statement::LinkageName(l) if l.linkage.kind == LinkageKind::Visible));
}

#[test]
fn structs_unions_nested_and_used_as_types() {
    let (s, f) = module(
        ".struct float4 { .f32[4] v };\n\
         .struct somestruct { .s32 i; .s32 j; .f32 x; .f32 y; };\n\
         .union intOrFloat { .s32 i; .f32 f; };\n\
         .struct outer { .u32 a; .union { .s32 i; .f32 f; }; .v2 .u16 uv[2]; };\n\
         .global somestruct p;\n",
    );
    let Statement::Struct(f4) = &s[0] else {
        panic!()
    };
    assert_eq!(f4.kind, AggregateKind::Struct);
    let StructField::Field(v) = &f4.fields[0] else {
        panic!()
    };
    assert_eq!(int_value(v.type_dims[0].as_ref().unwrap()), Some(4));
    let Statement::Struct(ss) = &s[1] else {
        panic!()
    };
    assert_eq!(ss.fields.len(), 4);
    let Statement::Struct(u) = &s[2] else {
        panic!()
    };
    assert_eq!(u.kind, AggregateKind::Union);
    let Statement::Struct(o) = &s[3] else {
        panic!()
    };
    let StructField::Nested(inner) = &o.fields[1] else {
        panic!()
    };
    assert!(inner.name.is_none() && inner.kind == AggregateKind::Union);
    let StructField::Field(uv) = &o.fields[2] else {
        panic!()
    };
    assert_eq!(uv.ty.vector, Some(VectorWidth::V2));
    let Statement::Variable(p) = &s[4] else {
        panic!()
    };
    let BaseType::Named(t) = p.ty.unwrap().base else {
        panic!()
    };
    assert_eq!(t.text(&f.text), "somestruct");
}

#[test]
fn debugging_directives() {
    let (s, f) = module(
        ".file 1 \"/tmp/a.cu\", 1690000000, 4321\n.file \"b.cu\"\n\
         .section .debug_info, \"\",@progbits\n\
         .byte 0x7d,0x01,0x00\n\
         .section .debug_abbrev\n{\n.b8 17\n.b32 .debug_abbrev\n$L__str:\n.b64 $L__func_begin0+4\n}\n",
    );
    let Statement::File(a) = &s[0] else { panic!() };
    assert_eq!(a.index.unwrap().value, 1);
    assert_eq!(a.name.text(&f.text), "/tmp/a.cu");
    assert_eq!(a.extra.len(), 2);
    let Statement::File(b) = &s[1] else { panic!() };
    assert!(b.index.is_none());
    let Statement::Section(sec) = &s[2] else {
        panic!()
    };
    assert_eq!(text(&f, sec.name), ".debug_info");
    assert_eq!(sec.attributes.len(), 2);
    let Statement::Data(d) = &s[3] else { panic!() };
    assert_eq!(text(&f, d.directive), ".byte");
    let bytes: Vec<i128> = d.values.iter().filter_map(int_value).collect();
    assert_eq!(bytes, [0x7d, 1, 0]);
    let Statement::Section(sec) = &s[4] else {
        panic!()
    };
    let body = &sec.body.as_ref().unwrap().statements;
    assert_eq!(body.len(), 4);
    assert!(
        matches!(&body[1], Statement::Data(d) if matches!(&d.values[0], Expr::Name(n) if n.ident.text(&f.text) == ".debug_abbrev"))
    );
    assert!(matches!(&body[2], Statement::Label(_)));
}

#[test]
fn loc_with_and_without_inlining_attributes() {
    let (stmts, f) = body(
        ".loc 1 24 5\n.loc 7\n.loc 1 30 2, function_name $L__info_string0, inlined_at 1 10 3\nret;",
    );
    let Statement::Loc(a) = &stmts[0] else {
        panic!()
    };
    let v: Vec<u64> = a.values.iter().map(|i| i.value).collect();
    assert_eq!(v, [1, 24, 5]);
    assert!(a.rest.is_none());
    let Statement::Loc(b) = &stmts[1] else {
        panic!()
    };
    assert_eq!(b.values.len(), 1);
    let Statement::Loc(c) = &stmts[2] else {
        panic!()
    };
    assert!(text(&f, c.rest.unwrap()).contains("inlined_at 1 10 3"));
    assert!(matches!(&stmts[3], Statement::Instruction(_)));
}

#[test]
fn pragmas_labels_and_nested_blocks() {
    let (stmts, f) = body(".pragma \"nounroll\";\nL1:\n{\n { ret; }\n}\n$L__BB0_2: ret;");
    assert!(matches!(&stmts[0], Statement::Pragma(_)));
    assert!(matches!(&stmts[1], Statement::Label(l) if l.name.text(&f.text) == "L1"));
    let Statement::Block(b) = &stmts[2] else {
        panic!()
    };
    assert!(matches!(&b.statements[0], Statement::Block(_)));
    assert!(matches!(&stmts[3], Statement::Label(l) if l.name.text(&f.text) == "$L__BB0_2"));
    assert!(matches!(&stmts[4], Statement::Instruction(_)));
}

#[test]
fn comments_are_whitespace() {
    let (stmts, _) = body("/* a\n b */ add.s32 /* mid */ %r1, // tail\n %r2, 1; // end");
    let Statement::Instruction(i) = &stmts[0] else {
        panic!()
    };
    assert_eq!(i.operands.len(), 3);
}

#[test]
fn spans_point_at_the_source() {
    let src = ".version 8.4\n.target sm_80\n.entry k()\n{\n\tadd.s32 %r1, %r2, 7;\n}\n";
    let (m, f) = parse_ok(src);
    let Statement::Function(func) = &m.statements[2] else {
        panic!()
    };
    let Statement::Instruction(i) = &func.body.as_ref().unwrap().statements[0] else {
        panic!()
    };
    assert_eq!(text(&f, i.span), "add.s32 %r1, %r2, 7;");
    assert_eq!(f.line_col(i.span.start), (5, 2));
    assert_eq!(text(&f, i.operands[2].span()), "7");
    assert_eq!(text(&f, func.span).lines().next(), Some(".entry k()"));
}
