//! The executor against the reference interpreter, on every instruction form.
//!
//! For each instance the isa-row generator makes, the kernel is rewritten so that every
//! register starts from a per-lane value drawn from edge sets and random bits (read from an
//! input buffer), the instruction runs (unguarded, then under a per-lane random guard), and
//! every register, the carry flag of carry-chain rows, and a scratch memory image (global,
//! and the shared and local slots the instruction can reach) are written to an output buffer.
//! Both machines run the same kernel on the same inputs; any difference in any bit fails with
//! the instruction, the lane and the inputs.
//!
//! `PTXVM_DIFF_SEED` picks the value stream (default fixed, so CI is reproducible) and
//! `PTXVM_DIFF_CASES` the number of value sets per instance (default 2).

#[path = "../../../tests/support/instances.rs"]
mod instances;

#[path = "../../../tests/support/form_kernels.rs"]
mod form_kernels;

use form_kernels::{
    fault_kind, inputs, rewrite, texture_words, threads_for, unguarded_only, Kernel,
    CTA_OF_TWO_WARPS, LANES, SLOT, TEXTURE_DIMS, TEXTURE_UNITS,
};
use instances::{instance_budget, instance_texts, Lcg, CHECKED_PER_ROW};
use isa::{Form, Opcode};
use std::collections::BTreeMap;
use std::fmt::Write;

/// Instances the comparison does not cover: (opcode, text the instruction line contains —
/// `""` for every instance —, reason). Each entry is a gap.
const NOT_COMPARED: &[(&str, &str, &str)] = &[
    (
        "wgmma",
        "",
        "checked but not executed: both machines refuse it at load (README, Known limits)",
    ),
    (
        "tcgen05",
        "",
        "checked but not executed: both machines refuse it at load (README, Known limits)",
    ),
    (
        "cp",
        ".tensor",
        "checked but not executed: both machines refuse it at load (README, Known limits)",
    ),
    (
        "cp",
        ".cp_mask",
        "checked but not executed: both machines refuse it at load (README, Known limits)",
    ),
    (
        "cp",
        ".reduce",
        "checked but not executed: both machines refuse it at load (README, Known limits)",
    ),
    (
        "cp",
        ".prefetch",
        "checked but not executed: both machines refuse it at load (README, Known limits)",
    ),
    (
        "cp",
        ".multicast::cluster",
        "checked but not executed: both machines refuse it at load (README, Known limits)",
    ),
    (
        "cp",
        ".L2::cache_hint",
        "checked but not executed: both machines refuse it at load (README, Known limits)",
    ),
    (
        "cp",
        ".shared::cluster.shared::cta",
        "checked but not executed: both machines refuse it at load (README, Known limits)",
    ),
    (
        "mbarrier",
        ".shared::cluster",
        "checked but not executed: both machines refuse it at load (README, Known limits)",
    ),
    (
        "wmma",
        ".f16.f16.satfinite",
        "floating-point wmma.mma .satfinite (PTX < 6.5) is checked but not executed",
    ),
    (
        "wmma",
        ".f32.f16.satfinite",
        "floating-point wmma.mma .satfinite (PTX < 6.5) is checked but not executed",
    ),
    (
        "wmma",
        ".f16.f32.satfinite",
        "floating-point wmma.mma .satfinite (PTX < 6.5) is checked but not executed",
    ),
    (
        "wmma",
        ".f32.f32.satfinite",
        "floating-point wmma.mma .satfinite (PTX < 6.5) is checked but not executed",
    ),
];

fn not_compared(form: &Form, line: &str) -> bool {
    NOT_COMPARED
        .iter()
        .any(|(op, text, _)| *op == form.opcode.name() && line.contains(text))
}

/// Values for an indirect call's function pointer: the address of every function of the
/// module (the kernel and callees of other signatures are bad targets too) and one address
/// that is no function.
fn call_targets(module: &ir::Module) -> Vec<u64> {
    (0..module.functions.len() as u64)
        .map(|i| exec::lower::FUNC_ADDR_BASE + 16 * i)
        .chain([2])
        .collect()
}

fn windows() -> oracle::Windows {
    use exec::memory as m;
    oracle::Windows {
        constant: m::CONST_WINDOW,
        local: m::LOCAL_WINDOW,
        shared: m::SHARED_WINDOW,
        param: m::PARAM_WINDOW,
        size: m::WINDOW_BYTES,
        functions: exec::lower::FUNC_ADDR_BASE,
    }
}

#[derive(Debug, PartialEq)]
enum Outcome {
    Done { out: Vec<u8>, scr: Vec<u8> },
    Fault(String),
}

