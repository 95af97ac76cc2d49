//! Invariants of the instruction table itself, the coverage of its rows by test vectors, and
//! the generated docs page (`docs/fermi-isa.md`; `PTXVM_BLESS=1` rewrites it).

use std::collections::{BTreeMap, BTreeSet};

use fermi::isa::rows::NOT_SUPPORTED;
use fermi::isa::{decode, Kind, Opd, Row, Source, ROWS};

/// Least-significant-bit-first template → value (an independent reading of the format).
fn template(t: &str) -> Option<u64> {
    let digits: Vec<char> = t.chars().filter(|c| !c.is_whitespace()).collect();
    if digits.len() != 64 {
        return None;
    }
    let mut v = 0u64;
    for (i, c) in digits.iter().enumerate() {
        match c {
            '0' => {}
            '1' => v |= 1 << i,
            _ => return None,
        }
    }
    Some(v)
}

fn bits(lo: u8, width: u8) -> u64 {
    if width == 0 {
        0
    } else {
        (u64::MAX >> (64 - width)) << lo
    }
}

fn operand_bits(o: &Opd) -> Vec<u64> {
    let value = match o.kind {
        Kind::Reg => bits(o.at, 6),
        Kind::Pred => bits(o.at, 3),
        Kind::Comp => bits(26, 22),
        Kind::Imm { width, .. } => bits(o.at, width),
        Kind::Mem { width } => bits(20, 6) | bits(26, width),
        // Five bank bits (42-46): these forms have no composite selector.
        Kind::Cmem => bits(20, 6) | bits(26, 21),
        Kind::Const => bits(26, 20),
        Kind::SplitPred => bits(8, 2) | bits(58, 1),
        Kind::Sreg => bits(26, 8),
        Kind::Target { width } | Kind::AbsTarget { width } => bits(26, width),
        Kind::Text(_) => 0,
        Kind::Named { width, .. } => bits(o.at, width),
        // Mesa emitATOM: offset bits 0-16 at 26, 17-19 at 55.
        Kind::AtomMem => bits(20, 6) | bits(26, 17) | bits(55, 3),
        Kind::MemWords { width } => bits(20, 6) | bits(o.at, width),
    };
    let mut v = vec![value];
    for b in [o.neg, o.not, o.abs, o.cc] {
        if b != u8::MAX {
            v.push(1 << b);
        }
    }
    v
}

/// Each field of a row as a bit mask, with a label.
fn fields(row: &Row) -> Vec<(String, u64)> {
    let mut f = vec![("sched .S".to_string(), 1u64 << 4)];
    if row.guarded {
        f.push(("guard".into(), bits(10, 4)));
    }
    for m in row.mods {
        f.push((m.what.into(), m.bits.iter().fold(0, |a, &b| a | 1 << b)));
    }
    for (i, o) in row.operands.iter().enumerate() {
        for b in operand_bits(o) {
            f.push((format!("operand {i}"), b));
        }
    }
    f
}

#[test]
fn templates_have_64_bits_and_fields_do_not_overlap() {
    for row in ROWS {
        assert!(
            template(row.template).is_some(),
            "{}: bad template",
            row.name
        );
        let mut seen = 0u64;
        for (what, m) in fields(row) {
            assert_eq!(seen & m, 0, "{}: field {what} overlaps another", row.name);
            seen |= m;
        }
        // The opcode bits 0-3 are never a field.
        assert_eq!(seen & 0xf, 0, "{}: a field covers bits 0-3", row.name);
    }
}

#[test]
fn no_two_rows_can_match_the_same_word() {
    let info: Vec<(&Row, u64, u64)> = ROWS
        .iter()
        .map(|r| {
            let used = fields(r).iter().fold(0, |a, (_, m)| a | m);
            let mask = !used;
            (r, template(r.template).unwrap() & mask, mask)
        })
        .collect();
    for (i, (a, fa, ma)) in info.iter().enumerate() {
        for (b, fb, mb) in info.iter().skip(i + 1) {
            let common = ma & mb;
            if fa & common == fb & common && told_apart_by_selector(a, *fa, b, *fb) {
                continue;
            }
            assert_ne!(
                fa & common,
                fb & common,
                "{} and {} overlap: some word would match both",
                a.name,
                b.name
            );
        }
    }
}

