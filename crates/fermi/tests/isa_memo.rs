//! `TextAssembler` (assembling with a memory of the texts seen) gives exactly what
//! `assemble_text` gives, for every text at every address: the remembered words are those of
//! texts whose encoding does not depend on where they sit or on labels.

use fermi::isa::{assemble_text, disassemble_word, TextAssembler};

fn no_labels(_: &str) -> Option<u64> {
    None
}

/// Every word of the cuobjdump listing vectors (all the table's rows NVIDIA emits, branches
/// among them).
fn listing_words() -> Vec<u64> {
    include_str!("data/cuobjdump_sm20.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split(' ').nth(2))
        .filter_map(|h| u64::from_str_radix(h.trim_start_matches("0x"), 16).ok())
        .collect()
}

#[test]
fn remembered_words_match_assembling_afresh_at_any_address() {
    let mut memo = TextAssembler::new();
    let mut moved = 0;
    for (k, w) in listing_words().into_iter().enumerate() {
        let at = 8 * (k as u64 % 4096);
        let text = disassemble_word(w, at);
        let fresh = assemble_text(&text, at, &no_labels);
        assert_eq!(
            memo.assemble(&text, at, &no_labels),
            fresh,
            "{text} at {at:#x}"
        );
        // The same text again elsewhere: a branch's word changes with its address, and the
        // memory must not hand out the word of its first place.
        let elsewhere = at + 0x1000;
        let fresh_there = assemble_text(&text, elsewhere, &no_labels);
        moved += usize::from(fresh_there != fresh);
        assert_eq!(
            memo.assemble(&text, elsewhere, &no_labels),
            fresh_there,
            "{text} at {elsewhere:#x}"
        );
    }
    // The vectors hold branches whose words depend on their place.
    assert!(
        moved > 100,
        "only {moved} texts encode differently elsewhere"
    );
}

#[test]
fn branches_to_labels_follow_the_labels_and_the_address() {
    let mut memo = TextAssembler::new();
    let near = |name: &str| (name == "L").then_some(0x100);
    let far = |name: &str| (name == "L").then_some(0x2000);
    for text in ["BRA L;", "@P0 BRA L;", "SSY L;", "PBK L;", "CAL L;"] {
        for at in [0u64, 0x40, 0x80] {
            for labels in [&near as &dyn Fn(&str) -> Option<u64>, &far] {
                let fresh = assemble_text(text, at, labels);
                assert!(fresh.is_ok(), "{text}: {fresh:?}");
                assert_eq!(memo.assemble(text, at, labels), fresh, "{text} at {at:#x}");
            }
        }
    }
    // A label the map lacks is the parser's error, every time.
    let fresh = assemble_text("BRA M;", 0, &near);
    assert!(fresh.is_err());
    assert_eq!(memo.assemble("BRA M;", 0, &near), fresh);
}

#[test]
fn errors_are_the_parsers_every_time() {
    let mut memo = TextAssembler::new();
    for text in [
        "IADD R0, R1;",
        "FROB R0, R1, R2;",
        "MOV R0, R99;",
        "IADD.XYZ R0, R1, R2;",
        "",
    ] {
        let fresh = assemble_text(text, 0, &no_labels);
        assert!(fresh.is_err(), "{text} assembles");
        for _ in 0..2 {
            assert_eq!(memo.assemble(text, 0, &no_labels), fresh, "{text}");
        }
    }
}

#[test]
fn more_texts_than_it_remembers_still_assemble_right() {
    let mut memo = TextAssembler::new();
    // Past the memory's capacity (1 << 15 texts), twice over, and back to the first ones.
    let texts: Vec<String> = (0..70_000u32)
        .map(|v| format!("MOV32I R{}, {v:#x};", v % 63))
        .collect();
    for text in texts.iter().chain(texts.iter().take(100)) {
        let fresh = assemble_text(text, 0, &no_labels);
        assert!(fresh.is_ok(), "{text}: {fresh:?}");
        assert_eq!(memo.assemble(text, 0x80, &no_labels), fresh, "{text}");
    }
}
