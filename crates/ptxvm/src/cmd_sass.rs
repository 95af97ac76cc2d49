use crate::exit::Exit;
use crate::input::{read_bytes, read_source};
use clap::Args;
use fermi::cubin::{AddressSize, Arch};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Cubins and listings are read whole; nothing legitimate comes near this.
const MAX_BINARY_BYTES: u64 = 1 << 30;

#[derive(Args)]
pub struct AsmArgs {
    /// Target architecture (sm_20 or sm_21); `!Arch` or a `code for` header in the file wins.
    #[arg(long, default_value = "sm_20", value_parser = parse_arch)]
    arch: Arch,
    /// Address width for `!Machine`-less files.
    #[arg(long, default_value = "64", value_parser = parse_machine)]
    machine: u32,
    /// The SASS file (cuobjdump listing, plain SASS lines or asfermi source).
    file: PathBuf,
    /// Where to write the cubin.
    #[arg(short = 'o', long = "output")]
    output: Option<PathBuf>,
    /// Print a cuobjdump-style listing of what was assembled on stdout.
    #[arg(long)]
    listing: bool,
}

#[derive(Args)]
pub struct DisasmArgs {
    /// Architecture of the code (sm_20 or sm_21).
    #[arg(long, default_value = "sm_20", value_parser = parse_arch)]
    arch: Arch,
    /// A cubin (ELF) or a cuobjdump-style listing.
    file: PathBuf,
}

fn parse_machine(s: &str) -> Result<u32, String> {
    match s {
        "32" => Ok(32),
        "64" => Ok(64),
        _ => Err(format!(
            "unsupported address width `{s}` (expected 32 or 64)"
        )),
    }
}

fn parse_arch(s: &str) -> Result<Arch, String> {
    Arch::parse(s)
        .ok_or_else(|| format!("unsupported architecture `{s}` (expected sm_20 or sm_21)"))
}

pub fn asm(args: &AsmArgs) -> Exit {
    if args.output.is_none() && !args.listing {
        crate::error("nothing to do: give -o FILE.cubin, --listing, or both");
        return Exit::Usage;
    }
    let file = match read_source(&args.file) {
        Ok(f) => f,
        Err(code) => return code,
    };
    let opts = fermi::asm::AsmOptions {
        arch: args.arch,
        address_size: if args.machine == 32 {
            AddressSize::Bits32
        } else {
            AddressSize::Bits64
        },
        default_kernel_name: stem(&args.file),
    };
    let assembly = match fermi::asm::assemble_file(&file, &opts) {
        Ok(a) => a,
        Err(diags) => {
            render_capped(&file, &diags);
            return Exit::Invalid;
        }
    };
    if let Some(out) = &args.output {
        let bytes = match assembly.write_cubin() {
            Ok(b) => b,
            Err(e) => {
                crate::error(format!(
                    "{}: cannot build the cubin: {e}",
                    args.file.display()
                ));
                return Exit::Invalid;
            }
        };
        if let Err(e) = std::fs::write(out, bytes) {
            crate::error(format!("cannot write {}: {e}", out.display()));
            return Exit::Usage;
        }
    }
    if args.listing {
        return print_stdout(&assembly.print_listing());
    }
    Exit::Ok
}

pub fn disasm(args: &DisasmArgs) -> Exit {
    let bytes = match read_bytes(&args.file, MAX_BINARY_BYTES) {
        Ok(b) => b,
        Err(code) => return code,
    };
    let text = if bytes.starts_with(b"\x7fELF") {
        match fermi::disasm::disassemble_cubin(&bytes) {
            Ok(t) => t,
            Err(e) => {
                crate::error(cubin_error(&args.file, &bytes, &e));
                return Exit::Invalid;
            }
        }
    } else {
        match String::from_utf8(bytes) {
            Ok(listing) if has_listing_line(&listing) => {
                fermi::disasm::disassemble_listing(&listing)
            }
            Ok(_) => {
                crate::error(format!(
                    "{}: neither a cubin (no ELF header) nor a cuobjdump listing (no \
                     `/*ADDR*/ /*0xWORD*/ ...` line)",
                    args.file.display()
                ));
                return Exit::Invalid;
            }
            Err(_) => {
                crate::error(format!(
                    "{}: neither a cubin (no ELF header) nor a text listing (not UTF-8)",
                    args.file.display()
                ));
                return Exit::Invalid;
            }
        }
    };
    // The --arch flag only admits the architectures the decoder knows; both share one encoding.
    let _ = args.arch;
    print_stdout(&text)
}

pub fn verify(listings: &[PathBuf]) -> Exit {
    let mut worst = Exit::Ok;
    let (mut lines, mut enc, mut dec) = (0usize, 0usize, 0usize);
    for path in listings {
        let file = match read_source(path) {
            Ok(f) => f,
            Err(code) => {
                worst = worst.max(code);
                continue;
            }
        };
        if !has_listing_line(&file.text) {
            crate::error(format!(
                "{}: not a cuobjdump listing: no `/*ADDR*/ /*0xWORD*/ ...` line",
                path.display()
            ));
            worst = worst.max(Exit::Invalid);
            continue;
        }
        let report = fermi::verify::verify_listing(&file.name, &file.text);
        print!("{report}");
        lines += report.lines;
        enc += report.encode_mismatches;
        dec += report.decode_mismatches;
        if !report.is_clean() {
            worst = worst.max(Exit::Invalid);
        }
    }
    if listings.len() > 1 {
        println!(
            "total: {lines} instruction lines in {} listings, {enc} encode mismatches, {dec} decode mismatches",
            listings.len()
        );
    }
    worst
}

