//! Every translated form gives the PTX executor's results on the Fermi executor.
//!
//! `every_form.rs` proves every spelled form the checker accepts and the executor runs
//! translates; this test proves the translations right. Each instance (a sample of every
//! row's modifier, type and operand spellings, `tests/support/instances.rs`) becomes the
//! oracle differential test's kernel (`tests/support/form_kernels.rs`: every register loaded
//! from per-lane edge values and random bits, the instruction run unguarded and then under a
//! per-lane guard — atomics against one contended slot —, every register, the carry flag and
//! a scratch image of global, shared and local memory stored). Kernels that translate run on
//! both executors; the output and scratch buffers must agree bit for bit, or both runs must
//! fault with the same kind of fault ([`TRAPPED`]: the faults the translation raises as a
//! trap). The textures of the oracle test are bound; a Fermi run out of steps is a fault like
//! any other. Every row with a translated kernel must compare values at least once (not only
//! faults) unless [`ALL_FAULT`] lists it.
//!
//! [`DIFFERS`] lists forms whose results legitimately differ, [`KNOWN_WRONG`] mismatches not yet
//! fixed (the translator must refuse them instead; an entry is a defect). An entry that matches
//! no disagreeing instance is reported as stale (not a failure).
//!
//! `PTXVM_RUNS_SEED` picks the value stream, `PTXVM_RUNS_PER_ROW` the instances per row,
//! `PTXVM_RUNS_ROW=<text>` runs only the rows whose key contains the text.

#[path = "../../../tests/support/instances.rs"]
mod instances;

#[path = "../../../tests/support/form_kernels.rs"]
mod form_kernels;

use exec::{ElemType, LaunchSpec, ParamSpec};
use form_kernels::{
    fault_kind, inputs, rewrite, texture_words, threads_for, unguarded_only, TEXTURE_DIMS,
    TEXTURE_UNITS,
};
use instances::{instance_budget, instance_texts, Lcg};
use isa::{Form, Opcode};
use std::collections::BTreeMap;
use std::fmt::Write;

/// Instances per row and variant: enough to see every modifier family of most rows, and every
/// [`DIFFERS`] entry, in about 15 s of the test profile.
const PER_ROW: usize = 32;

/// Forms whose results legitimately differ between the two machines: (opcode, text the
/// instruction line contains — `""` for every instance —, reason). The instances hold no
/// special registers (clocks, `%smid`, ...): their operands are the `%v` registers, so none
/// is listed.
const DIFFERS: &[(&str, &str, &str)] = &[
    (
        "bar",
        ", 3",
        "a thread count of 3: PTX requires a multiple of the warp size (ISA, bar: \"b must be a multiple of warp size\"); the Fermi executor faults, the PTX executor runs it",
    ),
    (
        "barrier",
        ", 3",
        "a thread count of 3: PTX requires a multiple of the warp size (ISA, barrier); the Fermi executor faults, the PTX executor runs it",
    ),
    (
        "cvta",
        ".shared",
        "random bits as an address (not one a .shared variable has): a 64-bit one with a nonzero high word is no shared address, the PTX executor adds the window on 64 bits, the translation on the low word; covered with real addresses by forms_memory and global_addresses.rs",
    ),
    (
        "cvta",
        ".local",
        "random bits as an address (not one a .local variable has): outside the local window the PTX executor and the translation (Fermi's 16 MiB window) convert differently; covered with real addresses by forms_memory and memory_spaces.rs",
    ),
    (
        "ld",
        ".param",
        "reads the kernel's parameters, which are the buffers' device addresses: each machine allocates its own",
    ),
    (
        "isspacep",
        "",
        "random bits as an address: the translation tests Fermi's 16 MiB shared and local windows and answers false for every constant and parameter address (sm_20 code forms none, docs/spec-notes.md); the PTX executor tests its own windows, whose extents differ; covered with real addresses by isspacep.rs",
    ),
];

