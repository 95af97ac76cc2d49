//! `check_and_compile` (the check streaming its IR to a translator that starts on the first
//! entries while later bodies are checked) against the plain pipeline, `check_source` then
//! `compile_module`: the same diagnostics and the same cubin bytes, for every repository
//! file and for generated modules with many entries, with and without address-taken
//! functions (which make the early translations void).

use diag::SourceFile;
use std::path::Path;

#[path = "../../check/benches/generate.rs"]
#[allow(dead_code)]
mod generate;

/// The plain pipeline's outcome, rendered: check diagnostics, then the cubin or the errors.
fn plain(file: &SourceFile) -> (String, Option<Result<Vec<u8>, String>>) {
    let (module, diags) = check::check_source(file);
    let rendered = diag::render(file, &diags);
    let Some(module) = module.filter(|_| !diag::has_errors(&diags)) else {
        return (rendered, None);
    };
    (
        rendered,
        Some(outcome(file, codegen::compile_module(&module, file))),
    )
}

fn streamed(file: &SourceFile) -> (String, Option<Result<Vec<u8>, String>>) {
    let (diags, compiled) = codegen::check_and_compile(file);
    let rendered = diag::render(file, &diags);
    (rendered, compiled.map(|c| outcome(file, c)))
}

fn outcome(
    file: &SourceFile,
    c: Result<codegen::Compiled, Vec<diag::Diagnostic>>,
) -> Result<Vec<u8>, String> {
    match c {
        Ok(c) => {
            let mut bytes = fermi::cubin::write_cubin(&c.cubin).map_err(|e| e.to_string())?;
            // The warnings too: they are part of what `ptxvm compile` prints.
            bytes.extend(diag::render(file, &c.warnings).bytes());
            Ok(bytes)
        }
        Err(e) => Err(diag::render(file, &e)),
    }
}

fn same(name: &str, text: &str) {
    let file = SourceFile::new(name, text);
    let (a, b) = (plain(&file), streamed(&file));
    assert_eq!(a.0, b.0, "{name}: check diagnostics differ");
    match (&a.1, &b.1) {
        (Some(Ok(x)), Some(Ok(y))) => assert!(x == y, "{name}: cubins differ"),
        _ => assert_eq!(a.1, b.1, "{name}: outcomes differ"),
    }
}

#[test]
fn repository_files_translate_the_same_streamed() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut n = 0;
    for dir in ["tests/run", "tests/kernels", "tests/corpus"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        let mut paths: Vec<_> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "ptx"))
            .collect();
        paths.sort();
        for p in paths {
            let text = std::fs::read_to_string(&p).expect("read a repository file");
            same(&p.display().to_string(), &text);
            n += 1;
        }
    }
    assert!(n > 50, "only {n} repository files found");
}

/// The first `n` kernels (each a `.func` and the `.entry` calling it) of the check
/// benchmark's text.
fn kernels(n: usize) -> String {
    let text = generate::generate();
    let mut at = 0;
    for _ in 0..=n {
        match text[at..].find("\n.func") {
            Some(i) => at += i + 1,
            None => return text,
        }
    }
    text[..at].to_string()
}

#[test]
fn many_entries_translate_the_same_streamed() {
    same("many.ptx", &kernels(300));
}

#[test]
fn an_address_taken_late_voids_the_early_translations() {
    // The last entry takes a function's address: every entry's indirect-call candidates
    // (and the callee's layout) depend on it, and only the last body says so.
    let text = kernels(200)
        + r#"
.visible .entry takes_address(.param .u64 out)
{
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [out];
	mov.u64 %rd2, helper_0;
	st.global.u64 [%rd1], %rd2;
	ret;
}
"#;
    same("taken.ptx", &text);
}

#[test]
fn entries_before_their_callees_translate_the_same_streamed() {
    // Forty entries call a function defined after them (declared first): they wait for its
    // body, or (past the few that may wait) are left to the end.
    let mut text = String::from(
        ".version 7.0\n.target sm_20\n.address_size 64\n\
         .func (.param .b32 r) late(.param .b32 x);\n",
    );
    for i in 0..40 {
        text += &format!(
            ".visible .entry k{i}(.param .u64 out)\n{{\n\
             .reg .b32 %r<3>;\n.reg .b64 %rd<2>;\n\
             ld.param.u64 %rd1, [out];\nmov.u32 %r1, {i};\n\
             {{\n.param .b32 a;\n.param .b32 b;\nst.param.b32 [a], %r1;\n\
             call (b), late, (a);\nld.param.b32 %r2, [b];\n}}\n\
             st.global.u32 [%rd1], %r2;\nret;\n}}\n"
        );
    }
    text += ".func (.param .b32 r) late(.param .b32 x)\n{\n.reg .b32 %r<3>;\n\
             ld.param.b32 %r1, [x];\nmul.lo.s32 %r2, %r1, 3;\nst.param.b32 [r], %r2;\nret;\n}\n";
    let file = SourceFile::new("late.ptx", text.as_str());
    let (diags, compiled) = codegen::check_and_compile(&file);
    assert!(diags.is_empty(), "{}", diag::render(&file, &diags));
    let kernels = compiled.expect("checks").expect("translates").cubin.kernels;
    assert_eq!(kernels.len(), 40);
    same("late.ptx", &text);
}

#[test]
fn errors_come_out_the_same_streamed() {
    // A check error in a late body, a translation error, and a parse error.
    let base = kernels(40);
    same(
        "check_error.ptx",
        &(base.clone()
            + ".visible .entry bad() { .reg .b32 %r1; add.s32 %r1, %r1, %nope; ret; }\n"),
    );
    same(
        "translate_error.ptx",
        &(base.clone()
            + ".visible .entry deep() { .reg .b32 %r1; tanh.approx.f32 %r1, %r1; ret; }\n"),
    );
    same(
        "parse_error.ptx",
        &(base + ".visible .entry p() { add.s32 ; }\n"),
    );
}
