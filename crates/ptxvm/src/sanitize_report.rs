//! `ptxvm run --sanitize`: print the sanitizer's findings on stderr, compute-sanitizer style,
//! with an `ERROR SUMMARY` line, and give them to the JSON output.

use exec::sanitize::Sanitizer;
use serde_json::{json, Value};
use std::io::Write;

/// What was printed, for the JSON output and the exit code.
pub struct Report {
    pub errors: u64,
    pub json: Value,
}

/// Print every finding and the summary line on stderr.
pub fn print(san: &Sanitizer, file: &diag::SourceFile) -> Report {
    let source = |line: u32| {
        let t = file.line_text(line as usize);
        (!t.is_empty()).then(|| t.to_string())
    };
    let findings = san.findings();
    let errors = san.error_count();
    let mut text = String::new();
    for f in &findings {
        text.push_str(&f.render(&source));
    }
    let dropped = san.dropped();
    if dropped > 0 {
        text.push_str(&format!(
            "========= ({dropped} further errors were counted but not kept)\n"
        ));
    }
    let unchecked = san.unchecked_bytes();
    if unchecked > 0 {
        text.push_str(&format!(
            "========= ({unchecked} global byte accesses were not race-checked: the shadow \
             memory budget was reached)\n"
        ));
    }
    text.push_str(&format!(
        "========= ERROR SUMMARY: {errors} error{}\n",
        if errors == 1 { "" } else { "s" }
    ));
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
    let list: Vec<Value> = findings.iter().map(|f| f.to_json(&source)).collect();
    Report {
        errors,
        json: json!({"errors": errors, "findings": list}),
    }
}

/// The success JSON object with a `"sanitizer"` field added before its closing brace.
pub fn write_json_with(
    result: &exec::RunResult,
    sanitizer: &Value,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let mut buf = Vec::new();
    result.write_json(&mut buf)?;
    if buf.last() == Some(&b'}') {
        buf.pop();
        write!(buf, ", \"sanitizer\": {sanitizer}}}")?;
    }
    out.write_all(&buf)
}