/// Forms the PTX executor does not run (every_form.rs's `NOT_RUN`, the executor's own
/// coverage list): nothing to compare, and wgmma's 100-register kernels are most of the time.
const NOT_RUN: &[(&str, &str)] = &[
    ("wgmma", ""),
    ("tcgen05", ""),
    ("cp", ".tensor"),
    ("cp", ".prefetch"),
    ("cp", ".reduce"),
    ("cp", ".cp_mask"),
    ("cp", ".multicast::cluster"),
    ("cp", ".L2::cache_hint"),
    ("cp", ".shared::cluster.shared::cta"),
    ("mbarrier", ".shared::cluster"),
    ("wmma", ".satfinite"),
];

/// Rows whose translated kernels may all fault on both machines (so no value is compared):
/// (row key text, reason). Every other row with a translated kernel must compare values at
/// least once, or its agreement says nothing about its results.
const ALL_FAULT: &[(&str, &str)] = &[
    (
        "trap: trap;",
        "trap aborts the kernel by definition: both machines must fault, and with the same kind (trap)",
    ),
    (
        "fptr",
        "indirect calls: the executor's function addresses are not the translation's, so the pointers are drawn from no targets and every call faults (bad call target) on both; indirect_calls.rs compares real targets",
    ),
];

/// Faults the translation raises as `BPT.TRAP` (Fermi has no fault of that kind): (the PTX
/// executor's fault kind, the reason, docs/spec-notes.md). Any other pair of kinds disagrees.
const TRAPPED: &[(&str, &str)] = &[
    (
        "branch index",
        "brx.idx past its .branchtargets list: `@P6 BPT.TRAP` before the BRX (spec-notes: brx.idx with an index past its list)",
    ),
    (
        "bad call target",
        "an indirect call no function of the prototype answers traps (spec-notes: an indirect call no function can answer traps)",
    ),
    (
        "read-only",
        "a store to a kernel's .param space (read-only, PTX Table 5) traps in translated code",
    ),
];

fn faults_agree(ptx: &str, fermi: &str) -> bool {
    ptx == fermi || fermi == "trap" && TRAPPED.iter().any(|(k, _)| *k == ptx)
}

/// Mismatches not yet fixed: (opcode, text the instruction line contains, what is wrong).
const KNOWN_WRONG: &[(&str, &str, &str)] = &[];

