use crate::exit::Exit;
use crate::input::{load_bytes, load_source};
use crate::run_failure::{FailKind, Failure};
use clap::Args;
use exec::{LaunchSpec, RunOptions};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Default per-warp step budget, 2^26: a one-warp loop runs 8*10^6 to 1.2*10^7 (global load,
/// fma and store in every iteration) to 1.2*10^8 (add and branch) warp instructions a second
/// on the shared development machine, so a runaway loop faults within 0.5 to 8 s; ordinary
/// kernels stay far
/// below it (it counts one warp's instructions, so it does not grow with the launch).
const DEFAULT_MAX_STEPS: u64 = 1 << 26;

/// Launch specs are small JSON files; buffers come from `file` entries, not the spec itself.
const MAX_SPEC_BYTES: u64 = 256 << 20;

#[derive(Args)]
pub struct RunArgs {
    /// The PTX module, or an sm_20 cubin (run on the Fermi executor).
    file: PathBuf,
    /// The launch: kernel, grid, block, shared bytes, parameters and textures (see the README).
    /// `--kernel`, `--grid`, `--block`, `--shared-bytes` and `--arg` override its fields.
    #[arg(long)]
    launch: Option<PathBuf>,
    /// Print exactly one JSON object on stdout: the buffers and statistics, or on failure
    /// `{"error": {"kind": "fault"|"launch"|"check"|"io", "message": ..., ...}}`.
    #[arg(long)]
    json: bool,
    /// Write each buffer parameter as DIR/param<N>.npy (numpy format; written under a
    /// temporary name and renamed when complete).
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
    /// Most instructions one warp may execute before the launch faults. Default: 2^26 (a
    /// runaway one-warp loop faults within seconds), or no limit when --timeout is given.
    #[arg(long)]
    max_steps: Option<u64>,
    /// Wall-clock limit of the launch in seconds (e.g. `30` or `0.5`); past it the launch
    /// faults (exit 3) naming where a warp was running.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    timeout: Option<std::time::Duration>,
    /// Device memory for the whole launch (buffers, textures and .global variables), e.g. `512M`,
    /// `4G` or a byte count; checked before anything is allocated. Default: the smaller of
    /// 8 GiB and half of the physical memory.
    #[arg(long, value_name = "BYTES", value_parser = parse_size)]
    mem_limit: Option<u64>,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
    /// Check the run like compute-sanitizer: out-of-bounds accesses with the nearest
    /// allocation (memcheck), shared/global races between warps not ordered by a barrier
    /// (racecheck), reads of never-written registers and shared/local bytes (initcheck),
    /// barriers and warp collectives not reached together (synccheck). Each error is printed
    /// on stderr with the PTX line, then an `ERROR SUMMARY: N errors` line (with --json also
    /// as a "sanitizer" field); the exit code is 3 when any error is found. Slower.
    #[arg(long)]
    sanitize: bool,
}

pub fn run(args: &RunArgs) -> Exit {
    if crate::run_cubin::is_cubin(&args.file) {
        if args.sanitize {
            return Failure::new(
                Exit::Usage,
                FailKind::Launch,
                "--sanitize checks PTX runs only; a cubin runs on the Fermi executor, which has no sanitizer",
            )
            .report(args.json);
        }
        return match load_spec(args) {
            Ok(spec) => crate::run_cubin::run(crate::run_cubin::CubinRun {
                file: &args.file,
                spec,
                kernel: args.kernel.as_deref(),
                json: args.json,
                out: args.out.as_deref(),
                threads: args.threads,
                max_steps: args.max_steps.unwrap_or(DEFAULT_MAX_STEPS),
            }),
            Err(f) => f.report(args.json),
        };
    }
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
    // An output directory that cannot be made is found before the kernel runs, not after.
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir).map_err(|e| {
            Failure::new(
                Exit::Usage,
                FailKind::Io,
                format!("cannot create the output directory {}: {e}", dir.display()),
            )
        })?;
    }

    let counter = AtomicU64::new(0);
    let ctas_done = AtomicU64::new(0);
    let sanitizer = args.sanitize.then(exec::sanitize::Sanitizer::new);
    let opts = RunOptions {
        threads: args.threads,
        max_steps: args.max_steps.unwrap_or(if args.timeout.is_some() {
            u64::MAX
        } else {
            DEFAULT_MAX_STEPS
        }),
        progress: Some(&counter),
        ctas_done: Some(&ctas_done),
        timeout: args.timeout,
        mem_limit: args.mem_limit.unwrap_or_else(default_mem_limit),
        sanitize: sanitizer.as_ref(),
    };
    let show_progress = !args.quiet && std::io::stderr().is_terminal();
    let done = AtomicBool::new(false);
    let ctas_total: u64 = spec.grid.iter().map(|&x| u64::from(x)).product();
    let result = std::thread::scope(|s| {
        if show_progress {
            s.spawn(|| {
                draw_progress(
                    &Progress {
                        instructions: &counter,
                        ctas_done: &ctas_done,
                        ctas_total,
                    },
                    &done,
                )
            });
        }
        let r = exec::run(&module, &file, &spec, &opts);
        done.store(true, Ordering::Release);
        r
    });
    let report = sanitizer
        .as_ref()
        .map(|san| crate::sanitize_report::print(san, &file));
    let result = result.map_err(|e| {
        let mut f = Failure::from_exec(e, &file);
        f.sanitizer = report.as_ref().map(|r| r.json.clone());
        f
    })?;
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
        match &report {
            Some(r) => crate::sanitize_report::write_json_with(&result, &r.json, &mut out),
            None => result.write_json(&mut out),
        }
        .and_then(|()| out.write_all(b"\n"))
    } else {
        out.write_all(result.summary().as_bytes())
    };
    let code = match &report {
        Some(r) if r.errors > 0 => Exit::Fault,
        _ => Exit::Ok,
    };
    match written.and_then(|()| out.flush()) {
        Ok(()) => Ok(code),
        // A closed pipe (`| head`) is not worth an error message.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(code),
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

/// `--timeout`: seconds, fractional allowed.
fn parse_seconds(s: &str) -> Result<std::time::Duration, String> {
    let x: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a number of seconds"))?;
    std::time::Duration::try_from_secs_f64(x)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or_else(|| format!("`{s}` is not a positive number of seconds (at most about 1.8e19)"))
}

/// What the progress bar reads.
struct Progress<'a> {
    instructions: &'a AtomicU64,
    ctas_done: &'a AtomicU64,
    ctas_total: u64,
}

