//! Check and load PTX files, printing load errors (which instructions the executor lacks).
fn main() {
    for path in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let src = diag::SourceFile::new(path.clone(), text);
        let (m, diags) = check::check_source(&src);
        let Some(m) = m.filter(|_| !diag::has_errors(&diags)) else {
            println!("{path}: does not check");
            continue;
        };
        let mut dev = exec::Device::new();
        match dev.load(&m, &src) {
            Ok(_) => println!("{path}: ok"),
            Err(e) => println!("{e}"),
        }
    }
}
