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

use instances::{instance_budget, instance_texts, Lcg, CHECKED_PER_ROW};
use isa::{Form, Opcode};
use std::collections::BTreeMap;
use std::fmt::Write;

/// Threads of the CTA an instance runs in: one warp, or two for the barrier and warp-collective
/// rows (so a collective that mixed warps, or a barrier that completed early, shows).
const LANES: usize = 32;
const CTA_OF_TWO_WARPS: usize = 64;

fn threads_for(form: &Form) -> usize {
    let two = matches!(
        form.opcode,
        Opcode::Barrier
            | Opcode::Vote
            | Opcode::Shfl
            | Opcode::Match
            | Opcode::Redux
            | Opcode::Activemask
    ) || form.opcode == Opcode::Bar;
    if two {
        CTA_OF_TWO_WARPS
    } else {
        LANES
    }
}

/// Bytes of scratch memory per lane (the widest access is a `.v4.b64`/`.v8.b32`: 32 bytes).
const SLOT: u64 = 64;

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

/// One declared register of the instance: name and declaration type.
struct Decl {
    name: String,
    ty: String,
}

fn decls_of(text: &str) -> Vec<Decl> {
    text.lines()
        .filter_map(|l| {
            let l = l.trim();
            let rest = l.strip_prefix(".reg ")?;
            let (ty, name) = rest.trim_end_matches(';').split_once(' ')?;
            Some(Decl {
                name: name.to_string(),
                ty: ty.to_string(),
            })
        })
        .collect()
}

/// The bit-size type of a register declaration type.
fn bits_type(ty: &str) -> &str {
    match ty {
        ".f64" | ".u64" | ".s64" => ".b64",
        ".f32" | ".u32" | ".s32" => ".b32",
        ".u16" | ".s16" | ".f16" => ".b16",
        t => t,
    }
}

/// An edge value or random bits for a register of `ty`.
fn value(rng: &mut Lcg, ty: &str) -> u64 {
    let r = (rng.next() as u64) << 32 | rng.next() as u64;
    if rng.next().is_multiple_of(2) {
        return r;
    }
    let ints: &[u64] = &[
        0,
        1,
        u64::MAX,
        0x80,
        0x7f,
        0xff,
        0x8000,
        0x7fff,
        0xffff,
        0x8000_0000,
        0x7fff_ffff,
        0xffff_ffff,
        0x8000_0000_0000_0000,
        0x7fff_ffff_ffff_ffff,
        2,
        31,
        32,
        33,
        63,
        64,
    ];
    let f32s: &[u32] = &[
        0,
        0x8000_0000,
        0x7f80_0000,
        0xff80_0000,
        0x7fc0_0000,
        0x7fa0_0000,
        1,
        0x007f_ffff,
        0x0080_0000,
        0x7f7f_ffff,
        0x3f80_0000,
        0x3f80_0001,
        0x3f7f_ffff,
        0xbf80_0000,
        0x4000_0000,
    ];
    let f64s: &[u64] = &[
        0,
        0x8000_0000_0000_0000,
        0x7ff0_0000_0000_0000,
        0xfff0_0000_0000_0000,
        0x7ff8_0000_0000_0000,
        0x7ff4_0000_0000_0000,
        1,
        0x000f_ffff_ffff_ffff,
        0x0010_0000_0000_0000,
        0x7fef_ffff_ffff_ffff,
        0x3ff0_0000_0000_0000,
        0x3ff0_0000_0000_0001,
        0x3fef_ffff_ffff_ffff,
        0xbff0_0000_0000_0000,
    ];
    let k = rng.next();
    match ty {
        ".f32" => u64::from(f32s[k % f32s.len()]),
        ".f64" => f64s[k % f64s.len()],
        ".pred" => r & 1,
        _ => ints[k % ints.len()],
    }
}

