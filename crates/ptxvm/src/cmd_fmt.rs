use crate::exit::Exit;
use crate::input::read_source;
use std::io::Write;
use std::path::PathBuf;

/// `ptxvm fmt FILE…`: the canonical form of each file on stdout, in order (`-` is standard
/// input). With `check`, nothing is printed on stdout: each file whose text is not already
/// canonical is named on stderr and the exit code is 1. A file that does not parse is not
/// printed; the exit code is the worst of all files.
pub fn run(paths: &[PathBuf], check: bool) -> Exit {
    let mut worst = Exit::Ok;
    let mut out = std::io::stdout().lock();
    for path in paths {
        let file = match read_source(path) {
            Ok(f) => f,
            Err(code) => {
                worst = worst.max(code);
                continue;
            }
        };
        let (module, diags) = syntax::parse_module(&file);
        eprint!("{}", diag::render(&file, &diags));
        if diag::has_errors(&diags) {
            worst = worst.max(Exit::Invalid);
            continue;
        }
        let text = syntax::print_module(&module, &file);
        if check {
            if text != file.text {
                crate::error(format!("{}: not in canonical form", path.display()));
                worst = worst.max(Exit::Invalid);
            }
            continue;
        }
        if let Err(e) = out.write_all(text.as_bytes()) {
            if e.kind() != std::io::ErrorKind::BrokenPipe {
                crate::error(format!("cannot write to stdout: {e}"));
            }
            return worst.max(Exit::Usage);
        }
    }
    worst
}
