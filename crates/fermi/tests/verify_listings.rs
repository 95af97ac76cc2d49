//! Verify mode on NVIDIA listings: clean where everything agrees, and every planted
//! disagreement reported at its line with the right kind and counts. Needs the real instruction
//! table (`fermi::isa`).

use diag::SourceFile;
use fermi::asm::{assemble_file_with, AsmOptions};
use fermi::isa::Dialect;
use fermi::listing::parse_listing_line;
use fermi::verify::{verify_listing, verify_listing_with, MismatchKind};

const CURRENT: &str = include_str!("container-data/mailbag_maxindex_maxindex.isa");
const LEGACY: &str = include_str!("container-data/sort_isa_count_CountBuckets_2.isa");

fn instruction_lines(text: &str) -> usize {
    text.lines()
        .filter(|l| parse_listing_line(l).is_some())
        .count()
}

#[test]
fn current_listing_is_clean() {
    let r = verify_listing("m.isa", CURRENT);
    assert_eq!(r.dialect, Dialect::Current);
    assert_eq!(r.lines, instruction_lines(CURRENT));
    assert!(r.is_clean(), "{r}");
    assert_eq!(
        r.to_string(),
        format!(
            "m.isa: {} lines, 0 encode mismatches, 0 decode mismatches\n",
            r.lines
        )
    );
}

#[test]
fn legacy_listing_is_recognised_and_clean() {
    let strict = verify_listing_with("c.isa", LEGACY, Dialect::Current);
    assert!(
        strict.decode_mismatches > 0,
        "the excerpt should need the legacy spelling"
    );
    let r = verify_listing("c.isa", LEGACY);
    assert_eq!(r.dialect, Dialect::Legacy);
    assert_eq!(r.lines, instruction_lines(LEGACY));
    assert!(r.is_clean(), "{r}");
    assert!(r.to_string().contains("legacy"));
}

#[test]
fn legacy_listing_assembles_with_the_legacy_option() {
    let file = SourceFile::new("c.isa", LEGACY);
    let a = assemble_file_with(&file, &AsmOptions::default(), Dialect::Legacy)
        .unwrap_or_else(|d| panic!("{}", diag::render(&file, &d)));
    let words: Vec<u64> = LEGACY
        .lines()
        .filter_map(parse_listing_line)
        .map(|l| l.word)
        .collect();
    assert_eq!(a.module.kernels[0].code, words);
    assert_eq!(a.module.kernels[0].name, "CountBuckets_2");
}

#[test]
fn planted_disagreements_are_reported_at_their_lines() {
    let mut lines: Vec<String> = CURRENT.lines().map(str::to_string).collect();
    let instr: Vec<usize> = (0..lines.len())
        .filter(|&i| parse_listing_line(&lines[i]).is_some())
        .collect();
    // A different word under unchanged text: both directions disagree on that line.
    let (word_line, text_line) = (instr[3], instr[10]);
    let l = parse_listing_line(&lines[word_line]).unwrap();
    let (old_word, new_word) = (
        format!("0x{:016x}", l.word),
        "0x00001de780000000".to_string(),
    );
    assert_ne!(old_word, new_word);
    lines[word_line] = lines[word_line].replace(&old_word, &new_word);
    // Text naming a different destination register under an unchanged word.
    let t = parse_listing_line(&lines[text_line])
        .unwrap()
        .text
        .to_string();
    let reg = t
        .split(|c: char| !c.is_ascii_alphanumeric())
        .find(|w| w.starts_with('R') && w.len() > 1)
        .unwrap()
        .to_string();
    let other = if reg == "R9" { "R10" } else { "R9" };
    lines[text_line] = lines[text_line].replacen(&reg, other, 1);
    let text = lines.join("\n");

    let r = verify_listing("m.isa", &text);
    assert_eq!(r.lines, instr.len());
    assert_eq!((r.encode_mismatches, r.decode_mismatches), (2, 2), "{r}");
    let at = |line: usize, kind| {
        r.mismatches
            .iter()
            .any(|m| m.line == line + 1 && m.kind == kind)
    };
    for line in [word_line, text_line] {
        assert!(
            at(line, MismatchKind::Encode) && at(line, MismatchKind::Decode),
            "{r}"
        );
    }
    let word_mismatch = r
        .mismatches
        .iter()
        .find(|m| m.line == word_line + 1 && m.kind == MismatchKind::Encode)
        .unwrap();
    assert_eq!(word_mismatch.expected, new_word);
    assert_eq!(word_mismatch.got, old_word);
    let shown = r.to_string();
    assert!(
        shown.contains(&format!("m.isa:{}: encode mismatch", word_line + 1)),
        "{shown}"
    );
    assert!(
        shown.contains(&format!("m.isa:{}: decode mismatch", text_line + 1)),
        "{shown}"
    );
    assert!(
        shown.ends_with("2 encode mismatches, 2 decode mismatches\n"),
        "{shown}"
    );
}
