use crate::exit::Exit;
use crate::input::read_source;
use clap::Args;
use exec::{ExecError, LaunchSpec, RunOptions};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Launch specs are small JSON files; buffers come from `file` entries, not the spec itself.
const MAX_SPEC_BYTES: u64 = 256 << 20;

#[derive(Args)]
pub struct RunArgs {
    /// The PTX module, or an sm_20 cubin (run on the Fermi executor).
    file: PathBuf,
    /// The launch: kernel, grid, block, shared bytes and parameters (see the README).
    #[arg(long, conflicts_with_all = ["grid", "block", "arg", "shared_bytes"])]
    launch: Option<PathBuf>,
    /// Print exactly one JSON object with the buffers and statistics on stdout.
    #[arg(long)]
    json: bool,
    /// Write each buffer parameter as DIR/param<N>.bin.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Kernel to run (optional when the module has one entry; overrides the spec's).
    #[arg(long)]
    kernel: Option<String>,
    /// Grid shape, e.g. `4,1,1` or `16`.
    #[arg(long)]
    grid: Option<String>,
    /// CTA shape, e.g. `256` or `16,16`.
    #[arg(long)]
    block: Option<String>,
    /// Dynamic shared memory in bytes.
    #[arg(long)]
    shared_bytes: Option<u32>,
    /// A kernel argument: `u32:7`, `buf:u32:1,2,3` or `zeros:f32:1024`; one per parameter, in order.
    #[arg(long)]
    arg: Vec<String>,
    /// Worker threads (0 = one per core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Most instructions one warp may execute before the launch faults.
    #[arg(long, default_value_t = 1 << 32)]
    max_steps: u64,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
}

pub fn run(args: &RunArgs) -> Exit {
    if crate::run_cubin::is_cubin(&args.file) {
        return match load_spec(args) {
            Ok(spec) => crate::run_cubin::run(crate::run_cubin::CubinRun {
                file: &args.file,
                spec,
                kernel: args.kernel.as_deref(),
                json: args.json,
                out: args.out.as_deref(),
                threads: args.threads,
                max_steps: args.max_steps,
            }),
            Err(code) => code,
        };
    }
    let file = match read_source(&args.file) {
        Ok(f) => f,
        Err(code) => return code,
    };
    let mut spec = match load_spec(args) {
        Ok(s) => s,
        Err(code) => return code,
    };
    if args.kernel.is_some() {
        spec.kernel.clone_from(&args.kernel);
    }
    let (module, diags) = check::check_source(&file);
    eprint!("{}", diag::render(&file, &diags));
    let Some(module) = module.filter(|_| !diag::has_errors(&diags)) else {
        return Exit::Invalid;
    };

    let counter = AtomicU64::new(0);
    let opts = RunOptions {
        threads: args.threads,
        max_steps: args.max_steps,
        progress: Some(&counter),
    };
    let show_progress = !args.quiet && std::io::stderr().is_terminal();
    let done = AtomicBool::new(false);
    let result = std::thread::scope(|s| {
        if show_progress {
            s.spawn(|| draw_progress(&counter, &done));
        }
        let r = exec::run(&module, &file, &spec, &opts);
        done.store(true, Ordering::Release);
        r
    });
    let result = match result {
        Ok(r) => r,
        Err(ExecError::Load(e)) => {
            // A module the executor cannot load is invalid input with a source location.
            eprint!("{}", diag::render(&file, &[e.to_diagnostic()]));
            return Exit::Invalid;
        }
        Err(e) => {
            crate::error(&e);
            return match e {
                ExecError::Fault(_) => Exit::Fault,
                _ => Exit::Usage,
            };
        }
    };
    if let Some(dir) = &args.out {
        if let Err(e) = result.write_out(dir) {
            crate::error(format!("cannot write buffers to {}: {e}", dir.display()));
            return Exit::Usage;
        }
    }
    let text = if args.json {
        result.to_json() + "\n"
    } else {
        result.summary()
    };
    let mut out = std::io::stdout().lock();
    if out.write_all(text.as_bytes()).is_err() {
        return Exit::Usage;
    }
    Exit::Ok
}

/// The launch from `--launch SPEC.json`, or from the flag sugar. Errors name the field and
/// exit 2.
fn load_spec(args: &RunArgs) -> Result<LaunchSpec, Exit> {
    let spec = match &args.launch {
        Some(path) => {
            let bytes = crate::input::read_bytes(path, MAX_SPEC_BYTES).map_err(|_| Exit::Usage)?;
            let Ok(text) = String::from_utf8(bytes) else {
                crate::error(format!("{}: not UTF-8 text", path.display()));
                return Err(Exit::Usage);
            };
            let base = path.parent().unwrap_or(Path::new("."));
            LaunchSpec::from_json(&text, base).map_err(|e| {
                crate::error(format!("{}: {e}", path.display()));
                Exit::Usage
            })?
        }
        None => LaunchSpec::from_flags(
            args.kernel.as_deref(),
            args.grid.as_deref(),
            args.block.as_deref(),
            args.shared_bytes,
            &args.arg,
        )
        .map_err(|e| {
            crate::error(format!("launch flags: {e}"));
            Exit::Usage
        })?,
    };
    Ok(spec)
}

/// A spinner with the executed thread-instruction count, shown only for launches that take
/// longer than a second.
fn draw_progress(counter: &AtomicU64, done: &AtomicBool) {
    let start = Instant::now();
    let mut bar: Option<indicatif::ProgressBar> = None;
    while !done.load(Ordering::Acquire) {
        std::thread::sleep(Duration::from_millis(100));
        let elapsed = start.elapsed();
        if elapsed < Duration::from_secs(1) {
            continue;
        }
        let pb = bar.get_or_insert_with(|| {
            let pb = indicatif::ProgressBar::new_spinner();
            pb.set_style(
                indicatif::ProgressStyle::with_template("{spinner} {elapsed} {msg}")
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
            );
            pb
        });
        let n = counter.load(Ordering::Relaxed);
        let rate = n as f64 / elapsed.as_secs_f64();
        pb.set_message(format!("{n} thread-instructions ({:.2} G/s)", rate / 1e9));
        pb.tick();
    }
    if let Some(pb) = bar {
        pb.finish_and_clear();
    }
}
