//! Shared by the file-level assembler error tests.

use diag::SourceFile;
use fermi::asm::{assemble_file, AsmOptions};

/// An instruction line, the token its error must point at, and words the message must contain.
pub type Case<'a> = (&'a str, &'a str, &'a [&'a str]);

/// Assembles one kernel holding every case's line (from line 2) and checks that there is one
/// error per line, in order, at the line and column of its token, saying its words.
pub fn assert_errors_at_tokens(cases: &[Case]) {
    let mut text = String::from("!Kernel k\n");
    for (line, _, _) in cases {
        text.push_str(line);
        text.push('\n');
    }
    text.push_str("!EndKernel\n");
    let file = SourceFile::new("e.sass", text.as_str());
    let diags = assemble_file(&file, &AsmOptions::default()).unwrap_err();
    assert_eq!(diags.len(), cases.len(), "{}", diag::render(&file, &diags));
    for (i, ((line, token, words), d)) in cases.iter().zip(&diags).enumerate() {
        let (l, c) = file.line_col(d.span.start);
        assert_eq!(l, i + 2, "{}", d.message);
        let token_col = line.find(token).unwrap() + 1;
        assert!(
            (token_col..token_col + token.len()).contains(&c),
            "line {l}: error at column {c}, token `{token}` at {token_col}: {}",
            d.message
        );
        for w in *words {
            assert!(d.message.contains(w), "`{}` lacks `{w}`", d.message);
        }
    }
}
