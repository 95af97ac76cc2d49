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

/// The rendered errors of translating `file`, which checks cleanly and must not translate.
fn refusal(file: &diag::SourceFile) -> String {
    let (m, d) = check::check_source(file);
    assert!(!diag::has_errors(&d), "{}", diag::render(file, &d));
    let errs = codegen::compile_module(&m.unwrap(), file).unwrap_err();
    diag::render(file, &errs)
}

#[test]
fn an_opcode_without_a_rule_is_an_error_naming_it() {
    let text = ".version 7.0\n.target sm_20\n.address_size 64\n.visible .entry k(.param .u64 out)\n{\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<2>;\n\tld.param.u64 %rd1, [out];\n\tmov.u32 %r1, %tid.x;\n\ttxq.width.b32 %r2, [%rd1];\n\tmov.u32 %r2, %r1;\n\tst.global.u32 [%rd1], %r2;\n\tret;\n}\n";
    let file = diag::SourceFile::new("k.ptx", text);
    let shown = refusal(&file);
    assert!(
        shown.contains(
            "k.ptx:10:2: error: cannot translate `txq.width.b32 %r2, [%rd1]` for sm_20: a texture object (a handle in a register): sm_20's TEX/TLD/TXQ name their texture by an immediate unit (bindless textures need sm_30)"
        ),
        "{shown}"
    );
}

/// An opcode sm_20 has no instruction for is refused with coverage's reason and the lowest
/// target the PTX table gives it (`activemask`: sm_30, PTX ISA "Target ISA Notes"), not as a
/// rule still to be written.
#[test]
fn an_opcode_sm_20_cannot_express_says_why() {
    let text = ".version 7.0\n.target sm_70\n.address_size 64\n.visible .entry k(.param .u64 out)\n{\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<2>;\n\tld.param.u64 %rd1, [out];\n\tactivemask.b32 %r1;\n\tst.global.u32 [%rd1], %r1;\n\tret;\n}\n";
    let file = diag::SourceFile::new("k.ptx", text);
    let shown = refusal(&file);
    assert!(
        shown.contains(
            "k.ptx:9:2: error: cannot translate `activemask.b32 %r1` for sm_20: requires sm_30 or later: sm_20 has no instruction for it"
        ),
        "{shown}"
    );
}

/// A body whose registers cannot be allocated but which holds an instruction sm_20 cannot
/// express is refused at that instruction: `wgmma_b1_sm90a.ptx` keeps 128 values live and
/// names up to 52 in one `wgmma`, and its first instruction is `wgmma.fence` (line 14).
#[test]
fn an_inexpressible_body_is_refused_at_its_instruction_not_at_allocation() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/corpus/wgmma_b1_sm90a.ptx"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let file = diag::SourceFile::new("wgmma_b1_sm90a.ptx", &text);
    let shown = refusal(&file);
    assert!(
        shown.contains("wgmma_b1_sm90a.ptx:14:2: error: cannot translate `wgmma.fence.sync.aligned` for sm_20: requires sm_90a or later: sm_20 has no instruction for it"),
        "{shown}"
    );
    assert!(!shown.contains("cannot allocate registers"), "{shown}");
}
