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

/// Every `.ptx` file under `dir`, recursively, sorted.
fn ptx_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            ptx_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "ptx") {
            out.push(p);
        }
    }
}

#[test]
fn repository_files_translate_the_same_streamed() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut paths = Vec::new();
    for dir in ["tests", "examples"] {
        ptx_files(&root.join(dir), &mut paths);
    }
    let mut translated = 0;
    for p in &paths {
        let text = std::fs::read_to_string(p).expect("read a repository file");
        let name = p.display().to_string();
        same(&name, &text);
        let file = SourceFile::new(name.as_str(), text.as_str());
        let outcome = plain(&file).1;
        // A refusal names the instruction and why; "internal error" is a translator bug
        // (two scaled operands of one add once gave one on nvrtc_gemm_sm80.ptx).
        if let Some(Err(shown)) = &outcome {
            assert!(!shown.contains("internal error"), "{name}:\n{shown}");
        }
        translated += usize::from(matches!(outcome, Some(Ok(_))));
    }
    assert!(
        paths.len() > 300,
        "only {} repository files found",
        paths.len()
    );
    // Guards against comparing only refusals.
    assert!(
        translated > 100,
        "only {translated} repository files translate"
    );
    // The device-call corpus takes a function's address (an initializer and an indirect
    // call): one file of the comparison above, named so that it is never silently lost.
    assert!(paths
        .iter()
        .any(|p| p.ends_with("tests/corpus/device_calls.ptx")));
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

/// An entry calling through a pointer with no target list (its candidates: every
/// address-taken `.func` of its signature), followed by `n` entries calling `f{i}` directly,
/// then `tail`. The early translations happen while the check runs: the entry under test
/// comes first and the many bodies after it keep the check busy meanwhile.
fn indirect_then(n: usize, tail: &str) -> String {
    let text = String::from(
        ".version 7.0\n.target sm_20\n.address_size 64\n\
         .func (.param .b32 r) twice(.param .b32 x)\n{\n.reg .b32 %r<3>;\n\
         ld.param.b32 %r1, [x];\nadd.s32 %r2, %r1, %r1;\nst.param.b32 [r], %r2;\nret;\n}\n\
         .func (.param .b32 r) thrice(.param .b32 x)\n{\n.reg .b32 %r<3>;\n\
         ld.param.b32 %r1, [x];\nmul.lo.s32 %r2, %r1, 3;\nst.param.b32 [r], %r2;\nret;\n}\n\
         .visible .entry through(.param .u64 out, .param .u64 fp)\n{\n\
         .reg .b32 %r<3>;\n.reg .b64 %rd<3>;\n\
         ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [fp];\nmov.u32 %r1, 7;\n\
         {\n.param .b32 a;\n.param .b32 b;\n\
         proto: .callprototype (.param .b32 _) _ (.param .b32 _);\n\
         st.param.b32 [a], %r1;\ncall (b), %rd2, (a), proto;\nld.param.b32 %r2, [b];\n}\n\
         st.global.u32 [%rd1], %r2;\nret;\n}\n",
    );
    text + &fillers(n) + tail
}

/// `n` entries, each calling its own `.func` directly.
fn fillers(n: usize) -> String {
    let mut text = String::new();
    for i in 0..n {
        text += &format!(
            ".func (.param .b32 r) f{i}(.param .b32 x)\n{{\n.reg .b32 %r<3>;\n\
             ld.param.b32 %r1, [x];\nadd.s32 %r2, %r1, {i};\nst.param.b32 [r], %r2;\nret;\n}}\n\
             .visible .entry k{i}(.param .u64 out)\n{{\n\
             .reg .b32 %r<3>;\n.reg .b64 %rd<2>;\n\
             ld.param.u64 %rd1, [out];\nmov.u32 %r1, {i};\n\
             {{\n.param .b32 a;\n.param .b32 b;\nst.param.b32 [a], %r1;\n\
             call (b), f{i}, (a);\nld.param.b32 %r2, [b];\n}}\n\
             st.global.u32 [%rd1], %r2;\nret;\n}}\n"
        );
    }
    text
}