/// The composite operand never holds selector 2 (bits 46-47 = 0b10; the decoder rejects it),
/// so a row with a composite and a row whose fixed bits put 2 there match no common word.
fn told_apart_by_selector(a: &Row, fa: u64, b: &Row, fb: u64) -> bool {
    let has_comp = |r: &Row| r.operands.iter().any(|o| o.kind == Kind::Comp);
    let selector_two = |r: &Row, f: u64| {
        let m = !fields(r).iter().fold(0, |acc, (_, m)| acc | m);
        m & (3 << 46) == 3 << 46 && (f >> 46) & 3 == 2
    };
    (has_comp(a) && selector_two(b, fb)) || (has_comp(b) && selector_two(a, fa))
}

#[test]
fn modifier_spellings_are_unambiguous() {
    for row in ROWS {
        for m in row.mods {
            let mut by_name: BTreeMap<&str, u8> = BTreeMap::new();
            for &(v, n) in m.names {
                if let Some(&old) = by_name.get(n) {
                    assert_eq!(old, v, "{}: `{n}` names two values of {}", row.name, m.what);
                }
                by_name.insert(n, v);
                assert!(n.is_empty() || n.starts_with('.'), "{}: `{n}`", row.name);
                assert!(
                    u32::from(v) < 1 << m.bits.len(),
                    "{}: {n} too wide",
                    row.name
                );
            }
        }
    }
}

/// Every row is exercised by a listing vector, or is an asfermi-only row (tested from its
/// template in isa_spec.rs); every opcode of issue 5 is a row or explicitly unsupported.
#[test]
fn every_row_has_a_vector_or_a_reason() {
    let data = include_str!("data/cuobjdump_sm20.txt");
    let mut hit: BTreeSet<(&str, &str)> = BTreeSet::new();
    for line in data.lines().filter(|l| !l.starts_with('#')) {
        let w = line.split(' ').nth(2).unwrap();
        let w = u64::from_str_radix(w.trim_start_matches("0x"), 16).unwrap();
        let inst = decode(w).unwrap();
        hit.insert((inst.row.name, inst.row.template));
    }
    let mut missing = Vec::new();
    for row in ROWS {
        let covered = hit.contains(&(row.name, row.template));
        match row.source {
            Source::Listings if !covered => missing.push(row.name),
            Source::AsfermiOnly(_)
            | Source::SpecPage
            | Source::Derived(_)
            | Source::Mesa(_)
            | Source::Envydis(_) => {
                assert!(!covered, "{} is marked unlisted but has vectors", row.name)
            }
            _ => {}
        }
    }
    assert!(
        missing.is_empty(),
        "rows without a listing vector: {missing:?}"
    );

    let wanted = "MOV MOV32I LD LDU LDL LDC LDS ST STL STS LDLK LDSLK STUL STSUL F2I F2F I2F I2I \
        SSY BRA JMP JCAL CAL PRET RET EXIT PBK BRK PCNT CONT PLONGJMP LONGJMP NOP BAR B2R MEMBAR \
        ATOM RED VOTE FADD FADD32I FMUL FMUL32I FFMA FSETP FCMP MUFU DADD DMUL DFMA DSETP IADD \
        IADD32I IMUL IMUL32I IMAD ISCADD ISETP ICMP VADD LOP LOP32I SHR SHL BFE BFI SEL S2R LEPC \
        CCTL CCTLL PSETP PRMT POPC FLO IMNMX ISET PSET VSHL VSHR VMNMX TLD BPT BRX \
        FMNMX DMNMX FSET DSET RRO ISAD P2R R2P TEX TXQ";
    for op in wanted.split_whitespace() {
        let in_table = ROWS.iter().any(|r| r.name == op);
        let excused = NOT_SUPPORTED.iter().any(|(n, _)| *n == op);
        assert!(
            in_table ^ excused,
            "{op}: in table {in_table}, unsupported {excused}"
        );
    }
}

