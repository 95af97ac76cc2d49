//! `check_source_streamed`: what it hands over, put together, is the module `check_source`
//! returns, and the diagnostics are the same.

use check::Streamed;
use diag::SourceFile;

/// The module rebuilt from the handed-over pieces, and the module and diagnostics returned.
fn rebuilt(
    file: &SourceFile,
) -> (
    Option<ir::Module>,
    Option<ir::Module>,
    Vec<diag::Diagnostic>,
) {
    let mut module: Option<ir::Module> = None;
    let mut order = Vec::new();
    let (returned, diags) = check::check_source_streamed(file, &mut |e| match e {
        Streamed::ModuleLevel { module: m, bodies } => {
            assert!(module.is_none(), "the module level comes once");
            module = Some(m);
            order = bodies;
        }
        Streamed::Body {
            id,
            function,
            first_var,
            vars,
            prototypes,
            globals,
        } => {
            let m = module.as_mut().expect("the module level comes first");
            assert_eq!(m.vars.len(), first_var, "variables in order");
            m.vars.extend(vars);
            m.prototypes.extend(prototypes);
            m.globals.extend(globals);
            assert_eq!(order.first(), Some(&id), "bodies in the announced order");
            order.remove(0);
            m.functions[id.index()] = function;
        }
    });
    (module, returned, diags)
}

const TWO_KERNELS: &str = r#".version 7.0
.target sm_61
.address_size 64
.global .u32 g[4] = {1, 2, 3, 4};
.func (.param .b32 r) twice(.param .b32 x)
{
	.reg .b32 %r<3>;
	ld.param.b32 %r1, [x];
	add.s32 %r2, %r1, %r1;
	st.param.b32 [r], %r2;
	ret;
}
.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<3>;
	.local .b32 scratch[2];
	ld.param.u64 %rd1, [out];
	ld.global.u32 %r1, [g+4];
	{
	.param .b32 a;
	.param .b32 b;
	st.param.b32 [a], %r1;
	call (b), twice, (a);
	ld.param.b32 %r2, [b];
	}
L_end:
	st.global.u32 [%rd1], %r2;
	ret;
}
.visible .entry k2() { .reg .b32 %r<2>; .shared .b32 s; mov.u32 %r1, s; ret; }
.visible .entry k3() { p: .callprototype (.param .b32 _) _ (.param .b32 _); ret; }
"#;

#[test]
fn the_pieces_make_check_sources_module() {
    let file = SourceFile::new("two.ptx", TWO_KERNELS);
    let (expected, expected_diags) = check::check_source(&file);
    let expected = expected.expect("the file checks");
    let (pieces, returned, diags) = rebuilt(&file);
    assert_eq!(
        diag::render(&file, &diags),
        diag::render(&file, &expected_diags)
    );
    assert_eq!(pieces.as_ref(), Some(&expected), "the pieces put together");
    // What was handed over is left out of the returned module, and nothing else is.
    let mut returned = returned.expect("the file checks");
    for (f, e) in returned.functions.iter_mut().zip(&expected.functions) {
        assert!(f.insts().is_empty() && f.labels.is_empty());
        f.body = e.body.clone();
        f.labels = e.labels.clone();
        assert!(f.regs.len() <= e.regs.len() && e.regs.starts_with(&f.regs));
        f.regs = e.regs.clone();
    }
    assert_eq!(returned, expected);
}

#[test]
fn nothing_follows_an_error() {
    // An error in the first body: the module level was handed over, no body after it.
    let text = TWO_KERNELS.replace("add.s32 %r2, %r1, %r1;", "add.s32 %r2, %r1, %nope;");
    let file = SourceFile::new("bad.ptx", text);
    let (pieces, returned, diags) = rebuilt(&file);
    assert!(returned.is_none());
    let (_, expected_diags) = check::check_source(&file);
    assert_eq!(
        diag::render(&file, &diags),
        diag::render(&file, &expected_diags)
    );
    let pieces = pieces.expect("the module level checked cleanly");
    assert!(pieces.functions.iter().all(|f| f.body.is_none()));
}

#[test]
fn a_file_that_does_not_parse_hands_nothing_over() {
    let text = TWO_KERNELS.replace("ret;\n}\n.visible", "ret;\n}\n}\n.visible");
    let file = SourceFile::new("unparsable.ptx", text);
    let (pieces, returned, diags) = rebuilt(&file);
    assert!(returned.is_none() && diag::has_errors(&diags));
    assert!(pieces.is_none());
    let (_, expected_diags) = check::check_source(&file);
    assert_eq!(
        diag::render(&file, &diags),
        diag::render(&file, &expected_diags)
    );
}