/// An entry taking the addresses of `twice` and `thrice` (they become the candidates of
/// `through`'s indirect call).
const TAKES_BOTH: &str = ".visible .entry takes(.param .u64 out)\n{\n.reg .b64 %rd<4>;\n\
     ld.param.u64 %rd1, [out];\nmov.u64 %rd2, twice;\nmov.u64 %rd3, thrice;\n\
     st.global.u64 [%rd1], %rd2;\nst.global.u64 [%rd1+8], %rd3;\nret;\n}\n";

#[test]
fn an_address_taken_after_the_indirect_call_translates_the_same_streamed() {
    // The bodies taking the addresses come after the entry with the indirect call, and after
    // many entries translated early meanwhile (which must be kept, and are: the cubin is
    // the plain pipeline's).
    let text = indirect_then(400, TAKES_BOTH);
    same("taken_after.ptx", &text);
    // The indirect call dispatches over both candidates: the plain pipeline's code for
    // `through` differs from that of a module taking only one address, so a streamed
    // translation of `through` made before `takes` arrived could not have matched it.
    let one = indirect_then(
        400,
        &TAKES_BOTH
            .replace("mov.u64 %rd3, thrice;\n", "")
            .replace("st.global.u64 [%rd1+8], %rd3;\n", ""),
    );
    same("taken_after_one.ptx", &one);
    let code = |t: &str| {
        let file = SourceFile::new("t.ptx", t);
        let (diags, c) = codegen::check_and_compile(&file);
        assert!(!diag::has_errors(&diags), "{}", diag::render(&file, &diags));
        let c = c.expect("checks").expect("translates");
        let k = c.cubin.kernels.iter().find(|k| k.name == "through");
        k.expect("the kernel `through`").code.clone()
    };
    assert_ne!(code(&text), code(&one));
}

#[test]
fn an_address_taken_in_an_initializer_of_a_late_body_translates_the_same_streamed() {
    // A function-scope `.global` initialized with a function's address, late in the file.
    let tail = ".visible .entry holds(.param .u64 out)\n{\n.reg .b64 %rd<3>;\n\
                .global .align 8 .u64 table[1] = {thrice};\n\
                ld.param.u64 %rd1, [out];\nld.global.u64 %rd2, [table];\n\
                st.global.u64 [%rd1], %rd2;\nret;\n}\n";
    same("taken_init.ptx", &indirect_then(400, tail));
}

#[test]
fn a_target_list_naming_a_later_function_translates_the_same_streamed() {
    // `.calltargets` names a function whose body comes after the entry: the entry waits for
    // it (a candidate without its body would be dropped from the dispatch).
    let mut text = String::from(
        ".version 7.0\n.target sm_20\n.address_size 64\n\
         .func (.param .b32 r) late(.param .b32 x);\n\
         .visible .entry k(.param .u64 out, .param .u64 fp)\n{\n\
         .reg .b32 %r<3>;\n.reg .b64 %rd<3>;\n\
         ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [fp];\nmov.u32 %r1, 5;\n\
         targets: .calltargets late;\n\
         {\n.param .b32 a;\n.param .b32 b;\n\
         st.param.b32 [a], %r1;\ncall (b), %rd2, (a), targets;\nld.param.b32 %r2, [b];\n}\n\
         st.global.u32 [%rd1], %r2;\nret;\n}\n",
    );
    text += ".func (.param .b32 r) late(.param .b32 x)\n{\n.reg .b32 %r<3>;\n\
             ld.param.b32 %r1, [x];\nmul.lo.s32 %r2, %r1, 3;\nst.param.b32 [r], %r2;\nret;\n}\n";
    // Bodies after, to keep the check busy while `k` waits for `late`.
    text += &fillers(400);
    let file = SourceFile::new("flist.ptx", text.as_str());
    let (diags, compiled) = codegen::check_and_compile(&file);
    assert!(diags.is_empty(), "{}", diag::render(&file, &diags));
    assert!(matches!(compiled, Some(Ok(_))), "translates");
    same("flist.ptx", &text);
}
