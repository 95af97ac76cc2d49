//! Diagnostics, error recovery and robustness: no input may panic, hang, overflow the stack
//! or grow memory without bound.

mod common;
use common::*;
use diag::SourceFile;
use proptest::prelude::*;

const HEAD: &str = ".version 8.4\n.target sm_80\n";

#[test]
fn every_error_of_a_file_is_reported_with_its_position() {
    let src = format!(
        "{HEAD}.bogus 1 2 3;\n\
         .visible .entry k()\n\
         {{\n\
         \t.reg .b32 %r<4>;\n\
         \tadd.s32 %r1, %r2, ;\n\
         \tmov.u32 %r1, 0x;\n\
         \t{{ garbage ( ] ; }}\n\
         \tld.global.f32 %f1, [%rd1+;\n\
         \tret;\n\
         }}\n\
         .reg .foo x;\n\
         # include \"x\"\n\
         \"unterminated\n\
         /* never closed\n"
    );
    let got = errors(&src);
    let want: Vec<(usize, usize, &str)> = vec![
        (3, 1, "unknown directive `.bogus`"),
        (7, 20, "expected an expression, found `;`"),
        (
            8,
            15,
            "invalid hexadecimal integer literal `0x`: missing digits",
        ),
        (9, 14, "expected an expression, found `]`"),
        (10, 27, "expected an expression, found `;`"),
        (13, 6, "unknown type or qualifier `.foo` in a declaration"),
        (14, 1, "preprocessor directives are not supported"),
        (15, 1, "unterminated string literal"),
        (16, 1, "unterminated block comment"),
    ];
    let got: Vec<(usize, usize, &str)> = got.iter().map(|(l, c, m)| (*l, *c, m.as_str())).collect();
    assert_eq!(got, want);
}

#[test]
fn recovery_keeps_the_statements_around_an_error() {
    let src =
        format!("{HEAD}.entry k()\n{{\n\tmov.u32 %r1, ];\n\tret;\n}}\n.entry j() {{ exit; }}\n");
    let file = SourceFile::new("t.ptx", src);
    let (m, d) = syntax::parse_module(&file);
    assert_eq!(d.len(), 1);
    // Both functions survive; the bad instruction is dropped, `ret` kept.
    let funcs: Vec<&syntax::ast::Function> = m
        .statements
        .iter()
        .filter_map(|s| match s {
            syntax::ast::Statement::Function(f) => Some(&**f),
            _ => None,
        })
        .collect();
    assert_eq!(funcs.len(), 2);
    assert_eq!(funcs[0].body.as_ref().unwrap().statements.len(), 1);
}

#[test]
fn recovery_skips_a_broken_block_as_a_whole() {
    let src = format!("{HEAD}.bad {{ a; {{ b; }} c; }}\n.global .u32 g;\n");
    let file = SourceFile::new("t.ptx", src);
    let (m, d) = syntax::parse_module(&file);
    assert_eq!(d.len(), 1, "{}", diag::render(&file, &d));
    assert!(matches!(
        m.statements.last(),
        Some(syntax::ast::Statement::Variable(_))
    ));
}

#[test]
fn unclosed_and_unmatched_braces() {
    let e = errors(&format!("{HEAD}.entry k()\n{{\n\tret;\n"));
    assert_eq!(
        e,
        vec![(6, 1, "expected `}`, found end of file".to_string())]
    );
    let file = SourceFile::new("t.ptx", format!("{HEAD}.entry k()\n{{\n"));
    let (_, d) = syntax::parse_module(&file);
    assert_eq!(file.line_col(d[0].labels[0].span.start), (4, 1));
    let e = errors(&format!("{HEAD}}}\n.global .u32 g;\n"));
    assert_eq!(e, vec![(3, 1, "unmatched `}`".to_string())]);
}

