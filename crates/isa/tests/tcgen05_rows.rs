//! `src/table/tcgen05_mma.isa` is generated here from the tables of PTX ISA 8.x §9.7.16 for
//! the `tcgen05` instructions whose forms multiply out: `tcgen05.mma` (dense or sparse x CTA
//! group x source of A x optional disable-output-lane and scale-input-d operands x kind,
//! §9.7.16.10.9) and
//! `tcgen05.ld`/`.st` (shape x repeat count, which fix the register count, §9.7.16.8.3–4).
//! The forms and gates are the ones ptxas 12.9 accepts (`tests/spec-reject/tcgen05-*.ptx`).
//! Run `PTXVM_BLESS=1 cargo test -p ptxvm-isa --test tcgen05_rows` after changing the tables.

use std::fmt::Write;

/// `{p0, p1, …}` with `n` registers.
fn regs(p: &str, n: u32) -> String {
    let names: Vec<String> = (0..n).map(|i| format!("{p}{i}")).collect();
    format!("{{{}}}", names.join(", "))
}

/// Every `tcgen05` instruction is sm_100 from PTX 8.6, on the family targets that have tensor
/// memory; `.kind::i8` only on sm_100a and sm_101a.
const GATE: &str = "gate sm_100 ptx 8.6 arch sm_100f sm_101f sm_103f\n";
/// ptxas 12.9 refuses scale-input-d with `.kind::f16`/`.kind::tf32` on sm_101 ("Feature
/// 'argument scale-inp-d-imm' not supported on .target 'sm_101a'") and takes it with `.kind::i8`.
const GATE_SCALE: &str = "gate .kind::f16|.kind::tf32 : sm_100 ptx 8.6 arch sm_100f sm_103f\n";
const GATE_I8: &str = "gate .kind::i8 : sm_100 ptx 8.6 arch sm_100a sm_101a\n";
const COLLECTOR_A: &str = ".collector : Collector = { .collector::a::fill, .collector::a::use, \
                           .collector::a::lastuse, .collector::a::discard };\n";
const NEVER_ASHIFT: &str = "never .ashift .collector::a::fill|.collector::a::use|\
                            .collector::a::lastuse|.collector::a::discard : \
                            .ashift shifts A as it is read, which a collector buffer would keep\n";
const MMA_TYPES: &str = "adesc, bdesc : .b64\nidesc : .b32\nenable_d : .pred\n";