fn entry<'a>(list: &'a [(&'a str, &'a str, &'a str)], form: &Form, line: &str) -> Option<usize> {
    list.iter()
        .position(|(op, text, _)| *op == form.opcode.name() && line.contains(text))
}

/// The two buffers a run leaves (outputs, scratch), or the kind of fault it stopped with
/// (`form_kernels::fault_kind`) and the message.
#[derive(Debug)]
enum Outcome {
    Done(Vec<Vec<u8>>),
    Fault { kind: String, message: String },
}

impl Outcome {
    fn fault(message: String) -> Outcome {
        Outcome::Fault {
            kind: fault_kind(&message),
            message: message.chars().take(300).collect(),
        }
    }
}

fn buffer(bytes: Vec<u8>) -> ParamSpec {
    ParamSpec::Buffer {
        ty: ElemType::U8,
        bytes,
    }
}

#[derive(Default)]
struct Stats {
    compared: usize,
    untranslated: usize,
    /// Translations the Fermi executor ran out of steps on (a mismatch unless the PTX run
    /// ran out of steps too).
    step_budget: usize,
    /// Per row: translated kernels, and those whose outcomes were compared values (both
    /// machines ran to the end), not faults.
    translated_per_row: BTreeMap<String, usize>,
    values_per_row: BTreeMap<String, usize>,
    /// Per row: instances that disagree and the first difference.
    mismatches: BTreeMap<String, (usize, String)>,
    /// Per listed entry: instances it excused.
    excused_differs: BTreeMap<usize, usize>,
    excused_wrong: BTreeMap<usize, usize>,
}

fn run_row(form: &'static Form, rng: &mut Lcg, per_row: usize, st: &mut Stats) {
    let budget = instance_budget(form, per_row);
    for text in instance_texts(form).take(budget) {
        let names: Vec<&str> = form.operands.iter().map(|o| o.name).collect();
        let text = format!("// operands: {}\n{text}", names.join(" "));
        let line = text.lines().rev().nth(3).unwrap_or("").trim().to_string();
        if NOT_RUN
            .iter()
            .any(|(op, t)| *op == form.opcode.name() && line.contains(t))
        {
            continue;
        }
        for case in 0..2 {
            let guarded = case == 1 && !unguarded_only(form);
            let contended = case == 1 && matches!(form.opcode, Opcode::Atom | Opcode::Red);
            let Some(k) = rewrite(&text, guarded, contended, threads_for(form)) else {
                continue;
            };
            let file = diag::SourceFile::new("runs.ptx", k.text.clone());
            let (module, diags) = check::check_source(&file);
            let Some(module) = module.filter(|_| !diag::has_errors(&diags)) else {
                continue;
            };
            // A panic in translation is a defect of its own ("no panics on any input").
            let compiled = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                codegen::compile_module(&module, &file)
            }));
            let compiled = match compiled {
                Ok(Ok(c)) => {
                    *st.translated_per_row.entry(form.key()).or_default() += 1;
                    c
                }
                Ok(Err(_)) => {
                    st.untranslated += 1;
                    continue;
                }
                Err(_) => {
                    let msg = format!("`{line}`: the translator panicked");
                    st.mismatches.entry(form.key()).or_insert((0, msg)).0 += 1;
                    continue;
                }
            };
            // Function pointers of `call` rows: the executor's addresses are not the
            // translation's, so those rows' values are drawn from no targets (address 0).
            let (input, scr) = inputs(&k, rng, &[]);
            let spec = LaunchSpec {
                kernel: Some("k".into()),
                grid: [1, 1, 1],
                block: [k.threads as u32, 1, 1],
                shared_bytes: 0,
                params: vec![
                    buffer(input.clone()),
                    buffer(vec![0; input.len()]),
                    buffer(scr),
                ],
                textures: (0..TEXTURE_UNITS).map(texture).collect(),
            };
            let opts = exec::RunOptions {
                threads: 1,
                max_steps: 100_000,
                ..exec::RunOptions::default()
            };
            let ptx = match exec::run(&module, &file, &spec, &opts) {
                Ok(r) => Outcome::Done(r.buffers.iter().skip(1).map(|b| b.bytes()).collect()),
                Err(e) => Outcome::fault(e.to_string()),
            };
            let fopts = fermi_exec::Options {
                threads: 1,
                max_steps: 4_000_000,
                progress: None,
            };
            let sass = match fermi_exec::run_module(&compiled.cubin, &spec, &fopts) {
                Ok(r) => Outcome::Done(r.buffers.iter().skip(1).map(|b| b.bytes()).collect()),
                // The kind alone (not the faulting instruction's text, which may read
                // `BPT.TRAP` for any kind).
                Err(fermi_exec::RunError::Fault(f)) => {
                    if matches!(f.kind, fermi_exec::FaultKind::StepBudget { .. }) {
                        st.step_budget += 1;
                    }
                    Outcome::Fault {
                        kind: fault_kind(&f.kind.to_string()),
                        message: f.to_string().chars().take(300).collect(),
                    }
                }
                Err(e) => Outcome::fault(e.to_string()),
            };
            st.compared += 1;
            let agree = match (&ptx, &sass) {
                (Outcome::Done(a), Outcome::Done(b)) => {
                    *st.values_per_row.entry(form.key()).or_default() += 1;
                    a == b
                }
                (Outcome::Fault { kind: a, .. }, Outcome::Fault { kind: b, .. }) => {
                    faults_agree(a, b)
                }
                _ => false,
            };
            if agree {
                continue;
            }
            if let Some(i) = entry(DIFFERS, form, &line) {
                *st.excused_differs.entry(i).or_default() += 1;
                continue;
            }
            if let Some(i) = entry(KNOWN_WRONG, form, &line) {
                *st.excused_wrong.entry(i).or_default() += 1;
                continue;
            }
            let msg = describe(&line, &k, &input, &ptx, &sass, guarded, contended);
            st.mismatches.entry(form.key()).or_insert((0, msg)).0 += 1;
        }
    }
}

