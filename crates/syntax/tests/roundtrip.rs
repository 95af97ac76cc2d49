//! `fmt` invariants on every `.ptx` file in the repository: `fmt(fmt(x)) == fmt(x)` and
//! `parse(fmt(x))` equals `parse(x)` up to spans.

use diag::SourceFile;
use std::path::{Path, PathBuf};

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        let name = e.file_name();
        let name = name.to_string_lossy();
        if p.is_dir() {
            if name == "target" || name == "fuzz" || name.starts_with('.') {
                continue;
            }
            collect(&p, out);
        } else if name.ends_with(".ptx") {
            out.push(p);
        }
    }
}

fn repo_ptx_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    collect(&root, &mut files);
    files.sort();
    files
}

#[test]
fn fmt_is_idempotent_and_preserves_the_tree_on_every_repo_file() {
    let files = repo_ptx_files();
    assert!(
        files.len() >= 5,
        "expected the corpus and test data, found {files:?}"
    );
    let mut checked = 0;
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let file = SourceFile::new(path.display().to_string(), text);
        let (module, diags) = syntax::parse_module(&file);
        if !diags.is_empty() {
            // Deliberately invalid inputs (diagnostic tests) have nothing to round-trip.
            continue;
        }
        let once = syntax::print_module(&module, &file);
        let file1 = SourceFile::new("fmt1", once.clone());
        let (m1, d1) = syntax::parse_module(&file1);
        assert!(
            d1.is_empty(),
            "{}: fmt output does not parse:\n{}\n{once}",
            path.display(),
            diag::render(&file1, &d1)
        );
        assert!(
            syntax::same_module(&module, &file.text, &m1, &file1.text),
            "{}: parse(fmt(x)) differs from parse(x)\n{once}",
            path.display()
        );
        let twice = syntax::print_module(&m1, &file1);
        assert_eq!(once, twice, "{}: fmt is not idempotent", path.display());
        checked += 1;
    }
    assert!(checked >= 5, "only {checked} files parsed cleanly");
}

#[test]
fn same_module_ignores_layout_but_sees_every_change() {
    let base = ".version 8.4\n.target sm_80\n.entry k()\n{\n\t@%p1 add.s32 %r1, %r2, 0x10;\n\tld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1+8];\n}\n";
    let parse = |s: &str| {
        let f = SourceFile::new("x", s);
        let (m, d) = syntax::parse_module(&f);
        assert!(d.is_empty(), "{s}");
        (m, f)
    };
    let (m0, f0) = parse(base);
    let same = |other: &str| {
        let (m1, f1) = parse(other);
        syntax::same_module(&m0, &f0.text, &m1, &f1.text)
    };
    // Layout, comments and literal spelling of the same value do not matter.
    assert!(same(
        ".version 8.4 .target sm_80 .entry k() { @%p1 add .s32 %r1,%r2,16; // c\n ld.global.v4.f32 {%f1,%f2,%f3,%f4},[ %rd1 + 8 ]; }"
    ));
    // Every real change does.
    for changed in [
        base.replace("0x10", "0x11"),
        base.replace("@%p1", "@!%p1"),
        base.replace("add.s32", "add.u32"),
        base.replace("add.s32", "sub.s32"),
        base.replace("%r2,", "%r3,"),
        base.replace("%f4}", "%f4, %f5}"),
        base.replace("+8]", "-8]"),
        base.replace("sm_80", "sm_90"),
        base.replace(".entry", ".func"),
        base.replace("\tld.global", "L:\n\tld.global"),
    ] {
        assert!(!same(&changed), "not detected: {changed}");
    }
}

/// Every instruction span covers exactly `[@guard] opcode … ;` and its operands lie inside it,
/// on every repository file.
#[test]
fn instruction_and_operand_spans_cover_their_text() {
    use syntax::ast::{Instruction, Statement};
    fn walk<'a>(stmts: &'a [Statement], out: &mut Vec<&'a Instruction>) {
        for s in stmts {
            match s {
                Statement::Instruction(i) => out.push(i),
                Statement::Block(b) => walk(&b.statements, out),
                Statement::Function(f) => {
                    if let Some(b) = &f.body {
                        walk(&b.statements, out)
                    }
                }
                _ => {}
            }
        }
    }
    let mut total = 0;
    for path in repo_ptx_files() {
        let text = std::fs::read_to_string(&path).unwrap();
        let file = SourceFile::new(path.display().to_string(), text);
        let (m, d) = syntax::parse_module(&file);
        if !d.is_empty() {
            continue;
        }
        let mut insts = Vec::new();
        walk(&m.statements, &mut insts);
        for i in insts {
            let t = &file.text[i.span.range()];
            assert!(t.ends_with(';'), "{}: {t}", path.display());
            let head = i.guard.map_or(i.opcode.span, |g| g.span);
            assert_eq!(head.start, i.span.start, "{t}");
            for op in &i.operands {
                let s = op.span();
                assert!(s.start >= i.span.start && s.end <= i.span.end, "{t}");
                assert!(!s.is_empty(), "{t}");
            }
            total += 1;
        }
    }
    assert!(total > 1000, "{total}");
}

/// Statement spans start at the statement's first token and lie inside their parent.
#[test]
fn statement_spans_nest() {
    use syntax::ast::Statement;
    fn check(stmts: &[Statement], parent: diag::Span, src: &str) {
        for s in stmts {
            let sp = s.span();
            assert!(
                sp.start >= parent.start && sp.end <= parent.end,
                "{:?}",
                &src[sp.range()]
            );
            assert!(!sp.is_empty());
            let t = &src[sp.range()];
            assert!(!t.starts_with(char::is_whitespace), "{t:?}");
            match s {
                Statement::Block(b) => check(&b.statements, sp, src),
                Statement::Function(f) => {
                    if let Some(b) = &f.body {
                        check(&b.statements, b.span, src)
                    }
                }
                _ => {}
            }
        }
    }
    for path in repo_ptx_files() {
        let text = std::fs::read_to_string(&path).unwrap();
        let file = SourceFile::new(path.display().to_string(), text);
        let (m, d) = syntax::parse_module(&file);
        if d.is_empty() {
            check(&m.statements, m.span, &file.text);
        }
    }
}
