use crate::exit::Exit;
use crate::input::read_source;
use std::io::Write;
use std::path::PathBuf;

/// `ptxvm check FILE…`: every file is checked even after one fails; the exit code is the worst.
pub fn run(files: &[PathBuf], json: bool) -> Exit {
    let mut worst = Exit::Ok;
    let mut all_json = Vec::new();
    for path in files {
        let file = match read_source(path) {
            Ok(f) => f,
            Err(code) => {
                worst = worst.max(code);
                continue;
            }
        };
        let diags = check::diagnose_source(&file);
        if diag::has_errors(&diags) {
            worst = worst.max(Exit::Invalid);
        }
        if json {
            if let serde_json::Value::Array(items) = diag::to_json(&file, &diags) {
                all_json.extend(items);
            }
        } else {
            eprint!("{}", diag::render(&file, &diags));
        }
    }
    if json {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{}", serde_json::Value::Array(all_json));
    }
    worst
}
