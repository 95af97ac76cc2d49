//! `cargo run -p ptxvm-codegen --example census`: which repository PTX files (`tests/run/`,
//! `tests/kernels/`, `tests/corpus/`) translate, and the first error of each that does not —
//! the census docs/codegen.md keeps. Files that do not check are listed apart.

use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let (mut ok, mut failed, mut unchecked) = (Vec::new(), Vec::new(), Vec::new());
    for dir in ["tests/run", "tests/kernels", "tests/corpus"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        let mut paths: Vec<_> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "ptx"))
            .collect();
        paths.sort();
        for p in paths {
            let name = format!(
                "{dir}/{}",
                p.file_name().unwrap_or_default().to_string_lossy()
            );
            let Ok(text) = std::fs::read_to_string(&p) else {
                continue;
            };
            let file = diag::SourceFile::new(&name, &text);
            let (m, diags) = check::check_source(&file);
            let Some(m) = m.filter(|_| !diag::has_errors(&diags)) else {
                unchecked.push(name);
                continue;
            };
            match codegen::compile_module(&m, &file) {
                Ok(_) => ok.push(name),
                Err(e) => {
                    let first = diag::render(&file, &e[..1]);
                    failed.push(format!("{name}: {}", first.lines().next().unwrap_or("")));
                }
            }
        }
    }
    println!(
        "translate: {} of {}",
        ok.len(),
        ok.len() + failed.len() + unchecked.len()
    );
    for n in &ok {
        println!("  ok {n}");
    }
    for f in &failed {
        println!("  no {f}");
    }
    for n in &unchecked {
        println!("  does not check: {n}");
    }
}
