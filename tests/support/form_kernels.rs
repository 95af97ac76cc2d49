//! PTX kernels around one instruction instance, with inputs: the oracle's differential test
//! (executor against the reference interpreter) and the translator's every_form_runs test
//! (executor against the Fermi executor) build the same kernels from the same instances.
//!
//! An instance (from `instances.rs`, with a first line `// operands: <the row's operand
//! names>`) is rewritten by [`rewrite`] so every register starts from a per-lane value read
//! from an input buffer, the instruction runs (optionally under a per-lane guard), and every
//! register, the carry flag of carry-chain rows, and a scratch memory image (global, and the
//! shared and local slots the instruction can reach) are stored to an output buffer.
//! [`inputs`] draws the buffers: edge values and random bits.
//!
//! Include with `#[path = "../../../tests/support/form_kernels.rs"] mod form_kernels;` next
//! to `mod instances;` (this file uses `crate::instances::Lcg`).
#![allow(dead_code)]

use crate::instances::Lcg;
use isa::{Form, Opcode};
use std::fmt::Write;

/// Threads of the CTA an instance runs in: one warp, or two for the barrier and warp-collective
/// rows (so a collective that mixed warps, or a barrier that completed early, shows).
pub const LANES: usize = 32;
pub const CTA_OF_TWO_WARPS: usize = 64;

pub fn threads_for(form: &Form) -> usize {
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
pub const SLOT: u64 = 64;

/// One declared register of the instance: name and declaration type.
pub struct Decl {
    pub name: String,
    pub ty: String,
}

pub fn decls_of(text: &str) -> Vec<Decl> {
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
pub fn bits_type(ty: &str) -> &str {
    match ty {
        ".f64" | ".u64" | ".s64" => ".b64",
        ".f32" | ".u32" | ".s32" => ".b32",
        ".u16" | ".s16" | ".f16" => ".b16",
        t => t,
    }
}

/// An edge value or random bits for a register of `ty`.
pub fn value(rng: &mut Lcg, ty: &str) -> u64 {
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

pub struct Kernel {
    pub text: String,
    /// Registers that take one value for the whole warp (membermasks, barrier ids and
    /// counts, branch indices), with the choices they draw from.
    pub uniform: Vec<(String, &'static [u64])>,
    /// Registers whose values are compared (address registers are inputs only).
    pub compared: Vec<(String, String, u64)>,
    /// Byte stride of one lane's input/output record.
    pub stride: u64,
    pub has_carry: bool,
    /// Threads of the CTA (see [`threads_for`]).
    pub threads: usize,
}

/// The instance rewritten to load every register, run the instruction, store everything.
pub fn rewrite(text: &str, guarded: bool, contended: bool, threads: usize) -> Option<Kernel> {
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
pub fn form_operands(text: &str) -> Vec<&str> {
    text.lines()
        .find_map(|l| l.strip_prefix("// operands: "))
        .map(|l| l.split(' ').collect())
        .unwrap_or_default()
}

/// The textures both machines have bound: units 0..4, each 4 x 4 x 12 texels (a 2-cube
/// array for the cube geometries) of 4 channels, every word distinct, so a wrong texel or
/// channel shows in the result.
pub const TEXTURE_UNITS: u32 = 4;
pub const TEXTURE_DIMS: [u32; 3] = [4, 4, 12];
pub fn texture_words(unit: u32) -> Vec<u32> {
    let n: u32 = TEXTURE_DIMS.iter().product::<u32>() * 4;
    (0..n)
        .map(|k| (unit << 24 | k).wrapping_mul(0x9e37_79b9))
        .collect()
}

/// Whether the row's instances run only unguarded. Guards give partial masks to every
/// instruction but the CTA barriers (a lane that skips one never arrives) and `shfl` (a source
/// lane that skipped it has undefined contents). The `.aligned` matrix instructions likewise
/// read the registers of every lane (`wmma.load`/`wmma.store` too: `.aligned` makes a guard
/// that differs between lanes undefined, and overlapping stores of lanes that split would
/// race).
pub fn unguarded_only(form: &Form) -> bool {
    matches!(
        form.opcode,
        Opcode::Shfl
            | Opcode::Barrier
            | Opcode::Mma
            | Opcode::Ldmatrix
            | Opcode::Stmatrix
            | Opcode::Movmatrix
    ) || form.opcode == Opcode::Bar && !form.syntax.starts_with("bar.warp")
        || form.opcode == Opcode::Wmma
}

/// The input record buffer (`pin`: per lane, every compared register's value, then the carry
/// and guard words) and the scratch image (`pscr`: one [`SLOT`] per lane and the contended
/// slot). Warp-uniform registers take one value from their choices (an empty choice list means
/// `call_targets`); the others an edge value or random bits of their type.
pub fn inputs(k: &Kernel, rng: &mut Lcg, call_targets: &[u64]) -> (Vec<u8>, Vec<u8>) {
    let mut input = vec![0u8; (k.stride * k.threads as u64) as usize];
    let fixed: Vec<(String, u64)> = k
        .uniform
        .iter()
        .map(|(r, c)| {
            let c = if c.is_empty() { call_targets } else { c };
            (
                r.clone(),
                c.get(rng.next() % c.len().max(1)).copied().unwrap_or(0),
            )
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
    (input, scr)
}

/// A fault message reduced to its kind, so two machines' faults compare: the executor's
/// against the oracle's (oracle differential test), the executor's against the Fermi
/// executor's `FaultKind` text (every_form_runs). Unknown messages keep their text, so they
/// agree only with the same message.
pub fn fault_kind(msg: &str) -> String {
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
    if m.contains("is not bound") || m.contains("no texture bound") {
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