/// A's operand and the modifiers that go with its source: a shared-memory descriptor, or
/// tensor memory (which alone admits `.ashift`).
fn a_sources() -> [(&'static str, &'static str, &'static str); 2] {
    [
        ("A from a descriptor", "adesc", ""),
        ("A in tensor memory", "[a]", "{.ashift}"),
    ]
}

/// `.sp` (sparse A) inserts the metadata operand `[sp_meta]` (tensor memory) after B's
/// descriptor and is otherwise the dense form (ptxas 12.9), in every variant.
fn sparse(sp: bool) -> (&'static str, &'static str, &'static str) {
    if sp {
        (".sp", ", [sp_meta]", "sparse A, ")
    } else {
        ("", "", "")
    }
}

fn mma(out: &mut String, sp: bool) {
    let (sp_mod, sp_op, sp_title) = sparse(sp);
    for (cg, lanes) in [(1, 4), (2, 8)] {
        for (title, a, ashift) in a_sources() {
            // The scale-input-d rows first: a register name also fits a vector operand's
            // place (the checker chooses among rows by operand shape, in table order), so
            // `…, idesc, enable_d, scale_d` must be tried before `…, idesc, {lanes}, enable_d`.
            for scale in [true, false] {
                // ptxas 12.9: "Illegal modifier '.kind::f8f6f4' … with 'arg scale-inp-d-imm'";
                // and the sparse `.kind::i8` takes scale-input-d only without the lanes
                // ("Arguments mismatch"). (lanes operand or not, kinds) per group:
                let all = ".kind::f16, .kind::tf32, .kind::f8f6f4, .kind::i8";
                let scaled = ".kind::f16, .kind::tf32, .kind::i8";
                let groups: &[(&[bool], &str)] = match (scale, sp) {
                    (true, true) => &[(&[false], scaled), (&[true], ".kind::f16, .kind::tf32")],
                    (true, false) => &[(&[false, true], scaled)],
                    (false, _) => &[(&[false, true], all)],
                };
                let tail = if scale { ", scale_d" } else { "" };
                let head =
                    format!("tcgen05.mma{sp_mod}.cta_group::{cg}.kind{ashift}{{.collector}}");
                for (with_lanes, kinds) in groups {
                    let _ = write!(
                        out,
                        "\n## PTX ISA 8.x §9.7.16.10.9 tcgen05.mma (.cta_group::{cg}, {sp_title}{title}{}{})\n",
                        if scale { ", scale-input-d" } else { "" },
                        if with_lanes.len() == 1 && with_lanes[0] { ", disable-output-lane" } else { "" },
                    );
                    for &l in *with_lanes {
                        let lanes_op = if l {
                            format!("{}, ", regs("l", lanes))
                        } else {
                            String::new()
                        };
                        let _ = writeln!(
                            out,
                            "{head}  [d], {a}, bdesc{sp_op}, idesc, {lanes_op}enable_d{tail};"
                        );
                    }
                    let _ = write!(
                        out,
                        ".kind : Tcgen05Kind = {{ {kinds} }};\n{COLLECTOR_A}{}{MMA_TYPES}l0 : .b32\n{}\
                         {GATE}{}{GATE_I8}",
                        if ashift.is_empty() { "" } else { NEVER_ASHIFT },
                        if scale { "scale_d : imm .u32\n" } else { "" },
                        if scale { GATE_SCALE } else { "" },
                    );
                }
            }
        }
    }
}

/// The block-scaled kinds: the scale-vector sizes each takes, whether the size may be left
/// out (it is then `.block32`), the PTX version of the kind, and the gates of the sizes.
fn block_scaled() -> [(&'static str, &'static str, bool, &'static str, &'static str); 3] {
    const NAMED_88: &str = "gate .block16|.block32 : ptx 8.8\n";
    const SV_A: &str = "gate .scale_vec::1X|.scale_vec::2X|.scale_vec::4X : \
                        arch sm_100a sm_101a sm_103a\n";
    [
        (
            ".kind::mxf8f6f4",
            ".scale_vec::1X, .block32",
            true,
            "8.6",
            concat!(
                "gate !.scale_vec::1X : ptx 8.8\n",
                "gate .scale_vec::1X|.scale_vec::2X|.scale_vec::4X : ",
                "arch sm_100a sm_101a sm_103a\n"
            ),
        ),
        (
            ".kind::mxf4",
            ".scale_vec::2X, .block32",
            true,
            "8.6",
            concat!(
                "gate !.scale_vec::2X : ptx 8.8\n",
                "gate .scale_vec::1X|.scale_vec::2X|.scale_vec::4X : ",
                "arch sm_100a sm_101a sm_103a\n"
            ),
        ),
        (
            ".kind::mxf4nvf4",
            ".scale_vec::2X, .scale_vec::4X, .block16, .block32",
            false,
            "8.7",
            // Concatenated below: both conditional gates.
            "",
        ),
    ]
    .map(|(k, sv, bare, ptx, gates)| {
        let gates: &'static str = if gates.is_empty() {
            Box::leak(format!("{NAMED_88}{SV_A}").into_boxed_str())
        } else {
            gates
        };
        (k, sv, bare, ptx, gates)
    })
}

fn mma_block_scale(out: &mut String, sp: bool) {
    let (sp_mod, sp_op, sp_title) = sparse(sp);
    for (kind, sizes, bare, ptx, gates) in block_scaled() {
        // ptxas 12.9: "Feature '.kind::mxf4 with .sp modifier' not supported on .target
        // 'sm_100f'": the sparse 4-bit kinds are for the `a` targets.
        let targets = if sp && kind != ".kind::mxf8f6f4" {
            "sm_100a sm_101a sm_103a"
        } else {
            "sm_100f sm_101f sm_103f"
        };
        for (title, a, _) in a_sources() {
            let head = format!("tcgen05.mma{sp_mod}.cta_group{kind}.block_scale");
            let ops = format!("[d], {a}, bdesc{sp_op}, idesc, [scale_a], [scale_b], enable_d;");
            let _ = write!(
                out,
                "\n## PTX ISA 8.x §9.7.16.10.9 tcgen05.mma ({kind}.block_scale, {sp_title}{title})\n"
            );
            if bare {
                let _ = writeln!(out, "{head}{{.collector}}  {ops}");
            }
            let _ = write!(
                out,
                "{head}.sv{{.collector}}  {ops}\n\
                 .cta_group : CtaGroup = {{ .cta_group::1, .cta_group::2 }};\n\
                 .sv : ScaleVec = {{ {sizes} }};\n{COLLECTOR_A}{MMA_TYPES}\
                 gate sm_100 ptx {ptx} arch {targets}\n{gates}"
            );
        }
    }
}

