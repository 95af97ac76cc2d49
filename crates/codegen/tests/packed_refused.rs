//! Packed 16×2 and narrow-float types fit a 32-bit register but are not 32-bit integers: an
//! instruction on them must be a translation error naming it, never a 32-bit rule's code
//! (`add.u16x2` as `IADD` would carry from the low half into the high half).

fn first_error(body: &str) -> String {
    let text = format!(
        ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 out)\n{{\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<2>;\n\tld.param.u64 %rd1, [out];\n\tmov.u32 %r1, %tid.x;\n\t{body}\n\tst.global.u32 [%rd1], %r2;\n\tret;\n}}\n"
    );
    let file = diag::SourceFile::new("k.ptx", &text);
    let (m, d) = check::check_source(&file);
    assert!(!diag::has_errors(&d), "{}", diag::render(&file, &d));
    let errs = codegen::compile_module(&m.expect("module"), &file)
        .err()
        .unwrap_or_else(|| panic!("`{body}` must not translate"));
    diag::render(&file, &errs)
}

#[test]
fn packed_arithmetic_is_an_error_naming_the_instruction() {
    for body in [
        "add.u16x2 %r2, %r1, %r1;",
        "min.s16x2 %r2, %r1, %r1;",
        "add.rn.f16x2 %r2, %r1, %r1;",
        "mul.rn.bf16x2 %r2, %r1, %r1;",
    ] {
        let shown = first_error(body);
        assert!(
            shown.contains(&format!(
                "k.ptx:10:2: error: cannot translate `{}",
                body.trim_end_matches(';')
            )),
            "{shown}"
        );
    }
}
