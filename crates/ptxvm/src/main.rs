//! `ptxvm`: the command-line face of the PTX virtual machine. Each subcommand lives in its own
//! module and returns an [`Exit`] code; this file only parses arguments and dispatches.

mod cmd_check;
mod cmd_compile;
mod cmd_fmt;
mod cmd_run;
mod cmd_sass;
mod elf_check;
mod exit;
mod input;
mod run_cubin;
mod run_failure;
mod sanitize_report;

use clap::{Parser, Subcommand};

use std::path::PathBuf;

/// mimalloc rather than the system allocator: checking a large file builds and frees
/// millions of small syntax-tree and IR blocks, and glibc's coalescing of freed blocks and
/// returning of memory to the kernel took about a sixth of `ptxvm check`'s time.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "ptxvm",
    version,
    about = "The PTX virtual machine: check, format and run PTX on the CPU; assemble and disassemble Fermi SASS"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Parse and check PTX files against the spec (exit 0 valid, 1 invalid, 2 usage or I/O).
    Check {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Print the diagnostics as a JSON array on stdout instead of text on stderr.
        #[arg(long)]
        json: bool,
    },
    /// Print PTX files in canonical form (comments kept), one after another on stdout; `-` is
    /// standard input.
    Fmt {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Print nothing; exit 1 and name each file that is not in canonical form.
        #[arg(long)]
        check: bool,
    },
    /// Run a kernel of a PTX module or an sm_20 cubin on the CPU.
    Run(cmd_run::RunArgs),
    /// Assemble Fermi SASS text (cuobjdump or asfermi syntax) into a cubin.
    Asm(cmd_sass::AsmArgs),
    /// Disassemble a Fermi cubin or a cuobjdump listing.
    Disasm(cmd_sass::DisasmArgs),
    /// Translate PTX to an sm_20 cubin (`-arch=sm_20 -o out.cubin`, ptxas spellings too).
    #[command(disable_help_flag = true)]
    Compile {
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Fermi SASS tools.
    Sass {
        #[command(subcommand)]
        command: SassCommand,
    },
}

#[derive(Subcommand)]
enum SassCommand {
    /// Re-assemble and re-decode every line of cuobjdump listings and report disagreements.
    Verify {
        #[arg(required = true)]
        listings: Vec<PathBuf>,
    },
    /// Show which bits of a 64-bit instruction word (as cuobjdump prints it) mean what.
    Explain(cmd_sass::ExplainArgs),
}

fn main() {
    let cli = Cli::parse_from(nvcc_style_flags(std::env::args_os()));
    let code = match cli.command {
        Command::Check { files, json } => cmd_check::run(&files, json),
        Command::Fmt { files, check } => cmd_fmt::run(&files, check),
        Command::Run(args) => cmd_run::run(&args),
        Command::Asm(args) => cmd_sass::asm(&args),
        Command::Disasm(args) => cmd_sass::disasm(&args),
        Command::Compile { args } => cmd_compile::run(&args),
        Command::Sass {
            command: SassCommand::Verify { listings },
        } => cmd_sass::verify(&listings),
        Command::Sass {
            command: SassCommand::Explain(args),
        } => cmd_sass::explain(&args),
    };
    std::process::exit(code as i32);
}

/// `-arch=sm_20` and `-arch sm_20` (nvcc's and cuobjdump's spelling) are `--arch`: clap
/// takes long options with two dashes only.
fn nvcc_style_flags(args: impl Iterator<Item = std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    args.map(|a| match a.to_str() {
        Some("-arch") => "--arch".into(),
        Some(s) if s.starts_with("-arch=") => format!("-{s}").into(),
        _ => a,
    })
    .collect()
}

/// Prints a one-line error that is not tied to a source location.
fn error(msg: impl std::fmt::Display) {
    eprintln!("ptxvm: error: {msg}");
}