fn kind_doc(o: &Opd) -> String {
    let deco = |s: String| {
        let mut d = Vec::new();
        for (b, n) in [(o.neg, "-"), (o.not, "!/~"), (o.abs, "abs"), (o.cc, ".CC")] {
            if b != u8::MAX {
                d.push(format!("{n}@{b}"));
            }
        }
        if d.is_empty() {
            s
        } else {
            format!("{s} ({})", d.join(" "))
        }
    };
    let float = match o.float {
        32 => " f32",
        64 => " f64",
        _ => "",
    };
    let s = deco(match o.kind {
        Kind::Reg => format!("R@{}", o.at),
        Kind::Pred => format!("P@{}", o.at),
        Kind::Comp => "R/c[][]/imm20@26".into(),
        Kind::Imm { width, signed } => {
            format!("{}imm{width}@{}", if signed { "s" } else { "u" }, o.at)
        }
        Kind::Mem { width } => format!("[R@20+s{width}@26]"),
        Kind::Cmem => "c[@42(5)][R@20+@26]".into(),
        Kind::Const => "c[@42][@26] (selector 46-47 fixed at 2)".into(),
        Kind::SplitPred => "P@8(2)+58(1)".into(),
        Kind::Sreg => "SR@26".into(),
        Kind::Target { width } => format!("rel{width}@26"),
        Kind::AbsTarget { width } => format!("abs{width}@26"),
        Kind::Text(t) => format!("`{t}`"),
        Kind::Named { width, names } => {
            let names: Vec<String> = names.iter().map(|(v, n)| format!("{v}={n}")).collect();
            format!("named{width}@{} ({})", o.at, names.join(" "))
        }
        Kind::AtomMem => "[R@20+s20@26(17)+55(3)]".into(),
        Kind::MemWords { width } => format!("[R@20+4*s{width}@{}]", o.at),
    });
    let s = if o.omit == u8::MAX {
        s
    } else {
        format!("{s} (omitted if {})", o.omit)
    };
    format!("{s}{float}")
}

