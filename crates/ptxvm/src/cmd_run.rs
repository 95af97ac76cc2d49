use crate::exit::Exit;
use crate::input::{load_bytes, load_source};
use crate::run_failure::{FailKind, Failure};
use clap::Args;
use exec::{LaunchSpec, RunOptions};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Launch specs are small JSON files; buffers come from `file` entries, not the spec itself.
const MAX_SPEC_BYTES: u64 = 256 << 20;

#[derive(Args)]
pub struct RunArgs {
    /// The PTX module.
    file: PathBuf,
    /// The launch: kernel, grid, block, shared bytes and parameters (see the README).
    /// `--kernel`, `--grid`, `--block`, `--shared-bytes` and `--arg` override its fields.
    #[arg(long)]
    launch: Option<PathBuf>,
    /// Print exactly one JSON object on stdout: the buffers and statistics, or on failure
    /// `{"error": {"kind": "fault"|"launch"|"check"|"io", "message": ..., ...}}`.
    #[arg(long)]
    json: bool,
    /// Write each buffer parameter as DIR/param<N>.bin.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Kernel to run (optional when the module has one entry; overrides the spec's).
    #[arg(long)]
    kernel: Option<String>,
    /// Grid shape, e.g. `4,1,1` or `16` (required without --launch).
    #[arg(long)]
    grid: Option<String>,
    /// CTA shape, e.g. `256` or `16,16` (required without --launch).
    #[arg(long)]
    block: Option<String>,
    /// Dynamic shared memory in bytes.
    #[arg(long)]
    shared_bytes: Option<u32>,
    /// A kernel argument: `u32:7`, `buf:u32:1,2,3`, `zeros:f32:1024` or `file:f32:x.bin`; one
    /// per parameter, in order (with --launch, they replace the spec's parameters).
    #[arg(long)]
    arg: Vec<String>,
    /// Worker threads (0 = one per core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Most instructions one warp may execute before the launch faults.
    #[arg(long, default_value_t = 1 << 32)]
    max_steps: u64,
    /// Device memory for the whole launch (buffers and .global variables), e.g. `512M`,
    /// `4G` or a byte count; checked before anything is allocated. Default: the smaller of
    /// 8 GiB and half of the physical memory.
    #[arg(long, value_name = "BYTES", value_parser = parse_size)]
    mem_limit: Option<u64>,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
}

pub fn run(args: &RunArgs) -> Exit {
    match execute(args) {
        Ok(code) => code,
        Err(f) => f.report(args.json),
    }
}

