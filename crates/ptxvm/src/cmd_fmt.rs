use crate::exit::Exit;
use crate::input::read_source;
use std::io::Write;
use std::path::Path;

/// `ptxvm fmt FILE`: canonical form on stdout; a file that does not parse is not printed.
pub fn run(path: &Path) -> Exit {
    let file = match read_source(path) {
        Ok(f) => f,
        Err(code) => return code,
    };
    let (module, diags) = syntax::parse_module(&file);
    eprint!("{}", diag::render(&file, &diags));
    if diag::has_errors(&diags) {
        return Exit::Invalid;
    }
    let text = syntax::print_module(&module, &file);
    let mut out = std::io::stdout().lock();
    if out.write_all(text.as_bytes()).is_err() {
        return Exit::Usage;
    }
    Exit::Ok
}