fn docs_page() -> String {
    let mut s = String::from(
        "# Fermi (sm_20) instructions supported by `fermi::isa`\n\n\
         Generated from `crates/fermi/src/isa/rows.rs` by `crates/fermi/tests/isa_table.rs` \
         (`PTXVM_BLESS=1 cargo test -p ptxvm-fermi --test isa_table` rewrites it).\n\n\
         Templates are least significant bit first, grouped `op(0-3) mod(4-9) guard(10-13) \
         reg0(14-19) reg1(20-25) composite(26-45) sel(46-47) mod2(48-57) op(58-63)`; bits \
         under fields are ignored. Every row also has the guard predicate (bits 10-13, unless \
         marked unguarded) and `.S` (bit 4). Operands: `R@14` register field at bit 14, \
         `R/c[][]/imm20@26` the composite operand, `-@9` negate bit 9, `f32`/`f64` an \
         immediate that also takes a float literal, `(omitted if v)` an operand left out of \
         the text when it and the row's other such operands hold their value. Rows marked \
         Mesa follow Mesa 22.3.6's Fermi emitter (Debian source package, \
         `src/nouveau/codegen/nv50_ir_emit_nvc0.cpp`, the function named).\n\n\
         Text follows cuobjdump (see `docs/spec-notes.md`); `Dialect::Legacy` \
         reproduces the older cuobjdump of four listing files, which printed no `.W`.\n\n\
         | mnemonic | template | modifiers (bits: spellings) | operands | source |\n\
         |---|---|---|---|---|\n",
    );
    for row in ROWS {
        let mods: Vec<String> = row
            .mods
            .iter()
            .map(|m| {
                let names: Vec<String> = m
                    .names
                    .iter()
                    .map(|(v, n)| format!("{v}={}", if n.is_empty() { "∅" } else { n }))
                    .collect();
                let bits: Vec<String> = m.bits.iter().map(|b| b.to_string()).collect();
                format!("{} [{}]: {}", m.what, bits.join(","), names.join(" "))
            })
            .collect();
        let ops: Vec<String> = row.operands.iter().map(kind_doc).collect();
        let source = match row.source {
            Source::Listings => "listings".to_string(),
            Source::SpecPage => "spec page".to_string(),
            Source::Derived(why) => format!("derived: {why}"),
            Source::AsfermiOnly(why) => format!("asfermi only: {why}"),
            Source::Mesa(f) => format!("Mesa 22.3.6 `{f}`"),
            Source::Envydis(e) => format!("envydis `{e}`"),
        };
        let guard = if row.guarded { "" } else { " (unguarded)" };
        let guard = if row.po {
            format!("{guard} (.PO)")
        } else {
            guard.to_string()
        };
        s.push_str(&format!(
            "| {}{guard} | `{}` | {} | {} | {source} |\n",
            row.name,
            row.template,
            mods.join("<br>"),
            ops.join(", ")
        ));
    }
    s.push_str("\n## Not supported\n\n");
    if NOT_SUPPORTED.is_empty() {
        s.push_str("None: every opcode of asfermi's `Instructions.md` has a row.\n");
    }
    for (n, why) in NOT_SUPPORTED {
        s.push_str(&format!("- {n}: {why}\n"));
    }
    s
}

#[test]
fn docs_page_is_generated_from_the_table() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/fermi-isa.md");
    let want = docs_page();
    if std::env::var_os("PTXVM_BLESS").is_some() {
        std::fs::write(path, &want).unwrap();
    }
    let have = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        have == want,
        "docs/fermi-isa.md is stale; rerun with PTXVM_BLESS=1"
    );
}

mod every_row_round_trips {
    use super::{fields, template};
    use fermi::isa::{assemble_text, decode, disassemble_word, encode, ROWS};
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]

        /// A row's fixed bits with random field bits: whenever the fields hold defined values
        /// the word decodes to that row, re-encodes to itself, and its text assembles back.
        #[test]
        fn random_fields_of_every_row(index in 0..ROWS.len(), noise in any::<u64>(), addr in (0u64..0x8000).prop_map(|a| a * 8)) {
            let row = &ROWS[index];
            let used = fields(row).iter().fold(0u64, |a, (_, m)| a | m);
            let fixed = template(row.template).unwrap() & !used;
            let word = (fixed | (noise & used)).rotate_left(32);
            if let Ok(inst) = decode(word) {
                prop_assert_eq!(inst.row.name, row.name);
                prop_assert_eq!(encode(&inst), word);
                let text = disassemble_word(word, addr);
                let back = assemble_text(&text, addr, &|_| None);
                prop_assert_eq!(back, Ok(word), "{}", text);
            }
        }
    }

    /// Every row decodes for at least one filling of its fields (all-zero fields, with the
    /// modifier groups set to a defined value).
    #[test]
    fn every_row_has_a_decodable_word() {
        for row in ROWS {
            let used = fields(row).iter().fold(0u64, |a, (_, m)| a | m);
            let mut bits = template(row.template).unwrap() & !used;
            for m in row.mods {
                let (v, _) = m.names[0];
                for (i, &b) in m.bits.iter().enumerate() {
                    bits |= u64::from((v >> i) & 1) << b;
                }
            }
            // Guard pt, so the word prints without a predicate.
            if row.guarded {
                bits |= 7 << 10;
            }
            let word = bits.rotate_left(32);
            let inst = decode(word).unwrap_or_else(|e| panic!("{}: {e}", row.name));
            assert_eq!(inst.row.name, row.name);
        }
    }
}