fn run_exec(
    module: &ir::Module,
    file: &diag::SourceFile,
    input: &[u8],
    scr: &[u8],
    wide: bool,
    threads: usize,
) -> Result<(Outcome, [u64; 3]), String> {
    let mut dev = exec::Device::new();
    let loaded = dev
        .load(module, file)
        .map_err(|e| format!("load: {}", e.message))?;
    let pin = dev.alloc(input.len() as u64).map_err(|e| e.to_string())?;
    let pout = dev.alloc(input.len() as u64).map_err(|e| e.to_string())?;
    let pscr = dev.alloc(scr.len() as u64).map_err(|e| e.to_string())?;
    dev.write(pin, input).map_err(|e| e.to_string())?;
    dev.write(pscr, scr).map_err(|e| e.to_string())?;
    let arg = |p: exec::DevicePtr| {
        if wide {
            exec::Arg::u64(p.0)
        } else {
            exec::Arg::u32(p.0 as u32)
        }
    };
    let cfg = exec::LaunchConfig {
        block: [threads as u32, 1, 1],
        textures: (0..TEXTURE_UNITS)
            .map(|u| {
                Some(exec::Texture {
                    dims: TEXTURE_DIMS,
                    channels: 4,
                    data: texture_words(u),
                })
            })
            .collect(),
        ..exec::LaunchConfig::default()
    };
    let opts = exec::RunOptions {
        threads: 1,
        max_steps: 100_000,
        ..exec::RunOptions::default()
    };
    let r = dev.launch(&loaded, "k", &cfg, &[arg(pin), arg(pout), arg(pscr)], &opts);
    let addrs = [pin.0, pout.0, pscr.0];
    Ok((
        match r {
            Err(e) => Outcome::Fault(fault_kind(&e.to_string())),
            Ok(_) => Outcome::Done {
                out: dev
                    .read(pout, input.len() as u64)
                    .map_err(|e| e.to_string())?,
                scr: dev
                    .read(pscr, scr.len() as u64)
                    .map_err(|e| e.to_string())?,
            },
        },
        addrs,
    ))
}

fn run_oracle(
    module: &ir::Module,
    input: &[u8],
    scr: &[u8],
    addrs: [u64; 3],
    wide: bool,
    threads: usize,
) -> Result<Outcome, String> {
    let mut mem = oracle::Memory::new();
    mem.map(addrs[0], input.to_vec());
    mem.map(addrs[1], vec![0; input.len()]);
    mem.map(addrs[2], scr.to_vec());
    let p = |a: u64| {
        if wide {
            a.to_le_bytes().to_vec()
        } else {
            (a as u32).to_le_bytes().to_vec()
        }
    };
    let cfg = oracle::Launch {
        grid: [1, 1, 1],
        block: [threads as u32, 1, 1],
        dynamic_shared: 0,
        windows: windows(),
        max_steps: 100_000,
        globals_base: 0xE000_0000,
        textures: (0..TEXTURE_UNITS)
            .map(|u| {
                Some(oracle::Texture {
                    dims: TEXTURE_DIMS,
                    channels: 4,
                    data: texture_words(u),
                })
            })
            .collect(),
    };
    match oracle::launch(
        module,
        "k",
        &[p(addrs[0]), p(addrs[1]), p(addrs[2])],
        &cfg,
        &mut mem,
    ) {
        Ok(()) => Ok(Outcome::Done {
            out: mem.get(addrs[1]).unwrap_or_default().to_vec(),
            scr: mem.get(addrs[2]).unwrap_or_default().to_vec(),
        }),
        Err(oracle::Fault::Unsupported(m)) => Err(m),
        Err(f) => Ok(Outcome::Fault(f.kind().to_string())),
    }
}

#[derive(Default)]
struct Stats {
    compared: usize,
    rows: usize,
    unsupported: BTreeMap<String, String>,
    /// Per row: how many instances differ, and the first difference.
    mismatches: BTreeMap<String, (usize, String)>,
}

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

fn compare_row(form: &'static Form, rng: &mut Lcg, cases: u64, st: &mut Stats) {
    let mut checked = 0;
    let mut any = false;
    // As in the executor's coverage test: each source that may be an immediate is also tried
    // as one.
    let budget = instance_budget(form, CHECKED_PER_ROW);
    for text in instance_texts(form) {
        if checked >= budget {
            break;
        }
        let line = text.lines().rev().nth(3).unwrap_or("");
        if not_compared(form, line) {
            continue;
        }
        let names: Vec<&str> = form.operands.iter().map(|o| o.name).collect();
        let text = format!("// operands: {}\n{text}", names.join(" "));
        checked += 1;
        let unguarded = unguarded_only(form);
        for case in 0..cases {
            let guarded = case % 2 == 1 && !unguarded;
            let contended = case % 2 == 1 && matches!(form.opcode, Opcode::Atom | Opcode::Red);
            let Some(k) = rewrite(&text, guarded, contended, threads_for(form)) else {
                continue;
            };
            let file = diag::SourceFile::new("diff.ptx", k.text.clone());
            let (module, diags) = check::check_source(&file);
            let Some(module) = module.filter(|_| !diags.iter().any(|d| d.is_error())) else {
                // `PTXVM_DIFF_SHOW=<row text>` shows why a row's kernels do not check.
                if std::env::var("PTXVM_DIFF_SHOW").is_ok_and(|r| form.key().contains(&r)) {
                    eprintln!("{}\n{}", k.text, diag::render(&file, &diags));
                }
                continue;
            };
            let wide = k.text.contains(".address_size 64");
            let targets = call_targets(&module);
            let (input, scr) = inputs(&k, rng, &targets);
            let (e, addrs) = match run_exec(&module, &file, &input, &scr, wide, k.threads) {
                Ok(x) => x,
                Err(m) => {
                    let msg = format!(
                        "{}: executor refused `{}`: {m}",
                        form.key(),
                        k.text
                            .lines()
                            .find(|l| l.contains(form.opcode.name()))
                            .unwrap_or("")
                    );
                    st.mismatches.entry(form.key()).or_insert((0, msg)).0 += 1;
                    continue;
                }
            };
            let o = match run_oracle(&module, &input, &scr, addrs, wide, k.threads) {
                Ok(o) => o,
                Err(m) => {
                    let line = text.lines().rev().nth(3).unwrap_or("").trim().to_string();
                    st.unsupported
                        .entry(form.key())
                        .or_insert(format!("{m} (e.g. `{line}`)"));
                    continue;
                }
            };
            any = true;
            st.compared += 1;
            if e != o {
                let msg = describe(form, &text, &k, &input, &e, &o, guarded, contended);
                st.mismatches.entry(form.key()).or_insert((0, msg)).0 += 1;
            }
        }
    }
    if any {
        st.rows += 1;
    }
}

