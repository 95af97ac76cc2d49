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

/// Longest source excerpt shown under a header: a minified or generated file can put megabytes
/// on one line, and echoing all of it would bury the message.
const MAX_SHOWN_CHARS: usize = 160;
/// How much of the line before the span a cut excerpt keeps, for context.
const CONTEXT_BEFORE: usize = 60;

fn snippet(out: &mut String, file: &SourceFile, span: crate::Span, label: &str) {
    let (line, col) = file.line_col(span.start);
    let text = file.line_text(line);
    // Tabs become one space each so the caret lines up whatever the terminal's tab width.
    let chars: Vec<char> = text
        .chars()
        .map(|c| if c == '\t' { ' ' } else { c })
        .collect();
    let (end_line, end_col) = file.line_col(span.end);
    let carets = if end_line == line && end_col > col {
        end_col - col
    } else if end_line == line {
        1
    } else {
        // Multi-line span: underline to the end of the first line.
        (chars.len() + 1).saturating_sub(col).max(1)
    };
    // Window of at most MAX_SHOWN_CHARS around the span start; `…` marks each cut side.
    let at = col - 1;
    let from = if chars.len() > MAX_SHOWN_CHARS {
        at.saturating_sub(CONTEXT_BEFORE)
    } else {
        0
    };
    let to = chars.len().min(from + MAX_SHOWN_CHARS);
    let mut shown: String = if from > 0 {
        "…".into()
    } else {
        String::new()
    };
    shown.extend(chars.get(from..to).unwrap_or_default());
    if to < chars.len() {
        shown.push('…');
    }
    let lead = at - from + usize::from(from > 0);
    let carets = carets.min((to + 1).saturating_sub(at).max(1));
    let width = line.to_string().len();
    let _ = writeln!(out, "{:>width$} | {}", line, shown);
    let _ = writeln!(
        out,
        "{:>width$} | {}{}{}{}",
        "",
        " ".repeat(lead),
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
    fn long_lines_are_cut_to_a_window_around_the_span() {
        let mut text = "x".repeat(5000);
        text.push_str("BAD");
        text.push_str(&"y".repeat(5000));
        let f = SourceFile::new("k.ptx", text);
        let d = Diagnostic::error(Span::new(5000, 5003), "bad");
        let out = render_one(&f, &d);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "k.ptx:1:5001: error: bad");
        let src = lines[1].strip_prefix("1 | ").unwrap();
        assert_eq!(
            src.chars().count(),
            MAX_SHOWN_CHARS + 2,
            "window plus two ellipses"
        );
        assert!(src.starts_with('…') && src.ends_with('…'));
        let caret_line = lines[2].strip_prefix("  | ").unwrap();
        // The caret sits under BAD: same char offset in the excerpt.
        let caret_at = caret_line.find('^').unwrap();
        let excerpt: Vec<char> = src.chars().collect();
        let under: String = excerpt[caret_at..caret_at + 3].iter().collect();
        assert_eq!(under, "BAD");
        assert_eq!(caret_line.trim_start(), "^^^");
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
