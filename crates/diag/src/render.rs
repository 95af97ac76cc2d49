use crate::{Diagnostic, SourceFile};
use std::fmt::Write;

/// Renders every diagnostic, in order, as plain text.
pub fn render(file: &SourceFile, diags: &[Diagnostic]) -> String {
    let mut out = String::new();
    for d in diags {
        out.push_str(&render_one(file, d));
    }
    out
}

/// `file:line:col: severity: message`, the source line with a caret under the span, then
/// labels (each with its own location line) and notes.
pub fn render_one(file: &SourceFile, d: &Diagnostic) -> String {
    let mut out = String::new();
    let (line, col) = file.line_col(d.span.start);
    let _ = writeln!(
        out,
        "{}:{}:{}: {}: {}",
        file.name,
        line,
        col,
        d.severity.as_str(),
        d.message
    );
    snippet(&mut out, file, d.span, "");
    for l in &d.labels {
        let (ll, lc) = file.line_col(l.span.start);
        let _ = writeln!(out, "{}:{}:{}: note: {}", file.name, ll, lc, l.message);
        snippet(&mut out, file, l.span, "");
    }
    for n in &d.notes {
        let _ = writeln!(out, "  = note: {n}");
    }
    out
}

fn snippet(out: &mut String, file: &SourceFile, span: crate::Span, label: &str) {
    let (line, col) = file.line_col(span.start);
    let text = file.line_text(line);
    // Tabs become one space each so the caret lines up whatever the terminal's tab width.
    let shown: String = text
        .chars()
        .map(|c| if c == '\t' { ' ' } else { c })
        .collect();
    let width = line.to_string().len();
    let _ = writeln!(out, "{:>width$} | {}", line, shown);
    let (end_line, end_col) = file.line_col(span.end);
    let carets = if end_line == line && end_col > col {
        end_col - col
    } else if end_line == line {
        1
    } else {
        // Multi-line span: underline to the end of the first line.
        (shown.chars().count() + 1).saturating_sub(col).max(1)
    };
    let _ = writeln!(
        out,
        "{:>width$} | {}{}{}{}",
        "",
        " ".repeat(col - 1),
        "^".repeat(carets),
        if label.is_empty() { "" } else { " " },
        label
    );
}

/// Diagnostics as JSON values: `{"file","line","column","end_line","end_column","severity",
/// "message","labels":[…],"notes":[…]}`.
pub fn to_json(file: &SourceFile, diags: &[Diagnostic]) -> serde_json::Value {
    let loc = |span: crate::Span| {
        let (l, c) = file.line_col(span.start);
        let (el, ec) = file.line_col(span.end);
        (l, c, el, ec)
    };
    let items: Vec<serde_json::Value> = diags
        .iter()
        .map(|d| {
            let (l, c, el, ec) = loc(d.span);
            let labels: Vec<serde_json::Value> = d
                .labels
                .iter()
                .map(|lab| {
                    let (l, c, el, ec) = loc(lab.span);
                    serde_json::json!({"line": l, "column": c, "end_line": el, "end_column": ec,
                        "message": lab.message})
                })
                .collect();
            serde_json::json!({
                "file": file.name, "line": l, "column": c, "end_line": el, "end_column": ec,
                "severity": d.severity.as_str(), "message": d.message,
                "labels": labels, "notes": d.notes,
            })
        })
        .collect();
    serde_json::Value::Array(items)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Diagnostic, Span};

    #[test]
    fn renders_gcc_style_header_and_caret() {
        let f = SourceFile::new("k.ptx", "a;\n  add.s32 %r1, %r2;\n");
        // Span of "%r2" on line 2: line starts at byte 3, "%r2" at column 16.
        let start = 3 + 15;
        let d = Diagnostic::error(Span::new(start, start + 3), "bad operand");
        let text = render_one(&f, &d);
        assert_eq!(
            text,
            "k.ptx:2:16: error: bad operand\n2 |   add.s32 %r1, %r2;\n  |                ^^^\n"
        );
    }

    #[test]
    fn line_col_clamps_and_counts_chars() {
        let f = SourceFile::new("x", "é=1\nb");
        assert_eq!(f.line_col(0), (1, 1));
        assert_eq!(f.line_col(2), (1, 2)); // after the two-byte 'é'
        assert_eq!(f.line_col(5), (2, 1));
        assert_eq!(f.line_col(999), (2, 2));
        assert_eq!(f.line_text(2), "b");
        assert_eq!(f.line_text(0), "");
        assert_eq!(f.line_text(7), "");
    }

    #[test]
    fn json_names_location() {
        let f = SourceFile::new("k.ptx", "xyz");
        let v = to_json(&f, &[Diagnostic::warning(Span::new(1, 2), "w")]);
        assert_eq!(v[0]["line"], 1);
        assert_eq!(v[0]["column"], 2);
        assert_eq!(v[0]["severity"], "warning");
    }
}