/// The progress line, shown only for launches that take longer than a second: CTAs done of
/// the total, percent, thread-instructions per second and an ETA from the CTA rate; with a
/// single CTA (or none finished yet), the thread-instructions executed so far.
fn progress_line(p: &Progress<'_>, elapsed: Duration) -> String {
    let n = p.instructions.load(Ordering::Relaxed);
    let done = p.ctas_done.load(Ordering::Relaxed);
    let secs = elapsed.as_secs_f64().max(1e-9);
    let rate = n as f64 / secs;
    let mut line = format!(
        "{done}/{} CTAs ({:.1}%), {n} thread-instructions, {:.1} M/s",
        p.ctas_total,
        100.0 * done as f64 / p.ctas_total.max(1) as f64,
        rate / 1e6
    );
    if done > 0 && done < p.ctas_total {
        let eta = secs / done as f64 * (p.ctas_total - done) as f64;
        line.push_str(&format!(", ETA {}", human_duration(eta)));
    }
    line
}

fn human_duration(secs: f64) -> String {
    let s = secs.round() as u64;
    match s {
        0..=59 => format!("{s}s"),
        60..=3599 => format!("{}m{:02}s", s / 60, s % 60),
        _ => format!("{}h{:02}m", s / 3600, s / 60 % 60),
    }
}

fn draw_progress(p: &Progress<'_>, done: &AtomicBool) {
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
        pb.set_message(progress_line(p, elapsed));
        pb.tick();
    }
    if let Some(pb) = bar {
        pb.finish_and_clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_line_counts_ctas_rate_and_eta() {
        let (i, d) = (AtomicU64::new(3_000_000), AtomicU64::new(25));
        let p = Progress {
            instructions: &i,
            ctas_done: &d,
            ctas_total: 100,
        };
        // 25 of 100 CTAs in 2 s: 75 more at 12.5 CTAs/s is 6 s; 3M instructions / 2 s.
        assert_eq!(
            progress_line(&p, Duration::from_secs(2)),
            "25/100 CTAs (25.0%), 3000000 thread-instructions, 1.5 M/s, ETA 6s"
        );
        d.store(0, Ordering::Relaxed);
        assert_eq!(
            progress_line(&p, Duration::from_secs(3)),
            "0/100 CTAs (0.0%), 3000000 thread-instructions, 1.0 M/s"
        );
        assert_eq!(human_duration(3725.0), "1h02m");
        assert_eq!(human_duration(61.0), "1m01s");
    }

    #[test]
    fn seconds_and_sizes_parse() {
        assert_eq!(parse_seconds("0.5"), Ok(Duration::from_millis(500)));
        assert!(parse_seconds("0").is_err());
        assert!(parse_seconds("-1").is_err());
        assert!(parse_seconds("nan").is_err());
        assert_eq!(parse_size("4G"), Ok(4 << 30));
        assert_eq!(parse_size("512m"), Ok(512 << 20));
        assert_eq!(parse_size("4096"), Ok(4096));
        assert!(parse_size("4X").is_err());
        assert!(parse_size("99999999999T").is_err());
    }
}