#[derive(Args)]
pub struct ExplainArgs {
    /// Instruction words as cuobjdump prints them (`0x00001c0444000000`, `/*0x…*/` also taken).
    #[arg(required = true)]
    words: Vec<String>,
    /// Byte address of the (first) word, for branch targets; later words follow it.
    #[arg(long, default_value = "0", value_parser = parse_address)]
    addr: u64,
}

fn parse_address(s: &str) -> Result<u64, String> {
    let hex = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X"));
    let v = match hex {
        Some(h) => u64::from_str_radix(h, 16),
        None => s.parse(),
    };
    v.map_err(|_| format!("not an address: `{s}`"))
}

/// A word as cuobjdump prints it: 16 hex digits, `0x` and `/*…*/` optional.
fn parse_word(s: &str) -> Option<u64> {
    let t = s.trim();
    let t = t.strip_prefix("/*").unwrap_or(t);
    let t = t.strip_suffix("*/").unwrap_or(t).trim();
    let t = t
        .strip_prefix("0x")
        .or_else(|| t.strip_prefix("0X"))
        .unwrap_or(t);
    if t.is_empty() || t.len() > 16 || !t.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u64::from_str_radix(t, 16).ok()
}

/// The runs of set bits of `mask`, least significant first: `0-3,58-63`.
fn bit_ranges(mask: u64) -> String {
    let mut runs = Vec::new();
    let mut bit = 0u32;
    while bit < 64 {
        if (mask >> bit) & 1 == 0 {
            bit += 1;
            continue;
        }
        let start = bit;
        while bit < 64 && (mask >> bit) & 1 == 1 {
            bit += 1;
        }
        runs.push(if bit - 1 == start {
            format!("{start}")
        } else {
            format!("{start}-{}", bit - 1)
        });
    }
    if runs.is_empty() {
        "-".into()
    } else {
        runs.join(",")
    }
}

/// The bits of `bits` under `mask`, packed from the lowest.
fn gather(bits: u64, mask: u64) -> u64 {
    let (mut v, mut k) = (0u64, 0u32);
    for b in 0..64 {
        if (mask >> b) & 1 == 1 {
            v |= ((bits >> b) & 1) << k;
            k += 1;
        }
    }
    v
}

/// One line per field: bit range (NVIDIA's instruction order, bit 0 the lowest bit of the
/// first 32-bit word in memory), the raw value of those bits, and what they mean.
pub fn explain(args: &ExplainArgs) -> Exit {
    let mut out = String::new();
    let mut worst = Exit::Ok;
    for (i, w) in args.words.iter().enumerate() {
        let Some(word) = parse_word(w) else {
            crate::error(format!(
                "`{w}` is not an instruction word (up to 16 hex digits, e.g. 0x00001c0444000000)"
            ));
            return Exit::Usage;
        };
        let addr = args.addr.wrapping_add(8 * i as u64);
        let fields = match fermi::isa::explain(word, addr) {
            Ok(f) => f,
            Err(e) => {
                crate::error(format!("0x{word:016x} does not decode: {e}"));
                worst = worst.max(Exit::Invalid);
                continue;
            }
        };
        let bits = fermi::isa::listing_to_bits(word);
        out.push_str(&format!(
            "0x{word:016x}  {}\n",
            fermi::isa::disassemble_word(word, addr)
        ));
        for f in fields {
            out.push_str(&format!(
                "  bits {:<22} raw {:<#12x} {}: {}\n",
                bit_ranges(f.mask),
                gather(bits, f.mask),
                f.what,
                f.text
            ));
        }
    }
    match print_stdout(&out) {
        Exit::Ok => worst,
        e => e,
    }
}

/// Whether `text` has at least one cuobjdump instruction line.
fn has_listing_line(text: &str) -> bool {
    text.lines()
        .any(|l| fermi::listing::parse_listing_line(l).is_some())
}

/// A cubin reader error with the byte offset and structure at fault when the ELF structure
/// check finds one; an ELF-magic file the reader calls "not an ELF file" is a malformed one.
fn cubin_error(path: &Path, bytes: &[u8], e: &fermi::cubin::CubinError) -> String {
    use fermi::cubin::CubinError;
    match (e, crate::elf_check::first_problem(bytes)) {
        (CubinError::NotElf(_), Some(p)) => format!("{}: malformed ELF file: {p}", path.display()),
        (CubinError::NotElf(why), None) => format!("{}: malformed ELF file: {why}", path.display()),
        _ => format!("{}: {e}", path.display()),
    }
}

/// Most diagnostics printed for one file, as `ptxvm check` does: past this many the rest are
/// counted, not printed.
const MAX_PRINTED_ERRORS: usize = 1000;

fn render_capped(file: &diag::SourceFile, diags: &[diag::Diagnostic]) {
    let shown = diags.get(..MAX_PRINTED_ERRORS).unwrap_or(diags);
    eprint!("{}", diag::render(file, shown));
    if diags.len() > shown.len() {
        crate::error(format!(
            "{}: too many errors: stopping after {MAX_PRINTED_ERRORS} ({} more not shown)",
            file.name,
            diags.len() - shown.len()
        ));
    }
}

fn stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "kernel".into())
}

fn print_stdout(text: &str) -> Exit {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Exit::Ok,
        // A closed pipe (`| head`) is not worth an error message.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Exit::Ok,
        Err(e) => {
            crate::error(format!("cannot write to stdout: {e}"));
            Exit::Usage
        }
    }
}
