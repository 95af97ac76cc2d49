//! `ptxvm compile FILE.ptx --arch sm_20 -o out.cubin [-v] [--sass]`: PTX to an sm_20 cubin.
//!
//! The arguments are parsed here rather than by clap so that ptxas's single-dash spellings
//! (`-arch=sm_20`, `-arch sm_20`) work alongside `--arch sm_20` / `--arch=sm_20`.

use crate::exit::Exit;
use crate::input::read_source;
use std::path::PathBuf;

const USAGE: &str =
    "usage: ptxvm compile FILE.ptx [--arch sm_20 | -arch=sm_20] [-o OUT.cubin] [-v] [--sass]";

#[derive(Debug, Default, PartialEq, Eq)]
pub struct CompileArgs {
    pub input: Option<PathBuf>,
    pub output: Option<PathBuf>,
    pub verbose: bool,
    pub sass: bool,
}

/// Parses the compile command line (everything after `compile`).
pub fn parse_args(args: &[String]) -> Result<CompileArgs, String> {
    let mut out = CompileArgs::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let arch = if let Some(v) = a
            .strip_prefix("--arch=")
            .or_else(|| a.strip_prefix("-arch="))
        {
            Some(v.to_string())
        } else if a == "--arch" || a == "-arch" {
            Some(it.next().ok_or("`-arch` needs a value")?.clone())
        } else {
            None
        };
        if let Some(arch) = arch {
            if arch != "sm_20" {
                return Err(format!(
                    "unsupported architecture `{arch}`: only sm_20 is generated"
                ));
            }
            continue;
        }
        match a.as_str() {
            "-o" | "--output" => {
                out.output = Some(PathBuf::from(it.next().ok_or("`-o` needs a file name")?));
            }
            "-v" | "--verbose" => out.verbose = true,
            "--sass" => out.sass = true,
            s if s.starts_with('-') && s.len() > 1 => return Err(format!("unknown option `{s}`")),
            s => {
                if out.input.replace(PathBuf::from(s)).is_some() {
                    return Err("more than one input file".into());
                }
            }
        }
    }
    if out.input.is_none() {
        return Err("no input file".into());
    }
    Ok(out)
}

pub fn run(raw: &[String]) -> Exit {
    let args = match parse_args(raw) {
        Ok(a) => a,
        Err(e) => {
            crate::error(format!("{e}\n{USAGE}"));
            return Exit::Usage;
        }
    };
    let Some(input) = args.input.as_ref() else {
        return Exit::Usage;
    };
    let file = match read_source(input) {
        Ok(f) => f,
        Err(code) => return code,
    };
    // The check and the translation overlap (see `codegen::check_and_compile`).
    let (diags, compiled) = codegen::check_and_compile(&file);
    let Some(compiled) = compiled else {
        eprint!("{}", diag::render(&file, &diags));
        return Exit::Invalid;
    };
    let compiled = match compiled {
        Ok(c) => c,
        Err(errors) => {
            eprint!("{}", diag::render(&file, &errors));
            return Exit::Invalid;
        }
    };
    eprint!("{}", diag::render(&file, &compiled.warnings));
    if args.verbose {
        for (k, s) in compiled.cubin.kernels.iter().zip(&compiled.spills) {
            print!("{}", codegen::report::print_report(k, *s));
        }
    }
    if args.sass {
        print!("{}", fermi::listing::print_module_listing(&compiled.cubin));
    }
    let bytes = match fermi::cubin::write_cubin(&compiled.cubin) {
        Ok(b) => b,
        Err(e) => {
            // The error says it is about writing the cubin.
            crate::error(e.to_string());
            return Exit::Invalid;
        }
    };
    let out = args
        .output
        .clone()
        .unwrap_or_else(|| input.with_extension("cubin"));
    if let Err(e) = std::fs::write(&out, bytes) {
        crate::error(format!("cannot write {}: {e}", out.display()));
        return Exit::Usage;
    }
    Exit::Ok
}
