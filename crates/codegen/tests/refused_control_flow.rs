//! Control flow the reconvergence stack cannot take is an error naming the block
//! (`file:line:col` of its first instruction), never code. (A loop that lanes continue
//! before they reconverge, with exits to two blocks, was refused here until its exits were
//! funnelled: `funnelled_loops.rs` runs it.)

fn refusal(text: &str) -> String {
    let file = diag::SourceFile::new("k.ptx", text);
    let (m, d) = check::check_source(&file);
    assert!(!diag::has_errors(&d), "{}", diag::render(&file, &d));
    match codegen::compile_module(&m.expect("a module"), &file) {
        Ok(_) => panic!("the translator must refuse this body"),
        Err(errs) => diag::render(&file, &errs),
    }
}

const HEAD: &str = ".version 7.0\n.target sm_20\n.address_size 64\n\
    .visible .entry k(.param .u64 out)\n{\n\t.reg .pred %p<4>;\n\t.reg .b32 %r<4>;\n\
    \t.reg .b64 %rd<2>;\n\tld.param.u64 %rd1, [out];\n\tmov.u32 %r1, %tid.x;\n\
    \tmov.u32 %r2, 0;\n\tsetp.eq.u32 %p1, %r1, 0;\n\tsetp.lt.u32 %p2, %r1, 7;\n";

#[test]
fn a_loop_entered_in_its_middle_is_refused_naming_its_header() {
    // The cycle A -> B -> A is entered at A (falling in) and at B (the branch): irreducible.
    let text = format!(
        "{HEAD}\t@%p1 bra B;\nA:\n\tadd.u32 %r2, %r2, 1;\nB:\n\tadd.u32 %r2, %r2, 2;\n\
         \tsetp.lt.u32 %p2, %r2, 9;\n\t@%p2 bra A;\n\tst.global.u32 [%rd1], %r2;\n\tret;\n}}\n"
    );
    let shown = refusal(&text);
    assert!(
        shown.contains("k.ptx:16:2: error: cannot map control flow onto the reconvergence stack: irreducible control flow"),
        "{shown}"
    );
}