/// The texture bound to `unit` on both machines: the oracle differential test's
/// (`form_kernels::texture_words`), as a launch spec's inline texels.
fn texture(unit: u32) -> exec::TextureSpec {
    exec::TextureSpec {
        bind: exec::TextureBind::Unit(unit),
        // The launch reads only `dims`; a 2-D array names the same [W, H, layers] extents.
        geometry: exec::Geometry::A2d,
        ty: ElemType::U32,
        channels: 4,
        dims: TEXTURE_DIMS,
        source: exec::TexelSource::Inline(texture_words(unit)),
    }
}

/// The first differing register of the first differing lane, with the lane's inputs.
fn describe(
    line: &str,
    k: &form_kernels::Kernel,
    input: &[u8],
    ptx: &Outcome,
    sass: &Outcome,
    guarded: bool,
    contended: bool,
) -> String {
    let mut s = format!("`{line}` (guarded: {guarded}, contended: {contended})\n");
    let word = |b: &[u8], at: usize| {
        b.get(at..at + 8)
            .and_then(|w| w.try_into().ok())
            .map_or(0, u64::from_le_bytes)
    };
    match (ptx, sass) {
        (Outcome::Done(p), Outcome::Done(f)) => {
            for lane in 0..k.threads {
                let base = lane * k.stride as usize;
                let mut regs: Vec<(String, usize)> = k
                    .compared
                    .iter()
                    .map(|(n, _, o)| (n.clone(), base + *o as usize))
                    .collect();
                if k.has_carry {
                    regs.push(("carry".into(), base + k.stride as usize - 16));
                }
                for (name, at) in &regs {
                    if word(&p[0], *at) != word(&f[0], *at) {
                        let ins: Vec<String> = k
                            .compared
                            .iter()
                            .map(|(n, _, o)| format!("{n}={:#x}", word(input, base + *o as usize)))
                            .collect();
                        let guard = word(input, base + k.stride as usize - 8) & 1;
                        let _ = writeln!(
                            s,
                            "    lane {lane} {name}: PTX {:#x}, Fermi {:#x}; inputs {} guard {guard}",
                            word(&p[0], *at),
                            word(&f[0], *at),
                            ins.join(" ")
                        );
                        return s;
                    }
                }
            }
            if let Some(at) = p[1].iter().zip(&f[1]).position(|(a, b)| a != b) {
                let _ = writeln!(
                    s,
                    "    scratch byte {at}: PTX {:#x}, Fermi {:#x}",
                    p[1][at], f[1][at]
                );
            }
        }
        _ => {
            let short = |o: &Outcome| match o {
                Outcome::Done(_) => "ran to the end".to_string(),
                Outcome::Fault { kind, message } => format!("faulted ({kind}): {message}"),
            };
            let _ = writeln!(s, "    PTX {}\n    Fermi {}", short(ptx), short(sass));
        }
    }
    s.chars().take(1500).collect()
}

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

