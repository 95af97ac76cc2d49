//! Every row of the PTX instruction table has a selection rule or a reason it has none.

use codegen::coverage::{status, Status};

#[test]
fn every_isa_row_has_a_rule_or_a_reason() {
    let forms = isa::all_forms();
    assert!(forms.len() > 100, "the isa table did not load");
    let mut rules = 0;
    for form in forms {
        match status(form.opcode) {
            Status::Rule(what) => {
                assert!(!what.is_empty(), "{:?}", form.opcode);
                rules += 1;
            }
            Status::NotSupported(why) => assert!(!why.is_empty(), "{:?}", form.opcode),
        }
    }
    assert!(rules > 0);
}

#[test]
fn an_opcode_without_a_rule_is_an_error_naming_it() {
    let text = ".version 7.0\n.target sm_20\n.address_size 64\n.visible .entry k(.param .u64 out)\n{\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<2>;\n\tld.param.u64 %rd1, [out];\n\tmov.u32 %r1, %tid.x;\n\tbrkpt;\n\tmov.u32 %r2, %r1;\n\tst.global.u32 [%rd1], %r2;\n\tret;\n}\n";
    let file = diag::SourceFile::new("k.ptx", text);
    let (m, d) = check::check_source(&file);
    assert!(!diag::has_errors(&d));
    let errs = codegen::compile_module(&m.unwrap(), &file).unwrap_err();
    let shown = diag::render(&file, &errs);
    assert!(
        shown.contains("k.ptx:10:2: error: cannot translate `brkpt` for sm_20"),
        "{shown}"
    );
}

#[test]
fn unstructured_reconvergence_is_an_error_naming_the_block() {
    // Block C is inside the region of the branch at B1 (B1 -> B2 -> C) but is also entered
    // directly from B0: lanes arriving that way have no SSY entry of that region, and B0's
    // branch is uniform, so no enclosing region's SSY brings them back either (with a
    // divergent branch at B0 it would: tests/unstructured_joins.rs).
    let text = r#".version 7.0
.target sm_20
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .pred %p<3>;
	.reg .b32 %r<3>;
	.reg .b64 %rd<2>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	setp.eq.u32 %p1, %r1, 0;
	setp.eq.u32 %p2, %r1, 1;
	mov.u32 %r2, 1;
	@%p1 bra.uni C;
	@%p2 bra D;
	add.u32 %r2, %r2, 5;
C:
	add.u32 %r2, %r2, 6;
D:
	st.global.u32 [%rd1], %r2;
	ret;
}
"#;
    let file = diag::SourceFile::new("k.ptx", text);
    let (m, d) = check::check_source(&file);
    assert!(!diag::has_errors(&d), "{}", diag::render(&file, &d));
    let errs = codegen::compile_module(&m.unwrap(), &file).unwrap_err();
    let shown = diag::render(&file, &errs);
    assert!(
        shown.contains("k.ptx:18:2: error: cannot map control flow onto the reconvergence stack: block is entered from outside"),
        "{shown}"
    );
}