#[allow(clippy::too_many_arguments)]
fn describe(
    form: &Form,
    text: &str,
    k: &Kernel,
    input: &[u8],
    e: &Outcome,
    o: &Outcome,
    guarded: bool,
    contended: bool,
) -> String {
    let line = text.lines().rev().nth(3).unwrap_or("").trim();
    let mut s = format!(
        "{}\n    `{line}` (guarded: {guarded}, contended: {contended})\n",
        form.key()
    );
    match (e, o) {
        (Outcome::Done { out: eo, scr: es }, Outcome::Done { out: oo, scr: os }) => {
            for lane in 0..k.threads {
                let base = lane * k.stride as usize;
                for (name, _ty, off) in &k.compared {
                    let r = base + *off as usize..base + *off as usize + 8;
                    if eo[r.clone()] != oo[r.clone()] {
                        let ins: Vec<String> = k
                            .compared
                            .iter()
                            .map(|(n, _, o)| {
                                let b = base + *o as usize;
                                format!(
                                    "{n}={:#x}",
                                    u64::from_le_bytes(
                                        input[b..b + 8].try_into().unwrap_or_default()
                                    )
                                )
                            })
                            .collect();
                        let _ = writeln!(
                            s,
                            "    lane {lane} {name}: executor {:#x}, reference {:#x}; inputs {}",
                            u64::from_le_bytes(eo[r.clone()].try_into().unwrap_or_default()),
                            u64::from_le_bytes(oo[r].try_into().unwrap_or_default()),
                            ins.join(" ")
                        );
                        return s;
                    }
                }
                if k.has_carry {
                    let r = base + k.stride as usize - 16;
                    if eo[r] != oo[r] {
                        let _ = writeln!(
                            s,
                            "    lane {lane} carry: executor {}, reference {}",
                            eo[r], oo[r]
                        );
                        return s;
                    }
                }
            }
            if es != os {
                let at = es.iter().zip(os).position(|(a, b)| a != b).unwrap_or(0);
                let _ = writeln!(s, "    scratch memory differs at byte {at} (lane {}): executor {:#x}, reference {:#x}", at / SLOT as usize, es[at], os[at]);
            }
        }
        _ => {
            let _ = writeln!(s, "    executor {e:?}\n    reference {o:?}");
        }
    }
    s.chars().take(2000).collect()
}

#[test]
fn executor_matches_the_reference_interpreter_on_every_form() {
    let seed = env_u64("PTXVM_DIFF_SEED", 0x5eed_2026);
    let cases = env_u64("PTXVM_DIFF_CASES", 2);
    let mut rng = Lcg(seed);
    let mut st = Stats::default();
    let mut uncompared = Vec::new();
    for form in isa::all_forms() {
        let before = st.rows;
        compare_row(form, &mut rng, cases, &mut st);
        if st.rows == before {
            uncompared.push(form.key());
        }
    }
    eprintln!("rows with no compared instance:");
    for k in &uncompared {
        eprintln!("    {k}");
    }
    eprintln!(
        "seed {seed:#x}: {} instances compared over {} rows ({} threads each, {} for barrier and collective rows); {} rows not modelled by the reference",
        st.compared,
        st.rows,
        LANES,
        CTA_OF_TWO_WARPS,
        st.unsupported.len()
    );
    let mut report = String::new();
    for (k, m) in &st.unsupported {
        let _ = writeln!(report, "not modelled: {k}: {m}");
    }
    for (n, m) in st.mismatches.values() {
        let _ = writeln!(report, "[{n} instances] {m}");
    }
    assert!(
        st.mismatches.is_empty() && st.unsupported.is_empty(),
        "{} mismatches, {} rows not modelled:\n{report}",
        st.mismatches.len(),
        st.unsupported.len()
    );
}