#[test]
fn misplaced_directives_are_errors() {
    let src = format!("{HEAD}.entry k() {{ .entry j() {{ ret; }} exit; }}\n");
    let e = errors(&src);
    assert_eq!(e.len(), 1);
    assert!(e[0].2.contains("only be declared at module level"), "{e:?}");
    // The statement after the misplaced one survives.
    let (m, _) = syntax::parse_module(&SourceFile::new("t", src));
    let Some(syntax::ast::Statement::Function(k)) = m.statements.last() else {
        panic!()
    };
    assert_eq!(k.body.as_ref().unwrap().statements.len(), 1);
    let src = format!("{HEAD}.maxntid 1, 1, 1\n.global .u32 g;\n");
    let e = errors(&src);
    assert_eq!(e.len(), 1);
    assert!(
        e[0].2.contains("between a function's header and its body"),
        "{e:?}"
    );
    let (m, _) = syntax::parse_module(&SourceFile::new("t", src));
    assert!(matches!(
        m.statements.last(),
        Some(syntax::ast::Statement::Variable(_))
    ));
    let e = errors(&format!("{HEAD}.entry k() {{ .callprototype _ (); }}\n"));
    assert!(e[0].2.contains("needs a label"), "{e:?}");
}

#[test]
fn empty_and_crlf_files() {
    assert!(errors("").is_empty());
    assert!(errors("// only a comment").is_empty());
    let src = ".version 8.4\r\n.target sm_80\r\n.entry k()\r\n{\r\n\tret;\r\n}\r\n";
    assert!(errors(src).is_empty());
}

fn assert_deep_input_is_an_error(src: &str) {
    let file = SourceFile::new("deep.ptx", src);
    let (_, d) = syntax::parse_module(&file);
    assert!(
        d.iter().any(|d| d.message.contains("nesting is deeper")),
        "{:?}",
        d.first()
    );
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let n = 100_000;
    let parens = format!(
        "{HEAD}.entry k() {{ mov.u32 %r1, {}1{}; }}",
        "(".repeat(n),
        ")".repeat(n)
    );
    assert_deep_input_is_an_error(&parens);
    let braces = format!("{HEAD}.entry k() {}", "{".repeat(n));
    assert_deep_input_is_an_error(&braces);
    let minus = format!("{HEAD}.entry k() {{ mov.u32 %r1, {}1; }}", "-".repeat(n));
    assert_deep_input_is_an_error(&minus);
    let chain = format!("{HEAD}.entry k() {{ mov.u32 %r1, 1{}; }}", "+1".repeat(n));
    assert_deep_input_is_an_error(&chain);
    let cond = format!("{HEAD}.entry k() {{ mov.u32 %r1, {}1; }}", "1?1:".repeat(n));
    assert_deep_input_is_an_error(&cond);
    let init = format!("{HEAD}.global .u32 a[] = {}1;", "{".repeat(n));
    assert_deep_input_is_an_error(&init);
    let vec = format!("{HEAD}.entry k() {{ mov.u32 {}a; }}", "{".repeat(n));
    assert_deep_input_is_an_error(&vec);
    let structs = format!("{HEAD}{}", ".struct {".repeat(n));
    assert_deep_input_is_an_error(&structs);
}

#[test]
fn moderately_deep_nesting_parses_and_prints() {
    let src = format!(
        "{HEAD}.entry k() {{ mov.u32 %r1, {}1{}; }}",
        "(".repeat(60),
        ")".repeat(60)
    );
    let (m, f) = parse_ok(&src);
    assert!(syntax::print_module(&m, &f).contains("mov.u32 %r1, 1;"));
}

#[test]
fn error_count_is_bounded() {
    let src = "@@@ ;\n".repeat(100_000);
    let file = SourceFile::new("junk.ptx", src);
    let (_, d) = syntax::parse_module(&file);
    assert!(d.len() <= 201, "{}", d.len());
    assert!(d.last().unwrap().message.contains("too many errors"));
}

#[test]
fn huge_tokens_are_shortened_in_messages() {
    let ident = "x".repeat(100_000);
    let e = errors(&format!("{HEAD}.entry k() {{ add.s32 %r1 {ident}; }}"));
    assert_eq!(e.len(), 1);
    assert!(e[0].2.len() < 200);
}

// --- property tests: nothing panics ------------------------------------------------------