struct Kernel {
    text: String,
    /// Registers that take one value for the whole warp (membermasks, barrier ids and
    /// counts, branch indices), with the choices they draw from.
    uniform: Vec<(String, &'static [u64])>,
    /// Registers whose values are compared (address registers are inputs only).
    compared: Vec<(String, String, u64)>,
    /// Byte stride of one lane's input/output record.
    stride: u64,
    has_carry: bool,
    /// Threads of the CTA (see [`threads_for`]).
    threads: usize,
}

/// The instance rewritten to load every register, run the instruction, store everything.
fn rewrite(text: &str, guarded: bool, contended: bool, threads: usize) -> Option<Kernel> {
    let lines: Vec<&str> = text.lines().collect();
    let end = lines.iter().position(|l| *l == "L_end:")?;
    let inst = lines.get(end.checked_sub(1)?)?.trim();
    let entry = lines.iter().position(|l| l.contains(".entry k()"))?;
    let decls = decls_of(text);
    if decls.iter().any(|d| d.ty == ".b128") {
        return None;
    }
    let wide = text.contains(".address_size 64");
    let v1 = text.lines().any(|l| l.starts_with(".version 1."));
    let (aty, abytes) = if wide { (".u64", 8) } else { (".u32", 4) };
    let head = inst.split_whitespace().next().unwrap_or("");
    let space = [".global", ".shared", ".local", ".const", ".param"]
        .into_iter()
        .find(|s| head.contains(s));
    // Registers inside `[...]` are addresses.
    let addr_regs: Vec<String> = inst
        .split('[')
        .skip(1)
        .filter_map(|s| s.split(']').next())
        .flat_map(|s| s.split(|c: char| c == '+' || c == ',' || c.is_whitespace()))
        .filter(|s| s.starts_with("%v"))
        .map(str::to_string)
        .collect();
    // Operands whose sensible values are warp-uniform, by the row's operand names.
    let operands: Vec<&str> = inst
        .split_once(char::is_whitespace)
        .map(|x| x.1)
        .unwrap_or("")
        .trim_end_matches(';')
        .split(", ")
        .collect();
    let mut uniform: Vec<(String, &'static [u64])> = Vec::new();
    for (k, role) in form_operands(text).iter().enumerate() {
        let Some(reg) = operands
            .get(k)
            .map(|r| r.trim_start_matches('[').trim_end_matches(']'))
            .filter(|r| r.starts_with("%v"))
        else {
            continue;
        };
        let choices: &'static [u64] = match (head.split('.').next().unwrap_or(""), *role) {
            (_, "membermask") => &[
                0xffff_ffff,
                0xffff_ffff,
                0xffff_ffff,
                0x0000_ffff,
                0x5555_5555,
                0,
            ],
            ("bar" | "barrier", "a") => &[0, 1, 15],
            ("bar" | "barrier", "b") => &[32, 64],
            ("brx", "index") => &[0, 0, 0, 1],
            // Texture handles: the bound units and one unbound.
            ("tex" | "txq", "a") => &[0, 1, 2, 3, TEXTURE_UNITS as u64],
            // Function pointers: filled in from the checked module (every function's address
            // and one that is none), see `call_targets`.
            ("call", "fptr") => &[],
            _ => continue,
        };
        uniform.push((reg.to_string(), choices));
    }
    let has_carry = head.contains(".cc")
        || head.starts_with("addc")
        || head.starts_with("subc")
        || head.starts_with("madc");
    let mut b = String::new();
    for l in &lines[..entry] {
        let _ = writeln!(b, "{l}");
    }
    let _ = writeln!(
        b,
        "{} k(.param {aty} pin, .param {aty} pout, .param {aty} pscr)\n{{",
        lines[entry].replace(" k()", "")
    );
    let body_start = entry + 2;
    for l in &lines[body_start..end - 1] {
        let _ = writeln!(b, "{l}");
    }
    let _ = writeln!(
        b,
        "\t.reg {aty} %h_in, %h_out, %h_scr, %h_a, %h_c;\n\t.reg .u32 %h_t, %h_w;\n\t.reg .b64 %h_x;\n\t.reg .pred %h_p, %h_g;\n\t.shared .align 16 .b8 h_sh[{}];\n\t.local .align 16 .b8 h_lo[{SLOT}];\n\t.const .align 16 .b8 h_cbuf[{}];",
        SLOT * (threads as u64 + 1),
        SLOT * threads as u64
    );
    let tid = if v1 {
        "\tcvt.u32.u16 %h_t, %tid.x;"
    } else {
        "\tmov.u32 %h_t, %tid.x;"
    };
    let _ = writeln!(b, "{tid}");
    let mut compared = Vec::new();
    let mut off = 0u64;
    for d in &decls {
        if addr_regs.contains(&d.name) {
            continue;
        }
        compared.push((d.name.clone(), d.ty.clone(), off));
        off += 8;
    }
    let carry_off = off;
    let guard_off = off + 8;
    let stride = off + 16;
    let lane_ptr = |b: &mut String, param: &str, reg: &str, per: u64| {
        let _ = writeln!(b, "\tld.param{aty} {reg}, [{param}];");
        if wide {
            let _ = writeln!(
                b,
                "\tmad.wide.u32 %h_x, %h_t, {per}, 0;\n\tadd.u64 {reg}, {reg}, %h_x;"
            );
        } else {
            let _ = writeln!(b, "\tmad.lo.u32 {reg}, %h_t, {per}, {reg};");
        }
    };
    lane_ptr(&mut b, "pin", "%h_in", stride);
    lane_ptr(&mut b, "pout", "%h_out", stride);
    lane_ptr(&mut b, "pscr", "%h_scr", SLOT);
    // Contended atomics all target the slot past the lanes' slots, which no lane copies.
    let _ = writeln!(
        b,
        "\tld.param{aty} %h_c, [pscr];\n\tadd{aty} %h_c, %h_c, {};",
        SLOT * threads as u64
    );
    // Shared and local slots start as a copy of the lane's global scratch.
    let copy = |b: &mut String, from: &str, to: &str, fsp: &str, tsp: &str| {
        for k in 0..SLOT / 8 {
            let _ = writeln!(
                b,
                "\tld{fsp}.b64 %h_x, [{from}+{}];\n\tst{tsp}.b64 [{to}+{}], %h_x;",
                k * 8,
                k * 8
            );
        }
    };
    let slot_of = |b: &mut String, var: &str, reg: &str, shared_slot: bool| {
        let _ = writeln!(b, "\tmov{aty} {reg}, {var};");
        if !contended || shared_slot {
            if wide {
                let _ = writeln!(
                    b,
                    "\tmad.wide.u32 %h_x, %h_t, {SLOT}, 0;\n\tadd.u64 {reg}, {reg}, %h_x;"
                );
            } else {
                let _ = writeln!(b, "\tmad.lo.u32 {reg}, %h_t, {SLOT}, {reg};");
            }
        }
    };
    slot_of(&mut b, "h_sh", "%h_a", true);
    copy(&mut b, "%h_scr", "%h_a", ".global", ".shared");
    copy(&mut b, "%h_scr", "h_lo", ".global", ".local");
    for (name, ty, o) in &compared {
        if ty == ".pred" {
            let _ = writeln!(
                b,
                "\tld.global.u32 %h_w, [%h_in+{o}];\n\tsetp.ne.u32 {name}, %h_w, 0;"
            );
        } else {
            // Bit-size loads and stores: `.f64` ones need sm_13, and the row may target less.
            let _ = writeln!(b, "\tld.global{} {name}, [%h_in+{o}];", bits_type(ty));
        }
    }
    for r in &addr_regs {
        match space {
            Some(".shared") if contended => {
                let _ = writeln!(
                    b,
                    "\tmov{aty} {r}, h_sh;\n\tadd{aty} {r}, {r}, {};",
                    SLOT * threads as u64
                );
            }
            Some(".shared") => slot_of(&mut b, "h_sh", r, false),
            Some(".local") => {
                let _ = writeln!(b, "\tmov{aty} {r}, h_lo;");
            }
            Some(".const") => slot_of(&mut b, "h_cbuf", r, false),
            Some(".param") => {
                let _ = writeln!(b, "\tmov{aty} {r}, 0;");
            }
            _ if contended => {
                let _ = writeln!(b, "\tmov{aty} {r}, %h_c;");
            }
            _ => {
                let _ = writeln!(b, "\tmov{aty} {r}, %h_scr;");
            }
        }
    }
    if has_carry {
        let _ = writeln!(
            b,
            "\tld.global.u32 %h_w, [%h_in+{carry_off}];\n\tadd.cc.u32 %h_w, %h_w, -1;"
        );
    }
    let _ = writeln!(
        b,
        "\tld.global.u32 %h_w, [%h_in+{guard_off}];\n\tsetp.ne.u32 %h_g, %h_w, 0;"
    );
    let g = if guarded { "@%h_g " } else { "" };
    let _ = writeln!(b, "\t{g}{inst}\nL_end:");
    if has_carry {
        let _ = writeln!(
            b,
            "\taddc.u32 %h_w, 0, 0;\n\tst.global.u32 [%h_out+{carry_off}], %h_w;"
        );
    }
    for (name, ty, o) in &compared {
        if ty == ".pred" {
            let _ = writeln!(
                b,
                "\tselp.u32 %h_w, 1, 0, {name};\n\tst.global.u32 [%h_out+{o}], %h_w;"
            );
        } else {
            let _ = writeln!(b, "\tst.global{} [%h_out+{o}], {name};", bits_type(ty));
        }
    }
    copy(&mut b, "%h_a", "%h_scr", ".shared", ".global");
    copy(&mut b, "h_lo", "%h_scr", ".local", ".global");
    let _ = writeln!(b, "\tret;\n}}");
    let _ = abytes;
    Some(Kernel {
        text: b,
        uniform,
        compared,
        stride,
        has_carry,
        threads,
    })
}

/// The operand names of the row an instance was made from (recorded by the generator in the
/// first comment line of the kernel).
fn form_operands(text: &str) -> Vec<&str> {
    text.lines()
        .find_map(|l| l.strip_prefix("// operands: "))
        .map(|l| l.split(' ').collect())
        .unwrap_or_default()
}

/// The textures both machines have bound: units 0..4, each 4 x 4 x 12 texels (a 2-cube
/// array for the cube geometries) of 4 channels, every word distinct, so a wrong texel or
/// channel shows in the result.
const TEXTURE_UNITS: u32 = 4;
const TEXTURE_DIMS: [u32; 3] = [4, 4, 12];
fn texture_words(unit: u32) -> Vec<u32> {
    let n: u32 = TEXTURE_DIMS.iter().product::<u32>() * 4;
    (0..n)
        .map(|k| (unit << 24 | k).wrapping_mul(0x9e37_79b9))
        .collect()
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

/// The executor's fault message reduced to a kind comparable with the oracle's.
fn fault_kind(msg: &str) -> String {
    let m = msg.to_lowercase();
    if m.contains("membermask") {
        return "membermask".into();
    }
    if m.contains("past the end") {
        return "branch index".into();
    }
    if m.contains("can never complete") || m.contains("deadlock") {
        return "deadlock".into();
    }
    if m.contains("not a function") {
        return "bad call target".into();
    }
    if m.contains("read-only") {
        return "read-only".into();
    }
    if m.contains("is not bound") {
        return "unbound texture".into();
    }
    for k in ["misaligned", "out of bounds", "trap", "step budget"] {
        if m.contains(k) {
            return k.to_string();
        }
    }
    if m.contains("outside") || m.contains("bounds") {
        return "out of bounds".into();
    }
    format!("other: {msg}")
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
        // Guards give partial masks to every instruction but the CTA barriers (a lane
        // that skips one never arrives) and `shfl` (a source lane that skipped it has
        // undefined contents).
        // The `.aligned` matrix instructions likewise read the registers of every lane
        // (`wmma.load`/`wmma.store` too: `.aligned` makes a guard that differs between
        // lanes undefined, and overlapping stores of lanes that split would race).
        let unguarded = matches!(
            form.opcode,
            Opcode::Shfl
                | Opcode::Barrier
                | Opcode::Mma
                | Opcode::Ldmatrix
                | Opcode::Stmatrix
                | Opcode::Movmatrix
        ) || form.opcode == Opcode::Bar && !form.syntax.starts_with("bar.warp")
            || form.opcode == Opcode::Wmma;
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
            let mut input = vec![0u8; (k.stride * k.threads as u64) as usize];
            let targets = call_targets(&module);
            let fixed: Vec<(String, u64)> = k
                .uniform
                .iter()
                .map(|(r, c)| {
                    let c = if c.is_empty() { &targets[..] } else { c };
                    (r.clone(), c[rng.next() % c.len()])
                })
                .collect();
            for lane in 0..k.threads {
                let base = lane * k.stride as usize;
                for (name, ty, o) in &k.compared {
                    let v = match fixed.iter().find(|(r, _)| r == name) {
                        Some((_, v)) => *v,
                        None => value(rng, ty),
                    };
                    let o = base + *o as usize;
                    input[o..o + 8].copy_from_slice(&v.to_le_bytes());
                }
                let tail = base + k.stride as usize - 16;
                input[tail] = (rng.next() % 2) as u8;
                input[tail + 8] = (rng.next() % 2) as u8;
            }
            let scr: Vec<u8> = (0..SLOT as usize * (k.threads + 1))
                .map(|_| rng.next() as u8)
                .collect();
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
