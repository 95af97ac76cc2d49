//! `cargo run -p ptxvm-syntax --example ptxfmt FILE` — parse and print diagnostics or the fmt output.
fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: ptxfmt FILE");
        std::process::exit(2);
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    let file = diag::SourceFile::new(path, text);
    let (module, diags) = syntax::parse_module(&file);
    if !diags.is_empty() {
        eprint!("{}", diag::render(&file, &diags));
        std::process::exit(1);
    }
    print!("{}", syntax::print_module(&module, &file));
}