/// Fragments of PTX text, glued together at random: valid-looking token soup reaches far
/// deeper into the parser than random bytes.
const VOCAB: &[&str] = &[
    ".version 8.4",
    ".target sm_80",
    ".address_size 64",
    ".entry",
    ".func",
    ".visible",
    ".extern",
    ".weak",
    ".reg",
    ".param",
    ".global",
    ".shared",
    ".const[1]",
    ".tex",
    ".b32",
    ".u64",
    ".f32",
    ".v4",
    ".align 8",
    ".ptr",
    ".struct",
    ".union",
    ".pragma \"x\";",
    ".maxntid 1,1,1",
    ".loc 1 2 3",
    ".file 1 \"a\"",
    ".section .debug_info",
    ".b8 1",
    ".callprototype",
    ".noreturn",
    "k",
    "%r1",
    "%r<4>",
    "$L0",
    "_",
    "p|q",
    "%tid.x",
    "ld.global.v4.f32",
    "add.s32",
    "bra",
    "call",
    "ret",
    "@%p1",
    "@!p",
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    ",",
    ";",
    ":",
    "+",
    "-",
    "*",
    "<<",
    "?",
    "!",
    "~",
    "=",
    "1",
    "0x10",
    "0f3F800000",
    "0d3FF0000000000000",
    "1.5",
    "42U",
    "generic(x)",
    "\"s\"",
    "/* c */",
    "// c\n",
    "#",
    "\n",
];

fn roundtrip_if_clean(src: &str) -> Result<(), TestCaseError> {
    let file = SourceFile::new("p.ptx", src);
    let (m, d) = syntax::parse_module(&file);
    if d.is_empty() {
        let out = syntax::print_module(&m, &file);
        let f2 = SourceFile::new("p2.ptx", out.clone());
        let (m2, d2) = syntax::parse_module(&f2);
        prop_assert!(
            d2.is_empty(),
            "fmt output does not parse: {src:?} -> {out:?}"
        );
        prop_assert!(
            syntax::same_module(&m, &file.text, &m2, &f2.text),
            "{src:?} -> {out:?}"
        );
        prop_assert_eq!(syntax::print_module(&m2, &f2), out);
    } else {
        let _ = diag::render(&file, &d);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let src = String::from_utf8_lossy(&bytes).into_owned();
        roundtrip_if_clean(&src)?;
    }

    #[test]
    fn random_token_soup_never_panics_and_round_trips_when_clean(
        picks in prop::collection::vec(0..VOCAB.len(), 0..60),
    ) {
        let src: Vec<&str> = picks.iter().map(|&i| VOCAB[i]).collect();
        roundtrip_if_clean(&src.join(" "))?;
    }
}

/// Inputs shaped to trigger repeated look-ahead or re-scanning. Each is ~0.5 MB: a quadratic
/// path would take minutes, a linear one milliseconds.
#[test]
fn adversarial_inputs_parse_in_linear_time() {
    let n = 50_000;
    let inputs = [
        "call (".repeat(n),
        "call (a;".repeat(n),
        "call (a) (a) ".repeat(n),
        format!("x {};", "(".repeat(n)),
        "a /* comment */ ".repeat(n),
        "$L: ".repeat(n),
        ".loc 1 2 3, ".repeat(n),
        "{ [ ( ".repeat(n),
        ".entry k( .param .b32 a, ".repeat(n),
        "mov.u32 %r1, 1 ? 2 : ".repeat(n),
        "\"unterminated\n".repeat(n),
        "/*".repeat(n),
    ];
    for src in inputs {
        let file = SourceFile::new("adv.ptx", src);
        let (_, d) = syntax::parse_module(&file);
        assert!(d.len() <= 201);
    }
}

#[test]
fn a_missing_semicolon_is_reported_where_it_belongs() {
    let src = format!("{HEAD}.entry k()\n{{\n\tmov.u32 %r1, 1\n\tret;\n}}\n");
    let e = errors(&src);
    // Line 5 is `\tmov.u32 %r1, 1`: the caret goes right after the `1` (column 16).
    assert_eq!(
        e,
        vec![(5, 16, "expected `,` or `;` after an operand".to_string())]
    );
    // Parsing carries on as if the `;` were there: `ret` is not swallowed by recovery.
    let file = SourceFile::new("t.ptx", src);
    let (m, _) = syntax::parse_module(&file);
    let Some(syntax::ast::Statement::Function(k)) = m.statements.last() else {
        panic!()
    };
    assert_eq!(k.body.as_ref().unwrap().statements.len(), 2);
    let e = errors(&format!("{HEAD}.global .u32 g\n.global .u32 h;\n"));
    assert_eq!(
        e,
        vec![(3, 15, "expected `,` or `;` after a declaration".to_string())]
    );
}

#[test]
fn a_declaration_without_state_space_says_so() {
    let e = errors(&format!("{HEAD}.entry k() {{ .u32 x; ret; }}\n"));
    assert_eq!(e, vec![(3, 14, "`.u32` without a state space".to_string())]);
}