fn execute(args: &RunArgs) -> Result<Exit, Box<Failure>> {
    let file = load_source(&args.file).map_err(Failure::io)?;
    let mut spec = load_spec(args)?;
    if args.kernel.is_some() {
        spec.kernel.clone_from(&args.kernel);
    }
    let module = check_module(&file)?;

    let counter = AtomicU64::new(0);
    let opts = RunOptions {
        threads: args.threads,
        max_steps: args.max_steps,
        progress: Some(&counter),
        mem_limit: args.mem_limit.unwrap_or_else(default_mem_limit),
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
    let result = result.map_err(|e| Failure::from_exec(e, &file))?;
    if let Some(dir) = &args.out {
        result.write_out(dir).map_err(|e| {
            Failure::new(
                Exit::Usage,
                FailKind::Io,
                format!("cannot write buffers to {}: {e}", dir.display()),
            )
        })?;
    }
    let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let written = if args.json {
        result
            .write_json(&mut out)
            .and_then(|()| out.write_all(b"\n"))
    } else {
        out.write_all(result.summary().as_bytes())
    };
    match written.and_then(|()| out.flush()) {
        Ok(()) => Ok(Exit::Ok),
        // A closed pipe (`| head`) is not worth an error message.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(Exit::Ok),
        Err(e) => Err(Failure::new(
            Exit::Usage,
            FailKind::Io,
            format!("cannot write to stdout: {e}"),
        )),
    }
}

/// Parse and check the module; diagnostics go to stderr (and into the JSON error).
fn check_module(file: &diag::SourceFile) -> Result<ir::Module, Box<Failure>> {
    let (module, diags) = check::check_source(file);
    eprint!("{}", diag::render(file, &diags));
    match module.filter(|_| !diag::has_errors(&diags)) {
        Some(m) => Ok(m),
        None => {
            let first = diags.iter().find(|d| d.is_error());
            let mut f = Failure::new(
                Exit::Invalid,
                FailKind::Check,
                first.map_or_else(|| "the module does not check".into(), |d| d.message.clone()),
            );
            f.file = Some(file.name.clone());
            f.line = first.map(|d| file.line_col(d.span.start).0 as u32);
            f.diagnostics = Some(diag::to_json(file, &diags));
            f.printed = true;
            Err(f)
        }
    }
}

/// The launch from `--launch SPEC.json`, or from the flag sugar; flags given with a spec
/// override its fields. Errors name the field and exit 2.
fn load_spec(args: &RunArgs) -> Result<LaunchSpec, Box<Failure>> {
    let launch = |m: String| Failure::new(Exit::Usage, FailKind::Launch, m);
    let from_flags = |grid: Option<&str>, block: Option<&str>| {
        LaunchSpec::from_flags(
            args.kernel.as_deref(),
            grid,
            block,
            args.shared_bytes,
            &args.arg,
        )
        .map_err(|e| launch(format!("launch flags: {e}")))
    };
    let Some(path) = &args.launch else {
        for (flag, given) in [("--grid", &args.grid), ("--block", &args.block)] {
            if given.is_none() {
                return Err(launch(format!(
                    "missing {flag}: give --grid and --block, or a launch spec with --launch"
                )));
            }
        }
        return from_flags(args.grid.as_deref(), args.block.as_deref());
    };
    let bytes = load_bytes(path, MAX_SPEC_BYTES).map_err(Failure::io)?;
    let Ok(text) = String::from_utf8(bytes) else {
        return Err(launch(format!("{}: not UTF-8 text", path.display())));
    };
    let base = path.parent().unwrap_or(Path::new("."));
    let mut spec = LaunchSpec::from_json(&text, base)
        .map_err(|e| launch(format!("{}: {e}", path.display())))?;
    // The flags parsed on their own (same checks and messages), then laid over the spec.
    let flags = from_flags(args.grid.as_deref(), args.block.as_deref())?;
    if args.grid.is_some() {
        spec.grid = flags.grid;
    }
    if args.block.is_some() {
        spec.block = flags.block;
    }
    if args.shared_bytes.is_some() {
        spec.shared_bytes = flags.shared_bytes;
    }
    if !args.arg.is_empty() {
        spec.params = flags.params;
    }
    Ok(spec)
}

/// `--mem-limit`: a byte count with an optional K, M, G or T suffix (powers of 1024).
fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let (digits, shift) = match t.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => {
            let shift = match c.to_ascii_uppercase() {
                'K' => 10,
                'M' => 20,
                'G' => 30,
                'T' => 40,
                _ => return Err(format!("unknown size suffix `{c}` (expected K, M, G or T)")),
            };
            (t.get(..i).unwrap_or(""), shift)
        }
        _ => (t, 0),
    };
    let n: u64 = digits
        .parse()
        .map_err(|_| format!("`{s}` is not a size (e.g. 4096, 512M, 4G)"))?;
    n.checked_mul(1 << shift)
        .ok_or_else(|| format!("`{s}` is too large"))
}

/// The smaller of 8 GiB and half of the physical memory (`/proc/meminfo`; 8 GiB when that
/// cannot be read).
fn default_mem_limit() -> u64 {
    const CAP: u64 = 8 << 30;
    let total_kib = std::fs::read_to_string("/proc/meminfo").ok().and_then(|m| {
        m.lines()
            .find_map(|l| l.strip_prefix("MemTotal:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
    });
    total_kib.map_or(CAP, |k| CAP.min(k.saturating_mul(1024) / 2))
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