fn mma_ws(out: &mut String, sp: bool) {
    let (sp_mod, sp_op, sp_title) = sparse(sp);
    let kinds = [".kind::f16", ".kind::tf32", ".kind::f8f6f4", ".kind::i8"];
    let collectors: Vec<String> = (0..4)
        .flat_map(|b| {
            ["fill", "use", "lastuse", "discard"].map(|u| format!(".collector::b{b}::{u}"))
        })
        .collect();
    // ptxas 12.9 reads `.ws` only right after `tcgen05.mma` ("Unknown modifier '.ws'" for
    // `tcgen05.mma.sp.ws` or `tcgen05.mma.cta_group::1.ws`); the others go in any order.
    let mut others = vec![".cta_group::1".to_string()];
    others.extend(kinds.iter().map(|k| k.to_string()));
    others.extend(collectors.iter().cloned());
    if sp {
        others.push(".sp".to_string());
    }
    for (title, a, _) in a_sources() {
        let head = format!("tcgen05.mma.ws{sp_mod}.cta_group.kind{{.collector}}");
        let _ = write!(
            out,
            "\n## PTX ISA 8.x §9.7.16.10.9 tcgen05.mma.ws ({sp_title}{title})\n\
             {head}  [d], {a}, bdesc{sp_op}, idesc, enable_d;\n\
             {head}  [d], {a}, bdesc{sp_op}, idesc, enable_d, zero_mask;\n\
             .cta_group : CtaGroup = {{ .cta_group::1 }};\n\
             .kind : Tcgen05Kind = {{ {} }};\n\
             .collector : Collector = {{ {} }};\n{MMA_TYPES}zero_mask : .b64\n{GATE}{GATE_I8}\
             never {}<.ws : ptxas 12.9 reads `.ws` only right after `tcgen05.mma` \
             (write `tcgen05.mma.ws.sp`, not `.sp.ws`)\n",
            kinds.join(", "),
            collectors.join(", "),
            others.join("|"),
        );
    }
}

/// `tcgen05.ld`/`.st` shapes: registers per repeat, and the largest repeat count (ptxas 12.9
/// refuses `.16x128b.x128` and `.16x256b.x64`: more than 128 registers).
const LDST_SHAPES: [(&str, u32, u32); 5] = [
    (".32x32b", 1, 128),
    (".16x64b", 1, 128),
    (".16x128b", 2, 64),
    (".16x256b", 4, 32),
    (".16x32bx2", 1, 128),
];

fn ld_st(out: &mut String) {
    for (shape, per, max) in LDST_SHAPES {
        // `.16x32bx2` takes the immediate offset of its second half after the address.
        let half = if shape == ".16x32bx2" { ", half" } else { "" };
        let mut num = 1;
        while num <= max {
            let r = regs("r", per * num);
            let _ = write!(
                out,
                "\n## PTX ISA 8.x §9.7.16.8.3 tcgen05.ld and §9.7.16.8.4 tcgen05.st ({shape}.x{num})\n\
                 tcgen05.ld.sync.aligned{shape}.num{{.pack::16b}}.b32  {r}, [taddr]{half};\n\
                 tcgen05.st.sync.aligned{shape}.num{{.unpack::16b}}.b32  [taddr]{half}, {r};\n\
                 .num : Tcgen05Num = {{ .x{num} }};\nr0 : .b32\n{}{GATE}",
                if half.is_empty() { "" } else { "half : imm .u32\n" },
            );
            num *= 2;
        }
    }
}

fn generate() -> String {
    let mut out = String::from(
        "// GENERATED by crates/isa/tests/tcgen05_rows.rs from PTX ISA 8.x §9.7.16's tables, as\n\
         // ptxas 12.9 accepts them: do not edit (PTXVM_BLESS=1 cargo test -p ptxvm-isa --test\n\
         // tcgen05_rows). Checked, not executed (README, Known limits).\n",
    );
    for sp in [false, true] {
        mma(&mut out, sp);
        mma_block_scale(&mut out, sp);
        mma_ws(&mut out, sp);
    }
    ld_st(&mut out);
    out
}

#[test]
fn tcgen05_table_is_current() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/table/tcgen05_mma.isa");
    let fresh = generate();
    if std::env::var_os("PTXVM_BLESS").is_some() {
        std::fs::write(path, &fresh).unwrap();
        return;
    }
    let on_disk = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        on_disk == fresh,
        "src/table/tcgen05_mma.isa is stale: run `PTXVM_BLESS=1 cargo test -p ptxvm-isa --test tcgen05_rows`"
    );
}