#[test]
fn every_translated_form_agrees_with_the_executor() {
    let seed = env_u64("PTXVM_RUNS_SEED", 0x5eed_2525);
    let per_row = env_u64("PTXVM_RUNS_PER_ROW", PER_ROW as u64) as usize;
    let mut rng = Lcg(seed);
    let mut st = Stats::default();
    let only = std::env::var("PTXVM_RUNS_ROW").ok();
    for form in isa::all_forms() {
        if only
            .as_ref()
            .is_some_and(|r| !form.key().contains(r.as_str()))
        {
            continue;
        }
        let t = std::time::Instant::now();
        run_row(form, &mut rng, per_row, &mut st);
        if std::env::var("PTXVM_RUNS_TIME").is_ok() && t.elapsed().as_millis() > 300 {
            eprintln!("slow row {:.80}: {:?}", form.key(), t.elapsed());
        }
    }
    eprintln!(
        "seed {seed:#x}: {} kernels compared, {} not translated, {} past the Fermi step budget",
        st.compared, st.untranslated, st.step_budget
    );
    for (i, (op, text, _)) in DIFFERS.iter().enumerate() {
        match st.excused_differs.get(&i) {
            Some(n) => eprintln!("differs as listed: {op} `{text}`: {n} kernels"),
            None => eprintln!("stale DIFFERS entry (no kernel disagreed): {op} `{text}`"),
        }
    }
    for (i, (op, text, _)) in KNOWN_WRONG.iter().enumerate() {
        match st.excused_wrong.get(&i) {
            Some(n) => eprintln!("known wrong: {op} `{text}`: {n} kernels"),
            None => eprintln!("stale KNOWN_WRONG entry (now agrees): {op} `{text}`"),
        }
    }
    let mut report = String::new();
    for (row, (n, m)) in &st.mismatches {
        let _ = writeln!(report, "[{n} kernels] {row}\n    {m}");
    }
    let mut faulting = String::new();
    for (row, n) in &st.translated_per_row {
        let excused = ALL_FAULT.iter().any(|(t, _)| row.contains(t));
        if !excused && !st.values_per_row.contains_key(row) {
            let _ = writeln!(faulting, "[{n} kernels] {row}");
        }
    }
    assert!(st.compared > 0, "nothing compared");
    assert!(
        faulting.is_empty(),
        "rows whose every translated kernel faulted on a machine (no value compared):\n{faulting}"
    );
    assert!(
        st.mismatches.is_empty(),
        "{} rows translate to code that disagrees with the executor:\n{report}",
        st.mismatches.len()
    );
}

/// The rows [`NOT_RUN`] skips are still translated by `compile` when a module holds them: they
/// must be refused, never panic. `wgmma`'s kernels read and write up to 128 registers in one
/// instruction, and under a guard each is reused, past the 32 operands `regalloc2` can name
/// as reused (a debug assertion, a wrong constraint in release builds).
#[test]
fn wgmma_with_many_accumulators_is_refused_without_a_panic() {
    let mut tried = 0;
    for form in isa::all_forms()
        .iter()
        .filter(|f| f.opcode == Opcode::Wgmma && f.operands.len() > 3)
        .filter(|f| f.syntax.contains("d32,"))
        .take(4)
    {
        let Some(text) = instance_texts(form).next() else {
            continue;
        };
        let names: Vec<&str> = form.operands.iter().map(|o| o.name).collect();
        let text = format!("// operands: {}\n{text}", names.join(" "));
        // Guarded: a guarded definition keeps the old value, so it reuses its register.
        let Some(k) = rewrite(&text, true, false, threads_for(form)) else {
            continue;
        };
        let file = diag::SourceFile::new("wgmma.ptx", k.text.clone());
        let (module, diags) = check::check_source(&file);
        let Some(module) = module.filter(|_| !diag::has_errors(&diags)) else {
            continue;
        };
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            codegen::compile_module(&module, &file).is_err()
        }));
        assert!(
            matches!(r, Ok(true)),
            "{}: the translator must refuse it without a panic",
            form.key()
        );
        tried += 1;
    }
    assert!(
        tried > 0,
        "no wgmma row with more than 32 accumulators checked"
    );
}
